"""Slurm sbatch scripts -> a description. Fills only what the #SBATCH lines say."""

import itertools
import re

from . import commands, mounts
from .envs import script_variables
from .quantities import Size
from .realtime import STARTS_SERVICES, ends_serving
from .slurm_export import COMMAND_MARK, SETUP_END, SETUP_MARK
from .units import UnitError, format_duration, format_size, parse_when

SHORT = {"-N": "nodes", "-J": "job-name", "-t": "time", "-c": "cpus-per-task", "-o": "output",
         "-a": "array", "-G": "gpus", "-n": "ntasks", "-p": "partition", "-A": "account",
         "-e": "error", "-C": "constraint", "-d": "dependency", "-w": "nodelist", "-x": "exclude",
         "-q": "qos", "-D": "chdir", "-i": "input", "-H": "hold", "-s": "oversubscribe",
         "-L": "licenses", "-m": "distribution", "-k": "no-kill", "-M": "clusters",
         "-b": "begin", "-B": "extra-node-info", "-F": "nodefile", "-S": "core-spec",
         "-O": "overcommit", "-W": "wait", "-Q": "quiet", "-v": "verbose"}  # fmt: skip
# Short options that take no argument: the next word is another option, never their value.
FLAGS = {"-H", "-s", "-k", "-O", "-W", "-Q", "-v"}
# Other names sbatch takes for an option (its option table: --tasks-per-node is
# --ntasks-per-node).
ALIASES = {"tasks-per-node": "ntasks-per-node", "cluster": "clusters"}
# sbatch's long options (its man page), with the container options of the common SPANK
# plugins (pyxis' --container-*, Shifter's --image): sbatch, as getopt_long, reads any
# unambiguous prefix of one (`--err=x` is --error), and refuses an ambiguous one (`--mem-per`).
LONG_OPTIONS = frozenset({
    "account", "acctg-freq", "array", "batch", "bb", "bbf", "begin", "chdir", "cluster",
    "cluster-constraint", "clusters", "comment", "constraint", "container", "container-id",
    "contiguous", "core-spec", "cores-per-socket", "cpu-freq", "cpus-per-gpu", "cpus-per-task",
    "deadline", "delay-boot", "dependency", "distribution", "error", "exclude", "exclusive",
    "export", "export-file", "extra", "extra-node-info", "get-user-env", "gid", "gpu-bind",
    "gpu-freq", "gpus", "gpus-per-node", "gpus-per-socket", "gpus-per-task", "gres",
    "gres-flags", "help", "hint", "hold", "ignore-pbs", "input", "job-name", "jobid",
    "kill-on-invalid-dep", "licenses", "mail-type", "mail-user", "mcs-label", "mem", "mem-bind",
    "mem-per-cpu", "mem-per-gpu", "mincpus", "network", "nice", "no-kill", "no-requeue",
    "nodefile", "nodelist", "nodes", "ntasks", "ntasks-per-core", "ntasks-per-gpu",
    "ntasks-per-node", "ntasks-per-socket", "oom-kill-step", "open-mode", "output",
    "overcommit", "oversubscribe", "parsable", "partition", "power", "prefer", "priority",
    "profile", "propagate", "qos", "quiet", "reboot", "requeue", "reservation", "resv-ports",
    "segment", "signal", "sockets-per-node", "spread-job", "stepmgr", "switches",
    "tasks-per-node", "test-only", "thread-spec", "threads-per-core", "time", "time-min", "tmp",
    "tres-bind", "tres-per-task", "uid", "usage", "use-min-nodes", "verbose", "version", "wait",
    "wait-all-nodes", "wckey", "wrap", "image", "container-image", "container-mounts",
    "container-workdir", "container-name", "container-save", "container-mount-home",
    "no-container-mount-home", "container-remap-root", "no-container-remap-root",
    "container-entrypoint", "no-container-entrypoint", "container-env", "container-writable",
    "container-readonly"
})  # fmt: skip


def long_name(key):
    """The option a long option's name stands for: itself or its alias when sbatch has it,
    else the one option it is a prefix of (`err` is `error`); kept as written when it is the
    prefix of several (`mem-per`: sbatch refuses it) or of none."""
    if key in LONG_OPTIONS:
        return ALIASES.get(key, key)
    options = {ALIASES.get(o, o) for o in LONG_OPTIONS if key and o.startswith(key)}
    return options.pop() if len(options) == 1 else key


# Directives read into the description; every other one is kept as a note.
READ = {"job-name", "nodes", "ntasks", "ntasks-per-node", "ntasks-per-gpu", "cpus-per-task",
        "cpus-per-gpu", "gres",
        "image", "container-image", "gpus", "gpus-per-node", "gpus-per-task", "gpus-per-socket", "mem", "mem-per-cpu",
        "mem-per-gpu", "time",
        "begin", "deadline", "array", "requeue", "no-requeue", "constraint", "tmp"}  # fmt: skip
# Where Slurm writes what the job prints: its console, not something the job produces.
STREAMS = {"output": "the job's console log (what it prints), not an output it delivers",
           "error": "the job's error messages, apart from its console log; not an output",
           "input": "a file fed to the job as typed input"}  # fmt: skip
JOB_WIDE = ("job-name", "time", "begin", "deadline", "requeue", "no-requeue", "signal",
            "dependency", "mail-type", "mail-user", "account", "qos")  # fmt: skip
# A node feature naming a GPU model (`--constraint=a6000` beside `--gres=gpu:2`): NVIDIA's data
# centre letters and numbers (A100, H100, V100, P100, K80, L4, T4, A10G, B200, GH200), its
# workstation cards (A6000, A5000, RTX A6000, Quadro, Titan, GeForce RTX 3090/4090), AMD
# Instinct (MI250X, MI300X), with a vendor prefix or a memory/form suffix (`a100-sxm4-80gb`).
# A class of node (`gpu`, `gpu80`) names no model.
# NVIDIA's vendor and data-centre brand prefixes (`nvidia_a40`, `tesla_v100`) are the model too.
GPU_NAMES = re.compile(
    # (Tesla's M cards by name, not any `m` and two digits: sites name memory features so;
    # the parts after a name hold no `_` or `-` of their own, so a name splits one way only)
    r"^(?:nvidia[-_]?)?(?:tesla[-_]?)?(?:[ahlv]\d{2,3}s?|[pk]\d{2,3}|m(?:4|6|10|40|60|20[579]0)|"
    r"a\d{4}|b\d{3}|g[hb]\d{3}|[lt]4|l40s?|a10g?|(?:rtx|gtx|quadro|geforce|titan)[A-Za-z0-9]*|"
    r"mi\d{2,3}[ax]?|gpu(?=[-_][A-Za-z0-9]))(?:[-_][A-Za-z0-9]+)*$",
    re.IGNORECASE,
)


def looks_like_sbatch(text):
    return bool(re.search(r"^#SBATCH\s", text, flags=re.MULTILINE))


def parse_options(text):
    """The #SBATCH options of the first (or only) component, as Slurm reads them."""
    return parse_components(text)[0]


def parse_components(text):
    """The #SBATCH options in order until the first command, one dict per component of a
    heterogeneous job (components are separated by `#SBATCH hetjob`)."""
    components = [{}]
    for _, body in header(text.splitlines())[0]:
        if body in ("hetjob", "packjob"):
            components.append({})
            continue
        _read_line(body, components[-1])
    return components


# Up to the first unquoted #: sbatch reads the rest of a directive line as a comment, with
# or without a space before it (`--time=10:00:00#ten hours` is 10 hours).
BEFORE_COMMENT = re.compile(r"""(?:[^#"'\\]+|\\.|"[^"]*"|'[^']*')*""")


def header(lines):
    """The directives sbatch reads, as (line index, text after #SBATCH up to its comment),
    and the index of the first command. As sbatch reads a script: a directive starts its
    line with #SBATCH (an indented one is a comment), blank lines and comments are
    skipped, and no directive after the first command is read."""
    directives = []
    for index, line in enumerate(lines):
        if line.startswith("#SBATCH"):
            body = line[len("#SBATCH") :]
            directives.append((index, BEFORE_COMMENT.match(body).group(0).strip()))
        elif line.strip() and not line.lstrip().startswith("#"):
            return directives, index
    return directives, len(lines)


def _unread_directives(lines, first_command):
    """Notes for #SBATCH lines sbatch does not read: indented ones, and any after the
    first command (late in the header, or inside a heredoc that writes another script)."""
    notes = []
    for index, line in enumerate(lines):
        text = line.strip()
        if not text.startswith("#SBATCH") or (line.startswith("#SBATCH") and index < first_command):
            continue
        why = (
            "comes after the first command"
            if index >= first_command
            else "is indented (a directive starts its line)"
        )
        notes.append(f"Line {index + 1}, {text[:80]}, {why}: sbatch does not read it.")
    if len(notes) > 5:
        notes[5:] = [f"{len(notes) - 5} more #SBATCH lines sbatch does not read."]
    return notes


# A word: runs of unquoted text and quoted strings (as the shell splits an #SBATCH line).
# One regex pass keeps a long line linear; shlex builds each token a character at a time.
WORD = re.compile(r"""(?:[^\s"']+|"[^"]*"|'[^']*')+|["'][^\s]*""")


# As sbatch takes a word apart: quotes group and go, and a backslash keeps the character after
# it as written and goes (`nvcr.io\#nvidia/pytorch` is `nvcr.io#nvidia/pytorch`, `"a\\b"` is
# `a\b`), inside quotes too.
WORD_PART = re.compile(r"""\\(.)|"([^"]*)"|'([^']*)'""")


def _words(body):
    return [WORD_PART.sub(_word_part, w) if ("\\" in w or '"' in w or "'" in w) else w
            for w in WORD.findall(body)]  # fmt: skip


def _word_part(match):
    escaped, double, single = match.groups()
    if escaped is not None:
        return escaped
    return re.sub(r"\\(.)", r"\1", double if double is not None else single)


