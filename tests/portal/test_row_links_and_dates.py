"""The helpers lists use instead of a URL reversal and a `date` filter per row give the
very strings those would."""

import zoneinfo
from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.template import Context, Template
from django.urls import reverse, set_script_prefix
from django.utils import timezone as dj_timezone
from django.utils.timesince import timesince
from django.utils.translation import override
from hypothesis import given, settings
from hypothesis import strategies as st

from portal.dates import age, day_month, iso, row_dates
from portal.links import row_url


@pytest.mark.parametrize(
    "name, args",
    [
        ("job_detail", [7]),
        ("job_detail", [1234567]),
        ("job_step", [7, "work"]),
        ("job_step", [8, "review"]),
        ("revision_detail", [7, 3]),
        ("revision_detail", [70, 30]),
        ("revision_export", [7, 2, "yaml"]),
        ("job_list", []),
    ],
)
def test_row_url_is_reverse(name, args):
    assert row_url(name, *args) == reverse(name, args=args)


def test_row_url_follows_the_script_prefix():
    try:
        set_script_prefix("/portal/")
        assert row_url("job_detail", 5) == reverse("job_detail", args=[5]) == "/portal/jobs/5/"
    finally:
        set_script_prefix("/")
    assert row_url("job_detail", 5) == "/jobs/5/"


MOMENTS = [
    datetime(2026, 1, 5, 3, 7, 9, tzinfo=UTC),
    datetime(2026, 12, 31, 23, 59, 59, tzinfo=UTC),
    datetime(2027, 5, 1, 0, 0, 0, tzinfo=timezone(timedelta(hours=5))),
]


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("zone", ["UTC", "Pacific/Auckland"])
def test_day_month_is_the_date_filter(moment, zone):
    template = Template(
        '{{ d|date:"j M Y H:i" }}|{{ d|date:"j M Y" }}|{{ d|date:"j M H:i" }}|'
        '{{ d|date:"j M H:i:s" }}|{{ d|date:"c" }}'
    )
    with dj_timezone.override(zone):
        expected = template.render(Context({"d": moment}))
        ours = "|".join(
            [
                day_month(moment),
                day_month(moment, time=False),
                day_month(moment, year=False),
                day_month(moment, year=False, seconds=True),
                iso(moment),
            ]
        )
        dates = row_dates()  # a page's: the zone looked up once
        page = "|".join(
            [
                dates.day_month(moment),
                dates.day_month(moment, time=False),
                dates.day_month(moment, year=False),
                dates.day_month(moment, year=False, seconds=True),
                dates.iso(moment),
            ]
        )
    assert ours == page == expected


def test_a_pages_dates_follow_its_language_and_zone():
    moment = MOMENTS[0]
    with override("de"), dj_timezone.override("Pacific/Auckland"):
        german = row_dates()
    with override("en-gb"), dj_timezone.override("UTC"):
        english = row_dates()
        # Made for another request, it keeps that request's language and zone.
        assert german.day_month(moment) == "5 Jan 2026 16:07" != english.day_month(moment)
        with override("de"), dj_timezone.override("Pacific/Auckland"):
            assert german.day_month(moment) == day_month(moment)
    with override("de"):
        assert german.day_month(datetime(2026, 3, 5, 1, tzinfo=UTC)) == "5 Mär 2026 14:00"


def test_no_date_is_empty():
    dates = row_dates()
    assert day_month(None) == iso(None) == dates.day_month(None) == dates.iso(None) == ""


def test_age_is_timesince():
    now = datetime(2026, 3, 31, 12, 30, 15, tzinfo=UTC)
    seconds = [0, 1, 59, 60, 61, 3599, 3600, 86399, 86400, 6 * 86400 + 3601, 7 * 86400]
    seconds += [29 * 86400, 31 * 86400 + 7, 60 * 86400, 365 * 86400, 400 * 86400, 3000 * 86400]
    for language in ("en-gb", "de"):
        with override(language):
            for s in seconds + [-60]:
                then = now - timedelta(seconds=s)
                assert age(then, now) == timesince(then, now), (language, s)
                assert row_dates(now).age(then) == timesince(then, now), (language, s)


ZONES = [UTC, "Europe/Berlin", "America/New_York", "Australia/Lord_Howe"]


@settings(max_examples=300)
@given(
    now=st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2090, 1, 1)),
    back=st.one_of(
        st.timedeltas(min_value=timedelta(seconds=-90), max_value=timedelta(days=2)),
        st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=40)),
        st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=2000)),
    ),
    zones=st.tuples(st.sampled_from(ZONES), st.sampled_from(ZONES)),
    language=st.sampled_from(["en-gb", "de", "fr"]),
)
def test_a_pages_ages_are_timesince_in_any_zone_and_language(now, back, zones, language):
    """RowDates.age counts as timesince() does (calendar months, month ends, leap years,
    the value's time zone), with its words and separator looked up once a page."""
    now_zone, then_zone = (zoneinfo.ZoneInfo(z) if isinstance(z, str) else z for z in zones)
    now = now.replace(tzinfo=UTC).astimezone(now_zone)
    then = (now - back).astimezone(then_zone)
    with override(language):
        dates = row_dates(now)
        assert dates.age(then) == timesince(then, now)
        assert dates.age(then) == timesince(then, now)  # its words kept, the same
