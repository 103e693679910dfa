"""SkyPilot task YAML -> descriptions. Fills only what the file says.

A multi-document file is a pipeline or job group: one description per task, each
stage depending on the one before (a leading document with only a name names the
pipeline). What SkyPilot says but the format has no place for is kept in notes."""

import contextlib
import re

from .realtime import ends_serving
from .units import UnitError, format_size

MODE_TO_ACCESS = {"COPY": "copy_before_start", "MOUNT": "stream", "MOUNT_CACHED": "cached_mount"}
TASK_KEYS = {
    "run", "setup", "resources", "num_nodes", "file_mounts", "workdir", "envs", "service",
    "inputs", "outputs", "secrets", "pool", "config", "event_callback",
}  # fmt: skip


def looks_like_skypilot(documents):
    return any(isinstance(d, dict) and TASK_KEYS & set(d) for d in documents)


def import_documents(documents):
    tasks = [d for d in documents if isinstance(d, dict)]
    pipeline_name = None
    if len(tasks) > 1 and not (TASK_KEYS & set(tasks[0])):
        pipeline_name = tasks[0].get("name")
        tasks = tasks[1:]
    results = []
    previous = None
    for index, task in enumerate(tasks):
        data, notes = task_to_data(task)
        if len(tasks) > 1:
            stage = data.get("name") or f"stage-{index + 1}"
            data["name"] = f"{pipeline_name}/{stage}" if pipeline_name else stage
            if previous:
                data.setdefault("work", {})["depends_on"] = [previous]
            previous = data["name"]
        results.append((data, notes))
    return results


def _accelerator_list(value):
    """'A100:8', 'V100', {H100: 8, H200: 8}, ['A100:8', 'H100:8'] -> [{type, count}]."""
    out = []
    if isinstance(value, str):
        value = [v.strip() for v in value.strip("{}[] ").split(",")] if "," in value else [value]
    if isinstance(value, dict):
        value = [f"{k}:{v}" if v is not None else str(k) for k, v in value.items()]
    for item in value or []:
        if isinstance(item, dict):
            out += _accelerator_list(item)
            continue
        name, _, count = str(item).partition(":")
        entry = {"type": name.strip()}
        if count.strip():
            with contextlib.suppress(ValueError, OverflowError):
                entry["count"] = int(float(count))
        else:
            entry["count"] = 1  # SkyPilot's own rule: a bare name means one
        out.append(entry)
    return out


def _resources(resources, notes):
    """Resource dicts in order of preference (ordered / any_of / the base)."""
    if not isinstance(resources, dict):
        return []
    base = {k: v for k, v in resources.items() if k not in ("ordered", "any_of")}
    if isinstance(resources.get("ordered"), list):
        return [{**base, **r} for r in resources["ordered"] if isinstance(r, dict)]
    if isinstance(resources.get("any_of"), list):
        notes.append("resources.any_of: the choices are alternatives with no order of preference.")
        return [{**base, **r} for r in resources["any_of"] if isinstance(r, dict)]
    return [base]


def _size_gb(value):
    """SkyPilot's inputs/outputs sizes are in GB; None when no job could be that large."""
    try:
        return format_size(int(value * 10**9))
    except (UnitError, OverflowError, ValueError):
        return None


def _min_number(value):
    """'8+' -> (8.0, True): SkyPilot's "at least". Absurd numbers count as not said."""
    match = re.match(r"\s*([0-9]{1,9}(?:\.[0-9]{1,6})?)\s*(\+?)", str(value))
    return (float(match.group(1)), bool(match.group(2))) if match else (None, False)


