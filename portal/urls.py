from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from jobs.api import api

from . import health, views
from .forms import QueuedPasswordResetForm

account_patterns = [
    path(
        "login/",
        views.LoginView.as_view(),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"
    ),
    path(
        "password/reset/",
        auth_views.PasswordResetView.as_view(form_class=QueuedPasswordResetForm),
        name="password_reset",
    ),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("second-step/", include("portal.second_factor.urls")),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("accounts/", include(account_patterns)),
    path("invitations/<uuid:key>/", views.accept_invitation, name="accept_invitation"),
    path("teams/<slug:slug>/", views.team_detail, name="team_detail"),
    path("teams/<slug:slug>/invite/", views.team_invite, name="team_invite"),
    path(
        "teams/<slug:slug>/invitations/<id:invitation_id>/resend/",
        views.invitation_resend,
        name="invitation_resend",
    ),
    path(
        "teams/<slug:slug>/invitations/<id:invitation_id>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path(
        "teams/<slug:slug>/members/<id:membership_id>/role/",
        views.member_role,
        name="member_role",
    ),
    path(
        "teams/<slug:slug>/members/<id:membership_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("teams/<slug:slug>/data.zip", views.team_export, name="team_export"),
    path("staff/teams/", views.staff_teams, name="staff_teams"),
    path("staff/teams/<slug:slug>/erase/", views.staff_team_erase, name="staff_team_erase"),
    path("", include("portal.intake.urls")),
    # Each app's pages; portal's own (teams, accounts, intake) are listed above.
    path("", include("jobs.urls")),
    path("", include("findings.urls")),
    path("api/v1/", api.urls),
    path("admin/", admin.site.urls),
]

handler400 = "portal.errors_views.bad_request"
handler403 = "portal.errors_views.permission_denied"
handler404 = "portal.errors_views.page_not_found"
handler500 = "portal.errors_views.server_error"
