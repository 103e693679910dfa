"""SkyPilot task YAML -> descriptions. Fills only what the file says, read as SkyPilot reads it.

A multi-document file is a pipeline (stages one after another) or, with a header saying
`execution: parallel`, a job group (tasks that run together). A leading document with
no task keys is that header. Mounts are sorted by how the job uses them (mounts.py),
`envs` are expanded into locations (envs.py), and what the format has no place for is
kept in notes, never dropped."""

import posixpath
import re

from . import commands, mounts
from .envs import Variables, script_variables
from .instances import accelerators_of_instance, is_cpu_instance
from .mounts import HIDDEN, NOT_SECRET_WORDS, SECRET_WORDS, hides, secret_name  # noqa: F401 (names kept here)
from .realtime import ends_serving, publishes_server
from .sbatch import gpu_hint, kind_of, slurm_minutes_to_duration
from .units import UnitError, format_duration, format_size, parse_size

MODE_TO_ACCESS = {"COPY": "copy_before_start", "MOUNT": "stream", "MOUNT_CACHED": "cached_mount"}
TASK_KEYS = {
    "run", "setup", "resources", "num_nodes", "file_mounts", "workdir", "envs", "service",
    "inputs", "outputs", "secrets", "pool", "config", "event_callback", "volumes",
}  # fmt: skip
# Task keys read below; any other key is kept as a note.
HANDLED = TASK_KEYS | {"name", "min_nodes", "job_recovery"}
RESOURCE_KEYS = {
    "accelerators", "cpus", "memory", "disk_size", "instance_type", "use_spot", "job_recovery",
    "image_id", "ports", "ordered", "any_of", "candidates", "min_nodes", "spot_recovery",
}  # fmt: skip
STORES = {"gcs": "gs", "s3": "s3", "r2": "r2", "azure": "az", "oci": "oci", "ibm": "cos"}
# The registry login SkyPilot runs before pulling a private image_id: the user name and the
# server go with the password as one credential set.
REGISTRY_LOGIN = {"SKYPILOT_DOCKER_USERNAME", "SKYPILOT_DOCKER_PASSWORD", "SKYPILOT_DOCKER_SERVER"}


# A settings file's line giving a key from the environment (`aws_access_key_id = ${AWS_…}` in
# the text written to ~/.aws/credentials): spaces around `=` make it a file's line, not the
# shell's assignment.
KEY_SETTING = re.compile(
    r"^[ \t]*[\w.-]+[ \t]+=[ \t]*[\"']?\$\{?([A-Za-z_]\w*)\}?[\"']?[ \t]*$", re.M
)


def _mounted_key_paths(task, variables, keys):
    """Where key files the task mounts land on the node (`/tmp/gcp-creds.json:
    credentials/sa.json`): a variable set to one of these paths
    (`GOOGLE_APPLICATION_CREDENTIALS: /tmp/gcp-creds.json`) tells the program where that
    same key is, not a second secret."""
    section = task.get("file_mounts")
    if not isinstance(section, dict) or not keys:
        return set()
    return {
        variables.expand(str(point), record=False)
        for point, source in section.items()
        if isinstance(source, str) and source in keys
    }


def _keys_written(script, variables):
    """Secret-named variables the commands write into a settings file, which the file gives no
    value: keys passed from the launching machine (`--secret AWS_ACCESS_KEY_ID`)."""
    names = KEY_SETTING.findall(script or "") if "=" in (script or "") else []
    return [n for n in names if secret_name(n) and n not in variables.values]


def looks_like_skypilot(documents):
    return any(isinstance(d, dict) and TASK_KEYS & set(d) for d in documents)


def import_documents(documents, text=""):
    tasks = [d for d in documents if isinstance(d, dict)]
    header = {}
    if len(tasks) > 1 and not (TASK_KEYS & set(tasks[0])):
        header, tasks = tasks[0], tasks[1:]
    group = header.get("name")
    parallel = str(header.get("execution", "")).lower() == "parallel"
    primary = header.get("primary_tasks") if isinstance(header.get("primary_tasks"), list) else None
    results = []
    for index, task in enumerate(tasks):
        auxiliary = bool(primary) and task.get("name") not in primary
        data, notes = task_to_data(task, auxiliary=auxiliary, text=text)
        if len(tasks) > 1 or group:
            # (a named pipeline of one task is still that pipeline's stage)
            stage = data.get("name") or f"stage-{index + 1}"
            data["name"] = f"{group}/{stage}" if group else stage
        results.append((data, notes))
    names = [data.get("name") for data, _ in results]
    for index, (data, notes) in enumerate(results):
        if len(results) < 2:
            break
        work = data.setdefault("work", {})
        if parallel:
            work["runs_with"] = [n for i, n in enumerate(names) if i != index]
            notes.append("execution: parallel: the tasks of this job group start and run together.")
        elif index:
            work["depends_on"] = [names[index - 1]]
    for key in sorted(set(header) - {"name", "execution", "primary_tasks"}):
        for _, notes in results:
            notes.append(f"{key} (job group header): not represented in the format.")
    return results


def _accelerator_list(value):
    """'A100:8', 'L4:0.5', 'V100', {H100: 8, H200: 8}, ['A100:8', 'H100:8'] -> [{type, count}]."""
    out = []
    if _number(value) and not isinstance(value, (bool, float)) and "." not in str(value):
        # A bare count (`gpus: 1`, `accelerators: "2"`): that many accelerators per node, of a
        # model the file does not name (a name is never all digits); the type is left to ask.
        return [{"count": int(_number(value))}]
    if isinstance(value, str):
        value = [v.strip() for v in value.strip("{}[] ").split(",")] if "," in value else [value]
    if isinstance(value, dict):
        value = [f"{k}:{v}" if v is not None else str(k) for k, v in value.items()]
    for item in value if isinstance(value, list) else []:
        if isinstance(item, dict):
            out += _accelerator_list(item)
            continue
        name, _, count = str(item).strip("{} ").partition(":")
        if not name.strip() or name.strip().startswith("$"):
            continue  # (a variable: the accelerator is given at launch)
        entry = {"type": _catalog_case(name.strip())}
        number = _number(count) if count.strip() else 1  # SkyPilot: a bare name means one
        if number:
            entry["count"] = number
        out.append(entry)
    return out


# A GPU model written all in lower case (`h100`, `a100-80gb`, `l40s`): SkyPilot matches names
# without regard to case and runs the catalog's, which spells GPU models in capitals. TPU names
# (`tpu-v5e-8`) are lower case in the catalog and stay as written; so does a mixed spelling.
LOWER_GPU = re.compile(r"(?:[a-z]{1,3}\d{1,4}[a-z]{0,2}|rtx[a-z]*\d+\w*)(?:-\d+gb)?(?:-sxm|-pcie)?")


def _catalog_case(name):
    return name.upper() if LOWER_GPU.fullmatch(name) else name


def _number(text):
    match = re.fullmatch(r"\s*([0-9]{1,7}(?:\.[0-9]{1,6})?)\s*", str(text))
    if not match:
        return None
    value = float(match.group(1))
    return int(value) if value.is_integer() else value