def _read_line(body, options):
    words = _words(body)
    i = 0
    while i < len(words):
        word = words[i]
        if word.startswith("--"):
            key, eq, value = word[2:].partition("=")
            if not eq and i + 1 < len(words) and not words[i + 1].startswith("-"):
                value, i = words[i + 1], i + 1
            value, i = _template_field(value, words, i)
            options[long_name(key)] = value
        elif word[:2] in SHORT:
            # `-N=1`: getopt hands sbatch "=1" as the value (no `=` form for short options), so
            # a count or a time written so is refused; the value is kept as sbatch sees it.
            value = "" if word[:2] in FLAGS else word[2:]
            if not value and word[:2] not in FLAGS and i + 1 < len(words):
                value, i = words[i + 1], i + 1
            value, i = _template_field(value, words, i)
            options[SHORT[word[:2]]] = value
        elif word.startswith("-") and len(word) > 1:
            options[word.lstrip("-")] = ""
        i += 1


# A template's blank to fill in (`-J { jobname }`, `-t {LIMIT_TIME}`, `-A <account>`, words in
# square brackets, `--gres=[2 A100 80g]`; not `--array=[0-9]`, one word Slurm reads): sbatch
# would read `{` or `<account>` literally, which is not what the job will be submitted with.
TEMPLATE_FIELD = re.compile(r"^(?:\{.*\}|<.*>|\[[^\]]*\s[^\]]*\])$", re.DOTALL)
OPENS = {"{": "}", "<": ">", "[": "]"}
# A Jinja or Mustache field anywhere in a value (`gpu:{{ num_gpu }}`, `{{ ram_gb|int }}G`,
# `cryosparc_{{ project_uid }}`): a cluster template's blank (cryoSPARC lanes, Open OnDemand
# forms), filled in when the job is submitted.
DOUBLE_BRACE_FIELD = re.compile(r"\{\{|\}\}|\{%")
# A brace field written as one word: a name sbatch takes as written (a time or a count it
# could not read, so only the job's name keeps it).
ONE_WORD_FIELD = re.compile(r"\{[\w.-]+\}")


def _template_field(value, words, i):
    """A template field written over several words (`{ jobname }`) is kept whole, so the note
    shows it as written and its later words are not read as options."""
    if "{{" in value and value.count("{{") > value.count("}}"):
        # A Jinja or Mustache field (`cryosparc_{{ project_uid }}_{{ job_uid }}`): up to where
        # its braces close, a few words on.
        for end in range(i + 1, min(i + 8, len(words))):
            joined = " ".join([value, *words[i + 1 : end + 1]])
            if joined.count("{{") <= joined.count("}}"):
                return joined, end
        return value, i
    close = OPENS.get(value[:1])
    if not close or value.endswith(close):
        return value, i
    # Bounded: a template field is a few words; an unclosed brace does not swallow the line.
    for end in range(i + 1, min(i + 6, len(words))):
        if words[end].endswith(close):
            return " ".join([value, *words[i + 1 : end + 1]]), end
    return value, i


def slurm_minutes_to_duration(value):
    """Slurm time: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S -> '36h' style, or None."""
    value = value.strip()
    if no_time_limit(value):
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
    if seconds and c is not None and int(b) < 60 and int(c) < 60:
        return value  # H:M:S and D-H:M:S read the same in the format: kept as typed
    # (`00:00:60` or `0:90:00` are no time on a clock; Slurm adds them up: 1min, 1h30min)
    return format_duration(seconds) if seconds else None


def no_time_limit(value):
    """--time=0, UNLIMITED or INFINITE: Slurm imposes no limit of the job's own."""
    return value.strip().upper() in ("UNLIMITED", "INFINITE") or bool(
        re.fullmatch(r"0+(?:[-:]0+)*", value.strip())
    )


def slurm_memory(value):
    """Slurm sizes are binary and default to MB: '16G' -> '16 GiB', '1.8T' -> '1.8 TiB'."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGT]?)B?", value.strip(), flags=re.IGNORECASE)
    if not m:
        return None
    unit = {"": "MiB", "K": "KiB", "M": "MiB", "G": "GiB", "T": "TiB"}[m.group(2).upper()]
    size = Size.of(f"{m.group(1)} {unit}")
    return size.text if size.exact else None  # not a size any job has; the check asks for one


def array_count(spec):
    """'0-99%10' -> (100, 10); '1,3,5-9:2' -> (5, None)."""
    spec, _, limit = spec.partition("%")
    spec = spec.strip().removeprefix("[").removesuffix("]")  # --array=[0-4] is 0-4
    total = 0
    for part in spec.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+)(?::(\d+))?)?", part.strip())
        if not m:
            return None, None
        start, end, step = int(m.group(1)), m.group(2), int(m.group(3) or 1)
        total += 1 if end is None else max(0, (int(end) - start) // max(step, 1) + 1)
    return total, int(limit) if _digits(limit) else None


def import_text(text):
    """One description per component: an ordinary script has one, a heterogeneous job
    (`#SBATCH hetjob`) one per component, each running with the others."""
    components = parse_components(text)
    # Options of the whole job are written once, in the first component.
    for options in components[1:]:
        for key in JOB_WIDE:
            if key in components[0] and key not in options:
                options[key] = components[0][key]
    lines = text.splitlines()
    first_command = header(lines)[1]
    # The command is the script without its directives; #SBATCH lines after the first
    # command stay (a heredoc may write them into another script).
    body = "\n".join(
        line
        for index, line in enumerate(lines)
        if index >= first_command or not line.strip().startswith("#SBATCH")
    )
    body = re.sub(r"\A#![^\n]*\n", "", body).strip()
    # A hetjob's GPU component explains the GPU commands the others share the script with.
    asks = [_gpus(dict(o), 1, None, []) is not None for o in components]
    results = [
        _component(options, body, gpus_elsewhere=any(asks) and not asked)
        for options, asked in zip(components, asks, strict=True)
    ]
    # Data the commands move, the container they start (commands.py, issue 28).
    exact = commands.fill_sbatch(results, lines, first_command, _log_folders(components))
    unread = _unread_directives(lines, first_command)
    for _, notes in results:
        notes.extend(unread)
    if len(results) > 1:
        base = results[0][0].get("name") or "hetjob"
        names = [f"{base}/component-{i}" for i in range(len(results))]
        for index, (description, notes) in enumerate(results):
            description["name"] = names[index]
            work = description.setdefault("work", {})
            work["runs_with"] = [n for i, n in enumerate(names) if i != index]
            notes.append(
                f"hetjob: component {index} of {len(results)}; the components are allocated "
                "and start together."
            )
    # Third, the lines the commands' values were read from (provenance.sources(exact=…)).
    return [(d, n, e) for (d, n), e in zip(results, exact, strict=True)]


def _log_folders(components):
    """The folders the job's console and error logs go to (`--output logs/%x-%j.out`)."""
    folders = set()
    for options in components:
        for key in ("output", "error"):
            folder = str(options.get(key) or "").rpartition("/")[0]
            if folder and "%" not in folder:
                folders.add(folder.rstrip("/"))
    return folders


