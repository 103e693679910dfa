"""Demo findings for `load_demo`: one filed from the accepted Northwind job with frozen
evidence, and a few others in different states, linked to the published problems."""

from datetime import timedelta

from django.utils import timezone

from jobs.models import JobDescription
from jobs.runs import simulator
from jobs.runs.models import Run

from . import services
from .models import Finding, FindingKind, FindingStatus, Impact, NoteVisibility, UnsolvedProblem


def load_findings(*, teams, users):
    northwind, helio = teams["northwind-vision"], teams["helio-sims"]
    if Finding.objects.filter(team__in=[northwind, helio]).exists():
        return
    ada, cy = users["ada@northwind.example"], users["cy@heliosims.example"]
    staff = users["staff@e31.example"]
    problems = {p.slug: p for p in UnsolvedProblem.objects.all()}
    declare = problems.get("knowing-what-a-job-must-declare")
    data = problems.get("getting-data-to-compute")
    scheduling = problems.get("scheduling-mixed-sizes")

    masks = JobDescription.objects.filter(team=northwind, name="masks-v7-2027q1").first()
    if masks is not None:
        run = Run.objects.filter(job=masks).first()
        if run is not None and not run.is_final:
            simulator.play_now(run)
        staging = services.file_finding(
            team=northwind,
            user=ada,
            kind=FindingKind.STAGING_SLOWER,
            title="Staging the footage took longer than expected",
            summary="The 2.75 TiB of clips came from our bucket in another region; the "
            "accelerators were held the whole time the copy ran.",
            impact=Impact.COSTS_TIME,
            details={
                "data_size": "2.75 TiB",
                "data_size_bytes": 3023656976384,
                "source": "s3://northwind-footage/2027q1/ (eu-west-1)",
                "staging_time": "9h",
                "staging_seconds": 32400,
                "run_time": "6h",
                "run_seconds": 21600,
            },
            job=masks,
            revision=masks.revisions.order_by("-number").first(),
        )
        services.change_status(
            finding=staging,
            actor=staff,
            to_status=FindingStatus.TRIAGED,
            problems=[p for p in (data,) if p],
            note="Evidence for getting data to compute: staging held accelerators for hours.",
        )
        services.add_note(
            finding=staging,
            author=staff,
            visibility=NoteVisibility.RESPONSE,
            body="Thank you. Could you tell us whether the bucket allows a pre-signed "
            "transfer that starts before the rent?",
        )
        services.add_note(
            finding=staging,
            author=staff,
            visibility=NoteVisibility.INTERNAL,
            body="Compare with the cross-region transfer numbers from the simulator.",
        )

    ambiguous = services.file_finding(
        team=northwind,
        user=ada,
        kind=FindingKind.AMBIGUOUS_DESCRIPTION,
        title="Input size: compressed or on disk?",
        summary="We declared the compressed size; the network planned scratch disk from it.",
        impact=Impact.ANNOYANCE,
        details={
            "revision": 1,
            "field": "data.inputs.N.size",
            "read_as": "The size of the archive in our bucket.",
            "turned_out": "The size as it lands on scratch disk, unpacked.",
        },
        job=masks,
        revision=masks.revisions.filter(number=1).first() if masks else None,
    )
    # Filed two days ago: addressed the moment it was filed would teach the insights'
    # median time to address "0.0 h".
    Finding.objects.filter(pk=ambiguous.pk).update(created_at=timezone.now() - timedelta(days=2))
    ambiguous.refresh_from_db()
    services.change_status(
        finding=ambiguous,
        actor=staff,
        to_status=FindingStatus.TRIAGED,
        problems=[p for p in (declare,) if p],
    )
    services.change_status(finding=ambiguous, actor=staff, to_status=FindingStatus.ACCEPTED)
    services.change_status(
        finding=ambiguous,
        actor=staff,
        to_status=FindingStatus.ADDRESSED,
        note="The size field's help now says: as it lands on disk, after unpacking.",
    )

    sweep = services.file_finding(
        team=helio,
        user=cy,
        kind=FindingKind.SCHEDULING,
        title="Small shards waited behind a large job",
        summary="Our 4096 one-accelerator simulations queued for hours behind one large run.",
        impact=Impact.BLOCKS,
        details={
            "what_happened": "The sweep waited 5 hours although single accelerators were idle.",
            "what_expected": "Small shards to fill the gaps around the large job.",
        },
    )
    services.change_status(
        finding=sweep,
        actor=staff,
        to_status=FindingStatus.TRIAGED,
        problems=[p for p in (scheduling,) if p],
    )
    services.assign(findings=[sweep], assignee=staff, actor=staff)

    services.file_finding(
        team=helio,
        user=cy,
        kind=FindingKind.OUTPUT_NOT_USABLE,
        title="Results arrived as one tarball",
        summary="We need one file per simulation for our analysis pipeline.",
        impact=Impact.COSTS_TIME,
        details={
            "expected_format": "NetCDF, one file per simulation",
            "expected_destination": "gs://helio-results/sweeps/",
            "received": "A single 400 GB tar archive in the default output bucket.",
            "downstream": "The xarray-based analysis pipeline",
        },
    )
