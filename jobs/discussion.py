"""Tokens put into HTML kept rendered (jobs/detail_kept.py): a kept part's forms carry a
mark where the CSRF token goes, replaced by this request's token when the page is sent.
The discussion itself is written by jobs/detail.html (its `threads` partial)."""

from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString

from portal import submissions

# Forms refuse text with NUL characters (Django's CharField), so no comment, name or label
# can hold these: only the marks written here are replaced.
CSRF_MARK = "\x00csrf\x00"
TOKEN_MARK = "\x00submission-token\x00"


def threads_html(job, threads):
    """The threads as the job page writes them, for jobs/detail_kept.py (which keeps them
    with a mark for the CSRF token)."""
    return render_to_string(
        "jobs/detail.html#threads", {"job": job, "threads": threads, "csrf_token": CSRF_MARK}
    )


def with_tokens(request, html):
    """`html` (kept, safe) with this request's CSRF token and a fresh submission token in
    place of the marks."""
    html = html.replace(CSRF_MARK, escape(get_token(request)))
    parts = html.split(TOKEN_MARK)
    tokens = (str(submissions.new_token()) for _ in parts[1:])
    # Safe: kept HTML rendered by a template, with escaped tokens put in place of marks.
    return SafeString(parts[0] + "".join(t + p for t, p in zip(tokens, parts[1:], strict=True)))
