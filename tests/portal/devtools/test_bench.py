"""`manage.py bench` refuses what would hurt, and its HTML form reader posts what a browser
posts. (The benchmark itself runs from `make bench`, never in the suite: it takes minutes.)"""

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from portal.devtools.client import Sample, form_fields

PAGE = """
<form id="other"><input name="nope" value="1"></form>
<form method="post" id="step-form" class="step-form">
  <input type="hidden" name="csrfmiddlewaretoken" value="tok">
  <input name="name" value="masks">
  <input type="checkbox" name="flag" value="on" checked>
  <input type="checkbox" name="off" value="on">
  <input type="radio" name="shape" value="shards" checked><input type="radio" name="shape" value="one">
  <select name="kind"><option value="a">A</option><option value="b" selected>B</option></select>
  <textarea name="summary">Two
lines</textarea>
  <button type="submit" name="go">Go</button>
</form>
"""


def test_form_fields_are_what_a_browser_submits():
    assert form_fields(PAGE, "step-form") == [
        ("csrfmiddlewaretoken", "tok"),
        ("name", "masks"),
        ("flag", "on"),
        ("shape", "shards"),
        ("kind", "b"),
        ("summary", "Two\nlines"),
    ]


def test_percentiles():
    sample = Sample(requests=4, seconds=2.0, latencies=[0.4, 0.1, 0.3, 0.2], bytes=10, errors=0)
    assert (
        sample.rps == 2.0 and sample.percentile(50) in (0.2, 0.3) and sample.percentile(99) == 0.4
    )


@pytest.mark.django_db
def test_bench_needs_postgresql_and_consent():
    if connection.vendor != "postgresql":
        with pytest.raises(CommandError, match="PostgreSQL"):
            call_command("bench", wipe=True)
    else:
        with pytest.raises(CommandError, match="--wipe"):
            call_command("bench")


def test_the_paired_column_shows_median_and_range_or_says_it_is_floor_normalised():
    from portal.devtools.management.commands.bench import Command

    paired = {"jobs": [1.02, 0.97, 1.2]}
    assert Command.paired_cell(paired, "jobs", 1.5) == "1.02 (0.97–1.20)"
    assert Command.paired_cell(paired, "autosave", 1.5) == "1.50 (vs floor)"
    assert Command.paired_cell(None, "autosave", None) == "— (vs floor)"