def _resources(resources, notes):
    """Resource dicts in order of preference (ordered / any_of / the base)."""
    if isinstance(resources, list):
        resources = {"any_of": resources}
    if not isinstance(resources, dict):
        return []
    if (
        isinstance(resources.get("options"), list)
        and not any(k in resources for k in ("ordered", "any_of", "candidates"))
        and any(isinstance(r, dict) and RESOURCE_KEYS & set(r) for r in resources["options"])
    ):
        # SkyPilot Benchmark's first spelling of `candidates` (`options:`, a list of resource
        # settings each tried by `sky bench launch`), read the same way.
        spelling = "options"
        resources = {("candidates" if k == "options" else k): v for k, v in resources.items()}
    else:
        spelling = "candidates"
    lists = ("ordered", "any_of", "candidates")
    base = _aliased({k: v for k, v in resources.items() if k not in lists})
    if isinstance(resources.get("ordered"), list):
        notes.append("resources.ordered: the choices are tried in the order written.")
        choices = [r for r in resources["ordered"] if isinstance(r, dict)]
        return [{**base, **_aliased(r)} for r in choices] or [base]
    if isinstance(resources.get("candidates"), list) and "any_of" not in resources:
        # SkyPilot Benchmark's older spelling of resource choices (`sky bench launch` runs the
        # task on each to compare them): choices in the order written, as `ordered` is.
        notes.append(
            f"resources.{spelling}: SkyPilot Benchmark's choices (`sky bench` runs the task on "
            "each to compare them); read as choices in the order written."
        )
        choices = [r for r in resources["candidates"] if isinstance(r, dict)]
        return [{**base, **_aliased(r)} for r in choices] or [base]
    if isinstance(resources.get("any_of"), list):
        notes.append("resources.any_of: the choices are alternatives with no order of preference.")
        choices = [r for r in resources["any_of"] if isinstance(r, dict)]
        return [{**base, **_aliased(r)} for r in choices] or [base]
    return [base]


def _aliased(resources):
    """SkyPilot takes `gpus:` for `accelerators:` (sky/resources.py RESOURCE_CONFIG_ALIASES)."""
    if "gpus" in resources and "accelerators" not in resources:
        resources = {("accelerators" if k == "gpus" else k): v for k, v in resources.items()}
    return resources


def _size_gb(value):
    """SkyPilot's inputs/outputs sizes are in GB; None when no job could be that large."""
    try:
        return format_size(int(value * 10**9))
    except (UnitError, OverflowError, ValueError):
        return None


def _amount(value):
    """'1TB+', '32+', 256, '2TB', '64Gi' -> ('1 TiB', at_least), or (None, False) when it is
    not a size. SkyPilot's memory and disk_size units are powers of 1024 whether written KB
    or Ki ("GB (gigabytes, 2^30 bytes) (default if not specified)", SkyPilot YAML reference;
    sky/skylet/constants.py MEMORY_SIZE_UNITS): a bare number is GiB."""
    match = re.fullmatch(
        r"\s*([0-9]{1,9}(?:\.[0-9]{1,6})?)\s*(?:([KMGTP])(?:i?B|i)?)?\s*(\+?)\s*",
        str(value),
        flags=re.IGNORECASE,
    )
    if not match:
        return None, False
    unit = f"{(match.group(2) or 'G').upper()}iB"
    try:
        parse_size(f"{match.group(1)} {unit}")
    except UnitError:
        return None, False
    return f"{match.group(1)} {unit}", bool(match.group(3))


def _cpus(value):
    match = re.fullmatch(r"\s*([0-9]{1,6}(?:\.[0-9]{1,3})?)\s*(\+?)\s*", str(value))
    if not match:
        return None, False
    number = float(match.group(1))
    if number <= 0:
        return None, False
    return (int(number) if number.is_integer() else number), bool(match.group(2))


# A value left for the user to fill in (`<your-bucket-name>`, `<BUCKET>`).
TO_FILL = re.compile(r"<[\w .-]+>")


def _location(spec, variables):
    """A file_mounts value -> (location the job sees, where the data is now, mode, new bucket)."""
    if isinstance(spec, str):
        where = variables.expand(spec)
        return where, where, "COPY", False
    if not isinstance(spec, dict):
        return None, None, "", False
    source = spec.get("source")
    if isinstance(source, list):
        source = ", ".join(str(s) for s in source)
    source = variables.expand(str(source)) if source else None
    name = variables.expand(str(spec["name"])) if spec.get("name") else None
    store = variables.expand(str(spec.get("store") or "bucket"))
    store = STORES.get(store.lower(), store)
    bucket = f"{store}://{name}" if name else None
    mode = str(spec.get("mode") or "MOUNT").upper()
    return bucket or source, source or bucket, mode, bool(name and not source)


def _mounts(task, variables, script, notes, serves=False):
    """file_mounts, workdir and volumes -> the parts of the description they belong to."""
    found = {"inputs": [], "artifacts": [], "checkpoints": [], "credentials": [], "code": []}
    found["unclear"] = []
    # Declarations are listed in the order the file gives them (workdir, file_mounts and
    # volumes in any order), as an engineer reading it down the page would number them.
    entries = []
    for key in [k for k in task if k in ("workdir", "file_mounts", "volumes")]:
        if key == "workdir":
            entries.append(("workdir", None, task["workdir"]))
        elif key == "file_mounts":
            for target, spec in _mapping(task, "file_mounts", notes).items():
                entries.append(("file_mounts", variables.expand(str(target)), spec))
        elif isinstance(task["volumes"], dict):
            for target, spec in task["volumes"].items():
                name = spec.get("name") if isinstance(spec, dict) else spec
                entries.append(("volumes", variables.expand(str(target)), {"volume": str(name)}))
        elif task["volumes"]:
            notes.append("volumes: a form the portal does not read; listed here as written.")
    placed = {}  # (use, location) -> the first mount path it was listed under
    for section, target, spec in entries:
        if section == "workdir":
            if isinstance(spec, str):
                found["code"].append(variables.expand(spec))
            elif isinstance(spec, dict) and spec.get("url"):
                ref = f"@{spec['ref']}" if spec.get("ref") else ""
                found["code"].append(f"{variables.expand(str(spec['url']))}{ref}")
            continue
        if isinstance(spec, dict) and (
            spec.get("force_managed") or spec.get("persistent") is False
        ):
            # How long the bucket lives, which the format has no place for: SkyPilot takes an
            # existing bucket over (`sky storage delete` then deletes it), or deletes a bucket it
            # made when the task's cluster goes.
            life = (
                "force_managed (SkyPilot manages this existing bucket: `sky storage delete` deletes it)"
                if spec.get("force_managed")
                else "persistent false (the bucket is deleted when the task's cluster goes)"
            )
            notes.append(f"file_mounts {target}: {life}.")
        if isinstance(spec, dict) and "volume" in spec:
            seen = now = f"volume://{variables.expand(spec['volume'])}"
            mode, new = "MOUNT", False
        else:
            seen, now, mode, new = _location(spec, variables)
        if not seen:
            verdict = mounts.classify(target, "", script=script, new_bucket=True)
            notes.append(
                f"{section} {target}: a bucket whose name the file leaves blank ({verdict.use}); "
                "say which bucket."
            )
            continue
        if TO_FILL.fullmatch(seen):
            # A template's blank left for the user to fill (`source: <your-bucket-name>`) names no place.
            notes.append(
                f"{section} {target}: {seen} is a template's blank; say where it comes from."
            )
            continue
        verdict = mounts.classify(
            target,
            now or "",
            script=script,
            aliases=variables.aliases_of(target),
            new_bucket=new,
            copied=mode == "COPY",
            serves=serves,
        )
        use = verdict.use
        if use == mounts.Use.UNCLEAR and (named := _bucket_variable(spec)):
            # (`/data: {source: $DATA_BUCKET}`, `/output: {source: $OUTPUT_BUCKET}`: the bucket
            # is given by a variable named for what the job does with it, as BUCKET_ENV reads
            # the envs)
            use = mounts.Use.READ if named.group("reads") else mounts.Use.WRITTEN
            verdict = mounts.Verdict(use, "the variable giving its bucket is named for it")
        if use in (mounts.Use.CODE, mounts.Use.READ) and _workdir_copy(
            task.get("workdir"), target, now
        ):
            # (`~/sky_workdir/scripts/x.sh: ./scripts/x.sh` beside `workdir: .`: the workdir's
            # own file sent to where the workdir puts it; one source, one entry)
            notes.append(f"{section} {target}: a file of the workdir, at its place there.")
            continue
        # A bucket named with a local source: SkyPilot uploads the folder into that bucket and
        # mounts the bucket, so the job reads the bucket (the folder is where it came from).
        uploaded = seen != now and mounts.is_local(now) and "://" in (seen or "")
        read_from = seen if uploaded else now
        # One source mounted at several paths is one thing the job reads or writes: it is
        # listed once, under its first mount path, and the other paths are named in a note.
        where = {mounts.Use.READ: read_from, mounts.Use.UNCLEAR: seen}.get(use, seen)
        if (use, where) in placed and use not in (mounts.Use.CREDENTIAL, mounts.Use.CODE):
            notes.append(f"{section} {target}: {where} again, as at {placed[(use, where)]}.")
            continue
        placed.setdefault((use, where), target)
        if use == mounts.Use.READ:
            item = {"name": target, "location": read_from}
            if mode in MODE_TO_ACCESS:
                item["access"] = MODE_TO_ACCESS[mode]
            found["inputs"].append(item)
            if uploaded:
                notes.append(
                    f"{section} {target}: {now} is uploaded to {seen} before the job starts."
                )
        elif use == mounts.Use.WRITTEN and _download_kept(target, script, variables):
            # The bucket keeps a copy of what the commands download and then read: the
            # download's source is the input (read from the commands), the mount its staging.
            notes.append(
                f"{section} {target} ({seen}): keeps a copy of what the commands download, "
                "which they then read; the download's source is the input."
            )
            continue
        elif use in (mounts.Use.WRITTEN, mounts.Use.CHECKPOINT) and (
            isinstance(spec, dict) and spec.get("persistent") is False
        ):
            # What the commands write there goes with the bucket when the cluster goes: a
            # scratch place while the job runs, nothing the job leaves.
            notes.append(
                f"{section} {target} ({seen}): {use}, but only while the cluster lives "
                "(persistent false): temporary, not an output the job leaves."
            )
            continue
        elif use == mounts.Use.WRITTEN:
            found["artifacts"].append({"name": target, "destination": seen})
            if now != seen:
                notes.append(
                    f"{section} {target}: {now} is uploaded to {seen} before the job starts."
                )
        elif use == mounts.Use.CHECKPOINT:
            found["checkpoints"].append(seen)
        elif use == mounts.Use.CREDENTIAL:
            # A key sent from the launching machine is named by the file the user supplies
            # (`/app/.env: .env` ships `.env`); one kept in a bucket by where the job finds it.
            found["credentials"].append(now if mounts.is_local(now) else target)
        elif use == mounts.Use.CONFIG:
            notes.append(f"{section} {target}: the user's own settings ({verdict.reason}).")
            continue
        elif use == mounts.Use.CODE and _unnamed_settings(
            target, now, f"{script}\n{variables.expand(script or '', record=False)}"
        ):
            notes.append(
                f"{section} {target}: a settings file sent from {now} that no command names "
                "(what the run reads is given elsewhere); say whether it uses it."
            )
            continue
        elif use == mounts.Use.CODE:
            found["code"].append(now)
        else:
            found["unclear"].append(f"{target} -> {seen}"[:300])
            notes.append(
                f"{section} {target} ({seen}): not clear whether the job reads it or writes it; "
                "say which."
            )
            continue
        notes.append(f"{section} {target}: {use} ({verdict.reason}).")
    return found