def _component(options, body, gpus_elsewhere=False):
    notes = []
    work, data, request, output, realtime = {}, {}, {}, {}, {}
    description = {}
    options = dict(options)
    blank_gpus = False
    for key, value in list(options.items()):
        if key == "job-name" and (
            ONE_WORD_FIELD.fullmatch(value or "")
            or (DOUBLE_BRACE_FIELD.search(value or "") and not re.search(r"\s", value))
        ):
            # `--job-name={in_file}`, `-J {{name}}_sim`: one word, and sbatch names the job with
            # it, braces and all
            continue
        if TEMPLATE_FIELD.match(value or "") or DOUBLE_BRACE_FIELD.search(value or ""):
            # A template's blank: the value it is submitted with is not in the file.
            notes.append(
                f"--{key} {value}: a template field left unfilled, not a value sbatch reads."
            )
            del options[key]
            # GPUs asked for with a blank: how many is not said, nor that there are none.
            blank_gpus = blank_gpus or key in GPU_KEYS
    if options.get("job-name"):
        description["name"] = options["job-name"]
    exported = COMMAND_MARK in body.splitlines()
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
            if m.group(2) and low < high:
                request["min_nodes"] = low
                request["less_compute"] = "fewer_nodes"
                notes.append(f"--nodes {nodes}: it starts on as few as {low} nodes.")
        else:
            notes.append(f"--nodes {nodes}: not a node count sbatch reads.")
    elif (named := _host_count(options.get("nodelist"))) and named > 1:
        # Slurm allocates at least the nodes the list names; with no --nodes, that many.
        request["nodes"] = named
        notes.append(f"--nodelist {options.pop('nodelist')}: {named} nodes named, no --nodes.")
    elif spread := _nodes_for_tasks(options):
        request["nodes"] = spread
        notes.append(
            f"--ntasks {options['ntasks']} at most {options['ntasks-per-node']} per node, no "
            f"--nodes: {spread} nodes."
        )
    node_count = request.get("nodes", 1)
    tasks_per_node = _tasks_per_node(options, node_count)
    totals = [f"--{k} {options[k]}" for k in ("ntasks", "gpus") if (_int(options.get(k)) or 0) > 1]
    if totals and "nodes" not in request and not nodes and not options.get("ntasks-per-node"):
        notes.append(
            f"{' and '.join(totals)} with no --nodes: read as on one node; Slurm may spread "
            "them over several nodes, so say how many nodes."
        )

    accelerators = _gpus(options, node_count, tasks_per_node, notes)
    features, alternatives = _features(options.get("constraint"), notes)
    if features:
        request["node_features"] = features
    choices = [accelerators] if accelerators else []
    if accelerators is not None and "type" not in accelerators:
        named = [f for f in features if GPU_NAMES.match(f)]
        models = next((g for g in alternatives if all(GPU_NAMES.match(f) for f in g)), None)
        if len(named) == 1:
            accelerators["type"] = named[0]
        elif models and accelerators:
            # -C "a100|h100" with --gres=gpu:8: eight of either model, as SkyPilot's any_of.
            choices = [{**accelerators, "type": model} for model in models]
            notes.append(
                f"--constraint {options['constraint']}: the GPU models are alternatives with no "
                "order of preference."
            )
    if choices:
        request["accelerators"] = choices
    elif accelerators is None and not blank_gpus:
        # Slurm gives a job no GPU unless it asks for one, but a script that uses GPUs with
        # no GPU directive gets them another way (a GPU partition, whole nodes, options given
        # at submission): CPU-only is said only when nothing in the file points to GPUs.
        cpu_nodes = _cpu_partition(options) or _hides_gpus(body)
        hint = (
            None
            if gpus_elsewhere or _said_no_gpu(options) or cpu_nodes
            else gpu_hint(options, body)
        )
        per_node = _gpus_per_whole_node(options, body) if hint else None
        step = _gpus_a_step_asks(options, body) if hint and not per_node else None
        if step:
            request["accelerators"] = [{"count": step[1]}]
            notes.append(
                f"No GPU directive: the job step asks {step[1]} GPU(s) on its node ({step[0]}); "
                "the GPU model is not said."
            )
        elif per_node:
            name, count = per_node
            request["accelerators"] = [{"count": count}]
            notes.append(
                f"No GPU directive: the job takes whole nodes (--exclusive) and runs ${name} = "
                f"{count} GPUs per node; the GPU model is not said."
            )
        elif hint:
            notes.append(
                f"No GPU directive, yet the job points to {kind_of(hint)} ({hint}): say which "
                f"{kind_of(hint)} and how many per node."
            )
        elif (
            _said_no_gpu(options)
            or cpu_nodes
            or (
                _hands_off_to(body, in_container=True) is None
                and not GIVEN_COMMAND.search(body or "")
                and not TEMPLATE_COMMAND.search(body or "")
                and not TEST_RUNNER.search(body or "")
                and not commands.runs_listed_commands(body)
                and not _runs_nothing(body)
                and not _starts_services(body)
                and _shows_work(body)
            )
        ):
            request["no_accelerators"] = True
        # (commands that only hand over to another script show no work of their own: what it
        # runs on is written there, so CPU-only is not said; unless --gres=gpu:0 says it outright,
        # as nothing the script starts gets a GPU the job was not given)

    if options.get("time"):
        limit = slurm_minutes_to_duration(options["time"])
        if limit:
            request["maximum"] = limit
        elif no_time_limit(options["time"]):
            notes.append(
                f"--time {options['time']}: no time limit of its own (the partition's "
                "maximum applies)."
            )
        else:
            notes.append(f"--time {options['time']}: not a time limit Slurm reads.")
    if options.get("time-min"):
        shortest = slurm_minutes_to_duration(options["time-min"])
        notes.append(
            f"--time-min {options['time-min']}: the job accepts a time limit as short as {shortest}."
        )
    for key, field in (("begin", "earliest_start"), ("deadline", "deadline")):
        if not options.get(key):
            continue
        try:
            parse_when(options[key])
            request[field] = options[key]
        except UnitError:
            # Slurm also takes 'now+1hour', '16:00' or 'tomorrow': times relative to submission.
            notes.append(f"--{key} {options[key]}: a time relative to submission, not a date.")
    _shape(options, body, request, work, notes)
    if "requeue" in options:
        request["preemptible"] = True
    if "no-requeue" in options and exported:
        request["preemptible"] = False  # the portal writes --no-requeue for preemptible: false
    elif "no-requeue" in options:
        # Never requeued: preempted or after a node failure it ends. That says what happens to
        # it, not whether the job may be preempted.
        notes.append(
            "--no-requeue: Slurm never requeues the job (preempted or after a node failure, it "
            "ends); whether it can be preempted is not said."
        )
    if options.get("signal"):
        notes.append(f"--signal {options['signal']}: the job is warned before it is stopped.")
    if options.get("tmp"):
        scratch = slurm_memory(options["tmp"])
        if scratch:
            data["scratch"] = scratch
    per_gpu_tasks = _int(options.get("ntasks-per-gpu"))
    if not tasks_per_node and per_gpu_tasks and isinstance((accelerators or {}).get("count"), int):
        # --ntasks-per-gpu N: N tasks beside each of the node's GPUs.
        tasks_per_node = per_gpu_tasks * accelerators["count"]
    elif options.get("ntasks-per-gpu") and not tasks_per_node:
        notes.append(
            f"--ntasks-per-gpu {options['ntasks-per-gpu']}: tasks per GPU, with no count of "
            "GPUs per node to multiply."
        )
    cpus = _cpus(options, node_count, tasks_per_node, accelerators)
    if cpus:
        request["cpus_per_node"] = cpus
    if tasks_per_node or options.get("ntasks"):
        key = next(k for k in ("ntasks-per-node", "ntasks", "ntasks-per-gpu") if options.get(k))
        tasks = options[key]
        if key == "ntasks-per-gpu":
            tasks = f"{tasks} × {accelerators['count']} GPUs"
        if options.get("cpus-per-task"):
            pass
        elif cpus and cpus == tasks_per_node:
            notes.append(
                f"--{key} {tasks}: tasks of one core each (no --cpus-per-task), "
                f"{cpus} core{'s' if cpus != 1 else ''} per node."
            )
        else:
            notes.append(f"--{key} {tasks}: tasks, each with one core unless --cpus-per-task says.")
    memory = _memory(options, cpus, accelerators, notes)
    if memory:
        request["memory_per_node"] = memory
    if options.get("tmp"):
        scratch = slurm_memory(options["tmp"])
        if scratch:
            data["scratch"] = scratch
    elif options.get("gres") and (
        disk := next(filter(None, map(_local_disk, options["gres"].split(","))), None)
    ):
        data["scratch"] = disk
    for key, meaning in STREAMS.items():
        if options.get(key):
            notes.append(f"--{key} {options[key]}: {meaning}.")
    _script_facts(body, work, data, request, output, notes, options)
    if not output.get("artifacts"):
        # Say what is missing rather than invent an output from the log.
        notes.append(
            "Output not declared: the script does not say what the job produces or where it "
            "goes. Say it in the output step."
        )
    for key in ("partition", "account", "qos", "reservation"):
        if options.get(key):
            notes.append(f"--{key} {options[key]} is specific to the cluster it came from.")
    for key in sorted(
        set(options)
        - READ
        - set(STREAMS)
        - {"partition", "account", "qos", "reservation", "time-min", "signal"}
    ):
        value = f" {options[key]}" if options[key] else ""
        notes.append(f"--{key}{value}: not represented in the format.")

    notes.extend(_submits(body))
    if ends_serving(body):
        realtime.update(serves_requests=True, finishes_on_its_own=False)
        notes.append("The script ends by leaving a server running in the foreground.")

    for key, part in (("work", work), ("data", data), ("request", request), ("output", output),
                      ("realtime", realtime)):  # fmt: skip
        if part:
            description[key] = part
    return description, notes


