"""Filing a finding: a kind first, then its fields; bad input keeps what was typed and says
why on the field; a job of another team is refused; evidence is frozen at filing."""

import pytest
from django.utils import timezone

from findings.models import Finding, FindingKind
from jobs.runs.models import Hold, Phase
from tests.findings.helpers import accepted_job

pytestmark = pytest.mark.django_db

COMMON = {"title": "Typed title", "impact": "costs_time", "summary": "Typed description"}


def field_error(response, name):
    form = response.context["form"]
    assert name in form.errors, form.errors
    html = response.content.decode()
    assert f'id="id_{name}_error"' in html
    return " ".join(form.errors[name])


def test_the_kind_comes_first(client_for, a_member):
    response = client_for(a_member).get("/findings/new/")
    assert response.status_code == 200
    assert b"What kind of finding is it?" in response.content
    assert b"<legend>" in response.content
    response = client_for(a_member).get("/findings/new/?kind=nonsense")
    assert response.status_code == 400
    assert "kind" in response.context["kind_form"].errors


@pytest.mark.parametrize(
    ("kind", "data", "field", "message"),
    [
        (
            "staging_slower",
            {"data_size": "2.5", "source": "s3://x", "staging_time": "9h", "run_time": "6h"},
            "data_size",
            "is not a size",
        ),
        (
            "staging_slower",
            {"data_size": "2 TB", "source": "s3://x", "staging_time": "a while", "run_time": "6h"},
            "staging_time",
            "is not a length of time",
        ),
        (
            "staging_slower",
            {
                "data_size": "2 TB",
                "source": "s3://x",
                "staging_time": "9h",
                "run_time": "6 parsecs",
            },
            "run_time",
            "is not a unit of time",
        ),
        (
            "output_not_usable",
            {"expected_format": "COCO", "expected_destination": "", "received": "tar"},
            "expected_destination",
            "required",
        ),
        (
            "accounting_mismatch",
            {"expected_hours": "10", "held_hours": "10", "phase": "staging"},
            "held_hours",
            "no mismatch",
        ),
        (
            "accounting_mismatch",
            {"expected_hours": "-3", "held_hours": "10", "phase": "staging"},
            "expected_hours",
            "greater than or equal to 0",
        ),
        (
            "accounting_mismatch",
            {"expected_hours": "3", "held_hours": "10", "phase": "lunch"},
            "phase",
            "valid choice",
        ),
        ("scheduling", {"what_happened": "", "what_expected": "x"}, "what_happened", "required"),
        ("other", {"what_happened": "x", "what_expected": ""}, "what_expected", "required"),
        (
            "ambiguous_description",
            {"revision": "999:1", "field": "data.inputs.N.size", "read_as": "a", "turned_out": "b"},
            "revision",
            "valid choice",
        ),
    ],
)
def test_bad_input_says_why_on_the_field_and_keeps_what_was_typed(
    client_for, a_member, kind, data, field, message
):
    response = client_for(a_member).post("/findings/new/", {"kind": kind, **COMMON, **data})
    assert response.status_code == 400
    assert message in field_error(response, field)
    html = response.content.decode()
    assert 'value="Typed title"' in html
    assert "Typed description" in html
    for value in data.values():
        if value and field not in ("phase", "revision"):
            assert str(value) in html
    assert not Finding.objects.exists()


def test_several_mistakes_are_one_summary_focused_on_arrival_with_links_to_the_fields(
    client_for, a_member
):
    data = {"kind": "staging_slower", "data_size": "2.5"}
    response = client_for(a_member).post("/findings/new/", data)
    assert response.status_code == 400
    html = response.content.decode()
    # One summary (as the other forms have), not an alert per field read out all at once.
    assert html.count('class="form-errors error-summary" tabindex="-1" autofocus') == 1
    assert 'field-error" id="id_title_error" role' not in html  # no alert per field
    assert "things need fixing; what you typed is kept" in html
    assert '<a href="#id_impact_0">Impact</a>' in html  # a group of radios: its first one
    assert '<a href="#id_data_size">Data size</a>' in html
    assert 'aria-describedby="id_data_size_helptext id_data_size_error"' in html


