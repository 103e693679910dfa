"""selectors.get_job_for_page: the job page's job, its relations, the user's read mark and
the kept parts' digests, in one statement prepared once per connection (PostgreSQL), built
into the objects the ORM would have built; another team's job is not found."""

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from jobs import detail_kept, jobformat, selectors, services
from jobs.models import JobDescription, ReadMark
from jobs.runs import dispatch as dispatch_mod
from jobs.runs.models import Dispatch
from portal.selectors import team_ids_for

pytestmark = pytest.mark.django_db

POSTGRES = connection.vendor == "postgresql"


def columns(instance):
    if instance is None:
        return None
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def orm_job(pk):
    return JobDescription.objects.select_related(
        "team", "updated_by", "run__revision", "run__dispatch__cluster"
    ).get(pk=pk)


def assert_same_as_orm(job):
    expected = orm_job(job.pk)
    assert type(job) is JobDescription and not job._state.adding
    assert columns(job) == columns(expected)
    assert columns(job.team) == columns(expected.team)
    assert columns(job.updated_by) == columns(expected.updated_by)
    run = JobDescription._meta.get_field("run").get_cached_value(job)
    expected_run = getattr(expected, "run", None)
    assert columns(run) == columns(expected_run)
    if run is not None:
        assert run.job is job
        assert columns(run.revision) == columns(expected_run.revision)
        dispatch = type(run)._meta.get_field("dispatch").get_cached_value(run)
        assert columns(dispatch) == columns(getattr(expected_run, "dispatch", None))
        if dispatch is not None:
            assert dispatch.run is run
            assert columns(dispatch.cluster) == columns(expected_run.dispatch.cluster)


def read(user, pk):
    team_ids_for(user)  # the memberships, read once per request with the menu's
    with CaptureQueriesContext(connection) as queries:
        job = selectors.get_job_for_page(user, pk, also=detail_kept.stamps_sql())
    assert len(queries) in ((1, 2) if POSTGRES else (1,))  # PREPARE once per connection
    return job


def test_a_draft_without_run_is_what_the_orm_reads(team_a, a_member):
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    JobDescription.objects.filter(pk=job.pk).update(updated_by=None)  # no editor: None cached
    read_job = read(a_member, job.pk)
    assert_same_as_orm(read_job)
    assert read_job.updated_by is None and read_job.data == job.data  # the JSON decoded
    assert read_job.read_up_to_date is False


def test_a_dispatched_run_is_what_the_orm_reads(run, a_member, staff):
    cluster, _ = dispatch_mod.create_cluster(name="local", partition="e31", accelerator_map={})
    # The row as written, not through dispatch() (which needs the cluster's agent to report).
    Dispatch.objects.create(
        run=run, cluster=cluster, key="k1", slurm_jobs={"run": "42"}, dispatched_by=staff
    )
    for user in (a_member, staff):
        assert_same_as_orm(read(user, run.job_id))


def test_the_read_mark_and_the_digests_are_read_with_the_job(run, a_member, staff, client_for):
    assert read(a_member, run.job_id).read_up_to_date is False
    client_for(a_member).get(reverse("job_detail", args=[run.job_id]))  # marks it read
    job = read(a_member, run.job_id)
    assert job.read_up_to_date is True
    if POSTGRES:
        assert job.also == detail_kept._read(job)  # as the digests' own query reads them
        assert job.also["latest_number"] == 1
    else:
        assert job.also == {}
    services.add_comment(job=run.job, author=staff, body="new")
    assert ReadMark.objects.get(job=run.job, user=a_member).unread == 1
    assert read(a_member, run.job_id).read_up_to_date is False


def test_another_teams_job_is_not_found_staff_see_every_team(run, a_member, b_member, staff):
    with pytest.raises(Http404):
        selectors.get_job_for_page(b_member, run.job_id, also=detail_kept.stamps_sql())
    with pytest.raises(Http404):
        selectors.get_job_for_page(a_member, run.job_id + 1000)
    assert selectors.get_job_for_page(staff, run.job_id).pk == run.job_id


def test_another_teams_job_page_is_404(client_for, run, b_member):
    assert client_for(b_member).get(reverse("job_detail", args=[run.job_id])).status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not POSTGRES, reason="PostgreSQL's PREPARE")
def test_the_statement_is_prepared_once_per_connection(run, a_member, b_member):
    connection.close()  # a session of its own: nothing prepared yet
    team_ids_for(a_member), team_ids_for(b_member)  # read with the menu's, once a request
    with CaptureQueriesContext(connection) as first:
        selectors.get_job_for_page(a_member, run.job_id, also=detail_kept.stamps_sql())
    assert [q["sql"].split()[0] for q in first] == ["PREPARE", "EXECUTE"]
    with CaptureQueriesContext(connection) as again:
        with pytest.raises(Http404):
            selectors.get_job_for_page(b_member, run.job_id, also=detail_kept.stamps_sql())
        selectors.get_job_for_page(a_member, run.job_id, also=detail_kept.stamps_sql())
    assert [q["sql"].split()[0] for q in again] == ["EXECUTE", "EXECUTE"]
