"""Under the embedded defaults (no Redis: each process's channel layer is its own) a task
worker's pushes reach the server's sockets through the server (``events.relay_to``, the
``internal/pushes`` address): the arena the worker starts takes its players' pages to their
matches, as it does with Redis. Only the site's own signed posts are taken."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core import signing
from django.utils import timezone
from websockets.sync.client import connect

from games import services
from games.models import Match
from games.services import events
from tests.support.arenas import moderator_made
from tests.support.players import session_cookie
from tests.support.servers import Server, Worker, server_env

NEVER = 30  # seconds: a push lost, where it arrives in milliseconds


def frame_with(socket, text: str) -> str:
    while text not in (frame := socket.recv(timeout=NEVER)):
        pass
    return frame


@pytest.mark.django_db(transaction=True)
def test_the_workers_arena_start_takes_the_pages_to_their_match_without_redis(
    moderators_group, alice, bob
):
    moderator = moderator_made()
    env = server_env()
    env.pop("REDIS_URL", None)  # the in-memory layer: the embedded defaults
    arena = services.arena_create(
        user=moderator, name="Relayed", starts_at=timezone.now(), minutes=30, target=1
    )
    for user in (alice, bob):
        services.arena_join(user=user, arena_id=arena.pk)
    server = Server(env).start()
    worker = None
    try:
        pages = []
        for user in (alice, bob):
            page = connect(
                f"{server.ws_url}/ws/me/?arena={arena.pk}",
                additional_headers={"Cookie": session_cookie(user), "Origin": server.url},
            )
            frame_with(page, 'id="arena-live"')  # open, and present for the pairing
            pages.append(page)
        worker = Worker(env, server).start()  # the arena's start is due: the worker pairs
        frames = [frame_with(page, "data-goto=") for page in pages]
        match = Match.objects.get(arena=arena)
        assert all(f'data-goto="/matches/{match.pk}/"' in frame for frame in frames)
        for page in pages:
            page.close()
    finally:
        if worker is not None:
            worker.stop()
        server.stop()


def heard(group: str, post) -> dict:
    """What a socket in ``group`` hears first after ``post()`` and then a sentinel sent
    straight to the group: the sentinel itself if the post sent nothing."""

    async def main():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        await asyncio.to_thread(post)
        await layer.group_send(group, {"type": "sentinel"})
        return await asyncio.wait_for(layer.receive(channel), NEVER)

    return async_to_sync(main)()


@pytest.mark.django_db
def test_a_signed_post_is_sent_on_and_any_other_is_refused_in_words(client, settings):
    settings.REDIS_URL = ""  # (the address exists under the embedded defaults only)
    group, news = events.user_group(7), {"type": "user.changed", "goto": 3}
    answers = []

    def post(body: str):
        return lambda: answers.append(
            client.post("/internal/pushes", body, content_type="text/plain")
        )

    assert heard(group, post(events.relay_body([(group, news)]))) == news
    assert answers.pop().status_code == 204
    body = events.relay_body([(group, news)])
    altered = body[:-1] + ("A" if body[-1] != "A" else "B")  # its signature no longer fits
    foreign = signing.dumps([[group, news]], key="another site's key", salt=events.RELAY_SALT)
    for body in (altered, foreign, "not signed", ""):
        assert heard(group, post(body)) == {"type": "sentinel"}
        refused = answers.pop()
        assert refused.status_code == 403
        assert refused.content.decode() == "Not a push from this site's task worker."


@pytest.mark.django_db
def test_with_redis_there_is_nothing_to_hand_over(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    answer = client.post("/internal/pushes", events.relay_body([]), content_type="text/plain")
    assert answer.status_code == 404