# What a script that uses GPUs says in its commands (not in comments: a comment may say
# "no GPU"). `module load cuda` alone is not here: CPU tools link CUDA libraries too.
GPU_USE = re.compile(
    r"gpu|nvidia-smi|rocm-smi|CUDA_VISIBLE_DEVICES|ROCR_VISIBLE_DEVICES|HIP_VISIBLE_DEVICES|"
    r"\bnccl|nvcr\.io|"
    # The list of CUDA devices a Charm++ program runs on (`namd3 +p8 +devices 0,1 x.conf`)
    r"(?<![\w+])\+devices\b|"
    # A container given the node's GPUs (Singularity/Apptainer `--nv`, `--nvccli`, `--rocm`).
    r"\b(?:singularity|apptainer)\b[^\n]*\s--(?:nv|nvccli|rocm)\b",
    re.IGNORECASE,
)
# Lines that name GPUs without using them: a message printed (`echo "=== GPUs ==="`,
# `printf`) and SkyPilot's catalogue of GPU types (`sky show-gpus`).
GPU_WORDS_ONLY = re.compile(
    r"(?:(?:echo|printf)\s|sky\s+show-gpus\b)(?:\"[^\"]*\"|'[^']*'|[^&;|\"'])*"
    r"(?:\|\|\s*echo\s(?:\"[^\"]*\"|'[^']*'|[^&;|\"'])*)?$"
)
GPU_DEVICES = re.compile(r"VISIBLE_DEVICES|nvidia-smi|rocm-smi|\$\{?SLURM_\w*GPU", re.IGNORECASE)
# Accelerator work a command shows without saying "gpu": PyTorch putting tensors on CUDA
# (`.cuda()`, `device=cuda`, `cuda:0`, `torch.cuda`), CUDA settings only a GPU run reads
# (Megatron's CUDA_DEVICE_MAX_CONNECTIONS), and AWS Trainium/Inferentia's Neuron tools and
# settings (`neuronx`, `optimum-neuron`, `neuron_parallel_compile`, NEURON_RT_*). The NEURON
# neuroscience simulator (`nrniv`, NEURONHOME) runs on CPUs: the bare word is not enough.
ACCELERATOR_USE = re.compile(
    r"\.cuda\(|\btorch\.cuda\b|\bcuda:\d|\bdevice\W{0,3}cuda\b|"
    r"\bCUDA_(?:DEVICE_MAX_CONNECTIONS|LAUNCH_BLOCKING|DEVICE_ORDER)\b|"
    r"neuronx|optimum[-_]neuron|\bneuron_parallel_compile\b|\bneuron-(?:ls|top|monitor)\b|"
    r"\bNEURON_(?:RT|CC|EXTRACT|COMPILE|FUSE|NUM)\w*|"
    # Cloud TPU runtime settings and builds (`TPU_WORKER_ID`, `jax[tpu]`, libtpu, DEVICE=tpu)
    r"\bTPU_(?:WORKER_ID|WORKER_HOSTNAMES|ACCELERATOR_TYPE|CHIPS_PER_HOST_BOUNDS)\b|"
    r"jax\[tpu\]|\blibtpu\b|\bdevice[= ]tpu\b|"
    # A Python program named for fine-tuning a language model by a method that runs on GPUs
    # (`python -m pkg.train_sft`, `run_dpo.py`, `grpo_train.py`, `train_lora_llm.py`, QLoRA)
    r"\bpython[\d.]*(?:\s+-[A-Za-z]+)*\s+(?!-)[\w./-]*?(?<![a-z])(?:sft|dpo|grpo|q?lora)(?![a-z])|"
    # GPU inference engines serving or batch-running a model (vLLM, SGLang, TGI)
    r"\bvllm\s+(?:serve|run-batch)\b|\bvllm\.entrypoints\b|\bsglang\.launch_server\b|"
    r"\btext-generation-launcher\b",
    re.IGNORECASE,
)
# A launcher starting several processes on each node (`torchrun --nproc-per-node=4`, `deepspeed
# --num_gpus`, `accelerate launch --num_processes 2`): one per GPU, as these launchers are run;
# one process per node says nothing.
PROCESSES_PER_NODE = re.compile(
    r"\b(?:torchrun|torch\.distributed\.(?:run|launch)|deepspeed|accelerate\s+launch)\b[^\n]{0,400}?"
    r"--(?:nproc[-_]per[-_]node|num[-_]processes)(?:=|\s+)[\"']?(\S+?)[\"']?(?:\s|$)",
    re.IGNORECASE,
)
# A command that turns GPUs off (`--gpu -1`, `--gpus 0`, `--no-gpu`, `CUDA_VISIBLE_DEVICES=-1`
# or empty) names them without using them. `--gpu 0` is left out: it often picks device 0.
GPU_OFF = re.compile(
    r"--(?:num[-_])?gpus?(?:=|\s+)[\"']?-1\b|--(?:num[-_])?gpus(?:=|\s+)[\"']?0(?![\d.])|"
    r"--no[-_]gpus?\b|"
    r"\bCUDA_VISIBLE_DEVICES=(?:-1\b|[\"']{2}|\s|$)",
    re.IGNORECASE,
)
# Loading a module built for GPUs (`module load tensorflow-gpu/2.16`) sets up the software, as
# on clusters whose only build of a library is the GPU one: not work that uses a GPU.
MODULE_LOAD = re.compile(r"(?:module|ml)\s+(?:(?:load|add)\s+)?[\w./+-]+(?:\s+[\w./+-]+)*\s*$")
GPU_WORDS = (
    "gpu",
    "nvidia-smi",
    "rocm-smi",
    "_visible_devices",
    "nccl",
    "nvcr.io",
    "+devices",
    "--nv",
    "--rocm",
    "cuda",
    "neuron",
    "nproc",
    "num_processes",
    "num-processes",
    "tpu",
    "sft",
    "dpo",
    "grpo",
    "lora",
    "vllm",
    "sglang",
    "text-generation-launcher",
)
# A partition named for its GPU nodes by a `-g` suffix (LUMI's `small-g`, `standard-g`, `dev-g`).
GPU_PARTITION = re.compile(r"gpu|[-_]g(?:$|,)", re.IGNORECASE)
GPU_NAMED = re.compile(r"gpu", re.IGNORECASE)
# A partition named for CPU nodes (`cpu`, `cpu-long`, `short_cpu`, `cpuonly`): no GPU there,
# whatever script the job hands over to.
CPU_PARTITION = re.compile(r"(?:^|[-_])cpu(?:only)?(?:$|[-_])", re.IGNORECASE)
# GRES names of GPU-class accelerators other than `gpu`: Hygon's DCU (Sugon clusters) and
# Huawei Ascend's NPU, counted as `--gres=gpu:N` is.
OTHER_ACCELERATORS = {"dcu", "npu"}
GPU_KEYS = ("gres", "gpus", "gpus-per-node", "gpus-per-task", "gpus-per-socket")


def _cpu_partition(options):
    """Every partition the job may run in is named for CPU nodes (`-p cpu`, `cpu-long,cpu`), or
    the nodes must have a feature so named (`--constraint=cpu`, as NERSC's CPU nodes are asked
    for beside `-C gpu`; one of several features joined by `&`)."""
    names = [n for n in (options.get("partition") or "").split(",") if n.strip()]
    if names and all(CPU_PARTITION.search(n.strip()) for n in names):
        return True
    constraint = (options.get("constraint") or "").strip().strip("\"'")
    return "|" not in constraint and any(
        CPU_PARTITION.search(part.strip()) for part in constraint.split("&")
    )


# The script hides every GPU from all it runs after (`export CUDA_VISIBLE_DEVICES=''`, `=-1`)…
HIDES_GPUS = re.compile(
    r"""^[ \t]*export[ \t]+CUDA_VISIBLE_DEVICES=(?:""|''|-1|"-1"|'-1')?[ \t]*;?[ \t]*$""", re.M
)
# …and gives none back later (`CUDA_VISIBLE_DEVICES=0 python …`).
SHOWS_GPUS = re.compile(r"""CUDA_VISIBLE_DEVICES=["']?(?:\$|\d)""")


def _hides_gpus(body):
    """With no GPU directive, a script that hides the node's GPUs from everything it starts
    runs on CPUs, even in a partition named for GPUs."""
    return bool(HIDES_GPUS.search(body or "")) and not SHOWS_GPUS.search(body or "")


# A line that only sets the environment up and starts nothing: a comment, a blank line, a
# module load, activating an environment, changing folder, setting a variable to a plain value.
ONLY_ENVIRONMENT = re.compile(
    r"""^[ \t]*+(?:|#.*|(?:module|ml|source|\.|cd|pushd|set|unset|export)(?:[ \t]++[^;&|`(]*+)?+|"""
    r"""popd|conda[ \t]+(?:de)?activate\b[^;&|`(]*|"""
    # (Spack's `spack load`, as `module load`; limits; a lone `exit 0`; a move to the script's
    # own folder, `cd $(dirname $0)`)
    r"""spack[ \t]++(?:un)?load\b[^;&|`(]*+|ulimit\b[^;&|`(]*+|exit(?:[ \t]++\d++)?+[ \t]*+|"""
    r"""cd[ \t]++"?\$\((?:dirname|realpath|readlink)[ \t][^;&|`()]*+\)"?[ \t]*+|"""
    r"""(?:export[ \t]+)?[A-Za-z_]\w*=(?:"[^"`(]*"|'[^']*'|[^\s"'`(;&|]*)[ \t]*(?:#.*)?)$"""
)


# A build tree's test suite run (`ctest`, `CMD="ctest -j 32"`, `make test`, `make check`): what
# the tests run on is in the tests (CMake files not shown), so CPU-only is not said.
TEST_RUNNER = re.compile(
    r"""(?:^|[;&|("'=])[ \t]*(?:ctest|make[ \t]+(?:test|check))(?=[ \t;&|"')]|$)""", re.M
)


def _starts_services(body):
    """True when a step runs an application's start script by its path (`/opt/app/1.0/start`,
    `./start_server.sh`): what the services it starts run on is written there, as for a script
    handed over to, so CPU-only is not said."""
    if "start" not in (body or ""):
        return False  # (a plain search first)
    return any(STARTS_SERVICES.match(line) for line in body.splitlines() if "start" in line)


def _runs_nothing(body):
    """A script with no command beyond setting its environment up (a template's empty body,
    only `module load` lines) shows no work: what that work runs on is not said, CPU-only
    neither. (`hostname`, `echo`, `sleep` are work: CPU-only.)"""
    return all(
        ONLY_ENVIRONMENT.match(line) or SHELL_CONTROL.match(line)
        for line in (body or "").splitlines()
    )


def _said_no_gpu(options):
    """--gres=gpu:0 or --gpus=0: the file says outright that the job has no GPU."""
    if re.search(r"(?:^|,)gpu(?::\w+)?:0(?:,|$)", options.get("gres") or ""):
        return True
    return any(re.fullmatch(r"(?:\w+:)?0", options.get(k) or "") for k in GPU_KEYS[1:])


# An srun step's own GPU request and task and node counts (`srun -N1 -n1 -c4 --gpus-per-task=1
# ./app`), as srun reads them: `--opt=value`, `--opt value`, `-nVALUE`, `-n VALUE`.
STEP_GPU_OPTIONS = {"--gpus-per-task": "per_task", "--gpus-per-node": "per_node", "--gpus": "all",
                    "-G": "all"}  # fmt: skip
STEP_COUNT_OPTIONS = {"-n": "tasks", "--ntasks": "tasks", "-N": "nodes", "--nodes": "nodes",
                      "--ntasks-per-node": "tasks_per_node"}  # fmt: skip


def _gpus_a_step_asks(options, body):
    """(the srun line, GPUs on its one node) when a script with no GPU directive runs steps
    that ask for GPUs themselves (`srun -N1 -n1 --gpus-per-task=1 ./app`, `srun --gpus=2 ./app`
    on one node): those GPUs are the job's, on a cluster that gives them with the node. Steps
    started in the background together (`srun … ./a &`, `srun … ./b &`, `wait`) add up; one
    after another the most any asks. A job with no --nodes has one, unless it asks several
    tasks. A step over several nodes, or nodes held in variables, says no count per node."""
    if "srun" not in body:
        return None
    job_nodes = _count(options, "nodes")
    if not (options.get("nodes") or "").strip():
        job_nodes = 1 if _count(options, "ntasks", default=1) == 1 else None
    best, running = None, 0  # (the line, the count) asked most; GPUs of steps in the background
    for line in body.splitlines():
        text = line.strip()
        if text == "wait" or text.startswith("wait "):
            running = 0
            continue
        if not text.startswith("srun ") or "gpu" not in text and "-G" not in text:
            continue
        given = {}
        words, i = text.split(), 1
        while i < len(words) and words[i][:1] == "-":  # (then the program srun starts)
            option, eq, value = words[i].partition("=")
            i += 1
            if not eq and option[:2] in ("-n", "-N", "-G") and len(option) > 2:
                option, value = option[:2], option[2:]
            elif not eq and (option in STEP_GPU_OPTIONS or option in STEP_COUNT_OPTIONS):
                value = words[i] if i < len(words) else ""
                i += 1
            kind = STEP_GPU_OPTIONS.get(option) or STEP_COUNT_OPTIONS.get(option)
            if kind:
                given[kind] = int(value) if _digits(value) else None  # (`-n $N`: not known)
        nodes = given.get("nodes", job_nodes)
        if nodes != 1:
            return None  # over several nodes (or not known): no count per node
        if "per_task" in given:
            tasks = (
                given["tasks"] if "tasks" in given
                else given["tasks_per_node"] if "tasks_per_node" in given
                else _count(options, "ntasks", default=_count(options, "ntasks-per-node", 1))
            )  # fmt: skip
            count = given["per_task"] * tasks if given["per_task"] and tasks else None
        else:
            count = given.get("per_node") or given.get("all")
        if not count:
            continue
        background = text.endswith("&") and not text.endswith("&&")
        asked = running + count
        running = asked if background else running
        if best is None or asked > best[1]:
            best = (text[:80], asked)
    return best


