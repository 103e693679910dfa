"""Public problem pages and the partner's side of findings: file, list, read, follow,
verify or reopen, add information."""

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from jobs.runs import observed
from jobs.selectors import jobs_for
from jobs.steps import all_field_paths
from portal import selectors as portal_selectors
from portal import services as portal_services
from portal import submissions
from portal.errors import DomainError
from portal.markdown import render_markdown
from portal.models import NoticeTopic
from portal.pagination import keyset_page
from portal.validators import is_number

from . import evidence, selectors, services
from .forms import FORMS, KindForm
from .insights import public as public_figures
from .insights import services as insight_services
from .models import EvidenceSnapshot, FindingKind, NoteVisibility
from .presenters import detail_context, is_member, partner_rows

# --- Public -------------------------------------------------------------------------------


@require_safe
def problem_list(request):
    return render(
        request, "findings/problem_list.html", {"problems": selectors.published_problems()}
    )


@require_safe
def problem_detail(request, problem_slug):
    problem = selectors.get_problem_for_public(request.user, problem_slug)
    figures, figures_as_of = public_figures.shown(
        public_figures.problem_figures(problem, insight_services.public_figures())
    )
    return render(
        request,
        "findings/problem_detail.html",
        {
            "problem": problem,
            "body": render_markdown(problem.body),
            "learned": render_markdown(problem.learned),
            "figures": figures,
            "figures_as_of": figures_as_of,
            "min_teams": public_figures.MIN_TEAMS,
        },
    )


# --- Filing -------------------------------------------------------------------------------


def _digits(value):
    """A positive id from a query parameter, or 404 (never a 500 on hostile input)."""
    if not is_number(value) or len(value) > 12:
        raise Http404("No such job.")
    return int(value)


def _field_path(value):
    """'data.inputs.0.size' -> 'data.inputs.N.size' if that is one of the format's fields."""
    path = re.sub(r"\.\d+(?=\.|$)", ".N", value or "")
    return path if path in set(all_field_paths()) else None


def _prefill(kind, job, field):
    initial = {}
    if job is None:
        return initial, None
    snapshot = evidence.capture(job)
    initial["job"] = job.pk
    initial["title"] = f"{FindingKind(kind).label} on {job}"[:200]
    if kind == FindingKind.AMBIGUOUS_DESCRIPTION:
        latest = job.revisions.order_by("-number").first()
        if latest is not None:
            initial["revision"] = f"{job.pk}:{latest.number}"
        if field:
            initial["field"] = field
    if kind == FindingKind.ACCOUNTING_MISMATCH and snapshot is not None:
        initial.update(evidence.accounting_prefill(snapshot["ledger"]))
    if kind == FindingKind.STAGING_SLOWER and snapshot is not None:
        initial.update(observed.staging_prefill(snapshot["ledger"].get("observed")))
    return initial, _preview(snapshot)


def _preview(snapshot):
    """The evidence about to be frozen, as an unsaved snapshot for the same template."""
    return EvidenceSnapshot(**snapshot, captured_at=None) if snapshot else None


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def finding_new(request):
    """/findings/new/?job=<pk>&kind=<kind>&field=<path>: a kind first, then its fields.
    The job must be one of the filer's own team's jobs; anything else is a 404."""
    teams = list(selectors.filing_teams(request.user))
    if not teams:
        raise PermissionDenied("Findings are filed by members of a partner team.")
    params = request.POST if request.method == "POST" else request.GET
    job = None
    if params.get("job"):
        job = get_object_or_404(
            jobs_for(request.user).filter(team__in=teams).select_related("team"),
            pk=_digits(params["job"]),
        )
    team = job.team if job else _chosen_team(teams, params.get("team"))
    kind = params.get("kind", "")
    field = _field_path(params.get("field", ""))
    if kind not in FindingKind.values:
        submitted = "kind" in params or "chosen" in params
        form = KindForm(params if submitted else None)
        if submitted:
            form.is_valid()  # show "This field is required." when no kind was chosen
        return render(
            request,
            "findings/new.html",
            {"kind_form": form, "job": job, "team": team, "teams": teams, "field": field},
            status=400 if submitted else 200,
        )
    form_class = FORMS[kind]
    jobs = selectors.filing_jobs(request.user, team)
    if request.method == "POST":
        form = form_class(request.POST, jobs=jobs)
        if form.is_valid():
            try:
                finding = services.file_finding(
                    team=team,
                    user=request.user,
                    kind=kind,
                    title=form.cleaned_data["title"],
                    summary=form.cleaned_data["summary"],
                    impact=form.cleaned_data["impact"],
                    details=form.details(),
                    job=form.chosen_job(),
                    revision=form.chosen_revision(),
                    submission_token=submissions.token_from(request.POST),
                )
            except DomainError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, "Thank you: your finding is filed. Staff will triage it.")
                return redirect(finding)
        snapshot = _preview(evidence.capture(job)) if job else None
        status = 400
    else:
        initial, snapshot = _prefill(kind, job, field)
        form = form_class(initial=initial, jobs=jobs)
        status = 200
    return render(
        request,
        "findings/new.html",
        {
            "form": form,
            "kind": FindingKind(kind),
            "job": job,
            "team": team,
            "teams": teams,
            "snapshot": snapshot,
            "field": field,
        },
        status=status,
    )


