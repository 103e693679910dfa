"""What the program learns: field signals recorded by submission and review, the staff
insights aggregates on constructed data, the public figures and their three-team threshold,
who may see what, the stored figures the beat and staff recompute, and a query count that
does not grow with the data."""

import csv
import io
import json
import sqlite3
from datetime import timedelta

import pytest
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from findings import services as finding_services
from findings import tasks
from findings.insights import figures, public
from findings.insights.services import recompute
from findings.models import FindingKind, FindingStatus, ProgramFigures, UnsolvedProblem
from jobs import jobformat, services
from jobs.models import FieldSignal, JobDescription, Revision
from jobs.runs.models import Hold, Run, RunOutcome
from portal.aggregates import _SqliteMedian
from portal.errors import DomainError
from portal.models import Team
from tests.findings.helpers import file
from tests.users import make_user

pytestmark = pytest.mark.django_db

DATA = "getting-data-to-compute"


def vague_example():
    data = jobformat.example_data()
    data["data"]["inputs"][0]["size"] = "about 2 TB"
    return data


# --- Field signals, recorded by the services --------------------------------------------


def test_a_field_flagged_at_first_submission_until_exact(team_a, a_member, staff):
    job = services.create_draft(team=team_a, user=a_member, data=vague_example())
    with pytest.raises(DomainError):
        services.submit(job=job, user=a_member)  # refused, but the attempt is remembered
    signal = FieldSignal.objects.get(job=job)
    assert (signal.field, signal.first_level, signal.vague_word) == (
        "data.inputs.N.size", "error", "about"
    )  # fmt: skip
    assert signal.at_first_submission and signal.first_revision == 1
    assert signal.problem == DATA and signal.exact_revision is None and signal.team == team_a

    services.save_draft(job=job, user=a_member, parts={"data": jobformat.example_data()["data"]},
                        version=job.version)  # fmt: skip
    first = services.submit(job=job, user=a_member)
    assert FieldSignal.objects.get(job=job).exact_revision == 1  # fixed before revision 1

    services.review(revision=first, reviewer=staff, outcome="clarify", note="Which estimate?",
                    fields=["request.estimate", "data.inputs.0.size"])  # fmt: skip
    estimate = FieldSignal.objects.get(job=job, field="request.estimate")
    assert estimate.clarify_requests == 1 and estimate.first_level == ""
    assert estimate.exact_revision is None and estimate.at_first_submission
    job.refresh_from_db()
    second = services.submit(job=job, user=a_member)
    assert FieldSignal.objects.get(job=job, field="request.estimate").exact_revision is None
    services.review(revision=second, reviewer=staff, outcome="accepted")
    rows = {s.field: s for s in FieldSignal.objects.filter(job=job)}
    assert rows["request.estimate"].exact_revision == 2
    assert rows["data.inputs.N.size"].exact_revision == 2  # named again, exact at acceptance
    assert rows["data.inputs.N.size"].clarify_requests == 1
    assert all(s.draft_to_accept_seconds is not None for s in rows.values())

    result = {r["field"]: r for r in figures.fields()["rows"]}
    size = result["data.inputs.N.size"]
    assert (size["jobs"], size["first_flagged"], size["first_errors"]) == (1, 1, 1)
    assert size["revisions"] == 1.0  # flagged for revision 1, exact at revision 2
    assert result["request.estimate"]["clarified"] == 1
    assert result["request.estimate"]["revisions"] == 1.0
    assert figures.fields()["submitted_jobs"] == 1
    assert figures.vague_words() == [{"vague_word": "about", "uses": 1, "jobs": 1}]
    assert figures.acceptance()["jobs"] == 1


def test_an_exact_first_submission_leaves_no_signal(team_a, a_member):
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    services.submit(job=job, user=a_member)
    assert not FieldSignal.objects.exists()


