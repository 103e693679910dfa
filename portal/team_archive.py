"""A way out for a team's data: its export as one ZIP archive, and its erasure at the
program's end.

Each app knows its own part of a team's data in a `team_data` module beside its models
(portal/team_data.py, jobs/team_data.py, findings/team_data.py), with:

    FILES                 [(name in the archive, what it holds)], for the archive's README
    export(team, archive) writes those files through `archive`
    count(team)           {what: how many} of the team's rows of that app
    erase(team)           deletes them, and returns count(team) as it was

This module finds the parts through the app registry, as Django's admin finds each app's
admin module, so the site's core names no app that depends on it (imports run one way)."""

import json
import re
import zipfile
from importlib import import_module

from django.apps import apps
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import module_has_submodule

from .errors import DomainError
from .models import Team, TeamErasure, User

PART = "team_data"
CHUNK = 500  # rows read at a time: an export never holds a whole table in memory

README = """\
{team}: the team's data from the E31 design-partner portal
Exported {at} UTC.

Every .json file is UTF-8 JSON: a list of records (one object for team.json), keys sorted,
times in ISO 8601 (UTC), ids as the portal numbered them, so records point at each other
by id (a revision's "job_id" is the "id" of a record in jobs.json). People are named by
their name and e-mail address.

Files:
"""


def parts():
    """Each installed app's team_data module, in INSTALLED_APPS order (portal first)."""
    return [
        import_module(f"{config.name}.{PART}")
        for config in apps.get_app_configs()
        if module_has_submodule(config.module, PART)
    ]


# --- Writing the archive ---------------------------------------------------------------


def dumps(value):
    return json.dumps(value, cls=DjangoJSONEncoder, sort_keys=True, ensure_ascii=False)


def person(user):
    """A person as the archive names them (no internal ids: their name and address)."""
    if user is None:
        return None
    return {"name": user.full_name, "email": user.email}


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(name, fallback="file"):
    """A file name that stays where it is put inside the archive: no folders (`/`, `\\`),
    no leading dots, no drive letters, only plain characters, at most 100 of them."""
    last = re.split(r"[/\\]", str(name or ""))[-1]
    cleaned = _UNSAFE.sub("-", last).lstrip(".-")[:100].rstrip(".-")
    return cleaned or fallback


class Archive:
    """A ZIP archive written as it goes: each file is compressed while its rows are read."""

    def __init__(self, fileobj, *, at):
        self.zip = zipfile.ZipFile(fileobj, "w", compression=zipfile.ZIP_DEFLATED)
        self.stamp = at.timetuple()[:6]
        self.names = set()

    def _open(self, name):
        if name.startswith("/") or ".." in name.split("/") or name in self.names:
            raise ValueError(f"refusing archive member {name!r}")
        self.names.add(name)
        info = zipfile.ZipInfo(name, date_time=self.stamp)
        info.compress_type = zipfile.ZIP_DEFLATED
        return self.zip.open(info, "w", force_zip64=True)

    def records(self, name, rows):
        """A JSON list, one record a line, written row by row."""
        with self._open(name) as out:
            out.write(b"[")
            for i, row in enumerate(rows):
                out.write((",\n" if i else "\n").encode() + dumps(row).encode())
            out.write(b"\n]\n")

    def document(self, name, value):
        with self._open(name) as out:
            out.write(json.dumps(value, cls=DjangoJSONEncoder, sort_keys=True, indent=2).encode())
            out.write(b"\n")

    def text(self, name, text):
        """A file as it was (an imported job file), under a name made unique if it is taken."""
        stem, dot, ext = name.rpartition(".")
        candidate, n = name, 2
        while candidate in self.names:
            candidate = f"{stem}-{n}.{ext}" if dot else f"{name}-{n}"
            n += 1
        with self._open(candidate) as out:
            out.write(text.encode())
        return candidate

    def close(self):
        self.zip.close()


def readme(team, at):
    lines = [README.format(team=team.name, at=at.strftime("%Y-%m-%d %H:%M"))]
    for part in parts():
        for name, what in part.FILES:
            lines.append(f"  {name}\n      {what}\n")
    return "\n".join(lines)


def export(team: Team, fileobj) -> None:
    """Write the team's data into `fileobj` as a ZIP archive (see README above)."""
    at = timezone.now()
    archive = Archive(fileobj, at=at)
    archive.text("README.txt", readme(team, at))
    for part in parts():
        part.export(team, archive)
    archive.close()


# --- Erasure -----------------------------------------------------------------------------


def erasure_preview(team: Team) -> dict:
    """What erasing the team would delete, {what: how many}, in the order erasure reports."""
    counts = {}
    for part in reversed(parts()):
        counts.update(part.count(team))
    return counts


@transaction.atomic(durable=True)
def erase(*, team: Team, erased_by: User, confirm_name: str) -> TeamErasure:
    """Delete everything of the team, and the people who belong to no other team (never
    staff), in one transaction; keep the published figures; record that it happened.
    Parts erase in the reverse of INSTALLED_APPS: those that depend on others go first
    (findings keeps its figures while the jobs they were computed from still exist)."""
    team = Team.objects.select_for_update().filter(pk=team.pk).first()
    if team is None:
        raise DomainError("This team's data has already been erased.")
    if confirm_name.strip() != team.name:
        raise DomainError("Type the team's name exactly as shown to confirm.")
    name, slug = team.name, team.slug
    counts = {}
    for part in reversed(parts()):
        counts.update(part.erase(team))
    return TeamErasure.objects.create(
        team_name=name,
        team_slug=slug,
        erased_by=erased_by,
        erased_by_email=erased_by.email,
        counts=counts,
    )
