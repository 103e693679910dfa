"""Real files, held out (issue 28): every verbatim public file with written facts (the 40 of
../shared/corpus, facts in fixtures/imports/shared/; the 124 of ../shared/corpus2, facts in
fixtures/imports/corpus2/{sbatch,skypilot}/) is scored, in two halves split once by a fixed
rule: TUNING, which importer work may look at file by file, and HELD-OUT, which is only ever
read as a total. A fix that only fits the files someone looked at shows as a gap between
the halves; the held-out figure is the one to believe.

Each half must stay at or above its FLOOR (today's figures: captured rounded down, wrong and
false alarms as counted). When the importers improve, raise the floor to the new figures
(`python -m tests.jobs.jobformat.test_real_files` prints them); the TARGET is the issue's.
Our own fixtures (fixtures/imports/{sbatch,skypilot,native}) are unit cases, scored apart in
test_import_fidelity.py.

Do not read the misses of held-out files one by one: a held-out file that taught something
(its misses were read to fix an importer) moves to MOVED_TO_TUNING, with the reason, and the
floors are recomputed."""

import csv
import hashlib
import os
import sys
from pathlib import Path

import pytest

from tests.jobs.jobformat.fidelity import Score, expected_for, score_file

pytestmark = pytest.mark.shared_corpus

FACTS = Path(__file__).parent / "fixtures" / "imports"
# ../shared beside the clone, as tests/conftest.py finds it (for the command below).
SHARED = Path(__file__).resolve().parents[3].parent / "shared"

# The aim, for both halves.
TARGET_CAPTURED = 0.95
TARGET_WRONG = 0
TARGET_FALSE_ALARMS = 0

# The figures after the sixth session's rules of issue 28 (8 Dec 2026: rules from public files
# outside ../shared, see public_files.py; no held-out file read): the floor each half must not
# fall below. Raise them as the importers improve; never lower them to let a change through.
FLOOR = {
    "tuning": {"captured": 0.99, "wrong": 0, "false_alarms": 3},  # 1234 of 1239 (99.6 %)
    "held-out": {"captured": 0.95, "wrong": 6, "false_alarms": 15},  # 620 of 646 (96.0 %)
}

# A sample of the held-out half read whole to find the readings it still misses: the eight
# held-out files with the smallest second byte of sha256(flat name), chosen before reading.
SAMPLE = "read as a sample of the held-out half (the eight smallest sha256(name)[1]) (issue 28)"
SAMPLE_2 = "read as a second sample, the next eight by the same rule, after the first (issue 28)"
SAMPLE_3 = "read as a third sample, the next eight by the same rule (issue 28)"
# Held-out files whose misses were read to fix an importer: they count in the tuning half
# from then on. (flat file name, reason)
MOVED_TO_TUNING: list[tuple[str, str]] = [
    (
        "stas00__ml-engineering__network__benchmarks__all_reduce_bench_pyxis.sbatch",
        "its --ntasks-per-node without --cpus-per-task was read while reconciling the "
        "tasks-as-cores rule (issue 28)",
    ),
    (
        "ucr-hpcc__hpcc_slurm_examples__ansys__run_fluent_gpu.sh",
        "read when the reads-no-data rule stated no_inputs for it: its commands are only "
        "`module load`, the solver run itself left out of the file (issue 28)",
    ),
    (
        "huggingface__open-r1__slurm__e2b_router.slurm",
        "read to learn how servers are kept running from Slurm (a router program in the "
        "foreground) (issue 28, real-time screen)",
    ),
    (
        "huggingface__open-r1__slurm__serve_router.slurm",
        "read with the router above: a health loop that exits 1 on failure still keeps the "
        "server running (issue 28, real-time screen)",
    ),
    (
        "huggingface__open-r1__slurm__piston__launch_single_piston.sh",
        "read with the routers above: a code-execution server started in a container "
        "(issue 28, real-time screen)",
    ),
    (
        "yottalabsai__skypilot__examples__tpu__tpuvm_mnist.yaml",
        SAMPLE,
    ),
    (
        "yottalabsai__skypilot__llm__rag__serve_rag.yaml",
        SAMPLE,
    ),
    (
        "llm__vllm__serve.yaml",
        SAMPLE,
    ),
    (
        "llm__axolotl__axolotl-spot.yaml",
        SAMPLE,
    ),
    (
        "yottalabsai__skypilot__examples__nebius_infiniband__nccl.yaml",
        SAMPLE,
    ),
    (
        "ComputeCanada__examples-hyperparameter-search__array_job_submit.sh",
        SAMPLE,
    ),
    (
        "gaia-hazlab__skypilot-hyak__templates__klone-apptainer.yaml",
        SAMPLE,
    ),
    (
        "fasrc__User_Codes__IQSS-slurm-examples__multiprocess.slurm",
        SAMPLE,
    ),
    (
        "yottalabsai__skypilot__llm__kimi-k2__kimi-k2.sky.yaml",
        SAMPLE_2,
    ),
    (
        "PrincetonUniversity__hpc_beginning_workshop__spark_big_data__job.slurm",
        SAMPLE_2,
    ),
    (
        "examples__oci__dataset-upload-and-mount.yaml",
        SAMPLE_2,
    ),
    (
        "NVIDIA-NeMo__RL__ray.sub",
        SAMPLE_2,
    ),
    (
        "dstdev__base-cluster-docs__docs__jobs__examples__variable-time-jobs__cori-haswell__variable-time-jobs.sh",
        SAMPLE_2,
    ),
    (
        "yottalabsai__skypilot__llm__batch_inference__monitor_progress.yaml",
        SAMPLE_2,
    ),
    (
        "fasrc__User_Codes__Parallel_Computing__MPI__run_intelmpi.sbatch",
        SAMPLE_2,
    ),
    (
        "ULHPC__tutorials__bigdata__scripts__launcher.Spark.sh",
        SAMPLE_2,
    ),
    (
        "eth-cscs__alps-gh200-reproducers__tcp-bandwidth-variability__tcp-bw-var.sh",
        SAMPLE_3,
    ),
    (
        "Lumi-supercomputer__LUMI-AI-Guide__03-file-formats__convert_zip.sh",
        SAMPLE_3,
    ),
    (
        "yottalabsai__skypilot__examples__huggingface_glue_imdb_app.yaml",
        SAMPLE_3,
    ),
    (
        "yottalabsai__skypilot__llm__sglang__llava.yaml",
        SAMPLE_3,
    ),
    (
        "examples__pools_batch_inference__pool.yaml",
        SAMPLE_3,
    ),
    (
        "ULHPC__tutorials__containers__singularity__scripts__launcher_jupyter_parallel_cuda.sh",
        SAMPLE_3,
    ),
    (
        "PrincetonUniversity__multi_gpu_training__01_single_gpu__job.slurm",
        SAMPLE_3,
    ),
    (
        "NERSC__Migrate-to-Perlmutter__GPU__Ex-5__batch_close.sh",
        SAMPLE_3,
    ),
    (
        "bigscience-workshop__bigscience__train__tr11-176B-ml__tr11-176B-ml.slurm",
        "a few of its lines were read, letters masked, to find why the one checkpoint reader "
        "missed the --save the old sbatch pattern found (a command line in a variable whose "
        "value runs `pwd`) (issue 28)",
    ),
]


