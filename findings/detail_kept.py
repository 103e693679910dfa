"""The read-only parts of a finding's pages, kept rendered until a row they show changes.

What the finding says (its facts, description and frozen evidence), its notes, history,
followers and duplicates, and the names the pages print (its team, job, filer, assignee)
change only when one of their rows does. As for the job page
(jobs/detail_kept.py), their stamp is a digest of those rows themselves, and of the names of
the people and the job they print, computed by PostgreSQL in one query: any write, however
made, changes it. Forms, CSRF tokens and what depends on the person (following, membership)
stay out; the partner's page and the staff's page are kept apart (they show different notes,
problems and links). On other databases nothing is kept (the stamp is None)."""

import functools

from django.db import connection
from django.template.loader import render_to_string

from jobs.models import JobDescription
from portal.kept import fetch_prepared, person_sql
from portal.models import Team, User

from .models import (
    EvidenceSnapshot,
    Finding,
    FindingNote,
    StatusChange,
    Subscription,
    UnsolvedProblem,
)

MAX_AGE = 3600  # the digest sees every change; this only lets unread entries go


def _sql(page):
    q = connection.ops.quote_name
    t = {
        m.__name__: q(m._meta.db_table)
        for m in (Finding, EvidenceSnapshot, FindingNote, StatusChange, Subscription)
    }
    job, problem = q(JobDescription._meta.db_table), q(UnsolvedProblem._meta.db_table)
    team = q(Team._meta.db_table)
    through = Finding.problems.through._meta
    link = q(through.db_table)
    to_finding = q(through.get_field("finding").column)
    to_problem = q(through.get_field("unsolvedproblem").column)
    # Table and column names from the models' metadata; the only value is the id, a parameter.
    return f"""
    SELECT md5(concat_ws('|',
      (SELECT concat(f::text, '/', (SELECT j.name FROM {job} j WHERE j.id = f.job_id),
                     '/', {person_sql("f.filed_by_id")},
                     '/', (SELECT tm.name FROM {team} tm WHERE tm.id = f.team_id),
                     '/', {person_sql("f.assignee_id")})
         FROM {t["Finding"]} f WHERE f.id = %(finding)s),
      (SELECT string_agg(concat(p.id, '/', p.published, '/', p.slug, '/', p.title, '/',
                                p.{q("order")}), '|' ORDER BY p.id)
         FROM {problem} p JOIN {link} l ON l.{to_problem} = p.id
         WHERE l.{to_finding} = %(finding)s),
      (SELECT string_agg(e::text, '|' ORDER BY e.id) FROM {t["EvidenceSnapshot"]} e
         WHERE e.finding_id = %(finding)s),
      (SELECT string_agg(concat(n::text, {person_sql("n.author_id")}), '|' ORDER BY n.id)
         FROM {t["FindingNote"]} n WHERE n.finding_id = %(finding)s),
      (SELECT string_agg(concat(c::text, {person_sql("c.actor_id")}), '|' ORDER BY c.id)
         FROM {t["StatusChange"]} c WHERE c.finding_id = %(finding)s),
      (SELECT string_agg(concat(s::text, {person_sql("s.user_id")}), '|' ORDER BY s.id)
         FROM {t["Subscription"]} s WHERE s.finding_id = %(finding)s),
      (SELECT string_agg(d.id::text, ',' ORDER BY d.id) FROM {t["Finding"]} d
         WHERE d.duplicate_of_id = %(finding)s){_staff_sql() if page == "staff" else ""}))
    """  # noqa: S608


def _staff_sql():
    """The staff page also keeps the rows its forms list (presenters.KEPT_PARTS): every
    active staff member (a few rows of the users' table) and every problem (a handful)."""
    q = connection.ops.quote_name
    user, problem = q(User._meta.db_table), q(UnsolvedProblem._meta.db_table)
    return f""",
      (SELECT string_agg(concat(u.id, '/', u.full_name, '/', u.email), '|' ORDER BY u.id)
         FROM {user} u WHERE u.is_staff AND u.is_active),
      (SELECT string_agg(concat(p.id, '/', p.title, '/', p.{q("order")}), '|' ORDER BY p.id)
         FROM {problem} p)"""  # noqa: S608


@functools.cache
def _prepared_sql(page):
    return _sql(page).replace("%(finding)s", "$1")


def stamp(finding, page="partner"):
    """The digest of every row a finding's kept parts show, or None (not PostgreSQL)."""
    if connection.vendor != "postgresql":
        return None
    return fetch_prepared(f"finding_stamp_{page}", _prepared_sql(page), [finding.pk])[0]


def parts(page, finding, request, context, templates):
    """An entry for portal.kept.kept_all: {name: template} (partials of the finding's pages)
    rendered with context(), as a dict of HTML, kept per page (partner's or staff's). A
    function instead of a template keeps what it returns from the same context as it is
    (rows a form lists, say)."""

    def rendered():
        values = {"finding": finding, **context()}
        return {
            name: t(values) if callable(t) else render_to_string(t, values, request)
            for name, t in templates.items()
        }

    return (f"finding-page:{page}:{finding.pk}", stamp(finding, page), rendered)
