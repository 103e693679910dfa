"""Every URL the project has and what each kind of user gets from it: the table the
authorization tests walk (tests/test_authorization_matrix.py) and the world they walk it in.

The URL list comes from the resolver, not from a hand-kept list: a new URL that
is not in MATRIX fails `test_every_url_is_in_the_matrix`, and a URL argument that
`fill` does not know fails too. Extend both here when you add a view.
"""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from findings.models import UnsolvedProblem
from jobs import jobformat
from jobs import services as job_services
from jobs.runs.services import create_client
from portal import services
from portal.intake import services as intake_services
from portal.models import Membership, Role, Team
from portal.second_factor.models import Passkey
from tests.findings.helpers import file as file_finding
from tests.portal.intake.intake_helpers import make_window, submit
from tests.users import make_user

ROLES = ("anonymous", "a_member", "a_admin", "b_member", "staff")
LOGIN = "login"

# name: (method, {role: expected}) — LOGIN means a redirect to the login page.
_partner_page = {"anonymous": LOGIN, "a_member": 200, "a_admin": 200, "b_member": 404, "staff": 200}
_admin_action = {"anonymous": LOGIN, "a_member": 403, "a_admin": 302, "b_member": 404, "staff": 302}
_logged_in = {"anonymous": LOGIN, "a_member": 200, "a_admin": 200, "b_member": 200, "staff": 200}
_public = dict.fromkeys(ROLES, 200)
_staff_only = {"anonymous": LOGIN, "a_member": 403, "a_admin": 403, "b_member": 403}