def task_to_data(task):
    notes = []
    work, data, request, output, realtime = {}, {}, {}, {}, {}
    description = {"name": task.get("name")} if task.get("name") else {}

    if isinstance(task.get("run"), str):
        work["command"] = task["run"].strip()
    if isinstance(task.get("setup"), str):
        work["setup"] = task["setup"].strip()

    choices = _resources(task.get("resources"), notes)
    accelerators = []
    for choice in choices:
        for acc in _accelerator_list(choice.get("accelerators")):
            if acc not in accelerators:
                accelerators.append(acc)
    if accelerators:
        request["accelerators"] = accelerators
    first = choices[0] if choices else {}
    image = first.get("image_id")
    if isinstance(image, str) and image.startswith("docker:"):
        work["image"] = image.removeprefix("docker:")
    cpus, at_least = (
        _min_number(first.get("cpus")) if first.get("cpus") is not None else (None, False)
    )
    if cpus:
        request["cpus_per_node"] = max(1, int(cpus))
        if at_least:
            notes.append(f"resources.cpus {first['cpus']}: at least {int(cpus)} cores.")
    memory, at_least = (
        _min_number(first.get("memory")) if first.get("memory") is not None else (None, False)
    )
    if memory:
        request["memory_per_node"] = f"{memory:g} GB"
        if at_least:
            notes.append(f"resources.memory {first['memory']}: at least {memory:g} GB.")
    disk = first.get("disk_size")
    if disk is not None:
        size, _ = _min_number(re.sub(r"(?i)\s*gb?$", "", str(disk)))
        if size:
            data["scratch"] = f"{size:g} GB"
    spot = [c.get("use_spot") for c in choices if "use_spot" in c]
    if spot and all(spot):
        request["preemptible"] = True
    elif spot and any(spot):
        notes.append("use_spot is true for some resource choices only.")
    recovery = first.get("job_recovery") or task.get("job_recovery")
    if recovery:
        request["preemptible"] = True
        if isinstance(recovery, dict) and isinstance(recovery.get("max_restarts_on_errors"), int):
            request["retries"] = recovery["max_restarts_on_errors"]
        notes.append(f"job_recovery: {recovery}")

    nodes = task.get("num_nodes")
    if isinstance(nodes, int) and nodes >= 1:
        request["nodes"] = nodes
        if nodes > 1:
            work["shape"] = "gang"  # a SkyPilot task's nodes start and stop together
    pool = task.get("pool")
    if isinstance(pool, dict) and isinstance(pool.get("workers"), int):
        request["nodes"] = pool["workers"]
        notes.append(
            f"pool.workers: {pool['workers']} workers are rented and jobs are sent to them."
        )

    inputs = []
    if isinstance(task.get("workdir"), str):
        inputs.append({"name": "workdir", "location": task["workdir"]})
    for target, spec in (task.get("file_mounts") or {}).items():
        item = {"name": str(target)}
        if isinstance(spec, str):
            item["location"] = spec
        elif isinstance(spec, dict):
            if spec.get("source"):
                item["location"] = str(spec["source"])
            elif spec.get("name"):
                store = spec.get("store") or "bucket"
                item["location"] = f"{store}://{spec['name']}"
            mode = str(spec.get("mode", "")).upper()
            if mode in MODE_TO_ACCESS:
                item["access"] = MODE_TO_ACCESS[mode]
        inputs.append(item)
    for uri, size_gb in (task.get("inputs") or {}).items():
        item = {"location": str(uri)}
        if isinstance(size_gb, int | float) and size_gb > 0:
            item["size"] = _size_gb(size_gb)
        inputs.append(item)
    if inputs:
        data["inputs"] = inputs
    artifacts = []
    for uri, size_gb in (task.get("outputs") or {}).items():
        item = {"destination": str(uri)}
        if isinstance(size_gb, int | float) and size_gb > 0:
            item["size"] = _size_gb(size_gb)
        artifacts.append(item)
    if artifacts:
        output["artifacts"] = artifacts

    ports = [c.get("ports") for c in choices if c.get("ports")]
    if task.get("service"):
        realtime.update(serves_requests=True, finishes_on_its_own=False)
        notes.append("service: this file defines a long-running service with replicas.")
    elif ports:
        realtime["serves_requests"] = True
        notes.append(f"resources.ports {ports[0]}: the task listens for inbound connections.")
    if "serves_requests" not in realtime and ends_serving(work.get("command")):
        realtime.update(serves_requests=True, finishes_on_its_own=False)
        notes.append("The run command ends by leaving a server running in the foreground.")
    if task.get("envs"):
        notes.append(
            f"envs: {', '.join(map(str, task['envs']))} (values are not part of the format)."
        )

    for key, part in (("work", work), ("data", data), ("request", request), ("output", output),
                      ("realtime", realtime)):  # fmt: skip
        if part:
            description[key] = part
    return description, notes
