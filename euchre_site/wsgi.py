"""WSGI entry point (http only; the site needs ASGI for its websockets)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
application = get_wsgi_application()
