"""Slurm sbatch scripts -> a description. Fills only what the #SBATCH lines say."""

import re
import shlex

from .realtime import ends_serving
from .slurm_export import COMMAND_MARK, SETUP_END, SETUP_MARK
from .units import UnitError, format_duration, format_size

SHORT = {"-N": "nodes", "-J": "job-name", "-t": "time", "-c": "cpus-per-task", "-o": "output",
         "-a": "array", "-G": "gpus", "-n": "ntasks", "-p": "partition", "-A": "account"}  # fmt: skip


def looks_like_sbatch(text):
    return bool(re.search(r"^#SBATCH\s", text, flags=re.MULTILINE))


def parse_options(text):
    """The #SBATCH options, in order, until the first command line (as Slurm reads them)."""
    options = {}
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or (stripped.startswith("#") and not stripped.startswith("#SBATCH")):
            continue
        if not stripped.startswith("#SBATCH"):
            break  # sbatch stops reading directives at the first command
        body = stripped[len("#SBATCH") :].split(" #", 1)[0].strip()
        try:
            words = shlex.split(body, comments=False)
        except ValueError:
            words = body.split()
        i = 0
        while i < len(words):
            word = words[i]
            if word.startswith("--"):
                key, eq, value = word[2:].partition("=")
                if not eq and i + 1 < len(words) and not words[i + 1].startswith("-"):
                    value, i = words[i + 1], i + 1
                options[key] = value
            elif word[:2] in SHORT:
                value = word[2:].lstrip("=")
                if not value and i + 1 < len(words):
                    value, i = words[i + 1], i + 1
                options[SHORT[word[:2]]] = value
            i += 1
    return options


def slurm_minutes_to_duration(value):
    """Slurm time: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S -> '36h' style, or None."""
    value = value.strip()
    if value.upper() in ("UNLIMITED", "INFINITE"):
        return None
    m = re.fullmatch(r"(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?", value)
    if not m:
        return None
    days, a, b, c = m.groups()
    if days is not None:
        seconds = int(days) * 86400 + int(a) * 3600 + int(b or 0) * 60 + int(c or 0)
    elif c is not None:
        seconds = int(a) * 3600 + int(b) * 60 + int(c)
    elif b is not None:
        seconds = int(a) * 60 + int(b)
    else:
        seconds = int(a) * 60
    return format_duration(seconds)


def slurm_memory(value):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGT]?)B?", value.strip(), flags=re.IGNORECASE)
    if not m:
        return None
    factor = {"": 2**20, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}[m.group(2).upper()]
    try:
        return format_size(int(float(m.group(1)) * factor))
    except (UnitError, OverflowError):
        return None  # not a size any job has; the precision check asks for one


