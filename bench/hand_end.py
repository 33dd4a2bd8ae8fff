"""A hand's end as a player waits for it, in a real browser: the wall time from the board that
brings a hand's last card to the next hand's cards at rest on the table, and to the player's
first usable control of the next hand (the computer may speak first: its answer, and the
computer's own beat, COMPUTER_MOVE_DELAY, are then part of the wait), at each table pace.

Plays ``--matches`` seeded matches (to 5) against the easy computer at each pace, at 1280x800
and at 375x667, through a real server and task worker (the production settings, as
bench/load/ runs them) and headless Chromium; the times are taken in the page, frame by frame
(requestAnimationFrame), from the board's arrival. Prints the median and the max per pace.

    DATABASE_URL=postgres://euchre:euchre@127.0.0.1:5432/euchre \\
    REDIS_URL=redis://127.0.0.1:6379/11 .venv/bin/python bench/hand_end.py [--matches 1] \\
    [--shots /tmp/shots-table]

``--shots``: also photographs each stage of the first hand's end at each pace and size, and
the phone table in Thai and Burmese. It makes a database of its own (``<name>_bench_hand_end``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load.servers import production_env  # noqa: E402

PREFERRED = ["order_up", "accept", "take_up", "name", "joker", "discard", "play", "pass", "leave"]
SIZES = [(1280, 800), (375, 667)]

# Frame by frame, from the page's first paint: when each hand's end arrived (its board), when
# the table came to rest, and when a control of the player's was first usable after it.
WATCH = """
window.ends = []; window.stagesSeen = [];
(function look() {
  const felt = document.querySelector("#board .felt");
  if (felt) {
    const board = felt.closest("#board"), now = performance.now();
    const last = window.ends[window.ends.length - 1];
    if (felt.hasAttribute("data-hand-end") && felt.dataset.stage &&
        (!last || last.version !== board.dataset.version)) {
      window.ends.push({version: board.dataset.version, arrived: now, rest: null, usable: null});
    } else if (last && last.rest === null && !felt.dataset.stage) {
      last.rest = now;
    }
    if (last && last.rest !== null && last.usable === null &&
        board.hasAttribute("data-your-turn")) {
      const form = board.querySelector("form[data-move]");
      if (form && !form.inert && [...form.querySelectorAll("button")].some(b => !b.disabled &&
          b.checkVisibility({visibilityProperty: true}))) last.usable = now;
    }
    if (felt.dataset.stage) window.stagesSeen.push(felt.dataset.stage);
  }
  requestAnimationFrame(look);
})();
"""
AT_REST = """() => { const b = document.querySelector("#board");
  const felt = b && b.querySelector(".felt");
  return !!felt && !felt.hasAttribute("data-stage") &&
    (b.hasAttribute("data-your-turn") || b.hasAttribute("data-match-over")); }"""
STAGE = """() => document.querySelector("#board .felt")?.dataset.stage || "rest" """


def play(page, shots: Path | None, name: str) -> None:
    """Click the preferred control at each turn until the match is over; photograph the first
    hand's end stage by stage into ``shots``."""
    photographed = shots is None
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if not photographed and page.evaluate(STAGE) != "rest":
            taken = []
            while (stage := page.evaluate(STAGE)) != "rest" or not taken:
                if stage != "rest" and stage not in taken:
                    taken.append(stage)
                    page.screenshot(path=str(shots / f"{name}-{len(taken)}-{stage}.png"))
                page.wait_for_timeout(25)
            page.screenshot(path=str(shots / f"{name}-{len(taken) + 1}-rest.png"))
            photographed = True
        if not page.evaluate(AT_REST):
            page.wait_for_timeout(20)
            continue
        board = page.locator("#board")
        if board.get_attribute("data-match-over") is not None:
            return
        version = board.get_attribute("data-version")
        for kind in PREFERRED:
            buttons = page.locator(f"#board[data-version='{version}'] button[data-action={kind}]")
            if buttons.count():
                buttons.first.click()
                break
        page.wait_for_function(
            "v => document.querySelector('#board').dataset.version !== v", arg=version
        )
    raise SystemExit("a match did not finish in 300 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1, help="matches per pace and size")
    parser.add_argument("--shots", type=Path, default=None, help="a folder for screenshots")
    args = parser.parse_args()
    env = production_env("bench_hand_end")

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from playwright.sync_api import sync_playwright

    from games import services
    from games.models import TablePace
    from games.services import matches
    from tests.support.servers import Server, Worker

    server = Server(env).start()
    worker = Worker(env, server).start()
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    times = {pace: {"rest": [], "usable": []} for pace in TablePace}

    def prepared(name: str, pace: str, seed: int) -> tuple[int, str]:
        """A player at ``pace`` and their match against the computer: its id, their session."""
        user = get_user_model().objects.create_user(name)
        services.player_table_pace_set(user=user, pace=pace, forced_card=False)
        matches.new_seed = lambda: seed  # the same deals at each pace and size
        match = services.match_create_computer(user=user, strength="easy", target=5)
        client = Client()
        client.force_login(user)
        return match.pk, client.cookies["sessionid"].value

    # Made before the browser starts: Playwright's loop would then hold this thread.
    runs = [
        (pace, size, n, *prepared(f"{pace}{size[0]}n{n}", pace, 20260 + n))
        for pace in TablePace for size in SIZES for n in range(args.matches)
    ]  # fmt: skip
    readers = [(language, *prepared(f"reader-{language}", TablePace.QUICK, 20260))
               for language in (("th", "my") if args.shots else ())]  # fmt: skip
    # Playwright's sync API keeps an event loop in this thread; Django's ORM calls here are
    # the bench's own reads, one at a time (as tests/e2e/conftest.py allows them).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

    def opened(browser, match_id: int, session: str, size, language: str = "en"):
        context = browser.new_context(viewport={"width": size[0], "height": size[1]})
        cookies = [("sessionid", session), (settings.LANGUAGE_COOKIE_NAME, language)]
        context.add_cookies(
            [{"name": k, "value": v, "domain": "127.0.0.1", "path": "/"} for k, v in cookies]
        )
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.add_init_script(WATCH)
        page.goto(f"{server.url}/matches/{match_id}/")
        return context, page

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
            )
            for pace, size, n, match_id, session in runs:
                context, page = opened(browser, match_id, session, size)
                shots = args.shots if n == 0 else None
                play(page, shots, f"hand-end-{pace}-{size[0]}x{size[1]}")
                for end in page.evaluate("window.ends"):
                    if end["rest"] is not None:
                        times[pace]["rest"].append(end["rest"] - end["arrived"])
                    if end["usable"] is not None:
                        times[pace]["usable"].append(end["usable"] - end["arrived"])
                context.close()
            for language, match_id, session in readers:
                context, page = opened(browser, match_id, session, (375, 667), language)
                page.wait_for_function(AT_REST)
                page.screenshot(path=str(args.shots / f"phone-{language}-bid.png"))
                page.screenshot(path=str(args.shots / f"phone-{language}-page.png"),
                                full_page=True)  # fmt: skip
                context.close()
            browser.close()
    finally:
        worker.stop()
        server.stop()
    print(f"A hand's end, {args.matches} seeded match(es) to 5 per pace at 1280x800 and 375x667")
    print("ms from the board bringing the last card to:")
    print(f"{'pace':<8} {'hands':>5} {'at rest med':>12} {'max':>6} {'usable med':>11} {'max':>6}")
    for pace, got in times.items():
        rest, usable = got["rest"], got["usable"]
        print(f"{pace:<8} {len(rest):>5} {statistics.median(rest):>12.0f} {max(rest):>6.0f} "
              f"{statistics.median(usable):>11.0f} {max(usable):>6.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
