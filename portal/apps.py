from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "portal"
    verbose_name = "Portal: teams, accounts and intake"

    def ready(self):
        from django.db.backends.signals import connection_created
        from django.urls import register_converter

        from .aggregates import register_sqlite_functions
        from .celery import ensure_broker_folders
        from .converters import RowId

        ensure_broker_folders()
        # Setup of the database connection, not logic: SQLite gets the median aggregate that
        # PostgreSQL has built in (portal/aggregates.py).
        connection_created.connect(register_sqlite_functions, dispatch_uid="portal-sqlite-median")
        # Before any URL conf is read: every id in a URL is an `<id:…>` (portal/converters.py).
        register_converter(RowId, "id")
