"""The triage search's words, known to Django as a generated field so the search is written
with django.contrib.postgres.search. On PostgreSQL the column and its GIN indexes exist
since 0005 and 0009 (same expression): only Django's state changes. On SQLite the column is
added, always NULL (no full-text search there)."""

import django.contrib.postgres.search
from django.db import migrations, models

import findings.models


class AddFieldOutsidePostgreSQL(migrations.AddField):
    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class Migration(migrations.Migration):
    dependencies = [("findings", "0009_triage_search_by_status_idx")]

    operations = [
        AddFieldOutsidePostgreSQL(
            model_name="finding",
            name="search_document",
            field=models.GeneratedField(
                db_persist=True,
                expression=findings.models.FindingWords(),
                output_field=django.contrib.postgres.search.SearchVectorField(null=True),
            ),
        ),
    ]
