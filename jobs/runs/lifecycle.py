"""The lifecycle's rules: one table of allowed moves, and the replay that turns the
events of a run, in the order they happened, into its state.

Replaying instead of applying in arrival order is what makes the scheduler API
order-tolerant: a late event is placed by its own timestamp and the run's state,
restarts and each event's applied/rejected verdict are recomputed."""

from dataclasses import dataclass

from jobs.runs.models import EventKind, EventStatus, RunState
from portal.transitions import Machine, move

S, K = RunState, EventKind

# The one table: from a state, an event kind (via) moves the run to a state. The scheduler
# posts events and staff may make the same moves by hand. A preemption requeues the job to
# submitted or (while running) rented: the event's requeue_to says which.
SCHEDULER, STAFF = "scheduler", "staff"


def _m(source, kind, target):
    return move(source, target, SCHEDULER, STAFF, via=kind)


def _ends(source):
    return [_m(source, K.FAILED, S.FAILED), _m(source, K.CANCELLED, S.CANCELLED)]


MACHINE = Machine(
    S,
    [
        _m(S.SUBMITTED, K.RENTED, S.RENTED),
        *_ends(S.SUBMITTED),
        _m(S.RENTED, K.RUNNING, S.RUNNING),
        _m(S.RENTED, K.PREEMPTED, S.SUBMITTED),
        *_ends(S.RENTED),
        _m(S.RUNNING, K.OUTPUT, S.OUTPUT),
        _m(S.RUNNING, K.PREEMPTED, S.SUBMITTED),
        _m(S.RUNNING, K.PREEMPTED, S.RENTED),
        *_ends(S.RUNNING),
        _m(S.OUTPUT, K.RELEASED, S.RELEASED),
        *_ends(S.OUTPUT),
        # Only staff dispatch a failed run again (dispatch.dispatch); no scheduler does.
        move(S.FAILED, S.SUBMITTED, STAFF, via=K.REDISPATCHED),
    ],
)


def kinds_from(state):
    """The event kinds that may follow `state`, in the table's order."""
    kinds = []
    for m in MACHINE.moves_from(RunState(state)):
        if m.via not in kinds:
            kinds.append(EventKind(m.via))
    return kinds


class IllegalMove(ValueError):
    pass


def next_state(state, kind, requeue_to=""):
    state, kind = RunState(state), EventKind(kind)
    kinds = kinds_from(state)
    if kind not in kinds:
        if not kinds:
            raise IllegalMove(f"The run is already {state.label.lower()}: nothing can follow.")
        allowed = ", ".join(sorted(k.value for k in kinds))
        raise IllegalMove(f"“{kind.value}” cannot follow “{state.value}”; allowed: {allowed}.")
    if kind == K.PREEMPTED:
        target = RunState(requeue_to or S.SUBMITTED)
        if MACHINE.find(state, target, via=kind) is None:
            allowed = ", ".join(
                sorted(m.target.value for m in MACHINE.moves_from(state) if m.via == kind)
            )
            raise IllegalMove(
                f"A job preempted while {state.value} is requeued to {allowed}, not {target.value}."
            )
        return target
    return MACHINE.find(state, via=kind).target


@dataclass
class Replayed:
    state: RunState
    state_since: object
    restarts: int
    failure_reason: str
    cancelled_by: str = ""


# Events that happened at the same moment are placed in the lifecycle's own order, whatever
# order they arrived in: an engine reports an allocation's start as rented and running at
# once (to the second), and a run that ends with nothing to deliver as output and released.
SAME_MOMENT = {kind: rank for rank, kind in enumerate(
    [K.RENTED, K.RUNNING, K.PREEMPTED, K.OUTPUT, K.RELEASED, K.FAILED, K.CANCELLED,
     K.REDISPATCHED])}  # fmt: skip


def order_key(event):
    """Where an event stands in the run: when it happened, then the lifecycle's order."""
    return (event.occurred_at, SAME_MOMENT.get(event.kind, 9), event.received_at, event.pk or 0)


def replay(run, events, start=None):
    """Set each event's verdict (status, from/to state, reason) and return the run's state.
    `start`: the state before the first of `events` (a replay of the run's tail only);
    by default the run as it was accepted."""
    if start is None:
        start = Replayed(RunState.SUBMITTED, run.created_at, 0, "")
    state, since, restarts = start.state, start.state_since, start.restarts
    failure, cancelled_by = start.failure_reason, start.cancelled_by
    for event in sorted(events, key=order_key):
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
        if target == S.CANCELLED:
            cancelled_by = cancelled_by_of(event)
        if event.kind == K.REDISPATCHED:
            failure, cancelled_by = "", ""
        state, since = target, event.occurred_at
    return Replayed(state, since, restarts, failure, cancelled_by)


def cancelled_by_of(event):
    """Who a cancelling event says cancelled the run; a person's own move names them."""
    said = (event.observed or {}).get("cancelled_by", "")
    if said:
        return said
    if event.actor_id:
        return "staff" if event.actor.is_staff else "partner"
    return "cluster" if event.client_id else ""
