"""The ledger's chart: coordinates worked out once in Python, printed as they are."""

from jobs.runs.ledger import Ledger, PhaseLine, chart
from jobs.runs.models import Phase


def line(phase, hours):
    return PhaseLine(phase=phase, hours=hours, seconds=3600, accelerators=8, open=False)


def test_bars_are_scaled_to_the_largest_figure_and_stacked_by_phase():
    # 440 px of bar for the largest of the three (640 wide, 200 for labels and values).
    ledger = Ledger(
        requested=100.0,
        expected=50.0,
        phases=[line(Phase.STAGING, 10.0), line(Phase.RUNNING, 40.0)],
    )
    drawn = chart(ledger)
    requested, expected, held = drawn["rows"]
    assert (requested["label"], requested["width"], requested["css"]) == (
        "Requested",
        "440.0",
        "bar-requested",
    )
    assert expected["width"] == "220.0"
    assert [(s["phase"], s["x"], s["width"]) for s in held["segments"]] == [
        ("staging", "0.0", "44.0"),
        ("running", "44.0", "176.0"),
    ]
    assert held["width"] == "220.0" and held["value"] == 50.0
    # The labels sit on a baseline inside each bar, the rows one below the other.
    assert [(r["y"], r["text_y"]) for r in drawn["rows"]] == [(10, 28), (48, 66), (86, 104)]
    assert drawn["height"] == 86 + 26 + 10


def test_coordinates_round_halves_up_to_a_tenth():
    # One pixel an hour: 0.25 h is a quarter pixel, written 0.3 (float rounding to even says 0.2).
    ledger = Ledger(requested=440.0, expected=None, phases=[line(Phase.RUNNING, 0.25)])
    requested, expected, held = chart(ledger)["rows"]
    assert held["segments"][0]["width"] == "0.3"
    assert expected["width"] == "0.0"  # nothing expected: no bar
