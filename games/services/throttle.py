"""Rate limits counted in Django's cache: sign-ups per address and per name, moves per player,
and (``limit``, for the services) challenges and rematch offers per player.

A fixed window per limit: the count of events in the current window of ``seconds``. The
cache is Redis when REDIS_URL is set, so every server process shares the counts; in memory
otherwise (one process, as ``make run`` serves). Log-in attempts are django-axes' job.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time

from django.conf import settings
from django.core.cache import cache, caches
from django_redis import get_redis_connection
from django_redis.cache import RedisCache

from ..errors import Throttled, TooOften

log = logging.getLogger(__name__)


def hit(scope: str, key: str, limit: int, seconds: int) -> None:
    """Count one event of ``scope`` for ``key``; raise Throttled once over ``limit`` in
    the window, carrying the whole seconds until the window ends."""
    now = time.time()
    window = int(now // seconds)
    # Keys come from what people type (a sign-up name): hashed, any text makes a valid key.
    digest = hashlib.blake2b(key.encode("utf-8", "replace"), digest_size=16).hexdigest()
    name = f"throttle:{scope}:{digest}:{window}"
    try:
        count = _count(name, seconds)
    except Exception as error:  # the cache (Redis) is down: let the request through
        log.warning("rate limit %s not counted: cache unavailable (%s)", scope, error)
        return
    if count > limit:
        raise Throttled(max(1, math.ceil((window + 1) * seconds - now)))


def _count(name: str, seconds: int) -> int:
    if isinstance(caches["default"], RedisCache):
        # One round trip, as every move waits on it: SET NX starts the window, INCR counts.
        pipe = get_redis_connection("default").pipeline(transaction=False)
        key = cache.make_and_validate_key(name)
        pipe.set(key, 0, ex=seconds + 1, nx=True)
        pipe.incr(key)
        return pipe.execute()[1]
    if cache.add(name, 1, timeout=seconds + 1):
        return 1
    try:
        return cache.incr(name)
    except ValueError:  # expired between the two calls: this is the first of a window
        cache.add(name, 1, timeout=seconds + 1)
        return 1


def move(user) -> None:
    """One more move by ``user`` (over http or the socket); Throttled past the limit."""
    try:
        hit("move", str(user.pk), settings.MOVE_LIMIT_PER_10_SECONDS, 10)
    except Throttled as error:
        raise Throttled(error.retry_after, "moving_fast") from None


def limit(scope: str, user, count: int, seconds: int) -> None:
    """One more of ``scope`` by ``user``, for a service: past ``count`` in ``seconds`` it is
    refused as the other refusals are, a ``TooOften`` with the seconds to wait."""
    try:
        hit(scope, str(user.pk), count, seconds)
    except Throttled as error:
        raise TooOften("too_often", seconds=error.retry_after) from None
