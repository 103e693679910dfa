"""The format's shapes for real jobs: CPU-only, chains, elastic minimums, fractions, sizes
with a decimal in a binary unit, unresolved variables and mounts of unclear direction."""

import pytest

from jobs import jobformat
from jobs.jobformat.quantities import Size


def codes(data):
    _, issues = jobformat.lint(data)
    return {(i.field, i.code, i.level) for i in issues}


@pytest.mark.parametrize("text", ["1.8 TiB", "0.75 GiB", "2.3 PiB", "1.1 KiB"])
def test_a_decimal_in_a_binary_unit_is_exact_and_prints_back(text):
    size = Size.of(text)
    assert size.exact
    assert Size.of(size.text).value == size.value
    issues = codes({"data": {"inputs": [{"size": text}]}})
    assert not [c for c in issues if c[0] == "data.inputs.0.size"]


def test_a_fraction_of_a_byte_is_still_not_exact():
    assert not Size.of("0.5 B").exact


def test_no_accelerators_answers_the_accelerator_question_and_asks_for_node_hours():
    found = codes({"request": {"no_accelerators": True, "nodes": 4}})
    assert not [c for c in found if c[1] == "missing_accelerator"]
    assert ("request.expected_node_hours", "missing_expected_hours", "error") in found
    assert not [c for c in found if c[0] == "request.expected_accelerator_hours"]


def test_no_accelerators_with_accelerators_is_inconsistent():
    found = codes({"request": {"no_accelerators": True, "accelerators": [{"type": "A100"}]}})
    assert ("request.no_accelerators", "accelerators_and_no_accelerators", "error") in found


def test_node_hours_expected_is_compared_with_the_request():
    data = {"request": {"no_accelerators": True, "nodes": 4, "estimate": "10h"}}
    description, _ = jobformat.lint(data)
    assert jobformat.requested_node_hours(description) == 40
    data["request"]["expected_node_hours"] = 100
    assert ("request.expected_node_hours", "expected_hours_mismatch", "warning") in codes(data)
    data["request"]["expected_node_hours"] = 42
    assert not [c for c in codes(data) if c[1] == "expected_hours_mismatch"]


def test_a_chain_needs_its_number_of_runs():
    assert ("work.chain_runs", "missing_chain_runs", "error") in codes({"work": {"shape": "chain"}})
    assert not [c for c in codes({"work": {"shape": "chain", "chain_runs": 10}}) if "chain" in c[1]]


def test_fractional_counts_are_kept_and_whole_ones_stay_integers():
    description, issues = jobformat.lint(
        {"request": {"accelerators": [{"type": "L4", "count": 0.5}], "cpus_per_node": 8.0}}
    )
    assert description.request.accelerators[0].count == 0.5
    assert description.to_data()["request"]["cpus_per_node"] == 8
    assert isinstance(description.to_data()["request"]["cpus_per_node"], int)
    assert not [i for i in issues if i.code == "invalid"]


@pytest.mark.parametrize("count", [0, -1, True, "two"])
def test_counts_that_are_not_positive_numbers_are_refused(count):
    _, issues = jobformat.lint({"request": {"accelerators": [{"count": count}]}})
    assert [i for i in issues if i.field == "request.accelerators.0.count" and i.code == "invalid"]


def test_a_location_with_an_unset_variable_names_it():
    found = codes({"output": {"artifacts": [{"destination": "s3://${BUCKET}/out"}]}})
    assert ("output.artifacts.0.destination", "unresolved_variable", "warning") in found


def test_one_question_per_mount_of_unclear_direction():
    _, issues = jobformat.lint({"data": {"unclassified": ["/mnt/team -> volume://team"]}})
    about = [i for i in issues if i.field.startswith("data.unclassified")]
    assert [(i.code, i.level) for i in about] == [("unclear_data_direction", "warning")]


def test_the_new_fields_are_in_the_published_schema():
    schema = jobformat.json_schema()["$defs"]
    assert {"no_accelerators", "instance_type", "node_features", "expected_node_hours"} <= set(
        schema["Request"]["properties"]
    )
    assert {"chain_runs", "nodes_per_shard", "runs_with", "code", "credentials"} <= set(
        schema["Work"]["properties"]
    )
    assert "chain" in schema["Shape"]["enum"]
