"""The precision check, one code at a time, on the shipped complete example."""

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobs import jobformat

EXAMPLE = jobformat.example_data()


def codes_for(changes=(), removals=()):
    data = copy.deepcopy(EXAMPLE)
    for path, value in changes:
        node = data
        *parents, last = path.split(".")
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    for path in removals:
        node = data
        *parents, last = path.split(".")
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[last]
    _, issues = jobformat.lint(data)
    return {(i.field, i.code) for i in issues}, issues


def test_the_shipped_example_is_complete_and_exact():
    _, issues = codes_for()
    assert issues == []


@pytest.mark.parametrize(
    ("removed", "field", "code"),
    [
        ("work.kind", "work.kind", "missing_work_kind"),
        ("work.summary", "work.summary", "missing_summary"),
        ("work.shape", "work.shape", "missing_shape"),
        ("work.shards", "work.shards", "missing_shard_count"),
        ("work.amount", "work.amount", "missing_amount"),
        ("data.inputs.0.size", "data.inputs.0.size", "missing_data_size"),
        ("data.inputs.0.location", "data.inputs.0.location", "missing_data_location"),
        ("data.inputs.0.access", "data.inputs.0.access", "missing_data_access"),
        ("data.inputs", "data.inputs", "missing_data"),
        ("data.scratch", "data.scratch", "missing_scratch"),
        ("request.accelerators", "request.accelerators", "missing_accelerator"),
        ("request.nodes", "request.nodes", "missing_nodes"),
        ("request.estimate", "request.estimate", "missing_duration"),
        ("request.maximum", "request.maximum", "missing_maximum"),
        ("request.deadline", "request.deadline", "missing_deadline"),
        ("request.on_deadline_missed", "request.on_deadline_missed", "missing_deadline_policy"),
        ("request.less_compute", "request.less_compute", "missing_less_compute"),
        ("request.preemptible", "request.preemptible", "missing_preemption"),
        ("request.checkpoint_interval", "request.checkpoint_interval", "missing_checkpoint"),
        (
            "request.expected_accelerator_hours",
            "request.expected_accelerator_hours",
            "missing_expected_hours",
        ),
        ("output.artifacts", "output.artifacts", "missing_output"),
        ("output.artifacts.0.format", "output.artifacts.0.format", "missing_output_format"),
        (
            "output.artifacts.0.destination",
            "output.artifacts.0.destination",
            "missing_output_destination",
        ),
        ("output.delivery", "output.delivery", "missing_delivery"),
        ("realtime.serves_requests", "realtime.serves_requests", "missing_realtime_screen"),
        ("realtime.finishes_on_its_own", "realtime.finishes_on_its_own", "missing_realtime_screen"),
    ],
)
def test_missing(removed, field, code):
    codes, issues = codes_for(removals=[removed])
    assert (field, code) in codes
    issue = next(i for i in issues if i.code == code)
    assert issue.message.endswith(".")


def test_missing_messages_give_an_exact_example():
    _, issues = codes_for(removals=["data.inputs.0.size", "request.deadline"])
    messages = {i.code: i.message for i in issues}
    assert "For example: 2.5 TiB." in messages["missing_data_size"]
    assert "no_deadline: true" in messages["missing_deadline"]


