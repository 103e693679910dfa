from django.db import migrations


def copy_notices(apps, schema_editor):
    """Finding notices move to the one notice model (portal.Notice); nothing is lost."""
    FindingNotice = apps.get_model("findings", "FindingNotice")
    Notice = apps.get_model("portal", "Notice")
    Notice.objects.bulk_create(
        Notice(
            user_id=n.user_id,
            team_id=n.finding.team_id,
            topic="finding",
            message=n.message,
            url=f"/findings/{n.finding_id}/",
            created_at=n.created_at,
            read_at=n.read_at,
        )
        for n in FindingNotice.objects.select_related("finding").iterator()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("findings", "0002_publish_problems"),
        ("portal", "0003_notices"),
    ]

    operations = [
        migrations.RunPython(copy_notices, migrations.RunPython.noop),
        migrations.DeleteModel(name="FindingNotice"),
    ]
