"""One Redis connection pool per process for the cache.

Django's Redis cache builds its pool inside the cache object, and under ASGI every request runs
in a thread of its own with a cache object of its own: each request would open (and
introduce itself over) a new Redis connection. This pool class hands every cache object the
process's one pool for the same address and options.
"""

from __future__ import annotations

import threading

import redis

_pools: dict[tuple, redis.ConnectionPool] = {}
_lock = threading.Lock()


class SharedConnectionPool(redis.ConnectionPool):
    @classmethod
    def from_url(cls, url: str, **options) -> redis.ConnectionPool:
        key = (url, tuple(sorted(options.items())))
        with _lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = redis.ConnectionPool.from_url(url, **options)
            return pool
