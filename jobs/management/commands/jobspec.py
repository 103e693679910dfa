"""`python manage.py jobspec schema|lint|import|export`: the format from the command line,
so a partner can lint their job files in their own CI."""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from jobs import spec
from jobs.spec import slurm_export
from jobs.spec.textio import SpecReadError


def read_path(path):
    if path == "-":
        return sys.stdin.buffer.read(spec.textio.MAX_TEXT_BYTES + 1)
    try:
        with open(path, "rb") as handle:
            return handle.read(spec.textio.MAX_TEXT_BYTES + 1)
    except OSError as error:
        raise SpecReadError(f"Cannot read {path}: {error.strerror}.") from None


def format_issue(issue):
    return f"{issue.level:<7} {issue.field or '-'}: {issue.message} [{issue.code}]"


class Command(BaseCommand):
    help = "The job-description format: print the JSON Schema, lint, import or export descriptions."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        schema = sub.add_parser("schema", help="Print the JSON Schema of the format.")
        schema.set_defaults(json=True)
        lint = sub.add_parser(
            "lint", help="Print the precision issues of a description (exit 1 on errors)."
        )
        lint.add_argument("path", help="A file, or - for standard input.")
        lint.add_argument("--from", dest="source_format", default="auto",
                          choices=["auto", "native", "skypilot", "sbatch"])  # fmt: skip
        lint.add_argument("--json", action="store_true")
        imp = sub.add_parser(
            "import", help="Import a SkyPilot task, an sbatch script or a description."
        )
        imp.add_argument("path", help="A file, or - for standard input.")
        imp.add_argument("--from", dest="source_format", default="auto",
                         choices=["auto", "native", "skypilot", "sbatch"])  # fmt: skip
        imp.add_argument("--json", action="store_true")
        export = sub.add_parser("export", help="Print stored job descriptions.")
        export.add_argument("job", nargs="*", help="Job ids (all when none is given).")
        export.add_argument("--json", action="store_true")
        export.add_argument(
            "--to", dest="target", default="yaml", choices=["yaml", "json", "sbatch"],
            help="sbatch: runnable batch scripts (staging, run, output) and submit.sh.",
        )  # fmt: skip
        export.add_argument(
            "--out", help="With --to sbatch: write the scripts into this directory."
        )

    def handle(self, *args, action, **options):
        try:
            return getattr(self, f"do_{action}")(**options)
        except SpecReadError as error:
            self.stderr.write(f"error: {error}")
            sys.exit(2)

    def do_schema(self, **options):
        self.stdout.write(json.dumps(spec.json_schema(), indent=2))

    def do_lint(self, path, source_format, json=False, **options):
        results = spec.import_text(read_path(path), source_format, filename=path)
        self._print(results, json, with_description=False)
        if any(spec.has_errors(r.issues) for r in results):
            sys.exit(1)

    def do_import(self, path, source_format, json=False, **options):
        results = spec.import_text(read_path(path), source_format, filename=path)
        self._print(results, json, with_description=True)

    def do_export(self, job, json=False, target="yaml", out=None, **options):
        from jobs.models import JobDescription

        if target == "sbatch":
            return self._export_sbatch(JobDescription, job, json, out)
        json = json or target == "json"

        queryset = JobDescription.objects.order_by("pk")
        if job:
            queryset = queryset.filter(pk__in=[j for j in job if j.isdigit()])
        descriptions = [record.as_description() for record in queryset]
        if not descriptions:
            raise CommandError("No stored job description matches.")
        if json:
            payload = [d.to_data() for d in descriptions]
            self.stdout.write(_json.dumps(payload if len(payload) > 1 else payload[0], indent=2))
        else:
            self.stdout.write("---\n".join(spec.to_yaml(d) for d in descriptions))

    def _export_sbatch(self, model, job, as_json, out):
        if len(job) != 1 or not job[0].isdigit():
            raise CommandError("Export one job to sbatch: jobspec export ID --to sbatch.")
        record = model.objects.filter(pk=job[0]).first()
        if record is None:
            raise CommandError(f"No stored job description has id {job[0]}.")
        result = slurm_export.export(record.as_description())
        if as_json:
            self.stdout.write(_json.dumps(result.as_dict(), indent=2))
        elif out:
            folder = Path(out)
            folder.mkdir(parents=True, exist_ok=True)
            files = [(s.filename, s.text) for s in result.scripts]
            files.append(("submit.sh", result.submit_script()))
            for name, text in files:
                (folder / name).write_text(text)
            (folder / "submit.sh").chmod(0o755)
            self.stdout.write(f"Wrote {', '.join(n for n, _ in files)} to {folder}.")
            for note in result.notes:
                self.stdout.write(f"note    {note}")
        else:
            self.stdout.write(result.as_text())

    def _print(self, results, as_json, with_description):
        if as_json:
            payload = [
                r.as_dict() if with_description else {"issues": [i.as_dict() for i in r.issues]}
                for r in results
            ]
            self.stdout.write(_json.dumps(payload[0] if len(payload) == 1 else payload, indent=2))
            return
        for index, result in enumerate(results):
            if index:
                self.stdout.write("---")
            if with_description:
                self.stdout.write(spec.to_yaml(result.description).rstrip())
                self.stdout.write("# ---- precision check ----")
            errors = sum(1 for i in result.issues if i.level == spec.Level.ERROR)
            warnings = len(result.issues) - errors
            name = result.description.name or "(unnamed)"
            lines = [format_issue(i) for i in result.issues]
            for note in result.notes:
                lines.append(f"note    {note}")
            prefix = "# " if with_description else ""
            for line in lines:
                self.stdout.write(prefix + line)
            self.stdout.write(f"{prefix}{name}: {errors} errors, {warnings} warnings")


_json = json
