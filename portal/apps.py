from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "portal"
    verbose_name = "Portal: teams, accounts and intake"

    def ready(self):
        from django.db.backends.signals import connection_created

        from .aggregates import register_sqlite_functions
        from .celery import ensure_broker_folders

        ensure_broker_folders()
        # Setup of the database connection, not logic: SQLite gets the median aggregate that
        # PostgreSQL has built in (portal/aggregates.py).
        connection_created.connect(register_sqlite_functions, dispatch_uid="portal-sqlite-median")
