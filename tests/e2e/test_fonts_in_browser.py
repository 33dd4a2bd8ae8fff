"""Burmese, Thai and Amharic pages draw their letters with the fonts the site ships
(static/css/fonts.css) on a device that has no font for those scripts; English pages fetch
none of them (only the language switcher's names); and the match page's first load, fonts
included, stays within its budget in each language.

The device without fonts is Chromium given a fontconfig of its own that knows one Latin font,
DejaVu Sans: Padauk, TLWG and Abyssinica SIL (which CI installs) are invisible to it. There a
letter no shipped font draws is a box (.notdef), the same box whatever the letter."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.support.browser import (
    BUDGET,
    CHROMIUM,
    CHROMIUM_ARGS,
    collected_server,
    shot,
    transferred,
)
from tests.support.environment import missing
from tests.support.matches import start, until

pytestmark = pytest.mark.django_db(transaction=True)

LATIN_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
# Each language's script (its Unicode name), the family that draws it and the family's file.
SCRIPTS = {
    "my": ("Myanmar", "Euchre Myanmar", "noto-sans-myanmar-400.woff2"),
    "th": ("Thai", "Euchre Thai", "noto-sans-thai-400.woff2"),
    "am": ("Ethiopic", "Euchre Ethiopic", "noto-sans-ethiopic-400.woff2"),
}
NAMES = "language-names.woff2"  # the switcher's names of the languages, on every page

# Each letter of ``script`` on the page (not the marks, which go on a letter, nor the letters
# made of two, such as Thai's sara am: two boxes), drawn alone on a canvas in the font of each
# element that shows it (a button has the browser's own font unless told otherwise) and in
# DejaVu Sans, which has none of them; each picture as a checksum of its pixels.
MEASURE = """script => {
  const letter = new RegExp(`(?=\\\\p{L})\\\\p{Script=${script}}`, "u");
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 64;
  const context = canvas.getContext("2d", {willReadFrequently: true});
  const picture = (text, font) => {
    context.clearRect(0, 0, 64, 64);
    context.font = font;
    context.fillText(text, 8, 44);
    const alpha = context.getImageData(0, 0, 64, 64).data.filter((_, i) => i % 4 === 3);
    return alpha.reduce((sum, value, i) => (sum * 31 + value * (i + 1)) % 1000000007, 0);
  };
  const found = [];
  for (const element of document.querySelectorAll("body *")) {
    const own = [...element.childNodes].filter(node => node.nodeType === 3)
      .flatMap(node => [...node.data]).filter(c => letter.test(c) && c.normalize("NFKD") === c);
    const style = getComputedStyle(element);
    const look = `${style.fontStyle} ${style.fontWeight} 40px`;
    for (const c of new Set(own)) {
      found.push({
        where: `${c} in <${element.localName}>`, look, letter: c,
        drawn: picture(c, `${look} ${style.fontFamily}`),
        bare: picture(c, `${look} "DejaVu Sans"`),
      });
    }
  }
  return found;
}"""
# The width of each text of ``script`` on the page as laid out, and as laid out afresh (the
# page's layout thrown away and made again): text laid out before its font arrived and never
# again (Chromium did that to the first words of a page with a Latin font before the site's
# in the stack) keeps the width of its boxes.
STALE = """script => {
  const letters = new RegExp(`\\\\p{Script=${script}}`, "u");
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (letters.test(text.data)) texts.push(text);
  }
  const widths = () => texts.map(text => {
    const range = document.createRange();
    range.selectNodeContents(text);
    return [...range.getClientRects()].reduce((sum, rect) => sum + rect.width, 0);
  });
  const before = widths();
  document.body.style.display = "none";
  document.body.offsetHeight;
  document.body.style.display = "";
  document.body.offsetHeight;
  const after = widths();
  return texts.map((text, i) => [text.data.trim(), before[i], after[i]])
    .filter(([, was, is]) => Math.abs(was - is) > 0.5);
}"""
FACES = """() => Object.fromEntries([...document.fonts].map(
  face => [face.family.replaceAll('"', ""), face.status]))"""


@pytest.fixture(scope="module")
def fontless(browser, tmp_path_factory):
    """A Chromium that sees one font, DejaVu Sans: no Myanmar, Thai or Ethiopic font."""
    if not LATIN_FONT.exists():
        missing(f"{LATIN_FONT} (apt-get install fonts-dejavu-core)")
    folder = tmp_path_factory.mktemp("fontless")
    (folder / "fonts").mkdir()
    shutil.copy(LATIN_FONT, folder / "fonts")
    (folder / "fonts.conf").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
        f"<fontconfig><dir>{folder / 'fonts'}</dir><cachedir>{folder / 'cache'}</cachedir>"
        "</fontconfig>\n"
    )
    env = {**os.environ, "FONTCONFIG_FILE": str(folder / "fonts.conf")}
    # A second browser from the session's Playwright: a process runs one Playwright at a time.
    chromium = browser.browser_type.launch(
        executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, env=env
    )
    yield chromium
    chromium.close()


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), collected_server() as server:
        yield server


def first_visit(fontless, user, language: str):
    """A page in a fresh context (nothing cached) of the fontless browser, logged in as
    ``user``, in ``language``; and the requests it makes, as they finish."""
    context = fontless.new_context(viewport={"width": 1000, "height": 800})
    client = Client()
    client.force_login(user)
    cookies = {"sessionid": client.cookies["sessionid"].value}
    cookies[settings.LANGUAGE_COOKIE_NAME] = language
    context.add_cookies(
        [{"name": k, "value": v, "domain": "127.0.0.1", "path": "/"} for k, v in cookies.items()]
    )
    page = context.new_page()
    requests = []
    page.on("requestfinished", lambda request: requests.append(request))
    return page, requests


def visit(page, url: str, language: str) -> None:
    page.goto(url, wait_until="networkidle")
    page.wait_for_selector(f'html[lang="{language}"]')
    page.evaluate("document.fonts.ready.then(() => true)")


def fonts_in(requests) -> list[str]:
    return sorted({r.url.rsplit("/", 1)[-1] for r in requests if r.url.endswith(".woff2")})


def assert_drawn(page, script: str, at_least: int) -> None:
    """Every letter of ``script`` on the page is a glyph, none a box."""
    assert page.evaluate(STALE, script) == []
    found = page.evaluate(MEASURE, script)
    assert len({row["letter"] for row in found}) >= at_least, found
    # This browser has no font for the script: in DejaVu Sans every letter is the same box
    # (one for each weight and style).
    boxes = {}
    for row in found:
        boxes.setdefault(row["look"], set()).add(row["bare"])
    assert all(len(pictures) == 1 for pictures in boxes.values()), boxes
    assert [row["where"] for row in found if row["drawn"] == row["bare"]] == []


@pytest.mark.parametrize("language", SCRIPTS)
def test_each_script_is_drawn_with_the_shipped_font_on_a_device_without_one(
    fontless, server, alice, bob, language
):
    script, family, file = SCRIPTS[language]
    match = until(start(alice, bob, move_seconds=None), lambda s: s.phase.value == "play")
    page, requests = first_visit(fontless, match.players[match.state.turn], language)
    try:
        visit(page, f"{server.url}/matches/{match.pk}/", language)
        total = transferred(requests, server, f"first load of the match page in {language}")
        assert total < BUDGET
        assert fonts_in(requests) == sorted([file, NAMES])  # not the other scripts' fonts
        assert page.evaluate(FACES)[family] == "loaded"
        assert_drawn(page, script, at_least=20)
        visit(page, f"{server.url}/play/", language)
        assert_drawn(page, script, at_least=20)
        assert fonts_in(requests) == sorted([file, NAMES])
        shot(page, f"fonts-lobby-in-{language}")
    finally:
        page.context.close()


def test_an_english_page_fetches_only_the_language_names(fontless, server, alice, bob):
    match = until(start(alice, bob, move_seconds=None), lambda s: s.phase.value == "play")
    page, requests = first_visit(fontless, match.players[match.state.turn], "en")
    try:
        visit(page, f"{server.url}/matches/{match.pk}/", "en")
        assert transferred(requests, server, "first load of the match page in en") < BUDGET
        visit(page, f"{server.url}/play/", "en")
        assert fonts_in(requests) == [NAMES]
        faces = page.evaluate(FACES)
        assert [faces[family] for _script, family, _file in SCRIPTS.values()] == ["unloaded"] * 3
        for script, _family, _file in SCRIPTS.values():  # the switcher's names are no boxes
            assert_drawn(page, script, at_least=3)
    finally:
        page.context.close()
