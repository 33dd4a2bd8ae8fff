"""Playing again in the browser: the rematch offered, accepted, declined and lapsed, the
computer's rematch, a challenge from a profile, and the lobby's quick start on a phone."""

from __future__ import annotations

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from playwright.sync_api import expect

from games import services
from games.engine import first_dealer
from games.models import Match, MatchStatus
from tests.support.browser import shot, socket_heard, watch_sockets
from tests.support.matches import both_acted, play_to_the_end, start

pytestmark = pytest.mark.django_db(transaction=True)


def open_finished(live_server_url, new_page, alice, bob):
    finished = play_to_the_end(start(alice, bob))
    pages = []
    for user, width in ((alice, 1000), (bob, 375)):
        page = new_page(width=width, logged_in=user)
        watch_sockets(page)
        page.goto(f"{live_server_url}/matches/{finished.pk}/")
        page.wait_for_selector("[data-result]")
        pages.append(page)
    # The last trick's beat (the result waits two seconds) is for a trick just played: the
    # server's board has it, a page opened afresh shows the table at rest, the result at once.
    assert "after-trick" in pages[0].request.get(f"{live_server_url}/matches/{finished.pk}/").text()
    for page in pages:
        assert page.locator(".felt.beat").count() == 0
        assert page.locator("[data-result]").is_visible()
        assert not page.locator("[data-trick-pause]").is_visible()
    # Both pages are live (each socket in the match's room) before the offer.
    pages[0].wait_for_selector("[data-action=rematch]")
    for page in pages:
        socket_heard(page, "/ws/matches/")
    return finished, pages


def test_a_rematch_offered_and_accepted_from_the_pushed_offer(
    live_server_url, new_page, alice, bob
):
    finished, (a, b) = open_finished(live_server_url, new_page, alice, bob)
    shot(a, "end-screen")
    a.click("[data-action=rematch]")
    a.wait_for_selector("[data-rematch-waiting]")
    b.wait_for_selector("[data-action=accept-rematch]")  # pushed, no reload
    assert "alice offers a rematch" in b.locator("[data-rematch-offer]").inner_text()
    # The pushed board keeps the table at rest: the result (with the offer) did not hide again.
    assert b.locator(".felt.beat").count() == 0
    shot(b, "rematch-offer")
    b.click("[data-action=accept-rematch]")
    b.wait_for_url(lambda url: f"/matches/{finished.pk}/" not in url)  # the accept made it
    new = Match.objects.get(pk=finished.pk).next_match
    assert new is not None
    for page in (a, b):  # both are taken there: nobody reloads or types an address
        page.wait_for_url(f"{live_server_url}/matches/{new.pk}/")
        page.wait_for_selector("#board .scorebox")
    assert new.status == MatchStatus.ACTIVE
    old_dealer = finished.players[first_dealer(int(finished.seed))]
    assert new.players[first_dealer(int(new.seed))] != old_dealer  # the first deal swapped
    new_dealer = bob if old_dealer == alice else alice  # the dealer button sits at their seat
    dealer_seat = a.locator(".seat:has(.dealer-chip)").get_attribute("data-seat")
    assert dealer_seat == str(new.seat_of(new_dealer))


def test_a_declined_and_a_lapsed_rematch_offer(live_server_url, new_page, alice, bob):
    finished, (a, b) = open_finished(live_server_url, new_page, alice, bob)
    a.click("[data-action=rematch]")
    b.click("[data-action=decline-rematch]")
    a.wait_for_selector("[data-rematch-declined]")
    assert "bob declined the rematch" in a.locator("[data-result]").inner_text()
    # Bob's own page swaps in the answer to his click: under load it may come after Alice's push.
    expect(b.locator("[data-action=accept-rematch]")).to_have_count(0)
    # Bob offers in turn; it lapses when its two minutes are up (the task is made due now).
    b.click("[data-action=rematch]")
    a.wait_for_selector("[data-action=accept-rematch]")
    DBTaskResult.objects.filter(task_path__endswith=".rematch_lapse").update(
        run_after=timezone.now()
    )
    for page in (a, b):
        page.wait_for_selector("[data-rematch-lapsed]")
    assert not a.locator("[data-action=accept-rematch]").count()


def test_a_rematch_offer_lapses_when_the_opponent_leaves(live_server_url, new_page, alice, bob):
    finished, (a, b) = open_finished(live_server_url, new_page, alice, bob)
    a.click("[data-action=rematch]")
    b.wait_for_selector("[data-action=accept-rematch]")
    b.goto(f"{live_server_url}/play/")  # bob leaves the match's page
    # A few seconds later (a reload would have been back by then) the offer lapses.
    a.wait_for_selector("[data-rematch-lapsed]", timeout=15_000)


