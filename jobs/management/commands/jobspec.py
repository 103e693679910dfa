"""`python manage.py jobspec schema|lint|import|export`: the format from the command line,
so a partner can lint their job files in their own CI. schema, lint and import are the
Django-free jobs/jobformat/cli.py (manage.py runs them without starting Django at all);
export reads stored descriptions from the database, as YAML, JSON or sbatch scripts."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from jobs import jobformat
from jobs.jobformat import cli, slurm_export
from jobs.models import JobDescription
from jobs.runs.dispatch import site_for
from jobs.runs.models import Cluster
from portal.validators import is_number


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
        export.add_argument(
            "--to", dest="target", default="yaml", choices=["yaml", "json", "sbatch"],
            help="sbatch: runnable batch scripts (staging, run, output) and submit.sh.",
        )  # fmt: skip
        export.add_argument(
            "--out", help="With --to sbatch: write the scripts into this directory."
        )
        where = export.add_mutually_exclusive_group()
        where.add_argument("--site", help=f"With --to sbatch: {cli.SITE_HELP}")
        where.add_argument(
            "--cluster", help="With --to sbatch: for this registered cluster (its name)."
        )

    def handle(self, *args, action, **options):
        if action == "export":
            if options["target"] != "sbatch" and (options.get("site") or options.get("cluster")):
                raise CommandError("--site and --cluster go with --to sbatch.")
            return self.do_export(
                options["job"], options["json"], options["target"], options.get("out"),
                site=self._site(options.get("site"), options.get("cluster")),
            )  # fmt: skip
        try:
            code = cli.run(
                action,
                path=options.get("path"),
                source_format=options.get("source_format", "auto"),
                as_json=options.get("json", False),
                out=self.stdout,
                stdin=sys.stdin.buffer if options.get("path") == "-" else None,
            )
        except jobformat.SpecReadError as error:
            self.stderr.write(f"error: {error}")
            sys.exit(2)
        if code:
            sys.exit(code)

    def _site(self, path, cluster_name):
        if path:
            try:
                return slurm_export.load_site(cli.read_path(path), filename=path)
            except jobformat.SpecReadError as error:
                raise CommandError(str(error)) from None
        if cluster_name:
            cluster = Cluster.objects.filter(name__iexact=cluster_name.strip()).first()
            if cluster is None:
                names = ", ".join(Cluster.objects.values_list("name", flat=True)) or "none yet"
                raise CommandError(f"No cluster is called {cluster_name} (registered: {names}).")
            return site_for(cluster)
        return None

    def do_export(self, job, as_json=False, target="yaml", out=None, site=None):
        if target == "sbatch":
            return self._export_sbatch(job, as_json, out, site)
        as_json = as_json or target == "json"
        queryset = JobDescription.objects.order_by("pk")
        if job:
            queryset = queryset.filter(pk__in=[j for j in job if is_number(j)])
        descriptions = [record.as_description() for record in queryset]
        if not descriptions:
            raise CommandError("No stored job description matches.")
        if as_json:
            payload = [d.to_data() for d in descriptions]
            self.stdout.write(json.dumps(payload if len(payload) > 1 else payload[0], indent=2))
        else:
            self.stdout.write("---\n".join(jobformat.to_yaml(d) for d in descriptions))

    def _export_sbatch(self, job, as_json, out, site=None):
        if len(job) != 1 or not is_number(job[0]):
            raise CommandError("Export one job to sbatch: jobspec export ID --to sbatch.")
        record = JobDescription.objects.filter(pk=job[0]).first()
        if record is None:
            raise CommandError(f"No stored job description has id {job[0]}.")
        result = slurm_export.export(record.as_description(), site)
        try:
            cli.write_sbatch(result, as_json=as_json, folder=out, out=self.stdout, err=self.stderr)
        except jobformat.SpecReadError as error:
            raise CommandError(str(error)) from None
