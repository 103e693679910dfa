from django.apps import AppConfig


class FindingsConfig(AppConfig):
    name = "findings"
    verbose_name = "Findings"

    def ready(self):
        from . import queue_count

        # Keeping a figure right, not logic: the triage queue's kept counts are retired
        # whenever a finding or its links are written, however (services, admin, cascade).
        queue_count.connect()