def array_count(spec):
    """'0-99%10' -> (100, 10); '1,3,5-9:2' -> (5, None)."""
    spec, _, limit = spec.partition("%")
    total = 0
    for part in spec.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+)(?::(\d+))?)?", part.strip())
        if not m:
            return None, None
        start, end, step = int(m.group(1)), m.group(2), int(m.group(3) or 1)
        total += 1 if end is None else max(0, (int(end) - start) // max(step, 1) + 1)
    return total, int(limit) if limit.isdigit() else None


def import_text(text):
    options = parse_options(text)
    notes = []
    work, data, request, output, realtime = {}, {}, {}, {}, {}
    description = {}
    if options.get("job-name"):
        description["name"] = options["job-name"]

    body = "\n".join(line for line in text.splitlines() if not line.strip().startswith("#SBATCH"))
    body = re.sub(r"\A#![^\n]*\n", "", body).strip()
    body, setup = _exported_parts(body)
    if setup:
        work["setup"] = setup
    if body:
        work["command"] = body

    nodes = options.get("nodes")
    if nodes:
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", nodes.strip())
        if m:
            low, high = int(m.group(1)), int(m.group(2) or m.group(1))
            request["nodes"] = high
            if m.group(2):
                request["min_nodes"] = low
    node_count = request.get("nodes", 1)

    accelerators = _gpus(options, node_count, notes)
    if accelerators:
        request["accelerators"] = [accelerators]

    if options.get("time"):
        limit = slurm_minutes_to_duration(options["time"])
        if limit:
            request["maximum"] = limit
    if options.get("time-min"):
        shortest = slurm_minutes_to_duration(options["time-min"])
        notes.append(
            f"--time-min {options['time-min']}: the job accepts a time limit as short as {shortest}."
        )
    if options.get("begin"):
        request["earliest_start"] = options["begin"]
    if options.get("deadline"):
        request["deadline"] = options["deadline"]
    if options.get("array"):
        count, limit = array_count(options["array"])
        work["shape"] = "shards"
        if count:
            work["shards"] = count
        if limit:
            notes.append(f"--array limit %{limit}: at most {limit} shards run at once.")
            if "nodes" not in options:
                request["nodes"] = limit  # one node per shard, `limit` of them at once
    elif "nodes" in request and request["nodes"] > 1:
        work["shape"] = "gang"  # one sbatch allocation starts and ends together
    if "requeue" in options:
        request["preemptible"] = True
    if "no-requeue" in options:
        request["preemptible"] = False
    if options.get("signal"):
        notes.append(f"--signal {options['signal']}: the job is warned before it is stopped.")
    if options.get("mem"):
        memory = slurm_memory(options["mem"])
        if memory:
            request["memory_per_node"] = memory
    if options.get("tmp"):
        scratch = slurm_memory(options["tmp"])
        if scratch:
            data["scratch"] = scratch
    cpus = _int(options.get("cpus-per-task"))
    if cpus:
        per_node = _int(options.get("ntasks-per-node")) or 1
        request["cpus_per_node"] = cpus * per_node
    if options.get("output"):
        output["artifacts"] = [{"name": "job log", "destination": options["output"]}]
    if options.get("constraint"):
        notes.append(f"--constraint {options['constraint']}: the nodes must have this feature.")
    for key in ("partition", "account", "qos", "reservation"):
        if options.get(key):
            notes.append(f"--{key} {options[key]} is specific to the cluster it came from.")

    if ends_serving(body):
        realtime.update(serves_requests=True, finishes_on_its_own=False)
        notes.append("The script ends by leaving a server running in the foreground.")

    for key, part in (("work", work), ("data", data), ("request", request), ("output", output),
                      ("realtime", realtime)):  # fmt: skip
        if part:
            description[key] = part
    return description, notes


def _exported_parts(body):
    """A script the portal exported marks its setup and command (slurm_export.py): read
    them back as they were written, without the lines the export added around them."""
    lines = body.splitlines()
    if COMMAND_MARK not in lines:
        return body, None
    at = lines.index(COMMAND_MARK)
    command = "\n".join(lines[at + 1 :]).strip()
    setup = None
    if SETUP_MARK in lines[:at]:
        start = lines.index(SETUP_MARK) + 2  # the mark, then the srun line opening the heredoc
        end = lines.index(SETUP_END, start) if SETUP_END in lines[start:at] else at
        setup = "\n".join(lines[start:end]).strip() or None
    return command, setup


def _int(value):
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _gpus(options, node_count, notes):
    """--gres=gpu[:type]:N, --gpus-per-node=[type:]N, --gpus=[type:]N -> {type, count per node}."""
    gres = options.get("gres")
    if gres:
        for item in gres.split(","):
            parts = item.split(":")
            if parts[0] == "gpu":
                count = _int(parts[-1]) if len(parts) > 1 else 1
                entry = {"count": count} if count else {}
                if len(parts) == 3:
                    entry["type"] = parts[1]
                return entry
    for key, per_node in (("gpus-per-node", True), ("gpus", False)):
        value = options.get(key)
        if not value:
            continue
        kind, _, count = value.rpartition(":")
        total = _int(count)
        entry = {"type": kind} if kind else {}
        if total and per_node:
            entry["count"] = total
        elif total and total % node_count == 0:
            entry["count"] = total // node_count
        elif total:
            notes.append(
                f"--gpus {value}: {total} in all, not evenly spread over {node_count} nodes."
            )
        return entry
    return None
