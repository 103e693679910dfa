import pytest
from django.urls import reverse

from portal import services
from portal.errors import DomainError
from portal.models import Membership, Role

pytestmark = pytest.mark.django_db


def test_team_page_lists_members_and_hides_controls_from_members(
    client_for, team_a, a_admin, a_member
):
    page = client_for(a_member).get(reverse("team_detail", args=[team_a.slug]))
    assert page.status_code == 200
    assert a_admin.email.encode() in page.content
    assert b"Send invitation" not in page.content
    page = client_for(a_admin).get(reverse("team_detail", args=[team_a.slug]))
    assert b"Send invitation" in page.content


def test_last_admin_can_be_neither_demoted_nor_removed(client_for, team_a, a_admin, a_member):
    admin_membership = Membership.objects.get(user=a_admin)
    with pytest.raises(DomainError):
        services.change_role(membership=admin_membership, role=Role.MEMBER)
    with pytest.raises(DomainError):
        services.remove_member(membership=admin_membership)
    client = client_for(a_admin)
    response = client.post(
        reverse("member_role", args=[team_a.slug, admin_membership.pk]),
        {"role": "member"},
        follow=True,
    )
    assert b"at least one admin" in response.content
    admin_membership.refresh_from_db()
    assert admin_membership.role == Role.ADMIN


def test_promote_then_demote_and_remove(client_for, team_a, a_admin, a_member):
    client = client_for(a_admin)
    member = Membership.objects.get(user=a_member)
    client.post(reverse("member_role", args=[team_a.slug, member.pk]), {"role": "admin"})
    member.refresh_from_db()
    assert member.role == Role.ADMIN
    # Now there are two admins, so the first may step down.
    own = Membership.objects.get(user=a_admin)
    client.post(reverse("member_role", args=[team_a.slug, own.pk]), {"role": "member"})
    own.refresh_from_db()
    assert own.role == Role.MEMBER
    # A plain member may not manage the team any more.
    response = client.post(reverse("member_remove", args=[team_a.slug, member.pk]))
    assert response.status_code == 403
    assert Membership.objects.filter(pk=member.pk).exists()


def test_remove_asks_for_confirmation_first(client_for, team_a, a_admin, a_member):
    client = client_for(a_admin)
    member = Membership.objects.get(user=a_member)
    url = reverse("member_remove", args=[team_a.slug, member.pk])
    page = client.get(url)
    assert b"Remove" in page.content and Membership.objects.filter(pk=member.pk).exists()
    client.post(url)
    assert not Membership.objects.filter(pk=member.pk).exists()


def test_another_teams_member_id_is_404_even_for_an_admin(
    client_for, team_a, team_b, a_admin, b_member
):
    other = Membership.objects.get(user=b_member)
    response = client_for(a_admin).post(
        reverse("member_role", args=[team_a.slug, other.pk]), {"role": "member"}
    )
    assert response.status_code == 404
    other.refresh_from_db()
    assert other.role == Role.ADMIN


def test_bogus_role_is_refused(client_for, team_a, a_admin, a_member):
    member = Membership.objects.get(user=a_member)
    response = client_for(a_admin).post(
        reverse("member_role", args=[team_a.slug, member.pk]), {"role": "owner"}, follow=True
    )
    assert b"Choose a role" in response.content


def test_team_page_query_count_does_not_grow_with_members(
    client_for, team_a, a_admin, django_assert_num_queries, make_user
):

    client = client_for(a_admin)
    url = reverse("team_detail", args=[team_a.slug])
    # session, user, team, can-manage check, members, invitations, nav teams, the badge is on the user and memberships (0)
    with django_assert_num_queries(7):
        client.get(url)
    for i in range(15):
        make_user(f"m{i}@a.example", team=team_a)
        services.invite(team=team_a, email=f"i{i}@x.example", role="member", invited_by=a_admin)
    with django_assert_num_queries(7):
        client.get(url)
