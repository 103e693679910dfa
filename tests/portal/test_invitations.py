from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from portal import services
from portal.errors import DomainError
from portal.models import Invitation, Membership, OutboundEmail, Role, User

pytestmark = pytest.mark.django_db(transaction=True)


def link_in(message):
    return next(w for w in message.body.split() if "/invitations/" in w).replace(
        "http://testserver", ""
    )


def test_admin_invites_and_newcomer_sets_password_and_joins(
    client, client_for, team_a, a_admin, password
):
    client_for(a_admin).post(
        reverse("team_invite", args=[team_a.slug]), {"email": "New@Example.com", "role": "member"}
    )
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["new@example.com"]
    link = link_in(mail.outbox[0])

    client_for(None)
    page = client.get(link)
    assert b"Choose a password" in page.content
    response = client.post(
        link, {"full_name": "New Person", "password1": password, "password2": password}
    )
    assert response.status_code == 302
    user = User.objects.get(email="new@example.com")
    assert Membership.objects.get(team=team_a, user=user).role == Role.MEMBER
    # Single use: the same link now says so and changes nothing.
    client.logout()
    again = client.get(link)
    assert again.status_code == 410
    assert b"already been used" in again.content


def test_bad_password_keeps_the_name_and_says_why(client, team_a, a_admin):
    invitation = services.invite(
        team=team_a, email="x@example.com", role="member", invited_by=a_admin
    )
    url = reverse("accept_invitation", args=[invitation.key])
    response = client.post(url, {"full_name": "Xavier", "password1": "short", "password2": "short"})
    assert response.status_code == 200
    assert b"too short" in response.content
    assert b'value="Xavier"' in response.content
    assert not User.objects.filter(email="x@example.com").exists()


def test_reinviting_an_existing_user_adds_the_membership_after_login(
    client_for, team_a, a_admin, b_member
):
    invitation = services.invite(
        team=team_a, email=b_member.email, role="member", invited_by=a_admin
    )
    assert "already have an account" in mail.outbox[-1].body
    client = client_for(b_member)
    response = client.post(reverse("accept_invitation", args=[invitation.key]))
    assert response.status_code == 302
    assert Membership.objects.filter(team=team_a, user=b_member).exists()


def test_invitation_for_someone_else_is_refused(client_for, team_a, a_admin, b_member):
    invitation = services.invite(
        team=team_a, email="other@example.com", role="member", invited_by=a_admin
    )
    client = client_for(b_member)
    client.post(reverse("accept_invitation", args=[invitation.key]))
    assert not Membership.objects.filter(team=team_a, user=b_member).exists()


def test_expired_and_revoked_links_do_not_work(client, team_a, a_admin, password):
    invitation = services.invite(
        team=team_a, email="late@example.com", role="member", invited_by=a_admin
    )
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    url = reverse("accept_invitation", args=[invitation.key])
    assert client.post(url, {"password1": password, "password2": password}).status_code == 410
    assert not User.objects.filter(email="late@example.com").exists()

    with pytest.raises(DomainError):
        services.accept_invitation(invitation=invitation, password=password)
    services.resend_invitation(invitation=invitation)
    invitation.refresh_from_db()
    services.revoke_invitation(invitation=invitation)
    assert client.get(reverse("accept_invitation", args=[invitation.key])).status_code == 410


def test_resend_replaces_the_link_and_reinvite_resends(team_a, a_admin):
    first = services.invite(team=team_a, email="r@example.com", role="member", invited_by=a_admin)
    old_key = first.key
    again = services.invite(team=team_a, email="R@example.com", role="admin", invited_by=a_admin)
    assert again.pk == first.pk and again.key != old_key and again.role == "admin"
    assert len(mail.outbox) == 2
    assert Invitation.objects.filter(key=old_key).count() == 0


def test_inviting_a_member_is_refused_with_a_message(client_for, team_a, a_admin, a_member):
    response = client_for(a_admin).post(
        reverse("team_invite", args=[team_a.slug]), {"email": a_member.email, "role": "member"}
    )
    assert response.status_code == 400
    assert b"already a member" in response.content
    assert a_member.email.encode() in response.content  # what was typed stays in the field


def test_htmx_invite_returns_the_panel_only(client_for, team_a, a_admin):
    response = client_for(a_admin).post(
        reverse("team_invite", args=[team_a.slug]),
        {"email": "h@example.com", "role": "member"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert b'id="team-panel"' in response.content
    assert b"<html" not in response.content
    assert b"h@example.com" in response.content


def test_email_is_sent_after_commit_only_and_once(team_a, a_admin):
    from django.db import transaction

    with transaction.atomic():
        services.invite(team=team_a, email="c@example.com", role="member", invited_by=a_admin)
        assert mail.outbox == []  # nothing leaves before the change is committed
    assert len(mail.outbox) == 1
    email = OutboundEmail.objects.get()
    assert email.sent_at is not None

    from portal.outbox import deliver_email

    deliver_email(email.pk)  # a duplicate delivery is a no-op
    assert len(mail.outbox) == 1


def test_rolled_back_change_sends_nothing(team_a, a_admin):
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        services.invite(team=team_a, email="gone@example.com", role="member", invited_by=a_admin)
        raise RuntimeError("boom")
    assert mail.outbox == []
    assert not OutboundEmail.objects.exists()


def test_staff_create_team_invites_its_admin(client_for, staff):
    response = client_for(staff).post(
        reverse("staff_teams"),
        {"name": "Gamma Labs", "organisation": "Gamma", "admin_email": "g@gamma.example"},
    )
    assert response.status_code == 302
    invitation = Invitation.objects.get(email="g@gamma.example")
    assert invitation.role == Role.ADMIN and invitation.team.slug == "gamma-labs"
    assert "Gamma Labs" in mail.outbox[0].subject


def test_existing_user_is_told_to_log_in(client, team_a, a_admin, make_user):
    make_user("known@example.com")
    invitation = services.invite(
        team=team_a, email="known@example.com", role="member", invited_by=a_admin
    )
    page = client.get(reverse("accept_invitation", args=[invitation.key]))
    assert b"already exists" in page.content
    assert b"password1" not in page.content