def _bucket_variable(spec):
    """The BUCKET_ENV match of a mount's source given by one variable (`source: $DATA_BUCKET`,
    `${OUTPUT_BUCKET}`), or None."""
    source = spec.get("source") if isinstance(spec, dict) else spec
    alone = re.fullmatch(r"\$\{?(\w{1,60})\}?/?", str(source or "").strip())
    return BUCKET_ENV.match(alone.group(1)) if alone else None


# Where SkyPilot puts the workdir on the node (`~/sky_workdir`, `/home/gcpuser/sky_workdir`).
WORKDIR_ON_NODE = re.compile(r"^(?:~|\$HOME|/home/[\w.-]{1,64}|/root)/sky_workdir/")


def _workdir_copy(workdir, target, local):
    """A file mount that sends a script of the local workdir to the place the workdir puts it
    on the node (`~/sky_workdir/src/a.py: ./src/a.py` with `workdir: .`): the workdir itself,
    not another thing the job is given. (Weights sent there are still read, and a folder is
    kept as the task lists it.)"""
    if not isinstance(workdir, str) or not workdir or not target or not local:
        return False
    if not mounts.is_local(local) or not WORKDIR_ON_NODE.match(target):
        return False
    inside = WORKDIR_ON_NODE.sub("", target).strip("/")
    expected = posixpath.normpath(posixpath.join(workdir, inside))
    return bool(SCRIPT_FILE.search(inside)) and posixpath.normpath(local.rstrip("/")) == expected


# A program's file by its kind (not weights, data or a folder the task may send on purpose).
SCRIPT_FILE = re.compile(r"\.(?:sh|bash|py|R|jl|js|ts)$")


def _download_kept(target, script, variables):
    """A mount the commands write only by downloading into it, and read from after."""
    aliases = [*variables.aliases_of(target), *mounts.script_aliases(script, target)]
    return mounts.only_fetched_into(script, target, aliases) and mounts.reads_from(
        script, target, aliases
    )


# A settings file by its kind: what a program is told to read, not a program.
SETTINGS_FILE = re.compile(r"\.(?:ya?ml|json|toml|ini|cfg|conf)$", re.IGNORECASE)


def _unnamed_settings(target, local, script):
    """A settings file sent from the launching machine (`/app/configs/a.yaml: ./configs/a.yaml`)
    that no command names, by its path or its file name: the run reads the settings it is told
    to (`--config_path ${CONFIG}`, given at launch), so this one is neither its code nor data."""
    if not target or not SETTINGS_FILE.search(target) or not SETTINGS_FILE.search(local or ""):
        return False
    names = {target.rstrip("/").rsplit("/", 1)[-1], str(local).rstrip("/").rsplit("/", 1)[-1]}
    return not any(name and name in (script or "") for name in names)


# A file fetched from a GitHub repository at a ref: owner, repository, ref.
RAW_GITHUB = re.compile(
    r"https://raw\.githubusercontent\.com/([\w.-]+)/([\w.-]+)/((?:refs/(?:heads|tags)/)?[\w.-]+)/"
    r"((?:[\w.-]+/)*)"  # (the folder of the file fetched, in the repository)
)
RAW_GITHUB_URL = re.compile(r"https://raw\.githubusercontent\.com/\S*")


def _fetched_from_its_repository(script, run):
    """A task that fetches its setup from a GitHub repository at a ref and then runs a program
    from a folder named for that repository (`…/Metta-AI/metta/main/setup.sh`, then
    `/workspace/metta/run.sh`), or one at the place in the repository the fetched files come
    from, runs that repository's code at that ref."""
    # (the fetched URL itself names the repository: a folder is looked for elsewhere in the run)
    elsewhere = RAW_GITHUB_URL.sub(" ", run or "")
    for owner, repo, ref, folder in RAW_GITHUB.findall(script):
        # …or a program at the same place in the repository as the files fetched from it
        # (`…/main/devops/recipes/init_run.py`, then `uv run ./devops/recipes/run.py`)
        beside = folder and re.search(
            rf"(?:^|[\s=])(?:\./)?{re.escape(folder)}[\w.-]+", elsewhere, flags=re.MULTILINE
        )
        if re.search(rf"/{re.escape(repo)}/", elsewhere) or beside:
            return [
                f"https://github.com/{owner}/{repo}@{re.sub(r'^refs/(?:heads|tags)/', '', ref)}"
            ]
    return []


# `cd /abs/folder` (then `cd sub`), and a program started by a path relative to it
# (`torchrun … train.py`, `python -m`, `bash run.sh`): the run's code is in that folder.
CD_LINE = re.compile(r"^\s*cd\s+[\"']?([~/]?[\w./-]+)[\"']?\s*(?:[;&#]|$)")
RELATIVE_PROGRAM = re.compile(r"(?:^|\s)(?![/~$])[\w.-]+(?:/[\w.-]+)*\.(?:py|sh)(?=\s|$)")


