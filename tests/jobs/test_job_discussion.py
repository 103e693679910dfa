"""The job page's discussion: every comment and reply as people wrote them (escaped, markdown
sanitised), every change shown at once, fresh tokens in every form on every visit."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from jobs import jobformat, services
from jobs.models import Comment
from portal.models import User
from tests.users import log_in

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="submission_token" value="[0-9a-f-]{36}"')


@pytest.fixture
def job(team_a, a_member):
    return services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())


def page(client, job):
    return client.get(reverse("job_detail", args=[job.pk])).content.decode()


def test_the_threads_show_what_people_wrote_escaped(client_for, job, a_member, staff, b_member):
    a_member.full_name = "Ada <b>&amp; co</b>"
    a_member.save(update_fields=["full_name"])
    first = services.add_comment(
        job=job, author=a_member, body="Why *this* size? <script>x</script>",
        anchor="data.inputs.0.size", parent=None,
    )  # fmt: skip
    services.add_comment(job=job, author=staff, body="Because `a < b`.", parent=first)
    services.add_comment(job=job, author=b_member, body="A second thread.")
    Comment.objects.filter(author=b_member).update(author=None)  # a deleted account
    html = page(client_for(a_member), job)
    written = html[html.index('id="discussion-section"') :]
    assert "<strong>Ada &lt;b&gt;&amp;amp; co&lt;/b&gt;</strong>" in written
    assert "<script>" not in written and "<em>this</em>" in written
    assert "<code>a &lt; b</code>" in written
    assert "<strong>someone</strong>" in written and 'class="comment reply"' in written
    step = reverse("job_step", args=[job.pk, "data"])
    assert f' · about <a href="{step}#' in written
    assert '<span class="badge">staff</span>' in written
    assert f'<input type="hidden" name="parent" value="{first.pk}">' in written
    assert 'name="anchor" value="data.inputs.0.size"' in written


def test_no_comments_says_so(client_for, job, a_member):
    assert "No comments yet. Ask staff about a field" in page(client_for(a_member), job)


def test_a_new_comment_and_a_renamed_author_show_at_once(client_for, job, a_member, staff):
    client = client_for(a_member)
    services.add_comment(job=job, author=staff, body="First question.")
    assert "First question." in page(client, job)
    services.add_comment(job=job, author=staff, body="Second question.")
    assert "Second question." in page(client, job)
    User.objects.filter(pk=staff.pk).update(full_name="Renamed Staff")  # not through a service
    assert "<strong>Renamed Staff</strong>" in page(client, job)
    Comment.objects.filter(body="First question.").update(body="Edited in the admin.")
    html = page(client, job)
    assert "Edited in the admin." in html and "First question." not in html


def test_every_visit_has_fresh_tokens_that_work(job, a_member, staff):
    services.add_comment(job=job, author=staff, body="A question.")
    client = Client(enforce_csrf_checks=True)
    log_in(client, a_member)
    first, second = page(client, job), page(client, job)
    tokens = [TOKEN.findall(html) for html in (first, second)]
    assert len(tokens[0]) == 2 and len(set(tokens[0] + tokens[1])) == 4  # reply and new
    reply = second[second.index('<details class="reply-box">') :]
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', reply).group(1)
    token = re.search(r'name="submission_token" value="([^"]+)"', reply).group(1)
    parent = Comment.objects.get().pk
    response = client.post(
        reverse("comment_create", args=[job.pk]),
        {"csrfmiddlewaretoken": csrf, "submission_token": token, "parent": parent,
         "anchor": "", "body": "An answer."},
    )  # fmt: skip
    assert response.status_code == 302
    assert Comment.objects.get(body="An answer.").parent_id == parent
    assert "An answer." in page(client, job)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_every_form_of_the_discussion_posts_to_the_jobs_comments(client_for, job, staff, htmx):
    services.add_comment(job=job, author=staff, body="A question.")
    client = client_for(staff)
    url = reverse("comment_create", args=[job.pk])
    if htmx:  # a comment posted through htmx answers the discussion alone
        html = client.post(url, {"body": "Another."}, headers={"HX-Request": "true"})
        html = html.content.decode()
        assert "<html" not in html and "Another." in html
    else:
        html = page(client, job)
    # A reply under each comment (two once the fragment's is posted) and the new comment.
    forms = 3 if htmx else 2
    assert html.count(f'action="{url}" hx-post="{url}"') == forms


@pytest.mark.parametrize(
    "typed, error",
    [("", "This field is required."), ("Why *this* size? " * 600, "at most 10000 characters")],
    ids=["empty", "too-long"],
)
def test_a_refused_comment_shows_the_whole_job_page_with_the_text_kept(
    client_for, run, a_member, staff, typed, error
):
    # Without htmx the person lands on the job page itself: it must be the page job_detail
    # shows (run, ledger, history), not a page with only the discussion filled in.
    services.add_comment(job=run.job, author=staff, body="A question.")
    response = client_for(a_member).post(
        reverse("comment_create", args=[run.job_id]), {"body": typed, "anchor": ""}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="run-section"' in html and "<h3>Timeline</h3>" in html and "Ledger, in" in html
    assert "Status history (2)" in html and "Revision 1</a>" in html
    assert "A question." in html
    new_comment = html[html.index('id="new-comment-h"') :]
    field_error = re.search(
        r'<div class="field-error" id="id_body_error">(.*?)</div>', new_comment, re.S
    )
    assert field_error and error in field_error.group(1)
    kept = re.search(
        r'<textarea name="body"[^>]*id="id_body"[^>]*>(.*?)</textarea>', new_comment, re.S
    )
    assert kept.group(1).strip() == escape(typed).strip()
