"""Issue 31, item 10: a finding's triage page shows the team's findings that may be the same
report (same kind and field, a shared problem, or shared words), each with one action to merge."""

import pytest
from django.urls import reverse

from findings import selectors, services
from findings.models import FindingKind, FindingStatus, UnsolvedProblem
from tests.findings.helpers import file

pytestmark = pytest.mark.django_db

AMBIGUOUS = FindingKind.AMBIGUOUS_DESCRIPTION


def _details(field):
    return {"revision": 1, "field": field, "read_as": "a", "turned_out": "b"}


def _page(client, finding):
    return client.get(reverse("staff_finding_detail", args=[finding.pk])).content.decode()


def _listed(page):
    if 'id="dups-h"' not in page:
        return ""
    return page.split('id="dups-h"', 1)[1].split("</section>", 1)[0]


def test_same_field_shared_problem_or_words_are_offered_others_are_not(
    client_for, team_a, team_b, a_member, b_member, staff
):
    finding = file(team_a, a_member, kind=AMBIGUOUS, title="Size unclear",
                   details=_details("data.inputs.N.size"))  # fmt: skip
    same_field = file(team_a, a_member, kind=AMBIGUOUS, title="Bytes or GiB?",
                      details=_details("data.inputs.N.size"))  # fmt: skip
    other_field = file(team_a, a_member, kind=AMBIGUOUS, title="Deadline zone",
                       details=_details("request.deadline"))  # fmt: skip
    same_words = file(team_a, a_member, title="Staging stalled overnight")
    words_source = file(team_a, a_member, title="Staging stalled again")
    other_team = file(team_b, b_member, kind=AMBIGUOUS, title="Size unclear too",
                      details=_details("data.inputs.N.size"))  # fmt: skip
    client = client_for(staff)

    listed = _listed(_page(client, finding))
    assert f"#{same_field.pk} Bytes or GiB?" in listed
    assert f"#{other_field.pk} " not in listed and f"#{other_team.pk} " not in listed
    assert f"Merge into #{same_field.pk}" in listed
    listed = _listed(_page(client, words_source))
    assert f"#{same_words.pk} Staging stalled overnight" in listed

    problem = UnsolvedProblem.objects.get(slug="getting-data-to-compute")
    services.change_status(
        finding=other_field, actor=staff, to_status=FindingStatus.TRIAGED, problems=[problem]
    )
    services.link_problems(findings=[finding], problems=[problem], actor=staff)
    assert f"#{other_field.pk} Deadline zone" in _listed(_page(client, finding))


def test_one_action_merges_and_the_merged_one_offers_nothing(client_for, team_a, a_member, staff):
    older = file(team_a, a_member, title="Staging stalled overnight")
    newer = file(team_a, a_member, title="Staging stalled again")
    client = client_for(staff)
    page = _page(client, newer)
    assert f"Merge into #{older.pk}" in page
    response = client.post(
        reverse("staff_finding_merge", args=[newer.pk]),
        {"target": older.pk, "version": newer.version},
    )
    assert response.status_code == 302
    newer.refresh_from_db()
    assert newer.status == FindingStatus.DUPLICATE and newer.duplicate_of_id == older.pk
    assert _listed(_page(client, newer)) == ""
    assert f"#{newer.pk} " not in _listed(_page(client, older))


def test_a_finding_sharing_two_problems_is_offered_once(team_a, a_member, staff):
    problems = list(UnsolvedProblem.objects.order_by("pk")[:2])
    finding = file(team_a, a_member, title="Queue wait unclear")
    twice = file(team_a, a_member, title="Unrelated words here")
    services.link_problems(findings=[finding, twice], problems=problems, actor=staff)

    found = selectors.possible_duplicates(finding, [p.pk for p in problems])

    assert [row["pk"] for row in found] == [twice.pk]


def test_the_oldest_five_of_the_same_kind_are_offered_oldest_first(team_a, a_member, staff):
    older = [file(team_a, a_member, title=f"Staging stalled, case {n}") for n in range(7)]
    # A match of another kind, and one merged already, are never offered.
    file(team_a, a_member, kind=AMBIGUOUS, title="Staging stalled as well",
         details=_details("request.deadline"))  # fmt: skip
    merged = older.pop(0)
    services.merge(source=merged, target=older[0], actor=staff)
    finding = file(team_a, a_member, title="Staging stalled once more")

    found = selectors.possible_duplicates(finding, [])

    assert [row["pk"] for row in found] == [f.pk for f in older[:5]]
    assert set(found[0]) == {"pk", "title", "status", "created_at"}


def test_no_telling_word_no_field_and_no_problem_offers_nothing(team_a, a_member):
    file(team_a, a_member, title="Odd, odd")
    finding = file(team_a, a_member, title="Odd")

    assert selectors.possible_duplicates(finding, []) == []
