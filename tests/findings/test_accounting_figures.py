"""Issue 31, item 6: an accounting finding's figures as the ledger writes them (one decimal,
grouped on the pages), and the phase prefilled where held and expected differ most."""

import re
from decimal import Decimal

import pytest

from findings import evidence
from findings.models import Finding, FindingKind
from tests.findings.helpers import accepted_job, file

pytestmark = pytest.mark.django_db


def test_the_prefill_is_rounded_as_the_ledger_and_names_the_largest_gap():
    figures = {
        "expected_hours": 1200.0,
        "held_hours": 1379.816,
        "phases": {"staging": 40.2, "waiting": 2.0, "running": 1330.0, "idle_tail": 7.616},
    }
    initial = evidence.accounting_prefill(figures)
    assert initial == {
        "expected_hours": Decimal("1200.0"),
        "held_hours": Decimal("1379.8"),
        "phase": "running",  # 130 h over what was expected, against 40.2 h of staging
    }
    figures["phases"]["running"] = 1210.0
    assert evidence.accounting_prefill(figures)["phase"] == "staging"
    # Nothing expected: the largest phase that is not the run itself.
    del figures["expected_hours"]
    assert evidence.accounting_prefill(figures)["phase"] == "staging"


def test_the_form_the_finding_page_and_triage_write_the_ledgers_figures(
    client_for, team_a, a_member, staff
):
    job = accepted_job(team_a, a_member, staff)
    client = client_for(a_member)
    page = client.get(f"/findings/new/?job={job.pk}&kind=accounting_mismatch").content.decode()
    held = re.search(r'name="held_hours" value="([^"]+)"', page).group(1)
    assert re.fullmatch(r"\d+\.\d", held), held  # one decimal, as the evidence box
    finding = file(
        team_a,
        a_member,
        kind=FindingKind.ACCOUNTING_MISMATCH,
        job=job,
        details={"expected_hours": 1200.0, "held_hours": 1379.816, "phase": "running"},
    )
    for url in (f"/findings/{finding.pk}/", f"/staff/findings/{finding.pk}/"):
        user = a_member if url.startswith("/findings") else staff
        text = client_for(user).get(url).content.decode()
        facts = text.split('class="finding-facts"', 1)[1].split("</dl>", 1)[0]
        assert "1,200.0" in facts and "1,379.8" in facts and "1379.816" not in facts
        assert "Running" in facts
    assert Finding.objects.count() == 1
