from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Two-hand euchre"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from . import metrics  # noqa: F401  (its receiver counts failed log-ins)
        from .i18n import languages, names  # noqa: F401  (their signal receivers)
        from .presentation.push import notification_words
        from .realtime import sessions  # noqa: F401  (their signal receivers)
        from .services import accounts  # noqa: F401  (their signal receivers)
        from .services.push import push_wording
        from .web import sessions as web_sessions  # noqa: F401  (their signal receivers)
        from .web.views.accounts import say_logged_out

        push_wording(notification_words)  # the worker's notifications, worded above it

        user_logged_out.connect(say_logged_out, dispatch_uid="games.say_logged_out")
