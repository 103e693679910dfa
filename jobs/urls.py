from django.urls import include, path

from . import run_move, views
from .review import views as review_views

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
        review_views.revision_review,
        name="revision_review",
    ),
    path("staff/reviews/", review_views.review_queue, name="review_queue"),
    path("jobs/<int:pk>/run/move/", run_move.run_move, name="run_move"),
    path("", include("jobs.runs.urls")),
]
