"""`python manage.py jobspec schema|lint|import|export`: the format from the command line,
so a partner can lint their job files in their own CI."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from jobs import spec
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

    def do_export(self, job, json=False, **options):
        from jobs.models import JobDescription

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