def _chosen_team(teams, slug):
    if not slug:
        return teams[0]
    for team in teams:
        if team.slug == slug:
            return team
    raise Http404("No such team.")


# --- The partner's findings ------------------------------------------------------------------


@login_required
@require_safe
def finding_list(request):
    notices = portal_selectors.unread_notices(request.user, NoticeTopic.FINDING)
    page = keyset_page(
        selectors.partner_list(request.user),
        order=selectors.PARTNER_ORDER,
        request=request,
    )
    response = render(
        request,
        "findings/list.html",
        {
            "findings": page,
            "rows": partner_rows(page),
            "notices": notices,
        },
    )
    if notices:
        portal_services.mark_notices_read(user=request.user, ids=[n.pk for n in notices])
    return response


@login_required
@require_safe
def finding_detail(request, finding_id):
    finding = selectors.get_finding_for_page(request.user, finding_id)
    return render(request, "findings/detail.html", detail_context(request, finding))


def _member_finding(request, finding_id):
    """Another team's finding is a 404; staff (not members) may read but not act as the team."""
    finding = selectors.get_finding_for_user(request.user, finding_id)
    if not is_member(request.user, finding):
        raise PermissionDenied("Only the team that filed it can do this.")
    return finding


@login_required
@require_POST
def finding_subscribe(request, finding_id):
    finding = _member_finding(request, finding_id)
    on = request.POST.get("subscribe") == "1"
    services.subscribe(finding=finding, user=request.user, on=on)
    if request.htmx:
        return render(
            request,
            "findings/detail.html#subscription",
            {"finding": finding, "subscribed": on},
        )
    messages.success(
        request, "You will hear of every change." if on else "You will not hear of changes."
    )
    return redirect(finding)


@login_required
@require_POST
def finding_verify(request, finding_id):
    finding = _member_finding(request, finding_id)
    try:
        services.partner_verify(finding=finding, user=request.user)
    except DomainError as error:
        messages.error(request, f"Not verified: {error}")
    else:
        messages.success(request, "Thank you: the fix is recorded as verified.")
    return redirect(finding)


@login_required
@require_POST
def finding_reopen(request, finding_id):
    finding = _member_finding(request, finding_id)
    note = request.POST.get("note", "")
    try:
        services.partner_reopen(finding=finding, user=request.user, note=note)
    except DomainError as error:
        context = detail_context(request, finding, reopen_text=note)
        context["reopen_error"] = str(error)
        return render(request, "findings/detail.html", context, status=400)
    messages.success(request, "Reopened: staff will look at it again.")
    return redirect(finding)


@login_required
@require_POST
def finding_information(request, finding_id):
    finding = _member_finding(request, finding_id)
    body = request.POST.get("body", "")
    try:
        services.add_note(
            finding=finding,
            author=request.user,
            visibility=NoteVisibility.PARTNER,
            body=body,
            submission_token=submissions.token_from(request.POST),
        )
    except DomainError as error:
        context = detail_context(request, finding, info_form_errors=str(error))
        context["info_text"] = body
        return render(request, "findings/detail.html", context, status=400)
    messages.success(request, "Added: staff will see it with the finding.")
    return redirect(finding)
