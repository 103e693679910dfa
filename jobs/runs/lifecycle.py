"""The lifecycle's rules: one table of allowed moves, and the replay that turns the
events of a run, in the order they happened, into its state.

Replaying instead of applying in arrival order is what makes the scheduler API
order-tolerant: a late event is placed by its own timestamp and the run's state,
restarts and each event's applied/rejected verdict are recomputed."""

from dataclasses import dataclass

from jobs.models import EventKind, EventStatus, RunState

S, K = RunState, EventKind

# state -> event kind -> new state. Preemption's target depends on requeue_to (below).
TRANSITIONS = {
    S.SUBMITTED: {K.RENTED: S.RENTED, K.FAILED: S.FAILED, K.CANCELLED: S.CANCELLED},
    S.RENTED: {
        K.RUNNING: S.RUNNING,
        K.PREEMPTED: None,
        K.FAILED: S.FAILED,
        K.CANCELLED: S.CANCELLED,
    },
    S.RUNNING: {
        K.OUTPUT: S.OUTPUT,
        K.PREEMPTED: None,
        K.FAILED: S.FAILED,
        K.CANCELLED: S.CANCELLED,
    },
    S.OUTPUT: {K.RELEASED: S.RELEASED, K.FAILED: S.FAILED, K.CANCELLED: S.CANCELLED},
    S.RELEASED: {},
    S.FAILED: {},
    S.CANCELLED: {},
}
# Where a preempted job may be requeued to, from each state.
REQUEUE_TARGETS = {S.RENTED: {S.SUBMITTED}, S.RUNNING: {S.SUBMITTED, S.RENTED}}


class IllegalMove(ValueError):
    pass


def next_state(state, kind, requeue_to=""):
    state, kind = RunState(state), EventKind(kind)
    moves = TRANSITIONS[state]
    if kind not in moves:
        if not moves:
            raise IllegalMove(f"The run is already {state.label.lower()}: nothing can follow.")
        allowed = ", ".join(sorted(m.value for m in moves))
        raise IllegalMove(f"“{kind.value}” cannot follow “{state.value}”; allowed: {allowed}.")
    if kind == K.PREEMPTED:
        target = RunState(requeue_to or S.SUBMITTED)
        if target not in REQUEUE_TARGETS[state]:
            allowed = ", ".join(sorted(t.value for t in REQUEUE_TARGETS[state]))
            raise IllegalMove(
                f"A job preempted while {state.value} is requeued to {allowed}, not {target.value}."
            )
        return target
    return moves[kind]


@dataclass
class Replayed:
    state: RunState
    state_since: object
    restarts: int
    failure_reason: str


def replay(run, events):
    """Set each event's verdict (status, from/to state, reason) and return the run's state."""
    state, since, restarts, failure = RunState.SUBMITTED, run.created_at, 0, ""
    for event in sorted(events, key=lambda e: (e.occurred_at, e.received_at, e.pk or 0)):
        try:
            target = next_state(state, event.kind, event.requeue_to)
        except IllegalMove as error:
            event.status, event.from_state, event.to_state = EventStatus.REJECTED, state, ""
            event.reject_reason = str(error)[:300]
            continue
        event.status, event.from_state, event.to_state, event.reject_reason = (
            EventStatus.APPLIED,
            state,
            target,
            "",
        )
        if event.kind == K.PREEMPTED:
            restarts += 1
        if target == S.FAILED:
            failure = event.failure_reason or "other"
        state, since = target, event.occurred_at
    return Replayed(state, since, restarts, failure)
