"""The jobs list's page query as SQL of its own, sent as a prepared statement (PostgreSQL).

Through the ORM, the page cost ~1.5 ms before the database saw it (building and compiling
six joins and a sub-select) and PostgreSQL ~0.9 ms planning the joins, more than it took to
run them, on every visit; prepared, its custom plan was made again on every run (the
generic one, sized for an average team, sorted a busy team's 2,000 jobs). Here the page of
jobs is found first, alone, through the (team, activity, id) index, and each row's
editor, run, cluster and unread count are read for those rows only, as sub-selects
PostgreSQL cannot turn into joins (a join of a whole table it might hash): one plan fits
every team, so PostgreSQL keeps the generic one and plans nothing on a visit. The text is
made once per shape (number of teams, filters, direction); values travel apart.
selectors.dashboard is the same read through the ORM (SQLite, and the tests' reference)."""

from functools import lru_cache

from django.db import connection

from portal.prepared import prepared
from portal.selectors import team_ids_for

from .selectors import DASHBOARD_FIELDS

# The page of jobs (%(where)s: the teams, status and cursor; %(order)s: the direction),
# then what each row shows of its relations. LIMIT 1 keeps each LATERAL a sub-select
# (an index look-up a row); the teams, a small table, are joined (a sub-select of its
# own would scan them for each row).
PAGE_SQL = """
SELECT j.id, j.name, j.status, j.last_activity_at, t.name, u.email, u.full_name, r.state, r.simulated,
  (SELECT c.name FROM jobs_dispatch d JOIN jobs_cluster c ON c.id = d.cluster_id
    WHERE d.run_id = r.id),
  COALESCE((SELECT m.unread FROM jobs_readmark m
    WHERE m.job_id = j.id AND m.user_id = %%s LIMIT 1), 0)
FROM (SELECT id, name, status, last_activity_at, team_id, updated_by_id
      FROM jobs_jobdescription WHERE %(where)s
      ORDER BY last_activity_at %(order)s, id %(order)s LIMIT %(limit)d) j
JOIN portal_team t ON t.id = j.team_id
LEFT JOIN LATERAL (SELECT email, full_name FROM portal_user
    WHERE id = j.updated_by_id LIMIT 1) u ON true
LEFT JOIN LATERAL (SELECT id, state, simulated FROM jobs_run
    WHERE job_id = j.id LIMIT 1) r ON true
ORDER BY j.last_activity_at %(order)s, j.id %(order)s
"""


@lru_cache(maxsize=256)
def _sql(teams, status, cursor, backwards, limit):
    """The text for `teams` team ids (None: every team), a status or not, a cursor or not."""
    where = ["true"]
    if teams is not None:
        where.append(f"team_id IN ({', '.join(['%s'] * teams)})" if teams else "false")
    if status:
        where.append("status = %s")
    if cursor:
        # As portal.pagination._after: rows past the cursor, its first key also a plain bound.
        op = ">" if backwards else "<"
        where.append(
            f"last_activity_at {op}= %s AND (last_activity_at {op} %s"
            f" OR (last_activity_at = %s AND id {op} %s))"
        )
    order = "ASC" if backwards else "DESC"
    return PAGE_SQL % {"where": " AND ".join(where), "order": order, "limit": limit}


def page_rows(user, team, status, start, backwards, limit):
    """keyset_page's `fetch` for selectors.dashboard(user, team, status): the rows, as the
    ORM's dicts of DASHBOARD_FIELDS, after `start` ((last activity, id), or None)."""
    ids = [team.pk] if team is not None else team_ids_for(user)
    params = [user.pk]
    if ids is not None:
        params += ids
    if status:
        params.append(status)
    if start is not None:
        when, pk = start
        params += [when, when, when, pk]
    sql = _sql(None if ids is None else len(ids), bool(status), start is not None, backwards, limit)
    with prepared(connection.alias), connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [dict(zip(DASHBOARD_FIELDS, row, strict=True)) for row in cursor.fetchall()]
