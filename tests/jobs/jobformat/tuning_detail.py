"""Per-file detail for the TUNING half of the real files (issue 28): misses, wrongs and false
alarms, file by file. It refuses held-out files: their misses are only ever read as a total.

    python -m tests.jobs.jobformat.tuning_detail [substring ...]"""

import sys

from tests.jobs.jobformat.fidelity import expected_for, report, score_file
from tests.jobs.jobformat.test_real_files import SHARED, half_of, real_files


def main(args):
    shown = 0
    for path, expected in real_files(SHARED):
        if args and not any(a in path.name for a in args):
            continue
        if half_of(path.name) != "tuning":
            if args:
                print(f"{path.name}: held out, not shown")
            continue
        score = score_file(path, expected_for(expected.with_name(path.name)))
        if score.wrong or score.missed or score.false_alarms:
            print(f"== {path.parent.parent.name}/{path.parent.name}/{path.name}")
            print(report(score))
            shown += 1
    print(f"{shown} tuning files with something left")


if __name__ == "__main__":
    main(sys.argv[1:])
