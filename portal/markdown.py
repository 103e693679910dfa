"""Markdown written by people (announcements, comments, notes) rendered to safe HTML."""

from functools import lru_cache

import markdown as md
import nh3
from django.utils.safestring import mark_safe

ALLOWED_TAGS = {
    "p", "br", "strong", "em", "code", "pre", "blockquote", "ul", "ol", "li",
    "a", "h3", "h4", "hr", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip


def render_markdown(text):
    """Markdown -> sanitised HTML: no scripts, no styles, no raw HTML beyond ALLOWED_TAGS."""
    return _render(text or "")


# Rendering is a pure function of the text and costs milliseconds (a Markdown parser per
# call, then nh3): the same comments and summaries are shown on every view of a page, so
# each process keeps the last few hundred.
@lru_cache(maxsize=512)
def _render(text):
    html = md.markdown(text, extensions=["fenced_code", "tables", "sane_lists"])
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes={"a": {"href", "title"}},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
    return mark_safe(clean)  # noqa: S308 - sanitised by nh3 just above
