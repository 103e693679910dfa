"""`python manage.py jobspec schema|lint|import|export`: the format from the command line,
so a partner can lint their job files in their own CI. schema, lint and import are the
Django-free jobs/spec/cli.py (manage.py runs them without starting Django at all);
export reads stored descriptions from the database."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from jobs import spec
from jobs.models import JobDescription
from jobs.spec import cli


class Command(BaseCommand):
    help = "The job-description format: print the JSON Schema, lint, import or export descriptions."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        sub.add_parser("schema", help="Print the JSON Schema of the format.")
        for name in ("lint", "import"):
            action = sub.add_parser(name, help=f"{name.capitalize()} a job file.")
            action.add_argument("path", help="A file, or - for standard input.")
            action.add_argument("--from", dest="source_format", default="auto", choices=cli.FORMATS)
            action.add_argument("--json", action="store_true")
        export = sub.add_parser("export", help="Print stored job descriptions.")
        export.add_argument("job", nargs="*", help="Job ids (all when none is given).")
        export.add_argument("--json", action="store_true")

    def handle(self, *args, action, **options):
        if action == "export":
            return self.do_export(options["job"], options["json"])
        try:
            code = cli.run(
                action,
                path=options.get("path"),
                source_format=options.get("source_format", "auto"),
                as_json=options.get("json", False),
                out=self.stdout,
                stdin=sys.stdin.buffer if options.get("path") == "-" else None,
            )
        except spec.SpecReadError as error:
            self.stderr.write(f"error: {error}")
            sys.exit(2)
        if code:
            sys.exit(code)

    def do_export(self, job, as_json):
        queryset = JobDescription.objects.order_by("pk")
        if job:
            queryset = queryset.filter(pk__in=[j for j in job if j.isdigit()])
        descriptions = [record.as_description() for record in queryset]
        if not descriptions:
            raise CommandError("No stored job description matches.")
        if as_json:
            payload = [d.to_data() for d in descriptions]
            self.stdout.write(json.dumps(payload if len(payload) > 1 else payload[0], indent=2))
        else:
            self.stdout.write("---\n".join(spec.to_yaml(d) for d in descriptions))
