"""The one table of moves of a job description's status, and who may make each."""

from enum import StrEnum

from portal.transitions import Machine, move

from .models import JobStatus as S


class Actor(StrEnum):
    TEAM = "team"
    STAFF = "staff"


MOVES = Machine(
    S,
    [
        # The team submits a draft, a description staff asked to clarify, or a declined one
        # it revised (the real-time part rerouted).
        move(S.DRAFT, S.IN_REVIEW, Actor.TEAM, via="submit"),
        move(S.NEEDS_CLARIFICATION, S.IN_REVIEW, Actor.TEAM, via="submit"),
        move(S.DECLINED, S.IN_REVIEW, Actor.TEAM, via="submit"),
        # Taken back from review before staff decide, to revise it.
        move(S.IN_REVIEW, S.DRAFT, Actor.TEAM, via="withdraw"),
        move(S.IN_REVIEW, S.ACCEPTED, Actor.STAFF, via="review"),
        move(S.IN_REVIEW, S.NEEDS_CLARIFICATION, Actor.STAFF, via="review"),
        move(S.IN_REVIEW, S.DECLINED, Actor.STAFF, via="review"),
    ],
)
