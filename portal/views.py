import tempfile

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from . import selectors, services, team_archive
from .decorators import staff_required
from .errors import DomainError
from .forms import (
    AcceptInvitationForm,
    EmailAuthenticationForm,
    EraseTeamForm,
    InviteForm,
    RoleForm,
    TeamCreateForm,
)
from .models import InvitationStatus, Role


def home(request):
    return render(
        request,
        "portal/home.html",
        {"memberships": selectors.memberships_for(request.user)},
    )


def _team_context(request, team, invite_form=None):
    return {
        "team": team,
        "members": selectors.team_members(team),
        "invitations": selectors.open_invitations(team),
        "can_manage": selectors.can_manage_team(request.user, team),
        "invite_form": invite_form or InviteForm(),
        "roles": Role.choices,
    }


def _render_team(request, team, invite_form=None, status=200):
    template = "portal/team_detail.html#panel" if request.htmx else "portal/team_detail.html"
    return render(request, template, _team_context(request, team, invite_form), status=status)


def _managed_team(request, slug):
    """The team, if the user may manage it: outsiders 404, plain members 403."""
    team = selectors.get_team_for_user(request.user, slug)
    if not selectors.can_manage_team(request.user, team):
        raise PermissionDenied("Only the team's admins can do this.")
    return team


def _after_change(request, team):
    if request.htmx:
        return _render_team(request, team)
    return redirect("team_detail", slug=team.slug)


@login_required
def team_detail(request, slug):
    team = selectors.get_team_for_user(request.user, slug)
    return _render_team(request, team)


@login_required
@require_POST
def team_invite(request, slug):
    team = _managed_team(request, slug)
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            invitation = services.invite(
                team=team,
                email=form.cleaned_data["email"],
                role=form.cleaned_data["role"],
                invited_by=request.user,
            )
        except DomainError as error:
            form.add_error("email", str(error))
        else:
            resent = invitation.sent_at > invitation.created_at
            verb = "A new invitation link was sent" if resent else "Invitation sent"
            messages.success(request, f"{verb} to {invitation.email}.")
            return _after_change(request, team)
    if request.htmx:
        return _render_team(request, team, invite_form=form)
    return _render_team(request, team, invite_form=form, status=400)


@login_required
@require_POST
def invitation_resend(request, slug, invitation_id):
    team = _managed_team(request, slug)
    invitation = selectors.get_open_invitation_for_team(team, invitation_id)
    try:
        services.resend_invitation(invitation=invitation)
        messages.success(request, f"A new link was sent to {invitation.email}.")
    except DomainError as error:
        messages.error(request, str(error))
    return _after_change(request, team)


@login_required
@require_POST
def invitation_revoke(request, slug, invitation_id):
    team = _managed_team(request, slug)
    invitation = selectors.get_open_invitation_for_team(team, invitation_id)
    try:
        services.revoke_invitation(invitation=invitation)
        messages.success(request, f"The invitation for {invitation.email} was revoked.")
    except DomainError as error:
        messages.error(request, str(error))
    return _after_change(request, team)


@login_required
@require_POST
def member_role(request, slug, membership_id):
    team = _managed_team(request, slug)
    membership = selectors.get_member_for_team(team, membership_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a role from the list.")
        return _after_change(request, team)
    try:
        services.change_role(membership=membership, role=form.cleaned_data["role"])
        messages.success(
            request, f"{membership.user} is now {Role(form.cleaned_data['role']).label.lower()}."
        )
    except DomainError as error:
        messages.error(request, str(error))
    return _after_change(request, team)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def member_remove(request, slug, membership_id):
    team = _managed_team(request, slug)
    membership = selectors.get_member_for_team(team, membership_id)
    if request.method == "POST":
        try:
            services.remove_member(membership=membership)
        except DomainError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, f"{membership.user} was removed from {team.name}.")
            if membership.user_id == request.user.pk and not request.user.is_staff:
                return redirect("home")
        return redirect("team_detail", slug=team.slug)
    return render(request, "portal/member_remove.html", {"team": team, "membership": membership})