def test_playing_the_computer_again_is_one_click(live_server_url, new_page, alice):
    first = services.match_create_computer(user=alice, strength="easy", target=5)
    finished = services.match_resign(user=alice, match_id=both_acted(first).pk)
    page = new_page(logged_in=alice)
    page.goto(f"{live_server_url}/matches/{finished.pk}/")
    page.click("[data-action=rematch]")
    page.wait_for_url(lambda url: f"/matches/{finished.pk}/" not in url)
    page.wait_for_selector("#board .scorebox")
    new = Match.objects.get(pk=finished.pk).next_match
    assert page.url.endswith(f"/matches/{new.pk}/") and new.computer == "easy"
    assert (new.status, new.target) == (MatchStatus.ACTIVE, 5)


def test_a_challenge_from_a_profile_accepted_live(live_server_url, new_page, alice, bob):
    a = new_page(logged_in=alice)
    b = new_page(width=375, height=700, logged_in=bob)
    b.goto(f"{live_server_url}/play/")
    a.goto(f"{live_server_url}/users/bob/")
    a.click("[data-action=challenge]")
    a.select_option("#id_challenge-deck", "32")
    a.click("[data-action=send-challenge]")
    a.wait_for_selector("[data-my-challenge]")
    b.wait_for_selector("[data-action=accept-challenge]")  # live, on the lobby
    assert "alice challenges you" in b.locator("[data-challenge]").inner_text()
    shot(b, "challenge-banner-phone")
    b.click("[data-action=accept-challenge]")
    b.wait_for_url("**/matches/*/")  # the accept made the match: bob is taken to it
    match = Match.objects.get(status=MatchStatus.ACTIVE)
    for page in (a, b):
        page.wait_for_url(f"{live_server_url}/matches/{match.pk}/")
        page.wait_for_selector("#board .scorebox")
    assert match.deck == 32


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (375, 667)])
def test_a_newcomer_reaches_a_running_match_against_the_computer_in_one_tap(
    live_server_url, new_page, django_user_model, width, height
):
    newcomer = django_user_model.objects.create_user("newcomer", password="Deal-me-in-2026")
    page = new_page(width=width, height=height, logged_in=newcomer)
    page.goto(f"{live_server_url}/play/")
    name = "desktop" if width > 800 else "phone"
    shot(page, f"lobby-{name}", full_page=False)  # the first screen only
    shot(page, f"lobby-{name}-whole")
    quick = page.locator("[data-action=quick-computer][data-strength=medium]")
    find = page.locator("[data-action=find-opponent]")
    for button in (quick, find):  # both fastest starts above the fold
        box = button.bounding_box()
        assert box["y"] + box["height"] <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    quick.click()  # the one tap
    page.wait_for_selector("#board .scorebox")
    match = Match.objects.get(player0=newcomer)
    assert match.status == MatchStatus.ACTIVE and match.computer == "medium"
    assert page.url.endswith(f"/matches/{match.pk}/")


CONTRAST = """el => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => {
    const [r, g, b] = rgb(c).map(v => v / 255).map(
      v => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  let back = el, bg = "rgba(0, 0, 0, 0)";
  while (back && (bg === "rgba(0, 0, 0, 0)" || bg === "transparent")) {
    bg = getComputedStyle(back).backgroundColor;
    back = back.parentElement;
  }
  const [a, b] = [lum(getComputedStyle(el).color), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def test_the_invite_link_is_readable_and_its_copy_button_copies_it(
    live_server_url, new_page, alice
):
    match = services.match_create(user=alice, deck=25, target=7)
    page = new_page(logged_in=alice)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    assert "25 cards · to 7" in page.locator("[data-options]").inner_text()
    # The socket's first push replaces the board a moment after the page loads (later on a
    # slow machine): each is measured as it is on the page, until the board stays.
    page.wait_for_selector("[data-connection=live]")
    for hook in ("[data-invite]", "[data-action=copy-invite]"):
        measured = page.wait_for_function(
            f"""() => {{ const el = document.querySelector("{hook}");
                return el && el.isConnected && getComputedStyle(el).color
                  ? ({CONTRAST})(el) : null; }}"""
        ).json_value()
        assert measured >= 4.5, (hook, measured)
    page.click("[data-action=copy-invite]")
    page.wait_for_selector("[data-action=copy-invite][data-copied]")
    assert page.locator("[data-action=copy-invite]").inner_text() == "Copied"
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"{live_server_url}/matches/{match.pk}/"
    shot(page, "invite")
