"""The main pages of the demo, served from this process for the screenshot and Lighthouse
commands (site wiring: it knows every app). Needs `load_demo` to have run on the database."""

import contextlib

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import CommandError
from django.db import connections
from django.test.testcases import LiveServerThread
from django.urls import reverse

from findings.models import Finding
from jobs.models import JobDescription
from portal.demo import DEMO_PASSWORD
from portal.models import User
from portal.second_factor import services as second_factor

PARTNER = "ada@northwind.example"
STAFF = "staff@e31.example"


def main_pages():
    """(name, path, who is logged in or None) for the pages people use most."""
    try:
        masks = JobDescription.objects.get(name="masks-v7-2027q1")
        draft = JobDescription.objects.get(name="nightly-reindex")
    except JobDescription.DoesNotExist:
        raise CommandError("No demo data: run `python manage.py load_demo` first.") from None
    revision = masks.revisions.order_by("-number").first()
    finding = Finding.objects.order_by("pk").first()
    pages = [
        ("home", reverse("home"), None),
        ("design-partners", reverse("design_partners"), None),
        ("problems", reverse("problem_list"), None),
        ("jobs", reverse("job_list"), PARTNER),
        ("job", reverse("job_detail", args=[masks.pk]), PARTNER),
        ("draft-step", reverse("job_step", args=[draft.pk, "data"]), PARTNER),
        ("staff-home", reverse("home"), STAFF),
        ("revision-read", reverse("revision_detail", args=[masks.pk, revision.number]), STAFF),
    ]
    if finding is not None:
        pages.append(("triage", reverse("staff_finding_detail", args=[finding.pk]), STAFF))
    return pages


def session_cookie(email):
    """A logged-in session for a demo user, as the cookie a browser would send."""
    user = User.objects.get(email=email)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    past_second_step(session.session_key, user)
    return {"name": settings.SESSION_COOKIE_NAME, "value": session.session_key}


def past_second_step(session_key, user):
    """The tools measure and picture pages, not the second step: a session of theirs is taken
    as past it (staff as if their code was typed; partners as people without one)."""
    session = SessionStore(session_key=session_key)
    session.update(second_step_state(user))
    session.save()


def second_step_state(user):
    state = second_factor.PASSED if user.is_staff else second_factor.NOT_SET_UP
    return {second_factor.SESSION_KEY: state}


@contextlib.contextmanager
def live_site():
    """This project served on a free local port from a thread, on the configured database."""
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") and (
        settings.DATABASES["default"]["NAME"] == ":memory:"
    ):
        raise CommandError("An in-memory SQLite database cannot be shared with the server.")
    connections.close_all()
    # WhiteNoise (a middleware) serves the collected static files, hashed names included.
    thread = LiveServerThread("127.0.0.1", lambda handler: handler, connections_override={}, port=0)
    thread.daemon = True
    thread.start()
    thread.is_ready.wait()
    if thread.error:
        raise thread.error
    try:
        yield f"http://127.0.0.1:{thread.port}"
    finally:
        thread.terminate()


__all__ = ["DEMO_PASSWORD", "live_site", "main_pages", "session_cookie"]