def test_the_real_time_screen_and_declines_are_counted(team_a, a_member, staff):
    data = jobformat.example_data()
    data["realtime"]["serves_requests"] = True
    job = services.create_draft(team=team_a, user=a_member, data=data)
    with pytest.raises(DomainError):
        services.submit(job=job, user=a_member)
    services.save_draft(job=job, user=a_member, parts={"realtime": {"serves_requests": False,
                        "finishes_on_its_own": True}}, version=job.version)  # fmt: skip
    revision = services.submit(job=job, user=a_member)
    services.review(revision=revision, reviewer=staff, outcome="declined", note="A service.")
    job.refresh_from_db()
    services.submit(job=job, user=a_member)  # revised after the decline
    assert figures.screen() == {
        "screened": 1, "screened_rerouted": 1, "declined": 1, "declined_revised": 1
    }  # fmt: skip


# --- Constructed data -----------------------------------------------------------------------


def _team(n):
    return Team.objects.get_or_create(
        slug=f"secret-{n}", defaults={"name": f"Secret team {n}", "organisation": "X"}
    )[0]


def _run(team, *, kind="training"):
    data = {**jobformat.example_data(), "work": {**jobformat.example_data()["work"], "kind": kind}}
    job = JobDescription.objects.create(team=team, name=f"job of {team.slug}", data=data)
    revision = Revision.objects.create(job=job, number=1, data=data)
    return Run.objects.create(job=job, revision=revision, state="released")


def outcome(team, *, kind="training", **values):
    run = _run(team, kind=kind)
    defaults = {"final_state": "released", "finished_at": timezone.now()}
    return RunOutcome.objects.create(run=run, team=team, work_kind=kind, **defaults, **values)


def test_outcome_aggregates_on_constructed_runs(db):
    t1, t2 = _team(1), _team(2)
    outcome(t1, duration_ratio=0.8, staging_ratio=3.0, deadline_met=True, nodes_asked=8,
            nodes_granted=4)  # fmt: skip
    outcome(t1, duration_ratio=1.0, staging_ratio=1.0, deadline_met=False)
    outcome(t2, duration_ratio=1.6, data_ratio=1.2, deadline_met=True)
    outcome(t2, kind="batch_inference", duration_ratio=2.5, hours_ratio=0.95)
    result = figures.outcomes()
    everything = result["all"]
    assert (everything["runs"], everything["teams"]) == (4, 2)
    assert everything["deadline_declared"] == 3 and everything["deadline_met"] == 2
    assert everything["deadline_share"] == pytest.approx(0.667, abs=1e-3)
    assert everything["fewer_nodes"] == 1
    duration = next(m for m in everything["metrics"] if m["metric"] == "duration_ratio")
    assert duration["median"] == pytest.approx(1.3) and duration["n"] == 4
    assert {b["key"]: b["runs"] for b in duration["bands"]} == {
        "under_half": 0, "short": 1, "right": 1, "over": 0, "far_over": 1, "double": 1
    }  # fmt: skip
    kinds = {k["kind"]: k for k in result["kinds"]}
    assert kinds["training"]["runs"] == 3 and kinds["batch_inference"]["runs"] == 1
    training = {m["metric"]: m["median"] for m in kinds["training"]["metrics"]}
    assert training["duration_ratio"] == 1.0 and training["staging_ratio"] == 2.0


