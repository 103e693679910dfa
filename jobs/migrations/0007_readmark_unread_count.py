from collections import Counter, defaultdict

import django.utils.timezone
from django.db import migrations, models


def count_unread(apps, schema_editor):
    """Fill the new counters from the comments and notices already there (as the badge
    counted them on every page until now). Runs once; the services keep them after."""
    User = apps.get_model("portal", "User")
    Membership = apps.get_model("portal", "Membership")
    Notice = apps.get_model("portal", "Notice")
    Comment = apps.get_model("jobs", "Comment")
    ReadMark = apps.get_model("jobs", "ReadMark")
    staff = set(User.objects.filter(is_staff=True, is_active=True).values_list("pk", flat=True))
    readers = defaultdict(set)
    for team_id, user_id in Membership.objects.filter(user__is_active=True).values_list(
        "team_id", "user_id"
    ):
        readers[team_id].add(user_id)
    marks = {(m.job_id, m.user_id): m for m in ReadMark.objects.all()}
    unread = Counter()
    for c in Comment.objects.select_related("job").iterator():
        for reader in readers[c.job.team_id] | staff:
            mark = marks.get((c.job_id, reader))
            if reader != c.author_id and (mark is None or mark.read_at < c.created_at):
                unread[(c.job_id, c.job.team_id, reader)] += 1
    per_scope = Counter()
    for (job_id, team_id, user_id), n in unread.items():
        mark = marks.get((job_id, user_id))
        if mark is None:
            ReadMark.objects.create(job_id=job_id, user_id=user_id, read_at=None, unread=n)
        else:
            ReadMark.objects.filter(pk=mark.pk).update(unread=n)
        per_scope[(None if user_id in staff else team_id, user_id)] += n
    for n in Notice.objects.filter(topic="job", read_at__isnull=True):
        per_scope[(None if n.user_id in staff else n.team_id, n.user_id, "notice")] += 1
    for key, n in per_scope.items():
        team_id, user_id = key[0], key[1]
        field = "unread_notices" if len(key) == 3 else "unread_comments"
        if team_id is None:
            User.objects.filter(pk=user_id).update(**{field: models.F(field) + n})
        else:
            Membership.objects.filter(team_id=team_id, user_id=user_id).update(
                **{field: models.F(field) + n}
            )


class Migration(migrations.Migration):
    dependencies = [
        ("jobs", "0006_observed_outcomes_signals"),
        ("portal", "0004_unread_badge_counters"),
    ]

    operations = [
        migrations.AddField(
            model_name="readmark",
            name="unread",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name="readmark",
            name="read_at",
            field=models.DateTimeField(blank=True, default=django.utils.timezone.now, null=True),
        ),
        migrations.RunPython(count_unread, migrations.RunPython.noop),
    ]
