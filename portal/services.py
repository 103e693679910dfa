"""Writes that span models for teams, memberships and invitations."""

import uuid
from collections import Counter

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from . import badges, submissions
from .errors import DomainError
from .models import INVITATION_LIFETIME, Invitation, Membership, Notice, Role, Team, User
from .outbox import absolute_url, queue_email


def _send_invitation(invitation):
    queue_email(
        key=f"invitation:{invitation.key}",
        to=invitation.email,
        subject=f"You are invited to join {invitation.team.name} on the E31 design-partner portal",
        template="emails/invitation.txt",
        context={
            "invitation": invitation,
            "url": absolute_url(reverse("accept_invitation", args=[invitation.key])),
            "has_account": User.objects.filter(email__iexact=invitation.email).exists(),
        },
    )


@transaction.atomic
def invite(*, team: Team, email: str, role: str, invited_by: User) -> Invitation:
    """Invite an address to a team; inviting it again resends the open invitation."""
    email = User.objects.normalize_email(email.strip()).lower()
    if Membership.objects.filter(team=team, user__email__iexact=email).exists():
        raise DomainError(f"{email} is already a member of {team.name}.")
    invitation = (
        Invitation.objects.select_for_update()
        .filter(team=team, email__iexact=email, accepted_at__isnull=True, revoked_at__isnull=True)
        .first()
    )
    if invitation is not None:
        invitation.role = role
        invitation.save(update_fields=["role"])
        return resend_invitation(invitation=invitation)
    now = timezone.now()
    try:
        with transaction.atomic():
            invitation = Invitation.objects.create(
                team=team,
                email=email,
                role=role,
                invited_by=invited_by,
                sent_at=now,
                expires_at=now + INVITATION_LIFETIME,
            )
    except IntegrityError:
        # A concurrent request created the same invitation first.
        raise DomainError(f"An invitation for {email} was just sent.") from None
    _send_invitation(invitation)
    return invitation


@transaction.atomic
def resend_invitation(*, invitation: Invitation) -> Invitation:
    """Send a fresh link (the previous one stops working) and restart the expiry."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if not invitation.is_open:
        raise DomainError("This invitation has already been used or revoked.")
    now = timezone.now()
    invitation.key = Invitation._meta.get_field("key").default()
    invitation.sent_at = now
    invitation.expires_at = now + INVITATION_LIFETIME
    invitation.save(update_fields=["key", "sent_at", "expires_at"])
    _send_invitation(invitation)
    return invitation


@transaction.atomic(durable=True)
def revoke_invitation(*, invitation: Invitation) -> None:
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.accepted_at:
        raise DomainError("This invitation has already been accepted.")
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])


@transaction.atomic(durable=True)
def accept_invitation(
    *, invitation: Invitation, user: User | None = None, password: str = "", full_name: str = ""
) -> Membership:
    """Join the team. A new person sets a password; an existing account must be logged in."""
    invitation = Invitation.objects.select_for_update().select_related("team").get(pk=invitation.pk)
    if invitation.accepted_at:
        raise DomainError("This invitation has already been used.")
    if invitation.revoked_at:
        raise DomainError("This invitation was withdrawn by the team.")
    if invitation.expires_at <= timezone.now():
        raise DomainError("This invitation has expired. Ask the team admin to send it again.")
    if user is None:
        if User.objects.filter(email__iexact=invitation.email).exists():
            raise DomainError("An account with this e-mail already exists: log in to accept.")
        user = User.objects.create_user(invitation.email, password, full_name=full_name)
    elif user.email.lower() != invitation.email.lower():
        raise DomainError(
            f"This invitation was sent to {invitation.email}. "
            "Log out and accept it with that address."
        )
    membership, created = Membership.objects.get_or_create(
        team=invitation.team, user=user, defaults={"role": invitation.role}
    )
    if not created and invitation.role == Role.ADMIN and membership.role != Role.ADMIN:
        membership.role = Role.ADMIN
        membership.save(update_fields=["role"])
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return membership


def _lock_admins(team):
    return list(
        Membership.objects.select_for_update()
        .filter(team=team, role=Role.ADMIN)
        .values_list("pk", flat=True)
    )


@transaction.atomic(durable=True)
def change_role(*, membership: Membership, role: str) -> Membership:
    if role not in Role.values:
        raise DomainError("Unknown role.")
    admins = _lock_admins(membership.team)
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == role:
        return membership
    if membership.role == Role.ADMIN and admins == [membership.pk]:
        raise DomainError("A team needs at least one admin: make someone else admin first.")
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic(durable=True)
def remove_member(*, membership: Membership) -> None:
    admins = _lock_admins(membership.team)
    if admins == [membership.pk]:
        raise DomainError("A team needs at least one admin: make someone else admin first.")
    Membership.objects.filter(pk=membership.pk).delete()


@transaction.atomic(durable=True)
def create_team(
    *,
    name: str,
    organisation: str,
    admin_email: str,
    created_by: User,
    submission_token: uuid.UUID | None = None,
) -> tuple[Team, bool]:
    """Staff create a partner team and invite its first admin. (team, created): the same
    form sent twice gives the team it created the first time."""
    name = name.strip()
    repeat = submissions.earlier(Team.objects.all(), submission_token)
    if repeat is not None:
        return repeat, False
    taken = f"A team called {name} already exists: choose another name, or open that team."
    if Team.objects.filter(name__iexact=name).exists():
        raise DomainError(taken)
    try:
        team, created = submissions.create_once(
            Team.objects.all(),
            submission_token,
            lambda: Team.objects.create(
                name=name,
                organisation=organisation.strip(),
                slug=Team.unique_slug_for(name),
                submission_token=submission_token,
            ),
        )
    except IntegrityError:
        # Another staff member created a team of this name (or address) since the check.
        raise DomainError(taken) from None
    if created:
        invite(team=team, email=admin_email, role=Role.ADMIN, invited_by=created_by)
    return team, created


@transaction.atomic(durable=True)
def mark_notices_read(*, user, ids):
    unread = Notice.objects.select_for_update().filter(user=user, pk__in=ids, read_at__isnull=True)
    read = list(unread.values_list("team_id", "topic"))
    if not read:
        return
    Notice.objects.filter(user=user, pk__in=ids, read_at__isnull=True).update(
        read_at=timezone.now()
    )
    for (team_id, topic), count in Counter(read).items():
        badges.notices_read(user, team_id=team_id, topic=topic, count=count)
