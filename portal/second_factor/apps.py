from django.apps import AppConfig


class SecondFactorConfig(AppConfig):
    name = "portal.second_factor"
    label = "second_factor"
    verbose_name = "Second step at login"
    default_auto_field = "django.db.models.BigAutoField"
