"""Whole matches in the browser in English, Thai and Burmese, each at a desktop and a phone
size (two of each), and at 320 and 1920 px wide in Somali, Amharic and Haitian, every move
clicked, the opponent moving as soon as its turn has started. At every frame: nothing of the
table is drawn outside the felt, and no control is usable before the hand's cards are on the table
(the next deal came while the last trick was still there). At every turn: every usable
control of the board is the element at its centre (nothing covers it: the hand's summary
covered the calls), the table's areas and the scoreboard have not moved or overflowed, and
the summary and the scoreboard's headings are whole. At phone size, in English and Thai, the
page is reloaded at each hand's end and the cumulative layout shift over the match, loads
included, is 0.

With ``SCREENSHOTS=1`` each stage of one hand's end goes to ``artifacts/hand-end/``, at
desktop and phone, light and dark."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone
from websockets.sync.client import connect

from games import services
from games.engine import legal_actions
from games.models import Match, MatchStatus
from tests.support.browser import ROOT, WATCH_SHIFTS
from tests.support.browser import shot as screenshot
from tests.support.matches import start
from tests.support.players import VERSION, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

# English, Thai and Burmese each at a desktop and a phone size (two of each size), and the
# narrowest and widest screens the site is made for in the other three (the longest words:
# Somali, Haitian; Ethiopic script).
CASES = [
    (1280, 720, "en"), (1280, 720, "my"), (1280, 800, "th"),
    (375, 667, "en"), (375, 667, "th"), (390, 844, "en"), (390, 844, "my"),
    (320, 568, "so"), (320, 568, "am"), (1920, 1080, "ht"),
]  # fmt: skip
SHOTS = Path(os.environ.get("HAND_END_SHOTS", ROOT / "artifacts" / "hand-end"))
PREFERRED = ["order_up", "accept", "take_up", "name", "joker", "discard", "play", "pass", "leave"]

# Watches every frame from the page's first paint: what was drawn outside the felt, and any
# control usable while the hand's cards were not all on the table, at rest.
WATCH_FRAMES = """
window.seen = {frames: 0, outside: [], early: []};
window.usable = el => !el.disabled && !el.closest("[inert]") &&
  el.checkVisibility({visibilityProperty: true, opacityProperty: true});
window.describe = el => el ? el.tagName.toLowerCase() + (el.className && el.className.baseVal
  === undefined ? "." + [...el.classList].join(".") : "") +
  (el.dataset && el.dataset.action ? "[" + el.dataset.action + "]" : "") : "nothing";
