"""The transition table: every (from, to, actor) is either allowed exactly as the table says,
or refused with a sentence."""

import itertools

import pytest

from findings import rules
from findings.models import FindingStatus as S
from findings.rules import Actor
from portal.errors import DomainError

ALL = list(itertools.product(S, S, [Actor.STAFF, Actor.PARTNER, Actor.MERGE]))


@pytest.mark.parametrize(("frm", "to", "actor"), ALL)
def test_every_move_is_allowed_only_as_the_table_says(frm, to, actor):
    if rules.TRANSITIONS.get((frm, to)) == actor:
        rules.check(frm, to, actor)
    else:
        with pytest.raises(DomainError) as refused:
            rules.check(frm, to, actor)
        assert str(refused.value).endswith(".")


def test_the_workflow_of_the_issue_is_in_the_table():
    path = [S.NEW, S.TRIAGED, S.ACCEPTED, S.ADDRESSED]
    for frm, to in itertools.pairwise(path):
        assert rules.TRANSITIONS[(frm, to)] == Actor.STAFF
    assert rules.TRANSITIONS[(S.ADDRESSED, S.VERIFIED)] == Actor.PARTNER
    assert rules.TRANSITIONS[(S.ADDRESSED, S.REOPENED)] == Actor.PARTNER


def test_refusals_say_why():
    with pytest.raises(DomainError, match="Only the partner team"):
        rules.check(S.ADDRESSED, S.VERIFIED, Actor.STAFF)
    with pytest.raises(DomainError, match="merge"):
        rules.check(S.NEW, S.DUPLICATE, Actor.STAFF)
    with pytest.raises(DomainError, match="unmerge it first"):
        rules.check(S.DUPLICATE, S.TRIAGED, Actor.STAFF)
    with pytest.raises(DomainError, match="already"):
        rules.check(S.NEW, S.NEW, Actor.STAFF)
    with pytest.raises(DomainError, match="From here it can go to: triaged, declined"):
        rules.check(S.NEW, S.ADDRESSED, Actor.STAFF)


def test_final_states():
    assert rules.allowed_targets(S.VERIFIED, Actor.STAFF) == []
    assert rules.allowed_targets(S.DUPLICATE, Actor.STAFF) == []
    assert rules.allowed_targets(S.DECLINED, Actor.STAFF) == [S.NEW]