def _count(options, key, default=None):
    """A directive's plain count (`--nodes=1`), else the default."""
    value = (options.get(key) or "").strip()
    return int(value) if _digits(value) else default if not value else None


def _gpus_per_whole_node(options, body):
    """(variable, count) when a script with no GPU directive takes whole nodes (--exclusive)
    and says how many GPUs each has: a variable named for GPUs per node, or one the
    launch uses as the processes per node (`GPUS=8` … `--ntasks-per-node=$GPUS`). Without
    --exclusive the node's GPUs are not the job's; a count of GPUs in all is not per node."""
    if "exclusive" not in options:
        return None
    for name, value in script_variables(body).values.items():
        if not re.search(r"GPU", name, re.IGNORECASE) or not _digits(value) or value == "0":
            continue
        per_node = re.search(r"PER_NODE", name, re.IGNORECASE) or re.search(
            rf"--(?:ntasks-per-node|nproc[-_]per[-_]node|gpus-per-node)[= ]+[\"']?\$\{{?{name}\b",
            body,
        )
        if per_node:
            return name, int(value)
    return None


def kind_of(hint):
    """The accelerators a hint of gpu_hint points to, in words: TPU and Neuron work is not GPU
    work."""
    if TPU_HINT.search(hint):
        return "TPUs"
    if "neuron" in hint.lower():
        return "Neuron devices (Trainium or Inferentia)"
    return "GPUs"


TPU_HINT = re.compile(r"\btpu\b|\bTPU_|libtpu|jax\[tpu\]", re.IGNORECASE)


def gpu_hint(options, body):
    """Where the file points to GPUs without asking for any: a GPU partition or node
    class, or a command that uses them. None when nothing does."""
    for key in ("partition", "constraint", "qos", "account"):
        named_for_gpus = GPU_PARTITION if key == "partition" else GPU_NAMED
        if named_for_gpus.search(options.get(key) or ""):
            return f"--{key} {options[key]}"
    lowered = (body or "").lower()
    if not any(word in lowered for word in GPU_WORDS):
        # One pass over the text for the common case: no GPU word at all, but srun's `-G 2`.
        lines = (line.strip() for line in body.splitlines()) if "-G" in (body or "") else ()
        return next((t[:80] for t in lines if t[:5] == "srun " and _srun_g(t)), None)
    for line in (body or "").splitlines():
        text = line.strip()
        used = text and not text.startswith("#") and GPU_USE.search(text)
        if used and not GPU_OFF.search(text) and not MODULE_LOAD.match(text):
            if GPU_WORDS_ONLY.match(text) and not GPU_DEVICES.search(text):
                continue  # (printing the GPUs the job was given still says it has some)
            return text[:80]
    return _accelerator_work(body)


def _srun_g(text):
    """True when an srun line asks GPUs by srun's short option (`srun -G 2 ./app`, `-G2`),
    before the program it starts (whose own `-G` is not srun's)."""
    words = [*text.split(), ""]
    for previous, word, after in zip(words, words[1:], words[2:], strict=False):
        if word[:2] == "-G":
            count = word[2:].lstrip("=") or after
            return count[:1] in "123456789" and _digits(count)
        if word[:1] != "-" and previous[:1] != "-":
            return False  # the program srun starts
    return False


def _accelerator_work(body):
    """A command that runs accelerator work without naming a GPU (CUDA tensors, Neuron tools,
    a launcher with several processes per node), or None. A launcher's options span lines:
    comments are dropped before continued lines are joined."""
    commands = "\n".join(line for line in body.splitlines() if not line.lstrip().startswith("#"))
    variables = None
    for line in commands.replace("\\\n", " ").splitlines():
        text = line.strip()
        if ACCELERATOR_USE.search(text) or (text[:5] == "srun " and _srun_g(text)):
            return text[:80]
        if match := PROCESSES_PER_NODE.search(text):
            variables = variables or script_variables(body)
            count = variables.expand(match.group(1), record=False).strip("\"'")
            if _digits(count) and int(count) > 1:
                return text[:80]
    return None


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


CONTAINER = re.compile(r"--container-image(?:=|\s+)[\"']?([^\s\"']+)")
LONE_VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*)\}?")


def _from_environment(value, body):
    """A value that is one variable the script takes from its environment by name
    (`CONTAINER=$CONTAINER`, `: ${CONTAINER:?}`): kept as written, as a location is."""
    if not (match := LONE_VARIABLE.fullmatch(value)):
        return False
    name = re.escape(match.group(1))
    return bool(
        re.search(rf"^\s*(?:export\s+)?{name}=[\"']?\$\{{?{name}\}}?[\"']?\s*$", body, re.M)
        or re.search(rf"\$\{{{name}:?\?", body)
    )


# A command that changes the working directory (`cd /scratch/run`, `mkdir -p r && cd r`,
# `pushd r`, `( cd r; … )`): `$(pwd)` after it is not the submit directory. (blanks only
# within the line: linear)
CD_LINE = re.compile(r"(?:^|&&|\|\||[;({]|\bthen|\bdo|\belse)[ \t]*+(?:cd|pushd)(?:[ \t]|$)", re.M)
# Directives that name the job's container: pyxis' --container-image, Shifter's --image.
IMAGE_KEYS = ("container-image", "image")


def _script_facts(body, work, data, request, output, notes, options=None):
    """What the commands say outright: the container image and the buckets read and
    written (where checkpoints go is read with the other options, in commands.py)."""
    variables = script_variables(body)
    image = next(((options or {}).get(k) for k in IMAGE_KEYS if (options or {}).get(k)), None)
    # A directive is read at submission, before the script sets anything: only an image in
    # the commands is expanded from the script's variables.
    expanded = image
    in_commands = False
    if image is None and (match := CONTAINER.search(body or "")):
        image = match.group(1)
        expanded = variables.expand(image, record=False)
        in_commands = True
    if image and "image" not in work:
        if not in_commands and re.search(r"\$\(|`", image):
            # sbatch runs no command in a directive (`--container-image=$(pwd)/x.sqsh`): the
            # runtime is given the text as written, no image
            notes.append(
                f"Container image {image}: a command in a directive, which sbatch does not run; "
                "not stated."
            )
            return _script_locations(body, variables, data, output)
        if (
            in_commands
            and expanded.startswith(("$(pwd)/", "`pwd`/"))
            and not CD_LINE.search(body)
            and not (options or {}).get("chdir")
        ):
            # an image in the submit directory (`IMAGE=$(pwd)/x.sqsh`, no `cd` in the script,
            # no --chdir: the job starts where it was submitted)
            expanded = "$PWD/" + expanded.split("/", 1)[1]
        elif in_commands and expanded.startswith(("$(pwd)/", "`pwd`/")):
            notes.append(
                f"Container image {image}: {expanded} in the directory the job changes to "
                "(cd, pushd or --chdir), not the submit directory; not stated."
            )
            return _script_locations(body, variables, data, output)
        if "$" in expanded.removeprefix("$PWD/") and not _from_environment(expanded, body):
            # Set outside the script: the image is chosen at submission.
            notes.append(f"Container image {image}: set outside the script, not stated.")
        else:
            work["image"] = expanded
    _script_locations(body, variables, data, output)


def _script_locations(body, variables, data, output):
    reads, writes = mounts.script_locations(variables.expand(body or "", record=False))
    if reads:
        data["inputs"] = [{"location": uri} for uri in reads]
    if writes:
        output.setdefault("artifacts", []).extend({"destination": uri} for uri in writes)


# A command that submits a job (not `echo "… sbatch …"` or a comment): `sbatch --begin=now+24hour
# $0`, `sbatch -d afterok:$SLURM_JOB_ID next.sh`, `sbatch recursive-array.sh $((N + 1))`.
SUBMIT = re.compile(
    r"""(?:^|(?<=[;&|(`])|(?<=then)|(?<=else)|(?<=\bdo)|(?<=sh -c ["'])|(?<=sh\t-c ["']))"""
    r"[ \t]*sbatch[ \t]+([^\n]*)",
    re.M,
)


# A submission's dependency given through a script variable (`--dependency=$dependency`,
# `-d "${DEP}"`), after `dependency="afterany:${jobid}"`: the condition is the variable's value.
SUBMIT_DEPENDENCY = re.compile(
    r"""(--dependency[= ]|-d[ ]?)(["']?)\$\{?([A-Za-z_]\w*+)\}?\2(?=\s|$)"""
)


def _up_to_closing_quote(text, quote):
    """`sh -c "sbatch next.sh"; …`: the text up to the quote that closes the one opened before
    it, the one leaving the quotes at a word's end (`--job-name="$N" x.sh"`: the quote after
    `=` closes and the one after `$N` opens again, within the word)."""
    inside = True
    for i, char in enumerate(text):
        if char == quote:
            inside = not inside
            if not inside and (i + 1 == len(text) or text[i + 1] in " \t\n;&|)"):
                return text[:i]
    return text


# A quoted part of a submission (`--wrap='python x.py --api-key …'`): a command of its own.
QUOTED_PART = re.compile(r"""(['"])([^'"]*+)\1""")


def _masked_submission(line):
    """A submission as its note shows it: the keys written in it hidden, as on a shown line
    (mounts.masked), and in a command it quotes (`--wrap='… --api-key sk-…'`)."""
    line = QUOTED_PART.sub(lambda m: f"{m.group(1)}{mounts.masked(m.group(2))}{m.group(1)}", line)
    return mounts.masked(line)


