"""Every verbatim public file in ../shared/corpus has its expected facts in
tests/jobs/jobformat/fixtures/imports/shared/ (one file per corpus file); they are scored with
corpus2's in test_real_files.py, split into a tuning and a held-out half. Skipped with a message
when the corpus is not beside this clone."""

from pathlib import Path

import pytest

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
