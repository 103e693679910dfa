"""Issue 31, item 10: the insights page speaks in labels, not internal keys; chart labels are
written whole (on more lines), and a median of nothing says so instead of "0.0 h"."""

import pytest
from django.urls import reverse

from findings.insights import charts
from findings.insights.services import recompute
from jobs import jobformat, services
from portal.errors import DomainError

pytestmark = pytest.mark.django_db


def test_a_long_label_is_wrapped_whole_never_cut():
    label = "Data › each input › Where it is staged from, and how"
    chart = charts.bars([(label, 3), ("Work › Kind", 1)], title="t", label_width=230)
    first, second = chart["rows"]
    assert " ".join(line for _, line in first["lines"]) == label
    assert len(first["lines"]) > 1 and "…" not in str(chart)
    assert second["y"] >= first["y"] + len(first["lines"]) * charts.LINE_PX
    assert chart["height"] > second["y"] + chart["bar"]


def test_the_page_names_fields_by_label_and_says_when_nothing_was_addressed(
    client_for, team_a, a_member, staff
):
    data = jobformat.example_data()
    data["data"]["inputs"][0]["size"] = "about 2 TB"
    job = services.create_draft(team=team_a, user=a_member, data=data)
    with pytest.raises(DomainError):
        services.submit(job=job, user=a_member)
    recompute()
    page = client_for(staff).get(reverse("staff_insights")).content.decode()
    assert "Data › each input › Size" in page
    assert "data.inputs.N.size" not in page and "request.estimate" not in page
    assert "no finding addressed yet" in page and "0.0 h" not in page
    assert "…</text>" not in page and "…</tspan>" not in page
