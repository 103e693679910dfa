"""Public job files that are not in ../shared (issue 28): facts we wrote, kept here, for files
fetched by hand from public repositories into a folder outside the project. They measure the
importers on files nobody tuned on, beyond the two halves of test_real_files.py.

The files themselves are never copied into the project: each set's `sources.tsv` (flat name,
repository, path, commit) says where each one is, and the facts' `source:` line repeats it. Put
the files, named by their flat name, in one folder (any sub-folders), then:

    python -m tests.jobs.jobformat.public_files FOLDER            # every set, totals
    python -m tests.jobs.jobformat.public_files FOLDER seen -v    # one set, file by file

Sets (fixtures/imports/public/<set>/{sbatch,skypilot}/<flat name>.expected.yaml):
- `seen`, `seen-b` … `seen-z` (no `seen-i`, `seen-o`): files whose misses were read to write
  general rules (7 Dec 2026); tuning sets (each set's first look, before its rules, is in
  docs/job-format.md).
- `held-out`: files only ever scored as a total; `-v` is refused for them. A file of it that
  is read to fix something moves to `seen`, with its facts, the same day.

Not part of the suite: CI has no copy of these files."""

import sys
from pathlib import Path

from tests.jobs.jobformat.fidelity import Score, expected_for, report, score_file

SETS = Path(__file__).parent / "fixtures" / "imports" / "public"
KINDS = ("sbatch", "skypilot")


def facts_of(name):
    """[(kind, flat name, facts path)] of one set."""
    found = []
    for kind in KINDS:
        for facts in sorted((SETS / name / kind).glob("*.expected.yaml")):
            found.append((kind, facts.name.removesuffix(".expected.yaml"), facts))
    return found


def score_set(name, folder, verbose=False):
    """Print one set's totals per kind; files not in FOLDER are listed with their source."""
    by_name = {path.name: path for path in Path(folder).rglob("*") if path.is_file()}
    totals = {kind: (0, Score()) for kind in KINDS}
    absent = []
    for kind, flat, facts in facts_of(name):
        if flat not in by_name:
            absent.append(f"{flat} ({expected_for(facts.with_name(flat)).get('source', '?')})")
            continue
        score = score_file(by_name[flat], expected_for(facts.with_name(flat)))
        count, total = totals[kind]
        total.add(score)
        totals[kind] = (count + 1, total)
        if verbose and (score.wrong or score.missed or score.false_alarms):
            print(f"== {kind}/{flat}\n{report(score)}")
    for kind, (count, total) in totals.items():
        print(
            f"{name} {kind}: {count} files, captured {total.captured} of {total.total} "
            f"({total.ratio():.1%}), {len(total.wrong)} wrong, "
            f"{len(total.false_alarms)} false alarms"
        )
    if absent:
        print(f"{len(absent)} files of {name} not in {folder}:", *absent, sep="\n  ")


def main(args):
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    if not args:
        sys.exit(__doc__)
    folder, chosen = args[0], args[1:] or sorted(p.name for p in SETS.iterdir() if p.is_dir())
    if verbose and "held-out" in chosen:
        sys.exit("held-out files are scored as totals only; -v is for `seen`")
    for name in chosen:
        score_set(name, folder, verbose)


if __name__ == "__main__":
    main(sys.argv[1:])
