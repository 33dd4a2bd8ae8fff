"""WCAG 2.1 AA, checked by axe-core (tests/e2e/axe/axe.min.js, MPL-2.0, see its LICENSE)
inside the browser: every page a player meets, in English at desktop and phone widths and in
both themes (in the dark one, the rules about colour: the theme changes colours and nothing
else), and in two other scripts at phone width, where their words are tightest (the language
changes words and nothing else; checking them at desktop width too was a third more audits). No
serious or critical violation, and none of structure; the figures are printed (-s shows them)
and written to artifacts/axe.json."""

from __future__ import annotations

import json
from collections import Counter
from datetime import timedelta

import pytest
from django.conf import global_settings, settings
from django.test import Client
from django.utils import timezone

from games import services
from games.engine.state import Phase
from games.models import AccountSession, Arena, MatchAnalysis, PlayerRating, Puzzle, PuzzleStreak
from games.services.mail_addresses import unsubscribe_token
from tests.support.arenas import announced
from tests.support.browser import AXE, ROOT, RUN, TAGS, analysed, shot
from tests.support.matches import play_to_the_end, start
from tests.support.push_service import push_device_listed
from tests.support.training import decision, first

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = {"desktop": (1280, 900), "phone": (375, 812)}
THEMES = ["light", "dark"]  # the device's preference: the site follows it
LANGUAGES = ["en", "th", "am"]  # Latin, Thai and Ethiopic scripts
# A page's audits: English at both widths in both themes, each other language at phone width.
PER_PAGE = len(WIDTHS) * len(THEMES) + len(LANGUAGES) - 1
# Whatever their impact: one h1, landmarks, every control and link named.
STRUCTURE = {"page-has-heading-one", "landmark-one-main", "region", "label", "button-name",
             "link-name", "empty-table-header"}  # fmt: skip
# The dark theme changes the colours and nothing else (static/css/site.css: custom properties
# only), so in it only the rules about colour run again.
COLOUR_RULES = {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}
PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/124.0.0.0 Mobile Safari/537.36"


