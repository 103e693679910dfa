"""The run of an accepted job: its live panel, dispatch, scheduler clients (staff moves and
the simulator are in jobs/run_move.py: a refusal shows the whole job page)."""

from django.urls import path

from . import views

urlpatterns = [
    path("jobs/<id:pk>/run/", views.run_panel, name="run_panel"),
    path("jobs/<id:pk>/run/dispatch/", views.run_dispatch, name="run_dispatch"),
    path("jobs/<id:pk>/run/cancel/", views.run_cancel, name="run_cancel"),
    path("staff/clusters/", views.clusters, name="clusters"),
    path("staff/scheduler-clients/", views.scheduler_clients, name="scheduler_clients"),
    path(
        "staff/scheduler-clients/<id:client_id>/revoke/",
        views.scheduler_client_revoke,
        name="scheduler_client_revoke",
    ),
]