(function look() {
  const felt = document.querySelector("#board .felt");
  if (felt && !felt.closest("[data-board-ended]")) {
    window.seen.frames += 1;
    const f = felt.getBoundingClientRect();
    for (const el of felt.querySelectorAll(".card, .button, .hand-summary, .won, .plate")) {
      if (!el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      if (r.left < f.left - 1 || r.right > f.right + 1 || r.top < f.top - 1 ||
          r.bottom > f.bottom + 1) {
        if (window.seen.outside.length < 20) window.seen.outside.push(
          {what: window.describe(el) + " in " + window.describe(el.parentElement) + " " +
                 (felt.dataset.stage || "at rest"),
           width: r.width, top: r.top - f.top, left: r.left - f.left,
           right: f.right - r.right, bottom: f.bottom - r.bottom});
      }
    }
    // The moves' controls (the opponent's name, a tap from whole, is no move: usable always).
    const controls = [...felt.querySelectorAll("button:not([data-whole-name]), a[href]")]
      .filter(window.usable);
    const cards = [...felt.querySelectorAll(".my-hand > *")];
    const resting = cards.every(c => c.checkVisibility({visibilityProperty: true}) &&
      !c.getAnimations().some(a => a.playState === "running"));
    if (controls.length && !resting && window.seen.early.length < 20) {
      window.seen.early.push(controls.map(window.describe).join(" "));
    }
  }
  requestAnimationFrame(look);
})();
"""

# Every usable control of the board, scrolled into view if need be: the element at its centre
# is the control or inside it. Returns what was covered, and by what.
COVERED = """() => { const at = window.scrollY;
  const covered = [...document.querySelectorAll(
    "#board button, #board a[href], #board summary, #board select")]
  .filter(window.usable).map(el => {
    el.scrollIntoView({block: "nearest", inline: "nearest"});
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return el.contains(hit) ? null : window.describe(el) + " under " + window.describe(hit);
  }).filter(Boolean);
  window.scrollTo(0, at);
  return covered; }"""

# The table's areas, which no board may move or resize, and what overflows the scoreboard.
AREAS = """() => {
  const box = s => { const e = document.querySelector(s); if (!e) return null;
    const r = e.getBoundingClientRect();  // on the page: a small screen scrolls to a control
    return [r.left + scrollX, r.top + scrollY, r.width, r.height].map(Math.round).join(","); };
  const score = document.querySelector(".scorebox");
  const s = score.getBoundingClientRect();
  const spill = [...score.querySelectorAll("th, td, .label, .who, .trump-sign, .target")]
    .filter(e => e.checkVisibility()).filter(e => { const r = e.getBoundingClientRect();
      return r.width && (r.left < s.left - 1 || r.right > s.right + 1); })
    .map(e => e.className || e.tagName);
  const labels = [...score.querySelectorAll(".trump > *")].filter(e => e.checkVisibility())
    .map(e => e.getBoundingClientRect());
  const overlap = labels.some((a, i) => labels.slice(i + 1).some(b =>
    a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1));
  // The summary beside the next deal is read whole: none of it cut off.
  const clipped = [...document.querySelectorAll("#board [data-hand-summary]")]
    .filter(e => e.checkVisibility() && e.scrollHeight > e.clientHeight + 1)
    .map(e => e.innerText)
    // and the scoreboard's headings whole (a player's name may be cut, with its title).
    .concat([...score.querySelectorAll("thead :is(th, td), .trump .label")]
      .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.innerText));
  return {areas: {felt: box(".felt"), top: box(".seat-top"), score: box(".scorebox"),
                  middle: box(".middle"), hand: box(".felt .my-hand"),
                  prompt: box(".prompt-row"), me: box(".seat-bottom")},
          spill, overlap, clipped};
}"""

NOT_PLAYING = """() => !document.querySelector("#board .felt[data-stage]")"""
AT_REST = """() => { const b = document.querySelector("#board");
  const felt = b && b.querySelector(".felt");
  return !!felt && !felt.hasAttribute("data-stage") &&
    (b.hasAttribute("data-your-turn") || b.hasAttribute("data-match-over")); }"""


def opponent(base_url: str, match_id: int, user, stop: threading.Event) -> threading.Thread:
    """The opponent's moves: a bid rather than a pass, as soon as its turn has started, as a
    player whose page shows the table at rest would. It hears every move on a socket of the
    match, as a page does, and reads the match again after each."""
    address = base_url.replace("http://", "ws://") + f"/ws/matches/{match_id}/"
    cookie = session_cookie(user)

    def run() -> None:
        try:
            with connect(address, origin=base_url, additional_headers={"Cookie": cookie}) as ws:
                while not stop.is_set():
                    match = Match.objects.get(pk=match_id)
                    if match.status != MatchStatus.ACTIVE:
                        return
                    if match.state.turn == match.seat_of(user):
                        # After a hand's end its turn starts when the table's pace says: that
                        # time is what the page is tested against, so it is waited out.
                        starts = (match.turn_started_at - timezone.now()).total_seconds()
                        time.sleep(max(0.0, starts))
                        legal = [str(a) for a in legal_actions(match.state)]
                        action = next((a for a in legal if a != "pass"), legal[0])
                        services.move_apply(
                            user=user, match_id=match_id, action=action, version=match.version
                        )
                    newer(ws, match.version, stop)
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def newer(ws, version: int, stop: threading.Event) -> None:
    """Read the socket's frames until a board later than ``version`` (or ``stop``)."""
    while not stop.is_set():
        try:
            frame = ws.recv(timeout=1)  # (a second at a time, to see ``stop``)
        except TimeoutError:
            continue
        if 'id="board"' in frame and int(VERSION.search(frame).group(1)) > version:
            return


# A hand's end under way, at a stage a tap hurries on.
HURRIED = """() => ["trick", "collect", "summary"].includes(
  document.querySelector("#board .felt")?.dataset.stage)"""


def until_at_rest(page, hurry: bool, photos: dict) -> int:
    """Wait for the table at rest (my turn, or the match over); with ``hurry``, a tap on the
    table during a hand's end, which must bring it to rest at once (after the first hand's
    end is photographed, stage by stage, if ``photos`` has a name). Returns the taps."""
    taps = 0
    while not page.evaluate(AT_REST):
        if photos.get("name") and stages(page, photos["name"]):
            photos.clear()
        elif hurry and page.evaluate(HURRIED):
            page.locator("#board .felt").click(position={"x": 4, "y": 4})
            # At once: the tap's own handler ends the show (table.js), no timer waited for.
            page.wait_for_function(NOT_PLAYING)
            taps += 1
        else:  # the next state worth acting on: at rest, or a hand's end to photograph or hurry
            wanted = [f"({AT_REST})()"]
            if photos.get("name"):
                wanted.append("!!document.querySelector('#board .felt[data-stage]')")
            elif hurry:
                wanted.append(f"({HURRIED})()")
            page.wait_for_function("() => " + " || ".join(wanted))
    return taps


def shot(page, name: str) -> None:
    screenshot(page, name, full_page=False, folder=SHOTS)


STAGE = """() => { const felt = document.querySelector("#board .felt");
  return felt ? felt.dataset.stage || "rest" : "none"; }"""


