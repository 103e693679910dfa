"""A description -> a runnable set of sbatch scripts (the reverse of sbatch.py).

One script per phase the description calls for: staging as its own job when the data
is copied before accelerators are rented, the run (one gang allocation, or an array of
shards with a concurrency limit), and output delivery as a job that runs after the run
succeeds. `submit.sh` chains them with `--dependency=afterok`. What the format says and
sbatch cannot carry is returned as notes, never dropped silently.

A cluster (jobs.runs) or a site file (`load_site`) adds its partition, how its accelerators
are named as GRES and the commands that move data on that site (`Site`). Without one, the
scripts ask for GPUs by count alone (a type no cluster declares would be refused), say in a
comment block which names to set, and read the copy commands from the environment."""

import math
import re
import shlex
import tomllib
from dataclasses import dataclass, field

from .model import Description, LessCompute, Shape
from .textio import SpecReadError, decode, load_yaml_documents
from .units import format_size

# The importer (sbatch.py) recognises these lines, so an exported script reads back.
SETUP_MARK = "# e31: setup, once per node"
COMMAND_MARK = "# e31: command"
SETUP_END = "E31_SETUP"
STAGE_STEP = "e31-stage"
DEFAULT_STAGE = (
    '"${E31_STAGE_IN:?set E31_STAGE_IN to this site\'s copy command, e.g. rclone copy}" '
    '{location} "${E31_SCRATCH:-$HOME/e31-scratch}/{name}"'
)
DEFAULT_DELIVER = (
    '"${E31_DELIVER:?set E31_DELIVER to this site\'s copy command, e.g. rclone copy}" '
    '"${E31_OUTPUT:-$HOME/e31-output}/{name}" {destination}'
)


# What Slurm accepts as a partition, account or QOS name, and as a GRES ("gpu" or "gpu:h100").
# Nothing else can reach an #SBATCH line, so a site cannot add options or lines to a script.
SLURM_NAME = re.compile(r"[A-Za-z0-9._-]{1,120}\Z")
GRES_NAME = re.compile(r"[A-Za-z0-9_-]{1,60}(?::[A-Za-z0-9._-]{1,60})?\Z")
FEATURE_NAME = re.compile(r"[A-Za-z0-9_.-]{1,120}\Z")
SITE_KEYS = ("partition", "account", "qos", "gres", "stage_command", "deliver_command")


class Phase:
    STAGING, RUN, OUTPUT = "staging", "run", "output"


@dataclass
class Site:
    """What a cluster adds to the scripts."""

    partition: str = ""
    # Accelerator type as partners write it -> GRES name and type, e.g. {"H100-80GB": "gpu:h100"}.
    gres: dict = field(default_factory=dict)
    stage_command: str = ""  # a template with {location} and {name}
    deliver_command: str = ""  # a template with {name} and {destination}
    account: str = ""
    qos: str = ""


def load_site(raw, filename="site file"):
    """A site file (YAML, or TOML when it ends in .toml) -> Site; SpecReadError with one line
    naming the key otherwise. docs/job-format.md, "Site files", shows one."""
    text = decode(raw)
    if filename.endswith(".toml"):
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise SpecReadError(f"{filename} is not TOML: {error}.") from None
    else:
        try:
            documents = load_yaml_documents(text)
        except SpecReadError as error:
            raise SpecReadError(f"{filename}: {error}") from None
        data = documents[0] if len(documents) == 1 else None
    return site_from_data(data, filename)


