"""`python -m jobs.spec schema|lint|import …` (see cli.py)."""

import sys

from .cli import main

sys.exit(main())
