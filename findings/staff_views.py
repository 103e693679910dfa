"""Staff triage: the queue with filters and bulk actions, one finding's triage page,
and the unsolved problems staff write and publish."""

from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from portal import submissions
from portal.decorators import staff_required
from portal.errors import DomainError
from portal.markdown import render_markdown
from portal.pagination import bounded_count, keyset_page, shown_count

from . import rules, selectors, services
from .models import Finding, FindingStatus, UnsolvedProblem
from .presenters import detail_context, triage_rows
from .rules import Actor
from .staff_forms import (
    AssignForm,
    BulkForm,
    MergeForm,
    NoteForm,
    ProblemForm,
    QueueFilterForm,
    StatusForm,
)


@staff_required
@require_safe
def staff_finding_queue(request):
    filter_form = QueueFilterForm.for_queue(request.GET)
    filters = filter_form.filters()
    # A search matches team names too: those teams, found first, are sent as constants.
    team_ids = selectors.teams_named(filters["q"]) if "q" in filters else []
    teams = selectors.team_filter(filters["team"]) if "team" in filters else None
    queryset = selectors.staff_queue(filters, team_ids=team_ids, teams=teams)
    page = keyset_page(
        selectors.staff_rows(queryset), order=selectors.staff_sort(filters), request=request
    )
    matching = bounded_count(queryset)
    problems, staff = filter_form.rows("problem"), filter_form.rows("assignee")
    # A bulk action that changed nothing comes back with its choices (staff_finding_bulk).
    again = request.session.pop(BULK_KEPT, None) or {}
    context = {
        "filter_form": filter_form,
        "teams": teams,
        "page": page,
        # The rows name their problems from the filter's list of problems (the same order).
        "rows": triage_rows(page, problems, frozenset(again.get("findings", ()))),
        "matching": shown_count(matching),
        "matching_count": matching,  # "finding" or "findings" (a number, not "1,000+")
        # The bulk form's lists, each with the choice a bulk action that changed nothing kept.
        "bulk_lists": [
            ("action", "Action", None, BulkForm.ACTIONS, again.get("action", "")),
            ("assignee", "Assignee", "Nobody", staff, again.get("assignee", str(request.user.pk))),
            (
                "status",
                "Status",
                None,
                BulkForm.base_fields["status"].choices,
                again.get("status", ""),
            ),
            ("problem", "Problem", "—", problems, again.get("problem", "")),
        ],
        "bulk_note": again.get("note", ""),
        "here": request.get_full_path(),
    }
    if request.htmx:
        return render(request, "findings/staff_queue.html#results", context)
    return render(request, "findings/staff_queue.html", context)


# What a bulk action that changed nothing was asked, for the queue to show it again.
BULK_KEPT = "triage:bulk-again"


def _keep_bulk_choices(request):
    """The ticked findings and the bulk form's choices, kept in the session for the next
    visit of the queue: after 'Nothing was changed' or a refusal for every finding, the
    person corrects the form instead of ticking and choosing everything again."""
    ids = [int(v) for v in request.POST.getlist("findings") if v.isdigit()][:500]
    fields = ("action", "assignee", "status", "problem")
    request.session[BULK_KEPT] = {
        "findings": ids,
        **{k: request.POST.get(k, "")[:20] for k in fields},
        "note": request.POST.get("note", "")[:2000],
    }


def _back(request):
    """Back to the queue as the form was sent from it (its filters, its page): a path on
    this site, else the queue. Not redirect(target): a word without a slash is taken for a
    URL name there, and a name that is none was a 500."""
    target = request.POST.get("next", "")
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, {request.get_host()}, request.is_secure()
    ):
        return HttpResponseRedirect(target)
    return redirect("staff_finding_queue")


