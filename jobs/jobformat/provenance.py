"""Where in the file each imported value was read: `sources(text, fmt, data)` ->
{dotted path: {"line": 1-based number, "text": that line, stripped}}.

A person checks an import against their file; a field with its line is checked at a glance,
a field without one has to be hunted for. So a value is given the line that set it, found
from the file's own structure (the #SBATCH option, the YAML key) or, for text such as a
bucket or an image, the first line that holds it (or its `$VAR` form). A value whose line is
not found gets no source: a made-up line would be worse than none.

The file is read once into an index (line offsets, #SBATCH options, YAML key paths,
variable assignments); each value is then a dictionary look-up or one `str.find`, so a
1 MB file costs a few passes of C string search, not a pass per line per field."""

import re
from bisect import bisect_right

from . import sbatch
from .mounts import shown_line

# A file with thousands of mounts still answers quickly: past this many values looked up by
# their text, the rest get no source rather than making the import slow.
MAX_TEXT_LOOKUPS = 400
# Occurrences in comments passed over before a value is left without a source.
MAX_COMMENTS_PASSED = 50
MIN_VARIABLE_VALUE = 3  # shorter values ("1", "on") would turn any digit into a `$VAR`

# Slurm: field (list items as N) -> the options that set it, in the order they are tried.
SLURM = {
    "name": ("job-name",),
    "request.nodes": ("nodes",),
    "request.min_nodes": ("nodes",),
    "request.less_compute": ("nodes",),
    "request.maximum": ("time",),
    "request.estimate": ("time-min",),
    "request.accelerators.N.count": ("gres", "gpus-per-node", "gpus", "gpus-per-task",
                                     "gpus-per-socket"),
    "request.accelerators.N.type": ("gres", "gpus-per-node", "gpus", "gpus-per-task",
                                    "gpus-per-socket", "constraint"),
    "request.no_accelerators": ("gres", "gpus-per-node", "gpus", "gpus-per-task"),
    "request.cpus_per_node": ("cpus-per-task", "ntasks-per-node", "ntasks", "cpus-per-gpu"),
    "request.memory_per_node": ("mem", "mem-per-cpu", "mem-per-gpu"),
    "request.node_features": ("constraint",),
    "request.preemptible": ("requeue", "no-requeue"),
    "request.deadline": ("deadline",),
    "request.earliest_start": ("begin",),
    "data.scratch": ("tmp",),
    "work.shards": ("array",),
    "work.chain_runs": ("array",),
    "work.nodes_per_shard": ("nodes",),
}  # fmt: skip
# work.shape is read from different options depending on the shape.
SLURM_SHAPE = {"shards": ("array",), "chain": ("array",)}
SLURM_SHAPE_DEFAULT = ("nodes", "ntasks", "ntasks-per-node")

# SkyPilot: field -> YAML keys, as (top-level key, last key): `resources.accelerators`
# matches under `any_of:` and `ordered:` lists too.
SKYPILOT = {
    "name": (("name", "name"),),
    "request.nodes": (("num_nodes", "num_nodes"),),
    "request.min_nodes": (("num_nodes", "num_nodes"),),
    "work.shape": (("num_nodes", "num_nodes"),),
    "request.accelerators.N.count": (("resources", "accelerators"), ("resources", "gpus")),
    "request.accelerators.N.type": (("resources", "accelerators"), ("resources", "gpus")),
    "request.no_accelerators": (("resources", "accelerators"), ("resources", "gpus")),
    "request.cpus_per_node": (("resources", "cpus"),),
    "request.memory_per_node": (("resources", "memory"),),
    "request.instance_type": (("resources", "instance_type"),),
    "request.preemptible": (("resources", "use_spot"), ("resources", "job_recovery"),
                            ("resources", "spot_recovery")),
    "request.retries": (("resources", "max_restarts_on_errors"),),
    "data.scratch": (("resources", "disk_size"),),
    "realtime.serves_requests": (("service", "service"), ("resources", "ports")),
    "realtime.finishes_on_its_own": (("service", "service"), ("resources", "ports")),
}  # fmt: skip
# Tried only after the value's own text was not found: the key names the field, the value's
# line says more (`run: |` against the command's first line).
SKYPILOT_AFTER_TEXT = {
    "work.command": (("run", "run"),),
    "work.setup": (("setup", "setup"),),
    "work.code": (("workdir", "workdir"),),
    "work.image": (("resources", "image_id"),),
}
# Fields of a list item read with the item: an input's name and access come from its mount.
ITEM_ANCHORS = {
    "data.inputs": "location",
    "output.artifacts": "destination",
    "request.accelerators": "type",
}
# Lists naming other stages: their text is in another document, not a line of this one.
NO_TEXT_SEARCH = {"work.runs_with", "work.depends_on"}

INDEX = re.compile(r"\.\d+(?=\.|$)")
ASSIGNMENT = re.compile(
    r"""^\s*(?:export\s+|-\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*[=:]\s*["']?([^\s"'#]+)"""
)
YAML_KEY = re.compile(
    r"""^("[^"]*"|'[^']*'|[^\s#'"\-{}\[\]][^:#]*?|-[^\s:#][^:#]*?)\s*:(?:\s+(.*))?$"""
)


