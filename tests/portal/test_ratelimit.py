"""Anonymous endpoints are rate-limited per client, in a shared cache (issue 11, item 1)."""

import json
import threading
from types import SimpleNamespace

import pytest
from django.core import mail
from django.db import connection
from django.test import override_settings

from portal import ratelimit
from portal.intake.models import IntakeApplication
from portal.models import RateCount
from tests.portal.intake.intake_helpers import form_data, make_window

pytestmark = pytest.mark.django_db

VALIDATE = "/api/v1/spec/validate"
APPLY = "/design-partners/apply/"


@pytest.fixture(autouse=True)
def one_window(monkeypatch):
    """Windows are aligned to the clock: a test that ran across a minute's end started a new
    count (CI once saw the fifth request answered as the first). The limiter's clock stays
    30 s into a minute and an hour."""
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: 1_800_000_030.0))


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


@pytest.mark.parametrize(
    "backend",
    [
        "django.core.cache.backends.db.DatabaseCache",
        "django.core.cache.backends.locmem.LocMemCache",
    ],
)
def test_each_use_is_counted_in_one_row_whatever_the_cache(rf, backend):
    """The counts are the database's, shared by every web worker, with any cache."""
    request = rf.post(VALIDATE, REMOTE_ADDR="192.0.2.10")
    caches = {"default": {"BACKEND": backend, "LOCATION": "portal_cache"}}
    with override_settings(CACHES=caches), limits(spec_api="3/m"):
        for _ in range(2):
            ratelimit.hit(request, "spec_api")
        ratelimit.check(request, "spec_api")  # 2 of 3: not refused
        ratelimit.hit(request, "spec_api")
        with pytest.raises(ratelimit.Limited):
            ratelimit.hit(request, "spec_api")
        with pytest.raises(ratelimit.Limited):
            ratelimit.check(request, "spec_api")
    [row] = RateCount.objects.all()
    assert row.count == 4 and "192.0.2.10" in row.key


@pytest.mark.skipif(connection.vendor != "postgresql", reason="real concurrency: PostgreSQL (CI)")
@pytest.mark.django_db(transaction=True)
def test_concurrent_uses_lose_no_count(rf):
    """Django's database cache increments by a read and a write: workers at once lost
    counts and let more through than the limit. One UPDATE per use does not."""
    n, limit = 24, 8
    barrier = threading.Barrier(n)
    outcomes = []

    def use(_):
        request = rf.post(VALIDATE, REMOTE_ADDR="192.0.2.11")
        try:
            barrier.wait()
            ratelimit.hit(request, "spec_api")
            outcomes.append("served")
        except ratelimit.Limited:
            outcomes.append("refused")
        finally:
            connection.close()

    with limits(spec_api=f"{limit}/m"):
        threads = [threading.Thread(target=use, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert outcomes.count("served") == limit and outcomes.count("refused") == n - limit
    assert RateCount.objects.get().count == n
