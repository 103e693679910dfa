"""Declaration fidelity: real-looking SkyPilot and Slurm files (tests/jobs/jobformat/fixtures/imports/,
each with the facts an engineer reads from it next to it) import with at least 95 % of
those facts captured, none stated wrongly and no false alarm (see tests/jobs/jobformat/fidelity.py)."""

from pathlib import Path

import pytest

from tests.jobs.jobformat.fidelity import Score, report, score_file

CORPUS = Path(__file__).parent / "fixtures" / "imports"
FILES = sorted(
    p
    for p in CORPUS.glob("*/*")
    # (the notes kept beside the files, README.md and public/ADDING-A-SET.md, are no job files)
    if p.is_file() and not p.name.endswith((".expected.yaml", ".md"))
)


def test_the_corpus_covers_both_formats_with_enough_files():
    kinds = {p.parent.name for p in FILES}
    assert {"skypilot", "sbatch"} <= kinds
    assert len(FILES) >= 40
    missing = [p.name for p in FILES if not Path(f"{p}.expected.yaml").exists()]
    assert not missing, f"files without expected facts: {missing}"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_no_fact_stated_wrongly_and_no_false_alarm(path):
    score = score_file(path)
    assert not score.wrong and not score.false_alarms, report(score)


def test_at_least_95_percent_of_facts_are_captured():
    total = Score()
    for path in FILES:
        total.add(score_file(path))
    assert total.total > 300, report(total)
    assert total.ratio() >= 0.95, report(total)
    assert not total.wrong and not total.false_alarms, report(total)
