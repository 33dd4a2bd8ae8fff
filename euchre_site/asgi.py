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


# The cyclic collector's thresholds in a server process (``served``): a young collection every
# 2,000 allocations, the middle generation every 10 of them, the whole heap after 2,500 of those.
GC_THRESHOLDS = (2_000, 10, 2_500)


def served():
    """The application as a long-running server runs it, tuned at start-up rather than when
    imported (tests and commands import the module too):
    ``uvicorn euchre_site.asgi:served --factory`` calls this once in each worker process.

    While the collector runs, no socket of the process is served, so its collections are
    kept short rather than rare (bench/load, 450 matches, docs/PERFORMANCE.md). Python's own
    thresholds (700, 10, 10) collect the whole heap, a few hundred sockets' worth, every few
    seconds: 100-200 ms each. Young collections every 10,000 allocations and the middle
    generation every 50 of them made the middle one hold everything a page's request leaves
    to the collector (Django's and uvicorn's, about 250 objects a request) for minutes: 200-350
    ms each. Now each collection takes under 40 ms; the whole heap is collected about as
    rarely as with the latter (every 50 million allocations)."""
    gc.set_threshold(*GC_THRESHOLDS)
    return application