def _submits(body):
    """Notes for each job the script submits from its commands: a job that resubmits itself
    (or its next part) runs again as a new job, and nothing carries over unless it resumes
    on its own, so it is no chain of restarts."""
    lines = []
    if "sbatch" not in (body or ""):
        return []  # (directives are `#SBATCH`: most scripts submit nothing)
    body = body.replace("\\\n", " ")  # (a submission continued over lines is one line)
    variables = None
    for match in SUBMIT.finditer(body):
        before = body[body.rfind("\n", 0, match.start()) + 1 : match.start()]
        if before.lstrip().startswith("#") or " #" in before:
            continue  # in a comment ("Run with `sbatch job.sh`"): not a command
        line = match.group(1)
        if (quote := body[match.start() - 1 : match.start()]) in ("'", '"'):
            line = _up_to_closing_quote(line, quote)
        line = re.split(r";|&&|\|\||`|\s#", line)[0]
        if line.count(")") > line.count("("):
            line = line[: line.rindex(")")]  # the end of $(sbatch …)
        line = re.sub(r"\s+", " ", line[:1200]).strip()
        if "$" in line and (dependency := SUBMIT_DEPENDENCY.search(line)):
            variables = variables or script_variables(body)
            if value := variables.values.get(dependency.group(3)):
                line = f"{line[: dependency.start()]}{dependency.group(1)}{value}{line[dependency.end() :]}"
        line = _masked_submission(line)[:120]
        if line and line not in lines:
            lines.append(line)
    notes = [
        f"sbatch {line}: the job submits another job when it runs (each a job of its own; "
        "a job resubmitting itself is a new job, not a restart that carries over)."
        for line in lines[:3]
    ]
    if len(lines) > 3:
        notes.append(f"{len(lines) - 3} more sbatch submissions in the commands.")
    return notes


def _shape(options, body, request, work, notes):
    nodes = request.get("nodes", 1)
    array = options.get("array")
    if array and array_count(array)[0] == 1:
        # An array of one task (`--array=1`): one run, picked by its index; no shards.
        notes.append(f"--array {array}: an array of one task.")
        array = None
    if array:
        count, limit = array_count(options["array"])
        if count is None:
            # Not indexes (`--array=SRR1,SRR2`, a name list): sbatch refuses the script, so
            # it gives no shards; the names belong in a file the tasks read by their index.
            notes.append(
                f"--array {options['array']}: not an index list sbatch reads (it refuses the "
                "script): no shards stated."
            )
            return
        uses_index = "ARRAY_TASK_ID" in body
        if limit == 1 and count and count > 1 and (nodes > 1 or not uses_index):
            # One allocation at a time, each picking up where the last stopped: a restart chain.
            work["shape"] = "chain"
            work["chain_runs"] = count
            notes.append(
                f"--array {options['array']}: {count} runs one after another (%1), each "
                "continuing from the last."
            )
            return
        work["shape"] = "shards"
        if count:
            work["shards"] = count
        if nodes > 1:
            work["nodes_per_shard"] = nodes
        if limit:
            # How many shards run at once, not how big each is: it asks for no nodes.
            notes.append(f"--array limit %{limit}: at most {limit} shards run at once.")
    elif nodes > 1:
        if (script := _hands_off_to(body) or _runs_without_launcher(body)) is not None:
            # The nodes are the inner script's to use: whether it runs one program over all of
            # them or a task per node is written there, not here.
            notes.append(
                f"{nodes} nodes, and the commands only run {script}: how it spreads over the "
                "nodes (one gang or independent parts) is in that script; say which."
            )
            return
        if _srun_steps_on_one_node(body):
            # `srun --nodes=1 python train.py`: each step runs on one of the nodes, not one
            # program over all of them; how the others are used is not a gang's.
            notes.append(
                f"{nodes} nodes, but every srun step asks for one node: the steps do not run "
                "as one program over all of them; say how the nodes are used."
            )
            return
        work["shape"] = "gang"  # one sbatch allocation starts and ends together


# srun's short options that take their value as the next word (`-p gpu`, `-n 4`).
SRUN_VALUED = commands.SRUN_VALUED


def _srun_nodes(words):
    """The node count an srun command asks for by its own options (`-N1`, `-N 1`,
    `--nodes=$N`), as written; None when it does not say."""
    i, nodes = 1, None
    while i < len(words) and words[i].startswith("-"):
        option, eq, value = words[i].partition("=")
        following = words[i + 1] if i + 1 < len(words) else ""
        if option in ("-N", "--nodes"):
            nodes = value if eq else following
            i += 0 if eq else 1
        elif option.startswith("-N") and option[2:].isdigit():
            nodes = option[2:]
        elif not eq and (
            option in SRUN_VALUED
            or (option.startswith("--") and (following.isdigit() or following[:1] == "$"))
        ):
            i += 1  # (its value)
        i += 1
    return nodes


def _srun_steps_on_one_node(body):
    """True when the commands start their work with srun only, one step after another, and
    every srun asks for one node (`srun --nodes=1 --ntasks-per-node=2 python -u train.py`,
    `N=1` given to `-N $N`). (Steps sent to the background, `srun -N1 -w $node ray start … &`,
    may join one another over the nodes: a Ray cluster is one program.)"""
    if not body or "srun" not in body or RENDEZVOUS.search(body):
        return False
    counts = []
    for line in body.replace("\\\n", " ").splitlines():
        words = line.split()
        if words and words[0] == "srun":
            if re.search(r"(?<!&)&\s*(?:#.*)?$", line):
                return False
            counts.append(_srun_nodes(words) or "")
        elif words and LAUNCHES.match(line):
            return False  # a launcher of its own beside the srun steps
    if any("$" in c for c in counts):
        variables = script_variables(body)
        counts = [variables.expand(c, record=False) for c in counts]
    return bool(counts) and all(c.strip("\"'") == "1" for c in counts)


# Launchers that start a program over the allocation's nodes besides srun.
LAUNCHES = re.compile(
    r"^\s*(?:mpirun|mpiexec|torchrun|deepspeed|accelerate\s+launch|"
    r"python[\d.]*\s+-m\s+torch\.distributed)\b"
)


# What a script's own steps say about its work, beside running another script: setting up the
# environment, moving about, printing.
SETTING_UP = re.compile(
    r"^\s*(?:#|$|(?:export\s+)?[A-Za-z_]\w*=|module\s|ml\s|source\s|\.\s|cd\s|pushd\s|popd\b|"
    r"echo\b|printf\b|set\s|conda\s+(?:de)?activate\b|mkdir\s|date\b|hostname\b|nvidia-smi\b|"
    r"wandb\s+(?:login|online|offline|enabled|disabled)\b|"
    # making the script it then starts executable (`chmod +x run.sh`)
    r"chmod\s|"
    # the shell's limits and leaving a Python environment (`ulimit -s unlimited`, `deactivate`)
    r"ulimit\s|deactivate\s*$)"
)
# The shell's own words around steps (`if [[ … ]]`, `then`, `for x in …`, `do`, `done`): no step.
# (a test only: `if srun prog; then` runs a step)
SHELL_CONTROL = re.compile(
    r"^\s*+(?:(?:if|elif|while|until)\s++\[\[?\s(?:[^;&|`$(]|\$\w)*\]\]?+\s*+(?:;\s*+(?:then|do))?+\s*+$|"
    r"(?:then|else|fi|do|done|esac)\s*+$|for\s++\w++\s++in\b(?:[^;&|`$]|\$(?!\())*+(?:;\s*+do)?+\s*+$)"
)
# A distributed program's meeting point or size, set for the script it runs.
RENDEZVOUS = re.compile(r"\b(?:MASTER_ADDR|MASTER_PORT|WORLD_SIZE|NNODES|NUM_NODES)\b")
# Running another shell script of the project with a shell (`bash run/train.sh --lr 1`) or as a
# program by its path (`./run.sh`, `/proj/train/pretrain.sh --save_interval 700`,
# `$HOME/jobs/fit.sh`), no launcher in front of it.
RUNS_A_SCRIPT = re.compile(
    r"^\s*(?:(?:bash|sh|zsh)\s+(?:-\w+\s+)*|(?=\.{0,2}/|~/|\$))([^\s;&|]+\.sh)\b[^;&|]*$"
    # or, in a container, a program the image keeps, started alone (`bash -c /usr/local/bin/x`)
    r"|^\s*(?:/(?:usr/)?bin/)?(?:bash|sh)\s+-c\s+[\"']?(/(?:usr|opt)/[^\s;&|\"']+)[\"']?\s*$"
)
# A container runtime in front of the step (`shifter`, `apptainer exec [options] IMAGE`), and
# srun starting it: what runs inside decides.
IN_CONTAINER = re.compile(
    r"^\s*(?:srun(?:\s+-[\w-]+(?:=\S+|\s+\d+)?)*\s+)?(?:shifter(?:\s+--?\w[\w-]*(?:=\S+)?)*|"
    r"(?:singularity|apptainer)\s+(?:exec|run)(?:\s+--?\w[\w-]*(?:=\S+)?)*\s+\S+\.(?:sif|simg|sqsh))\s+"
)

# Work handed to a Ray cluster already running elsewhere (`ray job submit --address … -- cmd`):
# it runs there, on that cluster's machines, not in this allocation.
RAY_SUBMIT = re.compile(r"^\s*(?:[A-Za-z_]\w*=\S+\s+)*ray\s+job\s+submit\b[^;&|]*?\s--\s+(\S.*)$")
# A W&B sweep agent (`wandb agent --count 1 "$1"`, also under `conda run`): it runs the program
# and settings the sweep holds, written there, not here.
SWEEP_AGENT = re.compile(
    r"^\s*(?:conda\s+run\s+(?:(?:-n|--name|-p|--prefix)\s+\S+\s+|--[\w-]+\s+)*)?"
    r"(wandb\s+agent\s[^;&|]*?)\s*$"
)