def site_from_data(data, filename="site"):
    """Plain data (a site file's, or the API's "site") -> Site; SpecReadError naming the key."""
    if not isinstance(data, dict):
        raise SpecReadError(f"{filename}: write one mapping of {', '.join(SITE_KEYS)}.")
    unknown = [str(k) for k in data if k not in SITE_KEYS]
    if unknown:
        raise SpecReadError(
            f"{filename}: unknown key {unknown[0]!r}; a site file has {', '.join(SITE_KEYS)}."
        )
    site = Site()
    for key in ("partition", "account", "qos"):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or not SLURM_NAME.match(value):
            raise SpecReadError(f"{filename}: {key} {value!r} is not a Slurm name such as gpu.")
        setattr(site, key, value)
    gres = data.get("gres") or {}
    if not isinstance(gres, dict):
        raise SpecReadError(
            f"{filename}: gres maps accelerator types to GRES, e.g. H100-80GB: gpu:h100."
        )
    for accelerator, name in gres.items():
        if not isinstance(name, str) or not GRES_NAME.match(name):
            raise SpecReadError(
                f"{filename}: gres of {str(accelerator)[:100]!r}: {str(name)[:100]!r} is not a "
                "GRES such as gpu:h100."
            )
        if not str(accelerator).strip() or len(str(accelerator)) > 100:
            raise SpecReadError(
                f"{filename}: gres: {str(accelerator)[:100]!r} is no accelerator type."
            )
    site.gres = {str(k): v for k, v in gres.items()}
    for key in ("stage_command", "deliver_command"):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or "\n" in value.strip() or len(value) > 1000:
            raise SpecReadError(f"{filename}: {key} is one line of shell, at most 1000 characters.")
        setattr(site, key, value.strip())
    return site


@dataclass
class BatchScript:
    phase: str
    filename: str
    text: str
    after: str = ""  # the phase this one waits for (afterok)

    def as_dict(self):
        return {
            "phase": self.phase,
            "filename": self.filename,
            "text": self.text,
            "after": self.after,
        }


@dataclass
class SbatchExport:
    scripts: list
    notes: list
    # Names only the cluster knows and no site gave (sentences); also a comment in the scripts.
    to_set: list = field(default_factory=list)

    def script(self, phase):
        return next((s for s in self.scripts if s.phase == phase), None)

    def submit_script(self):
        lines = [
            "#!/bin/bash",
            "# Submits the chain; each job starts only after the one before it succeeded.",
            "# The scripts' dates are UTC, so sbatch reads them in UTC.",
            "set -euo pipefail",
            'cd "$(dirname "$0")"',
            "export TZ=UTC",
        ]
        for script in self.scripts:
            dependency = f" --dependency=afterok:${{{script.after}}}" if script.after else ""
            lines.append(f"{script.phase}=$(sbatch --parsable{dependency} {script.filename})")
        lines.append(
            'echo "submitted: ' + ", ".join(f"{s.phase} ${{{s.phase}}}" for s in self.scripts) + '"'
        )
        if self.to_set:
            lines.append("")
            lines.append("# Set first (the comment in the run script says where):")
            lines += [f"#  - {one_line(line)}" for line in self.to_set]
        if self.notes:
            lines.append("")
            lines.append("# What the description says that sbatch cannot carry:")
            lines += [f"#  - {one_line(note)}" for note in self.notes]
        return "\n".join(lines) + "\n"

    def as_dict(self):
        return {
            "scripts": [s.as_dict() for s in self.scripts],
            "submit": self.submit_script(),
            "notes": self.notes,
            "to_set": self.to_set,
        }

    def as_text(self):
        """Every file, one after the other, for a terminal."""
        parts = [f"# ==> {s.filename} <==\n{s.text}" for s in self.scripts]
        parts.append(f"# ==> submit.sh <==\n{self.submit_script()}")
        return "\n".join(parts)


def one_line(text):
    """A note as one comment line: a value with a line break cannot add a shell command."""
    return " ".join(str(text).split())


def slurm_time(seconds):
    """Seconds -> Slurm's D-HH:MM:SS (rounded up to the minute Slurm counts in)."""
    minutes = -(-int(seconds) // 60)
    days, rest = divmod(minutes * 60, 86400)
    hours, rest = divmod(rest, 3600)
    text = f"{hours:02d}:{rest // 60:02d}:00"
    return f"{days}-{text}" if days else text


def slurm_when(when):
    return when.value.strftime("%Y-%m-%dT%H:%M:%S")


def job_name(text):
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text or "").strip("-")[:120] or "e31-job"


