"""The site core's part of a team's data (portal/team_archive.py): the team, its members,
invitations and notices; at erasure also the e-mails to its people and the people who
belong to no other team."""

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.db.models import Count, Q

from . import badges
from .badges import BADGE_TOPIC
from .models import Invitation, Membership, Notice, OutboundEmail, Team, User
from .team_archive import CHUNK, person

FILES = [
    ("team.json", "The team: name, organisation, when it was created."),
    (
        "members.json",
        "Its members: name, e-mail address, role (admin or member), when they joined.",
    ),
    (
        "invitations.json",
        "Every invitation sent: to whom, as what role, by whom, sent, expiring, accepted or "
        "revoked when.",
    ),
    (
        "notices.json",
        "The portal notices its members were left about the team's jobs and findings.",
    ),
]


def export(team, archive):
    archive.document(
        "team.json",
        {
            "id": team.pk,
            "name": team.name,
            "slug": team.slug,
            "organisation": team.organisation,
            "created_at": team.created_at,
        },
    )
    memberships = team.memberships.select_related("user").order_by("pk")
    archive.records(
        "members.json",
        (
            {**person(m.user), "role": m.role, "joined_at": m.joined_at}
            for m in memberships.iterator(chunk_size=CHUNK)
        ),
    )
    invitations = team.invitations.select_related("invited_by", "accepted_by").order_by("pk")
    archive.records(
        "invitations.json",
        (
            {
                "id": i.pk,
                "email": i.email,
                "role": i.role,
                "status": str(i.status),
                "invited_by": person(i.invited_by),
                "created_at": i.created_at,
                "sent_at": i.sent_at,
                "expires_at": i.expires_at,
                "accepted_at": i.accepted_at,
                "accepted_by": person(i.accepted_by),
                "revoked_at": i.revoked_at,
            }
            for i in invitations.iterator(chunk_size=CHUNK)
        ),
    )
    notices = Notice.objects.filter(team=team).select_related("user").order_by("pk")
    archive.records(
        "notices.json",
        (
            {
                "id": n.pk,
                "to": person(n.user),
                "topic": n.topic,
                "message": n.message,
                "link": n.url,
                "created_at": n.created_at,
                "read_at": n.read_at,
            }
            for n in notices.iterator(chunk_size=CHUNK)
        ),
    )


def leaving_people(team):
    """The team's people who belong to no other team: they leave with it. Staff never do."""
    elsewhere = Membership.objects.exclude(team=team).values("user_id")
    return User.objects.filter(memberships__team=team, is_staff=False).exclude(pk__in=elsewhere)


def _leaving_addresses(team, leaving):
    """The addresses whose records leave with the team: its leaving people's, and those it
    invited that no staying account has."""
    staying = User.objects.exclude(pk__in=[pk for pk, _ in leaving]).values("email")
    invited = (
        Invitation.objects.filter(team=team)
        .exclude(email__in=staying)
        .values_list("email", flat=True)
    )
    return sorted({email.lower() for _, email in leaving} | {e.lower() for e in invited})


def _rows(team):
    """What leaves with the team, {what: queryset (or querysets)}, in the order it goes."""
    leaving = list(leaving_people(team).values_list("pk", "email"))
    leaving_pks = [pk for pk, _ in leaving]
    logins = [email.lower() for _, email in leaving]
    return {
        "invitations": Invitation.objects.filter(team=team),
        "memberships": Membership.objects.filter(team=team),
        "notices": Notice.objects.filter(Q(team=team) | Q(user__in=leaving_pks)),
        "e-mails": OutboundEmail.objects.filter(to__in=_leaving_addresses(team, leaving)),
        "people": User.objects.filter(pk__in=leaving_pks),
        # django-axes' records of their logins, kept by the address they typed.
        "login records": [
            model.objects.filter(username__in=logins)
            for model in (AccessAttempt, AccessFailureLog, AccessLog)
        ],
    }


def _count(rows):
    return sum(r.count() for r in rows) if isinstance(rows, list) else rows.count()


def count(team):
    return {what: _count(rows) for what, rows in _rows(team).items()}


def erase(team):
    rows = _rows(team)
    counts = {what: _count(r) for what, r in rows.items()}
    # Staff count every team's unread job notices on their own badge: these leave it.
    unread = rows["notices"].filter(user__is_staff=True, topic=BADGE_TOPIC, read_at__isnull=True)
    for user_id, n in unread.values_list("user_id").annotate(n=Count("pk")).order_by():
        User.objects.filter(pk=user_id).update(**badges.decrease("unread_notices", n))
    for logins in rows.pop("login records"):
        logins.delete()
    for queryset in rows.values():
        queryset.delete()
    Team.objects.filter(pk=team.pk).delete()
    return counts