def _started_from(run, task):
    """The folder a task with no workdir, clone or image changes into and starts its program
    from (`cd /mnt/data/u/proj`, then `torchrun … train.py`), when it is an absolute folder
    that no mount declares (a mounted folder is that mount's), not a container's own folder,
    and the program is named by a path relative to it: the run's code. Only the first such
    program counts."""
    points = [str(k).rstrip("/") for k in _mapping(task, "file_mounts", []) or {}]
    folder = None
    for line in (run or "").splitlines():
        cd = CD_LINE.match(line)
        if cd:
            place = cd.group(1)
            if place.startswith(("/", "~")):
                folder = place.rstrip("/")
            elif folder and ".." not in place and not place.startswith("."):
                folder = f"{folder}/{place.rstrip('/')}"
            else:
                folder = None
            continue
        if folder and not line.lstrip().startswith("#") and RELATIVE_PROGRAM.search(line):
            if (
                folder == "~"
                or commands.NODE_LOCAL.match(folder)  # (the node's own scratch disk)
                # (a container's own folders, `/app`, `/workspace`: an image SkyPilot is not told
                # of may hold the code there; where it comes from is not said)
                or commands.IMAGE_FOLDERS.match(folder)
                or any(folder == p or folder.startswith(p + "/") for p in points)
            ):
                return []
            return [folder]
    return []


def _mapping(task, key, notes):
    """A section SkyPilot takes as a mapping (file_mounts, inputs, outputs); another shape
    (a list, a string) is named in a note, not read."""
    value = task.get(key)
    if value and not isinstance(value, dict):
        shape = "remote path: source" if key == "file_mounts" else "location: size in GB"
        notes.append(
            f"{key}: written as a {type(value).__name__}, not as SkyPilot takes it (a mapping, "
            f"{shape}); not read, kept in the original text."
        )
    return value if isinstance(value, dict) else {}


def _script_locations(script, inputs, artifacts, checkpoints, created=()):
    """Buckets the commands name outright, beyond the mounts (`--output-dir s3://…`); not a
    read from a bucket the task creates (`created`: what the job wrote there)."""
    known = {i.get("location") for i in inputs} | {a.get("destination") for a in artifacts}
    known |= set(checkpoints)
    reads, writes = mounts.script_locations(script)
    for uri in writes:
        if uri not in known:
            artifacts.append({"destination": uri})
            known.add(uri)
    for uri in reads:
        if uri not in known and not commands.read_back(uri, created):
            inputs.append({"location": uri})
            known.add(uri)


# Envs naming the bucket the program itself reads its model or data from, or writes its results
# to (the program gets the name from the environment; no mount or command names it).
BUCKET_ENV = re.compile(
    r"^(?:(?P<reads>MODELS?|DATA|DATASETS?|INPUTS?|WEIGHTS)|(?P<writes>OUTPUTS?|RESULTS?|"
    r"ARTIFACTS?))_BUCKET(?:_NAME)?$",
    re.IGNORECASE,
)
BUCKET_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{1,62}")
# A value left for the user to fill in names no bucket.
UNFILLED = re.compile(r"fill|todo|your|change|xxx|example|<|\{", re.IGNORECASE)
# Where an S3-compatible store is, when it is not AWS (Tigris, R2, MinIO).
ENDPOINT_ENVS = ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "S3_ENDPOINT_URL")


# An env naming the model or dataset the task's program loads (`MODEL_NAME`, `MODEL_ID`,
# `EMBEDDING_MODEL_NAME`, `DATASET`); not one it makes (`HF_UPLOAD_MODEL_NAME`, `OUTPUT_MODEL`).
MODEL_ENV = re.compile(
    r"^(?!.*(?:UPLOAD|OUTPUT|SAVE|PUSH|HUB|EXPORT|TARGET|DEST|MERGED|FINAL|TRAINED|NEW|SERVED))"
    r"(?:\w+_)?(?P<kind>MODEL|DATASET)(?:_NAME|_ID|_PATH|_NAME_OR_PATH|_REPO)?$",
    re.IGNORECASE,
)


def _env_models(envs, variables, data, output, notes, script="", commented=frozenset()):
    """A Hub model or dataset named in envs is what the program loads, used in the commands or
    read from its environment; not when envs also name a bucket holding the model (the name is
    then its path in that bucket), nor when the job only writes to it (an uploader's repository,
    named by no other command)."""
    if any(BUCKET_ENV.match(str(k)) for k in envs):
        return
    stated = {i.get("location") for i in data.get("inputs") or []}
    written = {a.get("destination") for a in output.get("artifacts") or []}
    for name, value, match in _env_model_values(envs, variables):
        if (
            not commands.HF_ID.fullmatch(value)
            or value.split("/")[0] in commands.LOCAL_FOLDERS
            or UNFILLED.search(value)  # left for the reader to fill in (`your-org/your-model`)
        ):
            continue
        kind = "datasets/" if match.group("kind").upper() == "DATASET" else ""
        location = f"hf://{kind}{value}"
        if location in stated or (location in written and not _read_by_commands(name, script)):
            continue
        if name in commented and name not in (script or ""):
            # The file shows where the env is used, in commands it has commented out
            # (`# python merge.py --base ${REF_MODEL}`): the job as written does not use it.
            notes.append(f"envs {name}: {value}, used only in commands commented out.")
            continue
        if script and _named_only_to_remote_api(name, script):
            notes.append(
                f"envs {name}: {value}, handed only to a client of a model server elsewhere "
                "(with the server's address): the model it answers for, not loaded here."
            )
            continue
        if not _environment_read(name, script):
            # Commands that start no program of the job's own (only inline Python, a print,
            # a sleep), never name the env, nor look into their environment: set, never used.
            notes.append(f"envs {name}: {value}, set and never used by the commands.")
            continue
        data.setdefault("inputs", []).append({"location": location})
        stated.add(location)
        if data.pop("no_inputs", None):
            # The commands looked as if they read nothing; the program loads this model.
            notes[:] = [n for n in notes if not n.startswith("Reads no data")]
        notes.append(f"data.inputs: {location} (read from envs {name}: {value}).")


# A folder or file in envs named for a model or the data (MODEL_PATH, LCB_DATA_DIR, DATA_ROOT).
PATH_ENV = re.compile(
    r"^(?!(?:SM|AIP)_MODEL_DIR$)"  # (SageMaker's and Vertex AI's folder for the trained model)
    r"(?!.*(?:UPLOAD|OUTPUT|SAVE|PUSH|EXPORT|TARGET|DEST|MERGED|FINAL|TRAINED|NEW|CACHE|TMP))"
    r"(?:\w+_)?(?:MODEL|DATA|DATASET)_(?:PATH|DIR|ROOT)$",
    re.IGNORECASE,
)


def _mount_points(task):
    points = []
    for key in ("file_mounts", "volumes"):
        section = task.get(key)
        for entry in section if isinstance(section, list) else [section]:
            points += [str(k).rstrip("/") for k in entry] if isinstance(entry, dict) else []
    return points


def _env_paths(envs, variables, data, output, notes, script="", under=()):
    """A path in envs named for the model or the data (`MODEL_PATH: /hai/models/Qwen3-8B`)
    that the commands export as it is (`export MODEL_PATH` before the training script) is
    what that script loads from its environment, when the commands give it no other reading
    (handed to an option, a place they write, make or copy into: staging, not an input)."""
    script = script or ""
    stated = [str(i.get("location", "")).rstrip("/") for i in data.get("inputs") or []]
    stated += [str(a.get("destination", "")).rstrip("/") for a in output.get("artifacts") or []]
    stated += [str(u).split(" -> ")[0].rstrip("/") for u in data.get("unclassified") or []]
    places = [p for p in stated + list(under) if p]
    exported, made = _exported_and_made(script)
    found = []
    for name, value in envs.items():
        name = str(name)
        if name not in exported or name in made or not PATH_ENV.match(name):
            continue
        value = variables.expand(str(value or ""), record=False).strip().rstrip("/")
        if not value.startswith("/") or UNFILLED.search(value) or "$" in value:
            continue
        if any(value == p or value.startswith(p + "/") or p.startswith(value + "/")
               for p in places):  # fmt: skip
            continue
        found.append((exported[name], name, value))
    # (a folder the commands write or copy into, `aws s3 sync s3://b/train $DATA_DIR`, holds
    # what they put there: looked for in the few exported ones only, each a pass over the run)
    found = [f for f in sorted(found)[:50] if not mounts.writes_to(script, f[2], [f[1]])]
    for _, name, value in found:
        data.setdefault("inputs", []).append({"location": value})
        data.pop("no_inputs", None)
        notes.append(f"data.inputs: {value} (envs {name}, named by the commands).")


