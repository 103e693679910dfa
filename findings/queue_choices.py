"""The triage queue's lists of teams, problems and staff, kept with their options rendered
until a row they show changes.

Every visit of the queue listed the program's teams (hundreds), problems and staff: three
queries, and ~1,300 escaped names for the filters and the bulk form, for lists that change a
few times a month. As for a finding's page (findings/detail_kept.py), their stamp is a digest
of the rows themselves (each team's name, each problem's title and place, each active staff
member's names), one query whose rows never leave the database: any write, however made,
changes it (a team added or renamed, a person made staff or no longer active). Unlike the
finding's page it is computed on every database, PostgreSQL (md5) and SQLite (the text
itself), so the queue reads the same on both.

A visit reads them from the cache together with what else it keeps (Kept): its filter
fields rendered as its query shows them, and the count of what its filters match
(findings/queue_count.py), in one read."""

import hashlib

from django.core.cache import cache
from django.db import connection
from django.template.loader import render_to_string

from portal.kept import fetch_prepared, kept_all
from portal.models import Team, User
from portal.widgets import options_html

from . import queue_count, selectors
from .models import UnsolvedProblem

KEY = "triage-queue:choices"
FILTER_LISTS_KEY = "triage-queue:filter-lists"
FIELDS_KEY = "triage-queue:fields:{}"
FILTER_FIELDS = "findings/staff_queue.html#filter_fields"
# The first option of each filter ("any").
EMPTY = {"team": "Any team", "problem": "Any problem", "assignee": "Anyone"}
MAX_AGE = 3600  # the digest sees every change; this only lets unread entries go


def _sql():
    q = connection.ops.quote_name
    team, problem, user = (q(m._meta.db_table) for m in (Team, UnsolvedProblem, User))
    # Every column the lists print or sort by, as text (a NULL as empty).
    parts = [
        (f"id || '/' || coalesce({q('name')}, '')", team, ""),
        (f"id || '/' || {q('order')} || '/' || coalesce(title, '')", problem, ""),
        (
            "id || '/' || coalesce(full_name, '') || '/' || coalesce(email, '')",
            user,
            " WHERE is_staff AND is_active",
        ),
    ]
    # Table and column names from the models' metadata; no values anywhere.
    if connection.vendor == "postgresql":
        pg = "(SELECT string_agg({0}, '|' ORDER BY id) FROM {1}{2})"
        selects = [pg.format(*part) for part in parts]
        return f"SELECT md5(concat_ws('#', {', '.join(selects)}))"  # noqa: S608
    # SQLite: group_concat keeps the order of its sub-select's rows.
    lite = "(SELECT group_concat(t, '|') FROM (SELECT {0} AS t FROM {1}{2} ORDER BY id))"
    selects = [f"coalesce({lite.format(*part)}, '')" for part in parts]
    return "SELECT " + " || '#' || ".join(selects)


def stamp():
    """The digest of every row the lists show (one query; on PostgreSQL a statement
    prepared once per connection: it has no values, so it is planned once)."""
    if connection.vendor == "postgresql":
        return fetch_prepared("triage_lists_stamp", _sql(), ())[0]
    with connection.cursor() as cursor:
        cursor.execute(_sql())
        return cursor.fetchone()[0]


def _staff_names():
    """(id, label) of each active staff member, by e-mail: a User shows as its full name,
    else its e-mail (str(User))."""
    rows = (
        User.objects.filter(is_staff=True, is_active=True)
        .order_by("email")
        .values_list("pk", "full_name", "email")
    )
    return [(pk, name or email) for pk, name, email in rows]


def _filter_lists():
    teams = list(Team.objects.order_by("name").values_list("pk", "name"))
    problems = list(UnsolvedProblem.objects.values_list("pk", "title"))
    staff = _staff_names()
    return {
        "team": teams,
        "problem": problems,
        "assignee": staff,
        # The filters' options, "Any …" first, as ListSelect writes them, none selected.
        "html": {
            name: options_html([("", EMPTY[name]), *rows])
            for name, rows in (("team", teams), ("problem", problems), ("assignee", staff))
        },
    }


def _page_lists():
    problems = list(UnsolvedProblem.objects.values_list("pk", "title"))
    return {
        "problem": problems,  # the rows name their problems
        # The bulk form's lists, their first option written in the template.
        "bulk_staff": options_html(_staff_names()),
        "bulk_problems": options_html(problems),
    }


def _fields_key(params):
    """The cache key of the filters of a query, and of the form's fields as it shows them
    (the paging aside; no query at all, an unbound form, apart from a query of paging alone)."""
    shown = sorted(
        (k, v) for k, values in params.lists() if k not in ("after", "before") for v in values
    )
    text = repr((bool(params), shown))
    return FIELDS_KEY.format(hashlib.md5(text.encode(), usedforsecurity=False).hexdigest())


class Kept:
    """What a visit of the queue keeps, read from the cache at once (one read, the lists'
    digest read before it): the problems and staff the page lists (rows and rendered
    options), the query's filters as the form cleans them with its fields rendered as it
    shows them, and the count of the findings they match (queue_count). The filters' own
    lists (every team: hundreds of names and options) are read only to build the form, for
    a query not seen since the lists changed. `params`: the request's query."""

    def __init__(self, params):
        self.stamp = stamp()
        self.fields_key = _fields_key(params)
        self.count_key = queue_count.key(params)
        keys = [KEY, self.fields_key, queue_count.GENERATION, self.count_key]
        self.found = cache.get_many(keys)

    def _kept(self, key, compute, found=None):
        entries = {"value": (key, self.stamp, compute)}
        return kept_all(entries, max_age=MAX_AGE, found=found)["value"]

    def lists(self):
        """{"problem": [(id, title), …] in the problems' order, "bulk_staff"/"bulk_problems":
        the bulk form's options}, kept while the rows' digest is the same."""
        return self._kept(KEY, _page_lists, self.found)

    def filter_lists(self):
        """{"team"/"problem"/"assignee": [(id, label), …], "html": {name: options}}: the
        filters' rows in their order and their options, kept (a read of their own)."""
        return self._kept(FILTER_LISTS_KEY, _filter_lists)

    def filters(self, make_form):
        """(the cleaned filters, the filter form's fields rendered, the ids of the teams whose
        name a search matches) for this query, kept under the lists' digest (the form
        validates against those lists and shows them as options): a visit of a query seen
        before builds no form and reads no list of teams. `make_form(filter_lists())`: the
        bound QueueFilterForm, built only when they are not kept."""

        def computed():
            lists = self.filter_lists()
            form = make_form(lists)
            filters = form.filters()
            html = render_to_string(FILTER_FIELDS, {"filter_form": form})
            named = selectors.teams_named(filters["q"], lists["team"]) if "q" in filters else []
            return filters, html, named

        return self._kept(self.fields_key, computed, self.found)

    def count(self, queryset, filters):
        """The bounded count of `queryset`, the queue filtered by `filters` (queue_count)."""
        return queue_count.count(
            queryset, filters, found=self.found, key=self.count_key, stamp=self.stamp
        )
