"""The transition table: every (from, to, actor) is either allowed exactly as the table says,
or refused with a sentence."""

import itertools

import pytest

from findings import rules
from findings.models import FindingStatus as S
from findings.rules import Actor
from portal.errors import DomainError

ALL = list(itertools.product(S, S, [Actor.STAFF, Actor.PARTNER, Actor.MERGE]))


# The workflow as the product describes it, written here by hand (not read from the code):
# staff triage, accept, address or decline; the partner verifies or reopens; merges are
# the merge service's alone.
ALLOWED = {
    (S.NEW, S.TRIAGED, Actor.STAFF),
    (S.NEW, S.DECLINED, Actor.STAFF),
    (S.TRIAGED, S.ACCEPTED, Actor.STAFF),
    (S.TRIAGED, S.DECLINED, Actor.STAFF),
    (S.ACCEPTED, S.ADDRESSED, Actor.STAFF),
    (S.ACCEPTED, S.DECLINED, Actor.STAFF),
    (S.ADDRESSED, S.VERIFIED, Actor.PARTNER),
    (S.ADDRESSED, S.REOPENED, Actor.PARTNER),
    (S.VERIFIED, S.REOPENED, Actor.PARTNER),
    (S.REOPENED, S.TRIAGED, Actor.STAFF),
    (S.REOPENED, S.ACCEPTED, Actor.STAFF),
    (S.REOPENED, S.ADDRESSED, Actor.STAFF),
    (S.REOPENED, S.DECLINED, Actor.STAFF),
    (S.DECLINED, S.NEW, Actor.STAFF),
    (S.NEW, S.DUPLICATE, Actor.MERGE),
    (S.TRIAGED, S.DUPLICATE, Actor.MERGE),
    (S.ACCEPTED, S.DUPLICATE, Actor.MERGE),
    (S.REOPENED, S.DUPLICATE, Actor.MERGE),
}


@pytest.mark.parametrize(("frm", "to", "actor"), ALL)
def test_every_move_is_allowed_exactly_as_the_workflow_says(frm, to, actor):
    if (frm, to, actor) in ALLOWED:
        rules.check(frm, to, actor)
        assert to in rules.allowed_targets(frm, actor)
    else:
        with pytest.raises(DomainError) as refused:
            rules.check(frm, to, actor)
        assert str(refused.value).endswith(".")
        assert to not in rules.allowed_targets(frm, actor)


def test_the_workflow_of_the_issue_runs_from_new_to_verified():
    path = [S.NEW, S.TRIAGED, S.ACCEPTED, S.ADDRESSED]
    for frm, to in itertools.pairwise(path):
        rules.check(frm, to, Actor.STAFF)
    rules.check(S.ADDRESSED, S.VERIFIED, Actor.PARTNER)
    rules.check(S.ADDRESSED, S.REOPENED, Actor.PARTNER)


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
