"""The job-description format, version 1: the one definition.

Form validation, the HTTP API schema, the published JSON Schema, the importers and
the linter all derive from these models. Every field is optional so that a draft
can be stored as it is; the precision check (precision.py) says what a complete,
exact description still needs. Help texts here are shown to partners as they are.
"""

from enum import StrEnum
from typing import Annotated

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    model_validator,
)

from .quantities import Amount, Duration, Size, When

FORMAT_VERSION = 1


class WorkKind(StrEnum):
    TRAINING = "training"
    BATCH_INFERENCE = "batch_inference"
    FOOTAGE_PROCESSING = "footage_processing"
    SIMULATION_SWEEP = "simulation_sweep"
    DATA_PROCESSING = "data_processing"
    OTHER = "other"


class Shape(StrEnum):
    GANG = "gang"  # one gang of nodes that start and stop together
    SHARDS = "shards"  # N independent shards (an array)
    CHAIN = "chain"  # one gang run N times in a row, each run resuming from the last checkpoint


class Access(StrEnum):
    STREAM = "stream"
    COPY = "copy_before_start"
    CACHED_MOUNT = "cached_mount"


class LessCompute(StrEnum):
    WAIT = "wait"
    FEWER_NODES = "fewer_nodes"
    RUN_LONGER = "run_longer"
    FEWER_SHARDS = "fewer_shards"


class DeadlineMissed(StrEnum):
    CANCEL = "cancel"
    FINISH_LATE = "finish_late"
    DELIVER_PARTIAL = "deliver_partial"


class Delivery(StrEnum):
    ON_EXIT = "on_exit"
    ON_EXIT_AND_EVICTION = "on_exit_and_eviction"
    CONTINUOUS = "continuous"


class SourceFormat(StrEnum):
    NATIVE = "native"
    SKYPILOT = "skypilot"
    SBATCH = "sbatch"


# Every list in the format holds at most this many entries (the guided steps add no more):
# 80,000 empty inputs in one request took 13 s and a gigabyte before the bound.
MAX_ITEMS = 50


def _field(help, example=None, **kwargs):
    extra = {"examples": [example]} if example is not None else {}
    return Field(default=None, description=help, **extra, **kwargs)


class Part(BaseModel):
    model_config = ConfigDict(extra="forbid", use_enum_values=False, validate_default=False)

    @model_validator(mode="before")
    @classmethod
    def _blank_is_absent(cls, data):
        # An empty string or null in a file or form means "not declared yet".
        if isinstance(data, dict):
            return {
                k: v
                for k, v in data.items()
                if v is not None and not (isinstance(v, str) and not v.strip())
            }
        return data


Text = Annotated[str, Field(max_length=4000)]
Script = Annotated[str, Field(max_length=200_000)]
Short = Annotated[str, Field(max_length=300)]
Count = Annotated[int, Field(ge=0, le=10**9)]
Positive = Annotated[int, Field(ge=1, le=10**6)]


def _whole_is_int(value):
    return int(value) if float(value).is_integer() else value


def _no_bool(value):
    if isinstance(value, bool):
        raise ValueError("a number is needed, not true or false")
    return value


# Cloud schedulers rent fractions of a device or a core (SkyPilot `L4:0.5`, `cpus: 0.1`);
# a whole number stays an integer so it prints back as typed.
Fraction = Annotated[
    float,
    Field(gt=0, le=10**6),
    BeforeValidator(_no_bool),
    AfterValidator(_whole_is_int),
    PlainSerializer(_whole_is_int, return_type=float | int),
]


