"""`manage.py bench` refuses what would hurt, its HTML form reader posts what a browser posts,
and its arithmetic (percentiles, the access log it reads, the cells it prints, the PASS/FAIL
rules of issue 27) is right. (The benchmark itself runs from `make bench`, never in the suite:
it takes minutes.)"""

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from portal.devtools.client import Sample, form_fields, percentile
from portal.devtools.management.commands import bench
from portal.devtools.management.commands.bench import ADMIN, AUTOSAVE, FLOOR_LABEL, TRIAGE, Command

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
    paired = {"jobs": [1.02, 0.97, 1.2]}
    assert Command.paired_cell(paired, "jobs", 1.5) == "1.02 (0.97–1.20)"
    assert Command.paired_cell(paired, "autosave", 1.5) == "1.50 (vs floor)"
    assert Command.paired_cell(None, "autosave", None) == "— (vs floor)"


def test_percentiles_are_nearest_rank_so_always_a_measured_time():
    times = list(range(200, 0, -1))  # 1..200 ms, in any order
    assert percentile(times, 50) == 100 and percentile(times, 95) == 190
    assert percentile(times, 100) == 200 and percentile(times, 0) == 1
    assert percentile([7.5], 95) == 7.5
    assert percentile([1, 2, 3], 50) == 2
    assert percentile([], 50) != percentile([], 50)  # nan: nothing was measured


def test_server_times_are_read_from_the_lines_the_bench_marked():
    lines = [
        "- 200 9000\n",  # another request, unmarked
        "bench-3 200 7250\n",
        "bench-31 200 1000\n",
        "bench-3 500 120000\n",
        "bench-3 200",  # a line still being written
    ]
    assert bench.server_times(lines, "bench-3") == [(200, 7.25), (500, 120.0)]


def test_the_baseline_is_5x_or_half_a_small_factor():
    assert [bench.baseline_for(f) for f in (100, 6, 5, 2, 1)] == [5, 5, 2, 1, 0]


def test_cells_mark_what_misses_a_target_and_only_on_target_rows():
    fast = {"p50": 7.25, "p95": 12.0, "errors": 0}
    slow = {"p50": 31.0, "p95": 81.0, "errors": 2}
    assert Command.time_cell(fast, "p50", 30, "partner /jobs/") == "7.2 ms"
    assert Command.time_cell(slow, "p95", 80, "partner /jobs/") == "81.0 ms ✗ (2 errors)"
    assert Command.time_cell(slow, "p50", 30, ADMIN) == "31.0 ms (2 errors)"
    assert Command.paired_cell({"jobs": [1.25, 1.3, 1.1]}, "jobs", None) == "1.25 (1.10–1.30) ✗"
    assert Command.paired_cell({ADMIN: [4.4]}, ADMIN, None) == "4.40 (4.40–4.40)"
    assert Command.queries_cell(5, 5) == "5 / 5"
    assert Command.queries_cell(5, 6) == "5 / 6 ✗"
    assert Command.queries_cell(None, 6) == "6"
    assert Command.queries_cell(None, "") == "—"


def measured(base=5, **changes):
    """What a good run at 100× against 5× hands to `verdicts`, with `changes` on top."""
    server = {
        FLOOR_LABEL: {"p50": 5.0, "p95": 6.0, "errors": 0},
        "partner /jobs/": {"p50": 8.0, "p95": 11.0, "errors": 0},
        TRIAGE: {"p50": 8.0, "p95": 12.0, "errors": 0},
        ADMIN: {"p50": 350.0, "p95": 400.0, "errors": 0},
        AUTOSAVE: {"p50": 8.0, "p95": 10.0, "errors": 0},
    }
    queries = {FLOOR_LABEL: (3, 3), "partner /jobs/": (5, 5), TRIAGE: (6, 6), ADMIN: (10, 10)}
    queries[AUTOSAVE] = ("", "")  # posted, not counted
    paired = {FLOOR_LABEL: [1.0], "partner /jobs/": [1.03, 1.1], TRIAGE: [1.05], ADMIN: [4.5]}
    ingest = {"one run": {"rate": 8790.0}, "50 runs": {"rate": 4407.0}}
    run = {"server": server, "queries": queries, "paired": paired, "ingest": ingest}
    run.update(changes)
    return bench.verdicts(**run, factor=100, base=base)


def test_a_good_run_passes_every_target_and_says_so():
    results = measured()
    assert [passed for passed, _ in results] == [True] * 6
    texts = [text for _, text in results]
    assert (
        texts[0] == "server time p50 ≤ 30 ms on every page at 100×: slowest partner /jobs/ 8.0 ms"
    )
    assert texts[2] == "same queries at 5× and at 100×: 3 pages"
    assert texts[3].endswith("highest partner /jobs/ 1.06")
    assert "44× (8.0 ms against 350.0 ms)" in texts[4]
    assert texts[5] == "scheduler batch ingest ≥ 2,000 events/s: one run 8,790, 50 runs 4,407"
    lines = bench.verdict_lines(results)
    assert (
        lines[0].startswith("- PASS: server time p50")
        and lines[-1] == "\nPASS: 6 of 6 targets met."
    )


def test_each_target_fails_on_its_own_rule():
    slow = {"p50": 31.0, "p95": 81.0, "errors": 0}
    server = {
        FLOOR_LABEL: {"p50": 99.0, "p95": 99.0, "errors": 0},  # the control: no target
        "partner /jobs/": slow,
        TRIAGE: {"p50": 40.0, "p95": 50.0, "errors": 1},
        ADMIN: {"p50": 350.0, "p95": 400.0, "errors": 0},
    }
    results = measured(
        server=server,
        queries={FLOOR_LABEL: (3, 4), "partner /jobs/": (5, 6), TRIAGE: (6, 6)},
        paired={FLOOR_LABEL: [1.5], "partner /jobs/": [1.21], TRIAGE: [1.2], ADMIN: [4.5]},
        ingest={"one run": {"rate": 1999.0}, "50 runs": {"failed": "failed: HTTP 500"}},
    )
    assert [passed for passed, _ in results] == [False] * 6
    texts = [text for _, text in results]
    assert texts[0].endswith(
        "over: partner /jobs/ 31.0 ms; staff triage: filter + search + sort 40.0 ms; "
        "staff triage: filter + search + sort (1 errors)"
    )
    assert "over: partner /jobs/ 81.0 ms;" in texts[1]
    assert texts[2].endswith("differ: partner /jobs/ 5 → 6")  # the floor's count is not a page's
    assert texts[3].endswith("over: partner /jobs/ 1.21")  # 1.2 itself is within
    assert "9× (40.0 ms against 350.0 ms)" in texts[4]
    assert texts[5].endswith("one run 1,999, 50 runs failed: HTTP 500")
    assert bench.verdict_lines(results)[-1] == "\nFAIL: 6 of 6 targets missed."


def test_a_run_without_a_baseline_says_what_it_did_not_measure():
    results = measured(base=0, paired=None, queries={"partner /jobs/": (None, 5)})
    assert [passed for passed, _ in results] == [True, True, None, None, True, True]
    assert bench.verdict_lines(results)[-1] == "\nPASS: 4 of 6 targets met (2 not measured)."