MATRIX = {
    "home": ("get", _public),
    "healthz": ("get", _public),
    "login": (
        "get",
        {"anonymous": 200, "a_member": 302, "a_admin": 302, "b_member": 302, "staff": 302},
    ),
    "logout": ("post", dict.fromkeys(ROLES, 302)),
    "password_change": ("get", _logged_in),
    "second_factor_manage": ("get", _logged_in),
    # Past the step already (staff) or without it (partners): on to the home page.
    "second_factor_verify": ("get", {**_logged_in, **dict.fromkeys(ROLES[1:], 302)}),
    "second_factor_setup": ("get", _logged_in),
    # The QR code of a set-up nobody started.
    "second_factor_qr": ("get", {**_logged_in, **dict.fromkeys(ROLES[1:], 404)}),
    # New recovery codes for a_member, who has a passkey; the others have no second step.
    "second_factor_codes": (
        "post",
        {**_logged_in, **dict.fromkeys(ROLES[1:], 302), "a_member": 200},
    ),
    "second_factor_off": ("post", {**_logged_in, **dict.fromkeys(ROLES[1:], 302)}),
    "second_factor_passkey_add": ("get", _logged_in),
    # Past the step already (staff) or without it (partners): on to the home page.
    "second_factor_passkey_verify": ("post", {**_logged_in, **dict.fromkeys(ROLES[1:], 302)}),
    # a_member's passkey: only its owner removes it; anyone else, staff included, gets 404.
    "second_factor_passkey_remove": (
        "post",
        {**_logged_in, "a_member": 302, "a_admin": 404, "b_member": 404, "staff": 404},
    ),
    "password_change_done": ("get", _logged_in),
    "password_reset": ("get", _public),
    "password_reset_done": ("get", _public),
    "password_reset_confirm": ("get", _public),
    "password_reset_complete": ("get", _public),
    "accept_invitation": ("get", _public),
    "team_detail": ("get", _partner_page),
    "team_invite": ("post", {**_admin_action, "a_admin": 400, "staff": 400}),
    "invitation_resend": ("post", _admin_action),
    "invitation_revoke": ("post", _admin_action),
    "member_role": ("post", _admin_action),
    "member_remove": ("get", {**_admin_action, "a_admin": 200, "staff": 200}),
    # The format's schema and stateless lint API are public on purpose (partners' CI uses them).
    "spec_schema": ("get", _public),
    "api:openapi-json": ("get", _public),
    "api:api-root": ("get", dict.fromkeys(ROLES, 404)),
    "api:spec_validate": ("post_json", _public),
    "api:spec_import": ("post_json", dict.fromkeys(ROLES, 422)),
    "api:spec_sbatch": ("post_json", _public),
    # jobs: descriptions, steps, revisions, discussion, staff review
    "job_list": ("get", _logged_in),
    "job_new": ("get", _logged_in),
    "job_detail": ("get", _partner_page),
    "job_imported": ("get", _partner_page),
    "job_step": ("get", _partner_page),
    "job_autosave": ("post", _partner_page),
    "job_conflict": ("get", {**_partner_page, "a_member": 302, "a_admin": 302, "staff": 302}),
    "job_submit": ("post", {**_partner_page, "a_member": 302, "a_admin": 302, "staff": 302}),
    "job_delete": ("get", _partner_page),
    # The world's job is accepted: withdrawing is refused with a message (302), never for outsiders.
    "job_withdraw": ("post", {**_partner_page, "a_member": 302, "a_admin": 302, "staff": 403}),
    "comment_create": ("post", {**_partner_page, "a_member": 400, "a_admin": 400, "staff": 400}),
    "revision_detail": ("get", _partner_page),
    "revision_export": ("get", _partner_page),
    "revision_review": (
        "post",
        {"anonymous": LOGIN, "a_member": 403, "a_admin": 403, "b_member": 403, "staff": 400},
    ),
    "run_panel": ("get", {**_partner_page, "anonymous": 404}),
    # An empty move is refused on the form (400), as an empty review is.
    "run_move": (
        "post",
        {"anonymous": LOGIN, "a_member": 403, "a_admin": 403, "b_member": 403, "staff": 400},
    ),
    "run_simulate": (
        "post",
        {"anonymous": LOGIN, "a_member": 403, "a_admin": 403, "b_member": 403, "staff": 302},
    ),
    "run_dispatch": (
        "post",
        {"anonymous": LOGIN, "a_member": 403, "a_admin": 403, "b_member": 403, "staff": 302},
    ),
    # The world's run is not dispatched: cancelling is refused with a message (302).
    "run_cancel": ("post", {**_partner_page, "a_member": 302, "a_admin": 302, "staff": 302}),
    "clusters": ("get", {**_staff_only, "staff": 200}),
    "scheduler_clients": (
        "get",
        {"anonymous": LOGIN, "a_member": 403, "a_admin": 403, "b_member": 403, "staff": 200},
    ),
    "scheduler_client_revoke": (
        "post",
        {"anonymous": LOGIN, "a_member": 403, "a_admin": 403, "b_member": 403, "staff": 302},
    ),
    # The scheduler API takes bearer tokens only: a logged-in session is not enough.
    "api:scheduler_event": ("post_json", dict.fromkeys(ROLES, 401)),
    "api:scheduler_batch": ("post_json", dict.fromkeys(ROLES, 401)),
    "api:scheduler_hold": ("post_json", dict.fromkeys(ROLES, 401)),
    "api:scheduler_run": ("get", dict.fromkeys(ROLES, 401)),
    "api:agent_dispatches": ("get", dict.fromkeys(ROLES, 401)),
    "api:agent_submitted": ("post_json", dict.fromkeys(ROLES, 401)),
    "api:agent_finished": ("post_json", dict.fromkeys(ROLES, 401)),
    "api:agent_partition": ("put_json", dict.fromkeys(ROLES, 401)),
    "review_queue": (
        "get",
        {"anonymous": LOGIN, "a_member": 403, "a_admin": 403, "b_member": 403, "staff": 200},
    ),
    "staff_teams": (
        "get",
        {"anonymous": LOGIN, "a_member": 403, "a_admin": 403, "b_member": 403, "staff": 200},
    ),
    # The team's data as a ZIP archive: its admins and staff only.
    "team_export": ("get", {**_partner_page, "a_member": 403}),
    # The erasure's confirmation page (the POST needs the team's name typed).
    "staff_team_erase": ("get", {**_staff_only, "staff": 200}),
    # intake: world() holds a window closed by staff, so applying is refused to everyone.
    "design_partners": ("get", _public),
    "intake_apply": ("post", dict.fromkeys(ROLES, 403)),
    "intake_status": ("get", _public),
    "staff_intake": ("get", {**_staff_only, "staff": 200}),
    "staff_intake_window": ("get", {**_staff_only, "staff": 200}),
    "staff_intake_window_close": ("post", {**_staff_only, "staff": 302}),
    "staff_intake_applications": ("get", {**_staff_only, "staff": 200}),
    "staff_intake_release": ("post", {**_staff_only, "staff": 302}),
    "staff_intake_application": ("get", {**_staff_only, "staff": 200}),
    "staff_intake_application_review": ("post", {**_staff_only, "staff": 302}),
    "staff_intake_application_unstage": ("post", {**_staff_only, "staff": 302}),
    "staff_finding_unlink": (
        "post",
        {"anonymous": LOGIN, "a_member": 403, "a_admin": 403, "b_member": 403, "staff": 404},
    ),
    # findings: world() holds a new finding of team A and the published problems. Staff read
    # partners' findings but do not act as the team (file, follow, verify, reopen, add).
    "problem_list": ("get", _public),
    "problem_detail": ("get", _public),
    "finding_list": ("get", _logged_in),
    "finding_new": ("get", {**_logged_in, "staff": 403}),
    "finding_detail": ("get", _partner_page),
    "finding_subscribe": ("post", {**_admin_action, "a_member": 302, "staff": 403}),
    "finding_verify": ("post", {**_admin_action, "a_member": 302, "staff": 403}),
    "finding_reopen": ("post", {**_partner_page, "a_member": 400, "a_admin": 400, "staff": 403}),
    "finding_information": (
        "post",
        {**_partner_page, "a_member": 400, "a_admin": 400, "staff": 403},
    ),
    "staff_finding_queue": ("get", {**_staff_only, "staff": 200}),
    "staff_finding_bulk": ("post", {**_staff_only, "staff": 302}),
    "staff_finding_detail": ("get", {**_staff_only, "staff": 200}),
    "staff_finding_status": ("post", {**_staff_only, "staff": 400}),
    "staff_finding_note": ("post", {**_staff_only, "staff": 400}),
    "staff_finding_assign": ("post", {**_staff_only, "staff": 302}),
    "staff_finding_merge": ("post", {**_staff_only, "staff": 400}),
    "staff_finding_unmerge": ("post", {**_staff_only, "staff": 302}),
    "staff_problem_list": ("get", {**_staff_only, "staff": 200}),
    "staff_problem_new": ("get", {**_staff_only, "staff": 200}),
    "staff_problem_edit": ("get", {**_staff_only, "staff": 200}),
    # What the program learns: staff only, exports included; the toggle without a figure
    # says so and goes back (302).
    "staff_insights": ("get", {**_staff_only, "staff": 200}),
    "staff_insights_csv": ("get", {**_staff_only, "staff": 200}),
    "staff_insights_json": ("get", {**_staff_only, "staff": 200}),
    # Recomputes the stored figures and goes back to the insights page.
    "staff_insights_recompute": ("post", {**_staff_only, "staff": 302}),
    "staff_problem_figures": ("get", {**_staff_only, "staff": 200}),
    "staff_problem_figure_toggle": ("post", {**_staff_only, "staff": 302}),
}


