"""A socket the server refuses or closes tells the page why, in words, and the page stops
trying: no reconnect loop. The pages run on Playwright's clock, so that every timer a retry
would be set on (the extension's backoff, live.js's own) is run at once, not waited for."""

from __future__ import annotations

import pytest

from games import services
from tests.support.browser import socket_heard, sockets_opened, watch_sockets

pytestmark = pytest.mark.django_db(transaction=True)

MATCH = "/ws/matches/"


def watched(page):
    """``page`` with its sockets recorded and its timers on a clock the test can run."""
    watch_sockets(page)
    page.clock.install()  # time flows as usual until the test runs it on
    return page


def retries_none(page) -> None:
    """A minute of the page's time goes by at once, every timer due in it run: the page
    opened its match socket once, and no timer opens it again."""
    page.clock.run_for(60_000)
    assert len(sockets_opened(page, MATCH)) == 1, sockets_opened(page, MATCH)


def test_logging_out_elsewhere_closes_the_match_socket_and_the_page_says_so(
    alice, bob, new_page, live_server_url
):
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    page = watched(new_page(logged_in=alice))
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    page.wait_for_selector("#board[data-version='1']")
    other_tab = page.context.new_page()  # the same browser: the same session
    other_tab.goto(f"{live_server_url}/play/")
    other_tab.locator("form[action='/accounts/logout/']").evaluate("form => form.submit()")
    other_tab.wait_for_url("**/")
    page.wait_for_selector("#live-status:not([hidden])")
    status = page.locator("#live-status").inner_text()
    assert status == "Your session has ended: log in again to keep playing."
    retries_none(page)
    assert page.locator("#live-status").inner_text() == status
    other_tab.close()


def test_a_suspension_closes_the_players_page_and_it_says_suspended_in_thai(
    alice, bob, new_page, live_server_url, django_user_model
):
    """Not "your session has ended", which sent suspended players to reset their password."""
    from games.models import PlayerSettings

    PlayerSettings.objects.update_or_create(user=alice, defaults={"language": "th"})
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    page = watched(new_page(logged_in=alice))
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    page.wait_for_selector("#board[data-version='1']")
    # A moderator suspends her in the admin, as moderators do.
    moderator = django_user_model.objects.create_superuser("mod", password="x")
    admin = new_page(logged_in=moderator)
    admin.goto(f"{live_server_url}/admin/auth/user/")
    admin.check(f"input.action-select[value='{alice.pk}']")
    admin.select_option("select[name=action]", "suspend_players")
    admin.click("button[name=index]")
    admin.fill("#id_reason", "stolen account")
    admin.click("input[type=submit][value='Suspend players']")
    admin.wait_for_selector(".messagelist")
    page.wait_for_selector("#live-status:not([hidden])")
    status = page.locator("#live-status").inner_text()
    assert status == "บัญชีของคุณถูกระงับ เข้าสู่ระบบอีกครั้งเพื่ออ่านเหตุผลที่ผู้ดูแลให้ไว้"
    # The board no longer looks live: greyed out, and nothing on it can be used.
    assert page.locator("body").get_attribute("data-board-ended") == "4423"
    page.wait_for_function(  # (a board the slow poll had in flight is made inert as it lands)
        "() => { const b = document.getElementById('board');"
        " return b && b.inert && getComputedStyle(b).opacity < 1; }",
    )
    controls = page.locator("#board button, #board a[href]")
    assert controls.evaluate_all("cs => cs.every(c => c.closest('[inert]') !== null)")
    retries_none(page)


def test_a_private_match_starting_closes_a_watchers_socket_and_the_page_says_so(
    alice, bob, carol, new_page, live_server_url
):
    match = services.match_create(user=alice, spectators_allowed=False)
    page = watched(new_page(logged_in=carol))
    page.goto(f"{live_server_url}/matches/{match.pk}/")  # the invite: open to all
    page.wait_for_selector("[data-action='join']")
    socket_heard(page, MATCH)  # in the match's room: it hears what happens to the match
    bobs = new_page(logged_in=bob)  # he joins through the server, which pushes the news
    bobs.goto(f"{live_server_url}/matches/{match.pk}/")
    bobs.click("[data-action='join']")
    bobs.wait_for_selector("#board[data-version='1']")
    page.wait_for_selector("#live-status:not([hidden])")
    status = page.locator("#live-status").inner_text()
    assert status == "You are not allowed to watch this match."
    retries_none(page)


def test_one_socket_too_many_says_so_and_does_not_retry(
    alice, bob, carol, new_page, live_server_url
):
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    for number in range(10):  # carol's other tabs, as the server sees them
        services.connection_open(match_id=match.pk, user=carol, channel_name=f"tab{number}")
    page = watched(new_page(logged_in=carol))
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    page.wait_for_selector("#live-status:not([hidden])")
    assert page.locator("#live-status").inner_text().startswith("Too many connections are open")
    retries_none(page)