def site_gres(site, accelerator_type):
    """The site's GRES for a type ('H100-80GB' -> 'gpu:h100'), whatever its case, or ''."""
    wanted = (accelerator_type or "").casefold()
    return next((g for t, g in (site.gres or {}).items() if wanted and t.casefold() == wanted), "")


def gres_for(accelerator_type, site):
    """'H100-80GB' -> 'gpu:h100' with the site's mapping, else 'gpu': a description's name
    for a model is no cluster's GRES type, and Slurm refuses a type it does not declare."""
    return site_gres(site, accelerator_type) or "gpu"


def _header(name, options):
    lines = ["#!/bin/bash", f"#SBATCH --job-name={name}"]
    lines += [f"#SBATCH --{key}={value}" if value is not None else f"#SBATCH --{key}"
              for key, value in options]  # fmt: skip
    return lines


def export(description: Description, site: Site | None = None) -> SbatchExport:
    site = site or Site()
    d = description
    notes = []
    name = job_name(d.name)
    common = [(key, getattr(site, key)) for key in ("partition", "account", "qos")
              if getattr(site, key)]  # fmt: skip
    if d.request.deadline and d.request.deadline.exact:
        common.append(("deadline", slurm_when(d.request.deadline)))

    inputs = [i for i in (d.data.inputs or []) if i.location]
    staging_job = bool(inputs) and d.data.stage_before_rent is True
    artifacts = [a for a in (d.output.artifacts or []) if a.destination]
    scripts = []

    if staging_job:
        body = ["# e31: copy the inputs near compute before accelerators are rented"]
        body += [_stage_line(site, i) for i in inputs]
        scripts.append(
            BatchScript(
                Phase.STAGING,
                "00-stage.sbatch",
                "\n".join(_header(f"{name}-stage", [*common, ("nodes", "1")]) + body) + "\n",
            )
        )

    run_options, run_notes, to_set = _run_options(d, site)
    notes += run_notes
    if not site.partition:
        to_set.append(
            "The partition: none is named, so Slurm's default partition runs the jobs; "
            "add --partition=<name> to choose one."
        )
    if inputs and not site.stage_command:
        to_set.append(
            "How inputs are copied near compute: export E31_STAGE_IN (the copy command, e.g. "
            "rclone copy) and E31_SCRATCH before submitting."
        )
    if artifacts and not site.deliver_command:
        to_set.append(
            "How outputs are delivered: export E31_DELIVER (the copy command) and E31_OUTPUT "
            "before submitting."
        )
    shown = " ".join((d.name or name).split())  # one line, whatever the name holds
    body = [f'# e31: exported from job "{shown}" (format version {d.version})']
    if to_set:
        body.append("# e31: names only your cluster knows, to set before submitting")
        body.append("# e31: (or export again for a registered cluster or with a site file):")
        body += [f"# e31:  - {one_line(line)}" for line in to_set]
    if inputs and not staging_job:
        body.append("# e31: the inputs are copied inside the allocation (accelerators held)")
        # One step per input, named so the agent reads the staging span from Slurm's records.
        body += [f"srun --ntasks-per-node=1 --job-name={STAGE_STEP} bash -c "
                 f"{shlex.quote(_stage_line(site, i))} || exit 1" for i in inputs]  # fmt: skip
    if d.work.shape == Shape.SHARDS:
        body.append(
            'export SHARD_INDEX="${SLURM_ARRAY_TASK_ID:-0}"'
            + (f" SHARD_COUNT={d.work.shards}" if d.work.shards else "")
        )
    if d.work.setup:
        body += [
            SETUP_MARK,
            f"srun --ntasks-per-node=1 bash -s <<'{SETUP_END}'",
            d.work.setup.rstrip("\n"),
            SETUP_END,
        ]
    body.append(COMMAND_MARK)
    body.append(
        d.work.command if d.work.command else "echo 'the description names no command' >&2; exit 2"
    )
    if not d.work.command:
        notes.append("The description names no command: the run script stops with an error.")
    scripts.append(
        BatchScript(
            Phase.RUN,
            "10-run.sbatch",
            "\n".join(_header(name, [*common, *run_options]) + body) + "\n",
            after=Phase.STAGING if staging_job else "",
        )
    )

    if artifacts:
        body = ["# e31: deliver the output once the run succeeded"]
        body += [_deliver_line(site, a) for a in artifacts]
        scripts.append(
            BatchScript(
                Phase.OUTPUT,
                "20-output.sbatch",
                "\n".join(_header(f"{name}-output", [*common, ("nodes", "1")]) + body) + "\n",
                after=Phase.RUN,
            )
        )
    notes += _unsaid(d, staging_job, artifacts)
    return SbatchExport(scripts, notes, to_set)


