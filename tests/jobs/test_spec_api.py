import pytest
from django.urls import reverse

from jobs import jobformat

pytestmark = pytest.mark.django_db


def test_schema_url_is_stable_and_cacheable(client):
    response = client.get("/spec/v1/schema.json")
    assert response.status_code == 200
    assert response.json() == jobformat.json_schema()
    assert "max-age" in response["Cache-Control"]


def test_validate_returns_issues(client):
    response = client.post(
        reverse("api:spec_validate"),
        {"request": {"nodes": 2, "min_nodes": 3}, "data": {"inputs": [{"size": "about 2 TB"}]}},
        content_type="application/json",
    )
    body = response.json()
    codes = {(i["field"], i["code"]) for i in body["issues"]}
    assert ("request.min_nodes", "min_nodes_above_nodes") in codes
    assert ("data.inputs.0.size", "vague_wording") in codes
    assert body["errors"] > 0 and body["description"]["data"]["inputs"][0]["size"] == "about 2 TB"


def test_validate_example_is_clean(client):
    body = client.post(
        reverse("api:spec_validate"), jobformat.example_data(), content_type="application/json"
    ).json()
    assert body["issues"] == [] and body["errors"] == 0


def test_import_returns_filled_fields(client):
    text = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:4\npython x.py\n"
    body = client.post(
        reverse("api:spec_import"), {"text": text}, content_type="application/json"
    ).json()
    [result] = body["results"]
    assert result["source_format"] == "sbatch"
    assert "request.nodes" in result["filled"] and result["description"]["source"]["text"] == text


@pytest.mark.parametrize(
    ("payload", "status"),
    [
        ({"text": "\x00binary"}, 400),
        ({"text": "a: [", "format": "auto"}, 400),
        ({"text": "run: x", "format": "cobol"}, 400),
        ({}, 422),
    ],
)
def test_import_errors_are_json(client, payload, status):
    response = client.post(reverse("api:spec_import"), payload, content_type="application/json")
    assert response.status_code == status
    assert "detail" in response.json()


def test_openapi_schema_lists_both_endpoints(client):
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert "/api/v1/spec/validate" in paths and "/api/v1/spec/import" in paths
