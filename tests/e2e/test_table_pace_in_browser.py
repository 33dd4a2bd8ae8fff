"""A whole match against the computer at a desktop and a phone size, at the quick pace: every
hand's end plays its stages in order (the last trick with its winner marked, the trick to its
winner, the deal with the hand's summary beside the table, not over the next deal), and the
next hand's controls are usable as soon as the table rests, with nothing to wait for but the
stages' own timers; those timers, read from the page's configuration (not from a clock), and
the server's wait before the next hand's first turn, add up to at most 2.5 s. At every turn
the opponent's presence is words on one line, and every enabled control and the upcard are
the element at their centre (nothing covers them). On the phone the player asked for their
forced cards to be played for them: the page plays them, through the same click."""

from __future__ import annotations

import time

import pytest

from games import services
from games.models import HAND_END_BY_PACE, MatchStatus, Move, TablePace

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.engines]

PREFERRED = ["order_up", "accept", "take_up", "name", "joker", "discard", "play", "pass", "leave"]
BUDGET_MS = 2500

# Every frame from the page's first paint: each stage of a hand's end as it comes (with what
# the table shows then), and whether the controls were usable on the first frame at rest.
WATCH = """
window.paced = {runs: [], run: null, early: [], frames: 0};
window.visible = el => !!el && el.checkVisibility({visibilityProperty: true,
                                                   opacityProperty: true});
window.overlaps = (a, b) => { const r = a.getBoundingClientRect(), s = b.getBoundingClientRect();
  return r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1 &&
         s.top < r.bottom - 1; };
(function look() {
  const felt = document.querySelector("#board .felt");
  if (felt) {
    window.paced.frames += 1;
    const stage = felt.dataset.stage || "rest";
    const p = window.paced;
    if (stage !== "rest") {
      if (!p.run) p.run = {stages: [], winner: false, beside: [], over: []};
      if (p.run.stages[p.run.stages.length - 1] !== stage) p.run.stages.push(stage);
      if (stage === "trick" && window.visible(felt.querySelector(".trick.done .won")))
        p.run.winner = true;
      const side = felt.querySelector("[data-hand-summary]");
      if (stage === "deal" && side) {
        p.run.beside.push(window.visible(side) &&
          !window.visible(felt.querySelector("[data-stage-summary]")));
        for (const part of felt.querySelectorAll(".my-hand > *, .stock .on-pile, .bids"))
          if (window.visible(part) && window.overlaps(side, part) &&
              !part.getAnimations().some(a => a.playState === "running"))  // where it lies
            p.run.over.push(part.className);
      }
    } else if (p.run) {
      const board = felt.closest("#board");
      const form = board.querySelector("form[data-move]");
      p.run.usable = !board.hasAttribute("data-your-turn") ||
        (!!form && !form.inert && [...form.querySelectorAll("button")].some(
          b => !b.disabled && window.visible(b)));
      p.runs.push(p.run);
      p.run = null;
    }
  }
  requestAnimationFrame(look);
})();
"""

# The pace's stages as the page has them (#table-paces) and as its timers took them.
CONFIGURED = """() => ({
  paces: JSON.parse(document.getElementById("table-paces").textContent),
  pace: document.querySelector("[data-pace]").dataset.pace,
  collect: getComputedStyle(document.documentElement).getPropertyValue("--collect-ms").trim(),
  flight: getComputedStyle(document.documentElement).getPropertyValue("--deal-flight-ms").trim(),
})"""

# The opponent's presence: its words, on one line (as high as one line of its text).
PRESENCE = """() => { const el = document.querySelector("#board .seat-top .presence");
  if (!el || !window.visible(el)) return null;
  const words = el.querySelector(".words");
  const line = parseFloat(getComputedStyle(el).lineHeight);
  const box = el.getBoundingClientRect();
  return {text: words && window.visible(words) ? words.innerText.trim() : "",
          height: box.height, line, wordsHeight: words ? words.getBoundingClientRect().height : 0,
          dotHidden: el.querySelector(".dot")?.getAttribute("aria-hidden") === "true"}; }"""

# Every enabled control of the board and the upcard, scrolled into view if need be: the
# element at its centre is it or inside it; no call and no summary over the upcard. Returns
# what was covered, and by what.
COVERED = """() => { const at = window.scrollY;
  const name = el => el ? el.tagName.toLowerCase() + "." + [...el.classList].join(".") +
    (el.dataset.action ? "[" + el.dataset.action + "]" : "") : "nothing";
  const covered = [...document.querySelectorAll(
    "#board button:not([disabled]), #board a[href], #board summary, #board .stock .on-pile")]
  .filter(el => !el.closest("[inert]") && window.visible(el)).map(el => {
    el.scrollIntoView({block: "nearest", inline: "nearest"});
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return el.contains(hit) ? null : name(el) + " under " + name(hit);
  }).filter(Boolean);
  // ... and nothing lies over any part of the upcard: a call, or the hand's summary.
  const upcard = document.querySelector("#board .stock .on-pile");
  if (upcard && window.visible(upcard)) {
    const near = document.querySelectorAll("#board .bids button, #board [data-hand-summary]");
    for (const el of near)
      if (window.visible(el) && window.overlaps(el, upcard)) covered.push(name(el) + " over it");
  }
  window.scrollTo(0, at);
  return covered; }"""

