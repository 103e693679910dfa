"""Reads, scoped by who asks: partners see their team's findings (outsiders get 404), staff
see all; the public sees published problems and counts, never a team or private text."""

import re
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.postgres.search import SearchQuery
from django.db import connection
from django.db.models import (
    CharField,
    Exists,
    OuterRef,
    Q,
    StringAgg,
    Subquery,
    TextField,
    Value,
)
from django.db.models.functions import Cast, Length
from django.shortcuts import get_object_or_404
from django.utils import timezone

from jobs.selectors import jobs_for
from portal.models import Team, User
from portal.selectors import scoped
from portal.validators import is_number

from . import rules
from .models import (
    Finding,
    FindingNote,
    FindingStatus,
    NoteVisibility,
    Subscription,
    UnsolvedProblem,
)


def findings_for(user):
    return scoped(Finding.objects.all(), user)


def get_finding_for_user(user, pk):
    return get_object_or_404(
        findings_for(user)
        .select_related("team", "filed_by", "job", "assignee", "duplicate_of")
        # The page names the job; its description (kilobytes of JSON) is not read here.
        .defer("job__data", "job__recent_saves", "job__clarify_fields"),
        pk=pk,
    )


# What a finding's pages name: its job (not its description, kilobytes of JSON), filer,
# team and assignee.
_NAMED = ("job", "filed_by", "team", "assignee")
_NOT_SHOWN = ("job__data", "job__recent_saves", "job__clarify_fields")


def get_finding_for_page(user, pk):
    """The finding as its page shows it, with what it names and whether the user follows
    it, in one query; the duplicate it points to is linked by its id."""
    follows = Subscription.objects.filter(finding=OuterRef("pk"), user=user)
    queryset = findings_for(user).select_related(*_NAMED).defer(*_NOT_SHOWN)
    return get_object_or_404(queryset.annotate(viewer_follows=Exists(follows)), pk=pk)


def get_finding_for_triage(pk):
    """Any finding (staff) as its triage page shows it, with what it names and the id of
    the oldest other finding still waiting on staff (the page's "next", as next_waiting_id),
    in one query. Staff do not follow from that page, so whether they follow it is not read."""
    following = _waiting().exclude(pk=OuterRef("pk")).values("pk")[:1]
    queryset = Finding.objects.select_related(*_NAMED).defer(*_NOT_SHOWN)
    return get_object_or_404(queryset.annotate(next_waiting_id=Subquery(following)), pk=pk)


def filing_teams(user):
    """Teams the user may file for: only teams they are a member of (staff file nothing)."""
    if not user.is_authenticated:
        return Team.objects.none()
    return Team.objects.filter(memberships__user=user).order_by("name")


def filing_jobs(user, team):
    """The jobs a finding of `team` may name: that team's, and only if the user sees them."""
    return jobs_for(user).filter(team=team)


def _latest_response(column="body"):
    return (
        FindingNote.objects.filter(finding=OuterRef("pk"), visibility=NoteVisibility.RESPONSE)
        .order_by("-created_at", "-pk")
        .values(column)[:1]
    )


PARTNER_ORDER = ("-created_at", "-pk")
# What a row of a list of findings shows (and its sort keys), read as values: a row is
# only shown (findings/presenters.py writes it), no model instance is needed.
LIST_FIELDS = ("pk", "team__name", "title", "kind", "status", "created_at")


def partner_list(user, team=None):
    """The user's teams' findings with the latest staff response and who wrote it, in one
    query (sorted and paged by the view in PARTNER_ORDER), as dicts of LIST_FIELDS,
    latest_response and its author's full name and e-mail (a User shows as the one, else
    the other)."""
    queryset = findings_for(user).annotate(
        latest_response=Subquery(_latest_response()),
        latest_response_name=Subquery(_latest_response("author__full_name")),
        latest_response_email=Subquery(_latest_response("author__email")),
    )
    if team is not None:
        queryset = queryset.filter(team=team)
    return queryset.order_by(*PARTNER_ORDER).values(
        *LIST_FIELDS, "latest_response", "latest_response_name", "latest_response_email"
    )


def partner_detail(finding):
    """What the partner sees beside the finding: history, responses, their notes, evidence.
    Internal notes are filtered out here, in the query, not in the template."""
    return {
        "history": list(finding.changes.select_related("actor")),
        "notes": list(
            finding.notes.exclude(visibility=NoteVisibility.INTERNAL).select_related("author")
        ),
        "evidence": list(finding.evidence.all()),
        "problems": list(finding.problems.filter(published=True)),
    }


