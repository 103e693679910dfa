"""The job page's discussion (jobs/discussion.py): the markup the template wrote, every change
shown at once, fresh tokens in every form on every visit."""

import re

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from jobs import selectors, services, spec
from jobs.discussion import (
    CSRF_MARK,
    NO_COMMENTS,
    TOKEN_MARK,
    new_comment_fields,
    threads_html,
    with_tokens,
)
from jobs.forms import CommentForm
from jobs.models import Comment
from portal.models import User

pytestmark = pytest.mark.django_db

# The template's loop as it was (templates/jobs/detail.html), to compare against.
THREADS_TEMPLATE = """{% load jobs_extras %}{% for comment in threads %}
    <article class="comment" id="comment-{{ comment.pk }}">
      <header><strong>{{ comment.author|default:"someone" }}</strong>{% if comment.by_staff %} <span class="badge">staff</span>{% endif %} · <time datetime="{{ comment.created_at|date:'c' }}">{{ comment.created_at|date:"j M Y H:i" }} UTC</time>{% if comment.anchor %} · about <a href="{% url 'job_step' job.pk comment.anchor|step_for %}#{{ comment.anchor|field_id }}">{{ comment.anchor|field_label }}</a>{% endif %}</header>
      <div class="comment-body">{{ comment.body|markdown }}</div>
      {% for reply in comment.thread %}
        <article class="comment reply" id="comment-{{ reply.pk }}">
          <header><strong>{{ reply.author|default:"someone" }}</strong>{% if reply.by_staff %} <span class="badge">staff</span>{% endif %} · <time datetime="{{ reply.created_at|date:'c' }}">{{ reply.created_at|date:"j M Y H:i" }} UTC</time></header>
          <div class="comment-body">{{ reply.body|markdown }}</div>
        </article>
      {% endfor %}
      <details class="reply-box"><summary>Reply<span class="visually-hidden"> to {{ comment.author }}</span></summary>
        <form method="post" action="{% url 'comment_create' job.pk %}" hx-post="{% url 'comment_create' job.pk %}" hx-target="#discussion-section" hx-swap="outerHTML" class="stack">
          {% csrf_token %}{% submission_token %}<input type="hidden" name="parent" value="{{ comment.pk }}"><input type="hidden" name="anchor" value="{{ comment.anchor }}">
          <label for="reply-{{ comment.pk }}">Your reply</label>
          <textarea name="body" id="reply-{{ comment.pk }}" rows="3" required></textarea>
          <button type="submit">Post reply</button>
        </form>
      </details>
    </article>
  {% empty %}
    <p class="muted">No comments yet. Ask staff about a field, or explain a choice.</p>
  {% endfor %}"""  # noqa: E501

TOKEN = re.compile(r'name="submission_token" value="[0-9a-f-]{36}"')


def tokens_out(html):
    return TOKEN.sub('name="submission_token" value="T"', html)


@pytest.fixture
def job(team_a, a_member):
    return services.create_draft(team=team_a, user=a_member, data=spec.example_data())


def test_the_threads_are_what_the_template_wrote(job, a_member, staff, b_member):
    a_member.full_name = "Ada <b>&amp; co</b>"
    a_member.save(update_fields=["full_name"])
    first = services.add_comment(
        job=job, author=a_member, body="Why *this* size? <script>x</script>",
        anchor="data.inputs.0.size", parent=None,
    )  # fmt: skip
    services.add_comment(job=job, author=staff, body="Because `a < b`.", parent=first)
    services.add_comment(job=job, author=b_member, body="A second thread.")
    Comment.objects.filter(author=b_member).update(author=None)  # a deleted account
    threads, _ = selectors.discussion(job)
    expected = Template(THREADS_TEMPLATE).render(
        Context({"job": job, "threads": threads, "csrf_token": "CSRF"})
    )
    written = threads_html(job, threads).replace(CSRF_MARK, "CSRF")
    assert tokens_out(written.replace(TOKEN_MARK, "0" * 36)) == tokens_out(expected)
    assert "Ada &lt;b&gt;&amp;amp; co&lt;/b&gt;" in written and "<script>" not in written
    assert "<strong>someone</strong>" in written and "comment reply" in written
    assert " · about <a href=" in written and '<span class="badge">staff</span>' in written


def test_no_comments_are_what_the_template_wrote(job):
    expected = Template(THREADS_TEMPLATE).render(Context({"job": job, "threads": []}))
    assert threads_html(job, []) == NO_COMMENTS == expected


def test_the_new_comment_fields_are_the_forms(job):
    expected = Template('{% include "portal/_form_fields.html" %}').render(
        Context({"form": CommentForm(job=job)})
    )
    fields = new_comment_fields(job)
    assert fields.count(TOKEN_MARK) == 1
    assert tokens_out(fields.replace(TOKEN_MARK, "0" * 36)) == tokens_out(expected)


def test_each_form_gets_its_own_fresh_tokens(rf, a_member):
    request = rf.get("/")
    html = with_tokens(request, f"{CSRF_MARK}|{TOKEN_MARK}|{CSRF_MARK}|{TOKEN_MARK}")
    csrf, first, csrf_again, second = html.split("|")
    assert csrf == csrf_again and len(csrf) == 64 and first != second
    assert "\x00" not in html and len(first) == len(second) == 36


def page(client, job):
    return client.get(reverse("job_detail", args=[job.pk])).content.decode()


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


def test_each_visit_has_fresh_tokens_that_work(job, a_member, staff):
    services.add_comment(job=job, author=staff, body="A question.")
    client = Client(enforce_csrf_checks=True)
    client.force_login(a_member, backend="django.contrib.auth.backends.ModelBackend")
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
