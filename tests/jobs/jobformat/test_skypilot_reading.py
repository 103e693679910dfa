"""SkyPilot task files are read as SkyPilot reads them (the SkyPilot YAML reference,
sky/resources.py). Each file is in fixtures/imports/skypilot/ with its expected facts."""

from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from jobs import jobformat
from jobs.models import JobDescription

SKYPILOT = Path(__file__).parent / "fixtures" / "imports" / "skypilot"


def one(name):
    [result] = jobformat.import_text((SKYPILOT / name).read_bytes(), filename=name)
    return result


def test_gpus_is_another_name_for_accelerators():
    request = one("gpus_alias.yaml").description.request
    assert request.no_accelerators is None
    assert [(a.type, a.count) for a in request.accelerators] == [("H100", 8), ("H200", 8)]
    assert request.nodes == 2


def test_sections_written_as_lists_are_named_and_the_rest_is_read():
    result = one("sections_as_lists.yaml")
    assert result.description.request.accelerators[0].type == "A10G"
    assert result.description.data.inputs is None
    assert [n.split(":")[0] for n in result.notes if "written as a list" in n] == [
        "file_mounts",
        "inputs",
    ]


def test_a_list_shaped_file_imports_from_the_page_without_a_python_error(
    client_for, team_a, a_member
):
    upload = SimpleUploadedFile("eval.yaml", (SKYPILOT / "sections_as_lists.yaml").read_bytes())
    response = client_for(a_member).post(
        reverse("job_new"), {"team": team_a.pk, "file": upload, "source_format": "auto"}
    )
    job = JobDescription.objects.get()
    assert response["Location"] == reverse("job_imported", args=[job.pk])
    assert job.data["request"]["accelerators"] == [{"type": "A10G", "count": 1}]


def test_memory_and_disk_sizes_are_in_skypilots_binary_units():
    result = one("memory_disk_units.yaml")
    assert result.description.request.memory_per_node.bytes == 1024 * 2**20  # 1024MB
    assert result.description.data.scratch.bytes == 100 * 2**30  # 100GB
    [bare] = jobformat.import_text("resources:\n  memory: 32+\n  disk_size: 2TB\nrun: x\n")
    assert bare.description.request.memory_per_node.text == "32 GiB"
    assert bare.description.data.scratch.text == "2 TiB"
    assert "resources.memory 32+: at least 32 GiB." in bare.notes


def test_use_spot_on_one_choice_only_is_not_a_preemptible_job():
    result = one("spot_some_choices.yaml")
    assert result.description.request.preemptible is None
    assert "use_spot is true for some resource choices only." in result.notes


def test_a_run_that_is_not_script_text_is_named():
    result = one("run_as_list.yaml")
    assert result.description.work.command is None
    assert any(n.startswith("run: written as a list") for n in result.notes)
