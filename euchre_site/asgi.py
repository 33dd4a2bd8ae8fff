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
from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# The cyclic collector, tuned for a server holding hundreds of sockets: young collections every
# 10,000 allocations instead of 700, older ones far less often. A full collection walks every
# object the process holds (30 to 130 ms with 200 sockets) and stalls each of its sockets
# meanwhile. Measured with bench/load.py (200 matches, 60 s of play): full collections per
# process fell from 7 to 2, the collector's time from about 0.8 s to 0.3 s, and the
# move-to-push p99 from about 140 ms to about 100 ms.
gc.set_threshold(10_000, 50, 100)