def staff_detail(finding):
    return {
        "history": list(finding.changes.select_related("actor")),
        "notes": list(finding.notes.select_related("author")),
        "evidence": list(finding.evidence.all()),
        "problems": list(finding.problems.all()),
        "duplicates": list(finding.duplicates.all()),
        "subscribers": list(finding.subscriptions.select_related("user")),
    }


# Words too common in findings to say two of them are about the same thing.
_COMMON = {"about", "after", "again", "before", "could", "their", "there", "which", "while"}


def _telling_words(text, most=5):
    """The longest distinct words of a title (five letters or more, not common ones)."""
    words = {w for w in re.findall(r"[^\W\d_]{5,}", text.lower()) if w not in _COMMON}
    return sorted(words, key=lambda w: (-len(w), w))[:most]


def possible_duplicates(finding, problem_ids, *, most=5):
    """Findings of the same team (only those can be merged) and the same kind that look like
    the same report: the same field of a description, a shared problem, or a title sharing
    one of its telling words. Oldest first (the one to merge into), in one query.

    The shared problem is asked per candidate (EXISTS), not joined: a join through the links
    repeats a finding linked to two of the problems, and the DISTINCT that took the repeats
    out made the database read and sort every finding of the kind before the first five. As
    it is, the database walks the team's findings of the kind oldest first (its index) and
    stops at the fifth that matches."""
    alike = Q()
    field = (finding.details or {}).get("field")
    if field:
        alike |= Q(details__field=field)
    if problem_ids:
        links = Finding.problems.through.objects.filter(
            finding=OuterRef("pk"), unsolvedproblem__in=problem_ids
        )
        alike |= Q(Exists(links))
    for word in _telling_words(finding.title):
        alike |= Q(title__icontains=word)
    if not alike:
        return []
    candidates = (
        Finding.objects.filter(alike, team_id=finding.team_id, kind=finding.kind)
        .exclude(pk=finding.pk)
        .exclude(status=FindingStatus.DUPLICATE)
        .order_by("created_at", "pk")
        .values("pk", "title", "status", "created_at")
    )
    return list(candidates[:most])


def is_subscribed(finding, user):
    return finding.subscriptions.filter(user=user).exists()


# --- Staff queue ---------------------------------------------------------------------------

SORTS = {
    "newest": ("-created_at", "-pk"),
    "oldest": ("created_at", "pk"),
    "updated": ("-updated_at", "-pk"),
    "status": ("status", "-created_at", "-pk"),
    "kind": ("kind", "-created_at", "-pk"),
}
AGES = {"1": 1, "3": 3, "7": 7, "30": 30}


def staff_queue(filters, team_ids=None, teams=None):
    """The triage queue, filtered by the cleaned QueueFilterForm data (counted as it is,
    its rows read through staff_rows, sorted and paged by the view, see staff_sort).
    `team_ids`, if given: the teams whose name a search matches (teams_named); `teams`:
    the teams the Team filter names (team_filter), when it is set."""
    queryset = Finding.objects.all()
    status = filters.get("status")
    if status == "waiting":
        queryset = queryset.filter(status__in=rules.WAITING_ON_STAFF)
    elif status:
        queryset = queryset.filter(status=status)
    for name in ("kind", "assignee"):
        if filters.get(name):
            queryset = queryset.filter(**{name: filters[name]})
    if teams is not None:
        queryset = queryset.filter(team__in=teams.finds)
    if filters.get("unassigned"):
        queryset = queryset.filter(assignee__isnull=True)
    if filters.get("problem"):
        queryset = queryset.filter(problems=filters["problem"])
    if filters.get("age"):
        queryset = queryset.filter(
            created_at__lte=timezone.now() - timedelta(days=AGES[filters["age"]])
        )
    if filters.get("q"):
        queryset = _search(queryset, filters["q"], team_ids)
    return queryset


def teams_named(q):
    """The ids of the teams whose name contains `q` (a search matches them), to be sent as
    constants (see _search)."""
    return list(Team.objects.filter(name__icontains=q).values_list("pk", flat=True))


# The teams the Team filter names, listed back to the person: at most this many.
TEAMS_LISTED = 20


@dataclass
class TeamFilter:
    text: str
    names: list  # the teams' names, by name (at most TEAMS_LISTED)
    more: bool  # more teams than that match: `finds` is then every team whose name matches
    finds: object  # the teams' ids, or a query of them (more than TEAMS_LISTED)