def test_estimated_time_limit_ratios_are_counted_apart(client_for, staff):
    team = _team(1)
    outcome(team, time_limit_ratio=0.5, duration_ratio=1.0)
    outcome(team, time_limit_ratio=0.7)
    by_hold = outcome(team, time_limit_ratio=1.2, duration_ratio=3.0)
    Hold.objects.create(
        run=by_hold.run, accelerator_type="CPU node", count=1, phase="running",
        started_at=timezone.now(), measured=True, observed={"estimated": True},
        idempotency_key="estimated-hold",
    )  # fmt: skip
    by_event = outcome(team, time_limit_ratio=1.9)
    for status, key in (("applied", "estimated"), ("rejected", "not-counted")):
        by_event.run.events.create(
            kind="running", occurred_at=timezone.now(), idempotency_key=key, status=status,
            observed={"estimated": True},
        )  # fmt: skip
    rejected_only = outcome(team, time_limit_ratio=0.9)
    rejected_only.run.events.create(
        kind="running", occurred_at=timezone.now(), idempotency_key="rejected", status="rejected",
        observed={"estimated": True},
    )  # fmt: skip

    everything = figures.outcomes()["all"]
    metric = {m["metric"]: m for m in everything["metrics"]}
    limit = metric["time_limit_ratio"]
    assert (limit["n"], limit["median"], limit["estimated_apart"]) == (3, 0.7, 2)
    assert {b["key"]: b["runs"] for b in limit["bands"]}["over"] == 0  # the 1.2× estimated
    assert sum(b["runs"] for b in limit["bands"]) == 3
    # Their other figures still count (a time held is a time held).
    assert metric["duration_ratio"]["n"] == 2 and metric["duration_ratio"]["median"] == 2.0
    [kind] = figures.outcomes()["kinds"]
    assert {m["metric"]: m["median"] for m in kind["metrics"]}["time_limit_ratio"] == 0.7

    recompute()
    page = client_for(staff).get("/staff/insights/").content.decode()
    assert (
        "over 3 runs measured by Slurm's accounting. Not counted: 2 runs on a cluster "
        "without accounting, whose elapsed time is estimated from start and end." in page
    )


def test_findings_per_problem_with_median_times(staff):
    problem = UnsolvedProblem.objects.get(slug=DATA)
    teams = [_team(n) for n in range(2)]
    for i, team in enumerate(teams):
        user = make_user(f"m{i}@example.com", team=team)
        finding = file(team, user, kind=FindingKind.STAGING_SLOWER if i else FindingKind.OTHER)
        finding.__class__.objects.filter(pk=finding.pk).update(
            created_at=timezone.now() - timedelta(hours=10 * (i + 1))
        )
        finding.refresh_from_db()
        finding_services.change_status(finding=finding, actor=staff, to_status="triaged",
                                       problems=[problem])  # fmt: skip
    row = next(p for p in figures.problems() if p["slug"] == DATA)
    assert (row["findings"], row["teams"]) == (2, 2)
    assert {k["key"]: k["findings"] for k in row["kinds"]}["staging_slower"] == 1
    assert {s["key"]: s["findings"] for s in row["statuses"]}[FindingStatus.TRIAGED] == 2
    assert row["triage_hours"] == pytest.approx(15, abs=0.1)  # median of 10 h and 20 h
    assert row["address_hours"] is None
    assert sum(m["findings"] for m in row["months"]) == 2


def test_sqlite_median_fallback_runs_in_the_database():
    db = sqlite3.connect(":memory:")
    db.create_aggregate("PORTAL_MEDIAN", 1, _SqliteMedian)
    db.execute("CREATE TABLE t (g TEXT, v REAL)")
    db.executemany("INSERT INTO t VALUES (?, ?)", [("a", 1), ("a", 3), ("a", 10), ("b", 2),
                                                   ("b", 4), ("b", None)])  # fmt: skip
    rows = db.execute("SELECT g, PORTAL_MEDIAN(v) FROM t GROUP BY g ORDER BY g").fetchall()
    assert rows == [("a", 3.0), ("b", 3.0)]


# --- Public figures: three teams, hidden by staff -----------------------------------------


