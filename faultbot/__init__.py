"""faultbot: diagnose Ascend NPU distributed job failures from their logs."""

__version__ = "0.21.0"
