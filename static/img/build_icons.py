"""Makes the installed app's icons (the web app manifest's, games/web/pwa.py) from their
drawings in this folder: favicon.svg (the tab's icon, its corners rounded: purpose "any") and
icon-maskable.svg (the felt to every edge and the card inside the safe circle, 80 % of the
width: purpose "maskable", which a phone cuts to its own shape). A build step: its output is
committed. Chromium draws each at its size (Playwright and Debian's Chromium, which the
browser tests use already).

Run from the repository: .venv/bin/python static/img/build_icons.py
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
SIZES = (192, 512)
DRAWINGS = {"favicon.svg": "icon-{size}.png", "icon-maskable.svg": "icon-maskable-{size}.png"}
PAGE = (
    "<!doctype html><style>html,body{{margin:0;background:transparent}}"
    "img{{display:block;width:{size}px;height:{size}px}}</style>"
    "<img src='data:image/svg+xml,{svg}'>"
)


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"]
        )
        for drawing, name in DRAWINGS.items():
            svg = (HERE / drawing).read_text().strip().replace("#", "%23")
            for size in SIZES:
                page = browser.new_page(viewport={"width": size, "height": size})
                page.set_content(PAGE.format(size=size, svg=svg))
                page.wait_for_function("document.images[0].complete")
                target = HERE / name.format(size=size)
                page.screenshot(path=str(target), omit_background=True)
                page.close()
                print(f"{target.relative_to(HERE.parent.parent)}: {size}x{size}")
        browser.close()


if __name__ == "__main__":
    main()
