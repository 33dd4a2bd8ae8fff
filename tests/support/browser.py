"""Pages in Debian's Chromium (Playwright) for the browser tests: screenshots, the layout-shift
watcher, the axe audit, clicking through a match, and a server as production runs one."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from games.models import Match
from tests.support.servers import Server, server_env

ROOT = Path(__file__).resolve().parents[2]


CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


SCREENSHOTS = ROOT / "artifacts" / "screenshots"


# Screenshots are for a person to look at; nothing asserts on them, and a full-page one costs
# the browser more than most of what a test checks. ``SCREENSHOTS=1 make test`` takes them all.
TAKE_SCREENSHOTS = os.environ.get("SCREENSHOTS") == "1"


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def shot(
    page, name: str, *, full_page: bool = True, folder: Path = SCREENSHOTS, force: bool = False
) -> None:
    """``folder/name.png``, with ``SCREENSHOTS=1`` only (or ``force``: a failed test's pages
    at its end, see ``new_page``)."""
    if not (TAKE_SCREENSHOTS or force):
        return
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=full_page)


def leave(dialog) -> None:
    if dialog.type == "beforeunload":
        dialog.accept()


BUDGET = 150 * 1024  # bytes transferred by the match page's first load, compressed


# Every layout shift the page sees, from its first paint (the observer is buffered): when,
# how much, and what moved.
WATCH_SHIFTS = """
window.shifts = [];
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) {
    const moved = (entry.sources || []).map(source => {
      const node = source.node;
      if (!node || !node.tagName) return String(node && node.nodeName);
      return node.tagName.toLowerCase() + "." + [...node.classList].join(".");
    });
    const rects = (entry.sources || []).map(source => [source.previousRect, source.currentRect]
      .map(r => [r.x, r.y, r.width, r.height].map(Math.round).join(",")).join(" -> "));
    window.shifts.push({value: entry.value, recent: entry.hadRecentInput, moved, rects,
                        at: Math.round(entry.startTime)});
  }
}).observe({type: "layout-shift", buffered: true});
"""


@contextmanager
def collected_server() -> Iterator[Server]:
    """A server as production runs one: after collectstatic, WhiteNoise sends the compressed
    files."""
    env = server_env(STATIC_COLLECTED="1")
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    server = Server(env).start()
    try:
        yield server
    finally:
        server.stop()


def transferred(requests: list, server: Server, title: str) -> int:
    """Bytes transferred for ``requests`` (headers and compressed bodies, as the browser
    received them), printed by response, the largest first."""
    sizes = {r.url: r.sizes() for r in requests}
    total = sum(s["responseBodySize"] + s["responseHeadersSize"] for s in sizes.values())
    print(f"\n{title}: {len(sizes)} responses, {total} bytes transferred")
    for url, s in sorted(sizes.items(), key=lambda item: -item[1]["responseBodySize"]):
        print(f"  {s['responseBodySize']:>7} {url.replace(server.url, '')}")
    return total


PREFERRED = ["order_up", "accept", "take_up", "name", "joker", "discard", "play", "pass", "leave"]


def trump_was_made(results: list[dict]) -> bool:
    """A hand in which somebody made trump is over (clubs is suit 0: not "no trump")."""
    return any(r["trump"] is not None for r in results)


def act_once(page, other) -> bool:
    """If it is this player's turn, click one of the offered controls and check that the
    other player's page shows the move, pushed: it asked the server for no board meanwhile
    (its socket open, the page skips its timed poll; live.js). How soon a push comes is
    bench/load's figure. True if a move was made."""
    board = page.locator("#board")
    if board.get_attribute("data-your-turn") is None:
        return False
    version = int(board.get_attribute("data-version"))
    for kind in PREFERRED:  # bid rather than pass, so that the hand is played out
        buttons = page.locator(f"#board button[data-action={kind}]")
        if buttons.count():
            asked = []  # the other page's requests for its board (a poll), while it waits

            def listen(request, asked=asked) -> None:
                if "/board?" in request.url:
                    asked.append(request.url)

            other.on("request", listen)
            buttons.first.click()
            page.wait_for_selector(f"#board[data-version='{version + 1}']")
            other.wait_for_selector(f"#board[data-version='{version + 1}']")
            other.remove_listener("request", listen)
            assert asked == [], f"the other page polled for the move: {asked}"
            return True
    raise AssertionError("my turn, but no control offered")


