"""The one table of legal moves of a finding, and who may make each.

Anything not in TRANSITIONS is refused with a sentence saying why and what is possible."""

import logging
from enum import StrEnum

from portal.errors import DomainError
from portal.transitions import Machine, move

from .models import FindingStatus as S

log = logging.getLogger(__name__)


class Actor(StrEnum):
    STAFF = "staff"
    PARTNER = "partner"
    # Only the merge and unmerge services make these moves (they carry evidence and
    # subscribers over); a plain status change to or from "duplicate" is refused.
    MERGE = "merge"


TRANSITIONS = {
    (S.NEW, S.TRIAGED): Actor.STAFF,
    (S.NEW, S.DECLINED): Actor.STAFF,
    (S.TRIAGED, S.ACCEPTED): Actor.STAFF,
    (S.TRIAGED, S.DECLINED): Actor.STAFF,
    (S.ACCEPTED, S.ADDRESSED): Actor.STAFF,
    (S.ACCEPTED, S.DECLINED): Actor.STAFF,
    # The partner has the last word on a fix: they confirm it, or reopen with a note.
    (S.ADDRESSED, S.VERIFIED): Actor.PARTNER,
    (S.ADDRESSED, S.REOPENED): Actor.PARTNER,
    (S.VERIFIED, S.REOPENED): Actor.PARTNER,
    (S.REOPENED, S.TRIAGED): Actor.STAFF,
    (S.REOPENED, S.ACCEPTED): Actor.STAFF,
    (S.REOPENED, S.ADDRESSED): Actor.STAFF,
    (S.REOPENED, S.DECLINED): Actor.STAFF,
    # Staff may reconsider a decline; it goes back to the start of triage.
    (S.DECLINED, S.NEW): Actor.STAFF,
    (S.NEW, S.DUPLICATE): Actor.MERGE,
    (S.TRIAGED, S.DUPLICATE): Actor.MERGE,
    (S.ACCEPTED, S.DUPLICATE): Actor.MERGE,
    (S.REOPENED, S.DUPLICATE): Actor.MERGE,
}

# Moves that need words the partner will read.
NEEDS_NOTE = {S.DECLINED: "Say why it is declined: the partner reads the reason."}
PARTNER_NEEDS_NOTE = {S.REOPENED: "Say what still does not work, so staff can look again."}
# Findings staff still owe an action on (for the digest and the "waiting on staff" filter).
WAITING_ON_STAFF = (S.NEW, S.REOPENED)
# Findings that count as evidence for a problem on the public page: triaged and onwards.
COUNTED = (S.TRIAGED, S.ACCEPTED, S.ADDRESSED, S.VERIFIED, S.REOPENED)


# The same table as a Machine (portal/transitions.py), the helper every status uses.
MACHINE = Machine(S, [move(frm, to, who) for (frm, to), who in TRANSITIONS.items()])


def allowed_targets(status, actor):
    return MACHINE.targets(status, actor)


def check(from_status, to_status, actor):
    """Raise DomainError unless `actor` may move a finding from `from_status` to `to_status`."""
    from_status, to_status = S(from_status), S(to_status)
    if from_status == to_status:
        raise DomainError(f"The finding is already {to_status.label.lower()}.")
    found = MACHINE.find(from_status, to_status)
    if found is not None and actor in found.who:
        return
    log.info("refused move of a finding: %s -> %s by %s", from_status, to_status, actor)
    who = next(iter(found.who)) if found is not None else None
    if who == Actor.MERGE:
        raise DomainError("Use “merge into another finding” to mark it as a duplicate.")
    if from_status == S.DUPLICATE:
        raise DomainError("This finding is a duplicate: unmerge it first.")
    if who is not None:
        party = "the partner team" if who == Actor.PARTNER else "staff"
        raise DomainError(f"Only {party} can move a finding to {to_status.label.lower()}.")
    possible = allowed_targets(from_status, actor)
    hint = (
        "From here it can go to: " + ", ".join(S(t).label.lower() for t in possible) + "."
        if possible
        else "Nothing can be done to it from here."
    )
    raise DomainError(
        f"A finding that is {from_status.label.lower()} cannot become "
        f"{to_status.label.lower()}. {hint}"
    )
