from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    # The database cache (the default without CACHE_URL) keeps the rate-limit counts every
    # web worker shares. Made whatever CACHE_URL says now, so switching to db:// just works.
    call_command(
        "createcachetable", "portal_cache", database=schema_editor.connection.alias, verbosity=0
    )


class Migration(migrations.Migration):
    dependencies = [("portal", "0006_intake_cpu_only")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
