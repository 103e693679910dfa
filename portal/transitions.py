"""One way to move any status in the project: a table of allowed moves, who may make
each, and a history row per move. Runs, findings, job descriptions and intake
applications each declare their table with this helper; each keeps its own history
model (Event, StatusChange, JobStatusChange, IntakeDecision) because each records
different facts about a move."""

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .errors import DomainError

log = logging.getLogger(__name__)


class IllegalMove(DomainError):
    """The table has no such move, or the actor may not make it."""


@dataclass(frozen=True)
class Move:
    source: str
    target: str
    who: frozenset
    # What makes the move when it matters (a run's event kind, a description's "submit");
    # empty when the target alone names it.
    via: str = ""


def move(source, target, *who, via=""):
    return Move(source, target, frozenset(who), via)


class Machine:
    def __init__(self, states, moves: Iterable[Move]):
        self.states = states  # the TextChoices, for labels in messages
        self.moves = tuple(moves)
        self._from = {}
        for m in self.moves:
            self._from.setdefault(m.source, []).append(m)

    def label(self, state):
        return self.states(state).label.lower()

    def moves_from(self, source, actor=None):
        return [m for m in self._from.get(source, []) if actor is None or actor in m.who]

    def targets(self, source, actor=None):
        seen = []
        for m in self.moves_from(source, actor):
            if m.target not in seen:
                seen.append(m.target)
        return seen

    def find(self, source, target=None, *, via=None):
        for m in self._from.get(source, []):
            if (target is None or m.target == target) and (via is None or m.via == via):
                return m
        return None

    def check(self, source, target, actor, *, via=None, refusal="") -> Move:
        """The move, or IllegalMove with a sentence saying why and what is possible."""
        found = self.find(source, target, via=via)
        if found is not None and actor in found.who:
            return found
        log.info(
            "refused move of a %s: %s -> %s by %s", self.states.__name__, source, target, actor
        )
        if refusal:
            raise IllegalMove(refusal)
        if found is not None:
            raise IllegalMove(f"You may not move it to {self.label(target)}.")
        possible = self.targets(source, actor)
        hint = (
            "From here it can go to: " + ", ".join(self.label(t) for t in possible) + "."
            if possible
            else "Nothing can be done to it from here."
        )
        raise IllegalMove(
            f"Something that is {self.label(source)} cannot become {self.label(target)}. {hint}"
        )

    def apply(
        self,
        obj,
        target,
        *,
        actor,
        record: Callable[[str, str], object],
        field="status",
        via=None,
        refusal="",
    ) -> Move:
        """Check the move, write its history row (`record(source, target)`), set the field.
        The caller saves `obj` (it usually changes other fields in the same save)."""
        source = getattr(obj, field)
        found = self.check(source, target, actor, via=via, refusal=refusal)
        record(source, target)
        setattr(obj, field, target)
        return found