# The program itself given at submission (`python $*`, `srun python3 "$@"`, `"$@"`), also through
# a variable set to the script's arguments (`cmd="$@"` … `python $cmd`): a hand-off, as to a script.
# (one line each: `[ \t]`, not `\s`, so a pattern run over the whole body with MULTILINE does
# not rescan the blank lines after each line's start)
SRUN_PREFIX = r"""(?:srun(?:[ \t]+-[\w-]+(?:=\S+)?)*[ \t]+)?"""
ALL_ARGUMENTS = r"""["']?\$(?:[@*]|\{[@*]\})["']?[ \t]*$"""
ARGS_VARIABLE = re.compile(
    rf"""^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)={ALL_ARGUMENTS}""", re.MULTILINE
)
# The shell words that run the rest of the line as its command (`time "$@"`, `exec "$@"`).
SHELL_PREFIX = r"""(?:(?:time|exec|nohup|command)[ \t]+(?:-p[ \t]+)?)?"""
# (also through an MPI launcher and its options: `mpiexec "$@"`, `mpirun -np 4 "$@"`)
MPI_PREFIX = r"""(?:(?:mpirun|mpiexec)(?:[ \t]++(?:-\S++|\d++))*+[ \t]++)?"""
GIVEN_PROGRAM = re.compile(
    rf"""^\s*{SHELL_PREFIX}{SRUN_PREFIX}{MPI_PREFIX}(?:python[\d.]*\s+(?:-\w+\s+)*)?{ALL_ARGUMENTS}"""
)

# A command line the script is given as an argument and runs (`bash -c "$1"`, `eval "$2"`): the
# work is chosen at submission, and so is what it runs on.
# A command left as a template's blank (cryoSPARC's `{{ run_cmd }}`, RELION's `mpirun
# XXXcommandXXX`): the program is filled in at submission, so what it runs on is not said.
# (only a launcher's options before it: `srun ./gadget4 {{dir}}/x.param` runs a program of its own)
TEMPLATE_COMMAND = re.compile(
    r"^[ \t]*(?:(?:mpirun|mpiexec|srun)(?:[ \t]+(?:-\S+|\d+))*[ \t]+)?(?:\{\{|XXX[A-Za-z]+XXX\b)",
    re.MULTILINE,
)
GIVEN_COMMAND = re.compile(
    rf"""^[ \t]*{SRUN_PREFIX}(?:(?:ba)?sh[ \t]+-c|eval)[ \t]+"""
    r"""["']?\$(?:\d|\{\d+\}|[@*]|\{[@*]\})["']?[ \t]*$""",
    re.MULTILINE,
)


def _given_program(step, body):
    """Whether a step runs a program the script is given as its arguments."""
    for name in ARGS_VARIABLE.findall(body or ""):
        step = re.sub(rf"\$(?:{name}\b|\{{{name}\}})", "$@", step)
    return bool(GIVEN_PROGRAM.match(step))


def _srun_script(step):
    """The shell script of the project srun starts (`srun run_fit.sh`, which srun finds in the
    working folder too; `srun -n 4 bash x.sh`), or None: what that script runs on is written
    in it. (Only for the hardware: over several nodes srun still starts a gang of copies.)"""
    if any(c in step for c in ";&|"):
        return None
    words = step.split()
    if not words or words[0] != "srun":
        return None
    i = 1
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in SRUN_VALUED else 1
    if i < len(words) and words[i] in ("bash", "sh", "zsh"):
        i += 1
        while i < len(words) and words[i].startswith("-"):
            i += 1
    script = words[i] if i < len(words) else ""
    return script if script.endswith(".sh") and script[:1] not in ("$", "-") else None


def _shows_work(body):
    """Whether the commands run anything besides setting up and the shell's own words: a job
    whose work is a script of the project it sources (`for n in …; do cd $n; source run.sh;
    done`) shows none of its own, so nothing in it says what hardware that work runs on. (A
    job of setting up alone is _runs_nothing's.)"""
    if not RUNS_SOURCED.search(body or ""):
        return True
    for line in (body or "").replace("\\\n", " ").splitlines():
        if not SETTING_UP.match(line) and not SHELL_CONTROL.match(line):
            return True
        if COMMAND_AFTER_SETTING.match(line):
            return True  # `SLURM_JOB_NAME=bash pdm run python …`: set for the command it runs
    return False


# A script of the project sourced by a relative path (`source run.sh`, `. ./go.sh`), not an
# environment's (`source ~/.bashrc`, `source venv/bin/activate`, `. setup_env.sh`).
RUNS_SOURCED = re.compile(
    r"^[ \t]*(?:source|\.)[ \t]+(?:\./)?(?![\w./-]*(?:env|setup|activate|conda|profile|rc\b))"
    r"[A-Za-z_][\w.-]*(?:/[\w.-]+)*\.sh\b",
    re.M,
)
# A variable set for the command that follows it on the line (`X='a' prog …`, not `X="a b"`).
COMMAND_AFTER_SETTING = re.compile(
    r"""^\s*[A-Za-z_]\w*=(?:'[^'\n]*'|"[^"\n]*"|[^\s'"]*)\s+[^\s#;&|]"""
)


def _hands_off_to(body, in_container=False):
    """The script a job's commands only hand over to (its one step besides setting up), or
    None when the commands do more or launch their work themselves. `in_container`: also
    through a container runtime (`shifter ./x.sh`), which says nothing of the hardware the
    script uses (still a gang of copies when srun spreads it over nodes)."""
    # (only whether there is one step matters: the look stops at a second)
    steps = list(
        itertools.islice(
            (
                line
                for line in (body or "").replace("\\\n", " ").splitlines()
                # (`X=… ray job submit …` sets X for the command: a step, not an assignment)
                if not SETTING_UP.match(line) or ("ray" in line and RAY_SUBMIT.match(line))
            ),
            2,
        )
    )
    if not steps and (sourced := _sourced_script(body)):
        return sourced
    if len(steps) == 1 and (submitted := RAY_SUBMIT.match(steps[0])):
        return submitted.group(1)
    if in_container and len(steps) == 1 and (inside := IN_CONTAINER.match(steps[0])):
        steps = [steps[0][inside.end() :]]
        if not RUNS_A_SCRIPT.match(steps[0]) and not steps[0].lstrip().startswith("./"):
            return None
    started = in_container and len(steps) == 1 and _srun_script(steps[0])
    if started and not RENDEZVOUS.search(body):
        return started
    if len(steps) == 1 and (agent := SWEEP_AGENT.match(steps[0])):
        return agent.group(1)
    if len(steps) == 1 and _given_program(steps[0], body):
        return steps[0].strip()
    if len(steps) != 1 or not (match := RUNS_A_SCRIPT.match(steps[0])):
        return None
    if RENDEZVOUS.search(body):
        return None  # it sets up where the nodes meet: one program spread over them
    return match.group(1) or match.group(2)


# `source run.sh` / `. run.sh`: a script read into the job's own shell.
# (anchored, one greedy run backing off to its `.sh`: linear)
SOURCED_SCRIPT = re.compile(r"^\s*+(?:source|\.)\s++([^\s;&|]+\.sh)\s*+$")
# Words naming a script that sets the environment up rather than doing the work.
# (toolchains too: `source cuda12.sh`, `. GMXRC.sh`, `source spack_intel.sh`, `source lmod.sh`)
ENVIRONMENT_WORDS = ("env", "activate", "conda", "profile", "bashrc", "setup", "module", "vars",
                     "config", "init", "path", "load", "cuda", "intel", "mpi", "gmxrc", "spack",
                     "lmod", "oneapi", "compiler", "toolchain")  # fmt: skip
# Where a site installs software: a script sourced from there sets a tool up
# (`source /opt/ohpc/pub/mpi/mvapich2.sh`, `/appl/spack/intel.sh`), it is not the project's.
SOFTWARE_TREE = re.compile(
    r"^/(?:opt|appl|usr|apps?|sw|cvmfs|etc|software|soft|cm/shared|share/apps|global/common)/"
)


def _sourced_script(body):
    """The project's script a job whose commands only set up reads into its shell as its last
    step (`source common.sh`: the work is there), or None; not one named for the environment
    (`source env.sh`, `. venv/bin/activate`, `source setup_modules.sh`)."""
    last = next(
        (
            line
            for line in reversed((body or "").splitlines())
            if line.strip() and not line.lstrip().startswith("#")
        ),
        "",
    )
    if ("source" in last or ". " in last) and (m := SOURCED_SCRIPT.match(last)):
        name = m.group(1).rsplit("/", 1)[-1].lower()
        if not any(w in name for w in ENVIRONMENT_WORDS) and not SOFTWARE_TREE.match(m.group(1)):
            return m.group(1)
    return None


# A program of the project started once with no launcher in front (`python3 sim/run.py 4`,
# `make run`): it starts on the first node only, and any use of the others is its own.
# (the program as a path, or a variable holding it: `SCRIPT=/proj/prep.py`, `python $SCRIPT`)
# (the program's word holds no quote or bracket and ends where `.py` does, so the line splits
# one way only: `a.py.py….py&` once took seconds)
RUNS_A_PROGRAM = re.compile(
    r"^\s*(?:time\s+)?(?:python[\d.]*\s+(?:-[a-zA-Z]+\s+)*[\"']?"
    r"([^\s;&|\"'()-][^\s;&|\"'()]*\.py(?=[\s\"')]|$)|\$\{?[A-Za-z_]\w*\}?(?=[\"']?(?:\s|$)))|"
    r"make\s++(?:-\S+\s+)*(\w++(?:[.-]++\w++)*+)\b)[^;&|]*+$"
)
INSTALLS = re.compile(r"^\s*(?:python[\d.]*\s+-m\s+)?pip3?\s+install\b")


def _runs_without_launcher(body):
    """The program a multi-node job's commands start with no launcher (python, make), when
    every step besides setting up does so; None otherwise."""
    steps = [
        line
        for line in (body or "").replace("\\\n", " ").splitlines()
        if not SETTING_UP.match(line) and not INSTALLS.match(line)
    ]
    # (a script handed over after them counts as one too: `python gen_hosts.py` then
    # `bash ds_pretrain.sh`, neither started by a launcher)
    matches = [RUNS_A_PROGRAM.match(step) or RUNS_A_SCRIPT.match(step) for step in steps]
    if not matches or not all(matches) or RENDEZVOUS.search(body):
        return None
    last = matches[-1]
    if last.re is RUNS_A_SCRIPT:
        return last.group(1) or last.group(2)
    return last.group(1) or f"make {last.group(2)}"