@staff_required
@require_POST
def staff_finding_bulk(request):
    form = BulkForm(request.POST, findings=Finding.objects.all())
    if not form.is_valid():
        errors = " ".join(
            f"{form.fields[k].label or k}: {' '.join(v)}" if k in form.fields else " ".join(v)
            for k, v in form.errors.items()
        )
        messages.error(request, f"Nothing was changed. {errors}")
        _keep_bulk_choices(request)
        return _back(request)
    findings = list(form.cleaned_data["findings"])
    action = form.cleaned_data["action"]
    try:
        if action == "assign":
            assignee = form.cleaned_data["assignee"]
            count = services.assign(findings=findings, assignee=assignee, actor=request.user)
            who = assignee or "nobody"
            said = f"{count} finding{'s' if count != 1 else ''} assigned to {who}."
            if count < len(findings):  # "0 assigned" alone read as a failure
                already = len(findings) - count
                where = f"assigned to {who}" if assignee else "unassigned"
                said += f" {already} {'was' if already == 1 else 'were'} already {where}."
            messages.success(request, said)
        elif action == "link":
            problem = form.cleaned_data["problem"]
            services.link_problems(findings=findings, problems=[problem], actor=request.user)
            messages.success(request, f"{len(findings)} linked to “{problem}”.")
        else:
            moved, refused = services.bulk_status(
                findings=findings,
                actor=request.user,
                to_status=form.cleaned_data["status"],
                note=form.cleaned_data["note"],
                problems=[form.cleaned_data["problem"]] if form.cleaned_data["problem"] else None,
            )
            if moved:
                messages.success(
                    request,
                    f"{len(moved)} moved to {FindingStatus(form.cleaned_data['status']).label.lower()}.",
                )
            for finding, reason in refused:
                messages.error(request, f"#{finding.pk} not moved: {reason}")
            if not moved:
                _keep_bulk_choices(request)
    except DomainError as error:
        messages.error(request, str(error))
        _keep_bulk_choices(request)
    return _back(request)


# Moves said as verbs, with the single key that focuses each button (no modifier keys).
VERBS = {
    FindingStatus.TRIAGED: ("Triage: link to the ticked problems", "t"),
    FindingStatus.ACCEPTED: ("Accept into the design", "a"),
    FindingStatus.ADDRESSED: ("Mark as addressed", "d"),
    FindingStatus.DECLINED: ("Decline…", "x"),
    FindingStatus.NEW: ("Back to new, to triage again", ""),
}


def _next_waiting_id(finding):
    """Read with the finding by the page's view (selectors.get_finding_for_triage)."""
    if hasattr(finding, "next_waiting_id"):
        return finding.next_waiting_id
    following = selectors.next_waiting(exclude=finding.pk)
    return following.pk if following else None


def _staff_context(request, finding, **forms):
    context = detail_context(request, finding, page="staff")
    moves = rules.allowed_targets(finding.status, Actor.STAFF)
    problems = [p.pk for p in context["problems"]]
    context.update(
        {
            "staff_moves": moves,
            "staff_move_values": [str(m.value) for m in moves],
            "staff_verbs": [(m.value, *VERBS.get(m, (m.label, ""))) for m in moves],
            "linked_problems": context["problems"],  # every problem it is linked to, to unlink
            "next_finding_id": _next_waiting_id(finding),
            # A refused form as it was sent; else its boxes tick the linked problems.
            "status_form": forms.get("status_form")
            or StatusForm(initial={"version": finding.version, "problems": problems}),
            "note_form": forms.get("note_form") or NoteForm(initial={"version": finding.version}),
            "assign_form": AssignForm(initial={"assignee": finding.assignee_id}),
            "merge_form": forms.get("merge_form")
            or MergeForm(initial={"version": finding.version}),
            "mergeable": (finding.status, FindingStatus.DUPLICATE) in rules.TRANSITIONS,
        }
    )
    if context["mergeable"]:
        context["possible_duplicates"] = [
            {**row, "status_label": FindingStatus(row["status"]).label}
            for row in selectors.possible_duplicates(finding, problems)
        ]
    return context


@staff_required
@require_safe
def staff_finding_detail(request, finding_id):
    finding = selectors.get_finding_for_triage(finding_id)  # staff: any finding
    return render(request, "findings/staff_detail.html", _staff_context(request, finding))


def _refused(request, finding, error, **forms):
    """Re-show the page with what was typed and the reason, instead of losing it."""
    finding.refresh_from_db()
    context = _staff_context(request, finding, **forms)
    context["refusal"] = str(error)
    return render(request, "findings/staff_detail.html", context, status=400)


@staff_required
@require_POST
def staff_finding_status(request, finding_id):
    finding = get_object_or_404(Finding, pk=finding_id)
    form = StatusForm(request.POST)
    if not form.is_valid():
        return _refused(request, finding, "Choose a move the page offers.", status_form=form)
    try:
        services.change_status(
            finding=finding,
            actor=request.user,
            to_status=form.cleaned_data["to_status"],
            note=form.cleaned_data["note"],
            problems=form.cleaned_data["problems"],
            proposed_problem=form.cleaned_data["proposed_problem"],
            expected_version=form.cleaned_data["version"],
        )
    except DomainError as error:
        return _refused(request, finding, error, status_form=form)
    # Straight on to the next finding that waits, as in a triage inbox.
    following = selectors.next_waiting(exclude=finding.pk)
    messages.success(
        request,
        f"#{finding.pk} is now {FindingStatus(form.cleaned_data['to_status']).label.lower()}; "
        "the partner is told."
        + (
            f" Next: #{following.pk}, the oldest still waiting."
            if following
            else " Nothing else waits."
        ),
    )
    if following:
        return redirect("staff_finding_detail", following.pk)
    return redirect("staff_finding_queue")