def test_public_figures_wait_for_three_teams_and_can_be_hidden(client, client_for, staff):
    problem = UnsolvedProblem.objects.get(slug=DATA)
    outcome(_team(1), staging_ratio=2.0, data_ratio=1.1)
    outcome(_team(2), staging_ratio=4.0, data_ratio=1.3)
    outcome(_team(2), staging_ratio=9.0)
    staging = next(f for f in public.compute(problem) if f.key == "staging")
    assert staging.teams == 2 and not staging.shown
    recompute()
    page = client.get(f"/problems/{DATA}/").content.decode()
    assert "Staging time against the declared data size" not in page
    assert "once at least 3 teams have contributed" in page

    outcome(_team(3), staging_ratio=1.5)
    recompute()
    page = client.get(f"/problems/{DATA}/").content.decode()
    assert "Staging took a median 3.00× the time the declared data size implies" in page
    assert "data up to" in page
    assert "Data staged against declared" not in page  # two teams only for that one
    assert "Secret team" not in page

    # Hiding and showing read the problem, not the stored figures: they take effect at once.
    staff_client = client_for(staff)
    r = staff_client.post(f"/staff/insights/problems/{problem.pk}/toggle/", {"figure": "staging"})
    assert r.status_code == 302
    assert UnsolvedProblem.objects.get(pk=problem.pk).hidden_figures == ["staging"]
    assert "Staging took a median" not in client.get(f"/problems/{DATA}/").content.decode()
    listing = staff_client.get(f"/staff/insights/problems/{problem.pk}/").content.decode()
    assert "Hidden by staff" in listing and "Show “Staging time" in listing
    staff_client.post(f"/staff/insights/problems/{problem.pk}/toggle/",
                      {"figure": "staging", "action": "show"})  # fmt: skip
    assert "Staging took a median" in client.get(f"/problems/{DATA}/").content.decode()


def test_public_findings_figure_counts_distinct_teams(client, staff):
    problem = UnsolvedProblem.objects.get(slug=DATA)
    teams = [_team(n) for n in range(3)]
    for i, team in enumerate(teams[:2]):
        user = make_user(f"f{i}@example.com", team=team)
        for _ in range(2):  # one team filing many findings is still one team
            f = file(team, user)
            finding_services.change_status(finding=f, actor=staff, to_status="triaged",
                                           problems=[problem])  # fmt: skip
    recompute()
    assert "Findings from design partners" not in client.get(f"/problems/{DATA}/").content.decode()
    user = make_user("f3@example.com", team=teams[2])
    f = file(teams[2], user)
    finding_services.change_status(finding=f, actor=staff, to_status="triaged", problems=[problem])
    recompute()
    page = client.get(f"/problems/{DATA}/").content.decode()
    assert "5 findings from 3 teams" in page and "0 % of them have been addressed" in page


def test_a_hostile_toggle_changes_nothing(client_for, staff, a_member):
    problem = UnsolvedProblem.objects.get(slug=DATA)
    url = f"/staff/insights/problems/{problem.pk}/toggle/"
    r = client_for(staff).post(url, {"figure": "<script>"}, follow=True)
    assert r.status_code == 200 and "There is no such figure." in r.content.decode()
    assert client_for(a_member).post(url, {"figure": "staging"}).status_code == 403
    assert client_for(staff).post("/staff/insights/problems/999999/toggle/").status_code == 404
    assert UnsolvedProblem.objects.get(pk=problem.pk).hidden_figures == []


# --- The staff page and its exports -------------------------------------------------------


def test_each_problems_figures_link_names_its_problem(client_for, staff):
    html = client_for(staff).get("/staff/insights/").content.decode()
    for problem in UnsolvedProblem.objects.all():
        # Three links reading "Public figures of this problem" alone are one name to a
        # screen reader's list of links; the visible words stay first in the name.
        link = (
            f'<a href="/staff/insights/problems/{problem.pk}/">Public figures of this problem'
            f'<span class="visually-hidden">: {problem.title}</span></a>'
        )
        assert link in html


