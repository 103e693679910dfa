"""One way to tell people something: a portal notice (when there is news to show in the
portal) and an e-mail, both written in the caller's transaction, the e-mail delivered
after commit through the outbox. Every "tell the team / the followers / staff" goes here."""

from dataclasses import dataclass, field

from . import badges
from .models import Notice, User
from .outbox import queue_email


@dataclass(frozen=True)
class Email:
    subject: str
    template: str
    context: dict = field(default_factory=dict)


def team_people(team):
    return [m.user for m in team.memberships.select_related("user") if m.user.is_active]


def staff_people():
    return list(User.objects.filter(is_staff=True, is_active=True))


def tell(people, *, key, email: Email, notice="", topic="", url="", team=None, exclude=None):
    """E-mail each person once per `key` (the key names the event); with `notice`, also
    leave them a portal notice under `topic` linking to `url`. `exclude`: the person who
    caused it, who needs no telling."""
    told = []
    for person in people:
        if exclude is not None and person.pk == exclude.pk:
            continue
        if notice:
            Notice.objects.create(
                user=person, team=team, topic=topic, message=notice[:300], url=url[:300]
            )
        queue_email(
            key=f"{key}:{person.pk}",
            to=person.email,
            subject=email.subject,
            template=email.template,
            context=email.context,
        )
        told.append(person)
    if notice and told:
        badges.notice_left(told, team_id=team.pk if team is not None else None, topic=topic)
    return told
