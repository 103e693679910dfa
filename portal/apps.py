from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "portal"
    verbose_name = "Portal: teams, accounts and intake"

    def ready(self):
        from .celery import ensure_broker_folders

        ensure_broker_folders()
