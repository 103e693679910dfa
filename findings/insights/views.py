"""Staff's insights page and its exports, and the public figures staff may hide. All of them
read the figures the periodic recompute stored (findings.insights.services)."""

import csv
import json

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_POST, require_safe

from portal.decorators import staff_required

from ..models import UnsolvedProblem
from . import charts, public, services


def _charts(data):
    rows = data["fields"]["rows"][:12]
    out = {
        "fields": charts.bars(
            [
                (r["label"], r["first_flagged_share"] and 100 * r["first_flagged_share"])
                for r in rows
            ],
            title="Share of job descriptions with the field flagged at first submission",
            unit=" %",
            fmt="{:.0f}",
        ),
        "words": charts.bars(
            [(w["vague_word"], w["uses"]) for w in data["vague_words"]],
            title="Vague words partners wrote where an exact value was needed",
        ),
        "metrics": [
            {
                **metric,
                "chart": charts.bars(
                    [(b["label"], b["runs"]) for b in metric["bands"]],
                    title=f"{metric['label']}: runs by {metric['meaning']}",
                    width=360,
                    label_width=100,
                ),
            }
            for metric in data["outcomes"]["all"]["metrics"]
        ],
        "problems": [
            {
                **problem,
                "chart": charts.bars(
                    [
                        (f"{parse_datetime(m['month']):%b %Y}", m["findings"])
                        for m in problem["months"]
                    ],
                    title=f"Findings per month: {problem['title']}",
                    label_width=120,
                ),
            }
            for problem in data["problems"]
        ],
    }
    return out


@staff_required
@require_safe
def staff_insights(request):
    stored = services.current()
    data = stored.figures
    context = {
        "data": data,
        "charts": _charts(data),
        "computed_at": stored.computed_at,
        "as_of": data["as_of"] and parse_datetime(data["as_of"]),
        "min_teams": public.MIN_TEAMS,
    }
    return render(request, "findings/insights/staff.html", context)


@staff_required
@require_POST
def staff_insights_recompute(request):
    """Staff who just triaged or published something need not wait for the beat."""
    row = services.recompute()
    if row.frozen_at:
        messages.info(
            request,
            "The figures are kept as they stood when a team's data was first erased "
            f"({row.frozen_at:%d %b %Y %H:%M} UTC): a recompute would drop that team's share.",
        )
    else:
        messages.success(request, "The figures are recomputed from every row.")
    return redirect("staff_insights")


@staff_required
@require_safe
def staff_insights_json(request):
    response = HttpResponse(
        json.dumps(services.current().figures, indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = 'attachment; filename="program-insights.json"'
    return response


def _csv_rows(data):
    """Flat (section, item, measure, value) rows: one file that any spreadsheet reads."""
    yield "fields", "", "submitted_jobs", data["fields"]["submitted_jobs"]
    for row in data["fields"]["rows"]:
        for key in ("jobs", "teams", "first_flagged", "first_errors", "first_flagged_share",
                    "clarified", "clarify_requests", "revisions", "still_open", "accept_days"):  # fmt: skip
            yield "fields", row["field"], key, row[key]
    for word in data["vague_words"]:
        yield "vague_words", word["vague_word"], "uses", word["uses"]
        yield "vague_words", word["vague_word"], "jobs", word["jobs"]
    yield "acceptance", "", "accepted_jobs", data["acceptance"]["jobs"]
    yield "acceptance", "", "median_seconds", data["acceptance"]["median_seconds"]
    groups = [("all", data["outcomes"]["all"])] + [
        (k["kind"] or "not_declared", k) for k in data["outcomes"]["kinds"]
    ]
    for name, group in groups:
        for key in ("runs", "teams", "simulated", "deadline_declared", "deadline_met",
                    "deadline_share", "fewer_nodes"):  # fmt: skip
            yield f"outcomes:{name}", "", key, group[key]
        for metric in group["metrics"]:
            yield f"outcomes:{name}", metric["metric"], "median", metric["median"]
            yield f"outcomes:{name}", metric["metric"], "runs", metric["n"]
            for band in metric["bands"]:
                yield f"outcomes:{name}", metric["metric"], f"band:{band['key']}", band["runs"]
    for problem in data["problems"]:
        section = f"problem:{problem['slug']}"
        for key in ("findings", "teams", "triage_hours", "address_hours"):
            yield section, "", key, problem[key]
        for kind in problem["kinds"]:
            yield section, "kind", kind["key"], kind["findings"]
        for status in problem["statuses"]:
            yield section, "status", status["key"], status["findings"]
        for month in problem["months"]:
            yield section, "month", month["month"][:7], month["findings"]  # ISO text: YYYY-MM
    # Named, not the stored dict's order: PostgreSQL's jsonb keeps no key order.
    for key in ("screened", "screened_rerouted", "declined", "declined_revised"):
        yield "screen", "", key, data["screen"][key]


# A spreadsheet runs a cell that starts with one of these as a formula; some cells carry
# words partners wrote (the vague words), so a text cell is written with a quote first.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value):
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


@staff_required
@require_safe
def staff_insights_csv(request):
    data = services.current().figures
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="program-insights.csv"'
    writer = csv.writer(response)
    writer.writerow(["section", "item", "measure", "value"])
    writer.writerows([_cell(v) for v in row] for row in _csv_rows(data))
    return response


@staff_required
@require_safe
def staff_problem_figures(request, problem_id):
    problem = get_object_or_404(UnsolvedProblem, pk=problem_id)
    stored = services.current(public_only=True)
    context = {
        "problem": problem,
        "figures": public.problem_figures(problem, stored.public),
        "computed_at": stored.computed_at,
        "min_teams": public.MIN_TEAMS,
    }
    return render(request, "findings/insights/staff_problem.html", context)


@staff_required
@require_POST
def staff_problem_figure_toggle(request, problem_id):
    """Hide a figure from the public page, or show it again."""
    problem = get_object_or_404(UnsolvedProblem, pk=problem_id)
    key = request.POST.get("figure", "")
    if key not in public.FIGURE_KEYS:
        messages.error(request, "There is no such figure.")
        return redirect("staff_problem_figures", problem_id=problem.pk)
    hidden = [k for k in problem.hidden_figures or [] if k in public.FIGURE_KEYS]
    if request.POST.get("action") == "show":
        hidden = [k for k in hidden if k != key]
        messages.success(request, "The figure is shown again once enough teams contribute.")
    else:
        hidden = sorted({*hidden, key})
        messages.success(request, "The figure is hidden from the public page.")
    UnsolvedProblem.objects.filter(pk=problem.pk).update(hidden_figures=hidden)
    return redirect("staff_problem_figures", problem_id=problem.pk)
