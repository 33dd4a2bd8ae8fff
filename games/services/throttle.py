"""Rate limits, counted by the ``limits`` library: sign-ups per address (``address_key``: an
IPv6 client's by its /64) and per name, moves per player, API requests per token, and
(``limit``, for the services) challenges and rematch offers per player.

Its moving window: each limit keeps the times of the events it let through, at most ``limit``
of them, and lets one more through only if fewer than ``limit`` are at most ``seconds`` old.
So no window of ``seconds``, wherever it starts, ever holds more than ``limit`` (fixed windows
let twice as many through across a boundary). A refused event is not counted: the wait it is
told is the wait until one more goes through.

The counts live in the Redis of the site's cache when REDIS_URL is set, through the cache's
own connections, so every server process shares them (one round trip, ``limits``' Lua script,
atomic in Redis; a refusal reads the window once more for its wait); in this process's memory
otherwise (one process, as ``make run`` serves). Log-in attempts are django-axes' job.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import threading
import time

from django.conf import settings
from django_redis import get_redis_connection
from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage, RedisStorage
from limits.strategies import MovingWindowRateLimiter

from .. import metrics
from ..errors import Throttled, TooOften

log = logging.getLogger(__name__)

# The limiter of the cache configured now, made at its first use: tests change CACHES (a
# memory of their own, or Redis under a prefix of their own), production never does.
_made: tuple[tuple, MovingWindowRateLimiter] | None = None
_making = threading.Lock()


def _limiter() -> MovingWindowRateLimiter:
    global _made
    config = settings.CACHES["default"]
    key = (config["BACKEND"], config.get("LOCATION"), config.get("KEY_PREFIX"))
    made = _made
    if made is not None and made[0] == key:
        return made[1]
    with _making:
        if _made is None or _made[0] != key:
            _made = (key, MovingWindowRateLimiter(_storage(config)))
        return _made[1]


# The process's one memory of counts (with its timer thread), emptied when the cache changes.
_memory: MemoryStorage | None = None


def _storage(config: dict) -> MemoryStorage | RedisStorage:
    global _memory
    if not config["BACKEND"].startswith("django_redis."):
        if _memory is None:
            _memory = MemoryStorage()
        else:  # another cache (a test's own): no counts carried over, no second storage
            _memory.reset()
        return _memory
    # The cache's pool: its timeouts (a limit never hangs a request) and one set of
    # connections per process; its prefix keeps apart sites and test runs sharing one Redis.
    pool = get_redis_connection("default").connection_pool
    prefix = f"{config.get('KEY_PREFIX', '')}:throttle"
    return RedisStorage(config["LOCATION"], connection_pool=pool, key_prefix=prefix)


def hit(scope: str, key: str, limit: int, seconds: int) -> None:
    """One event of ``scope`` for ``key``; raise Throttled if ``limit`` of them went through
    in the last ``seconds``, carrying the whole seconds until one more may."""
    # Keys come from what people type (a sign-up name): hashed, so of a bounded size.
    digest = hashlib.blake2b(key.encode("utf-8", "replace"), digest_size=16).hexdigest()
    item = RateLimitItemPerSecond(limit, seconds, namespace=f"throttle:{scope}")
    try:
        limiter = _limiter()
        if limiter.hit(item, digest):
            return
        # The window's oldest event, and when it leaves (Redis: one more round trip).
        reset = limiter.get_window_stats(item, digest).reset_time
    except Exception as error:  # Redis is down: let the request through
        log.warning("rate limit %s not counted: cache unavailable (%s)", scope, error)
        return
    metrics.throttled(scope)
    raise Throttled(max(1, math.ceil(reset - time.time())))


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
