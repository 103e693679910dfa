from django.urls import include, path

from . import run_move, views
from .review import views as review_views

urlpatterns = [
    path("spec/v1/schema.json", views.spec_schema, name="spec_schema"),
    path("jobs/", views.job_list, name="job_list"),
    path("jobs/new/", views.job_new, name="job_new"),
    path("jobs/<id:pk>/", views.job_detail, name="job_detail"),
    path("jobs/<id:pk>/imported/", views.job_imported, name="job_imported"),
    path("jobs/<id:pk>/edit/<slug:step>/", views.job_step, name="job_step"),
    path("jobs/<id:pk>/edit/<slug:step>/autosave/", views.job_autosave, name="job_autosave"),
    path("jobs/<id:pk>/conflict/", views.job_conflict, name="job_conflict"),
    path("jobs/<id:pk>/submit/", views.job_submit, name="job_submit"),
    path("jobs/<id:pk>/withdraw/", views.job_withdraw, name="job_withdraw"),
    path("jobs/<id:pk>/delete/", views.job_delete, name="job_delete"),
    path("jobs/<id:pk>/comments/", views.comment_create, name="comment_create"),
    path("jobs/<id:pk>/revisions/<id:number>/", views.revision_detail, name="revision_detail"),
    path(
        "jobs/<id:pk>/revisions/<id:number>/export.<str:fmt>",
        views.revision_export,
        name="revision_export",
    ),
    path(
        "jobs/<id:pk>/revisions/<id:number>/review/",
        review_views.revision_review,
        name="revision_review",
    ),
    path("staff/reviews/", review_views.review_queue, name="review_queue"),
    path("jobs/<id:pk>/run/move/", run_move.run_move, name="run_move"),
    path("jobs/<id:pk>/run/simulate/", run_move.run_simulate, name="run_simulate"),
    path("", include("jobs.runs.urls")),
]
