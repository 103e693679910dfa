"""The lifecycle: the table of moves, idempotency, reordering, concurrency, ledger."""

import random
import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone

from jobs import jobformat, services
from jobs.runs import ledger, lifecycle, simulator
from jobs.runs import services as run_services
from jobs.runs.models import EventKind, EventStatus, Hold, Phase, Run, RunState
from portal.errors import DomainError
from portal.models import Notice

S, K = RunState, EventKind
T0 = timezone.now() - timedelta(days=5)


def at(minutes):
    return T0 + timedelta(minutes=minutes)


ALLOWED = {
    (S.SUBMITTED, K.RENTED): S.RENTED,
    (S.SUBMITTED, K.FAILED): S.FAILED,
    (S.SUBMITTED, K.CANCELLED): S.CANCELLED,
    (S.RENTED, K.RUNNING): S.RUNNING,
    (S.RENTED, K.PREEMPTED): S.SUBMITTED,
    (S.RENTED, K.FAILED): S.FAILED,
    (S.RENTED, K.CANCELLED): S.CANCELLED,
    (S.RUNNING, K.OUTPUT): S.OUTPUT,
    (S.RUNNING, K.PREEMPTED): S.SUBMITTED,
    (S.RUNNING, K.FAILED): S.FAILED,
    (S.RUNNING, K.CANCELLED): S.CANCELLED,
    (S.OUTPUT, K.RELEASED): S.RELEASED,
    (S.OUTPUT, K.FAILED): S.FAILED,
    (S.OUTPUT, K.CANCELLED): S.CANCELLED,
    # Staff dispatch a failed run again (jobs/runs/dispatch.py): it queues anew.
    (S.FAILED, K.REDISPATCHED): S.SUBMITTED,
}


@pytest.mark.parametrize("state", list(S))
@pytest.mark.parametrize("kind", list(K))
def test_every_move_is_allowed_or_refused_by_the_table(state, kind):
    expected = ALLOWED.get((state, kind))
    if expected is None:
        with pytest.raises(lifecycle.IllegalMove) as error:
            lifecycle.next_state(state, kind)
        assert kind.value in str(error.value) or "nothing can follow" in str(error.value)
    else:
        assert lifecycle.next_state(state, kind) == expected


def test_preemption_requeue_targets():
    assert lifecycle.next_state(S.RUNNING, K.PREEMPTED, "rented") == S.RENTED
    with pytest.raises(lifecycle.IllegalMove):
        lifecycle.next_state(S.RENTED, K.PREEMPTED, "rented")


def post(run, kind, minutes, key, **extra):
    return run_services.record_event(
        run=run, kind=kind, occurred_at=at(minutes), idempotency_key=key, **extra
    )


@pytest.mark.django_db
def test_a_full_run_with_a_restart(run):
    for i, (kind, minute, extra) in enumerate(
        [
            (K.RENTED, 10, {}),
            (K.RUNNING, 20, {}),
            (K.PREEMPTED, 30, {"requeue_to": "rented"}),
            (K.RUNNING, 40, {}),
            (K.OUTPUT, 50, {}),
            (K.RELEASED, 60, {}),
        ]
    ):
        post(run, kind, minute, f"k{i}", **extra)
    run.refresh_from_db()
    assert run.state == S.RELEASED and run.restarts == 1 and run.is_final


@pytest.mark.django_db
def test_the_same_event_twice_changes_nothing(run):
    first, created = post(run, K.RENTED, 10, "same")
    again, created_again = post(run, K.RENTED, 10, "same")
    assert created and not created_again and first.pk == again.pk
    assert run.events.count() == 1


@pytest.mark.django_db
def test_an_illegal_event_is_kept_as_rejected_with_the_reason(run):
    event, _ = post(run, K.RELEASED, 10, "too-early")
    assert event.status == EventStatus.REJECTED and "cannot follow" in event.reject_reason
    run.refresh_from_db()
    assert run.state == S.SUBMITTED