def test_only_staff_see_insights_and_exports_name_no_team(client, client_for, staff, a_member):
    outcome(_team(1), duration_ratio=1.2)
    for url in (
        "/staff/insights/",
        "/staff/insights/insights.csv",
        "/staff/insights/insights.json",
    ):
        assert client_for(a_member).get(url).status_code == 403
        client.logout()
        assert client.get(url).status_code == 302
    staff_client = client_for(staff)
    page = staff_client.get("/staff/insights/")
    assert page.status_code == 200 and "How wrong declarations turn out" in page.content.decode()
    body = staff_client.get("/staff/insights/insights.csv").content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0] == ["section", "item", "measure", "value"]
    assert ["outcomes:all", "duration_ratio", "median", "1.2"] in rows
    data = json.loads(staff_client.get("/staff/insights/insights.json").content)
    assert data["outcomes"]["all"]["runs"] == 1
    assert "Secret team" not in body and "Secret team" not in json.dumps(data)


def test_the_csv_writes_no_cell_a_spreadsheet_would_run(client_for, staff, team_a):
    job = JobDescription.objects.create(team=team_a, name="j", data={})
    for i, word in enumerate(("=HYPERLINK(1)", "@sum", "-1+1", "roughly")):
        FieldSignal.objects.create(job=job, team=team_a, field=f"work.f{i}", first_revision=1,
                                   first_level="warning", vague_word=word)  # fmt: skip
    body = client_for(staff).get("/staff/insights/insights.csv").content.decode()
    words = {row[1] for row in csv.reader(io.StringIO(body)) if row[0] == "vague_words"}
    assert words == {"'=HYPERLINK(1)", "'@sum", "'-1+1", "roughly"}
    assert ["acceptance", "", "accepted_jobs", "0"] in list(csv.reader(io.StringIO(body)))


def _grow(n, staff):
    problem = UnsolvedProblem.objects.get(slug=DATA)
    for i in range(n):
        team = _team(f"g{n}-{i}")
        outcome(team, kind=["training", "simulation_sweep"][i % 2], duration_ratio=1 + i / 10)
        job = JobDescription.objects.create(team=team, name="j", data={})
        FieldSignal.objects.create(job=job, team=team, field=f"work.f{i % 3}", first_revision=1,
                                   first_level="error", at_first_submission=True,
                                   vague_word="roughly")  # fmt: skip
        user = make_user(f"grow{n}-{i}@example.com", team=team)
        finding = file(team, user)
        finding_services.change_status(finding=finding, actor=staff, to_status="triaged",
                                       problems=[problem])  # fmt: skip


def test_query_counts_do_not_grow_with_the_data(client_for, staff, django_assert_num_queries):
    staff_client, anonymous = client_for(staff), Client()
    problem = UnsolvedProblem.objects.get(slug=DATA)
    pages = [
        (staff_client, "/staff/insights/"),
        (staff_client, "/staff/insights/insights.csv"),
        (staff_client, "/staff/insights/insights.json"),
        (staff_client, f"/staff/insights/problems/{problem.pk}/"),
        (anonymous, f"/problems/{DATA}/"),
        (anonymous, "/problems/"),
    ]
    counts = []
    for size in (1, 6):
        _grow(size, staff)
        recompute()
        row = []
        for who, url in pages:
            with CaptureQueriesContext(connection) as queries:
                assert who.get(url).status_code == 200
            row.append(len(queries))
        counts.append(row)
        # Session, user, the stored figures, the menu's memberships: none aggregates a row.
        with django_assert_num_queries(4):
            staff_client.get("/staff/insights/")
        # The problem and its stored figures.
        with django_assert_num_queries(2):
            anonymous.get(f"/problems/{DATA}/")
    assert counts[0] == counts[1], counts


def _runs(staff_client):
    data = json.loads(staff_client.get("/staff/insights/insights.json").content)
    return data["outcomes"]["all"]["runs"]


