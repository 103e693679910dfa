"""`jobspec` starts fast: the command line's schema / lint / import never start Django. How
import time grows with the file is `python -m portal.devtools.jobformat_bench`'s to measure, not a test's."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("action", [["schema"], ["lint", "-"], ["import", "-", "--json"]])
def test_the_command_line_answers_without_loading_django(action):
    probe = (
        "import sys, manage\n"
        f"sys.argv = ['manage.py', 'jobspec', *{action!r}]\n"
        "try:\n    manage.main()\nexcept SystemExit as stop:\n    code = stop.code\n"
        "print('django loaded' if 'django' in sys.modules else 'no django', code, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        input="#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:a100:8\npython train.py\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert "no django" in done.stderr, done.stderr
    assert done.stderr.strip().endswith(("0", "1")), done.stderr
    assert done.stdout.strip()


def test_python_m_jobs_spec_is_the_same_command():
    done = subprocess.run(
        [sys.executable, "-m", "jobs.jobformat", "import", "-", "--json"],
        input="resources:\n  cpus: 4+\nrun: python prep.py\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert '"no_accelerators": true' in done.stdout
