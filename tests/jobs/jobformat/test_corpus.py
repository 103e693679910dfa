"""Every real job file in ../shared/corpus imports; what it declares is captured;
long-running services are screened as not a network job."""

import pytest

from jobs import jobformat

pytestmark = pytest.mark.shared_corpus


def test_the_corpus_is_there(shared_corpus, shared_corpus_files):
    assert len(shared_corpus_files) >= 40, f"expected the shared corpus at {shared_corpus}"


def test_each_file_imports_and_keeps_its_text(shared_corpus_file):
    path, category = shared_corpus_file
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


@pytest.fixture
def one(shared_corpus):
    """one(name): the one import of the corpus file `name`."""

    def read(name):
        [result] = jobformat.import_text(
            (
                shared_corpus
                / ("sbatch" if name.endswith((".slurm", ".sh", ".sbatch")) else "skypilot")
                / name
            ).read_bytes()
        )
        return result

    return read


def test_sbatch_multinode_training_fields(one):
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


def test_sbatch_requeue_and_signal(one):
    result = one("erikwijmans__skynet-overcap-example__overcap_batch.sh")
    assert result.description.request.preemptible is True
    assert any("--signal" in note for note in result.notes)


def test_sbatch_array_becomes_shards(one):
    d = one(
        "bigscience-workshop__bigscience__data__catalogue__catalogue-jsonl-to-meg-ds.slurm"
    ).description
    assert d.work.shape == "shards" and d.work.shards and d.work.shards > 1


def test_sbatch_memory_and_gpus(one):
    d = one("PrincetonUniversity__multi_gpu_training__02_pytorch_ddp__job.slurm").description
    assert d.request.memory_per_node.text == "32 GiB"
    assert d.request.nodes == 2 and d.request.accelerators[0].count == 2


def test_skypilot_accelerators_nodes_spot(one):
    d = one("examples__spot__lightning_cifar10.yaml").description
    assert d.request.preemptible is True
    d = one("examples__distributed-pytorch__train.yaml").description
    assert d.request.nodes == 2 and d.work.shape == "gang"
    assert d.request.accelerators[0].count >= 1


def test_skypilot_ordered_preferences_keep_their_order(one):
    d = one("examples__multi_resources.yaml").description
    assert [a.type for a in d.request.accelerators] == ["A10g", "L4"]


def test_skypilot_accelerator_set_form(shared_corpus):
    results = [
        r
        for p in (shared_corpus / "skypilot").glob("*.yaml")
        if "{H100:8, H200:8}" in p.read_text()
        for r in jobformat.import_text(p.read_bytes())
    ]
    assert results
    assert [(a.type, a.count) for a in results[0].description.request.accelerators][:2] == [
        ("H100", 8),
        ("H200", 8),
    ]


def test_skypilot_inputs_with_declared_size(one):
    d = one("examples__resnet_app.yaml").description
    sizes = [i.size for i in d.data.inputs or [] if i.size]
    assert sizes and sizes[0].bytes == 70 * 10**9


def test_skypilot_file_mounts_and_modes(one):
    d = one("examples__storage__checkpointed_training.yaml").description
    # A bucket the job keeps its checkpoints in is not an input; the data set it downloads is.
    assert [i.location for i in d.data.inputs] == [
        "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
    ]
    assert d.request.checkpoint_location == "bucket://sky-ckpt-romilb"


def test_skypilot_pipeline_gives_one_description_per_stage(shared_corpus):
    results = jobformat.import_text(
        (shared_corpus / "skypilot" / "llm__gpt-2__gpt2-pipeline.yaml").read_bytes()
    )
    assert len(results) == 2
    first, second = (r.description for r in results)
    assert second.work.depends_on == [first.name]
    assert second.request.accelerators[0].type == "A100"


def test_skypilot_service_is_real_time(one):
    result = one("examples__serve__spot_policy__dynamic_on_demand_fallback.yaml")
    assert result.description.realtime.serves_requests is True
    assert any("service" in n for n in result.notes)


def test_batch_job_with_its_own_local_model_server_is_only_questioned(one):
    result = one("llm__rag__compute_embeddings.yaml")
    codes = {i.code for i in result.issues}
    assert "not_a_network_job" not in codes and "looks_like_a_service" in codes
