"""The account feed's reads: what a program hears when changes land between them."""

from __future__ import annotations

import pytest

from games import services
from games.api import feeds
from games.models import ApiToken

pytestmark = pytest.mark.django_db


def test_a_challenge_accepted_between_the_feeds_reads_starts_its_match_first(
    alice, bob, monkeypatch
):
    """The feed reads the challenges and the matches one after the other; an acceptance that
    lands between the two reads still gives the match's start before the challenge's end."""
    services.api_token_create(user=alice, name="bot", scopes=["read"])
    feed = feeds.AccountFeed(token=ApiToken.objects.select_related("user").get())
    challenge = services.challenge_create(user=bob, challenged=alice)
    assert [e["type"] for e in feed.start()] == ["challenge"]

    reads = []

    def after_the_first_read(read):
        def wrapped(*, user):
            found = read(user=user)
            if not isinstance(found, dict):
                found = list(found)  # the matches' query, read now (not when first iterated)
            reads.append(read)
            if len(reads) == 1:  # the acceptance commits right after the feed's first read
                services.challenge_accept(user=alice, challenge_id=challenge.pk)
            return found

        return wrapped

    monkeypatch.setattr(feeds, "my_active_matches", after_the_first_read(feeds.my_active_matches))
    monkeypatch.setattr(feeds, "pending_challenges", after_the_first_read(feeds.pending_challenges))
    heard = [event["type"] for _ in range(2) for event in feed.changed()]
    assert heard == ["matchStart", "challengeGone"]