def team_filter(text):
    """The teams the triage queue's Team filter names: the team whose id the text is (older
    links sent ?team=12), else the team named so (case aside), else every team whose name
    contains the text. One query of at most TEAMS_LISTED + 1 teams, the shortest names
    first: a name equal to the text is the shortest that contains it. The program's list of
    teams is never read whole."""
    if is_number(text) and len(text) < 18:
        rows = list(Team.objects.filter(pk=int(text)).values_list("pk", "name"))
        if rows:
            return TeamFilter(text, [rows[0][1]], False, [rows[0][0]])
    named = Team.objects.filter(name__icontains=text)
    rows = list(
        named.order_by(Length("name"), "name").values_list("pk", "name")[: TEAMS_LISTED + 1]
    )
    exact = [row for row in rows if row[1].casefold() == text.casefold()]
    rows = exact or rows
    more = len(rows) > TEAMS_LISTED
    names = sorted((name for _, name in rows[:TEAMS_LISTED]), key=str.casefold)
    return TeamFilter(text, names, more, named.values("pk") if more else [pk for pk, _ in rows])


def search_matches(q):
    """Findings whose words (title and summary, stemmed) match `q` as a web search does
    ("quoted phrase", -exclusion, or), read from the stored words' GIN index (PostgreSQL)."""
    return Q(search_document=SearchQuery(q, search_type="websearch", config="english"))


def _search(queryset, q, team_ids=None):
    """Findings whose title or summary has the words (PostgreSQL full-text search: stems,
    "quoted phrases", -exclusions), whose team's name contains the text, or #id. SQLite,
    the embedded default, has no full-text search: there it is a substring match.

    Given the teams whose name matches (teams_named), they are sent as constants (none: no
    team part at all). A sub-select there, in an OR, kept PostgreSQL from its indexes:
    counting a search's matches read every finding."""
    if team_ids is None:
        by_team = Q(team__in=Team.objects.filter(name__icontains=q).values("pk"))
    else:
        by_team = Q(team__in=team_ids) if team_ids else Q()
    match = by_team
    if is_number(q.lstrip("#")) and len(q) < 18:
        match |= Q(pk=int(q.lstrip("#")))
    if connection.vendor == "postgresql":
        return queryset.filter(match | search_matches(q))
    return queryset.filter(match | Q(title__icontains=q) | Q(summary__icontains=q))


class _IdList(TextField):
    """Ids joined by commas ("3,7"), read as a list of ints (none: an empty list)."""

    def from_db_value(self, value, expression, connection):
        return [int(pk) for pk in value.split(",")] if value else []


def _linked_problem_ids():
    """The ids of the problems a finding of the outer query is linked to, as a list, read
    within the query of the findings (a sub-select a row, through the links' index on the
    finding): no query of its own."""
    links = Finding.problems.through.objects.filter(finding=OuterRef("pk"))
    ids = links.values("finding").annotate(
        ids=StringAgg(Cast("unsolvedproblem_id", CharField()), Value(","))
    )
    return Subquery(ids.values("ids")[:1], output_field=_IdList())


def staff_rows(queryset):
    """The queue's rows as dicts: only the columns a row and the sorts use (not the
    summary, nor the details' JSON), and the ids of the problems each is linked to
    (`problem_ids`, in no order), in the same query, whatever the page size."""
    return queryset.values(
        *LIST_FIELDS,
        "updated_at",
        "assignee__full_name",
        "assignee__email",
        problem_ids=_linked_problem_ids(),
    )


def staff_sort(filters):
    """The queue's sort as keyset order (the last key is unique, so pages never overlap)."""
    return SORTS.get(filters.get("sort") or "newest", SORTS["newest"])


def staff_members():
    return User.objects.filter(is_staff=True, is_active=True).order_by("email")


def assignee_choices():
    """(id, name) of each active staff member, by e-mail, as a list of assignees shows them
    (a User shows as its full name, else its e-mail)."""
    rows = staff_members().values_list("pk", "full_name", "email")
    return [(pk, name or email) for pk, name, email in rows]


# --- Public -------------------------------------------------------------------------------


def published_problems():
    """Published problems with how many findings and distinct teams back each one (kept on
    the problem by findings.counts: only triaged-onwards findings count, a new or declined
    one is not evidence yet)."""
    return UnsolvedProblem.objects.filter(published=True)


def get_problem_for_public(user, slug):
    """A published problem for everyone; staff may also preview an unpublished one."""
    queryset = published_problems()
    if user.is_authenticated and user.is_staff:
        queryset = UnsolvedProblem.objects.all()
    return get_object_or_404(queryset, slug=slug)


def _waiting():
    return Finding.objects.filter(status__in=rules.WAITING_ON_STAFF).order_by("created_at", "pk")


def next_waiting(*, exclude=None):
    """The oldest finding staff still owe an action on (new or reopened), for "next"."""
    queryset = _waiting()
    if exclude is not None:
        queryset = queryset.exclude(pk=exclude)
    return queryset.only("pk", "title").first()
