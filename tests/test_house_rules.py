"""What the house keeps out of its application code (README "Architecture"): HTML is written in
templates, reads go through the ORM, and one code path serves SQLite and PostgreSQL. Each
exception is named here with its reason; a new one must be argued for by adding it."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("portal", "jobs", "findings")


def application_files():
    """The product's modules: not migrations, management commands or development tools."""
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "/migrations/" in rel or "/management/" in rel or rel.startswith("portal/devtools/"):
                continue
            yield rel, path.read_text()


def uses(pattern):
    found = []
    for rel, text in application_files():
        for number, line in enumerate(text.splitlines(), 1):
            if re.search(pattern, line) and not line.lstrip().startswith("#"):
                found.append(f"{rel}:{number}")
    return found


def files_of(found):
    return {place.rsplit(":", 1)[0] for place in found}


# Markup Python must mark safe because no template or format_html can say it: each with its why.
SAFE_MARKUP = {
    "portal/markdown.py": "people's Markdown, rendered, then sanitised by nh3's allow-list",
}
# Database-vendor branches: full-text search and bulk ingest only.
VENDOR_BRANCHES = {
    "findings/selectors.py": "full-text search (django.contrib.postgres), icontains on SQLite",
    "portal/bulk.py": "bulk ingest: one array a column on PostgreSQL, VALUES rows elsewhere",
    "portal/aggregates.py": "the median: PostgreSQL's percentile_cont; SQLite is given one",
}
# Raw SQL: bulk ingest and maintenance only.
RAW_SQL = {
    "portal/bulk.py": "bulk ingest: INSERT ... ON CONFLICT DO NOTHING RETURNING, UPDATE from rows",
}
# The cache: rate limits, public pages and program-wide figures only.
CACHE_USERS = {}


def test_html_is_written_in_templates():
    found = uses(r"\bmark_safe\b|\bSafeString\b")
    assert len(found) <= 3, found
    assert files_of(found) <= set(SAFE_MARKUP), found


def test_one_code_path_for_both_databases():
    found = uses(r"\.vendor\b")
    assert len(found) <= 6, found
    assert files_of(found) <= set(VENDOR_BRANCHES), found


def test_reads_go_through_the_orm():
    found = uses(r"cursor\.execute|\.executemany\(|\bRawSQL\b|\.raw\(|\.extra\(")
    assert len(found) <= 4, found
    assert files_of(found) <= set(RAW_SQL), found


def test_the_cache_keeps_nothing_rendered_for_a_person():
    found = uses(
        r"from django\.core\.cache import|django\.core\.cache\.cache\b|\bcaches\[|\bcache_page\b"
    )
    assert files_of(found) <= set(CACHE_USERS), found
