"""The guided steps, the API and the ledger take the new shapes: a CPU-only job (no
accelerators, node-hours), an elastic minimum and a chain of restarts, with the same
precision messages as everywhere."""

import copy

import pytest
from django.urls import reverse

from jobs import jobformat, services
from jobs.runs import ledger, simulator
from jobs.runs.models import Run

pytestmark = pytest.mark.django_db


def cpu_only_example():
    data = copy.deepcopy(jobformat.example_data())
    request = data["request"]
    del request["accelerators"], request["expected_accelerator_hours"]
    request.update(no_accelerators=True, expected_node_hours=8 * 36)
    return data


def test_the_cpu_only_example_is_complete_and_exact():
    _, issues = jobformat.lint(cpu_only_example())
    assert issues == []


def test_the_request_step_takes_no_accelerators_and_asks_for_node_hours(
    client_for, team_a, a_member
):
    draft = services.create_draft(team=team_a, user=a_member)
    client = client_for(a_member)
    url = reverse("job_step", args=[draft.pk, "request"])
    page = client.get(url).content.decode()
    assert 'name="request.no_accelerators"' in page and 'name="request.expected_node_hours"' in page
    client.post(
        url,
        {
            "version": draft.version,
            "request.no_accelerators": "true",
            "request.nodes": "4",
            "request.min_nodes": "2",
            "request.cpus_per_node": "0.5",
            "request.estimate": "10h",
            "request.node_features": "ib\nspr",
            "action": "save",
        },
    )
    draft.refresh_from_db()
    assert draft.data["request"]["no_accelerators"] is True
    description, issues = draft.lint()
    assert description.request.cpus_per_node == 0.5
    assert description.request.node_features == ["ib", "spr"]
    codes = {i.code for i in issues}
    assert "missing_accelerator" not in codes and "invalid" not in codes
    page = client.get(url).content.decode()
    assert "Say how many node-hours you expect" in page
    review = client.get(reverse("job_step", args=[draft.pk, "review"])).content.decode()
    assert "40 node-hours" in review and "(nodes × estimate)" in review


def test_the_work_step_takes_a_chain_of_runs(client_for, team_a, a_member):
    draft = services.create_draft(team=team_a, user=a_member)
    client = client_for(a_member)
    url = reverse("job_step", args=[draft.pk, "work"])
    client.post(url, {"version": draft.version, "work.shape": "chain", "action": "save"})
    draft.refresh_from_db()
    _, issues = draft.lint()
    assert "missing_chain_runs" in {i.code for i in issues}
    assert "Say how many runs follow one another" in client.get(url).content.decode()
    client.post(
        url,
        {
            "version": draft.version,
            "work.shape": "chain",
            "work.chain_runs": "10",
            "action": "save",
        },
    )
    draft.refresh_from_db()
    _, issues = draft.lint()
    assert draft.data["work"]["chain_runs"] == 10
    assert "missing_chain_runs" not in {i.code for i in issues}


def test_the_api_validates_the_new_shapes_with_the_same_messages(client):
    body = client.post(
        reverse("api:spec_validate"),
        {
            "work": {"shape": "chain", "chain_runs": 10},
            "request": {"no_accelerators": True, "nodes": 8, "min_nodes": 4, "estimate": "20h"},
        },
        content_type="application/json",
    ).json()
    codes = {(i["field"], i["code"]) for i in body["issues"]}
    assert ("request.accelerators", "missing_accelerator") not in codes
    assert ("request.expected_node_hours", "missing_expected_hours") in codes
    assert body["description"]["request"]["min_nodes"] == 4
    assert body["description"]["work"]["shape"] == "chain"
    clean = client.post(
        reverse("api:spec_validate"), cpu_only_example(), content_type="application/json"
    ).json()
    assert clean["errors"] == 0 and clean["issues"] == []


def test_a_cpu_only_run_is_counted_in_node_hours(client_for, team_a, a_member, staff):
    job = services.create_draft(team=team_a, user=a_member, data=cpu_only_example())
    revision = services.submit(job=job, user=a_member)
    services.review(revision=revision, reviewer=staff, outcome="accepted")
    run = Run.objects.select_related("revision", "job").get(job=job)
    simulator.play_now(run)
    result = ledger.compute(run)
    assert result.unit == "node-hours" and result.requested == 8 * 36
    assert result.expected == 8 * 36 and result.held > 0
    assert all(h.accelerator_type == "CPU node" for h in run.holds.all())
    assert result.figures()["unit"] == "node-hours"
    page = client_for(a_member).get(reverse("job_detail", args=[job.pk])).content.decode()
    assert "Ledger, in node-hours" in page and "Most nodes at once" in page
    assert "accelerator-hours" not in page.split("Ledger, in node-hours", 1)[1].split("</table>")[0]