def test_the_first_visit_stores_the_figures_and_the_beat_recomputes_them(client_for, staff):
    staff_client = client_for(staff)
    outcome(_team(1), duration_ratio=1.2)
    assert not ProgramFigures.objects.exists()
    assert _runs(staff_client) == 1  # no row yet (a deploy): computed once, and stored
    assert ProgramFigures.objects.count() == 1
    outcome(_team(2), duration_ratio=0.9)
    assert _runs(staff_client) == 1  # the stored figures, until the next recompute

    tasks.recompute_program_figures()
    tasks.recompute_program_figures()  # again: the same one row, rewritten
    assert ProgramFigures.objects.count() == 1 and _runs(staff_client) == 2
    schedule = settings.CELERY_BEAT_SCHEDULE["findings-program-figures"]
    assert schedule["task"] == tasks.recompute_program_figures.name
    assert schedule["schedule"] <= 300


def test_an_anonymous_visit_never_computes_the_figures(django_assert_num_queries):
    outcome(_team(1), staging_ratio=2.0)
    outcome(_team(2), staging_ratio=2.0)
    outcome(_team(3), staging_ratio=2.0)
    with django_assert_num_queries(2):  # the problem, and no stored figures yet
        page = Client().get(f"/problems/{DATA}/").content.decode()
    assert "Staging took a median" not in page and not ProgramFigures.objects.exists()
    tasks.recompute_program_figures()
    assert "Staging took a median 2.00×" in Client().get(f"/problems/{DATA}/").content.decode()


def test_the_stored_figures_are_what_the_rows_say(client_for, staff):
    outcome(_team(1), duration_ratio=1.2, staging_ratio=2.0)
    _grow(2, staff)
    stored = recompute()
    fresh = json.loads(json.dumps(figures.program(), cls=DjangoJSONEncoder))
    assert {**stored.figures, "computed_at": None} == {**fresh, "computed_at": None}
    exported = json.loads(client_for(staff).get("/staff/insights/insights.json").content)
    assert exported == stored.figures
    problem = UnsolvedProblem.objects.get(slug=DATA)
    read = public.problem_figures(problem, stored.public)
    computed = public.compute(problem)
    assert [(f.key, f.text, f.teams) for f in read] == [(f.key, f.text, f.teams) for f in computed]
    for r, c in zip(read, computed, strict=True):  # JSON keeps dates to the millisecond
        assert abs(r.as_of - c.as_of) < timedelta(milliseconds=1)


def test_the_page_says_when_the_figures_were_computed(client_for, staff):
    stored = recompute()
    at = timezone.now() - timedelta(minutes=3)
    ProgramFigures.objects.filter(pk=stored.pk).update(computed_at=at)
    page = client_for(staff).get("/staff/insights/").content.decode()
    assert (
        f'Figures as of <time datetime="{at.isoformat()}">{at:%H:%M} UTC</time>, 3\xa0minutes ago'
        in page
    )
    assert "Recompute now" in page


def test_staff_recompute_now_and_partners_cannot(client, client_for, staff, a_member, team_a):
    staff_client = client_for(staff)
    finding = file(team_a, a_member)
    problem = UnsolvedProblem.objects.filter(published=True).first()

    def findings_of_problem():
        data = json.loads(staff_client.get("/staff/insights/insights.json").content)
        return next(p["findings"] for p in data["problems"] if p["slug"] == problem.slug)

    before = findings_of_problem()
    finding_services.change_status(
        finding=finding, actor=staff, to_status="triaged", problems=[problem]
    )
    assert findings_of_problem() == before
    computed_at = ProgramFigures.objects.get().computed_at

    assert client_for(a_member).post("/staff/insights/recompute/").status_code == 403
    client.logout()
    assert client.post("/staff/insights/recompute/").status_code == 302  # to log in
    assert ProgramFigures.objects.get().computed_at == computed_at

    staff_client = client_for(staff)
    assert staff_client.get("/staff/insights/recompute/").status_code == 405  # a button
    r = staff_client.post("/staff/insights/recompute/", follow=True)
    assert r.redirect_chain == [("/staff/insights/", 302)]
    assert "The figures are recomputed" in r.content.decode()
    assert ProgramFigures.objects.get().computed_at > computed_at
    assert findings_of_problem() == before + 1
