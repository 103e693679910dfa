from django.apps import AppConfig


class DevtoolsConfig(AppConfig):
    name = "portal.devtools"
    label = "devtools"
    verbose_name = "Development tools"
