"""The same score on the verbatim public files in ../shared/corpus: the expected facts live
in tests/jobs/jobformat/fixtures/imports/shared/ (one file per corpus file); skipped with a message
when the corpus is not beside this clone."""

from pathlib import Path

import pytest

from tests.jobs.jobformat.fidelity import Score, expected_for, report, score_file

pytestmark = pytest.mark.shared_corpus
EXPECTED = Path(__file__).parent / "fixtures" / "imports" / "shared"


def test_every_corpus_file_has_expected_facts(shared_corpus_files):
    assert shared_corpus_files
    missing = [
        p.name
        for p, _ in shared_corpus_files
        if not (EXPECTED / f"{p.name}.expected.yaml").exists()
    ]
    assert not missing, missing


def test_no_fact_stated_wrongly_and_no_false_alarm(shared_corpus_file):
    path = shared_corpus_file.path
    score = score_file(path, expected_for(EXPECTED / path.name))
    assert not score.wrong and not score.false_alarms, report(score)


def test_at_least_95_percent_of_facts_are_captured(shared_corpus_files):
    total = Score()
    for path, _ in shared_corpus_files:
        total.add(score_file(path, expected_for(EXPECTED / path.name)))
    assert total.ratio() >= 0.95 and not total.wrong and not total.false_alarms, report(total)
