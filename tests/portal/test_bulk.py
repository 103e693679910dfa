"""portal.bulk: many rows in one statement, read back exactly as the ORM would have
written them, on PostgreSQL (column arrays) and on the VALUES path SQLite takes."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import DataError, connection, connections, transaction
from django.utils import timezone

from jobs.runs import services as run_services
from jobs.runs.models import Event, EventKind, EventStatus, Run
from portal import bulk
from portal.models import Notice, NoticeTopic, OutboundEmail

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["native", "values"])
def path(request, monkeypatch):
    """Each test on the backend's own path and on the multi-row VALUES path (SQLite's),
    which is plain SQL PostgreSQL runs too; chunked small, so several statements run.
    Listed last by the tests, so the other fixtures are made as usual."""
    if request.param == "values":
        monkeypatch.setattr(bulk, "takes_arrays", lambda connection: False)
        monkeypatch.setattr(connections["default"].ops, "bulk_batch_size", lambda *a: 2)
    return request.param


def events_for(run, client_row, staff, n):
    start = timezone.now() - timedelta(hours=1)
    return [
        Event(
            run=run,
            kind=EventKind.PREEMPTED if i % 2 else EventKind.RENTED,
            requeue_to="rented" if i % 2 else "",
            failure_reason="",
            occurred_at=start + timedelta(seconds=i, microseconds=7),
            received_at=start,
            idempotency_key=f"k{i}:é'\"\\,{{}}",  # quotes, commas, braces: array syntax
            actor=staff if i == 0 else None,
            client=client_row,
            note='line one\nline two, with "quotes"' if i == 1 else "",
            simulated=i % 3 == 0,
            status=EventStatus.REJECTED if i == 2 else EventStatus.APPLIED,
            from_state="rented",
            to_state="running",
            reject_reason="",
            observed={"bytes_staged": 10**20, "exit_reason": 'née "x"'} if i == 1 else {},
        )
        for i in range(n)
    ]


FIELDS = [f.attname for f in Event._meta.concrete_fields]


def test_objects_round_trip_every_column_type_with_their_ids(run, staff, path):
    client_row, _ = run_services.create_client(name="bulk test")
    made = bulk.insert_objects(events_for(run, client_row, staff, 7))
    assert all(e.pk and not e._state.adding for e in made)
    stored = {e.pk: e for e in Event.objects.filter(run=run)}
    assert len(stored) == 7
    for event in made:  # each id names the row made from that object
        assert [getattr(stored[event.pk], f) for f in FIELDS] == [getattr(event, f) for f in FIELDS]
    assert stored[made[1].pk].observed["bytes_staged"] == 10**20


def test_rows_take_defaults_and_nulls(team_a, a_member, a_admin, path):
    before = timezone.now()
    bulk.insert(
        Notice,
        ("user_id", "team_id", "topic", "message", "url"),
        [
            (a_member.pk, team_a.pk, NoticeTopic.JOB, "Job 'x' {is} running, \"now\"", "/jobs/1/"),
            (a_admin.pk, None, NoticeTopic.FINDING, "", ""),
        ],
    )
    first, second = Notice.objects.order_by("pk")
    assert (first.user, first.team, first.topic, first.message, first.url) == (
        a_member, team_a, "job", "Job 'x' {is} running, \"now\"", "/jobs/1/"
    )  # fmt: skip
    assert second.team is None and second.read_at is None  # NULL in, NULL out
    assert first.created_at >= before and second.created_at >= before  # the field's default


def test_ids_only_of_rows_written_when_conflicts_are_skipped(path):
    rows = [(f"key-{i}", "a@example.invalid", "subject", "body") for i in range(5)]
    fields = ("dedupe_key", "to", "subject", "body")
    first = bulk.insert(OutboundEmail, fields, rows[:3], returning=True, conflict_nothing=True)
    again = bulk.insert(OutboundEmail, fields, rows, returning=True, conflict_nothing=True)
    assert len(first) == 3 and len(again) == 2 and not set(first) & set(again)
    by_key = dict(OutboundEmail.objects.values_list("dedupe_key", "pk"))
    assert [by_key[f"key-{i}"] for i in range(5)] == first + again  # in the order given
    email = OutboundEmail.objects.get(pk=first[0])
    assert (email.attempts, email.sent_at, email.private_link, email.last_error) == (
        0, None, "", ""
    )  # fmt: skip


def test_nothing_to_insert_sends_nothing(django_assert_num_queries, path):
    with django_assert_num_queries(0):
        assert bulk.insert(Notice, ("user_id",), [], returning=True) == []
        assert bulk.insert(Notice, ("user_id",), []) is None
        assert bulk.insert_objects([]) == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite keeps any length")
def test_a_value_too_long_for_its_column_is_refused_not_cut(run):
    # The arrays are of the bare type (varchar[]): a cast to varchar(12)[] would cut it.
    event = Event(run=run, kind="x" * 13, occurred_at=timezone.now(), idempotency_key="long")
    with pytest.raises(DataError), transaction.atomic():
        bulk.insert_objects([event])
    assert not Run.objects.get(pk=run.pk).events.exists()


def test_one_statement_for_many_rows_on_postgresql(run, staff, django_assert_num_queries):
    if connection.vendor != "postgresql":
        pytest.skip("the VALUES path is chunked by the backend's parameter limit")
    client_row, _ = run_services.create_client(name="bulk test")
    with django_assert_num_queries(1) as captured:
        bulk.insert_objects(events_for(run, client_row, staff, 300))
    assert "unnest(" in captured[0]["sql"]
    assert Event.objects.filter(run=run).count() == 300


def test_values_not_of_the_columns_type_are_prepared_as_the_orm_does(run, path, settings):
    settings.TIME_ZONE = "Europe/Paris"
    naive = datetime(2027, 3, 1, 9, 0)
    with pytest.warns(RuntimeWarning, match="naive datetime"):
        (pk,) = bulk.insert(
            Event,
            ("run_id", "kind", "occurred_at", "idempotency_key", "note", "simulated"),
            [(str(run.pk), EventKind.RUNNING, naive, 12345, 6789, 1)],
            returning=True,
        )
    event = Event.objects.get(pk=pk)
    assert event.occurred_at == datetime(2027, 3, 1, 8, 0, tzinfo=UTC)  # Paris time, made aware
    assert (event.run_id, event.kind, event.idempotency_key, event.note) == (
        run.pk, "running", "12345", "6789"
    )  # fmt: skip
    assert event.simulated is True


def test_update_sets_each_row_its_own_values(run, staff, path):
    client_row, _ = run_services.create_client(name="bulk test")
    made = bulk.insert_objects(events_for(run, client_row, staff, 4))
    later = timezone.now()
    fields = ("status", "reject_reason", "occurred_at", "simulated", "actor_id")
    bulk.update(
        Event,
        fields,
        [
            (made[0].pk, "rejected", 'it\'s {late}, "twice"', later, True, None),
            (made[2].pk, "applied", "", later + timedelta(seconds=1), False, staff.pk),
        ],
    )
    stored = {e.pk: e for e in Event.objects.filter(run=run)}
    assert [getattr(stored[made[0].pk], f) for f in fields] == [
        "rejected", "it's {late}, \"twice\"", later, True, None
    ]  # fmt: skip
    assert [getattr(stored[made[2].pk], f) for f in fields] == [
        "applied", "", later + timedelta(seconds=1), False, staff.pk
    ]  # fmt: skip
    for untouched in (made[1], made[3]):
        assert [getattr(stored[untouched.pk], f) for f in FIELDS] == [
            getattr(untouched, f) for f in FIELDS
        ]


def test_update_of_nothing_sends_nothing(django_assert_num_queries, path):
    with django_assert_num_queries(0):
        bulk.update(Event, ("status",), [])


def test_one_update_statement_for_many_rows_on_postgresql(run, staff, django_assert_num_queries):
    if connection.vendor != "postgresql":
        pytest.skip("elsewhere one UPDATE a row")
    client_row, _ = run_services.create_client(name="bulk test")
    made = bulk.insert_objects(events_for(run, client_row, staff, 50))
    with django_assert_num_queries(1) as captured:
        bulk.update(Event, ("note",), [(e.pk, f"note {e.pk}") for e in made])
    assert "unnest(" in captured[0]["sql"]
    assert {e.pk: e.note for e in Event.objects.filter(run=run)} == {
        e.pk: f"note {e.pk}" for e in made
    }
