"""Rate limits counted in Django's cache: sign-ups per address (``address_key``: an IPv6
client's by its /64) and per name, moves per player, API requests per token, and (``limit``,
for the services) challenges and rematch offers per player.

A sliding log: each limit keeps the times of the events it let through in the last
``seconds``, at most ``limit`` of them, and lets one more through only if fewer than ``limit``
are that recent. So no window of ``seconds``, wherever it starts, ever holds more than
``limit`` (fixed windows let twice as many through across a boundary, and so does a bucket
of ``limit`` tokens refilled at ``limit / seconds`` a second, over a window it starts full). A
refused event is not logged: the wait it is told is the wait until one more goes through.

The cache is Redis when REDIS_URL is set, so every server process shares the logs (one round
trip: a Lua script, atomic in Redis); this process's memory otherwise (one process, as
``make run`` serves). Log-in attempts are django-axes' job.
"""

from __future__ import annotations

import bisect
import hashlib
import ipaddress
import logging
import math
import threading
import time

from django.conf import settings
from django.core.cache import cache, caches
from django_redis import get_redis_connection
from django_redis.cache import RedisCache

from ..errors import Throttled, TooOften

log = logging.getLogger(__name__)

# The time events are logged at; a test moves it (tests/web/test_limits.py).
clock = time.time

# KEYS[1]: the log, newest first. ARGV: now, limit, seconds. Answers 0 (let through, logged)
# or the whole seconds until one more may go through. A server whose clock lags another's
# logs at the newest time seen, so the log stays in order.
_SLIDE = """
local now, limit, seconds = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local newest = tonumber(redis.call('LINDEX', KEYS[1], 0))
if newest and newest > now then now = newest end
local oldest = tonumber(redis.call('LINDEX', KEYS[1], limit - 1))
if oldest and oldest > now - seconds then
    return math.max(1, math.ceil(oldest + seconds - now))
end
redis.call('LPUSH', KEYS[1], string.format('%.17g', now))
redis.call('LTRIM', KEYS[1], 0, limit - 1)
redis.call('EXPIRE', KEYS[1], seconds + 1)
return 0
"""
_script = None  # registered with the first Redis connection: its SHA-1 serves any other
# The in-memory cache's read and write of a log, as one step for this process's threads.
_memory = threading.Lock()


def hit(scope: str, key: str, limit: int, seconds: int) -> None:
    """One event of ``scope`` for ``key``; raise Throttled if ``limit`` of them went through
    in the last ``seconds``, carrying the whole seconds until one more may."""
    # Keys come from what people type (a sign-up name): hashed, any text makes a valid key.
    digest = hashlib.blake2b(key.encode("utf-8", "replace"), digest_size=16).hexdigest()
    name = f"throttle:{scope}:{digest}"
    try:
        wait = _slide(name, limit, seconds, clock())
    except Exception as error:  # the cache (Redis) is down: let the request through
        log.warning("rate limit %s not counted: cache unavailable (%s)", scope, error)
        return
    if wait:
        raise Throttled(wait)


def _slide(name: str, limit: int, seconds: int, now: float) -> int:
    """Log an event at ``now`` and answer 0, or answer the seconds to wait (nothing logged)."""
    if isinstance(caches["default"], RedisCache):
        global _script
        connection = get_redis_connection("default")
        if _script is None:
            _script = connection.register_script(_SLIDE)
        # EVALSHA, one round trip (the script itself goes once to a Redis that lacks it).
        key = cache.make_and_validate_key(name)
        return int(_script(keys=[key], args=[now, limit, seconds], client=connection))
    with _memory:
        times = cache.get(name) or []  # oldest first, only those of the last ``seconds``
        if times and times[-1] > now:
            now = times[-1]
        times = times[bisect.bisect_right(times, now - seconds) :]
        if len(times) >= limit:
            return max(1, math.ceil(times[-limit] + seconds - now))
        times.append(now)
        cache.set(name, times, timeout=seconds + 1)
    return 0


def address_key(address: str) -> str:
    """What a per-address limit counts a client by: an IPv4 address as it is (one mapped into
    IPv6 too), an IPv6 one by its /64, written as that network's first address (a valid address
    wherever one is stored: django-axes' records). A /64 is one subscriber's network, whose
    hosts may take any of its 2^64 addresses at will; counting each would be no limit at all."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address  # not an address (a test client's, a unix socket's): counted as given
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((int(ip), 64), strict=False).network_address)


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