# `export NAME` alone on its line (for a script that finds it there), and a folder the commands
# make (`mkdir -p ${LOCAL_DATASET_ROOT}`: where they put what they fetch, staging).
EXPORTED_ALONE = re.compile(r"export[ \t]+(\w{1,200})[ \t]*(?:$|;|&&)")
NAMED_VARIABLE = re.compile(r"\$\{?(\w{1,200})")


def _exported_and_made(script):
    """One pass over the commands: {name: where it is first exported alone}, and the names a
    `mkdir` line uses."""
    exported, made, offset = {}, set(), 0
    for line in script.splitlines(keepends=True):
        text = line.lstrip(" \t")
        if text.startswith("export") and (m := EXPORTED_ALONE.match(text.rstrip("\r\n"))):
            exported.setdefault(m.group(1), offset)
        elif text.startswith("mkdir") and "$" in text:
            made.update(NAMED_VARIABLE.findall(text))
        offset += len(line)
    return exported, made


def _env_model_values(envs, variables):
    """(name, value, match) for each model-named env; a list of several models, separated by
    `;` or `,` (infinity's `INFINITY_MODEL_ID: org/a;org/b;`), gives each of them."""
    for name, value in envs.items():
        if not (match := MODEL_ENV.match(str(name))):
            continue
        value = variables.expand(str(value or ""), record=False).strip()
        # (a few names: a long value is no list of models)
        parts = (
            [p.strip() for p in re.split(r"[;,]", value) if p.strip()] if len(value) < 1000 else []
        )
        if len(parts) > 1 and all(commands.HF_ID.fullmatch(p) for p in parts):
            yield from ((name, p, match) for p in parts)
        else:
            yield name, value, match


def _commented_names(text):
    """Variables a comment line of the file names as `$NAME` or `${NAME}` (a command shown
    commented out)."""
    names = set()
    for line in (text or "").splitlines():
        body = line.lstrip()
        if body.startswith("#") and "$" in body:
            names.update(re.findall(r"\$\{?([A-Za-z_]\w*)", body))
    return names


def _environment_read(name, script):
    """Whether the commands name the variable or read their environment (`os.environ`,
    `getenv`), where a program finds it. A task with no setup and no run starts nothing: its
    envs are set for no one."""
    script = script or ""
    if not script.strip():
        return False
    if name in script or re.search(r"environ|getenv|ENV\[", script):
        return True
    return not _only_inline_python(script)


def _only_inline_python(script):
    """Whether the commands run nothing but inline Python (`python -c "…"`, whose body may span
    lines) and steps that read nothing (`echo`, `sleep`, `pip install`): no program that could
    look its settings up in the environment by itself (a server's launcher reads `MODEL_ID`)."""
    inline, seen = False, False
    for _, line in commands.logical_lines(script):
        text = line.strip()
        if inline:
            inline = not text.endswith('"')
            continue
        if not text or text.startswith("#"):
            continue
        if m := re.match(r"(?:\w+=\S*\s+)*python[\d.]*\s+-c\s+\"", text):
            seen = True
            inline = text.count('"', m.end() - 1) % 2 == 1
            continue
        head = text.split()[0]
        if head not in commands.READS_NOTHING or head in commands.LAUNCHERS:
            return False
    return seen


# An option giving a client the address of a model server's API (`--model-url
# http://$ENDPOINT/v1`, `--api-base`, `--base-url`, `--openai-api-base`) on another machine: not
# this node's own (`localhost`, `127.0.0.1`, `0.0.0.0`), where the job's own server loads it.
# The address looks like a model server's: a port (`http://10.0.0.5:8000`) or an API path
# (`/v1`); a mirror or a tracking service (`https://hf-mirror.com`) is no model server.
REMOTE_API = re.compile(
    r"--(?:model|api|base|server|openai[-_]api)[-_](?:url|base)[=\s]+[\"']?https?://"
    r"(?!(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?![\w.-]))"
    r"[^\s\"'/:]++(?::[\d$]|/v\d)"
)
# …given to a client of that server: a chat UI, a benchmark or an evaluation, by its program's
# name (`gradio_openai_chatbot_webserver.py`, `benchmark_serving.py`, `vllm bench`), not a
# trainer that happens to take a server's address.
# (searched in the lowered name: literal words, no case folding)
API_CLIENT = re.compile(
    r"chat|gui|gradio|streamlit|webserver|client|bench|eval|(?:^|[_.-])(?:ui|webui|frontend)(?:$|[_.-])"
)


def _api_client(line):
    """Whether the line's program is named for a client of a model server (API_CLIENT): its
    Python program, else its command and subcommand (`vllm bench serve`)."""
    if m := commands.PROGRAM_NAME.search(line):
        name = m.group(1) or m.group(2)
    else:
        name = " ".join(word.rsplit("/", 1)[-1] for word in line.split()[:2])
    return API_CLIENT.search(name.lower()) is not None and not commands.TRAINING_NAME.search(name)


def _named_only_to_remote_api(name, script):
    """Whether every command naming the variable hands it to a client of a model server on
    another machine (a chat UI's `-m $MODEL_NAME --model-url http://$ENDPOINT/v1`): the model
    is the one that server answers for."""
    if "://" not in script or not re.search(r"[-_](?:url|base)\b", script):
        return False  # (no client given a server's address: not a pass over the commands)
    named = re.compile(rf"\$\{{?{re.escape(name)}\}}?(?!\w)")
    lines = [line for _, line in commands.logical_lines(script) if named.search(line)]
    return bool(lines) and all(
        "://" in line and REMOTE_API.search(line) and _api_client(line) for line in lines
    )


def _read_by_commands(name, script):
    """Whether a command other than an uploader names the variable: the job also reads what it
    names (a step that fetches a dataset it later uploads to)."""
    named = re.compile(rf"\$\{{?{re.escape(name)}\}}?(?!\w)")
    return any(
        named.search(line) and not commands.UPLOADER.search(line)
        for _, line in commands.logical_lines(script)
    )


def _env_buckets(envs, variables, inputs, artifacts, notes):
    """A bucket named only in envs (`MODEL_BUCKET_NAME: weights` with `AWS_ENDPOINT_URL_S3`):
    read or written as its name says, on the store the envs name; a bucket whose store the
    file does not name is a note, not a guessed s3://."""
    known = {i.get("location") for i in inputs} | {a.get("destination") for a in artifacts}
    for name, value in envs.items():
        match = BUCKET_ENV.match(str(name))
        value = variables.expand(str(value or ""), record=False).strip()
        if not match or not value or UNFILLED.search(value) or "$" in value:
            continue
        if "://" in value:
            uri = value
        elif BUCKET_NAME.fullmatch(value):
            endpoint = next((str(envs[k]) for k in ENDPOINT_ENVS if envs.get(k)), "")
            if not endpoint.startswith("https://") or UNFILLED.search(endpoint):
                notes.append(f"envs {name}: {value}, a bucket on a store the file does not name.")
                continue
            uri = f"{endpoint.rstrip('/')}/{value}"
        else:
            continue
        if any(uri in (k or "") for k in known):
            continue
        if match.group("reads"):
            inputs.append({"location": uri})
        else:
            artifacts.append({"destination": uri})
        known.add(uri)