AT_REST = """() => { const b = document.querySelector("#board");
  const felt = b && b.querySelector(".felt");
  return !!felt && !felt.hasAttribute("data-stage") &&
    (b.hasAttribute("data-your-turn") || b.hasAttribute("data-match-over")); }"""

# The board's version, whether it is the player's turn and whether they have one card, and only
# one, to play (the page may have clicked it already): read at once, of the same board.
STATE = """() => { const b = document.querySelector("#board");
  return {version: Number(b.dataset.version), mine: b.hasAttribute("data-your-turn"),
          forced: !b.querySelector(".bids") &&
            b.querySelectorAll(".my-hand .card-button[data-action=play]").length === 1}; }"""


def hand_end_ms(pace: dict) -> int:
    """A hand's end at ``pace`` as the page's timers play it: the stages one after another."""
    deal = (pace["dealt"] - 1) * pace["deal_step"] + pace["deal_flight"]
    return pace["trick"] + pace["collect"] + pace["summary"] + deal


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (375, 667)])
def test_every_hands_end_is_quick_and_whole_and_the_table_uncovered(
    live_server_url, new_page, alice, monkeypatch, width, height
):
    forced = width < 600
    services.player_table_pace_set(user=alice, pace=TablePace.QUICK, forced_card=forced)
    monkeypatch.setattr("games.services.matches.new_seed", lambda: 20260)  # the same deals
    match = services.match_create_computer(user=alice, strength="easy", target=5)
    page = new_page(width=width, height=height, logged_in=alice)
    page.add_init_script(WATCH)
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    page.wait_for_selector("[data-connection=live]")

    # The quick pace's timers, as the page has them, and the server's wait: within budget.
    config = page.evaluate(CONFIGURED)
    quick = config["paces"]["quick"]
    assert config["pace"] == "quick"
    assert (config["collect"], config["flight"]) == (
        f"{quick['collect']}ms", f"{quick['deal_flight']}ms",
    )  # fmt: skip
    assert hand_end_ms(quick) <= BUDGET_MS
    assert quick["hand_end"] <= BUDGET_MS
    # The computer never plays into a page still showing the last hand.
    assert quick["hand_end"] >= hand_end_ms(quick)
    assert quick["hand_end"] == HAND_END_BY_PACE[TablePace.QUICK].total_seconds() * 1000
    relaxed = config["paces"]["relaxed"]
    assert relaxed["hand_end"] >= hand_end_ms(relaxed) > hand_end_ms(quick)

    turns, clicks = 0, 0
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, "the match did not finish in 240 s"
        page.wait_for_function(AT_REST, timeout=20_000)
        board = page.locator("#board")
        if board.get_attribute("data-match-over") is not None:
            break
        presence = page.evaluate(PRESENCE)
        assert presence is not None, f"turn {turns}: no presence shown"
        assert presence["text"] == "at the table", (turns, presence)
        assert presence["height"] <= presence["line"] * 1.2, (turns, presence)
        assert presence["wordsHeight"] <= presence["line"] * 1.2, (turns, presence)
        assert presence["dotHidden"], presence
        assert page.evaluate(COVERED) == [], f"turn {turns}"
        state = page.evaluate(STATE)
        if not state["mine"]:
            continue  # the page played a forced card, and the next board came already
        if not (forced and state["forced"]):
            for kind in PREFERRED:
                buttons = page.locator(
                    f"#board[data-version='{state['version']}'] button[data-action={kind}]"
                )
                if buttons.count():
                    buttons.first.click()  # a real click: it fails if anything covers it
                    clicks += 1
                    break
            else:
                raise AssertionError("my turn, but no control offered")
        # (a forced card: the page plays it, no click of ours)
        page.wait_for_function(
            "v => Number(document.querySelector('#board').dataset.version) > v",
            arg=state["version"],
        )
        turns += 1

    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    paced = page.evaluate("window.paced")
    ends = [run for run in paced["runs"] if run["stages"] != ["deal"]]  # a redeal is a deal
    assert len(ends) >= len(match.snapshot["results"]) - 1 >= 2, paced["runs"]
    for run in ends:
        assert run["stages"] == ["trick", "collect", "deal"], run
        assert run["winner"], run  # the last trick's winner marked
        assert run["beside"] and all(run["beside"]), run  # the summary beside the deal
        assert run["over"] == [], run  # ... and over none of it
    assert all(run.get("usable", True) for run in paced["runs"]), paced["runs"]
    played_for_me = Move.objects.filter(match=match, seat=0).count() - clicks
    if forced:
        assert played_for_me > 0, "no forced card came up in the match"
    else:
        assert played_for_me == 0
    print(f"\n{width}x{height}: {len(ends)} hands' ends, {turns} turns, "
          f"{played_for_me} forced cards played by the page")  # fmt: skip
