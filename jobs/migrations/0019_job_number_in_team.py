from django.db import migrations, models


def number_existing_jobs(apps, schema_editor):
    """Each team's jobs numbered 1, 2, 3… in the order they were created."""
    JobDescription = apps.get_model("jobs", "JobDescription")
    counters = {}
    changed = []
    for job in JobDescription.objects.order_by("team_id", "created_at", "pk").only("team_id"):
        counters[job.team_id] = counters.get(job.team_id, 0) + 1
        job.number = counters[job.team_id]
        changed.append(job)
    JobDescription.objects.bulk_update(changed, ["number"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("jobs", "0018_failure_classes_usage_redispatch"),
    ]

    operations = [
        migrations.AddField(
            model_name="jobdescription",
            name="number",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(number_existing_jobs, migrations.RunPython.noop, elidable=True),
    ]