@login_required
@require_safe
def team_export(request, slug):
    """The team's data as one ZIP archive, for its admins and staff. Built in a temporary
    file (rows are read a chunk at a time), so a large team costs disk, not memory."""
    team = _managed_team(request, slug)
    spool = tempfile.TemporaryFile()  # noqa: SIM115 (FileResponse closes it once sent)
    team_archive.export(team, spool)
    spool.seek(0)
    filename = f"{team.slug}-data-{timezone.now():%Y-%m-%d}.zip"
    response = FileResponse(
        spool, as_attachment=True, filename=filename, content_type="application/zip"
    )
    patch_cache_control(response, private=True, no_store=True)
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def accept_invitation(request, key):
    invitation = selectors.get_invitation_by_key(key)
    status = invitation.status
    context = {"invitation": invitation, "status": status, "statuses": InvitationStatus}
    if status != InvitationStatus.PENDING:
        return render(request, "portal/accept_invitation.html", context, status=410)
    user = request.user if request.user.is_authenticated else None
    has_account = user is None and selectors.account_exists(invitation.email)
    form = None
    if user is None and not has_account:
        form = AcceptInvitationForm(request.POST or None, email=invitation.email)
    if request.method == "POST" and (form is None or form.is_valid()):
        try:
            if user is not None:
                services.accept_invitation(invitation=invitation, user=user)
            elif not has_account:
                user = services.accept_invitation(
                    invitation=invitation,
                    password=form.cleaned_data["password1"],
                    full_name=form.cleaned_data["full_name"],
                ).user
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            else:
                raise DomainError("An account with this e-mail already exists: log in to accept.")
        except DomainError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, f"Welcome to {invitation.team.name}.")
            return redirect("team_detail", slug=invitation.team.slug)
    context.update(form=form, has_account=has_account)
    return render(request, "portal/accept_invitation.html", context)


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def staff_teams(request):
    form = TeamCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            team, created = services.create_team(
                name=form.cleaned_data["name"],
                organisation=form.cleaned_data["organisation"],
                admin_email=form.cleaned_data["admin_email"],
                created_by=request.user,
                submission_token=form.cleaned_data["submission_token"],
            )
        except DomainError as error:
            form.add_error("name", str(error))
        else:
            if created:
                messages.success(
                    request, f"Team {team.name} created; its admin has been invited by e-mail."
                )
            else:
                messages.info(request, f"Team {team.name} was already created by this form.")
            return redirect("team_detail", slug=team.slug)
    return render(
        request,
        "portal/staff_teams.html",
        {
            "teams": selectors.staff_team_list(),
            "erasures": selectors.team_erasures(),
            "form": form,
        },
        status=400 if form.errors else 200,
    )


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def staff_team_erase(request, slug):
    team = selectors.get_team_for_user(request.user, slug)
    form = EraseTeamForm(request.POST or None, team=team)
    if request.method == "POST" and form.is_valid():
        try:
            erasure = team_archive.erase(
                team=team, erased_by=request.user, confirm_name=form.cleaned_data["confirm_name"]
            )
        except DomainError as error:
            form.add_error("confirm_name", str(error))
        else:
            messages.success(request, f"{erasure.team_name}'s data was erased.")
            return redirect("staff_teams")
    return render(
        request,
        "portal/staff_team_erase.html",
        {
            "team": team,
            "form": form,
            "summary": selectors.team_summary(team),
            "preview": team_archive.erasure_preview(team),
        },
        status=400 if form.errors else 200,
    )


class LoginView(auth_views.LoginView):
    """Log in, then land where the person works: a partner on their team's jobs, staff on
    the program at a glance (the home page). A ?next= still wins."""

    redirect_authenticated_user = True
    authentication_form = EmailAuthenticationForm

    def get_default_redirect_url(self):
        user = self.request.user
        if not user.is_staff and selectors.memberships_for(user).exists():
            return reverse("job_list")
        return super().get_default_redirect_url()