def task_to_data(task, auxiliary=False, text=""):
    """text: the whole file as written (its comments, which YAML drops, included)."""
    notes = []
    work, data, request, output, realtime = {}, {}, {}, {}, {}
    description = {"name": str(task["name"])} if task.get("name") else {}
    envs = task.get("envs") if isinstance(task.get("envs"), dict) else {}
    variables = Variables(envs)

    for key, field in (("run", "command"), ("setup", "setup")):
        if isinstance(task.get(key), str):
            work[field] = task[key].strip()
        elif task.get(key) is not None:
            notes.append(
                f"{key}: written as a {type(task[key]).__name__}, not as the text of a script as "
                "SkyPilot takes it; not read, kept in the original text."
            )
    script = "\n".join(filter(None, (work.get("setup"), work.get("command"))))

    _read_resources(task, request, work, data, notes, script)
    _read_nodes(task, request, work, notes)

    # A task that answers requests (a service, a server or web app left running).
    run = task.get("run") if isinstance(task.get("run"), str) else ""
    serves = (
        bool(task.get("service"))
        or ends_serving(run, opens_ports=_opens_ports(task))
        or _web_app(task)
    )
    found = _mounts(task, variables, script, notes, serves=serves)
    inputs = found["inputs"]
    for uri, size_gb in _mapping(task, "inputs", notes).items():
        item = {"location": variables.expand(str(uri))}
        if isinstance(size_gb, int | float) and size_gb > 0:
            item["size"] = _size_gb(size_gb)
        inputs.append(item)
    artifacts = found["artifacts"]
    for uri, size_gb in _mapping(task, "outputs", notes).items():
        item = {"destination": variables.expand(str(uri))}
        if isinstance(size_gb, int | float) and size_gb > 0:
            item["size"] = _size_gb(size_gb)
        artifacts.append(item)
    # (with what the commands set too, `NAME=x` then `gsutil cp gs://b/$NAME`, as the reader
    # of the commands expands them: one place, one entry)
    _script_locations(
        script_variables(script, variables).expand(script, record=False),
        inputs,
        artifacts,
        found["checkpoints"],
        set(commands.created_buckets(task, variables).values()),
    )
    _env_buckets(envs, variables, inputs, artifacts, notes)
    if inputs:
        data["inputs"] = inputs
    if found["unclear"]:
        data["unclassified"] = found["unclear"]
    if artifacts:
        output["artifacts"] = artifacts
    if found["checkpoints"]:
        request["checkpoint_location"] = found["checkpoints"][0]
        for other in found["checkpoints"][1:]:
            notes.append(f"A second checkpoint location, {other}: the format holds one.")
    if not found["code"]:
        found["code"] = _fetched_from_its_repository(variables.expand(script, record=False), run)
    if found["code"]:
        work["code"] = [c[:300] for c in dict.fromkeys(found["code"])]
    credentials = found["credentials"]
    credentials += _secret_names(task.get("secrets"))
    keys_at = _mounted_key_paths(task, variables, found["credentials"])
    credentials += [
        str(k)
        for k in envs
        if (secret_name(k) or str(k) in REGISTRY_LOGIN)
        and variables.expand(str(envs[k]), record=False) not in keys_at
    ]
    credentials += _keys_written(script, variables)
    credentials += _pod_secrets(task.get("config"))
    if credentials:
        work["credentials"] = [c[:300] for c in dict.fromkeys(credentials)]

    # Data the commands move, the container they start (commands.py, issue 28).
    commands.fill_skypilot(task, variables, work, data, request, output, notes)
    if not (work.get("code") or work.get("image") or task.get("workdir")):
        # (no workdir, clone or image brings the code: the folder the run starts it from)
        work["code"] = _started_from(variables.expand(run, record=False), task) or None
        if not work["code"]:
            del work["code"]
    _env_models(envs, variables, data, output, notes, script, _commented_names(text))
    _env_paths(envs, variables, data, output, notes, script, under=_mount_points(task))
    _config(task, request, notes)
    _shutdown_cap(variables.expand(run, record=False), request, notes)
    _screen(task, work, realtime, notes, auxiliary)
    _envs_notes(envs, variables, notes)
    for key in sorted(set(task) - HANDLED, key=str):
        value = task[key]
        # A setting is named with its value (`priority 5`); a section only by its key.
        shown = f" {value}"[:200] if not isinstance(value, dict | list) else ""
        notes.append(f"{key}{shown}: not represented in the format; kept in the original text.")

    for key, part in (("work", work), ("data", data), ("request", request), ("output", output),
                      ("realtime", realtime)):  # fmt: skip
        if part:
            description[key] = part
    return description, notes


def _on_instance(choice, accelerators):
    """A choice that names an instance type the catalogue knows takes, of the accelerators it
    inherits (a base `{L40S:1, A100:1}` under an `any_of` entry `instance_type: g6e.2xlarge`),
    only those that instance has: SkyPilot keeps only the pairs it can rent. With none of them
    on it, or an instance not in the catalogue, the accelerators stay as written."""
    named = str(choice.get("instance_type") or "").strip()
    has = {a["type"].upper() for a in accelerators_of_instance(named)} if named else set()
    kept = [a for a in accelerators if str(a.get("type", "")).upper() in has]
    return kept or accelerators


def _typed_by_instance(choice, accelerators, notes):
    """A bare count (`accelerators: 4`) beside an instance type the catalogue knows
    (`instance_type: g5.12xlarge`) is of that instance's model: the instance is what is rented,
    so it gives the count too, and a count that disagrees with it is noted."""
    if not accelerators or any("type" in a for a in accelerators):
        return accelerators
    instance = str(choice.get("instance_type") or "").strip()
    has = accelerators_of_instance(instance) if instance else []
    if len(has) != 1:
        return accelerators
    count = accelerators[0].get("count")
    if count == has[0]["count"]:
        notes.append(f"resources.instance_type {instance}: {count} × {has[0]['type']} per node.")
    else:
        notes.append(
            f"resources.accelerators {count}: the instance type {instance} has "
            f"{has[0]['count']} × {has[0]['type']}; read as the instance's."
        )
    return [dict(has[0])]


