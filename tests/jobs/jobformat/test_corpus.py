"""Every real job file in ../shared/corpus imports; what it declares is captured;
long-running services are screened as not a network job."""

import csv

import pytest

from jobs import jobformat
from tests.conftest import SHARED_CORPUS as CORPUS
from tests.conftest import needs_shared_corpus

pytestmark = needs_shared_corpus()


def corpus_files():
    rows = []
    for manifest in sorted(CORPUS.glob("*/MANIFEST.csv")):
        with manifest.open() as handle:
            for row in csv.DictReader(handle):
                rows.append((manifest.parent / row["flat_name"], row["category"]))
    return rows


FILES = corpus_files()


def test_the_corpus_is_there():
    assert len(FILES) >= 40, f"expected the shared corpus at {CORPUS}"


@pytest.mark.parametrize(("path", "category"), FILES, ids=[p.name for p, _ in FILES])
def test_each_file_imports_and_keeps_its_text(path, category):
    raw = path.read_bytes()
    results = jobformat.import_text(raw, filename=path.name)
    assert results
    for result in results:
        description = result.description
        assert description.source.text == raw.decode()
        assert description.source.format == (
            "sbatch" if "sbatch" in str(path.parent) else "skypilot"
        )
        assert not [i for i in result.issues if i.code in ("invalid", "unknown_field")], (
            result.issues
        )
        codes = {i.code for i in result.issues}
        if category == "realtime_negative":
            assert "not_a_network_job" in codes
        else:
            assert "not_a_network_job" not in codes
        # Importers never invent: none of these files states a deadline, so none appears.
        assert description.request.deadline is None
        assert "missing_deadline" in codes


def one(name):
    [result] = jobformat.import_text(
        (
            CORPUS
            / ("sbatch" if name.endswith((".slurm", ".sh", ".sbatch")) else "skypilot")
            / name
        ).read_bytes()
    )
    return result


def test_sbatch_multinode_training_fields():
    d = one("bigscience-workshop__bigscience__train__tr11-176B-ml__tr11-176B-ml.slurm").description
    assert d.name == "tr11-176B-ml"
    assert d.request.nodes == 24
    # --gres=gpu:8 with --constraint=a100: eight A100s per node, as an engineer reads it.
    assert d.request.accelerators[0].count == 8 and d.request.accelerators[0].type == "a100"
    assert d.request.node_features == ["a100"]
    assert d.request.maximum.seconds == 100 * 3600
    assert d.request.cpus_per_node == 64
    assert d.work.shape == "gang"
    assert "srun" in d.work.command or "python" in d.work.command


def test_sbatch_requeue_and_signal():
    result = one("erikwijmans__skynet-overcap-example__overcap_batch.sh")
    assert result.description.request.preemptible is True
    assert any("--signal" in note for note in result.notes)


def test_sbatch_array_becomes_shards():
    d = one(
        "bigscience-workshop__bigscience__data__catalogue__catalogue-jsonl-to-meg-ds.slurm"
    ).description
    assert d.work.shape == "shards" and d.work.shards and d.work.shards > 1


def test_sbatch_memory_and_gpus():
    d = one("PrincetonUniversity__multi_gpu_training__02_pytorch_ddp__job.slurm").description
    assert d.request.memory_per_node.text == "32 GiB"
    assert d.request.nodes == 2 and d.request.accelerators[0].count == 2


def test_skypilot_accelerators_nodes_spot():
    d = one("examples__spot__lightning_cifar10.yaml").description
    assert d.request.preemptible is True
    d = one("examples__distributed-pytorch__train.yaml").description
    assert d.request.nodes == 2 and d.work.shape == "gang"
    assert d.request.accelerators[0].count >= 1


def test_skypilot_ordered_preferences_keep_their_order():
    d = one("examples__multi_resources.yaml").description
    assert [a.type for a in d.request.accelerators] == ["A10g", "L4"]


def test_skypilot_accelerator_set_form():
    results = [
        r
        for p in (CORPUS / "skypilot").glob("*.yaml")
        if "{H100:8, H200:8}" in p.read_text()
        for r in jobformat.import_text(p.read_bytes())
    ]
    assert results
    assert [(a.type, a.count) for a in results[0].description.request.accelerators][:2] == [
        ("H100", 8),
        ("H200", 8),
    ]


def test_skypilot_inputs_with_declared_size():
    d = one("examples__resnet_app.yaml").description
    sizes = [i.size for i in d.data.inputs or [] if i.size]
    assert sizes and sizes[0].bytes == 70 * 10**9


def test_skypilot_file_mounts_and_modes():
    d = one("examples__storage__checkpointed_training.yaml").description
    # A bucket the job keeps its checkpoints in is not an input.
    assert not d.data.inputs
    assert d.request.checkpoint_location == "bucket://sky-ckpt-romilb"


def test_skypilot_pipeline_gives_one_description_per_stage():
    results = jobformat.import_text(
        (CORPUS / "skypilot" / "llm__gpt-2__gpt2-pipeline.yaml").read_bytes()
    )
    assert len(results) == 2
    first, second = (r.description for r in results)
    assert second.work.depends_on == [first.name]
    assert second.request.accelerators[0].type == "A100"


def test_skypilot_service_is_real_time():
    result = one("examples__serve__spot_policy__dynamic_on_demand_fallback.yaml")
    assert result.description.realtime.serves_requests is True
    assert any("service" in n for n in result.notes)


def test_batch_job_with_its_own_local_model_server_is_only_questioned():
    result = one("llm__rag__compute_embeddings.yaml")
    codes = {i.code for i in result.issues}
    assert "not_a_network_job" not in codes and "looks_like_a_service" in codes
