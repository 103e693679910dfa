#!/usr/bin/env python
import os
import sys

# `jobspec schema|lint|import` need only the format (jobs/jobformat, no Django): answering them
# before Django starts saves its whole start-up on every call (see README, "Command line").
FAST = {"schema", "lint", "import"}


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "jobspec" and sys.argv[2] in FAST:
        from jobs.jobformat.cli import main as jobspec

        sys.exit(jobspec(sys.argv[2:]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