def _entry(exact):
    """An exact source from an importer (an object with .path/.line/.text, or a dict)."""
    get = exact.get if isinstance(exact, dict) else lambda k: getattr(exact, k, None)
    return get("path"), get("line"), get("text")


class _Lines:
    def __init__(self, text):
        self.text = text
        self.lines = text.splitlines()
        self.starts = []
        offset = 0
        for line in text.splitlines(keepends=True):
            self.starts.append(offset)
            offset += len(line)

    def source(self, index):
        # (hidden before it is cut: a key's closing quote may lie past the cut)
        return {"line": index + 1, "text": shown_line(self.lines[index])}

    def line_of(self, offset):
        return bisect_right(self.starts, offset) - 1

    def find(self, needle, start_line=0, end_line=None):
        """Index of the first line (within the range) that holds needle, or None. A comment
        (`# HF_TOKEN=… sky exec …`) says nothing the job reads: its lines are passed over,
        unless the needle is a comment itself (a script's first line)."""
        if not needle:
            return None
        start = self.starts[start_line] if start_line < len(self.starts) else len(self.text)
        end = self.starts[end_line] if end_line is not None and end_line < len(self.starts) else -1
        end = len(self.text) if end < 0 else end
        for _ in range(MAX_COMMENTS_PASSED):
            at = self.text.find(needle, start, end)
            if at < 0:
                return None
            index = self.line_of(at)
            if needle.startswith("#") or not _is_comment(self.lines[index]):
                return index
            start = self.starts[index + 1] if index + 1 < len(self.starts) else end
        return None


def _slurm_options(lines, part):
    """option -> index of the line that set it, for the component `part` (job-wide options
    of a heterogeneous job are written once, in its first component). Later lines win, as
    in Slurm."""
    components = [{}]
    for index, body in sbatch.header(lines)[0]:
        if body in ("hetjob", "packjob"):
            components.append({})
            continue
        for option in sbatch.parse_options(lines[index]):
            components[-1][option] = index
    found = dict(components[min(part, len(components) - 1)])
    for option in sbatch.JOB_WIDE:
        if option not in found and option in components[0]:
            found[option] = components[0][option]
    return found


def _yaml_documents(lines):
    """[(first line, end line)] of each YAML document (split at `---`)."""
    bounds, start = [], 0
    for index, line in enumerate(lines):
        if line.startswith("---"):
            bounds.append((start, index))
            start = index + 1
    bounds.append((start, len(lines)))
    return [b for b in bounds if any(_is_content(lines[i]) for i in range(*b))] or [(0, 0)]


def _is_comment(line):
    text = line.lstrip()
    return text.startswith("#") and not text.startswith("#SBATCH")


def _is_content(line):
    text = line.strip()
    return bool(text) and not text.startswith("#")


def _yaml_keys(lines, start, end):
    """Scan one YAML document line by line: its key paths (list items as their index) ->
    the first line, and (top key, last key) -> the first line. Nesting comes from the
    indentation; block scalars (`run: |`) are skipped, so a command's `a: b` is no key."""
    paths, ends = {}, {}
    stack = []  # [indent, name, next item index]
    block = None  # indentation of the key whose block scalar is being skipped
    for index in range(start, end):
        line = lines[index]
        stripped = line.lstrip(" ")
        if not stripped.strip() or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        if block is not None:
            if indent > block:
                continue
            block = None
        while stripped.startswith("- ") or stripped.rstrip() == "-":
            # A list item: its parent is the nearest key above it, at its indentation or less.
            while stack and (
                stack[-1][0] > indent or (stack[-1][0] == indent and stack[-1][2] < 0)
            ):
                stack.pop()
            if stack:
                item = stack[-1][2]
                stack[-1][2] += 1
                stack.append([indent, str(item), -1])
            rest = stripped[1:]
            stripped = rest.lstrip(" ")
            indent += 1 + len(rest) - len(stripped)
        match = YAML_KEY.match(stripped.rstrip())
        if not match:
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        key = match.group(1).strip("'\"")
        stack.append([indent, key, 0])
        path = tuple(entry[1] for entry in stack)
        paths.setdefault(path, index)
        ends.setdefault((path[0], key), index)
        value = (match.group(2) or "").strip()
        if value[:1] in ("|", ">"):
            block = indent
    return paths, ends


def leaves(data, prefix=""):
    """(dotted path, value) for each filled leaf of description data (list items by index),
    leaving out the file's own `source` and `version`: what ImportResult.filled() lists."""
    for key, value in data.items():
        if key in ("source", "version") and not prefix:
            continue
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from leaves(value, path + ".")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for i, item in enumerate(value):
                yield from leaves(item, f"{path}.{i}.")
        elif value is not None:
            yield path, value


def _first_text(value):
    """The text a value was written with: a string's first non-blank line; a list's first."""
    if isinstance(value, list):
        value = value[0] if value and isinstance(value[0], str) else None
    if not isinstance(value, str):
        return None
    for line in value.splitlines():
        if line.strip():
            return line.strip()
    return None


