"""Issue 31, item 1: the answer staff send with a move IS the response. The partner reads it
where responses are, by the staff member's name, its Markdown rendered; the list's column and
the e-mail say it the same way; the history does not repeat it."""

import re

import pytest
from django.core import mail

from findings import services
from findings.models import FindingNote, NoteVisibility, UnsolvedProblem
from tests.findings.helpers import file
from tests.users import make_user

pytestmark = pytest.mark.django_db

ANSWER = "We **throttled** the bucket: see [the note](https://e31.example/notes/7)."


@pytest.fixture
def problem(db):
    return UnsolvedProblem.objects.get(slug="getting-data-to-compute")


@pytest.fixture
def sam(db):
    user = make_user("sam@e31.example", staff=True)
    user.full_name = "Sam Okafor"
    user.save(update_fields=["full_name"])
    return user


@pytest.fixture
def triaged(team_a, a_member, sam, problem, django_capture_on_commit_callbacks):
    finding = file(team_a, a_member, title="Staging stalls")
    with django_capture_on_commit_callbacks(execute=True):
        services.change_status(
            finding=finding, actor=sam, to_status="triaged", problems=[problem], note=ANSWER
        )
    return finding


def _section(page, heading_id):
    return page.split(f'id="{heading_id}"', 1)[1].split("</section>", 1)[0]


def test_the_answer_with_a_move_is_a_response_by_name_rendered(client_for, triaged, a_member, sam):
    note = FindingNote.objects.get(finding=triaged)
    assert (note.visibility, note.author, note.body) == (NoteVisibility.RESPONSE, sam, ANSWER)
    assert triaged.changes.get(to_status="triaged").response == note

    page = client_for(a_member).get(f"/findings/{triaged.pk}/").content.decode()
    responses = _section(page, "conv-h")
    assert "No response yet" not in responses
    assert "Answer from Sam Okafor" in responses
    assert "<strong>throttled</strong>" in responses and "**" not in responses
    assert '<a href="https://e31.example/notes/7"' in responses
    history = _section(page, "history-h")
    assert "throttled" not in history and "with an answer, above" in history


def test_the_list_column_names_who_answered_and_shows_no_markdown(client_for, triaged, a_member):
    page = client_for(a_member).get("/findings/").content.decode()
    row = re.search(r"<tr>\s*<td><a href=\"/findings/\d+/\">.*?</tr>", page, re.S).group(0)
    assert "Sam Okafor:" in row
    assert "We throttled the bucket: see the note." in row and "**" not in row


def test_the_email_names_who_answered(triaged, a_member):
    (message,) = [m for m in mail.outbox if "is now triaged" in m.subject]
    assert "Sam Okafor answered:" in message.body
    # Rendered for a plain-text e-mail: no ** left, the link's words and its whole address.
    assert "We throttled the bucket: see the note (https://e31.example/notes/7)." in message.body
    assert "**" not in message.body


def test_a_move_without_an_answer_sends_no_response(client_for, team_a, a_member, sam, problem):
    finding = file(team_a, a_member)
    services.change_status(finding=finding, actor=sam, to_status="triaged", problems=[problem])
    assert not finding.notes.exists()
    assert (
        "No response yet." in client_for(a_member).get(f"/findings/{finding.pk}/").content.decode()
    )


def test_a_decline_reason_is_the_answer_too(client_for, team_a, a_member, sam):
    finding = file(team_a, a_member)
    services.change_status(finding=finding, actor=sam, to_status="declined", note="Real-time work.")
    page = client_for(a_member).get(f"/findings/{finding.pk}/").content.decode()
    assert "Real-time work." in _section(page, "conv-h")
