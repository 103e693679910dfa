from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from portal import badges, submissions
from portal import selectors as portal_selectors
from portal import services as portal_services
from portal.errors import DomainError
from portal.models import NoticeTopic
from portal.pagination import keyset_page

from . import jobformat, selectors, services
from .dashboard import dashboard_rows
from .flow import FLOW
from .forms import CommentForm, NewJobForm, SbatchExportForm, ScratchForm
from .jobformat import slurm_export
from .models import JobStatus
from .presenters import (
    Seen,
    StepPage,
    description_sections,
    detail_context,
    diff_rows,
    grouped_issues,
)
from .review.presenters import review_groups
from .runs.dispatch import site_for
from .runs.models import Cluster
from .steps import readable_value

CONFLICT_KEY = "jobs:conflict:{}"
PENDING_KEY = "jobs:pending-posts"
MAX_PENDING = 10  # posts kept per session while logged out (each tab's last one)
SEEN_KEY = "jobs:seen:{}"
MAX_SEEN = 500  # field paths remembered per draft: a form has far fewer


def _seen(request, job, *, fields=(), steps=(), everything=False):
    """Where this person has been on this draft (kept in the session), updated with
    fields they left and steps they moved on from or asked to review."""
    key = SEEN_KEY.format(job.pk)
    stored = request.session.get(key) or {}
    if not stored and (job.data.get("source") or job.revisions.exists()):
        everything = True  # imported or submitted before: every gap is already known
    known = set(stored.get("fields", []))
    new_fields = {f for f in fields if isinstance(f, str) and len(f) < 200} - known
    new_steps = set(steps) - set(stored.get("steps", []))
    if new_fields or new_steps or (everything and not stored.get("everything")):
        stored = {
            "fields": sorted(known | new_fields)[:MAX_SEEN],
            "steps": sorted(set(stored.get("steps", [])) | new_steps),
            "everything": bool(stored.get("everything") or everything),
        }
        request.session[key] = stored
    return Seen(stored.get("fields", []), stored.get("steps", []), stored.get("everything", False))


def _posted_seen(post):
    return [p for p in str(post.get("seen", ""))[:20_000].split(",") if p]


@require_safe
@cache_control(public=True, max_age=3600)
def spec_schema(request):
    """The published JSON Schema of the job-description format, version 1."""
    response = JsonResponse(jobformat.json_schema(), json_dumps_params={"indent": 2})
    response["Access-Control-Allow-Origin"] = "*"
    return response


