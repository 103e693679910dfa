"""One way to tell people something: a portal notice (when there is news to show in the
portal) and an e-mail, both written in the caller's transaction, the e-mail delivered
after commit through the outbox. Every "tell the team / the followers / staff" goes here."""

from dataclasses import dataclass, field

from . import badges, bulk
from .models import Membership, Notice, User
from .outbox import Message, queue_emails, render_body


@dataclass(frozen=True)
class Email:
    subject: str
    template: str
    context: dict = field(default_factory=dict)


def team_people(team):
    return [m.user for m in team.memberships.select_related("user") if m.user.is_active]


def teams_people(team_ids):
    """team_people of several teams in one query: team pk -> its people."""
    people = {pk: [] for pk in team_ids}
    memberships = Membership.objects.filter(team_id__in=people).select_related("user")
    for m in memberships:
        if m.user.is_active:
            people[m.team_id].append(m.user)
    return people


def staff_people():
    return list(User.objects.filter(is_staff=True, is_active=True))


@dataclass(frozen=True)
class Telling:
    """One thing to tell some people (the arguments of `tell`)."""

    people: list
    key: str
    email: Email
    notice: str = ""
    topic: str = ""
    url: str = ""
    team: object = None
    exclude: object = None


def tell(people, *, key, email: Email, notice="", topic="", url="", team=None, exclude=None):
    """E-mail each person once per `key` (the key names the event); with `notice`, also
    leave them a portal notice under `topic` linking to `url`. `exclude`: the person who
    caused it, who needs no telling."""
    return tell_each([Telling(list(people), key, email, notice, topic, url, team, exclude)])


def tell_each(tellings):
    """Several `tell`s in a few queries whatever their number (a batch of scheduler
    events may tell a hundred teams). Returns everyone told."""
    notices, messages, told = [], [], []  # notices: (person, team pk, topic, message, url)
    for t in tellings:
        people = [p for p in t.people if t.exclude is None or p.pk != t.exclude.pk]
        if not people:
            continue
        if t.notice:
            team_id = t.team.pk if t.team is not None else None
            notices += [(p, team_id, t.topic, t.notice[:300], t.url[:300]) for p in people]
        body = render_body(t.email.template, t.email.context)  # the same for everyone told
        messages += [Message(f"{t.key}:{p.pk}", p.email, t.email.subject, body) for p in people]
        told += people
    if notices:
        # Rows, not model instances: one statement for any number of notices.
        bulk.insert(
            Notice,
            ("user_id", "team_id", "topic", "message", "url"),
            [(p.pk, *rest) for p, *rest in notices],
        )
        badges.notices_left([(p, team_id, topic) for p, team_id, topic, *_ in notices])
    if messages:
        queue_emails(messages)
    return told