def test_missing_issues_come_item_by_item_in_a_fixed_order():
    data = {
        "work": {"shape": "chain"},
        "data": {"inputs": [{}], "unclassified": ["/shared -> gs://northwind-shared"]},
        "request": {
            "accelerators": [{}],
            "deadline": "2027-03-04T09:00Z",
            "preemptible": True,
            "until_done": True,
        },
        "output": {"artifacts": [{}]},
    }
    _, issues = jobformat.lint(data)
    missing = [(i.field, i.level, i.code) for i in issues if i.code != "vague_until_done"]
    assert missing == [
        ("work.kind", "error", "missing_work_kind"),
        ("work.summary", "error", "missing_summary"),
        ("work.command", "error", "missing_command"),
        ("work.chain_runs", "error", "missing_chain_runs"),
        ("data.unclassified.0", "warning", "unclear_data_direction"),
        ("work.amount", "warning", "missing_amount"),
        ("data.inputs.0.location", "error", "missing_data_location"),
        ("data.inputs.0.size", "error", "missing_data_size"),
        ("data.inputs.0.access", "error", "missing_data_access"),
        ("data.inputs.0.format", "warning", "missing_data_format"),
        ("data.inputs.0.objects", "warning", "missing_object_count"),
        ("data.inputs.0.region", "warning", "missing_data_region"),
        ("data.scratch", "warning", "missing_scratch"),
        ("data.stage_before_rent", "warning", "missing_staging"),
        ("request.accelerators.0.type", "error", "missing_accelerator_type"),
        ("request.accelerators.0.count", "error", "missing_accelerator_count"),
        ("request.nodes", "error", "missing_nodes"),
        ("request.maximum", "error", "missing_maximum"),
        ("request.on_deadline_missed", "warning", "missing_deadline_policy"),
        ("request.less_compute", "error", "missing_less_compute"),
        ("request.checkpoint_interval", "warning", "missing_checkpoint"),
        ("request.cpus_per_node", "warning", "missing_cpus"),
        ("request.memory_per_node", "warning", "missing_memory"),
        ("request.expected_accelerator_hours", "error", "missing_expected_hours"),
        ("output.artifacts.0.format", "error", "missing_output_format"),
        ("output.artifacts.0.destination", "error", "missing_output_destination"),
        ("output.artifacts.0.size", "warning", "missing_output_size"),
        ("output.delivery", "error", "missing_delivery"),
        ("output.partial_useful", "warning", "missing_partial"),
        ("output.downstream", "warning", "missing_downstream"),
        ("realtime.finishes_on_its_own", "error", "missing_realtime_screen"),
        ("realtime.serves_requests", "error", "missing_realtime_screen"),
    ]
    messages = {i.code: i.message for i in issues}
    assert messages["unclear_data_direction"].startswith("/shared -> gs://northwind-shared: ")
    assert messages["missing_deadline_policy"].endswith("or deliver_partial.")  # no example


def test_a_cpu_only_job_is_asked_for_node_hours():
    _, issues = jobformat.lint({"request": {"no_accelerators": True}, "data": {"no_inputs": True}})
    codes = {(i.field, i.code) for i in issues}
    assert ("request.expected_node_hours", "missing_expected_hours") in codes
    assert not {"missing_accelerator", "missing_data", "missing_scratch"} & {c for _, c in codes}
    assert next(i for i in issues if i.code == "missing_maximum").level == "warning"


def test_no_deadline_stated_explicitly_is_enough():
    codes, _ = codes_for(
        changes=[("request.no_deadline", True)],
        removals=["request.deadline", "request.on_deadline_missed"],
    )
    assert not any(code == "missing_deadline" for _, code in codes)


@pytest.mark.parametrize(
    ("path", "value", "code"),
    [
        ("data.inputs.0.size", "roughly 2 TB", "vague_wording"),
        ("data.inputs.0.size", "about 2.5 TiB", "vague_wording"),
        ("data.inputs.0.size", "~2 TB", "vague_wording"),
        ("data.inputs.0.size", "a few TB", "vague_wording"),
        ("data.inputs.0.size", "TBD", "vague_wording"),
        ("data.inputs.0.size", "2-4", "vague_range"),
        ("data.inputs.0.size", "2500", "no_unit"),
        ("data.inputs.0.size", 2500, "no_unit"),
        ("request.estimate", "lots", "vague_wording"),
        ("request.estimate", "until it converges", "vague_wording"),
        ("request.deadline", "as soon as possible", "vague_wording"),
        ("request.deadline", "ASAP", "vague_wording"),
        ("request.memory_per_node", "the usual", "vague_wording"),
        ("request.estimate", "a fortnight", "not_exact"),
        ("work.amount", "lots of video", "vague_wording"),
    ],
)
def test_vague_quantities(path, value, code):
    codes, issues = codes_for(changes=[(path, value)])
    assert (path, code) in codes, issues
    assert all(i.level == "error" for i in issues if i.field == path)


