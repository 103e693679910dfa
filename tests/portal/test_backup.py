"""The restore drill: a backup taken, everything deleted, the backup restored, and the
portal serves what it held, on whichever database the suite runs (pg_dump/pg_restore on
PostgreSQL, the online backup API on SQLite)."""

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from jobs.models import JobDescription
from jobs.runs.models import Run
from portal.models import Team, User

pytestmark = pytest.mark.django_db(transaction=True)


def held():
    return (
        User.objects.count(),
        Team.objects.count(),
        list(JobDescription.objects.values_list("name", "status").order_by("pk")),
        list(Run.objects.values_list("state", flat=True)),
    )


def test_a_backup_restored_serves_what_it_held(accepted, a_member, client_for, tmp_path):
    before = held()
    call_command("backup", out=str(tmp_path / "portal.backup"))
    call_command("flush", interactive=False, verbosity=0)
    assert User.objects.count() == 0
    call_command("restore", str(tmp_path / "portal.backup"), interactive=False)
    assert held() == before
    page = client_for(User.objects.get(email=a_member.email)).get(
        reverse("job_detail", args=[accepted.pk])
    )
    assert page.status_code == 200 and accepted.name in page.content.decode()


def test_a_file_that_is_no_backup_is_refused_and_nothing_changes(accepted, tmp_path):
    before = held()
    (tmp_path / "notes.txt").write_text("not a backup")
    with pytest.raises(CommandError, match="is not a backup"):
        call_command("restore", str(tmp_path / "notes.txt"), interactive=False)
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("restore", str(tmp_path / "missing.dump"), interactive=False)
    assert held() == before
