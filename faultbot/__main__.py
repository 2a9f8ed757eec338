"""Run faultbot as ``python -m faultbot``."""

import sys

from .cli.main import main

sys.exit(main())