@pytest.mark.parametrize(
    "summary",
    [
        "Roughly a day of footage",
        "Process a few thousand videos",
        "Uses lots of GPUs",
        "Size TBD",
        "The usual nightly run",
    ],
)
def test_vague_prose_is_a_warning(summary):
    codes, issues = codes_for(changes=[("work.summary", summary)])
    assert ("work.summary", "vague_wording") in codes
    assert next(i for i in issues if i.field == "work.summary").level == "warning"


def test_range_with_no_unit_in_prose():
    codes, _ = codes_for(changes=[("output.downstream", "The tool reads batches of 3-5 at a time")])
    assert ("output.downstream", "vague_range") in codes


def test_until_done_needs_a_maximum():
    codes, _ = codes_for(
        changes=[("request.until_done", True)], removals=["request.maximum", "request.estimate"]
    )
    assert ("request.until_done", "vague_until_done") in codes
    assert ("request.maximum", "missing_maximum") in codes
    assert not any(code == "missing_duration" for _, code in codes)


@pytest.mark.parametrize(
    ("changes", "field", "code"),
    [
        ([("request.min_nodes", 9)], "request.min_nodes", "min_nodes_above_nodes"),
        ([("request.deadline", "2027-02-01T00:00Z")], "request.deadline", "deadline_before_start"),
        (
            [("request.deadline", "2027-03-02T09:00Z")],
            "request.estimate",
            "duration_exceeds_window",
        ),
        ([("request.deadline", "2027-03-03T03:00Z")], "request.maximum", "maximum_exceeds_window"),
        ([("request.estimate", "50h")], "request.estimate", "estimate_above_maximum"),
        ([("data.scratch", "1 TiB")], "data.scratch", "data_exceeds_scratch"),
        (
            [("request.expected_accelerator_hours", 400)],
            "request.expected_accelerator_hours",
            "expected_hours_mismatch",
        ),
        (
            [("work.shape", "gang"), ("request.less_compute", "fewer_shards")],
            "request.less_compute",
            "fewer_shards_for_gang",
        ),
        ([("request.no_deadline", True)], "request.no_deadline", "deadline_and_no_deadline"),
        ([("data.no_inputs", True)], "data.no_inputs", "inputs_and_no_inputs"),
    ],
)
def test_inconsistent(changes, field, code):
    codes, _ = codes_for(changes=changes)
    assert (field, code) in codes


def test_data_on_stream_does_not_need_scratch_for_copying():
    codes, _ = codes_for(changes=[("data.scratch", "1 TiB"), ("data.inputs.0.access", "stream")])
    assert not any(code == "data_exceeds_scratch" for _, code in codes)


@pytest.mark.parametrize(
    "changes",
    [
        [("realtime.serves_requests", True)],
        [("realtime.finishes_on_its_own", False)],
        [("realtime.latency_bound", "200 ms")],
    ],
)
def test_real_time_work_is_not_a_network_job(changes):
    _, issues = codes_for(changes=changes)
    issue = next(i for i in issues if i.code == "not_a_network_job")
    assert issue.level == "error" and issue.field == "realtime"
    assert "your own systems" in issue.message
    assert issues[0].code == "not_a_network_job"  # shown first


def test_a_server_in_the_command_asks_the_question():
    codes, _ = codes_for(
        changes=[("work.command", "python -m vllm.entrypoints.openai.api_server --model m")],
        removals=["realtime.serves_requests"],
    )
    assert ("work.command", "looks_like_a_service") in codes