# Words (between spaces and hyphens) that the layout split over two lines: "Los t", "Rep lay".
# Scripts written without spaces (Thai, Burmese) wrap between words by themselves and are not
# checked.
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    // The translation review shows messages as written, placeholders and all ("%(suit)s:" may
    // wrap after its "%"), and Burmese and Thai on another language's page wrap as those
    // scripts do, between syllables or words the checker cannot see.
    const skip = "code, .invite, .fairness, .visually-hidden, [data-msgid], [data-msgstr], "
      + "[lang=my], [lang=th]";
    if (!parent.offsetParent || parent.closest(skip)) continue;
    for (const match of node.textContent.matchAll(/[^\\s\\-\u2013]{2,}/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      const tops = new Set(rects.map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""


def test_every_page_meets_wcag_aa_at_both_widths_in_three_languages(
    live_server_url, new_page, alice, bob, carol
):
    waiting = services.match_create(user=alice, move_seconds=None)
    bidding = start(alice, bob, move_seconds=None)
    bidding.refresh_from_db()
    playing = start(alice, carol, move_seconds=None)
    while not (playing.state.phase.value == "play" and playing.state.trick):
        legal = [str(a) for a in services_legal(playing)]
        choice = next((a for a in legal if not a.startswith("pass")), legal[0])
        playing = services.move_apply(
            user=playing.players[playing.state.turn], match_id=playing.pk, action=choice,
            version=playing.version,
        ).match  # fmt: skip
    over = play_to_the_end(start(bob, alice, target=3), seed=4)
    push_device_listed(alice)  # the settings' notifications, with a device in the list
    anonymous = ["/", "/accounts/signup/", "/accounts/login/", "/rules/", "/help/", "/learn/",
                 "/translate/thanks/", "/api/v1/docs"]  # fmt: skip
    as_alice = {
        "lobby": "/play/",
        "match waiting": f"/matches/{waiting.pk}/",
        "match bidding": f"/matches/{bidding.pk}/",
        "match in play": f"/matches/{playing.pk}/",
        "match over": f"/matches/{over.pk}/",
        "replay": f"/matches/{over.pk}/replay",
        "replay with its analysis": f"/matches/{over.pk}/replay?step=2&analysis=1",
        "history": "/history/",
        "profile": "/users/alice/",
        "insights": "/users/alice/insights/",
        "insights, filtered": "/users/alice/insights/?period=30&rated=rated&deck=24",
        "leaderboard": "/leaderboard/",
        "bots' leaderboard": "/leaderboard/?bots=1",
        "settings": "/settings/",  # its install section too, as a browser shows it with no offer
        "offline page": "/offline/",  # the service worker's, with the network gone
        "translation review": "/translate/?q=trump",
        "players followed and blocked": "/following/",
        "a followed player's profile": "/users/bob/",
        "correspondence match": f"/matches/{start(bob, alice, days_per_move=3).pk}/",
        "correspondence leaderboard": "/leaderboard/?ladder=correspondence",
        "turn mails' unsubscription": f"/mail/unsubscribe/{unsubscribe_token(alice.pk, 'turn')}/",
        "arenas": "/arenas/",
        "arena finished, its podium": f"/arenas/{arena_ended(alice, bob).pk}/",
        "arena running, its standings": f"/arenas/{arena_running(alice, bob).pk}/",
    }
    services.follow_create(user=alice, followed=bob, notify=True)
    services.block_create(user=alice, blocked_player=carol)
    services.match_create(user=bob, target=5)  # the banner: a followed player's open match
    services.api_token_create(user=alice, name="my program", scopes=["read", "play"])
    as_bob = {"invite": f"/matches/{waiting.pk}/"}
    analysed(new_page(logged_in=bob), live_server_url, over)  # the worker's, queued at the end
    decisions = MatchAnalysis.objects.get(match=over).result["decisions"]
    flagged = next(d["index"] for d in decisions if d["flag"] and d["lines"])
    # A key moment: its reason, its best lines and the graph of the chances.
    as_alice["replay at a key moment"] = f"/matches/{over.pk}/replay?step={flagged}&analysis=1"
    # A puzzle from it, before and after its answer.
    puzzle, solved = Puzzle.objects.filter(match=over).order_by("index")[:2]
    services.puzzle_answer(user=alice, puzzle_id=solved.pk, action=solved.answer)
    as_alice["puzzle"] = f"/puzzles/{puzzle.pk}/"
    as_alice["puzzle solved"] = f"/puzzles/{solved.pk}/"
    audit = Audit()
    for code in LANGUAGES:
        pages = {
            "anonymous": (new_page(), {path: path for path in anonymous}),
            # The settings' Web Push section says "on" or "off" once the worker is in.
            "alice": (new_page(logged_in=alice, service_worker=True), as_alice),
            "bob": (new_page(logged_in=bob), as_bob),
        }
        for page, paths in pages.values():
            audit.pages(page, live_server_url, code, paths)
    audit.report("axe.json")
    pages = len(anonymous) + len(as_alice) + 1
    assert audit.audited == PER_PAGE * pages
    assert not audit.serious, json.dumps(audit.serious, indent=1, ensure_ascii=False)  # the bar


def test_a_guests_pages_meet_wcag_aa_at_both_widths_in_three_languages(live_server_url, new_page):
    """A guest's pages ("Play now" without an account): the lobby with a guest's header, and
    "Keep my games"."""
    as_guest = {"guest's lobby": "/play/", "keep my games": "/accounts/keep/"}
    audit = Audit()
    for code in LANGUAGES:
        page = new_page()
        page.goto(live_server_url + "/")
        page.click("main [data-action=play-now]")  # a guest of its own in each language
        page.wait_for_url("**/play/")
        audit.pages(page, live_server_url, code, as_guest)
    audit.report("axe-guests.json")
    assert audit.audited == PER_PAGE * len(as_guest)
    assert not audit.serious, json.dumps(audit.serious, indent=1, ensure_ascii=False)


def test_a_match_pages_chat_meets_wcag_aa_for_a_player_and_a_spectator(
    live_server_url, new_page, alice, bob, carol
):
    """The match page's chat, a player's (quick messages, free chat, the mute) and a
    spectator's, with lines of both rooms in the move log, at both widths in three languages."""
    match = start(alice, bob, move_seconds=None)
    for user in (alice, bob, carol):
        services.chat_settings_set(user=user, free_chat=True, chat_sound=False)
    services.chat_say(user=alice, match_id=match.pk, phrase="good_luck")
    services.chat_say(user=bob, match_id=match.pk, text="Hello from Bangkok")
    services.chat_say(user=carol, match_id=match.pk, phrase="have_fun", room="spectators")
    path = f"/matches/{match.pk}/"
    audit = Audit()
    for code in LANGUAGES:
        for user, name, lines in ((alice, "match, its chat", 2), (carol, "match watched", 1)):
            page = new_page(logged_in=user)
            audit.pages(page, live_server_url, code, {name: path})
            assert page.locator("#move-log li.log-chat").count() == lines, (code, name)
    audit.report("axe-chat.json")
    assert audit.audited == PER_PAGE * 2
    assert not audit.serious, json.dumps(audit.serious, indent=1, ensure_ascii=False)


def test_an_arena_pages_chat_meets_wcag_aa_for_a_player_and_a_reader(
    live_server_url, new_page, alice, bob, carol
):
    """The arena page's chat, a player's (quick messages, free chat) and that of an account
    that did not join (it reads), with lines in its log, at both widths in three languages."""
    arena = arena_announced(alice, bob)  # not started: nobody is taken to a match
    for user in (alice, bob, carol):
        services.chat_settings_set(user=user, free_chat=True, chat_sound=False)
    services.chat_say_arena(user=alice, arena_id=arena.pk, phrase="good_luck")
    services.chat_say_arena(user=bob, arena_id=arena.pk, text="Hello from Mogadishu")
    path = f"/arenas/{arena.pk}/"
    audit = Audit()
    for code in LANGUAGES:
        for user, name in ((alice, "arena, its chat"), (carol, "arena, its chat read")):
            page = new_page(logged_in=user)
            audit.pages(page, live_server_url, code, {name: path})
            assert page.locator("#arena-chat-log li.log-chat").count() == 2, (code, name)
    audit.report("axe-arena-chat.json")
    assert audit.audited == PER_PAGE * 2
    assert not audit.serious, json.dumps(audit.serious, indent=1, ensure_ascii=False)


def test_the_account_pages_sessions_meet_wcag_aa_at_both_widths_in_three_languages(
    live_server_url, new_page, alice, settings
):
    """The account page's sessions: the list (this browser, logged in through the form, and
    a phone), a session's ending asked, and the ending of all the others asked."""
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS  # the server's, to log in
    alice.set_password("correct horse 1")
    alice.save()
    phone = Client(HTTP_USER_AGENT=PHONE)
    phone.post("/accounts/login/", {"username": "alice", "password": "correct horse 1"})
    other = AccountSession.objects.get(session_key=phone.cookies["sessionid"].value)
    states = {
        "account, its sessions": "/settings/account/",
        "account, a session's ending asked": f"/settings/account/?end={other.pk}",
        "account, the others' ending asked": "/settings/account/?end=others",
    }
    audit = Audit()
    for code in LANGUAGES:
        page = new_page()
        page.goto(live_server_url + "/accounts/login/")
        page.fill("[name=username]", "alice")
        page.fill("[name=password]", "correct horse 1")
        page.click("main form button[type=submit]")
        page.wait_for_url("**/play/")
        audit.pages(page, live_server_url, code, states)
        assert page.locator("[data-session]").count() >= 2
    audit.report("axe-account-sessions.json")
    assert audit.audited == PER_PAGE * len(states)
    assert not audit.serious, json.dumps(audit.serious, indent=1, ensure_ascii=False)


def test_the_account_pages_leaving_meets_wcag_aa_at_both_widths_in_three_languages(
    live_server_url, new_page, alice
):
    """The account page's data and leaving: the file offered, being prepared, ready to
    download; a deletion refused (a wrong password)."""
    from games.models import DataExport

    audit = Audit()
    for code in LANGUAGES:
        DataExport.objects.filter(user=alice).delete()
        page = new_page(logged_in=alice)
        audit.pages(page, live_server_url, code, {"account, data offered": "/settings/account/"})
        DataExport.objects.create(user=alice, requested_at=timezone.now())  # no task: it waits
        preparing = {"account, data being prepared": "/settings/account/#leaving"}
        audit.pages(page, live_server_url, code, preparing)
        now = timezone.now()
        ready = {"ready_at": now, "expires_at": now + timedelta(days=1), "content": "{}"}
        DataExport.objects.filter(user=alice).update(**ready)
        audit.pages(page, live_server_url, code, {"account, data ready": "/settings/account/"})
        page.fill("#leaving-password", "not my password")
        page.click("[data-action=account-delete]")
        page.wait_for_selector("[data-account-delete] .form-errors")
        audit.here(page, code, "account, a deletion refused")
    audit.report("axe-account-leaving.json")
    assert audit.audited == PER_PAGE * 4
    assert not audit.serious, json.dumps(audit.serious, indent=1, ensure_ascii=False)


def test_the_account_pages_second_factor_and_the_code_step_meet_wcag_aa(
    live_server_url, new_page, alice, bob, settings
):
    """The second factor: offered, being set up (the QR code and the key), the recovery codes
    shown once, and on; the log-in's second step (its code), at both widths in three
    languages."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from games.services import second_factors
    from tests.support.second_factors import app_device, code_from_key, code_now

    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS  # the server's, to log in
    bob.set_password("correct horse 2")
    bob.save()
    recovery = second_factors.recovery_codes_renew(
        user=bob, password="correct horse 2", code=code_now(app_device(bob))
    )
    audit = Audit()
    for number, code in enumerate(LANGUAGES):
        TOTPDevice.objects.filter(user=alice).delete()
        page = new_page(logged_in=alice)
        offered = {"account, second factor offered": "/settings/account/"}
        audit.pages(page, live_server_url, code, offered)
        page.click("[data-action=second-factor-begin]")
        page.wait_for_selector("[data-second-factor-secret]")
        audit.here(page, code, "account, second factor being set up")
        secret = page.inner_text("[data-second-factor-secret]")
        page.fill("#second-factor-confirm-code", code_from_key(secret))
        page.click("[data-action=second-factor-confirm]")
        page.wait_for_selector("[data-recovery-codes]")
        audit.here(page, code, "account, its recovery codes")
        page = new_page()
        audit.pages(page, live_server_url, code, {})  # the language, axe
        page.goto(live_server_url + "/accounts/login/")
        page.fill("[name=username]", "bob")
        page.fill("[name=password]", "correct horse 2")
        page.click("main form button[type=submit]")
        page.wait_for_url("**/accounts/login/code")
        audit.here(page, code, "log-in, its code")
        page.fill("[name=code]", recovery[number])
        page.click("main form button[type=submit]")
        page.wait_for_url("**/play/")
        on = {"account, second factor on": "/settings/account/"}
        audit.pages(page, live_server_url, code, on)
    audit.report("axe-account-second-factor.json")
    assert audit.audited == PER_PAGE * 5
    assert not audit.serious, json.dumps(audit.serious, indent=1, ensure_ascii=False)


class Audit:
    """axe-core's findings on pages: in English at both widths and in both themes, in other
    languages at phone width; there the page must not scroll sideways nor split a word over
    two lines."""

    def __init__(self) -> None:
        self.audited, self.by_impact, self.serious, self.found = 0, Counter(), [], []

    def pages(self, page, base: str, code: str, paths: dict[str, str]) -> None:
        cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": code}
        page.context.add_cookies([{**cookie, "domain": "127.0.0.1", "path": "/"}])
        page.add_init_script(path=str(AXE))  # as the browser's own script: the CSP allows it
        page.emulate_media(reduced_motion="reduce")  # a card caught mid-flight is no finding
        for name, path in paths.items():
            page.goto(base + path)
            self.here(page, code, name)

    def here(self, page, code: str, name: str) -> None:
        """The page as it is now (one reached by a form's post), at both widths and themes in
        English, at phone width in another language; ``pages`` sets the language and axe
        first."""
        widths = WIDTHS if code == "en" else {"phone": WIDTHS["phone"]}
        for width, (wide, high) in widths.items():  # one load, both widths and themes
            page.set_viewport_size({"width": wide, "height": high})
            for theme in THEMES if code == "en" else THEMES[:1]:
                page.emulate_media(color_scheme=theme, reduced_motion="reduce")
                where = (code, width, theme, name)
                rules = TAGS if theme == "light" else COLOUR_RULES
                for violation in page.evaluate(RUN, rules):
                    self.by_impact[violation["impact"]] += 1
                    self.found.append((*where, violation))
                    if violation["impact"] in ("serious", "critical") or (
                        violation["id"] in STRUCTURE
                    ):
                        self.serious.append((*where, violation))
                self.audited += 1
            if width == "phone":
                if page.evaluate("document.documentElement.scrollWidth") > wide:
                    shot(page, f"wide-{code}-{name}", full_page=False, force=True)
                assert page.evaluate("document.documentElement.scrollWidth") <= wide, name
                if code != "th":
                    assert page.evaluate(BROKEN_WORDS) == [], (code, name)

    def report(self, file_name: str) -> None:
        figures = {"pages audited": self.audited, "violations by impact": dict(self.by_impact)}
        print(f"\naxe-core: {figures}")
        (ROOT / "artifacts").mkdir(exist_ok=True)
        violations = {**figures, "violations": self.found}
        (ROOT / "artifacts" / file_name).write_text(json.dumps(violations))


def arena_ended(*players) -> Arena:
    """An arena announced by the first player (with enough rated matches), joined by all,
    started and ended: its podium."""
    PlayerRating.objects.update_or_create(user=players[0], defaults={"rated_matches": 20})
    arena = arena_running(*players)
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(minutes=31))
    services.arena_end(arena_id=arena.pk)
    return arena


def arena_announced(*players) -> Arena:
    """An arena announced by the first player for the hour to come, joined by all."""
    PlayerRating.objects.update_or_create(user=players[0], defaults={"rated_matches": 20})
    return announced(players[0], players)


def arena_running(*players) -> Arena:
    arena = services.arena_create(
        user=players[0], name="Friday arena", starts_at=timezone.now(), minutes=30
    )
    for player in players:
        services.arena_join(user=player, arena_id=arena.pk)
    services.arena_start(arena_id=arena.pk)
    return arena


def services_legal(match):
    from games.engine import legal_actions

    return legal_actions(match.state)


def test_the_account_pages_mail_meets_wcag_aa_at_both_widths_in_three_languages(
    live_server_url, new_page, alice, inbox
):
    """The account page's mail (a confirmed address, another waiting for its link), the page
    of a confirmation link, and a mail's unsubscription page, asked and done."""
    from tests.support.mail import address_confirmed, confirm_link

    address_confirmed(alice, "alice@example.com", inbox)
    services.mail_address_set(user=alice, address="alice@example.org")
    link = confirm_link(inbox.wait_for(2)[-1])
    token = unsubscribe_token(alice.pk, "arena")
    states = {
        "account, an address waiting": "/settings/account/#mail",
        "a confirmation link's page": link,
        "an unsubscription asked": f"/mail/unsubscribe/{token}/",
    }
    audit = Audit()
    for code in LANGUAGES:
        audit.pages(new_page(logged_in=alice), live_server_url, code, states)
    audit.report("axe-account-mail.json")
    assert audit.audited == PER_PAGE * len(states)
    assert not audit.serious, json.dumps(audit.serious, indent=1, ensure_ascii=False)


def test_the_admins_health_page_meets_wcag_aa_at_both_widths(live_server_url, new_page):
    """The operators' health page (English only, as the admin is), with the live server's
    worker alive, a dead one, and errors recorded, at both widths and in both themes."""
    from django.contrib.auth import get_user_model

    from games.models import WorkerBeat
    from games.services.operations import server_error_record

    operator = get_user_model().objects.create_user("operator", password="x", is_staff=True)
    WorkerBeat.objects.create(
        worker_id="gone-worker", host="host-2", pid=4321, queues="analysis",
        seen_at=timezone.now() - timedelta(minutes=2),
    )  # fmt: skip
    server_error_record(kind="request", status=500, method="POST", path="/matches/12/act",
                        error=RuntimeError("the view fell over"))  # fmt: skip
    server_error_record(kind="task", path="games.tasks.match_analyse",
                        exception="builtins.ValueError", message="no such match")  # fmt: skip
    page = new_page(logged_in=operator)
    audit = Audit()
    audit.pages(page, live_server_url, "en", {"admin, health": "/admin/health/"})
    assert "Task workers:" in page.inner_text("main")
    for width, (wide, high) in WIDTHS.items():
        page.set_viewport_size({"width": wide, "height": high})
        page.emulate_media(color_scheme="light")
        shot(page, f"admin-health-{width}")
    audit.report("axe-admin-health.json")
    assert audit.audited == len(THEMES) * len(WIDTHS)
    assert not audit.serious, json.dumps(audit.serious, indent=1, ensure_ascii=False)


def test_the_fair_play_pages_meet_wcag_aa_at_both_widths(
    live_server_url, new_page, alice, bob, carol, moderators_group
):
    """The moderators' fair-play queue and a flag's evidence (English, as the admin is), and
    a marked player's settings with the appeal form, in three languages."""
    from django.contrib.auth import get_user_model

    from tests.support.matches import resign

    matches = [resign(bob, start(bob, alice)) for _ in range(2)]
    ids = [m.pk for m in matches]
    flag = services.raise_flag(alice, [
        {"kind": "agreement", "value": 0.962, "band": 0.71, "threshold": 0.9, "matches": ids,
         "detail": {"decisions": 212, "agreeing": 204}},
        {"kind": "timing", "value": 0.81, "band": 0.22, "threshold": 0.7, "matches": ids[:1],
         "detail": {"hard_fast": 31}},
    ], ids)  # fmt: skip
    moderator = get_user_model().objects.create_user("moderator", password="x", is_staff=True)
    moderator.groups.add(moderators_group)
    services.player_warn(moderator=moderator, player=alice, reason="Earlier: a first look")
    services.player_mark(moderator=moderator, player=carol, kind="trader", reason="Traded")
    page = new_page(logged_in=moderator)
    audit = Audit()
    states = {
        "admin, fair-play queue": "/admin/games/fairplayflag/",
        "admin, a flag's evidence": f"/admin/games/fairplayflag/{flag.pk}/change/",
    }
    audit.pages(page, live_server_url, "en", states)
    assert "Agreement with the best choice" in page.inner_text("main")
    for width, (wide, high) in WIDTHS.items():
        page.set_viewport_size({"width": wide, "height": high})
        page.emulate_media(color_scheme="light")
        shot(page, f"fairplay-evidence-{width}")
    marked = {"settings, a marked player's appeal": "/settings/#fair-play"}
    for code in LANGUAGES:
        mine = new_page(logged_in=carol)
        audit.pages(mine, live_server_url, code, marked)
        mine.set_viewport_size({"width": 1280, "height": 900})
        mine.emulate_media(color_scheme="light")
        mine.wait_for_selector("#fair-play form")
        shot(mine, f"fairplay-appeal-{code}")
    audit.report("axe-fairplay.json")
    assert audit.audited == len(THEMES) * len(WIDTHS) * len(states) + PER_PAGE
    assert not audit.serious, json.dumps(audit.serious, indent=1, ensure_ascii=False)


def test_the_training_pages_meet_wcag_aa_at_both_widths_in_three_languages(
    live_server_url, new_page, alice, bob
):
    """The puzzle dashboard (weak spots, results by theme), a streak going and one ended."""
    match = play_to_the_end(start(alice, bob, target=10, rated=False), seed=3)
    moves = list(match.moves.order_by("seq").values_list("seat", "action"))
    built = [
        decision(*first(match, match.seat_of(player), Phase.ROUND_ONE, n, dealer=False), lost)
        for player in (alice, bob)
        for n, lost in ((0, 0.35), (1, 0.8), (2, 1.2))
    ]
    services.puzzles_mine(match=match, moves=moves, decisions=built)
    services.flagged_record(match=match, moves=moves, decisions=built)
    for player in (alice, bob):
        services.streak_start(user=player)
    ended = PuzzleStreak.objects.get(user=bob).puzzle
    wrong = next(a for a, _v in ended.options if a != ended.answer)
    services.streak_answer(user=bob, puzzle_id=ended.pk, action=wrong)
    states = {"alice": {"puzzle training": "/puzzles/dashboard/", "streak": "/puzzles/streak/"},
              "bob": {"streak ended": "/puzzles/streak/"}}  # fmt: skip
    audit = Audit()
    for code in LANGUAGES:
        for name, paths in states.items():
            audit.pages(new_page(logged_in=alice if name == "alice" else bob),
                        live_server_url, code, paths)  # fmt: skip
    audit.report("axe-training.json")
    assert audit.audited == PER_PAGE * 3
    assert not audit.serious, json.dumps(audit.serious, indent=1, ensure_ascii=False)
