"""Websocket origins: a socket is let in only from a page of this site.

Channels' ``AllowedHostsOriginValidator`` compares the Origin's host name alone, so
``http://127.0.0.1:9999`` or ``ftp://127.0.0.1`` passed wherever ``127.0.0.1`` is allowed. Here,
as Django's CSRF check does for forms, the Origin must be the site's own origin (the scheme, host
and port the socket itself came to, the host being one of ``ALLOWED_HOSTS``) or one of
``CSRF_TRUSTED_ORIGINS`` (behind a proxy that ends TLS, say).
"""

from __future__ import annotations

from urllib.parse import urlparse

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _header(scope, name: bytes) -> str:
    for key, value in scope.get("headers") or []:
        if key == name:
            return value.decode("latin-1")
    return ""


def own_origin(scope) -> str | None:
    """``scheme://host[:port]`` of the page this socket belongs to, or None if its Host header
    names no host of this site."""
    host = _header(scope, b"host")
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    secure = scope.get("scheme") == "wss"
    if settings.SECURE_PROXY_SSL_HEADER:
        name, value = settings.SECURE_PROXY_SSL_HEADER  # e.g. HTTP_X_FORWARDED_PROTO, https
        header = name.removeprefix("HTTP_").lower().replace("_", "-").encode()
        secure = secure or _header(scope, header) == value
    return f"{'https' if secure else 'http'}://{host}"


class SameOriginValidator(OriginValidator):
    def __init__(self, application):
        super().__init__(application, allowed_origins=[])

    async def __call__(self, scope, receive, send):
        if self._allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

    def _allowed(self, scope) -> bool:
        origin = _header(scope, b"origin")
        allowed = [o for o in (own_origin(scope), *settings.CSRF_TRUSTED_ORIGINS) if o]
        # An Origin or a Host that does not parse ("http://[", a port "abc") is refused like
        # any other: urlparse and Channels' port check raise ValueError on them.
        try:
            parsed = urlparse(origin) if origin else None
            return parsed is not None and any(self.match_allowed_origin(parsed, o) for o in allowed)
        except ValueError:
            return False
