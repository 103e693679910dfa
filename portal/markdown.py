"""Markdown written by people (announcements, comments, notes) rendered to safe HTML."""

import markdown as md
import nh3
from django.utils.safestring import mark_safe

ALLOWED_TAGS = {
    "p", "br", "strong", "em", "code", "pre", "blockquote", "ul", "ol", "li",
    "a", "h3", "h4", "hr", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip


def render_markdown(text):
    """Markdown -> sanitised HTML: no scripts, no styles, no raw HTML beyond ALLOWED_TAGS."""
    html = md.markdown(text or "", extensions=["fenced_code", "tables", "sane_lists"])
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes={"a": {"href", "title"}},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
    return mark_safe(clean)  # noqa: S308 - sanitised by nh3 just above
