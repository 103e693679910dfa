"""Drops four of jobs_event's nine indexes that no query reads (events are read by run,
through the (run, time) index or the (run, key) constraint), each one more B-tree that
every 500-event ingest batch kept up to date: on occurred_at alone, on status and its
`_like` twin, and on run_id alone, which both composite indexes cover."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("jobs", "0016_job_status_counts"),
    ]

    operations = [
        migrations.AlterField(
            model_name="event",
            name="occurred_at",
            field=models.DateTimeField(),
        ),
        # Only the index: AlterField would also drop the foreign key and add it back,
        # which checks every event against jobs_run again while holding the table.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="event",
                    name="run",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="events",
                        to="jobs.run",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    "DROP INDEX IF EXISTS jobs_event_run_id_6f88a402",
                    reverse_sql="CREATE INDEX jobs_event_run_id_6f88a402 ON jobs_event (run_id)",
                ),
            ],
        ),
        migrations.AlterField(
            model_name="event",
            name="status",
            field=models.CharField(
                choices=[("applied", "Applied"), ("rejected", "Rejected")],
                default="applied",
                max_length=10,
            ),
        ),
    ]