def login_keeping_post(view):
    """Like login_required, but a form posted after the session expired is kept: it is
    stashed in the session, and the step applies it once the person has logged in again."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        # Come back to the step page: an autosave URL only takes POSTs.
        step_path = request.path
        if kwargs.get("step") and kwargs.get("pk"):
            step_path = reverse("job_step", args=[kwargs["pk"], kwargs["step"]])
        if request.method == "POST" and kwargs.get("step") and kwargs.get("pk"):
            _keep_pending_post(request, kwargs["pk"], kwargs["step"])
        login_url = f"{reverse('login')}?next={step_path}"
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = login_url
            return response
        messages.warning(request, "Your session expired. Log in again: what you typed is kept.")
        return redirect(login_url)

    return wrapper


@login_required
def job_list(request):
    team = None
    if request.GET.get("team"):
        team = portal_selectors.get_team_for_user(request.user, request.GET["team"])
    status = request.GET.get("status", "")
    status = status if status in JobStatus.values else ""
    notices = []
    # The badge's counters are kept on write: when they say none, there is nothing to read.
    if badges.notices_waiting(request.user, portal_selectors.own_memberships(request.user)):
        notices = portal_selectors.unread_notices(request.user, NoticeTopic.JOB)
    jobs = keyset_page(
        selectors.dashboard(request.user, team, status),
        order=selectors.DASHBOARD_ORDER,
        request=request,
    )
    rows, actions = dashboard_rows(jobs, request.user)
    context = {
        "jobs": jobs,
        "rows": rows,
        "actions": actions,
        "status": JobStatus(status) if status else None,
        "counts": selectors.status_counts(request.user, team),
        "team": team,
        "notices": notices,
    }
    response = render(request, "jobs/list.html", context)
    if notices:
        portal_services.mark_notices_read(user=request.user, ids=[n.pk for n in notices])
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def job_new(request):
    """Start a draft from scratch (a button, and the job's name if they have one), or from a
    file the portal imports."""
    teams = portal_selectors.teams_for(request.user).order_by("name")
    scratching = request.method == "POST" and "scratch" in request.POST
    scratch = ScratchForm(request.POST if scratching else None, teams=teams, auto_id="scratch_%s")
    if scratching:
        if scratch.is_valid():
            job = services.create_draft(
                team=scratch.cleaned_data["team"],
                user=request.user,
                data={"name": scratch.cleaned_data["name"]}
                if scratch.cleaned_data["name"]
                else None,
                submission_token=submissions.token_from(request.POST),
            )
            return redirect("job_step", pk=job.pk, step="work")
        context = {"scratch": scratch, "form": NewJobForm(teams=teams)}
        return render(request, "jobs/new.html", context, status=400)
    form = NewJobForm(request.POST or None, request.FILES or None, teams=teams)
    if request.method == "POST" and form.is_valid():
        team = form.cleaned_data["team"]
        text = form.source_text()
        if text:
            try:
                job, result, stages = services.import_draft(
                    team=team,
                    user=request.user,
                    text=text,
                    filename=form.source_filename(),
                    source_format=form.cleaned_data["source_format"],
                    submission_token=submissions.token_from(request.POST),
                )
            except jobformat.SpecReadError as error:
                form.add_error("file" if form.cleaned_data.get("file") else "text", str(error))
            else:
                request.session[f"jobs:imported:{job.pk}"] = {
                    "filled": result.filled(),
                    "read": read_from_file(result),
                    "notes": result.notes,
                    "stages": stages,
                }
                messages.success(request, f"Imported {len(result.filled())} fields from the file.")
                return redirect("job_imported", pk=job.pk)
        else:
            form.add_error("file", "The file is empty: there is nothing to import.")
    return render(
        request,
        "jobs/new.html",
        {"form": form, "scratch": scratch},
        status=400 if form.errors else 200,
    )


SHOWN_VALUE = 300  # characters of a value on the import page (a command can be 1 MB)
SHOWN_LINES = 4


def read_from_file(result):
    """What the import read, for the page: each field's value as the steps write it and the
    line of the file it came from, when known (kept in the session, so values are cut)."""
    rows = []
    for path, value, source in result.read():
        shown = readable_value(path, value)
        lines = shown.splitlines()
        cut = "\n".join(lines[:SHOWN_LINES])[:SHOWN_VALUE]
        if cut != shown:
            cut += " …"
        rows.append({"path": path, "value": cut, **(source or {})})
    return rows


@login_required
def job_imported(request, pk):
    job = selectors.get_job_for_user(request.user, pk)
    report = request.session.get(f"jobs:imported:{job.pk}") or {
        "filled": [],
        "notes": [],
        "stages": 1,
    }
    _, issues = job.lint()
    return render(
        request,
        "jobs/imported.html",
        {"job": job, "report": report, "groups": grouped_issues(issues, job)},
    )


def _keep_pending_post(request, pk, step):
    """Keep a post that arrived after the session expired, one per tab (its editor token)
    and step: two tabs posting after one expiry each keep their text."""
    post = {k: request.POST.get(k) for k in request.POST if k != "csrfmiddlewaretoken"}
    tab = str(post.get("editor") or "")[:64]
    pending = [
        p for p in request.session.get(PENDING_KEY, [])
        if (p["job"], p["step"], p["tab"]) != (pk, step, tab)
    ]  # fmt: skip
    pending.append({"job": pk, "step": step, "tab": tab, "post": post})
    request.session[PENDING_KEY] = pending[-MAX_PENDING:]


def _apply_pending_posts(request, job):
    """After a re-login, save what each tab posted to this job while the session had
    expired, oldest first. The first that conflicts with an earlier one (two tabs, one
    field) goes to the compare page; the rest wait for the next visit. True if any was
    saved (or tried): the job is then read again."""
    pending = request.session.get(PENDING_KEY) or []
    applied = False
    for entry in [p for p in pending if p["job"] == job.pk]:
        pending.remove(entry)
        request.session[PENDING_KEY] = pending
        step = FLOW.get(entry["step"])
        if step is None or step.is_review:
            continue
        job.refresh_from_db()
        applied = True
        if _save_from_post(request, job, step, entry["post"], recovered=True) is None:
            break
    return applied


def _save_from_post(request, job, step, post, recovered=False):
    """Save a step's posted form; None means a conflict (stashed for the compare page)."""
    parts = step.values(post)
    try:
        version = int(post.get("version") or 0)
    except ValueError:
        version = 0
    name = post.get("name") if step.name == "work" else None
    try:
        job = services.save_draft(
            job=job,
            user=request.user,
            parts=parts,
            version=version,
            name=name,
            editor=str(post.get("editor") or "")[:64],
        )
    except services.DraftConflict:
        request.session[CONFLICT_KEY.format(job.pk)] = {
            "step": step.name,
            "parts": parts,
            "name": name,
        }
        return None
    except DomainError as error:
        messages.error(request, str(error))
        return job
    if recovered:
        messages.success(request, "What you typed before your session expired has been saved.")
    return job


@login_keeping_post
@require_http_methods(["GET", "HEAD", "POST"])
def job_step(request, pk, step):
    step = FLOW.get_or_404(step)
    job = selectors.get_job_for_user(request.user, pk)
    if step.is_review:
        _seen(request, job, everything=True)  # asking for the review judges every field
        return render(request, "jobs/step.html", StepPage(job, step.name, request.user).context())
    if request.method != "POST":
        if _apply_pending_posts(request, job):
            job.refresh_from_db()
        if request.session.get(CONFLICT_KEY.format(job.pk)):
            return redirect("job_conflict", pk=job.pk)
    action = request.POST.get("action", "")
    if request.method == "POST" and job.editable:
        saved = _save_from_post(request, job, step, request.POST)
        if saved is None:
            if request.htmx:
                return _conflict_fragment(request, job)
            return redirect("job_conflict", pk=job.pk)
        job = saved
        if action.startswith(("add:", "remove:")):
            job = step.add_or_remove(job=job, user=request.user, action=action)
            if not request.htmx:
                anchor = step.group_anchor(action)
                return redirect(reverse("job_step", args=[job.pk, step.name]) + "#" + anchor)
        elif not request.htmx:
            _seen(request, job, steps=[step.name], fields=_posted_seen(request.POST))
            target = step.target(job, action)
            return redirect(
                reverse("job_step", args=[job.pk, target.name]) + request.POST.get("anchor", "")
            )
    template = "jobs/step.html#step-form" if request.htmx else "jobs/step.html"
    seen = _seen(request, job, fields=_posted_seen(request.POST))
    context = StepPage(job, step.name, request.user, seen).context()
    if request.method == "POST" and request.htmx:
        context["focus"] = step.focus_after(job, action)
    response = render(request, template, context)
    if request.method == "POST" and job.editable:
        response["X-Draft-Saved"] = str(job.version)
    return response


def _conflict_fragment(request, job):
    """Tell the tab its save was refused, without replacing the form it is typing in."""
    response = render(request, "jobs/step.html#save-conflict", {"job": job})
    response["HX-Reswap"] = "none"
    response["X-Draft-Conflict"] = "1"  # site.js: the server keeps this version, not the browser
    return response


@login_keeping_post
@require_POST
def job_autosave(request, pk, step):
    """Save on field change (htmx) and answer with each field's precision issues."""
    step = FLOW.get_or_404(step, editing=True)
    job = selectors.get_job_for_user(request.user, pk)
    if not job.editable:
        return render(
            request, "jobs/step.html#save-status", {"job": job, "state": "locked", "oob": True}
        )
    saved = _save_from_post(request, job, step, request.POST)
    if saved is None:
        return _conflict_fragment(request, job)
    seen = _seen(request, job, fields=_posted_seen(request.POST))
    page = StepPage(saved, step.name, request.user, seen)
    response = render(request, "jobs/autosave.html", {**page.context(), "state": "saved"})
    response["X-Draft-Saved"] = str(saved.version)  # site.js forgets the browser's copy
    return response


@login_required
@require_POST
def job_withdraw(request, pk):
    job = selectors.get_job_for_user(request.user, pk)
    if request.user.is_staff and not portal_selectors.membership_of(request.user, job.team):
        raise PermissionDenied("Only the team withdraws its own description.")
    if not request.POST.get("confirm") and job.status == JobStatus.IN_REVIEW:
        # Ask first: staff stop reviewing, and the revision goes back to the team.
        return render(
            request, "jobs/withdraw.html", {"job": job, "revision": job.revisions.first()}
        )
    try:
        services.withdraw(job=job, user=request.user)
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("job_detail", pk=job.pk)
    messages.success(request, "Withdrawn from review: revise it, then submit the next revision.")
    return redirect("job_step", pk=job.pk, step="work")


@login_required
@require_POST
def job_submit(request, pk):
    job = selectors.get_job_for_user(request.user, pk)
    try:
        revision = services.submit(
            job=job, user=request.user, acknowledge_warnings=bool(request.POST.get("acknowledge"))
        )
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("job_step", pk=job.pk, step="review")
    messages.success(request, f"Revision {revision.number} was submitted. Staff will review it.")
    return redirect("job_detail", pk=job.pk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def job_conflict(request, pk):
    job = selectors.get_job_for_user(request.user, pk)
    key = CONFLICT_KEY.format(job.pk)
    stash = request.session.get(key)
    if stash is None:
        return redirect("job_step", pk=job.pk, step="work")
    if request.method == "POST":
        if request.POST.get("keep") == "mine":
            try:
                services.save_draft(
                    job=job,
                    user=request.user,
                    parts=stash["parts"],
                    version=job.version,
                    name=stash.get("name"),
                    force=True,
                )
            except DomainError as error:
                messages.error(request, f"Your version was not saved: {error}")
            else:
                messages.success(request, "Your version was saved over the other one.")
        else:
            messages.info(request, "Kept the saved version; your other changes were discarded.")
        del request.session[key]
        return redirect("job_step", pk=job.pk, step=stash["step"])
    mine = {**job.data, **dict(stash["parts"].items())}
    if stash.get("name") is not None:
        mine["name"] = stash["name"]
    step = FLOW.get_or_404(stash["step"], editing=True)
    rows = diff_rows(job.data, mine, parts=[*step.parts, "name"])
    return render(request, "jobs/conflict.html", {"job": job, "rows": rows, "stash": stash})


@login_required
def job_detail(request, pk):
    job = selectors.get_job_for_page(request.user, pk)
    services.mark_read(job=job, user=request.user, up_to_date=job.read_up_to_date)
    return render(request, "jobs/detail.html", detail_context(request, job))


@login_required
@require_POST
def comment_create(request, pk):
    job = selectors.get_job_for_user(request.user, pk)
    form = CommentForm(request.POST, job=job)
    if form.is_valid():
        try:
            services.add_comment(
                job=job,
                author=request.user,
                body=form.cleaned_data["body"],
                anchor=form.cleaned_data["anchor"],
                parent=form.cleaned_data["parent"],
                submission_token=form.cleaned_data["submission_token"],
            )
        except DomainError as error:
            form.add_error("body", str(error))
        else:
            form = CommentForm(job=job)
            if not request.htmx:
                return redirect(reverse("job_detail", args=[job.pk]) + "#discussion")
    if request.htmx:
        threads, _ = selectors.discussion(job)
        context = {"job": job, "threads": threads, "comment_form": form}
        return render(request, "jobs/detail.html#discussion", context)
    # Refused without htmx: the person lands on the job page itself, so it is the whole page
    # job_detail shows (run, ledger, history), the error beside the field and the text kept.
    context = detail_context(request, job)
    context["comment_form"] = form
    return render(request, "jobs/detail.html", context, status=400)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def job_delete(request, pk):
    job = selectors.get_job_for_user(request.user, pk)
    if request.method == "POST":
        try:
            services.delete_draft(job=job)
        except DomainError as error:
            messages.error(request, str(error))
            return redirect("job_detail", pk=job.pk)
        messages.success(request, f"The draft {job} was deleted.")
        return redirect("job_list")
    return render(request, "jobs/delete.html", {"job": job})


@login_required
def revision_detail(request, pk, number):
    revision = selectors.get_revision_for_user(request.user, pk, number)
    previous = revision.job.revisions.filter(number__lt=number).order_by("-number").first()
    job = revision.job
    working = job.data if job.editable else None
    _, issues = jobformat.lint(revision.data)
    threads, _ = selectors.discussion(job)
    sections, changes, elsewhere = description_sections(
        revision.data, previous.data if previous else None
    )
    # Staff decide from this page: the description, its issues and the talk beside the form.
    can_review = (
        request.user.is_staff
        and job.status == JobStatus.IN_REVIEW
        and not job.revisions.filter(number__gt=revision.number).exists()
    )
    return render(
        request,
        "jobs/revision.html",
        {
            "job": job,
            "revision": revision,
            "previous": previous,
            "previous_number": str(previous.number) if previous else "",
            "sections": sections,
            "changes": changes,
            "elsewhere": elsewhere,
            "issues": issues,
            "threads": threads,
            "working_rows": diff_rows(revision.data, working) if working is not None else None,
            "reviews": revision.reviews.select_related("reviewer"),
            "can_review": can_review,
            "review_groups": review_groups(revision) if can_review else [],
            "review_values": {},
            "export_form": SbatchExportForm(clusters=Cluster.objects.order_by("name")),
        },
    )


@login_required
def revision_export(request, pk, number, fmt):
    if fmt not in ("yaml", "json", "sbatch"):
        raise Http404("Export as yaml, json or sbatch.")
    revision = selectors.get_revision_for_user(request.user, pk, number)
    description = revision.as_description()
    filename = f"{slugify(revision.job.name) or 'job'}-r{revision.number}.{fmt}"
    if fmt == "sbatch":
        form = SbatchExportForm(request.GET, clusters=Cluster.objects.order_by("name"))
        if not form.is_valid():
            raise Http404("No registered cluster has that id.")
        cluster = form.chosen()
        # Every script of the chain in one text file, each under a `# ==> name <==` line.
        suffix = f"-{slugify(cluster.name)}" if cluster else ""
        filename = filename.replace(".sbatch", f"-sbatch{suffix}.txt")
        exported = slurm_export.export(description, site_for(cluster) if cluster else None)
        response = HttpResponse(exported.as_text(), content_type="text/plain; charset=utf-8")
    elif fmt == "json":
        response = HttpResponse(jobformat.to_json(description), content_type="application/json")
    else:
        response = HttpResponse(jobformat.to_yaml(description), content_type="application/yaml")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
