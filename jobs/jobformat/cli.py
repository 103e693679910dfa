"""`jobspec schema|lint|import|export`: the format from the command line, with nothing but
the format loaded (no Django), so a partner's CI or a cluster's login node pays only for
what it uses. `python -m jobs.jobformat …` runs all four on files; `python manage.py jobspec …`
lands here for schema, lint and import, and exports stored jobs (by id) with Django."""

import argparse
import json
import sys
from pathlib import Path

from . import Level, SpecReadError, has_errors, import_text, json_schema, to_yaml
from .slurm_export import export as sbatch_export
from .slurm_export import load_site
from .textio import MAX_TEXT_BYTES

ACTIONS = ("schema", "lint", "import", "export")
FORMATS = ["auto", "native", "skypilot", "sbatch"]
SITE_HELP = (
    "A site file (YAML, or TOML ending in .toml): the partition, the GRES of each accelerator "
    "type, the copy commands; see docs/job-format.md. Without one, the scripts say which "
    "names to set."
)


def parser():
    root = argparse.ArgumentParser(
        prog="jobspec",
        description="The job-description format: print the JSON Schema, lint or import files.",
    )
    sub = root.add_subparsers(dest="action", required=True)
    sub.add_parser("schema", help="Print the JSON Schema of the format.")
    for name, help_text in (
        ("lint", "Print the precision issues of a description (exit 1 on errors)."),
        ("import", "Import a SkyPilot task, an sbatch script or a description."),
    ):
        action = sub.add_parser(name, help=help_text)
        action.add_argument("path", help="A file, or - for standard input.")
        action.add_argument("--from", dest="source_format", default="auto", choices=FORMATS)
        action.add_argument("--json", action="store_true")
    export = sub.add_parser(
        "export", help="Write a description (or a file import reads) as runnable sbatch scripts."
    )
    export.add_argument("path", help="A file, or - for standard input.")
    export.add_argument("--from", dest="source_format", default="auto", choices=FORMATS)
    export.add_argument("--to", dest="target", default="sbatch", choices=["sbatch"])
    export.add_argument("--site", help=SITE_HELP)
    export.add_argument("--out", help="Write the scripts and submit.sh into this directory.")
    export.add_argument("--json", action="store_true")
    return root


def read_path(path, stdin=None):
    if path == "-":
        stream = stdin if stdin is not None else sys.stdin.buffer
        return stream.read(MAX_TEXT_BYTES + 1)
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_TEXT_BYTES + 1)
    except OSError as error:
        raise SpecReadError(f"Cannot read {path}: {error.strerror}.") from None


def format_issue(issue):
    return f"{issue.level:<7} {issue.field or '-'}: {issue.message} [{issue.code}]"


def run(action, *, path=None, source_format="auto", as_json=False, out, stdin=None, err=None,
        site=None, folder=None):  # fmt: skip
    """Do one action, writing to out (a text stream); returns the exit code."""
    if action == "schema":
        out.write(json.dumps(json_schema(), indent=2) + "\n")
        return 0
    results = import_text(read_path(path, stdin), source_format, filename=path)
    if action == "export":
        if len(results) != 1:
            raise SpecReadError(
                f"{path} holds {len(results)} descriptions; sbatch export takes one at a time."
            )
        loaded = load_site(read_path(site), filename=site) if site else None
        write_sbatch(sbatch_export(results[0].description, loaded), as_json=as_json,
                     folder=folder, out=out, err=err or sys.stderr)  # fmt: skip
        return 0
    print_results(results, as_json, with_description=action == "import", out=out)
    if action == "lint" and any(has_errors(r.issues) for r in results):
        return 1
    return 0


def write_sbatch(exported, *, as_json=False, folder=None, out, err):
    """The scripts on out (JSON, or one after the other) or into folder; the names the
    cluster must still give, on err, so a pipe into a file keeps only the scripts."""
    if as_json:
        out.write(json.dumps(exported.as_dict(), indent=2) + "\n")
    elif folder:
        files = [(s.filename, s.text) for s in exported.scripts]
        files.append(("submit.sh", exported.submit_script()))
        try:
            Path(folder).mkdir(parents=True, exist_ok=True)
            for name, text in files:
                (Path(folder) / name).write_text(text)
            (Path(folder) / "submit.sh").chmod(0o755)
        except OSError as error:
            raise SpecReadError(f"Cannot write into {folder}: {error.strerror}.") from None
        out.write(f"Wrote {', '.join(n for n, _ in files)} to {folder}.\n")
        for note in exported.notes:
            out.write(f"note    {note}\n")
    else:
        out.write(exported.as_text())
    if exported.to_set:
        err.write(
            "Set these before submitting (or export with --site FILE, or for a registered "
            "cluster):\n"
        )
        for line in exported.to_set:
            err.write(f"  - {line}\n")


def read_lines(result):
    """Each value read, with the line it was read from when known:
    `request.nodes = 4   (line 3: #SBATCH --nodes=4)`."""
    lines = []
    for path, value, source in result.read():
        where = f"   (line {source['line']}: {source['text']})" if source else ""
        lines.append(f"{path} = {_one_line(value)}{where}")
    return lines


def _one_line(value, limit=80):
    """A value on one line of the report: a command's first line, a list comma-separated."""
    if isinstance(value, list):
        value = ", ".join(map(str, value))
    elif isinstance(value, bool):
        value = "true" if value else "false"
    text = str(value)
    first = text.strip().splitlines()[0] if text.strip() else text
    more = first != text.strip()
    return first[:limit] + ("…" if more or len(first) > limit else "")


def print_results(results, as_json, with_description, out):
    if as_json:
        payload = [
            r.as_dict() if with_description else {"issues": [i.as_dict() for i in r.issues]}
            for r in results
        ]
        out.write(json.dumps(payload[0] if len(payload) == 1 else payload, indent=2) + "\n")
        return
    for index, result in enumerate(results):
        if index:
            out.write("---\n")
        if with_description:
            out.write(to_yaml(result.description).rstrip() + "\n")
            out.write("# ---- read from the file ----\n")
            for line in read_lines(result):
                out.write(f"# {line}\n")
            out.write("# ---- precision check ----\n")
        errors = sum(1 for i in result.issues if i.level == Level.ERROR)
        warnings = len(result.issues) - errors
        name = result.description.name or "(unnamed)"
        lines = [format_issue(i) for i in result.issues]
        lines += [f"note    {note}" for note in result.notes]
        prefix = "# " if with_description else ""
        for line in lines:
            out.write(prefix + line + "\n")
        out.write(f"{prefix}{name}: {errors} errors, {warnings} warnings\n")


def main(argv=None, out=None, err=None):
    out = out or sys.stdout
    err = err or sys.stderr
    args = parser().parse_args(argv)
    try:
        return run(
            args.action,
            path=getattr(args, "path", None),
            source_format=getattr(args, "source_format", "auto"),
            as_json=getattr(args, "json", False),
            out=out,
            err=err,
            site=getattr(args, "site", None),
            folder=getattr(args, "out", None),
        )
    except SpecReadError as error:
        err.write(f"error: {error}\n")
        return 2
