import re

from django.db import migrations, models

# As portal.outbox says them (copied: a migration does not import code that may change).
MARK = "[private link: put in when the e-mail is sent]"
REMOVED = "[private link removed after delivery]"
STATUS_LINK = re.compile(r"\S*/design-partners/applications/[^/\s]+/")


def take_status_links_out_of_stored_emails(apps, schema_editor):
    """Confirmation e-mails written before this held the status link in their body."""
    OutboundEmail = apps.get_model("portal", "OutboundEmail")
    for email in OutboundEmail.objects.filter(dedupe_key__startswith="intake-received:"):
        match = STATUS_LINK.search(email.body)
        if match is None:
            continue
        if email.sent_at is None:
            email.private_link = match.group(0)
            email.body = email.body.replace(match.group(0), MARK)
        else:
            email.body = email.body.replace(match.group(0), REMOVED)
        email.save(update_fields=["body", "private_link"])


class Migration(migrations.Migration):
    dependencies = [
        ("portal", "0010_ratecount"),
    ]

    operations = [
        migrations.AddField(
            model_name="outboundemail",
            name="private_link",
            field=models.CharField(blank=True, max_length=500),
        ),
        migrations.RunPython(take_status_links_out_of_stored_emails, migrations.RunPython.noop),
    ]