@pytest.mark.django_db
def test_out_of_order_events_are_placed_by_their_own_time(run):
    post(run, K.RUNNING, 20, "b")  # arrives first, but happened after the rent
    run.refresh_from_db()
    assert run.state == S.SUBMITTED
    post(run, K.RENTED, 10, "a")
    run.refresh_from_db()
    assert run.state == S.RUNNING
    assert set(run.events.values_list("status", flat=True)) == {EventStatus.APPLIED}


@pytest.mark.django_db
def test_shuffled_events_give_the_same_state_and_ledger(team_a, a_member, staff):
    def accepted_run(name):
        job = services.create_draft(
            team=team_a, user=a_member, data={**jobformat.example_data(), "name": name}
        )
        revision = services.submit(job=job, user=a_member)
        services.review(revision=revision, reviewer=staff, outcome="accepted")
        return Run.objects.select_related("revision").get(job=job)

    runs = {
        seed: accepted_run(f"shuffled-{seed}" if seed else "in-order") for seed in (None, 1, 2, 3)
    }
    steps = simulator.plan(runs[None])  # one plan, played in order and then shuffled
    # Job time starts once every run is accepted: no simulated event before an acceptance.
    base = max(r.created_at for r in runs.values())
    outcomes = []
    for seed, run in runs.items():
        order = list(range(len(steps)))
        if seed is not None:
            random.Random(seed).shuffle(order)
        for index in order:
            simulator.apply_step(run, steps, index, base)
        run.refresh_from_db()
        outcomes.append((run.state, run.restarts, ledger.compute(run).figures()))
    assert all(o == outcomes[0] for o in outcomes)
    assert outcomes[0][0] == S.RELEASED


@pytest.mark.django_db
def test_future_events_are_refused(run):
    with pytest.raises(DomainError, match="future"):
        run_services.record_event(
            run=run,
            kind=K.RENTED,
            occurred_at=timezone.now() + timedelta(hours=1),
            idempotency_key="f",
        )


@pytest.mark.django_db(transaction=True)
def test_key_transitions_notify_the_team_after_commit(run, a_member, a_admin):
    mail.outbox.clear()
    post(run, K.RENTED, 10, "r")
    assert {m.to[0] for m in mail.outbox} == {a_member.email, a_admin.email}
    notice = Notice.objects.get(user=a_member, topic="job")
    assert (notice.team, notice.url) == (run.job.team, f"/jobs/{run.job.pk}/#run")
    post(run, K.RENTED, 10, "r")  # a repeat notifies nobody
    assert len(mail.outbox) == 2


@pytest.mark.django_db
def test_staff_moves_need_a_note_and_follow_the_same_rules(run, staff):
    with pytest.raises(DomainError, match="note"):
        run_services.move_by_hand(run=run, kind=K.RENTED, actor=staff, note="")
    with pytest.raises(DomainError, match="cannot follow"):
        run_services.move_by_hand(run=run, kind=K.OUTPUT, actor=staff, note="testing")
    event = run_services.move_by_hand(run=run, kind=K.CANCELLED, actor=staff, note="Partner asked.")
    assert event.actor == staff and event.to_state == S.CANCELLED


