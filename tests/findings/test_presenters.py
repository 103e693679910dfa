"""The triage queue's rows say when each finding was filed as Django's `date` and `timesince`
filters would, the day written once for the rows that share it."""

from datetime import UTC, datetime

import pytest
from django.template.defaultfilters import date
from django.utils import timezone
from django.utils.timesince import timesince

from findings.presenters import triage_rows

NOW = datetime(2026, 12, 7, 9, 30, tzinfo=UTC)


def _row(pk, created_at):
    return {"pk": pk, "kind": "other", "status": "new", "problem_ids": [],
            "assignee__full_name": "", "assignee__email": "", "created_at": created_at}  # fmt: skip


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Auckland"])
def test_each_row_says_its_day_and_the_time_since_as_the_filters_do(monkeypatch, settings, zone):
    settings.TIME_ZONE = zone
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    filed = [
        datetime(2026, 12, 7, 8, 55, tzinfo=UTC),
        datetime(2026, 12, 7, 0, 5, tzinfo=UTC),
        datetime(2026, 12, 6, 23, 50, tzinfo=UTC),  # the day before in UTC, not in Auckland
        # One day in UTC, two in Auckland (UTC+13 in December).
        datetime(2026, 12, 5, 10, 0, tzinfo=UTC),
        datetime(2026, 12, 5, 11, 30, tzinfo=UTC),
        datetime(2025, 2, 28, 12, 0, tzinfo=UTC),
    ]

    rows = triage_rows([_row(i, moment) for i, moment in enumerate(filed)], [])

    for row, moment in zip(rows, filed, strict=True):
        assert row["filed_on"] == date(timezone.localtime(moment), "j M Y")
        assert row["filed_ago"] == timesince(moment, NOW)
    days = [row["filed_on"] for row in rows]
    if zone == "UTC":
        assert days == [
            "7 Dec 2026",
            "7 Dec 2026",
            "6 Dec 2026",
            "5 Dec 2026",
            "5 Dec 2026",
            "28 Feb 2025",
        ]
    else:
        assert days == [
            "7 Dec 2026",
            "7 Dec 2026",
            "7 Dec 2026",
            "5 Dec 2026",
            "6 Dec 2026",
            "1 Mar 2025",
        ]
    assert rows[0]["filed_ago"] == "35\xa0minutes"
