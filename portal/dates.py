"""Dates as the templates' `date` filter writes them, for lists that show one per row.

The filter parses its format string character by character on every call; a 50-row list
with two dates a row spent milliseconds there. These give the same text for the few
formats the lists use ("j M Y H:i", "j M Y", "j M H:i", "j M H:i:s", "c"), in local time
as templates show it."""

from django.utils.dates import MONTHS_3
from django.utils.timesince import TIME_STRINGS, timesince
from django.utils.timezone import template_localtime
from django.utils.translation import get_language

_months = {}


def _month(number):
    """The month's short name as `M` writes it, in the active language."""
    language = get_language()
    names = _months.get(language)
    if names is None:
        names = _months[language] = {m: str(MONTHS_3[m]).title() for m in MONTHS_3}
    return names[number]


def day_month(value, year=True, time=True, seconds=False):
    """`j M Y H:i` (and without the year, the time or with seconds); "" for no date."""
    if value in (None, ""):
        return ""
    value = template_localtime(value)
    text = f"{value.day} {_month(value.month)}"
    if year:
        text += f" {value.year:04d}"
    if time:
        text += f" {value.hour:02d}:{value.minute:02d}"
        if seconds:
            text += f":{value.second:02d}"
    return text


def iso(value):
    """`c`: ISO 8601 in local time."""
    if value in (None, ""):
        return ""
    return template_localtime(value).isoformat()


class _Phrase:
    """One of timesince()'s phrases ("%(num)d minute(s)"), translated once per language
    and number: each `%` on Django's lazy phrase looks the translation up again, and a
    50-row list asking each row's age did that a hundred times."""

    def __init__(self, lazy):
        self.lazy = lazy
        self.done = {}

    def __mod__(self, values):
        key = (get_language(), values["num"])
        text = self.done.get(key)
        if text is None:
            text = self.done[key] = str(self.lazy % values)
        return text


_PHRASES = {name: _Phrase(lazy) for name, lazy in TIME_STRINGS.items()}


def age(value, now):
    """timesince(value, now): the same words ("3 days, 4 hours"), its phrases kept."""
    return timesince(value, now, time_strings=_PHRASES)
