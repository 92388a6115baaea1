"""`python -m dealer.engine.phh replay FILE...` / `legal FILE` (see dealer/engine/phh/cli.py)."""

import sys

from dealer.engine.phh.cli import main

sys.exit(main())
