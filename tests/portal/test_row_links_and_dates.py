"""The helpers lists use instead of a URL reversal and a `date` filter per row give the
very strings those would."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.template import Context, Template
from django.urls import reverse, set_script_prefix
from django.utils import timezone as dj_timezone

from portal.dates import day_month, iso
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
    assert ours == expected


def test_no_date_is_empty():
    assert day_month(None) == iso(None) == ""
