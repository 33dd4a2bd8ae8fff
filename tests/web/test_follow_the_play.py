"""Following the play: the completed trick, the hand's summary, the move log, the turn marker,
what a screen reader is told about the hand, and the sound switch."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.engine import Action, apply
from games.engine.cards import JOKER
from games.models import Match, PlayerSettings
from games.presentation.cards import Card
from tests.support.deals import seed_where
from tests.support.matches import move, play_to_the_end, start, until

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def board(user, match: Match) -> str:
    return (
        logged_in(user).get(f"/matches/{match.pk}/board", HTTP_HX_REQUEST="true").content.decode()
    )


def section(page: str, marker: str) -> str:
    """The element holding ``marker`` (its start tag to its closing tag of the same name)."""
    start_at = page.index(marker)
    tag_start = page.rindex("<", 0, start_at)
    name = re.match(r"<(\w+)", page[tag_start:]).group(1)
    depth, at = 0, tag_start
    for found in re.finditer(rf"<(/?){name}\b", page[tag_start:]):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            at = tag_start + found.end()
            break
    return page[tag_start : page.index(">", at) + 1]


def log_lines(page: str) -> list[str]:
    source = section(page, "data-log-source")
    return [re.sub(r"<[^>]+>", "", line) for line in re.findall(r"<li[^>]*>.*?</li>", source)]


def test_the_fifth_card_stays_on_the_table_with_the_summary_beside_the_next_deal(alice, bob):
    match = until(start(alice, bob, target=10), lambda s: s.results and s.results[-1].tricks)
    result = match.state.results[-1]
    last = result.tricks[-1]
    for user in (alice, bob):
        page = board(user, match)
        pause = section(page, "data-trick-pause")  # the table still shows the completed trick
        last_trick = section(page, "data-last-trick")
        for _seat, card in last.plays:
            assert f'data-card="{card_code(card)}"' in pause
            assert f'data-card="{card_code(card)}"' in last_trick
        assert f"won by {match.players[last.winner].username}" in last_trick
        summary = section(page, "data-hand-summary")
        assert f'data-points="{result.points[0]}-{result.points[1]}"' in summary
        assert f"made {suit_word(result.trump)} trump" in summary
        for seat in (0, 1):
            counted = result.tricks_won[seat]
            assert f"{match.players[seat].username}: {counted} trick" in summary
        assert {"made": "made: 1 point", "march": "march: 2 points", "euchred": "euchred: 2"}[
            result.outcome.value
        ] in summary
    # The next move (a bid of the new deal): no pause any more, the summary stays.
    match = move(match)
    page = board(alice, match)
    assert "data-trick-pause" not in page and "data-hand-summary" in page
    assert "data-last-trick" in page
    # Once this hand's first trick is taken, the last hand's summary goes.
    match = until(match, lambda s: s.tricks)
    page = board(alice, match)
    assert "data-hand-summary" not in page and "data-trick-pause" in page


def test_the_log_names_each_action_and_never_the_opponents_discard(alice, bob):
    match = start(alice, bob)
    dealer = match.state.dealer

    def make_the_dealer_take_up(legal):
        if "order_up" in legal:
            return "order_up"
        if "accept" in legal:
            return "accept"
        return "take_up" if "take_up" in legal else None

    match = until(match, lambda s: s.phase.value == "play", make_the_dealer_take_up)
    discard = match.state.discard
    assert discard is not None  # a 24-card deck has no joker: the dealer taking up discards
    code = card_code(discard)
    dealer_page, other_page = (
        board(match.players[dealer], match),
        board(match.players[dealer ^ 1], match),
    )
    dealer_name = match.players[dealer].username
    assert f"{dealer_name} discards a card face down" in log_lines(other_page)
    assert code not in section(other_page, "data-log-source")
    named = f"{dealer_name} discards {Card(code).name}"
    assert named in log_lines(dealer_page) and named not in log_lines(other_page)
    lines = log_lines(other_page)
    assert lines[0].startswith("Hand 1: ")
    assert any(" orders up " in line or " takes up the upcard" in line for line in lines)
    before = len(lines)
    match = move(match)
    after = log_lines(board(match.players[dealer ^ 1], match))
    assert len(after) == before + 1 and after[:before] == lines  # appended, never rewritten
    assert " plays " in after[-1]


def test_the_turn_title_and_focus_markers_belong_to_the_player_to_act(alice, bob):
    match = start(alice, bob)
    mover = match.players[match.state.turn]
    waiter = match.players[match.state.turn ^ 1]
    assert f'data-turn-title="● Your turn · Match {match.pk}"' in board(mover, match)
    assert "data-turn-title" not in board(waiter, match)
    assert "data-focus" in board(waiter, match)  # focus lands on the prompt, not the body


def test_cards_that_cannot_be_played_say_so_and_the_hand_is_not_faded(alice, bob):
    match = until(start(alice, bob), lambda s: s.phase.value == "play" and s.trick)
    player = match.players[match.state.turn]
    page = board(player, match)
    playable = re.findall(r'name="action" value="play:(\w+)"', page)
    labelled = re.findall(r'aria-label="([^"]+), not playable now"', page)
    assert playable and len(playable) + len(labelled) == len(
        match.state.hand_cards(match.state.turn)
    )
    assert 'accesskey="' not in page  # no call to make while playing a card
    assert re.search(
        r'data-key="(\d)" aria-keyshortcuts="\1"><span class="visually-hidden">Play ', page
    )


def test_the_joker_is_labelled_joker(alice, bob):
    joker_turned = seed_where(lambda state: state.upcard == JOKER, deck=25)
    match = start(alice, bob, seed=joker_turned, deck=25)
    page = board(alice, match)
    assert 'data-card="JK" role="img" aria-label="Joker"' in page
    assert 'cards.svg#cJK"' in page  # its face: the jester, "JOKER" down its corners


def test_bidding_buttons_show_their_access_keys(alice, bob):
    match = start(alice, bob)
    page = board(match.players[match.state.turn], match)
    for key in re.findall(r'data-key="(\w)" accesskey="(\w)"', page):
        assert key[0].lower() == key[1]
    assert re.search(r"<kbd aria-hidden=\"true\">P</kbd>", page)


def test_the_sound_switch_is_off_at_first_and_remembered(alice, bob):
    match = start(alice, bob)
    client = logged_in(alice)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-sound="off"' in page and 'aria-pressed="false"' in page
    response = client.post("/settings/sound", {"sound": "on"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'data-sound="on"' in response.content.decode()
    assert PlayerSettings.objects.get(user=alice).sound is True
    assert 'data-sound="on"' in client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-sound="off"' in logged_in(bob).get(f"/matches/{match.pk}/").content.decode()


def test_a_sound_choice_that_is_neither_on_nor_off_is_refused_and_changes_nothing(alice):
    client = logged_in(alice)
    response = client.post("/settings/sound", {"sound": "loud"})
    assert response.status_code == 400
    assert "The sound is either on or off." in response.content.decode()
    assert not PlayerSettings.objects.filter(user=alice, sound=True).exists()
    assert Client().post("/settings/sound", {"sound": "on"}).status_code == 302  # log in first


def card_code(card: int) -> str:
    from games.engine.cards import CODES

    return CODES[card]


def suit_word(suit: int) -> str:
    return ("clubs", "diamonds", "hearts", "spades")[suit]


def test_the_replay_shows_the_same_hand_summary_beside_the_next_deal(alice, bob, carol):
    match = play_to_the_end(start(alice, bob, target=3), seed=1)
    moves = list(match.moves.order_by("seq").values_list("seat", "action"))
    state, step = new_match_of(match), 0
    while not (state.results and state.results[-1].tricks):  # the first hand played out
        state = apply(state, Action.parse(*moves[step]))
        step += 1
    first = state.results[-1]
    page = logged_in(carol).get(f"/matches/{match.pk}/replay?step={step}").content.decode()
    summary = section(page, "data-hand-summary")
    assert f'data-points="{first.points[0]}-{first.points[1]}"' in summary
    if first.discard is not None:  # face up in the replay: everybody sees the discard
        assert f'data-card="{card_code(first.discard)}"' in summary
    board_page = board(alice, match)  # and the table said the same at the end
    assert "data-hand-summary" in board_page
    assert (
        "data-hand-summary"
        not in logged_in(carol).get(f"/matches/{match.pk}/replay?step=1").content.decode()
    )


def new_match_of(match: Match):
    from games.engine import new_match

    return new_match(int(match.seed), match.rules)


def test_a_spectator_sees_the_pause_and_the_summary_but_no_discard(alice, bob, carol):
    match = until(
        start(alice, bob, spectators_allowed=True), lambda s: s.results and s.results[-1].tricks
    )
    page = board(carol, match)
    assert "data-trick-pause" in page and "data-hand-summary" in page
    assert " discarded:" not in section(page, "data-hand-summary")
    assert "data-log-source" in page


def test_the_log_is_on_the_page_before_the_opponent_comes(alice):
    match = services.match_create(user=alice)
    page = logged_in(alice).get(f"/matches/{match.pk}/").content.decode()
    assert 'id="move-log"' in page and 'role="log"' in page  # pushed boards fill it in
    assert 'id="alert-settings"' in page
