"""Pages: team scoping, what the public may see, and query counts that do not grow."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from findings import services
from findings.models import NoteVisibility, UnsolvedProblem
from tests.findings.helpers import file

pytestmark = pytest.mark.django_db

FINDING_URLS = [
    ("get", "/findings/{pk}/"),
    ("post", "/findings/{pk}/subscribe/"),
    ("post", "/findings/{pk}/verify/"),
    ("post", "/findings/{pk}/reopen/"),
    ("post", "/findings/{pk}/information/"),
]


@pytest.fixture
def problem(db):
    return UnsolvedProblem.objects.get(slug="getting-data-to-compute")


@pytest.mark.parametrize(("method", "url"), FINDING_URLS)
def test_another_teams_finding_is_404_everywhere(
    client_for, team_a, a_member, b_member, method, url
):
    finding = file(team_a, a_member)
    client = client_for(b_member)
    response = getattr(client, method)(url.format(pk=finding.pk), {"note": "x", "body": "x"})
    assert response.status_code == 404
    response = getattr(client, method)(
        url.format(pk=finding.pk), {"subscribe": "1"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 404
    assert not finding.subscriptions.filter(user=b_member).exists()
    assert not finding.notes.exists()


def test_the_list_shows_only_the_teams_findings(client_for, team_a, team_b, a_member, b_member):
    file(team_a, a_member, title="Alpha finding")
    file(team_b, b_member, title="Beta finding")
    page = client_for(b_member).get("/findings/").content.decode()
    assert "Beta finding" in page and "Alpha finding" not in page


def test_the_list_shows_the_latest_response_or_a_dash(client_for, team_a, a_member, staff):
    answered = file(team_a, a_member, title="Answered finding")
    file(team_a, a_member, title="Unanswered finding")
    services.add_note(
        finding=answered,
        author=staff,
        visibility=NoteVisibility.RESPONSE,
        body="We throttled the bucket. " + "More words. " * 20,
    )
    page = client_for(a_member).get("/findings/").content.decode()
    cells = re.findall(r"<td>(.*?)</td>\s*<td>\d+ \w+ \d{4}</td>", page)
    # Newest first: the unanswered one has no response (not "None"), the other's is cut,
    # after the name of who answered.
    assert cells[0] == "—"
    by, text = cells[1].split("</span> ")
    assert by == '<span class="muted">staff:'
    assert text.startswith("We throttled the bucket.") and text.endswith("…")
    assert len(text) == 140


def test_each_partner_sees_only_their_teams_findings_and_responses(
    client_for, team_a, team_b, a_member, b_member, staff
):
    answered = file(team_a, a_member, title="Alpha finding")
    services.add_note(
        finding=answered, author=staff, visibility=NoteVisibility.RESPONSE, body="Alpha answer"
    )
    file(team_b, b_member, title="Beta finding")
    for user, shown, hidden in [
        (a_member, ["Alpha finding", "Alpha answer"], "Beta finding"),
        (b_member, ["Beta finding"], "Alpha"),
    ]:
        page = client_for(user).get("/findings/").content.decode()
        assert all(text in page for text in shown) and hidden not in page


def test_follow_and_unfollow_with_htmx(client_for, team_a, a_member, a_admin):
    finding = file(team_a, a_member)
    client = client_for(a_admin)
    response = client.post(
        f"/findings/{finding.pk}/subscribe/", {"subscribe": "1"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and b"You follow this finding" in response.content
    assert b"<html" not in response.content
    assert finding.subscriptions.filter(user=a_admin).exists()
    client.post(f"/findings/{finding.pk}/subscribe/", {"subscribe": "0"})
    assert not finding.subscriptions.filter(user=a_admin).exists()


def test_public_pages_show_counts_never_teams_or_private_text(
    client_for, team_a, team_b, a_member, b_member, staff, problem
):
    secret = "PRIVATE-DESCRIPTION-TEXT"
    for team, user in ((team_a, a_member), (team_b, b_member), (team_a, a_member)):
        finding = file(team, user, title=f"PRIVATE-TITLE-{team.slug}", summary=secret)
        services.change_status(
            finding=finding, actor=staff, to_status="triaged", problems=[problem]
        )
    untriaged = file(team_b, b_member)
    services.link_problems(findings=[untriaged], problems=[problem], actor=staff)  # not counted
    hidden = UnsolvedProblem.objects.create(
        title="UNPUBLISHED-PROBLEM", slug="secret-problem", summary="draft", published=False
    )
    for user in (None, a_member, b_member):
        client = client_for(user)
        for url in ("/problems/", f"/problems/{problem.slug}/"):
            # The main content: the navigation names the viewer's own team, by design.
            html = client.get(url).content.decode().split('<main id="main"')[1]
            for leak in (
                "Team A",
                "Team B",
                "A Corp",
                "PRIVATE-TITLE",
                secret,
                "UNPUBLISHED-PROBLEM",
            ):
                assert leak not in html, (url, leak)
        assert client.get(f"/problems/{hidden.slug}/").status_code == 404
        assert client.get("/problems/no-such-thing/").status_code == 404
    detail = client_for(None).get(f"/problems/{problem.slug}/")
    assert (detail.context["problem"].finding_count, detail.context["problem"].team_count) == (3, 2)
    # Staff may preview an unpublished problem, marked as such.
    preview = client_for(staff).get(f"/problems/{hidden.slug}/")
    assert preview.status_code == 200 and b"Not published" in preview.content


def test_the_three_named_problems_are_published():
    slugs = set(UnsolvedProblem.objects.filter(published=True).values_list("slug", flat=True))
    assert {
        "knowing-what-a-job-must-declare",
        "getting-data-to-compute",
        "scheduling-mixed-sizes",
    } <= slugs
    from jobs.jobformat.issues import Problem

    assert {p.value for p in Problem} <= slugs


def test_problem_markdown_is_sanitised(client_for, staff):
    problem = UnsolvedProblem.objects.create(
        title="X", slug="x", summary="s", published=True,
        body="<script>alert(1)</script> **bold**", learned="[a](javascript:alert(1))",
    )  # fmt: skip
    html = client_for(None).get(f"/problems/{problem.slug}/").content.decode()
    assert (
        "<script>alert" not in html
        and "javascript:" not in html
        and "<strong>bold</strong>" in html
    )


def queries_for(client, url):
    """How many queries a visit makes."""
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def grow(teams_users, staff, problem, n):
    for i in range(n):
        team, user = teams_users[i % len(teams_users)]
        finding = file(team, user, title=f"F{i}")
        services.change_status(
            finding=finding, actor=staff, to_status="triaged", problems=[problem]
        )
        services.add_note(finding=finding, author=staff, visibility="response", body=f"R{i}")
        services.assign(findings=[finding], assignee=staff, actor=staff)


@pytest.mark.parametrize(
    ("who", "url"),
    [
        ("staff", "/staff/findings/"),
        ("staff", "/staff/findings/?status=triaged&q=F&sort=oldest"),
        ("a_member", "/findings/"),
        (None, "/problems/"),
        (None, "/problems/getting-data-to-compute/"),
    ],
)
def test_query_counts_do_not_grow_with_rows(
    client_for, team_a, team_b, a_member, b_member, staff, problem, who, url, make_user
):  # fmt: skip
    users = {"staff": staff, "a_member": a_member, None: None}
    teams_users = [(team_a, a_member), (team_b, b_member)]
    grow(teams_users, staff, problem, 2)
    client = client_for(users[who])
    small = queries_for(client, url)
    grow(teams_users, staff, problem, 12)
    make_user("another-staff@e31.example", staff=True)
    assert queries_for(client, url) == small


def test_buttons_say_what_they_do(client_for, team_a, a_member, staff):
    # "Apply", "Add it" and "Save" alone: a screen reader's list of buttons, or a search
    # for the button by its name, cannot tell what each does.
    finding = file(team_a, a_member)
    queue = client_for(staff).get("/staff/findings/").content.decode()
    assert '<button type="submit" accesskey="b">Apply to the selected findings</button>' in queue
    detail = client_for(a_member).get(f"/findings/{finding.pk}/").content.decode()
    assert '<button type="submit">Add the information</button>' in detail
    problem = client_for(staff).get("/staff/problems/new/").content.decode()
    assert '<button type="submit">Save the problem</button>' in problem
    for page in (queue, detail, problem):
        assert not re.search(r">(Apply|Add it|Save)</button>", page)