# The felt's stage is no longer ``s`` (or, with ``later``, its animations have run 150 ms).
STAGE_CHANGED = f"""([s, later]) => ({STAGE})() !== s || later &&
  document.querySelector("#board .felt").getAnimations({{subtree: true}})
    .some(a => a.currentTime >= 150)"""


def stages(page, name: str) -> bool:
    """A screenshot of each stage of the hand's end under way (False if none is), each taken
    as the stage begins (the deal once more as it is under way)."""
    taken = []
    stage = page.evaluate(STAGE)
    while stage not in ("rest", "none"):
        taken.append(stage)
        shot(page, f"{name}-{len(taken)}-{stage}")
        if stage == "deal":
            page.wait_for_function(STAGE_CHANGED, arg=[stage, True])
            shot(page, f"{name}-{len(taken)}-{stage}-later")
        page.wait_for_function(STAGE_CHANGED, arg=[stage, False])
        stage = page.evaluate(STAGE)
    if taken:
        shot(page, f"{name}-{len(taken) + 1}-rest")
    return bool(taken)


@pytest.mark.parametrize(
    ("width", "height", "language"), CASES, ids=[f"{w}x{h}-{code}" for w, h, code in CASES]
)
def test_a_whole_match_every_control_reachable_and_nothing_early_or_outside_the_felt(
    live_server_url, new_page, alice, bob, width, height, language
):
    match = start(alice, bob, target=3, move_seconds=None)
    page = new_page(width=width, height=height, logged_in=alice)
    # Two sizes dark, and there a tap on the table hurries each hand's end on.
    hurry = (width, height) in ((1280, 800), (390, 844))
    page.emulate_media(color_scheme="dark" if hurry else "light")
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language,
                               "domain": "127.0.0.1", "path": "/"}])  # fmt: skip
    page.add_init_script(WATCH_FRAMES)
    shifts = width < 600 and language in ("en", "th")
    if shifts:
        page.add_init_script(WATCH_SHIFTS)
    url = f"{live_server_url}/matches/{match.pk}/"
    # The opponent's page is open (it is at the table: no claim offered against it).
    new_page(logged_in=bob).goto(url)
    page.goto(url)
    page.wait_for_selector(f'html[lang="{language}"]')
    page.wait_for_selector("[data-connection=live]")
    stop = threading.Event()
    thread = opponent(live_server_url, match.pk, bob, stop)
    first = page.evaluate(AREAS)
    moved, shifted, seen, turns, hands = [], [], [], 0, 0
    hurried = 0
    theme = "dark" if hurry else "light"
    photos = (
        {"name": f"{width}x{height}-{language}-{theme}"} if os.environ.get("SCREENSHOTS") else {}
    )
    try:
        while True:  # every turn a move is made (or the test fails): the match ends
            hurried += until_at_rest(page, hurry, photos)
            board = page.locator("#board")
            if board.get_attribute("data-match-over") is not None:
                break
            version = int(board.get_attribute("data-version"))
            assert page.evaluate(COVERED) == [], f"turn {turns}"
            now = page.evaluate(AREAS)
            assert not now["spill"] and not now["overlap"] and not now["clipped"], (turns, now)
            if now["areas"] != first["areas"]:
                moved.append((turns, now["areas"]))
            for kind in PREFERRED:
                buttons = page.locator(f"#board button[data-action={kind}]")
                if buttons.count():
                    buttons.first.click()  # a real click: it fails if anything covers it
                    break
            else:
                raise AssertionError("my turn, but no control offered")
            page.wait_for_function(
                "v => Number(document.querySelector('#board').dataset.version) > v", arg=version
            )
            turns += 1
            results = len(Match.objects.get(pk=match.pk).state.results)
            if shifts and results > hands:  # a hand has ended: reload once it is at rest
                hands = results
                hurried += until_at_rest(page, hurry, photos)
                shifted += [s for s in page.evaluate("window.shifts") if not s["recent"]]
                seen.append(page.evaluate("window.seen"))
                page.reload()
                page.wait_for_selector("[data-connection=live]")
    finally:
        stop.set()
        thread.join(5)
    seen.append(page.evaluate("window.seen"))
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    assert sum(s["frames"] for s in seen) > 100
    outside = [o for s in seen for o in s["outside"]]
    assert outside == [], outside
    assert [e for s in seen for e in s["early"]] == []
    assert moved == [], (first["areas"], moved[:3])
    assert hurried or not hurry or os.environ.get("SCREENSHOTS")  # (photographed instead)
    if shifts:
        shifted += [s for s in page.evaluate("window.shifts") if not s["recent"]]
        assert sum(s["value"] for s in shifted) == 0, shifted
        print(f"\n{width}x{height} {language}: cumulative layout shift 0 over "
              f"{turns} turns and {hands} reloads")  # fmt: skip