@staff_required
@require_POST
def staff_finding_note(request, finding_id):
    finding = get_object_or_404(Finding, pk=finding_id)
    posted = request.POST.copy()
    if not posted.get("body") and posted.get("note"):
        posted["body"] = posted["note"]  # "Send the answer only" from the decide form
    form = NoteForm(posted)
    if not form.is_valid():
        return _refused(request, finding, "Write the note and say who reads it.", note_form=form)
    try:
        note = services.add_note(
            finding=finding,
            author=request.user,
            visibility=form.cleaned_data["visibility"],
            body=form.cleaned_data["body"],
            expected_version=form.cleaned_data["version"],
            submission_token=submissions.token_from(request.POST),
        )
    except DomainError as error:
        return _refused(request, finding, error, note_form=form)
    messages.success(
        request,
        "Response sent to the partner."
        if note.visibility == "response"
        else "Internal note added.",
    )
    return redirect("staff_finding_detail", finding.pk)


@staff_required
@require_POST
def staff_finding_assign(request, finding_id):
    finding = get_object_or_404(Finding, pk=finding_id)
    form = AssignForm(request.POST)
    if form.is_valid():
        assignee = request.user if request.POST.get("me") else form.cleaned_data["assignee"]
        services.assign(findings=[finding], assignee=assignee, actor=request.user)
        messages.success(request, f"Assigned to {assignee or 'nobody'}.")
    else:
        messages.error(request, "Choose a staff member.")
    return redirect("staff_finding_detail", finding.pk)


@staff_required
@require_POST
def staff_finding_merge(request, finding_id):
    finding = get_object_or_404(Finding, pk=finding_id)
    form = MergeForm(request.POST)
    if not form.is_valid():
        return _refused(
            request, finding, "Give the number of the finding it duplicates.", merge_form=form
        )
    target = Finding.objects.filter(pk=form.cleaned_data["target"]).first()
    try:
        if target is None:
            raise DomainError(f"There is no finding #{form.cleaned_data['target']}.")
        services.merge(
            source=finding,
            target=target,
            actor=request.user,
            note=form.cleaned_data["note"],
            expected_version=form.cleaned_data["version"],
        )
    except DomainError as error:
        return _refused(request, finding, error, merge_form=form)
    messages.success(request, f"Merged into #{target.pk}: its evidence and followers went with it.")
    return redirect("staff_finding_detail", finding.pk)


@staff_required
@require_POST
def staff_finding_unmerge(request, finding_id):
    finding = get_object_or_404(Finding, pk=finding_id)
    try:
        services.unmerge(source=finding, actor=request.user)
    except DomainError as error:
        messages.error(request, f"Not unmerged: {error}")
    else:
        messages.success(request, "Unmerged: what it carried over was taken back.")
    return redirect("staff_finding_detail", finding.pk)


# --- Problems -------------------------------------------------------------------------------


@staff_required
@require_safe
def staff_problem_list(request):
    problems = UnsolvedProblem.objects.all()
    return render(request, "findings/staff_problems.html", {"problems": problems})


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def staff_problem_edit(request, problem_id=None):
    problem = get_object_or_404(UnsolvedProblem, pk=problem_id) if problem_id else UnsolvedProblem()
    form = ProblemForm(request.POST or None, instance=problem)
    if request.method == "POST" and form.is_valid():
        services.save_problem(problem=form.save(commit=False), actor=request.user)
        messages.success(
            request,
            f"“{problem.title}” is saved{' and published' if problem.published else ' (not published)'}.",
        )
        return redirect("staff_problem_list")
    return render(
        request,
        "findings/staff_problem_form.html",
        {
            "form": form,
            "problem": problem,
            "preview": render_markdown(problem.body) if problem.pk else "",
        },
        status=400 if request.method == "POST" else 200,
    )


@staff_required
@require_POST
def staff_finding_unlink(request, finding_id, problem_id):
    """Take a problem off a finding (a wrong link made in triage), from the triage page."""
    finding = get_object_or_404(Finding, pk=finding_id)
    problem = get_object_or_404(finding.problems.all(), pk=problem_id)
    services.unlink_problem(finding=finding, problem=problem, actor=request.user)
    messages.success(request, f"No longer linked to “{problem.title}”.")
    return redirect("staff_finding_detail", finding.pk)