class Work(Part):
    kind: WorkKind | None = _field(
        "What runs: training, batch_inference, footage_processing, simulation_sweep, "
        "data_processing or other.",
        "batch_inference",
    )
    summary: Text | None = _field(
        "One or two sentences an engineer outside the team would understand.",
        "Re-segment 12,000 hours of warehouse footage with our v7 model.",
    )
    image: Short | None = _field(
        "Container image with tag or digest, or the entry point if there is no image.",
        "ghcr.io/northwind/segmenter:7.2.1",
    )
    setup: Script | None = _field("Commands run once per node before the work starts.")
    command: Script | None = _field(
        "The exact command each node or shard runs.", "python segment.py --shard $SHARD_INDEX"
    )
    shape: Shape | None = _field(
        "gang: all nodes start and stop together; shards: independent pieces that can run apart; "
        "chain: one gang run several times in a row, each run resuming from the last checkpoint.",
        "shards",
    )
    shards: Positive | None = _field("Number of independent shards (only with shape: shards).", 480)
    nodes_per_shard: Positive | None = _field(
        "Nodes each shard runs on together, as one gang (only when a shard needs more than one).",
        4,
    )
    chain_runs: Positive | None = _field(
        "How many runs follow one another (only with shape: chain).", 10
    )
    depends_on: list[Short] | None = _field(
        "Other jobs that must finish first, by name.",
        ["footage-index-2027-03"],
        max_length=MAX_ITEMS,
    )
    runs_with: list[Short] | None = _field(
        "Other jobs that run at the same time as this one, as one group, by name.",
        ["replay-buffer"],
        max_length=MAX_ITEMS,
    )
    code: list[Short] | None = _field(
        "Where the job's code and configuration come from (a directory or repository), "
        "copied to each node; not data.",
        ["./train", "https://github.com/northwind/segmenter"],
        max_length=MAX_ITEMS,
    )
    credentials: list[Short] | None = _field(
        "Credentials the job needs at run time, by name or path only (never the secret itself).",
        ["HF_TOKEN", "~/.ssh/id_rsa"],
        max_length=MAX_ITEMS,
    )
    amount: Amount | None = _field(
        "How much work, in the team's own unit, so progress and speed can be measured.",
        "12,000 video-hours",
    )


class DataInput(Part):
    name: Short | None = _field("A short name for this input.", "footage")
    location: Short | None = _field("Where it is now, as a URI.", "s3://northwind-footage/2027-q1/")
    size: Size | None = _field("Total size, with a unit.", "2.5 TiB")
    objects: Count | None = _field("Number of objects or files.", 48000)
    format: Short | None = _field("File format.", "MP4 (H.264), 1080p")
    access: Access | None = _field(
        "How it reaches compute: stream, copy_before_start or cached_mount.", "copy_before_start"
    )
    read_only: bool | None = _field("True if the job never writes to it.", True)
    region: Short | None = _field("Region or site where it is stored.", "eu-west-1")


class Data(Part):
    inputs: list[DataInput] | None = _field(
        "Everything the job reads, one entry per source.", max_length=MAX_ITEMS
    )
    no_inputs: bool | None = _field(
        "True only if the job reads no data at all (e.g. a simulation from parameters)."
    )
    scratch: Size | None = _field("Local disk each node needs while running.", "1.5 TiB")
    unclassified: list[Short] | None = _field(
        "Locations the job mounts without saying whether it reads them, writes them or both: "
        "move each to inputs, output artifacts or the checkpoint location.",
        ["/shared -> gs://northwind-shared"],
        max_length=MAX_ITEMS,
    )
    stage_before_rent: bool | None = _field(
        "True if the data can be copied near compute before accelerators are rented.", True
    )


class Accelerator(Part):
    type: Short | None = _field("Accelerator model, as the vendor names it.", "H100-80GB")
    count: Fraction | None = _field("How many per node (a fraction shares one device).", 8)