@pytest.mark.django_db
def test_ledger_arithmetic_with_open_and_overlapping_holds(run):
    now = T0 + timedelta(hours=10)

    def hold(key, count, phase, start_h, end_h=None):
        run_services.record_hold(
            run=run, accelerator_type="L40S", count=count, phase=phase,
            started_at=T0 + timedelta(hours=start_h),
            ended_at=None if end_h is None else T0 + timedelta(hours=end_h),
            idempotency_key=key,
        )  # fmt: skip

    hold("s1", 32, Phase.STAGING, 0, 2)
    hold("s2", 16, Phase.STAGING, 1, 3)  # overlaps s1: both were held
    hold("r1", 32, Phase.RUNNING, 3)  # open: counted up to now
    result = ledger.compute(run, now=now)
    phases = {p.phase: p for p in result.phases}
    assert phases[Phase.STAGING].hours == 32 * 2 + 16 * 2
    assert phases[Phase.STAGING].seconds == 3 * 3600  # the union of the two spans
    assert phases[Phase.STAGING].accelerators == 48  # at once, during the overlap
    assert phases[Phase.RUNNING].hours == 32 * 7 and phases[Phase.RUNNING].open
    assert result.held == 96 + 224
    assert result.requested == 1152 and result.expected == 1200
    assert any(
        "+96.0 h held during staging: data staging took 3h on 48 accelerators" in e
        for e in result.explanations
    )
    # Closing the open hold with the same key.
    run_services.record_hold(
        run=run, accelerator_type="L40S", count=32, phase=Phase.RUNNING,
        started_at=T0 + timedelta(hours=3), ended_at=T0 + timedelta(hours=5), idempotency_key="r1",
    )  # fmt: skip
    assert ledger.compute(run, now=now).held == 96 + 64
    with pytest.raises(DomainError, match="different hold"):
        hold("r1", 8, Phase.RUNNING, 3, 5)


@pytest.mark.django_db
def test_offer_a_finding_when_held_is_far_from_expected(run):
    run_services.record_hold(
        run=run, accelerator_type="L40S", count=32, phase=Phase.RUNNING,
        started_at=T0, ended_at=T0 + timedelta(hours=50), idempotency_key="big",
    )  # fmt: skip
    result = ledger.compute(run)
    assert result.held == 1600 and result.gap == 400 and result.offer_finding


@pytest.mark.django_db
def test_a_run_still_going_is_not_offered_a_finding_for_holding_less_than_expected(run):
    # Two hours of staging into a run expected to hold 1,200 h: it has only started.
    run_services.record_hold(
        run=run, accelerator_type="L40S", count=32, phase=Phase.STAGING,
        started_at=T0, ended_at=T0 + timedelta(hours=2), idempotency_key="stage",
    )  # fmt: skip
    result = ledger.compute(run)
    # No gap against the whole run yet (never "-1,136.0 h against expected"): held so far.
    assert not run.is_final and result.gap is None
    assert result.so_far == (
        "64.0 h held so far of the 1,200.0 h expected for the whole run; "
        "the difference is counted when the run ends."
    )
    assert not result.offer_finding
    # Once the run has ended, holding far less than expected is a mismatch worth a finding.
    run.state = S.RELEASED
    assert ledger.compute(run).offer_finding


@pytest.mark.django_db
def test_simulator_plays_a_whole_run_marked_simulated(run):
    run = simulator.play_now(run)
    assert run.state == S.RELEASED and run.simulated
    assert all(e.simulated and e.client.simulated for e in run.events.all())
    assert Hold.objects.filter(run=run, simulated=True).count() >= 5
    again = simulator.play_now(run)  # idempotent: nothing doubles
    assert again.events.count() == run.events.count()


@pytest.mark.django_db
def test_simulate_network_command(run, capsys):
    from django.core.management import call_command

    call_command("simulate_network")
    assert "released" in capsys.readouterr().out
    run.refresh_from_db()
    assert run.state == S.RELEASED


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_concurrent_conflicting_events_one_wins_nothing_lost(run):
    post(run, K.RENTED, 10, "rent")
    barrier = threading.Barrier(2)
    errors = []

    def send(kind, key):
        try:
            barrier.wait()
            run_services.record_event(run=run, kind=kind, occurred_at=at(20), idempotency_key=key)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=send, args=a) for a in ((K.RUNNING, "go"), (K.CANCELLED, "stop"))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    run.refresh_from_db()
    statuses = dict(run.events.values_list("idempotency_key", "status"))
    assert sorted(statuses.values()) == ["applied", "applied", "rejected"] or sorted(
        statuses.values()
    ) == [
        "applied",
        "applied",
        "applied",
    ]
    assert run.events.count() == 3
    assert run.state in (S.RUNNING, S.CANCELLED)
