"""Fair play as moderators and players see it: the queue and a flag's evidence in the admin
(staff with the permission only), its actions with a reason, the appeal answered there; the
warning shown once on the player's next page; the marked player's settings (the mark, the
appeal, the answer); rated play refused in words; a flag alone invisible to the player."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import FairPlayAppeal, FairPlayFlag, FairPlayWarning, ModerationAction
from tests.support.matches import resign, start
from tests.support.second_factors import log_in

pytestmark = pytest.mark.django_db


def won(winner, loser):
    return resign(loser, start(loser, winner))


def flagged(player, matches) -> FairPlayFlag:
    ids = [m.pk for m in matches]
    return services.raise_flag(
        player,
        [
            {
                "kind": "agreement",
                "value": 0.96,
                "band": 0.71,
                "threshold": 0.9,
                "matches": ids,
                "detail": {"decisions": 212, "agreeing": 204},
            },
            {
                "kind": "timing",
                "value": 0.4,
                "band": 0.2,
                "threshold": 0.7,
                "matches": [],
                "detail": {},
            },
        ],  # fmt: skip
        ids,
    )


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_queue_and_the_evidence_show_the_signals_matches_and_history(moderator, alice, bob):
    matches = [won(alice, bob), won(alice, bob)]
    flag = flagged(alice, matches)
    services.raise_flag(bob, [{"kind": "stalling", "value": 0.41, "band": 0.1,
                               "threshold": 0.4, "matches": [], "detail": {}}], [])  # fmt: skip
    queue = moderator.client.get("/admin/games/fairplayflag/").content.decode()
    assert queue.index(">alice<") < queue.index(">bob<")  # the stronger first
    assert "Agreement with the best choice" in queue
    page = moderator.client.get(f"/admin/games/fairplayflag/{flag.pk}/change/").content.decode()
    assert "96.0 %" in page and "71.0 %" in page and "at or above 90.0 %" in page
    assert "decisions: 212" in page
    for match in matches:
        assert f"/matches/{match.pk}/replay?analysis=1" in page
    assert "This flag" in page and "Reason (kept in the audit log)" in page
    assert (
        moderator.client.get(f"/matches/{matches[0].pk}/replay?analysis=1").status_code == 200
    )  # the link opens


def test_the_fair_play_pages_are_for_staff_with_the_permission(alice, bob, django_user_model):
    flag = flagged(alice, [won(alice, bob)])
    staff = django_user_model.objects.create_user("helper", password="x", is_staff=True)
    client = log_in(Client(), staff)
    assert client.get("/admin/games/fairplayflag/").status_code == 403
    assert client.get(f"/admin/games/fairplayflag/{flag.pk}/change/").status_code == 403
    assert client.post(f"/admin/games/fairplayflag/{flag.pk}/change/",
                       {"action": "dismiss", "reason": "x"}).status_code == 403  # fmt: skip
    assert FairPlayFlag.objects.get().status == "open"
    assert client_of(alice).get("/admin/games/fairplayflag/").status_code == 302  # log-in


def test_the_actions_ask_for_a_reason_and_mark_refunds_the_ticked_matches(moderator, alice, bob):
    matches = [won(alice, bob), won(alice, bob)]
    flag = flagged(alice, matches)
    url = f"/admin/games/fairplayflag/{flag.pk}/change/"
    answer = moderator.client.post(url, {"action": "mark_computer", "reason": " "}, follow=True)
    assert "Give a reason" in answer.content.decode()
    assert not ModerationAction.objects.exists()
    answer = moderator.client.post(
        url, {"action": "mark_computer", "reason": "Follows the solver",
              "refund": [str(matches[0].pk)]}, follow=True,
    )  # fmt: skip
    assert "Alice: Marked; 1 match(es) refunded" in answer.content.decode()
    kinds = list(ModerationAction.objects.order_by("pk").values_list("kind", "match"))
    assert kinds == [("fp_mark", None), ("fp_refund", matches[0].pk)]
    page = moderator.client.get(url).content.decode()
    assert "Mark: Computer-assisted play" in page and "in force" in page


def test_a_warning_is_shown_once_on_the_next_page(moderator, alice, bob):
    flag = flagged(alice, [won(alice, bob)])
    moderator.client.post(f"/admin/games/fairplayflag/{flag.pk}/change/",
                          {"action": "warn", "reason": "Watch it"})  # fmt: skip
    client = client_of(alice)
    first = client.get("/play/").content.decode()
    assert "A moderator has looked at your recent rated matches" in first
    assert "Watch it" not in first  # the moderators' reason stays theirs
    assert "A moderator has looked" not in client.get("/play/").content.decode()
    assert FairPlayWarning.objects.get().read_at is not None


def test_a_marked_player_appeals_once_from_settings_and_reads_the_answer(moderator, alice, bob):
    flag = flagged(alice, [won(alice, bob)])
    moderator.client.post(f"/admin/games/fairplayflag/{flag.pk}/change/",
                          {"action": "mark_trader", "reason": "Traded with bob"})  # fmt: skip
    client = client_of(alice)
    page = client.get("/settings/").content.decode()
    assert "marked your account for rating trading" in page and "You may appeal once" in page
    assert "Traded with bob" not in page
    empty = client.post("/settings/fair-play/appeal", {"text": "  "})
    assert empty.status_code == 400 and not FairPlayAppeal.objects.exists()
    sent = client.post("/settings/fair-play/appeal", {"text": "Bob is my brother"}, follow=True)
    assert "Your appeal has been sent" in sent.content.decode()
    again = client.post("/settings/fair-play/appeal", {"text": "Please"})
    assert again.status_code == 409
    assert "You have appealed against this mark already" in again.content.decode()
    queue = moderator.client.get("/admin/games/fairplayflag/").content.decode()
    assert "waiting for an answer" in queue
    appeal = FairPlayAppeal.objects.get()
    moderator.client.post(f"/admin/games/fairplayflag/{flag.pk}/change/", {
        "action": "granted", "appeal": appeal.pk, "answer": "The replays show honest play",
    })  # fmt: skip
    told = client.get("/play/").content.decode()
    assert "The moderators have answered your appeal" in told
    settings_page = client.get("/settings/").content.decode()
    assert "The moderators granted your appeal" in settings_page
    assert "The replays show honest play" in settings_page
    assert "have answered your appeal" not in client.get("/play/").content.decode()  # read
    assert ModerationAction.objects.filter(kind="fp_grant").count() == 1


def test_rated_play_is_refused_in_words_to_a_marked_player(moderator, alice, bob):
    services.player_mark(moderator=moderator, player=alice, kind="computer", reason="Solver")
    client = client_of(alice)
    form = {"deck": 24, "target": 10, "move_seconds": 60, "rated": "on"}
    refused = client.post("/play/create", form)
    assert refused.status_code == 403
    assert "you may play casual matches, not rated ones" in refused.content.decode()
    casual = client.post("/play/create", {**form, "rated": ""})
    assert casual.status_code == 302


def test_a_flag_alone_is_invisible_to_the_player(alice, bob):
    flagged(alice, [won(alice, bob)])
    client = client_of(alice)
    for path in ("/play/", "/settings/", f"/users/{alice.username}/"):
        page = client.get(path).content.decode().lower()
        assert "fair play" not in page and "agreement" not in page, path
