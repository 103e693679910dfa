"""The design-partner intake: the public announcement and application, staff review."""

from django.urls import path

from . import views

urlpatterns = [
    path("design-partners/", views.design_partners, name="design_partners"),
    path("design-partners/apply/", views.intake_apply, name="intake_apply"),
    path(
        "design-partners/applications/<str:status_token>/",
        views.intake_status,
        name="intake_status",
    ),
    path("staff/intake/", views.staff_intake, name="staff_intake"),
    path(
        "staff/intake/windows/<id:window_id>/",
        views.staff_intake_window,
        name="staff_intake_window",
    ),
    path(
        "staff/intake/windows/<id:window_id>/close/",
        views.staff_intake_window_close,
        name="staff_intake_window_close",
    ),
    path(
        "staff/intake/windows/<id:window_id>/applications/",
        views.staff_intake_applications,
        name="staff_intake_applications",
    ),
    path(
        "staff/intake/windows/<id:window_id>/release/",
        views.staff_intake_release,
        name="staff_intake_release",
    ),
    path(
        "staff/intake/applications/<id:application_id>/",
        views.staff_intake_application,
        name="staff_intake_application",
    ),
    path(
        "staff/intake/applications/<id:application_id>/review/",
        views.staff_intake_application_review,
        name="staff_intake_application_review",
    ),
    path(
        "staff/intake/applications/<id:application_id>/unstage/",
        views.staff_intake_application_unstage,
        name="staff_intake_application_unstage",
    ),
]
