"""Team-scoped reads. Every view that shows partner data goes through these, so an
outsider gets a 404 and never learns whether the object exists."""

from django.db.models import Prefetch, Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import Invitation, Membership, Notice, Role, Team, TeamErasure, User


def teams_for(user):
    """Teams whose data this user may read: staff see all, partners their own."""
    if not user.is_authenticated:
        return Team.objects.none()
    if user.is_staff:
        return Team.objects.all()
    return Team.objects.filter(memberships__user=user)


def team_ids_for(user):
    """The ids of the teams whose data this partner may read, or None for staff (every
    team). Lists filtered by these constant ids walk their (team, sort) index in order and
    stop after a page, where a subquery would make the database sort every row first.
    Asked once per request: kept on the user object, which lives as long as the request."""
    if not user.is_authenticated:
        return []
    if user.is_staff:
        return None
    return [m.team_id for m in own_memberships(user)]


def own_memberships(user):
    """The user's memberships with their teams, loaded once per request and kept on the
    user object (which lives as long as the request): the navigation, the badge and every
    team-scoped list share the one query."""
    if not user.is_authenticated:
        return []
    if getattr(user, "_own_memberships", None) is None:
        user._own_memberships = list(memberships_for(user))
    return user._own_memberships


def scoped(queryset, user, team_field="team"):
    """`queryset` narrowed to the rows of the teams this user may read."""
    ids = team_ids_for(user)
    return queryset if ids is None else queryset.filter(**{f"{team_field}_id__in": ids})


def get_team_for_user(user, slug):
    return get_object_or_404(teams_for(user), slug=slug)


def membership_of(user, team):
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(team=team, user=user).first()


def can_manage_team(user, team):
    """Team admins and staff may invite, change roles and remove members."""
    if user.is_staff:
        return True
    membership = membership_of(user, team)
    return membership is not None and membership.role == Role.ADMIN


def team_members(team):
    return team.memberships.select_related("user").order_by("-role", "user__email")


def open_invitations(team):
    return team.invitations.filter(
        accepted_at__isnull=True, revoked_at__isnull=True
    ).select_related("invited_by")


def get_member_for_team(team, membership_id):
    return get_object_or_404(Membership.objects.select_related("user"), team=team, pk=membership_id)


def get_open_invitation_for_team(team, invitation_id):
    return get_object_or_404(open_invitations(team), pk=invitation_id)


def get_invitation_by_key(key):
    invitation = Invitation.objects.select_related("team").filter(key=key).first()
    if invitation is None:
        raise Http404("No such invitation.")
    return invitation


def memberships_for(user):
    """The user's own teams, for navigation and the home page."""
    if not user.is_authenticated:
        return Membership.objects.none()
    return Membership.objects.filter(user=user).select_related("team").order_by("team__name")


def staff_team_list():
    return Team.objects.prefetch_related(
        Prefetch("memberships", queryset=Membership.objects.select_related("user"))
    ).order_by("name")


def team_erasures(limit=50):
    """The latest erasures, for the staff teams page (every one is in the admin)."""
    return list(TeamErasure.objects.all()[:limit])


def team_summary(team):
    """What staff read before erasing a team: its members, and which of them leave with it."""
    members = list(team_members(team))
    elsewhere = set(
        Membership.objects.filter(user__in=[m.user_id for m in members])
        .exclude(team=team)
        .values_list("user_id", flat=True)
    )
    return [{"membership": m, "stays": m.user.is_staff or m.user_id in elsewhere} for m in members]


def account_exists(email):
    return User.objects.filter(email__iexact=email).exists()


def _unread(user, topic):
    """The user's unread notices of one topic, from teams they still belong to (or none)."""
    scoped = Notice.objects.filter(user=user, topic=topic, read_at__isnull=True)
    if not user.is_staff:
        scoped = scoped.filter(Q(team__isnull=True) | Q(team__memberships__user=user))
    return scoped


def unread_notices(user, topic, limit=20):
    if not user.is_authenticated:
        return []
    return list(_unread(user, topic).order_by("-created_at", "-pk")[:limit])


def unread_notice_count(user, topic):
    return _unread(user, topic).count() if user.is_authenticated else 0
