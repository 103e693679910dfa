"""Reading untrusted text safely, and the format's YAML/JSON form.

Limits keep hostile input harmless: size, binary content, YAML aliases (the
"billion laughs"), nesting depth and the number of values."""

import json
import re

import yaml

from .model import Description

MAX_TEXT_BYTES = 1_000_000
MAX_NODES = 50_000
MAX_DEPTH = 40
MAX_ALIASES = 100
# A script's command lines read in full: the first HEAD_LINES and the last TAIL_LINES. One
# past that (generated, hundreds of thousands of lines; no hand-written job comes near) has
# its middle left unread, with a note, so an import stays well under a second at 1 MB.
HEAD_LINES = 4000
TAIL_LINES = 1000
# One command read up to LONGEST_COMMAND characters, cut at a space: past that (a generated line
# of tens of thousands of options; no hand-written command comes near) the rest is left unread,
# with a note, so a megabyte on one line costs what a tenth of it does.
LONGEST_COMMAND = 100_000


NUL = "\x00"
_NUL_MESSAGE = "The file holds a NUL character (written \\0 or \\u0000): job files are text."


class SpecReadError(ValueError):
    """The input cannot be read at all; the message is one line for the person."""


def decode(raw):
    data = raw.encode("utf-8", errors="surrogatepass") if isinstance(raw, str) else bytes(raw)
    if len(data) > MAX_TEXT_BYTES:
        raise SpecReadError(
            f"The file is {len(data) / 1e6:.1f} MB; job files are at most {MAX_TEXT_BYTES // 1000} KB."
        )
    if b"\x00" in data:
        raise SpecReadError("This is a binary file, not a YAML, JSON or sbatch text file.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SpecReadError("The file is not UTF-8 text.") from None
    # Windows (CRLF) and classic Mac (CR) line ends: a script read line by line must see lines.
    return text.replace("\r\n", "\n").replace("\r", "\n")


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that refuses documents that would expand beyond sane limits."""

    def __init__(self, stream):
        super().__init__(stream)
        self._aliases = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise SpecReadError("The YAML uses too many aliases (&anchors / *references).")
        return super().compose_node(parent, index)


def _check_size(value):
    """Walk the loaded value counting every node, references included."""
    count = 0
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise SpecReadError("The file holds too many values to be a job description.")
        if depth > MAX_DEPTH:
            raise SpecReadError("The file is nested too deeply to be a job description.")
        if isinstance(node, str) and NUL in node:
            # A raw NUL is refused in decode(); an escaped one ("\0", "\x00", "\u0000")
            # appears only now, and PostgreSQL cannot store it.
            raise SpecReadError(_NUL_MESSAGE)
        if isinstance(node, dict):
            if any(isinstance(k, str) and NUL in k for k in node):
                raise SpecReadError(_NUL_MESSAGE)
            stack.extend((v, depth + 1) for v in node.values())
            stack.extend((k, depth + 1) for k in node if isinstance(k, tuple | dict | list))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)


# YAML 1.1 reads `maximum: 48:00:00` as the number 172800 (base 60) and `deadline: 2027-03-31`
# as a date, so neither could be printed back as typed (and a Slurm time read as minutes
# became 120 days). Both stay text, as in YAML 1.2; the format parses them itself.
_CLOCK = re.compile(r"^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$")
_TIMESTAMP = "tag:yaml.org,2002:timestamp"


def _times_as_text(loader):
    resolvers = {
        first: [("tag:yaml.org,2002:str", _CLOCK)] * (first in "+-0123456789")
        + [(tag, pattern) for tag, pattern in rules if tag != _TIMESTAMP]
        for first, rules in loader.yaml_implicit_resolvers.items()
    }
    return type(loader.__name__, (loader,), {"yaml_implicit_resolvers": resolvers})


_BoundedLoader = _times_as_text(_BoundedLoader)
# libyaml (C) reads a 1 MB file some ten times faster than the pure-Python loader, but its
# composer recurses in C and has no alias hook: it is used only when a cheap scan shows
# shallow nesting and few possible aliases; anything else goes through _BoundedLoader.
_FAST = _times_as_text(yaml.CSafeLoader) if hasattr(yaml, "CSafeLoader") else None
_FLOW = re.compile(r"[\[\]{}]")
_STACKED = re.compile(r"^[ \t]*(?:[-?][ \t]+){8,}", re.MULTILINE)
_MAYBE_ALIAS = re.compile(r"(?:^|[\s\[{,:-])\*[^\s,\]}]")
FAST_DEPTH = 20


def _shallow(text):
    """True when no flow collection nests deeper than FAST_DEPTH and no line stacks block
    entries; an overestimate only costs speed (the pure loader reads it)."""
    if _STACKED.search(text) or len(_MAYBE_ALIAS.findall(text)) > MAX_ALIASES:
        return False
    depth = deepest = 0
    for bracket in _FLOW.findall(text):
        depth = depth + 1 if bracket in "[{" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    return deepest <= FAST_DEPTH


def load_yaml_documents(text):
    loader = _FAST if _FAST is not None and _shallow(text) else _BoundedLoader
    try:
        documents = [d for d in yaml.load_all(text, Loader=loader) if d is not None]
    except SpecReadError:
        raise
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(error, "problem", None) or "it is not valid YAML"
        raise SpecReadError(f"The YAML cannot be read{where}: {problem}.") from None
    except RecursionError:
        raise SpecReadError("The file is nested too deeply to be a job description.") from None
    for document in documents:
        _check_size(document)
    return documents


def load_json(text):
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise SpecReadError(
            f"The JSON cannot be read at line {error.lineno}, column {error.colno}: {error.msg}."
        ) from None
    except RecursionError:
        raise SpecReadError("The file is nested too deeply to be a job description.") from None
    _check_size(value)
    return value


class _Dumper(yaml.SafeDumper):
    pass


def _str_representer(dumper, value):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_representer)


def to_yaml(description: Description):
    return yaml.dump(
        description.to_data(), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100
    )


def to_json(description: Description, indent=2):
    return json.dumps(description.to_data(), indent=indent, ensure_ascii=False)


def longest_command(line):
    """The part of one command that is read: all of it, or its first LONGEST_COMMAND
    characters up to the last space among them."""
    if len(line) <= LONGEST_COMMAND:
        return line
    cut = line.rfind(" ", 0, LONGEST_COMMAND + 1)
    return line[: cut if cut > 0 else LONGEST_COMMAND]


def head_and_tail(lines):
    """(the lines read, how many between them are not): HEAD_LINES and TAIL_LINES."""
    skipped = len(lines) - HEAD_LINES - TAIL_LINES
    if skipped <= 0:
        return lines, 0
    return lines[:HEAD_LINES] + lines[-TAIL_LINES:], skipped