# Every websocket the page opens, recorded in the page as it opens (``window.sockets``: its
# address, the frames it has received, its close code), so that a test waits for a socket's
# first frame, or counts the sockets opened, in the page itself (add_init_script).
WATCH_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      const record = {url: String(args[0]), frames: 0, closed: null};
      window.sockets.push(record);
      this.addEventListener("message", () => { record.frames += 1; });
      this.addEventListener("close", event => { record.closed = event.code; });
    }
  };
})();
"""


def watch_sockets(page) -> None:
    """Record the page's sockets from its next load on (``WATCH_SOCKETS``)."""
    page.add_init_script(WATCH_SOCKETS)


def sockets_opened(page, path: str) -> list[dict]:
    """The sockets to ``path`` the page has opened (``watch_sockets``), the first first."""
    return page.evaluate("p => window.sockets.filter(s => s.url.includes(p))", path)


def socket_heard(page, path: str) -> None:
    """Wait for the first frame of the page's socket to ``path``: the server has taken the
    socket in (its groups joined, its row written) before it sends anything."""
    page.wait_for_function(
        "p => (window.sockets || []).some(s => s.url.includes(p) && s.frames > 0)", arg=path
    )


def analysed(page, base_url: str, match: Match) -> None:
    """Wait until the worker has stored the finished ``match``'s analysis (and the puzzles
    mined from it, in the same transaction): its page says so, pushed as it commits. The
    analysis takes seconds of search: the timeout is a failure guard only (bench/analysis.py
    prints how long it takes)."""
    page.goto(f"{base_url}/matches/{match.pk}/")
    page.wait_for_selector("[data-analysis-ready]", timeout=120_000)


def act_in_turn(pages: dict, match_id: int) -> None:
    """The player whose turn it is (``pages`` by username) makes a move once their page shows
    the board at the match's version, theirs to play (``act_once``, the other page watching)."""
    match = Match.objects.get(pk=match_id)
    mover = match.players[match.state.turn].username
    page, other = pages[mover], next(p for name, p in pages.items() if name != mover)
    page.wait_for_selector(f"#board[data-version='{match.version}'][data-your-turn]")
    assert act_once(page, other), f"{mover}'s turn, and no move made"


# A board later than the version given is on the page.
NEWER = "v => Number(document.querySelector('#board')?.dataset.version) > v"


# The board's version and whether it is the player's turn, read at once: a board pushed between
# two reads would pair one board's version with the next one's turn.
BOARD = """() => {
  const board = document.querySelector("#board");
  return [Number(board.dataset.version), board.hasAttribute("data-your-turn")];
}"""


def play_against_the_computer(page, match: Match, done, seconds: float = 120) -> None:
    """Click the player's preferred control whenever it is their turn, and wait for the
    computer's move otherwise, until ``done`` holds for the match's hand results."""
    deadline = time.monotonic() + seconds
    while not done(Match.objects.get(pk=match.pk).snapshot["results"]):
        assert time.monotonic() < deadline, f"not done in {seconds} s"
        version, my_turn = page.evaluate(BOARD)
        if not my_turn:
            # The computer's turn: its move is pushed to the page within a few seconds (the
            # board after it may already have come too: the computer can act twice running).
            page.wait_for_function(NEWER, arg=version, timeout=15_000)
            continue
        board = page.locator(f"#board[data-version='{version}']")  # that board, not a later one
        for kind in PREFERRED:
            buttons = board.locator(f"button[data-action={kind}]")
            if buttons.count():
                buttons.first.click()
                page.wait_for_function(NEWER, arg=version, timeout=10_000)
                break


AXE = ROOT / "tests" / "e2e" / "axe" / "axe.min.js"


TAGS = {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}


RUN = """async (runOnly) => {
  const result = await axe.run(document, {runOnly, resultTypes: ["violations"]});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ")),
  }));
}"""
