"""`python -m jobs.jobformat schema|lint|import …` (see cli.py)."""

import sys

from .cli import main

sys.exit(main())
