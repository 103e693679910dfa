"""Scoring an import against the facts a careful engineer reads from the file.

Each job file has its expected facts next to it (`<file>.expected.yaml`):

    source: where the file is modelled on
    descriptions:            # one per description the file gives (pipelines, job groups, hetjobs)
      - facts:               # dotted path -> value, for EVERY field the import should fill
          request.nodes: 4
          data.scratch: 2 TB
        notes: [--partition] # words that must appear in the import notes (facts kept as notes)
        alarms: [not_a_network_job]   # errors that are right for this file, other than missing_*

A fact is *captured* when the import states it with the same value, *wrong* when it
states another value, *missed* when it does not state it. A field the import fills
that the expected facts do not list is *wrong* too (the importer claimed something the
file does not say). An error the precision check raises is a *false alarm* when it is
not a missing_* code and not listed in alarms, or when it says missing about something
the facts say the file states."""

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from jobs import jobformat
from jobs.jobformat.units import UnitError, parse_duration, parse_size, parse_when

FREE_TEXT = {"work.command", "work.setup", "source", "version"}
# A missing_* error on these fields is answered by these facts.
ANSWERED_BY = {
    "request.accelerators": ("request.accelerators", "request.no_accelerators"),
    "data.inputs": ("data.inputs", "data.no_inputs"),
    "request.estimate": ("request.estimate", "request.until_done"),
    "request.deadline": ("request.deadline", "request.no_deadline"),
}


@dataclass
class Score:
    captured: int = 0
    wrong: list = field(default_factory=list)
    missed: list = field(default_factory=list)
    false_alarms: list = field(default_factory=list)

    @property
    def total(self):
        return self.captured + len(self.wrong) + len(self.missed)

    def add(self, other):
        self.captured += other.captured
        self.wrong += other.wrong
        self.missed += other.missed
        self.false_alarms += other.false_alarms

    def ratio(self):
        return self.captured / self.total if self.total else 1.0


def leaves(data, prefix=""):
    """Dotted path -> value for every filled field of plain description data."""
    out = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if path in FREE_TEXT:
            continue
        if isinstance(value, dict):
            out.update(leaves(value, path + "."))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for i, item in enumerate(value):
                out.update(leaves(item, f"{path}.{i}."))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                out[f"{path}.{i}"] = item
        else:
            out[path] = value
    return out


def same(expected, actual):
    if expected == actual:
        return True
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return float(expected) == float(actual)
    for parse in (parse_size, parse_duration, parse_when):
        try:
            return parse(str(expected)) == parse(str(actual))
        except UnitError:
            continue
    return str(expected) == str(actual)


def score_result(result, expected, label):
    score = Score()
    facts = {str(k): v for k, v in (expected.get("facts") or {}).items()}
    stated = leaves(result.description.to_data())
    for path, value in facts.items():
        if path not in stated:
            score.missed.append(f"{label}: {path} = {value!r} not stated")
        elif same(value, stated[path]):
            score.captured += 1
        else:
            score.wrong.append(f"{label}: {path} is {stated[path]!r}, the file says {value!r}")
    for path, value in stated.items():
        if path not in facts:
            score.wrong.append(f"{label}: {path} = {value!r} is not something the file says")
    notes = "\n".join(result.notes)
    for words in expected.get("notes") or []:
        if str(words).lower() in notes.lower():
            score.captured += 1
        else:
            score.missed.append(f"{label}: no note about {words!r}")
    alarms = set(expected.get("alarms") or [])
    raised = set()
    for issue in result.issues:
        if issue.level != jobformat.Level.ERROR:
            continue
        raised.add(issue.code)
        if issue.code.startswith("missing_"):
            answers = ANSWERED_BY.get(issue.field, (issue.field,))
            if any(p == a or p.startswith(a + ".") for p in facts for a in answers):
                score.false_alarms.append(f"{label}: {issue.code} on {issue.field}, yet it is said")
        elif issue.code not in alarms:
            score.false_alarms.append(f"{label}: {issue.code} on {issue.field}: {issue.message}")
    for code in alarms - raised:
        score.missed.append(f"{label}: {code} not raised")
    score.captured += len(alarms & raised)
    return score


def expected_for(path):
    return yaml.safe_load(Path(f"{path}.expected.yaml").read_text())


def score_file(path, expected=None):
    """Import one job file and score it; a file that cannot be imported scores nothing."""
    expected = expected or expected_for(path)
    wanted = expected.get("descriptions") or []
    score = Score()
    try:
        results = jobformat.import_text(Path(path).read_bytes(), filename=Path(path).name)
    except jobformat.SpecReadError as error:
        score.missed.append(f"{Path(path).name}: not imported ({error})")
        return score
    if len(results) != len(wanted):
        score.wrong.append(
            f"{Path(path).name}: {len(results)} descriptions, the file has {len(wanted)}"
        )
    for index, (result, facts) in enumerate(zip(results, wanted, strict=False)):
        score.add(score_result(result, facts, f"{Path(path).name}#{index}"))
    return score


def report(score):
    lines = [
        f"captured {score.captured} of {score.total} facts ({score.ratio():.1%}), "
        f"{len(score.wrong)} wrong, {len(score.false_alarms)} false alarms"
    ]
    lines += ["WRONG " + w for w in score.wrong]
    lines += ["FALSE ALARM " + f for f in score.false_alarms]
    lines += ["MISSED " + m for m in score.missed]
    return "\n".join(lines)
