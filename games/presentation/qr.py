"""A QR code as inline SVG, made here rather than fetched (pages work offline, and the key it
holds never leaves the page): for an authenticator app to read a second factor's key."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(text: str, title: str) -> SafeString:
    """``text`` as an SVG QR code, dark on light whatever the theme (scanners need the
    contrast), its ``title`` for screen readers."""
    code = segno.make(text, error="m", micro=False)
    svg = code.svg_inline(
        scale=4, border=4, dark="#000", light="#fff", title=title, svgclass="qr", lineclass=None
    )
    # The title is escaped by segno; role: an image to assistive technology.
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))  # noqa: S308 - segno's markup
