"""ASGI entry point: http through Django, websockets through Channels."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from euchre_site.origins import SameOriginValidator  # noqa: E402
from games.realtime.routing import api_websocket_urlpatterns, websocket_urlpatterns  # noqa: E402
from games.realtime.trace import traced  # noqa: E402

pages = SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
# The API's sockets authenticate with a bearer token, not the session cookie: a browser cannot
# send one on its own, so there is no cross-site socket to refuse by its origin.
programs = URLRouter(api_websocket_urlpatterns)


async def websockets(scope, receive, send):
    app = programs if scope["path"].startswith("/api/") else pages
    return await app(scope, receive, send)


# Each socket under a request id, its opening and closing logged (games.realtime.trace)
application = ProtocolTypeRouter({"http": django_asgi_app, "websocket": traced(websockets)})


def served():
    """The application as a long-running server runs it, tuned at start-up rather than when
    imported (tests and commands import the module too):
    ``uvicorn euchre_site.asgi:served --factory`` calls this once in each worker process.

    The cyclic collector collects young objects every 10,000 allocations instead of 700 and
    the whole heap rarely: with a few hundred sockets open, a full collection stalls every
    socket of the process for 100-200 ms (bench/load)."""
    gc.set_threshold(10_000, 50, 100)
    return application