def walk(patterns, namespace=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
            yield from walk(p.url_patterns, ns)
        elif isinstance(p, URLPattern) and p.name:
            yield f"{namespace}{p.name}", p


def project_urls():
    """Every named URL outside Django's admin (which checks is_staff itself; see below)."""
    return {
        name: p for name, p in walk(get_resolver().url_patterns) if not name.startswith("admin:")
    }


def build_world():
    team_a = Team.objects.create(name="Team A", slug="team-a", organisation="A Corp")
    team_b = Team.objects.create(name="Team B", slug="team-b", organisation="B Corp")
    a_admin = make_user("admin@a.example", team=team_a, role=Role.ADMIN)
    a_member = make_user("member@a.example", team=team_a)
    b_member = make_user("member@b.example", team=team_b, role=Role.ADMIN)
    staff = make_user("staff@e31.example", staff=True)
    job = job_services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    revision = job_services.submit(job=job, user=a_member)
    # Accepted, so the job has a run for the lifecycle pages.
    job_services.review(revision=revision, reviewer=staff, outcome="accepted")
    scheduler_client, _ = create_client(name="matrix scheduler")
    invitation = services.invite(
        team=team_a, email="pending@a.example", role="member", invited_by=a_admin
    )
    # intake: one application (its private status link) in a window staff have closed.
    window = make_window()
    submitted = submit()
    intake_services.close_window(window=window, closed_by=staff)
    # findings: a new finding of team A, filed by its member; a published problem.
    finding = file_finding(team_a, a_member)
    passkey = Passkey.objects.create(
        user=a_member, name="Laptop", credential_id="bWF0cml4", public_key=b"key"
    )
    problem, _ = UnsolvedProblem.objects.get_or_create(  # a flushed database lost the migration's
        slug="getting-data-to-compute",  # rows (a transactional test before, on this worker)
        defaults={"title": "Getting data to compute", "summary": "Staging.", "published": True},
    )
    return {
        "users": {
            "anonymous": None,
            "a_member": a_member,
            "a_admin": a_admin,
            "b_member": b_member,
            "staff": staff,
        },
        "slug": team_a.slug,
        "invitation_id": invitation.pk,
        "key": invitation.key,
        "membership_id": Membership.objects.get(user=a_member).pk,
        "pk": job.pk,
        "client_id": scheduler_client.pk,
        "job_id": job.pk,
        "number": revision.number,
        "step": "work",
        "fmt": "yaml",
        "uidb64": "MQ",
        "token": "set-password",
        "status_token": submitted.status_token,
        "window_id": window.pk,
        "application_id": submitted.application.pk,
        "finding_id": finding.pk,
        "problem_slug": problem.slug,
        "problem_id": problem.pk,
        "passkey_id": passkey.pk,
    }


def fill(pattern, world):
    kwargs = {}
    for arg in pattern.pattern.regex.groupindex:
        if arg not in world:
            pytest.fail(
                f"the authorization matrix does not know how to fill <{arg}>: add it to world()"
            )
        kwargs[arg] = world[arg]
    return kwargs
