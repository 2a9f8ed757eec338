"""The error a derivation rule raises when it fails: reported with the rule's id, never swallowed."""

from __future__ import annotations


class RuleError(RuntimeError):
    def __init__(self, rule_id: str, error: Exception):
        super().__init__(f"rule '{rule_id}' failed: {type(error).__name__}: {error}")
        self.rule_id = rule_id