def _host_count(nodelist):
    """How many hosts a Slurm host list names (`gpu-[6-8]`, `a1,a2`, `n[01-04,07]`,
    `r[1-2]-n[1-4]`); None for a file of names (a path) or what is not a host list."""
    if not nodelist or "/" in nodelist:
        return None
    total = 0
    for host in _top_level(nodelist.strip(), ","):
        count = 1
        for group in re.findall(r"\[([^\]]*)\]", host):
            count *= sum(_range_size(part) or 0 for part in group.split(","))
        if not count or re.search(r"[\[\]]", re.sub(r"\[[^\]]*\]", "", host)):
            return None
        total += count
    return total or None


def _range_size(part):
    m = re.fullmatch(r"\s*(\d+)(?:-(\d+))?\s*", part)
    if not m:
        return None
    low, high = int(m.group(1)), int(m.group(2) or m.group(1))
    # No cluster has a million nodes: a longer range is not a host list.
    return high - low + 1 if low <= high < low + 10**6 else None


def _nodes_for_tasks(options):
    """--ntasks N with --ntasks-per-node M (a most per node) and no --nodes: sbatch asks for
    the fewest nodes that hold them, N / M rounded up. Said only when that is more than one:
    N tasks that fit on one node say nothing of how many nodes (as --ntasks alone)."""
    total, per_node = _int(options.get("ntasks")), _int(options.get("ntasks-per-node"))
    if options.get("nodes") or not total or not per_node or total <= per_node:
        return None
    return -(-total // per_node)


def _tasks_per_node(options, node_count):
    per_node = _int(options.get("ntasks-per-node"))
    total = _int(options.get("ntasks"))
    fixed = "-" not in (options.get("nodes") or "")
    if per_node and total and fixed and total < per_node * node_count and total % node_count == 0:
        # --ntasks takes precedence: --ntasks-per-node is then the most on a node (sbatch's
        # manual), so --ntasks=1 with --ntasks-per-node=2 is one task.
        return total // node_count
    if per_node:
        return per_node
    if "-" in (options.get("nodes") or ""):
        return None  # --nodes=2-4: how the tasks spread depends on how many nodes it gets
    if total and total % node_count == 0:
        return total // node_count
    return None


def _cpus(options, node_count, tasks_per_node, accelerators):
    per_task = _int(options.get("cpus-per-task"))
    if per_task and options.get("ntasks") and not tasks_per_node:
        return None  # --ntasks=6 over --nodes=4: the tasks on a node differ, cores too
    if per_task:
        return per_task * (tasks_per_node or 1)
    per_gpu = _int(options.get("cpus-per-gpu"))
    if per_gpu and accelerators and isinstance(accelerators.get("count"), int):
        return per_gpu * accelerators["count"]
    # Slurm gives each task one core unless --cpus-per-task says more: N tasks on a node
    # hold N cores (--exclusive or not; the rest of the node is not asked for).
    return tasks_per_node


# Directives that ask for cores, or a count of tasks that each hold one (`--exclusive`: the
# whole node's); with none of them a job has one core, and --mem-per-cpu is its memory.
ASKS_FOR_CORES = (
    "cpus-per-task", "cpus-per-gpu", "mincpus", "ntasks", "ntasks-per-node", "ntasks-per-gpu",
    "ntasks-per-socket", "ntasks-per-core", "exclusive",
)  # fmt: skip


def _memory(options, cpus, accelerators, notes):
    if options.get("mem"):
        if options["mem"].strip() == "0":
            notes.append("--mem 0: all the memory of each node.")
            return None
        return slurm_memory(options["mem"])
    if cpus is None and not any(key in options for key in ASKS_FOR_CORES):
        cpus = 1  # Slurm's default: one task of one core, when nothing asks for more
    for key, per in (("mem-per-cpu", cpus), ("mem-per-gpu", (accelerators or {}).get("count"))):
        value = options.get(key)
        if not value:
            continue
        if value.strip() == "0":  # a zero size is Slurm's "all of the node's memory", as --mem=0
            notes.append(f"--{key} 0: all the memory of each node.")
            return None
        unit = slurm_memory(value)
        if unit and isinstance(per, int):
            size = Size.of(unit)
            notes.append(f"--{key} {value}: {unit} × {per} per node.")
            return format_size(size.bytes * per)
        notes.append(f"--{key} {value}: memory per {key[8:]}, with no count per node to multiply.")
    return None


def _features(constraint, notes):
    """--constraint -> (features every node has, groups of alternatives). Parts joined by &
    are all required; a part with | (`a100|h100`, `[ib1|ib2]`) is one of its features only,
    so it is not a feature every node has."""
    if not constraint:
        return [], []
    text = constraint.strip().strip("\"'")
    if "[" in text and "|" in text:
        # Slurm's matching OR (`[ivb|hsw]`): one of them, the same on every node of the job.
        notes.append(
            f"--constraint {constraint}: alternatives; every node has the same one of them."
        )
    elif "|" in text or "[" in text:
        notes.append(f"--constraint {constraint}: alternatives; each node has one of them.")
    required, alternatives = [], []
    for part in _top_level(text, "&,"):
        names = [p.strip("()[] ").split("*")[0] for p in re.split(r"[&|,]", part)]
        names = [n for n in names if n]
        if "|" in part:
            alternatives.append(names)
        else:
            required.extend(names)
    return required, alternatives


def _top_level(text, separators):
    """Split at separators outside () and []."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(depth - 1, 0)
        elif char in separators and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def _digits(value):
    """Only the digits 0-9: a count int() reads (`²` or `³` pass isdigit() and int() refuses
    them, which made a file with one unreadable)."""
    return value.isascii() and value.isdigit()


def _int(value):
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


# A generic resource some sites define for the node's own disk, asked for by size
# (`--gres=tmpspace:100G`, `--gres=tmp:50G`, `--gres=lscratch:200G`): what --tmp asks for.
LOCAL_DISK_GRES = re.compile(
    r"(?:tmp|tmpspace|tmpdisk|localtmp|local_tmp|lscratch|localscratch|local_scratch|nvme|ssd)"
    r":(\d+(?:\.\d+)?[KMGT]B?)",
    re.IGNORECASE,
)


def _local_disk(item):
    """The size of node-local disk a --gres item asks for (with its unit), or None."""
    m = LOCAL_DISK_GRES.fullmatch(item.strip())
    return slurm_memory(m.group(1)) if m else None


def _gpus(options, node_count, tasks_per_node, notes):
    """--gres=gpu[:type][:N], --gpus-per-node, --gpus-per-task, --gpus -> {type, count per node};
    None when the script asks for no GPU at all."""
    gres = options.get("gres")
    found = None
    if gres:
        for item in re.split(r",(?![^()]*\))", gres):
            item = re.sub(r"\(.*?\)", "", item).strip()
            if "$" in item:
                # sbatch does not expand variables in directives (`--gres=gpu:${N}`): no count,
                # yet GPUs are asked for, so the job is not CPU-only
                notes.append(f"--gres {item}: a variable sbatch does not expand, no GPU count.")
                kind = item.split(":", 1)[0].lower()
                if found is None and (kind in ("gpu", "gpus") or kind in OTHER_ACCELERATORS):
                    found = {}
                continue
            parts = item.split(":")
            if parts[0] in OTHER_ACCELERATORS and len(parts) <= 2:
                parts.insert(1, parts[0])  # --gres=dcu:4: four of the kind the name says
            elif _local_disk(item):
                continue  # the node's own disk, stated as data.scratch (_local_disk)
            elif parts[0] not in OTHER_ACCELERATORS and parts[0] != "gpu":
                notes.append(f"--gres {item}: a generic resource the format does not hold.")
                continue
            entry = {}
            if len(parts) >= 2 and not parts[-1].isdigit():
                parts.append("1")  # --gres=gpu:a100 asks for one
            count = _int(parts[-1]) if len(parts) > 1 else 1
            if count == 0:
                continue  # --gres=gpu:0 asks for no GPU
            if count:
                entry["count"] = count
            if len(parts) >= 3 and parts[1].isdigit():
                # `--gres=gpu:40:1`: a type of only digits is the cluster's own label (a memory
                # size, a class), not a GPU model
                notes.append(f"--gres {item}: the GPU type {parts[1]} names no model.")
            elif len(parts) >= 3:
                entry["type"] = parts[1]
            found = entry
    if found:
        return found
    for key in ("gpus-per-node", "gpus-per-task", "gpus-per-socket", "gpus"):
        value = options.get(key)
        if not value:
            continue
        if "$" in value:
            # (`--gpus-per-node=${GPUS_PER_NODE}`: sbatch reads it as written and refuses it;
            # GPUs are asked for all the same, with no count)
            notes.append(f"--{key} {value}: a variable sbatch does not expand, no GPU count.")
            found = {} if found is None else found
            continue
        kind, _, count = value.rpartition(":")
        if not _digits(count):
            kind, count = value, "1"
        number = int(count)
        if number == 0:
            continue  # --gpus=0 asks for no GPU, as --gres=gpu:0
        entry = {"type": kind} if kind else {}
        if key == "gpus-per-node":
            entry["count"] = number
        elif key == "gpus-per-task":
            if tasks_per_node:
                entry["count"] = number * tasks_per_node
            else:
                notes.append(
                    f"--gpus-per-task {value}: {number} per task, tasks per node not given."
                )
        elif key == "gpus-per-socket":
            sockets = _int(options.get("sockets-per-node"))
            if sockets:
                entry["count"] = number * sockets
            else:
                notes.append(
                    f"--gpus-per-socket {value}: {number} per socket, sockets per node not given."
                )
        elif number % node_count == 0:
            entry["count"] = number // node_count
        else:
            notes.append(
                f"--gpus {value}: {number} in all, not evenly spread over {node_count} nodes."
            )
        return entry
    return found