def _read_resources(task, request, work, data, notes, script=""):
    choices = _resources(task.get("resources"), notes)
    accelerators = []
    for choice in choices:
        named = _typed_by_instance(choice, _accelerator_list(choice.get("accelerators")), notes)
        if not named and len(choices) > 1 and any(c.get("accelerators") for c in choices):
            # A choice that names only a GPU instance type (`- {instance_type: g4dn.8xlarge}`
            # beside `- {accelerators: V100}`) asks for that instance's accelerators, in its
            # place among the choices.
            instance = str(choice.get("instance_type") or "").strip()
            named = accelerators_of_instance(instance) if instance else []
            for acc in named:
                notes.append(
                    f"resources.instance_type {instance}: {acc['count']} × {acc['type']} per node."
                )
        for acc in _on_instance(choice, named):
            if acc not in accelerators:
                accelerators.append(acc)
    first = choices[0] if choices else {}
    instance = first.get("instance_type")
    if isinstance(instance, str) and instance.strip():
        request["instance_type"] = instance.strip()
    if not accelerators:
        # A choice that names a GPU instance type asks for its accelerators.
        for choice in choices:
            named = str(choice.get("instance_type") or "").strip()
            for acc in accelerators_of_instance(named) if named else []:
                if acc not in accelerators:
                    accelerators.append(acc)
                    notes.append(
                        f"resources.instance_type {named}: {acc['count']} × {acc['type']} per node."
                    )
    types = [str(c.get("instance_type") or "").strip() for c in choices]
    unset = [a for c in choices if str(a := c.get("accelerators") or "").strip().startswith("$")]
    if accelerators:
        request["accelerators"] = accelerators
    elif unset:
        notes.append(
            f"resources.accelerators {unset[0]}: a variable the file gives no value, so the "
            "accelerators are chosen at launch; say which."
        )
    elif all(not t or is_cpu_instance(t) for t in types):
        # SkyPilot rents a machine with no accelerator when none is asked for, and a
        # general-purpose instance type has none; an unknown type may hold GPUs. A task whose
        # commands use GPUs (a CUDA check, nvidia-smi, a launcher with a process per GPU) is
        # run on GPUs asked for elsewhere (an existing cluster, `sky launch --gpus`): the
        # same signs as a Slurm script with no GPU directive, and neither is said.
        hint = gpu_hint({}, script) if script else None
        if hint:
            notes.append(
                f"No accelerators in resources, yet the commands use {kind_of(hint)} ({hint}): "
                f"say which {kind_of(hint)} and how many per node."
            )
        else:
            request["no_accelerators"] = True
    image = first.get("image_id")
    images = list(dict.fromkeys(str(c.get("image_id")) for c in choices if c.get("image_id")))
    if len(images) > 1:
        # Each resource choice brings its own image (a ROCm build for one GPU, a CUDA build
        # for another): which one runs depends on the choice made at launch.
        notes.append(f"resources image_id: one per choice ({', '.join(images)}); not one image.")
        image = None
    if isinstance(image, str) and image.startswith("docker:"):
        work["image"] = image.removeprefix("docker:")
    elif isinstance(image, str) and (_container_cloud(first) or CONTAINER_IMAGE.match(image)):
        work["image"] = image.strip()
    elif image:
        notes.append(f"resources.image_id {image}: a machine image, not a container.")
    if first.get("cpus") is not None:
        cpus, at_least = _cpus(first["cpus"])
        if cpus:
            request["cpus_per_node"] = cpus
            if at_least:
                notes.append(f"resources.cpus {first['cpus']}: at least {cpus} cores.")
    if first.get("memory") is not None:
        memory, at_least = _amount(first["memory"])
        if memory:
            request["memory_per_node"] = memory
            if at_least:
                notes.append(f"resources.memory {first['memory']}: at least {memory}.")
        else:
            notes.append(f"resources.memory {first['memory']}: not a size the portal reads.")
    if first.get("disk_size") is not None:
        disk, _ = _amount(first["disk_size"])
        if disk:
            data["scratch"] = disk
    # A choice that does not say use_spot is on demand (SkyPilot's default: false).
    spot = [bool(c.get("use_spot")) for c in choices]
    if spot and all(spot):
        request["preemptible"] = True
    elif any(spot):
        notes.append("use_spot is true for some resource choices only.")
    recovery = _recovery(task)
    if recovery and str(recovery).lower() != "none":
        request["preemptible"] = True
        if isinstance(recovery, dict) and isinstance(recovery.get("max_restarts_on_errors"), int):
            request["retries"] = recovery["max_restarts_on_errors"]
        key = _recovery_key(task)[0]
        named = "job_recovery" if key == "job_recovery" else f"{key} (job_recovery)"
        notes.append(f"{named}: {recovery}")
    ports = next((c.get("ports") for c in choices if c.get("ports")), None)
    if ports:
        # A finite job opens ports for dashboards and rendezvous: not a sign of serving.
        notes.append(f"resources.ports {ports}: the task opens these ports while it runs.")
    for key in sorted({k for c in choices for k in c} - RESOURCE_KEYS, key=str):
        value = first.get(key, next((c[key] for c in choices if key in c), None))
        notes.append(f"resources.{key} {value}: not represented in the format.")


# Clouds that run every task in a container: an image_id there is a container image, with or
# without `docker:` (a RunPod pod, a Kubernetes pod, a Vast.ai instance).
CONTAINER_CLOUDS = {"runpod", "kubernetes", "k8s", "vast"}
# `registry/name:tag` (or `@sha256:…`): the shape of a container image. Machine images have no
# tag after a path (`ami-…`, `projects/…/global/images/…`, `ocid1.image…`, an Azure
# `publisher:offer:sku:version` has no `/`).
CONTAINER_IMAGE = re.compile(
    r"^(?!projects/)[a-z0-9][\w.-]*(?::\d+)?(?:/[\w.-]+)+(?::[\w.-]+|@sha256:[0-9a-f]{64})$",
    re.IGNORECASE,
)


def _container_cloud(resources):
    """Whether `cloud:` or `infra:` names a cloud that runs tasks in containers."""
    for key in ("cloud", "infra"):
        name = str(resources.get(key) or "").strip().lower().split("/")[0]
        if name in CONTAINER_CLOUDS:
            return True
    return False


def _recovery(task):
    """job_recovery of the task or its resources (spot_recovery is its older name)."""
    return _recovery_key(task)[1]


def _recovery_key(task):
    """(the key as the file writes it, its value): a note names the key the reader sees."""
    resources = task.get("resources") if isinstance(task.get("resources"), dict) else {}
    first = next(iter(_resources(resources, [])), {})
    for key, value in (
        ("job_recovery", first.get("job_recovery")),
        ("job_recovery", task.get("job_recovery")),
        ("spot_recovery", first.get("spot_recovery")),
        ("job_recovery", resources.get("job_recovery")),
    ):
        if value:
            return key, value
    return "job_recovery", None


def _read_nodes(task, request, work, notes):
    nodes = task.get("num_nodes")
    low = task.get("min_nodes")
    resources = task.get("resources") if isinstance(task.get("resources"), dict) else {}
    low = low if low is not None else resources.get("min_nodes")
    recovery = _recovery(task)
    strategy = recovery.get("strategy") if isinstance(recovery, dict) else recovery
    # DYNAMIC_NODE_SET: nodes join and leave while the job runs (an elastic job, not a gang).
    dynamic = str(strategy or "").strip().upper() == "DYNAMIC_NODE_SET"
    if low is None and isinstance(recovery, dict):
        low = recovery.get("min_nodes")
    if isinstance(nodes, dict):
        low = nodes.get("min", nodes.get("min_nodes", low))
        nodes = nodes.get("max", nodes.get("max_nodes"))
    elif isinstance(nodes, str):
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*", nodes)
        if match and match.group(2):
            low, nodes = int(match.group(1)), int(match.group(2))
        elif match:
            nodes = int(match.group(1))
    if isinstance(nodes, int) and not isinstance(nodes, bool) and nodes >= 1:
        request["nodes"] = nodes
        if nodes > 1 and not dynamic:
            work["shape"] = "gang"  # a SkyPilot task's nodes start and stop together
    if isinstance(low, int) and not isinstance(low, bool) and low >= 1:
        request["min_nodes"] = low
        if request.get("nodes") and low < request["nodes"]:
            request["less_compute"] = "fewer_nodes"
            notes.append(
                f"Elastic: it runs on as few as {low} of its {request['nodes']} nodes, "
                "which may join and leave while it runs."
            )
    if dynamic:
        notes.append("DYNAMIC_NODE_SET: the node set grows and shrinks while the job runs.")
    pool = task.get("pool")
    if isinstance(pool, dict) and isinstance(pool.get("workers"), int):
        request["nodes"] = pool["workers"]
        notes.append(
            f"pool.workers: {pool['workers']} workers are rented and jobs are sent to them."
        )


def _config(task, request, notes):
    """`config:` overrides SkyPilot's settings for this task. On a Slurm cluster its
    sbatch_options.time is the job's time limit; the rest (account, qos, pod_config…) is
    named in notes with its value."""
    config = task.get("config")
    if config is not None and not isinstance(config, dict):
        notes.append(f"config {config}: not represented in the format.")
        return
    for path, value in _leaves(config, "config") if config else ():
        if path == "config.slurm.sbatch_options.time" and not isinstance(value, bool | dict):
            limit = slurm_minutes_to_duration(str(value))
            if limit:
                request["maximum"] = limit
                notes.append(f"{path} {value}: the Slurm time limit, read as the maximum.")
                continue
        shown = f" {value}" if not isinstance(value, dict | list) else ""
        notes.append(f"{path}{shown}: not represented in the format."[:1000])
        deadline = _pod_deadline(value) if path.endswith("pod_config") else None
        if deadline and not request.get("maximum"):
            request["maximum"] = format_duration(deadline)
            notes.append(
                f"{path} spec.activeDeadlineSeconds {deadline}: Kubernetes stops the pod "
                "then, read as the maximum."
            )
    callback = task.get("event_callback")
    if callback:
        notes.append("event_callback: not represented in the format; kept in the original text.")