def _stage_line(site, data_input):
    template = site.stage_command or DEFAULT_STAGE
    # str.replace, not format: a site's shell template is full of ${...}.
    return template.replace("{location}", shlex.quote(data_input.location)).replace(
        "{name}", job_name(data_input.name or "input")
    )


def _deliver_line(site, artifact):
    template = site.deliver_command or DEFAULT_DELIVER
    return template.replace("{destination}", shlex.quote(artifact.destination)).replace(
        "{name}", job_name(artifact.name or "output")
    )


def _whole(value, what, notes):
    """Slurm counts whole CPUs and devices: a fraction is rounded up, with a note."""
    whole = math.ceil(value)
    if whole != value:
        notes.append(f"{what} {value:g}: Slurm allocates whole ones, so {whole}.")
    return whole


def _run_options(d, site):
    r, w, notes, options, to_set = d.request, d.work, [], [], []
    if w.shape == Shape.SHARDS:
        per_shard = w.nodes_per_shard or 1
        limit = r.nodes // per_shard if r.nodes else None
        if w.shards:
            options.append(("array", f"0-{w.shards - 1}" + (f"%{limit}" if limit else "")))
        else:
            notes.append("shape is shards but the number of shards is not declared: no --array.")
        if per_shard > 1:
            options.append(("nodes", str(per_shard)))
        notes.append(
            f"Each shard runs on {per_shard} node{'s' if per_shard != 1 else ''}"
            + (f", at most {limit} shards at once." if limit else ".")
        )
        if r.min_nodes:
            notes.append(
                f"min_nodes {r.min_nodes}: an array has no minimum number of shards running at once."
            )
    else:
        if w.shape == Shape.CHAIN and w.chain_runs:
            # One run after another (%1); each resumes from the last checkpoint.
            options.append(("array", f"0-{w.chain_runs - 1}%1"))
        if r.nodes:
            low = r.min_nodes if r.min_nodes and r.min_nodes < r.nodes else None
            options.append(("nodes", f"{low}-{r.nodes}" if low else str(r.nodes)))
    accelerators = [] if r.no_accelerators else (r.accelerators or [])
    accelerators = [a for a in accelerators if a.type or a.count]
    if accelerators:
        # The first choice this site has a GRES for, else the team's first choice.
        chosen = next((a for a in accelerators if site_gres(site, a.type)), accelerators[0])
        gres = gres_for(chosen.type, site)
        count = _whole(chosen.count or 1, f"{chosen.type or 'accelerator'} count", notes)
        options.append(("gres", f"{gres}:{count}"))
        if site_gres(site, chosen.type):
            notes.append(f"{chosen.type} runs as GRES {gres} on this cluster.")
            if chosen is not accelerators[0]:
                notes.append(
                    f"Runs on {chosen.type}, the team's choice number "
                    f"{accelerators.index(chosen) + 1}: the cluster has no GRES for the others."
                )
        elif chosen.type:
            to_set.append(
                f"The GRES type of {chosen.type}: --gres={gres}:{count} takes any {count} GPU"
                f"{'s' if count != 1 else ''} of a node; write --gres=gpu:<type>:{count} with this "
                'cluster\'s name for the model (sinfo -o "%P %G" lists them).'
            )
        others = [a for a in accelerators if a is not chosen]
        if others:
            listed = ", ".join(f"{a.count or '?'} × {a.type or '?'}" for a in others)
            notes.append(f"Alternative accelerators ({listed}): one sbatch job asks for one kind.")
    features = [f for f in r.node_features or [] if FEATURE_NAME.match(f)]
    if features:
        options.append(("constraint", "&".join(features)))
    for odd in [f for f in r.node_features or [] if not FEATURE_NAME.match(f)]:
        notes.append(f"Node feature “{odd[:100]}” is no Slurm feature name: not in --constraint.")
    if r.instance_type:
        notes.append(f"instance_type {r.instance_type}: a cloud's name, not a Slurm option.")
    if r.cpus_per_node:
        cpus = _whole(r.cpus_per_node, "cpus_per_node", notes)
        options += [("ntasks-per-node", "1"), ("cpus-per-task", str(cpus))]
    if r.memory_per_node and r.memory_per_node.exact:
        options.append(("mem", f"{-(-r.memory_per_node.bytes // 2**20)}M"))
    if d.data.scratch and d.data.scratch.exact:
        options.append(("tmp", f"{-(-d.data.scratch.bytes // 2**20)}M"))
    if r.maximum and r.maximum.exact:
        options.append(("time", slurm_time(r.maximum.seconds)))
    if r.earliest_start and r.earliest_start.exact:
        options.append(("begin", slurm_when(r.earliest_start)))
    if r.preemptible is True:
        options.append(("requeue", None))
    elif r.preemptible is False:
        options.append(("no-requeue", None))
    return options, notes, to_set