class _Finder:
    def __init__(self, text, fmt, part, parts):
        self.fmt = str(fmt)
        self.lines = _Lines(text)
        self.range = (0, len(self.lines.lines))
        self.options, self.paths, self.ends = {}, {}, {}
        if self.fmt == "sbatch":
            self.options = _slurm_options(self.lines.lines, part)
        else:
            documents = _yaml_documents(self.lines.lines)
            # A job group's first document is its header, with no task: stages follow it.
            offset = max(0, len(documents) - parts)
            self.range = documents[min(part + offset, len(documents) - 1)]
            self.paths, self.ends = _yaml_keys(self.lines.lines, *self.range)
            if offset and ("name", "name") not in self.ends:
                # A stage without a name of its own is named after the group's header.
                header = _yaml_keys(self.lines.lines, *documents[0])[1]
                if ("name", "name") in header:
                    self.ends[("name", "name")] = header[("name", "name")]
        self.variables = self._variables()
        self.text_lookups = 0

    def _variables(self):
        """NAME -> value for the file's assignments (`X=…`, `export X=…`, `envs: {X: …}`)."""
        found = {}
        for line in self.lines.lines[self.range[0] : self.range[1]]:
            if "=" not in line and ":" not in line:
                continue
            match = ASSIGNMENT.match(line)
            if match and len(match.group(2)) >= MIN_VARIABLE_VALUE and "$" not in match.group(2):
                found.setdefault(match.group(1), match.group(2))
        return found

    def slurm(self, generic, value):
        if generic == "work.shape":
            options = SLURM_SHAPE.get(value, SLURM_SHAPE_DEFAULT)
        else:
            options = SLURM.get(generic, ())
        present = [self.options[o] for o in options if o in self.options]
        if not present:
            return None
        # Of several options, the one whose line names the value (--constraint=a100 for
        # the GPU's type) before the first present.
        if isinstance(value, str):
            for index in present:
                if value.lower() in self.lines.lines[index].lower():
                    return index
        return present[0]

    def keys(self, table, generic, path):
        if self.fmt == "native":
            return self.paths.get(tuple(path.split(".")))
        for top, last in table.get(generic, ()):
            if (top, last) in self.ends:
                return self.ends[(top, last)]
        return None

    def text(self, value):
        needle = _first_text(value)
        if needle is None or self.text_lookups >= MAX_TEXT_LOOKUPS:
            return None
        self.text_lookups += 1
        found = self.lines.find(needle, *self.range)
        if found is not None:
            return found
        # A bucket written as `name: sky-ckpt` with `store: s3` is read as s3://sky-ckpt.
        scheme, sep, rest = needle.partition("://")
        if sep and len(rest) >= MIN_VARIABLE_VALUE and "/" not in scheme:
            found = self.lines.find(rest, *self.range)
            if found is not None:
                return found
        # Expanded from a variable: look for the text as written, `$NAME` or `${NAME}`.
        for name, known in self.variables.items():
            if known in needle:
                for form in (f"${{{name}}}", f"${name}"):
                    found = self.lines.find(needle.replace(known, form, 1), *self.range)
                    if found is not None:
                        return found
        return None

    def find(self, path, value):
        generic = INDEX.sub(".N", path)
        if self.fmt == "sbatch":
            found = self.slurm(generic, value)
        else:
            found = self.keys(SKYPILOT, generic, path)
        if found is None and generic not in NO_TEXT_SEARCH and not isinstance(value, bool):
            found = self.text(value)
        if found is None and self.fmt == "skypilot":
            found = self.keys(SKYPILOT_AFTER_TEXT, generic, path)
        return found


def sources(text, fmt, data, exact=None, part=0, parts=1):
    """{dotted path: {"line", "text"}} for the filled fields of `data` (description data)
    read from `text` in format `fmt`. `part` is which of the file's `parts` descriptions
    (a pipeline's stage, a hetjob's component) `data` is. `exact` sources an importer
    recorded as it read (objects or dicts with path, line, text) win over looked-up ones."""
    finder = _Finder(text, fmt, part, parts)
    out = {}
    filled = dict(leaves(data))
    for path, value in filled.items():
        index = finder.find(path, value)
        if index is not None:
            out[path] = finder.lines.source(index)
    # A list item's other fields were read with it (an input's name and access, from its mount).
    for path in filled:
        if path in out:
            continue
        for group, anchor in ITEM_ANCHORS.items():
            match = re.match(rf"^{re.escape(group)}\.(\d+)\.", path)
            if match and f"{group}.{match.group(1)}.{anchor}" in out:
                out[path] = out[f"{group}.{match.group(1)}.{anchor}"]
    for entry in exact or ():
        path, line, line_text = _entry(entry)
        if path in filled and isinstance(line, int) and line >= 1:
            known = finder.lines.lines[line - 1] if line <= len(finder.lines.lines) else ""
            out[path] = {"line": line, "text": shown_line(str(line_text or known))}
    return dict(sorted(out.items()))
