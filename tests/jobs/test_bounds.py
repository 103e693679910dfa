"""Public endpoints refuse what is too big or too deep in the API's JSON, quickly
(issue 11, item 1)."""

import json

import pytest

pytestmark = pytest.mark.django_db

VALIDATE = "/api/v1/spec/validate"
IMPORT = "/api/v1/spec/import"


def post(client, url, raw):
    return client.post(url, raw, content_type="application/json")


def test_a_list_longer_than_the_format_allows_is_one_issue_not_a_minute():
    from django.test import Client

    body = json.dumps({"data": {"inputs": [{}] * 80_000}})
    response = post(Client(), VALIDATE, body)
    assert response.status_code == 200
    issues = [i for i in response.json()["issues"] if i["field"].startswith("data.inputs")]
    assert issues and "50" in issues[0]["message"]
    assert "inputs" not in response.json()["description"].get("data", {})


def test_the_published_schema_says_the_bound(client):
    schema = client.get("/spec/v1/schema.json").json()
    assert '"maxItems": 50' in json.dumps(schema)


@pytest.mark.parametrize("depth", [41, 900, 100_000])
def test_deep_json_is_a_400_in_json(client, depth):
    body = '{"work": ' * depth + "1" + "}" * depth
    response = post(client, VALIDATE, body)
    assert response.status_code == 400 and "detail" in response.json()


def test_an_oversized_body_is_refused_in_the_apis_json(client):
    body = json.dumps({"text": "x" * 3_000_000})
    response = post(client, IMPORT, body)
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json")
    assert "larger than" in response.json()["detail"]


def test_nul_characters_in_json_are_removed_once(client):
    body = json.dumps({"text": "#!/bin/bash\n#SBATCH --nodes=2\x00\npython t.py\n"})
    response = post(client, IMPORT, body)
    assert response.status_code == 200
    assert response.json()["results"][0]["description"]["request"]["nodes"] == 2
