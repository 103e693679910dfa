"""A number in a request written with digits that are not ASCII ("²", which str.isdigit()
accepts and int() refuses) is no number: the page answers as for any other word, never a
500. Each of these was one (portal.validators.is_number)."""

import pytest
from django.urls import reverse

from jobs import services as job_services

pytestmark = pytest.mark.django_db


def test_a_finding_for_a_job_named_with_a_superscript_is_not_found(client_for, a_member):
    client = client_for(a_member)
    for query in ({"job": "²"}, {"job": "²", "kind": "other"}, {"job": "١"}):
        assert client.get(reverse("finding_new"), query).status_code == 404, query


def test_removing_an_item_at_a_superscript_index_is_no_error(client_for, team_a, a_member):
    draft = job_services.create_draft(team=team_a, user=a_member)
    client = client_for(a_member)
    step = reverse("job_step", args=[draft.pk, "data"])
    response = client.post(step, {"action": "remove:data.inputs.²", "version": draft.version})
    assert response.status_code == 302 and response["Location"].startswith(step)


def test_staff_dispatch_to_a_superscript_cluster_is_refused_with_a_message(
    client_for, staff, accepted
):
    response = client_for(staff).post(
        reverse("run_dispatch", args=[accepted.pk]), {"cluster": "²"}, follow=True
    )
    assert response.status_code == 200
    assert b"Not dispatched: choose a cluster." in response.content


@pytest.mark.parametrize("q", ["²", "#²", "#١٢"])
def test_staff_search_for_a_superscript_is_a_search(client_for, staff, q):
    assert client_for(staff).get(reverse("staff_finding_queue"), {"q": q}).status_code == 200