def test_values_of_the_wrong_type_are_reported_and_the_rest_kept():
    codes, issues = codes_for(changes=[("request.nodes", "eight"), ("work.kind", "rendering")])
    assert ("request.nodes", "invalid") in codes and ("work.kind", "invalid") in codes
    assert ("request.nodes", "missing_nodes") not in codes  # reported once
    description, _ = jobformat.lint(
        {**EXAMPLE, "request": {**EXAMPLE["request"], "nodes": "eight"}}
    )
    assert description.request.estimate.seconds == 36 * 3600


def test_unknown_fields_are_named():
    codes, _ = codes_for(changes=[("request.gpus", 8)])
    assert ("request.gpus", "unknown_field") in codes


def test_every_code_maps_to_an_unsolved_problem():
    data = {"data": {"inputs": [{"size": "about 3 TB"}]}, "request": {"nodes": 1, "min_nodes": 2}}
    _, issues = jobformat.lint(data)
    problems = {i.problem for i in issues}
    assert problems <= set(jobformat.Problem)
    assert {
        jobformat.Problem.DATA,
        jobformat.Problem.SCHEDULING,
        jobformat.Problem.DECLARE,
    } <= problems


def test_yaml_and_json_round_trip_exactly():
    description, _ = jobformat.lint(EXAMPLE)
    for dump, text_format in ((jobformat.to_yaml, "native"), (jobformat.to_json, "native")):
        [result] = jobformat.import_text(dump(description), text_format)
        assert result.description == description
        assert dump(result.description) == dump(description)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=30,
)
parts = st.sampled_from(
    ["work", "data", "request", "output", "realtime", "name", "version", "source"]
)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(parts, json_values, max_size=6))
def test_no_input_crashes_the_check(data):
    description, issues = jobformat.lint(data)
    assert all(i.level in ("error", "warning") for i in issues)
    jobformat.to_yaml(description)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "size": json_values,
            "location": json_values,
            "access": st.sampled_from(["stream", "copy_before_start", "bogus", 3]),
        },
    ),
    st.dictionaries(
        st.sampled_from(
            list(jobformat.Description.model_fields["request"].annotation.model_fields)
        ),
        json_values,
    ),
)
def test_no_field_value_crashes_the_check(data_input, request):
    jobformat.lint({"data": {"inputs": [data_input]}, "request": request})


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("8x H100", "“8x H100” has a count in it: write “H100” here and 8 in Count"),
        ("H100 x8", "“H100 x8” has a count in it: write “H100” here and 8 in Count"),
        ("fast GPUs", "“fast GPUs” is not an accelerator model the network knows"),
    ],
)
def test_an_accelerator_type_with_a_count_or_no_model_is_flagged_on_its_field(typed, said):
    data = jobformat.example_data()
    data["request"]["accelerators"] = [{"type": typed, "count": 8}]
    description, _ = jobformat.load(data)
    issues = [i for i in jobformat.check(description) if i.field == "request.accelerators.0.type"]
    assert [i.message for i in issues if said in i.message], issues


@pytest.mark.parametrize("typed", ["H100-80GB", "H100 80GB", "A100 40GB", "RTX 4090", "MI300X"])
def test_a_model_as_vendors_name_it_is_not_flagged(typed):
    data = jobformat.example_data()
    data["request"]["accelerators"] = [{"type": typed, "count": 8}]
    description, _ = jobformat.load(data)
    flagged = jobformat.check(description)
    assert not [i for i in flagged if i.field == "request.accelerators.0.type"]


def test_a_description_with_values_to_drop_leaves_the_callers_data_as_it_was():
    # Too many inputs and a number typed with commas: the first is dropped, the second read,
    # both in load's own copy.
    data = copy.deepcopy(EXAMPLE)
    data["data"]["inputs"] = [dict(data["data"]["inputs"][0]) for _ in range(60)]
    data["request"]["nodes"] = "1,024"
    before = copy.deepcopy(data)
    description, issues = jobformat.lint(data)
    assert data == before
    assert description.request.nodes == 1024
    assert description.data.inputs is None
    assert "too_many" in {issue.code for issue in issues if issue.field == "data.inputs"}
