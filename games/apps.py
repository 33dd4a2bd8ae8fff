from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Two-hand euchre"

    def ready(self) -> None:
        from . import computer, i18n, names, realtime, services, sessions  # noqa: F401  (signals)

        if realtime.broadcast not in services.match_changed_listeners:
            services.match_changed_listeners.append(realtime.broadcast)
        if computer.wake not in services.computer_turn_listeners:
            services.computer_turn_listeners.append(computer.wake)
