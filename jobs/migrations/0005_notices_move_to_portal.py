from django.db import migrations


def copy_notifications(apps, schema_editor):
    """Run notices move to the one notice model (portal.Notice); nothing is lost."""
    Notification = apps.get_model("jobs", "Notification")
    Notice = apps.get_model("portal", "Notice")
    Notice.objects.bulk_create(
        Notice(
            user_id=n.user_id,
            team_id=n.job.team_id,
            topic="job",
            message=n.message,
            url=f"/jobs/{n.job_id}/#run",
            created_at=n.created_at,
            read_at=n.read_at,
        )
        for n in Notification.objects.select_related("job").iterator()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("jobs", "0004_status_history"),
        ("portal", "0003_notices"),
    ]

    operations = [
        migrations.RunPython(copy_notifications, migrations.RunPython.noop),
        migrations.DeleteModel(name="Notification"),
    ]