def _pod_deadline(pod_config):
    """A pod's activeDeadlineSeconds: Kubernetes ends the pod after that many seconds, the
    task's wall-clock cap (as `--time` is a Slurm job's)."""
    spec = pod_config.get("spec") if isinstance(pod_config, dict) else None
    seconds = spec.get("activeDeadlineSeconds") if isinstance(spec, dict) else None
    if isinstance(seconds, int) and not isinstance(seconds, bool) and seconds > 0:
        return seconds
    return None


def _secret_names(secrets):
    """The names `secrets:` passes to the task: a mapping's keys, or a list's entries, which
    may name a secret stored on the API server (`- secrets:HF_TOKEN` is HF_TOKEN)."""
    if isinstance(secrets, dict):
        return [str(k) for k in secrets]
    if isinstance(secrets, list):
        names = (str(s).strip().removeprefix("secrets:").strip() for s in secrets)
        return [n for n in names if n and " " not in n]
    return []


def _pod_secrets(config):
    """Kubernetes secrets a pod_config puts in the containers' environment (`envFrom:
    secretRef: {name: x}`, `env: valueFrom: secretKeyRef: {name: x}`): keys, by the secret's
    name."""
    kubernetes = config.get("kubernetes") if isinstance(config, dict) else None
    pod = kubernetes.get("pod_config") if isinstance(kubernetes, dict) else None
    spec = pod.get("spec") if isinstance(pod, dict) else None
    containers = spec.get("containers") if isinstance(spec, dict) else None
    names = []
    for container in containers if isinstance(containers, list) else []:
        if not isinstance(container, dict):
            continue
        refs = [e.get("secretRef") for e in _dicts(container.get("envFrom"))]
        refs += [
            e["valueFrom"].get("secretKeyRef")
            for e in _dicts(container.get("env"))
            if isinstance(e.get("valueFrom"), dict)
        ]
        names += [str(r["name"]) for r in refs if isinstance(r, dict) and r.get("name")]
    return names


def _dicts(value):
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _leaves(value, path, depth=0):
    """(dotted path, value) for each setting; a Kubernetes pod_config or a list is one
    setting (its contents are a manifest, not options of their own)."""
    if isinstance(value, dict) and value and depth < 4 and not path.endswith("pod_config"):
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{key}", depth + 1)
    else:
        yield path, value


def _screen(task, work, realtime, notes, auxiliary):
    if task.get("service"):
        realtime.update(serves_requests=True, finishes_on_its_own=False)
        notes.append("service: this file defines a long-running service with replicas.")
        service = task["service"] if isinstance(task["service"], dict) else {}
        balancers = service.get("external_load_balancers")
        if isinstance(balancers, list) and balancers:
            # Machines beyond the replicas, one load balancer each, that the format has no
            # place for (SkyServe's external load balancers, one per region written).
            notes.append(
                f"service.external_load_balancers: {len(balancers)} more machines run a load "
                "balancer each, beside the replicas."
            )
    elif auxiliary:
        notes.append(
            "Auxiliary task of a job group: it serves the other tasks and is stopped when the "
            "primary tasks finish."
        )
    elif ends_serving(work.get("command"), opens_ports=_opens_ports(task)):
        idle = next((k for k in _envs_of(task) if IDLE_LIMIT.search(k)), None)
        if idle:
            # The server is given how long it may sit idle: it may stop itself then.
            realtime.update(serves_requests=True)
            notes.append(
                f"The run command ends by leaving a server running in the foreground; envs "
                f"{idle} gives it an idle limit, so whether it ends on its own is not said."
            )
        else:
            realtime.update(serves_requests=True, finishes_on_its_own=False)
            notes.append("The run command ends by leaving a server running in the foreground.")
    elif publishes_server(work.get("command")):
        # Whether it ends on its own depends on what it waits on (an idle watcher, a cap).
        realtime.update(serves_requests=True)
        notes.append("The run starts a server and a public tunnel to it, and never stops them.")
    elif _web_app(task):
        realtime.update(serves_requests=True, finishes_on_its_own=False)
        notes.append(
            "The task installs a web framework, opens a port and ends in its own program: a web "
            "app (a dashboard) that answers until it is stopped."
        )


# An env naming how long a server may sit idle (`MAX_IDLE_MINUTES`, `IDLE_TIMEOUT`).
IDLE_LIMIT = re.compile(
    r"(?:^|_)IDLE(?:_|$)(?=.*(?:MIN|SEC|HOUR|TIMEOUT|TTL|SHUTDOWN|STOP))|"
    r"(?:MIN|SEC|HOUR|TIMEOUT|TTL|SHUTDOWN|STOP).*_IDLE(?:_|$)",
    re.IGNORECASE,
)


def _envs_of(task):
    envs = task.get("envs")
    return [str(k) for k in envs] if isinstance(envs, dict) else []


# `shutdown -h +240` (minutes from now), put in the background at the start of the run.
SHUTDOWN_IN = re.compile(
    r"^\s*(?:sudo\s+)?shutdown\s+(?:-[hPr]\s+)*\+(\d+)\b[^\n]*&\s*$", re.MULTILINE
)


def _shutdown_cap(run, request, notes):
    """A run that schedules the machine's shutdown N minutes ahead caps its own wall time:
    N minutes is its maximum (a limit given elsewhere, config's Slurm time, comes first)."""
    m = SHUTDOWN_IN.search(run or "")
    if not m or "maximum" in request:
        return
    limit = slurm_minutes_to_duration(m.group(1))
    if limit:
        request["maximum"] = limit
        notes.append(f"shutdown +{m.group(1)}: the machine is shut down then, read as the maximum.")


def _opens_ports(task):
    """The ports (as written, `8080`, `10020-10040`) resource choices of the task open to the
    outside; empty (false) when none does."""
    opened = set()
    for choice in _resources(task.get("resources"), []):
        ports = choice.get("ports")
        for port in ports if isinstance(ports, list) else [ports] if ports else []:
            opened.add(str(port).strip())
    return frozenset(opened)


WEB_FRAMEWORK = re.compile(r"\b(?:fastapi|uvicorn|flask|gradio|streamlit|dash|panel)\b")


def _web_app(task):
    """A task that installs a web framework, opens a port (`resources.ports`) and ends in a
    program of its own in the foreground serves that program's pages; a port alone (a Ray
    dashboard, a rendezvous) does not say so."""
    resources = task.get("resources") if isinstance(task.get("resources"), dict) else {}
    setup, run = task.get("setup"), task.get("run")
    if not resources.get("ports") or not isinstance(run, str) or not isinstance(setup, str):
        return False
    installs = [line for line in setup.splitlines() if re.search(r"\bpip3?\s+install\b", line)]
    if not any(WEB_FRAMEWORK.search(line) for line in installs):
        return False
    steps = [x.strip() for x in run.splitlines() if x.strip() and not x.lstrip().startswith("#")]
    return (
        bool(steps)
        and bool(re.match(r"^python3?\s+\S+\.py\b", steps[-1]))
        and (not steps[-1].rstrip().endswith("&"))
    )


def _envs_notes(envs, variables, notes):
    if envs:
        shown = [
            (f"{k}={HIDDEN}" if hides(str(k), str(v)) else f"{k}={v}")
            if k in variables.values
            else f"{k} (no value)"
            for k, v in envs.items()
        ]
        notes.append(f"envs: {', '.join(shown)}.")
    for name in variables.missing:
        notes.append(
            f"${name} has no value in the file (it is set at launch): locations that use it "
            "are kept as written."
        )
