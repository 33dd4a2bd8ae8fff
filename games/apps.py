from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Two-hand euchre"

    def ready(self) -> None:
        from . import i18n, names, sessions  # noqa: F401  (their signal receivers)