class Request(Part):
    accelerators: list[Accelerator] | None = _field(
        "Accelerator choices in order of preference; the first is the one you want.",
        max_length=MAX_ITEMS,
    )
    no_accelerators: bool | None = _field(
        "True to state that the job uses no accelerators at all (CPU only)."
    )
    instance_type: Short | None = _field(
        "A cloud instance type the job asks for by name, if it does.", "p4d.24xlarge"
    )
    node_features: list[Short] | None = _field(
        "Features every node must have (Slurm --constraint), e.g. a CPU or interconnect.",
        ["a100", "ib"],
        max_length=MAX_ITEMS,
    )
    nodes: Positive | None = _field("Nodes you want.", 4)
    min_nodes: Positive | None = _field("Fewest nodes the job can run on at all.", 2)
    cpus_per_node: Fraction | None = _field("CPU cores per node.", 64)
    memory_per_node: Size | None = _field("Memory per node, with a unit.", "512 GiB")
    estimate: Duration | None = _field("How long the job runs on the nodes you asked for.", "36h")
    maximum: Duration | None = _field(
        "Hard limit: stop the job after this long, whatever happens.", "48h"
    )
    until_done: bool | None = _field(
        "True if it runs until the work is done rather than for a fixed time (give a maximum)."
    )
    earliest_start: When | None = _field("Earliest start, ISO 8601.", "2027-03-01T09:00Z")
    deadline: When | None = _field("When the output must be back, ISO 8601.", "2027-03-04T09:00Z")
    no_deadline: bool | None = _field("True to state explicitly that there is no deadline.")
    on_deadline_missed: DeadlineMissed | None = _field(
        "If the deadline passes: cancel, finish_late or deliver_partial.", "deliver_partial"
    )
    less_compute: LessCompute | None = _field(
        "What the job does with less compute than asked: wait, fewer_nodes, run_longer or fewer_shards.",
        "fewer_nodes",
    )
    preemptible: bool | None = _field("True if the job survives being stopped and restarted.", True)
    checkpoint_interval: Duration | None = _field("How often it checkpoints.", "30 min")
    checkpoint_location: Short | None = _field(
        "Where checkpoints go, as a URI.", "s3://northwind-ckpt/run-7/"
    )
    retries: Annotated[int, Field(ge=0, le=100)] | None = _field(
        "Times the network may restart it after a failure.", 2
    )
    expected_accelerator_hours: Annotated[float, Field(ge=0, le=1e9)] | None = _field(
        "Accelerator-hours you expect the job to use (count × nodes × duration, plus staging).",
        1152,
    )
    expected_node_hours: Annotated[float, Field(ge=0, le=1e9)] | None = _field(
        "For a job with no accelerators: node-hours you expect the job to use "
        "(nodes × duration, plus staging).",
        96,
    )


class Artifact(Part):
    name: Short | None = _field("What it is.", "segmentation masks")
    format: Short | None = _field("File format and layout.", "Parquet, one file per video")
    size: Size | None = _field("Expected size, with a unit.", "300 GB")
    destination: Short | None = _field("Where it must land, as a URI.", "s3://northwind-masks/v7/")


class Output(Part):
    artifacts: list[Artifact] | None = _field(
        "Everything that comes back, one entry per artifact.", max_length=MAX_ITEMS
    )
    delivery: Delivery | None = _field(
        "When output is delivered: on_exit, on_exit_and_eviction or continuous.",
        "on_exit_and_eviction",
    )
    partial_useful: bool | None = _field("True if a partial result is worth delivering.", True)
    downstream: Text | None = _field(
        "What the system that consumes the output needs from it.",
        "The labelling tool reads Parquet from s3://northwind-masks/ and expects one file per video.",
    )
    retention: Duration | None = _field(
        "How long the network should keep output after delivery.", "7d"
    )


class Realtime(Part):
    finishes_on_its_own: bool | None = _field(
        "True if the job ends by itself when the work is done.", True
    )
    serves_requests: bool | None = _field(
        "True if it answers inbound requests (an API, a web app, a model server).", False
    )
    latency_bound: Duration | None = _field(
        "A per-request latency it must meet, if any (a sign of real-time work)."
    )
    start_delay: Duration | None = _field(
        "How long it may wait in the queue before starting.", "12h"
    )


class Source(Part):
    format: SourceFormat | None = None
    filename: Short | None = None
    text: Annotated[str, Field(max_length=2_000_000)] | None = None


class Description(Part):
    """A job, described in the four parts the network uses, plus the real-time screen."""

    version: int = Field(default=FORMAT_VERSION, ge=1, le=FORMAT_VERSION)
    name: Short | None = _field("A short name for the job.", "masks-v7-2027q1")
    work: Work = Field(default_factory=Work)
    data: Data = Field(default_factory=Data)
    request: Request = Field(default_factory=Request)
    output: Output = Field(default_factory=Output)
    realtime: Realtime = Field(default_factory=Realtime)
    source: Source | None = Field(
        default=None,
        description="Where this description was imported from, with the original text.",
    )

    def to_data(self):
        """Plain data (dicts, lists, strings, numbers), without empty parts."""
        return _prune(self.model_dump(mode="json", exclude_none=True))


def _prune(value):
    if isinstance(value, dict):
        pruned = {k: _prune(v) for k, v in value.items()}
        return {k: v for k, v in pruned.items() if v not in ({}, [])}
    if isinstance(value, list):
        return [_prune(v) for v in value]
    return value


PARTS = ("work", "data", "request", "output", "realtime")
