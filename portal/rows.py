"""Rows of long lists as HTML made in Python.

A template spends ~10 µs on each `{{ value }}` (look-up, localisation, escaping); a 50-row
table of eight cells spent more on that than on its query. A list whose rows are many and
alike gives each row one format string instead, filled with escaped values: the same
markup, a fraction of the time. The rest of the page stays in its template."""

import html

from django.utils.safestring import SafeString


def escaped(value):
    """conditional_escape() as text: safe strings as they are, anything else escaped."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def html_row(template, **values):
    """`template` (str.format with named fields) filled with each value escaped, as safe
    HTML. Pass markup that is already safe (a SafeString) to put it in unescaped."""
    return SafeString(template.format_map({k: escaped(v) for k, v in values.items()}))
