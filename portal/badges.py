"""The navigation's unread badge, kept as counters updated on write and read from rows
every page loads anyway (the user, and the memberships the navigation shows), so no page
counts comments or notices however many there are.

Where a count lives follows who may see the news: staff see every team, so theirs is on
the User; a partner's news of a team is on their Membership of it (leaving the team drops
the count with the row); a notice of no team is on the User. Decrements never go below 0."""

from collections import Counter, defaultdict

from django.db.models import F, Q
from django.db.models.functions import Greatest

from .models import Membership, NoticeTopic, User

FIELDS = ("unread_comments", "unread_notices")

# The badge sits on "Jobs": it counts job comments and job notices (findings show their own).
BADGE_TOPIC = NoticeTopic.JOB


def _change(field, by):
    if by >= 0:
        return {field: F(field) + by}
    return {field: Greatest(F(field) + by, 0)}


def decrease(field, by):
    """The update that takes `by` from a kept count (never below 0)."""
    return _change(field, -by)


def _apply(people, team_id, field, by):
    """Add `by` to `field` for each person, on the User or the Membership as `where` says."""
    if not by:
        return
    on_user = [p.pk for p in people if p.is_staff or team_id is None]
    on_membership = [p.pk for p in people if not p.is_staff and team_id is not None]
    if on_user:
        User.objects.filter(pk__in=on_user).update(**_change(field, by))
    if on_membership:
        Membership.objects.filter(team_id=team_id, user_id__in=on_membership).update(
            **_change(field, by)
        )
    # Keep the in-memory user (request.user) and its loaded memberships in step, so the page
    # being rendered shows the new number.
    for person in people:
        if person.pk in on_user:
            setattr(person, field, max(0, getattr(person, field, 0) + by))
        for membership in getattr(person, "_own_memberships", None) or []:
            if person.pk in on_membership and membership.team_id == team_id:
                setattr(membership, field, max(0, getattr(membership, field) + by))


def comments_arrived(people, *, team_id, count=1):
    _apply(people, team_id, "unread_comments", count)


def comments_read(user, *, team_id, count):
    _apply([user], team_id, "unread_comments", -count)


def notices_left(notices):
    """Each person's badge goes up by the notices of its topic they were left, each notice
    a (person, team pk, topic): one UPDATE per distinct number left, whatever the number
    of people and teams (a batch of scheduler events tells many teams)."""
    on_user, on_membership = Counter(), Counter()  # user pk / (team pk, user pk) -> notices
    told = {}  # id(person) -> person: every instance passed is kept in step
    for person, team_id, topic in notices:
        if topic != BADGE_TOPIC:
            continue
        told[id(person)] = person
        if person.is_staff or team_id is None:
            on_user[person.pk] += 1
        else:
            on_membership[(team_id, person.pk)] += 1
    for count, pks in _by_count(on_user).items():
        User.objects.filter(pk__in=pks).update(**_change("unread_notices", count))
    for count, keys in _by_count(on_membership).items():
        by_team = defaultdict(list)
        for team_id, user_pk in keys:
            by_team[team_id].append(user_pk)
        where = Q()
        for team_id, user_pks in by_team.items():
            where |= Q(team_id=team_id, user_id__in=user_pks)
        Membership.objects.filter(where).update(**_change("unread_notices", count))
    for person in told.values():
        person.unread_notices = getattr(person, "unread_notices", 0) + on_user[person.pk]
        for membership in getattr(person, "_own_memberships", None) or []:
            membership.unread_notices += on_membership[(membership.team_id, person.pk)]


def _by_count(counts):
    grouped = defaultdict(list)
    for key, count in counts.items():
        grouped[count].append(key)
    return grouped


def notices_read(user, *, team_id, topic, count):
    if topic == BADGE_TOPIC:
        _apply([user], team_id, "unread_notices", -count)


def notices_waiting(user, memberships):
    """Whether the counters say the user has unread notices of the badge's topic (jobs):
    when they say none, the jobs list need not look for them (no query)."""
    if not user.is_authenticated:
        return False
    if user.unread_notices:
        return True
    return not user.is_staff and any(m.unread_notices for m in memberships)


def badge(user, memberships):
    """The number on the badge, from the user and their (already loaded) memberships."""
    if not user.is_authenticated:
        return 0
    total = user.unread_comments + user.unread_notices
    if not user.is_staff:
        total += sum(m.unread_comments + m.unread_notices for m in memberships)
    return total
