"""Anonymous endpoints are rate-limited per client, in a shared cache (issue 11, item 1)."""

import json

import pytest
from django.core import mail
from django.test import override_settings

from portal import ratelimit
from portal.models import IntakeApplication
from tests.portal.intake_helpers import form_data, make_window

pytestmark = pytest.mark.django_db

VALIDATE = "/api/v1/spec/validate"
APPLY = "/design-partners/apply/"


def limits(**scopes):
    from django.conf import settings

    return override_settings(RATE_LIMITS={**settings.RATE_LIMITS, **scopes})


def test_the_spec_api_answers_429_in_json_past_the_limit(client):
    body = json.dumps({"request": {"nodes": 2}})
    with limits(spec_api="3/m"):
        codes = [
            client.post(VALIDATE, body, content_type="application/json").status_code
            for _ in range(4)
        ]
        assert codes == [200, 200, 200, 429]
        refused = client.post(VALIDATE, body, content_type="application/json")
        assert refused.json()["detail"].startswith("Too many requests")
        assert 0 < int(refused["Retry-After"]) <= 60
        other = client.post(
            VALIDATE, body, content_type="application/json", REMOTE_ADDR="198.51.100.7"
        )
        assert other.status_code == 200  # another client has its own count


def test_a_flood_of_applications_sends_a_few_emails_and_keeps_the_text(client):
    make_window(places=50)
    mail.outbox.clear()
    with limits(intake_apply="2/h"):
        for i in range(2):
            response = client.post(APPLY, form_data(contact_email=f"a{i}@spam.example"))
            assert response.status_code == 302
        refused = client.post(APPLY, form_data(contact_email="victim@elsewhere.example",
                                               team_name="Flood Team"))  # fmt: skip
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many applications" in page and 'value="Flood Team"' in page
    assert IntakeApplication.objects.count() == 2
    assert "victim@elsewhere.example" not in {m.to[0] for m in mail.outbox}


@override_settings(
    CACHES={
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "portal_cache",
        }
    }
)
def test_the_database_cache_made_by_migrate_counts(rf):
    """The embedded default keeps counts in the database, shared by every web worker."""
    request = rf.post(VALIDATE, REMOTE_ADDR="192.0.2.9")
    with limits(spec_api="2/m"):
        ratelimit.hit(request, "spec_api")
        ratelimit.hit(request, "spec_api")
        with pytest.raises(ratelimit.Limited):
            ratelimit.hit(request, "spec_api")
