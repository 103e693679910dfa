"""Dates as the templates' `date` filter writes them, for lists that show one per row.

The filter parses its format string character by character on every call; a 50-row list
with two dates a row spent milliseconds there. These give the same text for the few
formats the lists use ("j M Y H:i", "j M Y", "j M H:i", "j M H:i:s", "c"), in local time
as templates show it."""

from datetime import datetime

from django.conf import settings
from django.utils.dates import MONTHS_3
from django.utils.timesince import (
    MONTHS_DAYS,
    TIME_CHUNKS,
    TIME_STRINGS,
    TIME_STRINGS_KEYS,
    timesince,
)
from django.utils.timezone import get_current_timezone, is_aware, is_naive, template_localtime
from django.utils.translation import get_language, gettext

_months = {}


def _month_names(language):
    """{number: short name as `M` writes it} in `language`."""
    names = _months.get(language)
    if names is None:
        names = _months[language] = {m: str(MONTHS_3[m]).title() for m in MONTHS_3}
    return names


def _day_month(local, months, year, time, seconds):
    text = f"{local.day} {months[local.month]}"
    if year:
        text += f" {local.year:04d}"
    if time:
        text += f" {local.hour:02d}:{local.minute:02d}"
        if seconds:
            text += f":{local.second:02d}"
    return text


def day_month(value, year=True, time=True, seconds=False):
    """`j M Y H:i` (and without the year, the time or with seconds); "" for no date."""
    if value in (None, ""):
        return ""
    return _day_month(template_localtime(value), _month_names(get_language()), year, time, seconds)


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


class _Language:
    """timesince()'s phrases in one language, for one page (RowDates): no look-up of the
    active language on each `%`."""

    def __init__(self, phrase, language):
        self.phrase = phrase
        self.language = language

    def __mod__(self, values):
        key = (self.language, values["num"])
        text = self.phrase.done.get(key)
        if text is None:
            text = self.phrase.done[key] = str(self.phrase.lazy % values)
        return text


class RowDates:
    """day_month(), iso() and age() for the rows of one page, with what they look up on
    every call (the current time zone, the active language's month names and phrases)
    looked up once: a 50-row list asked them 50 to 150 times. Same text; make one per
    request (the time zone and language are the request's)."""

    def __init__(self, now=None):
        self.zone = get_current_timezone() if settings.USE_TZ else None
        language = get_language()
        self.months = _month_names(language)
        self.phrases = {name: _Language(phrase, language) for name, phrase in _PHRASES.items()}
        self.now = now
        self.comma = gettext(", ")  # between an age's two units
        self.words = {}  # (unit, number): "3\xa0days"
        self.nows = {}  # `now` in each time zone the ages are told in

    def local(self, value):
        """template_localtime(value), in the page's time zone."""
        if (
            self.zone is None
            or not isinstance(value, datetime)
            or is_naive(value)
            or not getattr(value, "convert_to_local_time", True)
        ):
            return value
        return value.astimezone(self.zone)

    def day_month(self, value, year=True, time=True, seconds=False):
        if value in (None, ""):
            return ""
        return _day_month(self.local(value), self.months, year, time, seconds)

    def iso(self, value):
        if value in (None, ""):
            return ""
        return self.local(value).isoformat()

    def age(self, value):
        """age(value, now) with the `now` given when made: timesince()'s words, counted as
        it counts them (years and months by the calendar, then weeks to minutes, at most
        two adjacent units), with the phrases and their separator looked up once a page,
        not once a row (~2x faster; tests compare them)."""
        now = self.now
        if not isinstance(value, datetime) or not isinstance(now, datetime):
            return timesince(value, now, time_strings=self.phrases)
        zone = value.tzinfo
        here = self.nows.get(zone)
        if here is None:
            # Compared in the value's time zone, as timesince() compares them.
            here = now.astimezone(zone) if is_aware(now) and is_aware(value) else now
            self.nows[zone] = here
        delta = here - value
        if delta.days * 86400 + delta.seconds <= 0:
            return self._word("minute", 0)
        if delta.days < 28:  # shorter than any month: no calendar to count
            return self._words([0, 0], delta.total_seconds())
        months = (here.year - value.year) * 12 + (here.month - value.month)
        if value.day > here.day or (value.day == here.day and value.time() > here.time()):
            months -= 1
        years, months = divmod(months, 12)
        pivot = value
        if years or months:
            # The value moved on by those years and months (to the month's last day at most).
            year, month = value.year + years, value.month + months
            if month > 12:
                year, month = year + 1, month - 12
            day = min(MONTHS_DAYS[month - 1], value.day)
            pivot = datetime(year, month, day, value.hour, value.minute, value.second, tzinfo=zone)
        return self._words([years, months], (here - pivot).total_seconds())

    def _words(self, parts, remaining):
        """The age's words from its years and months and the seconds that remain."""
        for chunk in TIME_CHUNKS:
            count = int(remaining // chunk)
            parts.append(count)
            remaining -= chunk * count
        first = next((i for i, count in enumerate(parts) if count), None)
        if first is None:
            return self._word("minute", 0)
        words = []
        for unit, count in zip(
            TIME_STRINGS_KEYS[first : first + 2], parts[first : first + 2], strict=True
        ):
            if not count:
                break
            words.append(self._word(unit, count))
        return self.comma.join(words)

    def _word(self, unit, count):
        word = self.words.get((unit, count))
        if word is None:
            # avoid_wrapping(): no line break inside "3 days".
            word = str(self.phrases[unit] % {"num": count}).replace(" ", "\xa0")
            self.words[(unit, count)] = word
        return word


def row_dates(now=None):
    """The date helpers for one page's rows (RowDates); `now` for their ages."""
    return RowDates(now)