def half_of(flat_name):
    """The fixed split: a hash of the file's flat name, so adding files never moves others."""
    if flat_name in dict(MOVED_TO_TUNING):
        return "tuning"
    return "tuning" if hashlib.sha256(flat_name.encode()).digest()[0] % 2 == 0 else "held-out"


def real_files(shared):
    """[(file, its facts)] for every file of the two corpora that has facts, in manifest order."""
    found = []
    for corpus, facts in (("corpus", lambda kind: FACTS / "shared"),
                          ("corpus2", lambda kind: FACTS / "corpus2" / kind)):  # fmt: skip
        for manifest in sorted((shared / corpus).glob("*/MANIFEST.csv")):
            with manifest.open() as handle:
                for row in csv.DictReader(handle):
                    path = manifest.parent / row["flat_name"]
                    expected = facts(manifest.parent.name) / f"{path.name}.expected.yaml"
                    if expected.exists():
                        found.append((path, expected))
    return found


def score_halves(files):
    """{half: (number of files, Score)}."""
    halves = {"tuning": (0, Score()), "held-out": (0, Score())}
    for path, expected in files:
        count, score = halves[half_of(path.name)]
        score.add(score_file(path, expected_for(expected.with_name(path.name))))
        halves[half_of(path.name)] = (count + 1, score)
    return halves


def summary(halves):
    """The table for the README and docs: totals only, never a held-out file's misses."""
    lines = [
        "| half | files | facts captured | wrong | false alarms |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for half, (count, score) in halves.items():
        lines.append(
            f"| {half} | {count} | {score.captured} of {score.total} ({score.ratio():.1%}) "
            f"| {len(score.wrong)} | {len(score.false_alarms)} |"
        )
    lines.append(
        f"target: ≥ {TARGET_CAPTURED:.0%} captured, {TARGET_WRONG} wrong, "
        f"{TARGET_FALSE_ALARMS} false alarms in each half"
    )
    return "\n".join(lines)


@pytest.fixture(scope="module")
def shared(shared_corpus):
    """../shared, with both corpora: corpus2 missing skips (fails where it is required)."""
    corpus2 = shared_corpus.parent / "corpus2"
    if not corpus2.is_dir():
        reason = f"../shared/corpus2 is not beside this clone ({corpus2}); CI runs these"
        if os.environ.get("REQUIRE_SHARED_CORPUS") == "1":
            pytest.fail(f"REQUIRE_SHARED_CORPUS=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return shared_corpus.parent


@pytest.fixture(scope="module")
def halves(shared):
    files = real_files(shared)
    scored = score_halves(files)
    print("\n" + summary(scored))  # shown with -s
    return scored


def test_every_real_file_has_facts(shared):
    files = real_files(shared)
    assert len(files) >= 40 + 124, f"{len(files)} real files with facts"
    assert not [name for name, _ in MOVED_TO_TUNING if half_of(name) != "tuning"]


@pytest.mark.parametrize("half", ["tuning", "held-out"])
def test_each_half_holds_its_floor(halves, half):
    count, score = halves[half]
    floor = FLOOR[half]
    assert count >= 60, summary(halves)
    assert score.ratio() >= floor["captured"], summary(halves)
    assert len(score.wrong) <= floor["wrong"], summary(halves)
    assert len(score.false_alarms) <= floor["false_alarms"], summary(halves)


def main():
    if not (SHARED / "corpus").is_dir():
        sys.exit(f"../shared/corpus is not beside this clone ({SHARED})")
    print(summary(score_halves(real_files(SHARED))))


if __name__ == "__main__":
    main()
