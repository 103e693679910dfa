"""The same score on the verbatim public files in ../shared/corpus: the expected facts live
in tests/jobs/jobformat/fixtures/imports/shared/ (one file per corpus file); skipped with a message
when the corpus is not beside this clone."""

import csv

import pytest

from tests.conftest import SHARED_CORPUS, needs_shared_corpus
from tests.jobs.jobformat.fidelity import Score, expected_for, report, score_file
from tests.jobs.jobformat.test_import_fidelity import CORPUS

pytestmark = needs_shared_corpus()
EXPECTED = CORPUS / "shared"


def corpus_files():
    rows = []
    for manifest in sorted(SHARED_CORPUS.glob("*/MANIFEST.csv")):
        with manifest.open() as handle:
            rows += [manifest.parent / row["flat_name"] for row in csv.DictReader(handle)]
    return rows


FILES = corpus_files() if SHARED_CORPUS.is_dir() else []


def test_every_corpus_file_has_expected_facts():
    assert FILES
    missing = [p.name for p in FILES if not (EXPECTED / f"{p.name}.expected.yaml").exists()]
    assert not missing, missing


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_no_fact_stated_wrongly_and_no_false_alarm(path):
    score = score_file(path, expected_for(EXPECTED / path.name))
    assert not score.wrong and not score.false_alarms, report(score)


def test_at_least_95_percent_of_facts_are_captured():
    total = Score()
    for path in FILES:
        total.add(score_file(path, expected_for(EXPECTED / path.name)))
    assert total.ratio() >= 0.95 and not total.wrong and not total.false_alarms, report(total)
