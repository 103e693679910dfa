"""The job-description format (version 1): model, units, precision check,
real-time screen, import and export. No UI here; see jobs/ views for that."""

import re
from dataclasses import dataclass, field

from . import provenance, sbatch, skypilot
from .issues import Issue, Level, Problem
from .loading import load
from .model import FORMAT_VERSION, PARTS, Description, SourceFormat
from .mounts import masked
from .precision import check, has_errors, requested_accelerator_hours, requested_node_hours
from .textio import SpecReadError, decode, load_json, load_yaml_documents, to_json, to_yaml

__all__ = [
    "FORMAT_VERSION",
    "PARTS",
    "Description",
    "ImportResult",
    "Issue",
    "Level",
    "Problem",
    "SpecReadError",
    "check",
    "has_errors",
    "import_text",
    "json_schema",
    "lint",
    "load",
    "requested_accelerator_hours",
    "requested_node_hours",
    "to_json",
    "to_yaml",
]

NATIVE_KEYS = set(Description.model_fields)
SCHEMA_ID = "/spec/v1/schema.json"


def lint(data):
    """Plain data -> (Description, issues): what could not be read, then the precision check."""
    description, read_issues = load(data)
    issues = check(description)
    unreadable = {i.field for i in read_issues}
    # A field whose value was refused is reported once, as refused, not also as missing.
    issues = [i for i in issues if i.field not in unreadable]
    return description, read_issues + issues


@dataclass
class ImportResult:
    description: Description
    issues: list[Issue]
    notes: list[str] = field(default_factory=list)
    source_format: str = SourceFormat.NATIVE
    # Filled field -> {"line", "text"}: where in the file its value was read (provenance.py).
    sources: dict = field(default_factory=dict)

    def filled(self):
        """Dotted paths of the fields the file filled in."""
        return sorted(path for path, _ in provenance.leaves(self.description.to_data()))

    def read(self):
        """[(dotted path, value, source or None)] for each filled field, in filled() order:
        what the file said and the line it said it on, a key's value in it hidden."""
        values = dict(provenance.leaves(self.description.to_data()))
        return [(path, masked(values.get(path)), self.sources.get(path)) for path in self.filled()]

    def as_dict(self):
        return {
            "description": self.description.to_data(),
            "issues": [i.as_dict() for i in self.issues],
            "notes": self.notes,
            "source_format": str(self.source_format),
            "filled": self.filled(),
            "sources": self.sources,
        }


def detect_format(text, documents=None):
    if sbatch.looks_like_sbatch(text):
        return SourceFormat.SBATCH
    if documents is None:
        documents = _documents(text)
    if any(
        isinstance(d, dict) and {"work", "data", "request", "output"} & set(d) for d in documents
    ):
        return SourceFormat.NATIVE
    if skypilot.looks_like_skypilot(documents):
        return SourceFormat.SKYPILOT
    raise SpecReadError(
        "This is not a job description, a SkyPilot task or an sbatch script that the portal can read."
    )


def _documents(text):
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        value = load_json(text)
        return value if isinstance(value, list) else [value]
    return load_yaml_documents(text)


# A script with no #SBATCH line: Slurm would take its resources from the sbatch command line,
# which the file does not hold (read as YAML, a shell line like `echo "a: b"` gave a YAML error).
NO_DIRECTIVES = (
    "This script has no #SBATCH lines, so the file does not say what it runs on (nodes, GPUs, "
    "time): add them at the top (e.g. #SBATCH --nodes=2) or describe the job in the steps."
)
# Directives of other batch schedulers, which the portal does not read.
OTHER_SCHEDULERS = re.compile(r"^#(PBS|BSUB|\$|COBALT|FLUX:)\s", re.MULTILINE)
SCHEDULER_NAMES = {"PBS": "PBS/Torque", "BSUB": "LSF", "$": "Grid Engine", "COBALT": "Cobalt",
                   "FLUX:": "Flux"}  # fmt: skip


def _no_directives(text):
    if match := OTHER_SCHEDULERS.search(text):
        return SpecReadError(
            f"This is a {SCHEDULER_NAMES[match.group(1)]} script (#{match.group(1)} lines): the "
            "portal reads Slurm #SBATCH scripts and SkyPilot tasks. Describe the job in the steps."
        )
    return SpecReadError(NO_DIRECTIVES)


def _convert(importer):
    """Run an importer; a file shaped in a way it did not foresee is refused, never a crash."""
    try:
        return importer()
    except (ValueError, ArithmeticError, TypeError, AttributeError) as error:
        raise SpecReadError(
            f"The file holds a value the portal cannot read ({type(error).__name__})."
        ) from None


def import_text(raw, source_format="auto", filename=None):
    """Text or bytes of a file -> [ImportResult] (a pipeline gives one per stage).

    Raises SpecReadError, with a one-line message, when the input cannot be read."""
    text = decode(raw)
    if not text.strip():
        raise SpecReadError("The file is empty.")
    fmt = source_format
    documents = None
    if fmt in (None, "", "auto"):
        if not sbatch.looks_like_sbatch(text):
            if text.startswith("#!"):
                raise _no_directives(text)
            documents = _documents(text)
        fmt = detect_format(text, documents)
    fmt = SourceFormat(fmt)
    if fmt == SourceFormat.SBATCH:
        if not sbatch.looks_like_sbatch(text):
            raise _no_directives(text)
        pairs = _convert(lambda: sbatch.import_text(text))
    else:
        documents = documents if documents is not None else _documents(text)
        if fmt == SourceFormat.SKYPILOT:
            if not skypilot.looks_like_skypilot(documents):
                raise SpecReadError(
                    "This is not a SkyPilot task: it has no run, setup or resources."
                )
            pairs = _convert(lambda: skypilot.import_documents(documents, text))
        else:
            pairs = [(d, []) for d in documents]
    results = []
    source = {"format": str(fmt), "filename": (filename or "")[:300] or None, "text": text}
    for part, (data, notes, *exact) in enumerate(pairs):
        if not isinstance(data, dict):
            raise SpecReadError("A job description is a mapping of work, data, request and output.")
        data = {k: v for k, v in data.items() if k != "source"}
        data["source"] = source if fmt != SourceFormat.NATIVE else None
        description, issues = lint(data)
        # An importer may give, third, the sources it recorded as it read (exact lines):
        # they win over the ones looked up afterwards.
        read_from = provenance.sources(
            text,
            fmt,
            description.to_data(),
            exact=exact[0] if exact else None,
            part=part,
            parts=len(pairs),
        )
        # (a note may quote a line of the file: a key in it is hidden, as in the sources)
        notes = [masked(note) for note in notes]
        results.append(ImportResult(description, issues, notes, fmt, read_from))
    return results


def json_schema():
    schema = Description.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = SCHEMA_ID
    schema["title"] = f"E31 job description, format version {FORMAT_VERSION}"
    return schema


def example_data():
    """The shipped example: a complete, exact description (jobs/jobformat/example.yaml)."""
    from pathlib import Path

    return load_yaml_documents((Path(__file__).parent / "example.yaml").read_text())[0]