def test_each_kind_stores_its_fields_as_data(client_for, team_a, a_member, staff):
    job = accepted_job(team_a, a_member, staff)
    client = client_for(a_member)
    cases = {
        "staging_slower": {
            "job": job.pk,
            "data_size": "2.75 TiB",
            "source": "s3://bucket",
            "staging_time": "9h",
            "run_time": "6h 30min",
        },
        "output_not_usable": {
            "expected_format": "COCO JSON",
            "expected_destination": "gs://x/",
            "received": "a tarball",
            "downstream": "labelling tool",
        },
        "accounting_mismatch": {
            "job": job.pk,
            "expected_hours": "1200",
            "held_hours": "1230.5",
            "phase": "staging",
        },
        "ambiguous_description": {
            "revision": f"{job.pk}:1",
            "field": "data.inputs.N.size",
            "read_as": "compressed",
            "turned_out": "on disk",
        },
        "scheduling": {"what_happened": "waited", "what_expected": "ran"},
        "other": {"what_happened": "x", "what_expected": "y"},
    }
    for kind, data in cases.items():
        response = client.post("/findings/new/", {"kind": kind, **COMMON, **data})
        assert response.status_code == 302, (
            kind,
            response.context and response.context["form"].errors,
        )
    by_kind = {f.kind: f for f in Finding.objects.all()}
    staging = by_kind[FindingKind.STAGING_SLOWER].details
    assert staging["data_size_bytes"] == int(2.75 * 2**40)
    assert staging["staging_seconds"] == 9 * 3600 and staging["run_seconds"] == 6.5 * 3600
    assert by_kind[FindingKind.ACCOUNTING_MISMATCH].details == {
        "expected_hours": 1200.0,
        "held_hours": 1230.5,
        "phase": "staging",
    }
    ambiguous = by_kind[FindingKind.AMBIGUOUS_DESCRIPTION]
    assert ambiguous.job == job and ambiguous.revision.number == 1
    assert ambiguous.details["field"] == "data.inputs.N.size"
    assert by_kind[FindingKind.OUTPUT_NOT_USABLE].details["downstream"] == "labelling tool"
    assert all(f.subscriptions.filter(user=a_member).exists() for f in by_kind.values())


def test_filing_from_a_job_prefills_and_freezes_the_evidence(client_for, team_a, a_member, staff):
    job = accepted_job(team_a, a_member, staff)
    client = client_for(a_member)
    response = client.get(f"/findings/new/?job={job.pk}&kind=accounting_mismatch")
    assert response.status_code == 200
    form = response.context["form"]
    assert form.initial["job"] == job.pk
    assert form.initial["phase"] in Phase.values
    assert form.initial["held_hours"] > 0
    assert b"Will be frozen" in response.content

    ambiguous = client.get(
        f"/findings/new/?job={job.pk}&kind=ambiguous_description&field=data.inputs.0.size"
    )
    assert ambiguous.context["form"].initial["revision"] == f"{job.pk}:1"
    assert ambiguous.context["form"].initial["field"] == "data.inputs.N.size"

    data = {"kind": "accounting_mismatch", **COMMON, "job": job.pk}
    data.update({k: form.initial[k] for k in ("expected_hours", "held_hours", "phase")})
    data["held_hours"] = float(data["held_hours"]) + 5
    assert client.post("/findings/new/", data).status_code == 302
    finding = Finding.objects.get()
    snapshot = finding.evidence.get()
    frozen_ledger, frozen_timeline = snapshot.ledger, snapshot.timeline
    assert frozen_ledger["held_hours"] > 0 and frozen_timeline[0]["state"] == "submitted"

    # The run changes afterwards: the finding still shows what it showed.
    run = job.run
    Hold.objects.create(
        run=run, accelerator_type="H100", count=64, phase=Phase.IDLE_TAIL,
        started_at=timezone.now(), ended_at=timezone.now() + timezone.timedelta(hours=10),
        idempotency_key="late-hold",
    )  # fmt: skip
    snapshot.refresh_from_db()
    assert snapshot.ledger == frozen_ledger and snapshot.timeline == frozen_timeline
    page = client.get(f"/findings/{finding.pk}/")
    assert f"{frozen_ledger['held_hours']:,.1f}".encode() in page.content


def test_another_teams_job_is_refused(client_for, team_a, team_b, a_member, b_member, staff):
    job = accepted_job(team_a, a_member, staff, play=False)
    client = client_for(b_member)
    assert client.get(f"/findings/new/?job={job.pk}&kind=accounting_mismatch").status_code == 404
    assert client.get(f"/findings/new/?job={job.pk}").status_code == 404
    response = client.post(
        "/findings/new/",
        {"kind": "other", **COMMON, "job": job.pk, "what_happened": "x", "what_expected": "y"},
    )
    assert response.status_code == 404
    response = client.post(
        "/findings/new/",
        {"kind": "ambiguous_description", **COMMON, "revision": f"{job.pk}:1",
         "field": "work.kind", "read_as": "a", "turned_out": "b"},
    )  # fmt: skip
    assert response.status_code == 400 and "revision" in response.context["form"].errors
    assert not Finding.objects.exists()
    assert str(job) not in response.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        "job=abc",
        "job=-1",
        "job=99999999999999999999",
        "job=1%00",
        "kind=%3Cscript%3E",
        "kind=other&field=../../etc",
        "kind=other&team=nope",
        "kind=ambiguous_description&field=" + "x" * 5000,
    ],
)
def test_hostile_parameters_never_500(client_for, a_member, query):
    response = client_for(a_member).get(f"/findings/new/?{query}")
    assert response.status_code in (200, 400, 404)


def test_staff_do_not_file(client_for, staff):
    assert client_for(staff).get("/findings/new/").status_code == 403
