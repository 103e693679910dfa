from django.urls import path

from . import staff_views, views
from .insights import views as insights

urlpatterns = [
    # Public: the published unsolved problems.
    path("problems/", views.problem_list, name="problem_list"),
    path("problems/<slug:problem_slug>/", views.problem_detail, name="problem_detail"),
    # Partners: their team's findings. The jobs pages link to finding_new with
    # ?job=<pk>&kind=<kind>&field=<dotted path> (all optional).
    path("findings/", views.finding_list, name="finding_list"),
    path("findings/new/", views.finding_new, name="finding_new"),
    path("findings/<id:finding_id>/", views.finding_detail, name="finding_detail"),
    path("findings/<id:finding_id>/subscribe/", views.finding_subscribe, name="finding_subscribe"),
    path("findings/<id:finding_id>/verify/", views.finding_verify, name="finding_verify"),
    path("findings/<id:finding_id>/reopen/", views.finding_reopen, name="finding_reopen"),
    path(
        "findings/<id:finding_id>/information/",
        views.finding_information,
        name="finding_information",
    ),
    # Staff: triage and the problems list.
    path("staff/findings/", staff_views.staff_finding_queue, name="staff_finding_queue"),
    path("staff/findings/bulk/", staff_views.staff_finding_bulk, name="staff_finding_bulk"),
    path(
        "staff/findings/<id:finding_id>/",
        staff_views.staff_finding_detail,
        name="staff_finding_detail",
    ),
    path(
        "staff/findings/<id:finding_id>/status/",
        staff_views.staff_finding_status,
        name="staff_finding_status",
    ),
    path(
        "staff/findings/<id:finding_id>/note/",
        staff_views.staff_finding_note,
        name="staff_finding_note",
    ),
    path(
        "staff/findings/<id:finding_id>/problems/<id:problem_id>/unlink/",
        staff_views.staff_finding_unlink,
        name="staff_finding_unlink",
    ),
    path(
        "staff/findings/<id:finding_id>/assign/",
        staff_views.staff_finding_assign,
        name="staff_finding_assign",
    ),
    path(
        "staff/findings/<id:finding_id>/merge/",
        staff_views.staff_finding_merge,
        name="staff_finding_merge",
    ),
    path(
        "staff/findings/<id:finding_id>/unmerge/",
        staff_views.staff_finding_unmerge,
        name="staff_finding_unmerge",
    ),
    # Staff: what the program has learned, and the public figures of each problem.
    path("staff/insights/", insights.staff_insights, name="staff_insights"),
    path("staff/insights/insights.csv", insights.staff_insights_csv, name="staff_insights_csv"),
    path("staff/insights/insights.json", insights.staff_insights_json, name="staff_insights_json"),
    path(
        "staff/insights/recompute/",
        insights.staff_insights_recompute,
        name="staff_insights_recompute",
    ),
    path(
        "staff/insights/problems/<id:problem_id>/",
        insights.staff_problem_figures,
        name="staff_problem_figures",
    ),
    path(
        "staff/insights/problems/<id:problem_id>/toggle/",
        insights.staff_problem_figure_toggle,
        name="staff_problem_figure_toggle",
    ),
    path("staff/problems/", staff_views.staff_problem_list, name="staff_problem_list"),
    path("staff/problems/new/", staff_views.staff_problem_edit, name="staff_problem_new"),
    path(
        "staff/problems/<id:problem_id>/",
        staff_views.staff_problem_edit,
        name="staff_problem_edit",
    ),
]
