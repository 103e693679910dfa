from django.urls import path

from . import run_views, staff_views, views

urlpatterns = [
    path("spec/v1/schema.json", views.spec_schema, name="spec_schema"),
    path("jobs/", views.job_list, name="job_list"),
    path("jobs/new/", views.job_new, name="job_new"),
    path("jobs/<int:pk>/", views.job_detail, name="job_detail"),
    path("jobs/<int:pk>/imported/", views.job_imported, name="job_imported"),
    path("jobs/<int:pk>/edit/<slug:step>/", views.job_step, name="job_step"),
    path("jobs/<int:pk>/edit/<slug:step>/autosave/", views.job_autosave, name="job_autosave"),
    path("jobs/<int:pk>/conflict/", views.job_conflict, name="job_conflict"),
    path("jobs/<int:pk>/submit/", views.job_submit, name="job_submit"),
    path("jobs/<int:pk>/withdraw/", views.job_withdraw, name="job_withdraw"),
    path("jobs/<int:pk>/delete/", views.job_delete, name="job_delete"),
    path("jobs/<int:pk>/comments/", views.comment_create, name="comment_create"),
    path("jobs/<int:pk>/revisions/<int:number>/", views.revision_detail, name="revision_detail"),
    path(
        "jobs/<int:pk>/revisions/<int:number>/export.<str:fmt>",
        views.revision_export,
        name="revision_export",
    ),
    path(
        "jobs/<int:pk>/revisions/<int:number>/review/",
        staff_views.revision_review,
        name="revision_review",
    ),
    path("jobs/<int:pk>/run/", run_views.run_panel, name="run_panel"),
    path("jobs/<int:pk>/run/move/", run_views.run_move, name="run_move"),
    path("jobs/<int:pk>/run/simulate/", run_views.run_simulate, name="run_simulate"),
    path("staff/reviews/", staff_views.review_queue, name="review_queue"),
    path("staff/scheduler-clients/", staff_views.scheduler_clients, name="scheduler_clients"),
    path(
        "staff/scheduler-clients/<int:client_id>/revoke/",
        staff_views.scheduler_client_revoke,
        name="scheduler_client_revoke",
    ),
]
