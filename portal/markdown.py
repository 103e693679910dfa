"""Markdown written by people (announcements, comments, notes) rendered to safe HTML."""

import re
from functools import lru_cache
from html import unescape

import markdown as md
import nh3
from django.utils.html import strip_tags
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


_LINK = re.compile(r'<a href="([^"]*)"[^>]*>(.*?)</a>', re.S)
_BREAKS = [
    (re.compile(r"</(p|pre|blockquote|h3|h4|table|ul|ol)>"), "\n\n"),
    (re.compile(r"<br\s*/?>|</tr>|</li>"), "\n"),
    (re.compile(r"<li>"), "- "),
    (re.compile(r"</t[dh]>"), "  "),
]


def markdown_as_text(text):
    """Markdown as a plain-text e-mail shows it: rendered (no ** or # left), a link written
    as its words and its whole address, paragraphs and list items on lines of their own."""
    html = re.sub(r">\n+<", "><", str(render_markdown(text)))  # the lines come from the tags
    html = _LINK.sub(lambda m: m[2] if m[2] == m[1] else f"{m[2]} ({m[1]})", html)
    for pattern, replacement in _BREAKS:
        html = pattern.sub(replacement, html)
    plain = unescape(strip_tags(html))
    return re.sub(r"\n{3,}", "\n\n", plain).strip()