def _unsaid(d, staging_job, artifacts):
    r, notes = d.request, []
    if r.estimate:
        notes.append(f"estimate {r.estimate}: Slurm knows only the hard limit (--time).")
    if r.until_done:
        notes.append("until_done: the job runs until its work is done, within --time.")
    if r.less_compute and r.less_compute != LessCompute.FEWER_NODES:
        notes.append(f"less_compute {r.less_compute}: not a Slurm option.")
    if r.on_deadline_missed:
        notes.append(
            f"on_deadline_missed {r.on_deadline_missed}: Slurm removes a job that cannot end "
            "before --deadline."
        )
    if r.checkpoint_interval or r.checkpoint_location:
        notes.append("Checkpointing (interval, location) is the job's own business in Slurm.")
    if r.retries is not None:
        notes.append(f"retries {r.retries}: Slurm requeues on preemption, not after a failure.")
    if r.expected_accelerator_hours is not None:
        notes.append(
            f"expected_accelerator_hours {r.expected_accelerator_hours:g}: kept by the portal's ledger."
        )
    if d.work.image:
        notes.append(
            f"image {d.work.image}: run the command inside it (e.g. with your site's container runtime)."
        )
    if d.work.depends_on:
        notes.append(
            f"depends_on {', '.join(d.work.depends_on)}: name those jobs' ids in --dependency."
        )
    for i in d.data.inputs or []:
        if i.size and i.size.exact:
            notes.append(f"input {i.name or i.location}: {format_size(i.size.bytes)} to stage.")
    if d.data.inputs and not staging_job and d.data.stage_before_rent is not False:
        notes.append(
            "stage_before_rent is not declared: the inputs are copied inside the run's allocation."
        )
    if d.output.artifacts and not artifacts:
        notes.append("No artifact names a destination: no output delivery job.")
    if d.output.delivery and d.output.delivery != "on_exit":
        notes.append(
            f"delivery {d.output.delivery}: the delivery job runs once, after the run succeeded."
        )
    if d.output.retention:
        notes.append(f"retention {d.output.retention}: kept by the destination, not by Slurm.")
    if d.realtime.start_delay:
        notes.append(f"start_delay {d.realtime.start_delay}: Slurm has no limit on queueing time.")
    return notes
