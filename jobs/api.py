"""HTTP API for the job-description format: validate a description, import a file.

Both are stateless and need no login, so a partner's CI can lint job files
against the portal; nothing sent is stored."""

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import OperationalError
from ninja import Body, NinjaAPI, Schema
from ninja.errors import HttpError

from . import jobformat
from .api_parser import BoundedParser
from .jobformat import slurm_export
from .jobformat.textio import SpecReadError
from .runs.agent_api import router as agent_router
from .runs.dispatch import site_for
from .runs.models import Cluster
from .runs.scheduler_api import router as scheduler_router

log = logging.getLogger(__name__)

api = NinjaAPI(
    title="E31 design-partner portal API",
    version="1",
    urls_namespace="api",
    docs_url=None,  # the interactive docs load scripts from a CDN, which the CSP forbids
    parser=BoundedParser(),  # depth, size and NUL characters checked once, before any endpoint
    description="Job-description format, version 1 (JSON Schema: /spec/v1/schema.json), and the "
    "scheduler API (bearer token per scheduler client).",
)
api.add_router("/scheduler", scheduler_router)
api.add_router("/scheduler/cluster", agent_router)


@api.exception_handler(RequestDataTooBig)
def body_too_big(request, exc):
    return api.create_response(
        request,
        {"detail": f"The body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes."},
        status=413,
    )


@api.exception_handler(OperationalError)
def database_unavailable(request, exc):
    # Every write here is one transaction: a failed one left nothing behind, so a retry
    # (with the same idempotency keys) is safe.
    log.error("API %s %s: database unavailable: %s", request.method, request.path, exc)
    response = api.create_response(
        request, {"detail": "The database is unavailable; nothing was saved. Retry later."},
        status=503,
    )  # fmt: skip
    response["Retry-After"] = "30"
    return response


@api.exception_handler(Exception)
def unexpected_error(request, exc):
    # A client of the API reads JSON whatever happens, never the HTML error page.
    log.exception("API %s %s failed", request.method, request.path)
    return api.create_response(
        request,
        {"detail": "The server failed on this request; nothing of it was saved. Retry it."},
        status=500,
    )


class IssueOut(Schema):
    field: str
    level: str
    code: str
    message: str
    problem: str


class ValidateOut(Schema):
    description: dict[str, Any]
    issues: list[IssueOut]
    errors: int
    warnings: int


class ImportIn(Schema):
    text: str
    format: str = "auto"
    filename: str | None = None


class SourceLineOut(Schema):
    line: int
    text: str


class ImportResultOut(ValidateOut):
    notes: list[str]
    source_format: str
    filled: list[str]
    sources: dict[str, SourceLineOut]  # filled field -> the line it was read from, when found


class ImportOut(Schema):
    results: list[ImportResultOut]


class ErrorOut(Schema):
    detail: str


def _counts(issues):
    errors = sum(1 for i in issues if i.level == jobformat.Level.ERROR)
    return {"errors": errors, "warnings": len(issues) - errors}


@api.post("/spec/validate", response={200: ValidateOut, 400: ErrorOut}, url_name="spec_validate")
def spec_validate(request, payload: dict[str, Any] = Body(...)):  # noqa: B008
    """Run the precision check on a description (complete or draft)."""
    description, issues = jobformat.lint(payload)
    return {
        "description": description.to_data(),
        "issues": [i.as_dict() for i in issues],
        **_counts(issues),
    }


@api.post("/spec/import", response={200: ImportOut, 400: ErrorOut}, url_name="spec_import")
def spec_import(request, payload: ImportIn):
    """Import a SkyPilot task YAML, an sbatch script, or a description in YAML/JSON."""
    if payload.format not in ("auto", "native", "skypilot", "sbatch"):
        raise HttpError(400, "format is one of auto, native, skypilot, sbatch.")
    try:
        results = jobformat.import_text(payload.text, payload.format, filename=payload.filename)
    except SpecReadError as error:
        raise HttpError(400, str(error)) from None
    return {"results": [{**r.as_dict(), **_counts(r.issues)} for r in results]}


class BatchScriptOut(Schema):
    phase: str
    filename: str
    text: str
    after: str


class SbatchOut(Schema):
    scripts: list[BatchScriptOut]
    submit: str
    notes: list[str]
    to_set: list[str]  # names only the cluster knows that no site or cluster gave


@api.post(
    "/spec/export/sbatch",
    response={200: SbatchOut, 400: ErrorOut, 401: ErrorOut, 404: ErrorOut},
    url_name="spec_sbatch",
)
def spec_export_sbatch(request, payload: dict[str, Any] = Body(...), cluster: str = ""):  # noqa: B008
    """A description -> runnable sbatch scripts (staging, run, output) chained by submit.sh,
    and notes on what the description says that sbatch cannot carry.

    The body is the description, or {"description": ..., "site": {...}} with a site file's
    keys; `?cluster=<name>` (logged in to the portal) writes them for a registered cluster.
    Without either, `to_set` lists the names the scripts leave to the person."""
    site = None
    if "description" in payload:  # no field of the format is called so
        extra = sorted(set(payload) - {"description", "site"})
        if extra:
            raise HttpError(400, f"Send description and site only, not {extra[0]}.")
        if payload.get("site") is not None:
            try:
                site = slurm_export.site_from_data(payload["site"])
            except SpecReadError as error:
                raise HttpError(400, str(error)) from None
        payload = payload["description"]
        if not isinstance(payload, dict):
            raise HttpError(400, "description is a mapping of the format's parts.")
    if cluster:
        if site is not None:
            raise HttpError(400, "Give a site or a cluster, not both.")
        if not request.user.is_authenticated:
            raise HttpError(401, "Log in to the portal to export for a registered cluster.")
        found = Cluster.objects.filter(name__iexact=cluster.strip()[:120]).first()
        if found is None:
            raise HttpError(404, "No registered cluster has that name.")
        site = site_for(found)
    description, issues = jobformat.load(payload)
    if issues:
        raise HttpError(400, f"{issues[0].field}: {issues[0].message}")
    return slurm_export.export(description, site).as_dict()
