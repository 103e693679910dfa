"""Two tabs posting after one session expiry: only the last tab's text was kept, in one
slot of the session (issue 11, item 9). Each tab's post is kept (by its editor token) and
applied after the next login; the one that collides with the other goes to the compare
page, so neither text is lost. The browser side is tests/e2e/test_typing_kept.py."""

import pytest
from django.urls import reverse

from jobs import services
from tests.users import log_in

pytestmark = pytest.mark.django_db


def _post_while_logged_out(client, job, step, editor, fields):
    return client.post(
        reverse("job_autosave", args=[job.pk, step]),
        {"version": job.version, "editor": editor, **fields},
        headers={"HX-Request": "true"},
    )


def test_two_tabs_posting_after_one_expiry_each_keep_their_text(client, team_a, a_member):
    job = services.create_draft(team=team_a, user=a_member)
    # Both tabs had the step open (same version); the session expired; each one autosaves.
    _post_while_logged_out(client, job, "work", "tab-a", {"work.summary": "Typed in tab A."})
    _post_while_logged_out(
        client, job, "work", "tab-b", {"work.summary": "", "work.image": "typed-in-b:1"}
    )
    log_in(client, a_member)
    response = client.get(reverse("job_step", args=[job.pk, "work"]))
    job.refresh_from_db()
    assert job.data["work"]["summary"] == "Typed in tab A."
    # Tab B's text, written over an older copy, is shown beside the saved one to choose.
    assert response["Location"] == reverse("job_conflict", args=[job.pk])
    compare = client.get(response["Location"]).content.decode()
    assert "typed-in-b:1" in compare and "Typed in tab A." in compare


def test_one_tab_posting_twice_keeps_its_last_text(client, team_a, a_member):
    job = services.create_draft(team=team_a, user=a_member)
    _post_while_logged_out(client, job, "work", "tab-a", {"work.summary": "first"})
    _post_while_logged_out(client, job, "work", "tab-a", {"work.summary": "second"})
    log_in(client, a_member)
    assert client.get(reverse("job_step", args=[job.pk, "work"])).status_code == 200
    job.refresh_from_db()
    assert job.data["work"]["summary"] == "second"
