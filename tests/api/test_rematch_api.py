"""Rematches through the API: offered, accepted, declined and withdrawn (each answering the
new match, or the finished one with its ``match.rematch``), the refusals in words, and what
the streams say: both players' account streams hear the offer and how it ended, and a
finished match's stream stays open while its rematch may come, then ends once it is settled."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.api import feeds
from games.models import Match, MatchStatus, RematchState
from tests.support.api import program, refused, token_for
from tests.support.matches import both_acted, resign, start
from tests.support.streams import db, ended, open_stream, until

KINDS = ["http", "websocket"]


def finished(alice, bob) -> Match:
    """A match alice and bob both began, which bob resigned: finished, alice the winner."""
    match = resign(bob, start(alice, bob, move_seconds=None))
    assert match.status == MatchStatus.FINISHED
    return match


def rematch(client, match_id: int, answer: str = ""):
    path = f"/api/v1/matches/{match_id}/rematch" + (f"/{answer}" if answer else "")
    return client.post(path, content_type="application/json")


@pytest.mark.django_db
def test_a_rematch_offered_and_accepted_through_the_api(alice, bob):
    match = finished(alice, bob)
    alices, bobs = program(token_for(alice)), program(token_for(bob))
    offered = rematch(alices, match.pk)
    assert offered.status_code == 200, offered.content
    body = offered.json()
    assert body["match"]["id"] == match.pk and body["seat"] == match.seat_of(alice)
    assert body["match"]["rematch"]["state"] == "offered"
    assert body["match"]["rematch"]["seat"] == match.seat_of(alice)
    until = Match.objects.get(pk=match.pk).rematch_until
    assert body["match"]["rematch"]["until"] == until.isoformat()
    assert body["match"]["rematch"]["next_match_id"] is None

    accepted = rematch(bobs, match.pk, "accept")
    assert accepted.status_code == 200, accepted.content
    new = accepted.json()
    assert new["match"]["id"] != match.pk and new["match"]["status"] == MatchStatus.ACTIVE
    assert new["seat"] in (0, 1) and new["view"]["legal_actions"] is not None
    assert Match.objects.get(pk=match.pk).next_match_id == new["match"]["id"]
    # The finished match now names it; offering again (a second click) answers it too.
    again = rematch(alices, match.pk)
    assert again.status_code == 200 and again.json()["match"]["id"] == new["match"]["id"]
    shown = alices.get(f"/api/v1/matches/{match.pk}").json()["match"]["rematch"]
    assert shown == {"state": None, "seat": match.seat_of(alice), "until": None,
                     "next_match_id": new["match"]["id"]}  # fmt: skip


@pytest.mark.django_db
def test_an_offer_declined_and_one_withdrawn_through_the_api(alice, bob):
    match = finished(alice, bob)
    alices, bobs = program(token_for(alice)), program(token_for(bob))
    assert rematch(alices, match.pk).status_code == 200
    declined = rematch(bobs, match.pk, "decline")
    assert declined.status_code == 200
    assert declined.json()["match"]["rematch"]["state"] == "declined"
    refused(rematch(alices, match.pk), 409, "rematch_declined")  # not offered twice
    # Bob may offer in turn, and withdraw his own offer with the same operation.
    assert rematch(bobs, match.pk).json()["match"]["rematch"]["seat"] == match.seat_of(bob)
    withdrawn = rematch(bobs, match.pk, "decline")
    assert withdrawn.status_code == 200
    assert withdrawn.json()["match"]["rematch"]["state"] is None
    assert Match.objects.get(pk=match.pk).next_match_id is None


@pytest.mark.django_db
def test_the_rematch_refusals_are_json_with_their_codes_and_words(alice, bob, carol):
    alices, bobs = program(token_for(alice)), program(token_for(bob))
    in_play = start(alice, bob, move_seconds=None)
    refused(rematch(alices, in_play.pk), 409, "rematch_only_finished")
    match = finished(alice, bob)
    refused(rematch(alices, match.pk, "accept"), 409, "no_rematch_offer")
    refused(rematch(alices, match.pk, "decline"), 409, "no_rematch_to_answer")
    rematch(alices, match.pk)
    refused(rematch(alices, match.pk), 409, "rematch_offered")
    refused(rematch(alices, match.pk, "accept"), 409, "no_rematch_offer")  # her own
    for answer in ("", "accept", "decline"):
        refused(rematch(program(token_for(carol)), match.pk, answer), 403, "not_playing")
        refused(rematch(alices, 10**12, answer), 404, "no_such_match")
        reader = program(token_for(bob, scopes=("read",)))
        refused(rematch(reader, match.pk, answer), 403, "scope_missing")
    # An offer past its time (its lapse task not run yet) lapses when it is accepted.
    Match.objects.filter(pk=match.pk).update(rematch_until=timezone.now() - timedelta(seconds=1))
    refused(rematch(bobs, match.pk, "accept"), 409, "rematch_lapsed")
    assert Match.objects.get(pk=match.pk).rematch_state == RematchState.LAPSED
    # A block stands between them: each is told in their words.
    services.block_create(user=bob, blocked_player=alice)
    body = refused(rematch(alices, match.pk), 403, "match_blocked")
    assert "bob" in body["detail"]
    refused(rematch(bobs, match.pk), 403, "rematch_you_blocked")


@pytest.mark.django_db
def test_the_rematch_operations_and_events_are_in_the_schema(client):
    schema = client.get("/api/v1/openapi.json").json()
    for path in ("rematch", "rematch/accept", "rematch/decline"):
        operation = schema["paths"][f"/api/v1/matches/{{match_id}}/{path}"]["post"]
        answers = operation["responses"]
        ok = answers["200"]["content"]["application/json"]["schema"]["$ref"]
        assert ok.endswith("/MatchAndView")
        for status in ("401", "403", "404", "409", "429"):
            assert answers[status]["content"]["application/json"]["schema"]["$ref"].endswith(
                "/Error"
            )
        assert "rematch" in operation["description"]
    components = schema["components"]["schemas"]
    match_events = [ref["$ref"].rsplit("/", 1)[1] for ref in components["MatchEvent"]["oneOf"]]
    account = [ref["$ref"].rsplit("/", 1)[1] for ref in components["AccountEvent"]["oneOf"]]
    assert "RematchEvent" in match_events
    assert {"RematchOfferEvent", "RematchGoneEvent"} <= set(account)
    assert components["Rematch"]["properties"].keys() >= {"until", "next_match_id"}


# The streams.

streams = pytest.mark.django_db(transaction=True)


async def after_the_final_state(stream) -> dict:
    state = await until(stream, "state")
    while state["match"]["status"] == MatchStatus.ACTIVE:
        state = await until(stream, "state")
    return state


@streams
@pytest.mark.asyncio
@pytest.mark.parametrize("kind", KINDS)
async def test_a_finished_matchs_stream_shows_the_rematch_offer_and_ends_when_it_starts(
    kind, alice, bob
):
    match = await db(lambda: both_acted(start(alice, bob, move_seconds=None)))()
    stream = await open_stream(kind, await db(token_for)(alice), f"matches/{match.pk}")
    await db(services.match_resign)(user=bob, match_id=match.pk)
    final = await after_the_final_state(stream)
    assert final["match"]["status"] == MatchStatus.FINISHED
    # The stream did not close with the match: the offer comes, the state showing it first.
    offered = await db(services.rematch_offer)(user=bob, match_id=match.pk)
    state = await stream.next()
    assert state["type"] == "state" and state["version"] == offered.version
    assert state["match"]["rematch"]["state"] == "offered"
    event = await stream.next()
    assert event == {
        "type": "rematch", "match_id": match.pk, "version": offered.version,
        "status": "offered", "seat": match.seat_of(bob),
        "until": offered.rematch_until.isoformat(), "next_match_id": None,
    }  # fmt: skip
    new = await db(services.rematch_accept)(user=alice, match_id=match.pk)
    state = await stream.next()
    assert state["type"] == "state" and state["match"]["rematch"]["next_match_id"] == new.pk
    event = await stream.next()
    assert event["type"] == "rematch" and event["status"] == "accepted"
    assert event["next_match_id"] == new.pk
    closed = await stream.next()
    assert closed["type"] == "closed" and closed["code"] == "over" and closed["detail"]
    assert await ended(kind, stream) == ("end" if kind == "http" else 1000)


@streams
@pytest.mark.asyncio
@pytest.mark.parametrize("kind", KINDS)
async def test_a_declined_offer_ends_the_stream_and_one_opened_meanwhile_hears_it_first(
    kind, alice, bob
):
    match = await db(finished)(alice, bob)
    offered = await db(services.rematch_offer)(user=bob, match_id=match.pk)
    # Opened while the offer stands (a program that reconnects, or comes late): the state,
    # then the offer, and the stream stays open for the answer.
    stream = await open_stream(kind, await db(token_for)(alice), f"matches/{match.pk}")
    assert (await stream.next())["match"]["rematch"]["state"] == "offered"
    event = await stream.next()
    assert event["type"] == "rematch" and event["status"] == "offered"
    assert event["version"] == offered.version
    await db(services.rematch_decline)(user=alice, match_id=match.pk)
    assert (await stream.next())["match"]["rematch"]["state"] == "declined"
    event = await stream.next()
    assert event["type"] == "rematch" and event["status"] == "declined"
    assert event["seat"] == match.seat_of(bob) and event["until"] is None
    assert (await stream.next())["code"] == "over"
    assert await ended(kind, stream) == ("end" if kind == "http" else 1000)


@streams
@pytest.mark.asyncio
@pytest.mark.parametrize("kind", KINDS)
async def test_a_withdrawn_offer_keeps_the_stream_open_and_a_lapsed_one_ends_it(kind, alice, bob):
    match = await db(finished)(alice, bob)
    stream = await open_stream(kind, await db(token_for)(bob), f"matches/{match.pk}")
    assert (await stream.next())["type"] == "state"
    await db(services.rematch_offer)(user=alice, match_id=match.pk)
    assert (await until(stream, "rematch"))["status"] == "offered"
    await db(services.rematch_decline)(user=alice, match_id=match.pk)  # her own: withdrawn
    assert (await until(stream, "rematch"))["status"] == "withdrawn"
    again = await db(services.rematch_offer)(user=alice, match_id=match.pk)
    assert (await until(stream, "rematch"))["status"] == "offered"
    assert await db(services.rematch_lapse)(match_id=match.pk, version=again.version)
    lapsed = await stream.next()
    assert lapsed["type"] == "state" and lapsed["match"]["rematch"]["state"] == "lapsed"
    assert (await stream.next())["status"] == "lapsed"
    assert (await stream.next())["code"] == "over"
    assert await ended(kind, stream) == ("end" if kind == "http" else 1000)


@streams
@pytest.mark.asyncio
@pytest.mark.parametrize("kind", KINDS)
async def test_with_no_offer_standing_the_stream_ends_once_the_rematch_time_is_up(
    kind, alice, bob, settings, monkeypatch
):
    settings.REALTIME_CATCH_UP_SECONDS = 0.05  # heartbeats: the window is checked at each
    match = await db(finished)(alice, bob)
    stream = await open_stream(kind, await db(token_for)(alice), f"matches/{match.pk}")
    assert (await stream.next())["match"]["status"] == MatchStatus.FINISHED
    # Within the time, an offer made and withdrawn leaves it open.
    await db(services.rematch_offer)(user=bob, match_id=match.pk)
    assert (await until(stream, "rematch"))["status"] == "offered"
    await db(services.rematch_decline)(user=bob, match_id=match.pk)
    assert (await until(stream, "rematch"))["status"] == "withdrawn"
    later = timezone.now() + services.REMATCH_LAPSE
    monkeypatch.setattr(feeds, "clock", lambda: later)
    closed = await stream.next()
    assert closed["type"] == "closed" and closed["code"] == "over"
    assert await ended(kind, stream) == ("end" if kind == "http" else 1000)
    # A stream opened on it now sends the state and ends at once.
    again = await open_stream(kind, await db(token_for)(alice), f"matches/{match.pk}")
    assert (await again.next())["type"] == "state"
    assert (await again.next())["code"] == "over"


@streams
@pytest.mark.asyncio
@pytest.mark.parametrize("kind", KINDS)
async def test_both_account_streams_hear_the_offer_and_the_rematch_starting(kind, alice, bob):
    match = await db(finished)(alice, bob)
    alices = await open_stream(kind, await db(token_for)(alice), "account")
    bobs = await open_stream(kind, await db(token_for)(bob), "account")
    assert await alices.next() == {"type": "idle"} == await bobs.next()
    offered = await db(services.rematch_offer)(user=bob, match_id=match.pk)
    to_alice, from_bob = await until(alices, "rematchOffer"), await until(bobs, "rematchOffer")
    assert (to_alice["direction"], from_bob["direction"]) == ("in", "out")
    for event in (to_alice, from_bob):
        assert event["match_id"] == match.pk
        assert event["offered_by"] == {"id": bob.pk, "username": "bob", "bot": False}
        assert event["options"] == match.options()
        assert event["until"] == offered.rematch_until.isoformat()
    new = await db(services.rematch_accept)(user=alice, match_id=match.pk)
    for stream, direction in ((alices, "in"), (bobs, "out")):
        started = await stream.next()
        assert started["type"] == "matchStart" and started["match"]["id"] == new.pk
        gone = await stream.next()
        assert gone == {"type": "rematchGone", "direction": direction, "match_id": match.pk,
                        "status": "accepted", "next_match_id": new.pk}  # fmt: skip
        await stream.close()


@streams
@pytest.mark.asyncio
@pytest.mark.parametrize("kind", KINDS)
async def test_account_streams_hear_an_offer_declined_withdrawn_or_lapsing(kind, alice, bob):
    match = await db(finished)(alice, bob)
    await db(services.rematch_offer)(user=bob, match_id=match.pk)
    # Opened while an offer stands: it comes first.
    alices = await open_stream(kind, await db(token_for)(alice), "account")
    first = await alices.next()
    assert first["type"] == "rematchOffer" and first["direction"] == "in"
    await db(services.rematch_decline)(user=alice, match_id=match.pk)
    gone = await until(alices, "rematchGone")
    assert (gone["status"], gone["direction"], gone["next_match_id"]) == ("declined", "in", None)
    await db(services.rematch_offer)(user=alice, match_id=match.pk)
    assert (await until(alices, "rematchOffer"))["direction"] == "out"
    await db(services.rematch_decline)(user=alice, match_id=match.pk)
    assert (await until(alices, "rematchGone"))["status"] == "withdrawn"
    again = await db(services.rematch_offer)(user=alice, match_id=match.pk)
    await until(alices, "rematchOffer")
    await db(services.rematch_lapse)(match_id=match.pk, version=again.version)
    assert (await until(alices, "rematchGone"))["status"] == "lapsed"
    await alices.close()
