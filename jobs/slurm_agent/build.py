"""`make agent`: the agent as one file an operator copies to a login node.

    python -m jobs.slurm_agent.build [var/e31-slurm-agent.pyz]

A zipapp (python -m zipapp) holding this package as `slurm_agent/` (its deploy/ files
included, this builder and caches left out) and a `__main__.py` that runs its command line;
the interpreter line is `/usr/bin/env python3`. Standard library only, like the agent."""

import shutil
import sys
import tempfile
import zipapp
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = Path("var/e31-slurm-agent.pyz")
MAIN = "import sys\n\nfrom slurm_agent.cli import main\n\nsys.exit(main())\n"


def build(target=DEFAULT):
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as staging:
        root = Path(staging)
        shutil.copytree(
            HERE,
            root / "slurm_agent",
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "build.py"),
        )
        (root / "__main__.py").write_text(MAIN)
        zipapp.create_archive(root, target, interpreter="/usr/bin/env python3", compressed=True)
    return target


if __name__ == "__main__":
    print(build(sys.argv[1] if len(sys.argv) > 1 else DEFAULT))
