"""Fixtures for the class store: every store test runs against SQLite (a temporary folder) and
against a real redis-server on a free local port (tests/redis_server.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from redis_server import redis_server, require_redis

from pages._ui import room_store


class Clock:
    """A clock the test moves (rooms expire, rate-limit windows pass)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    require_redis()
    with redis_server() as url:
        yield url


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["sqlite", "redis"])
def make_store(request, tmp_path, clock):
    """A function opening a store on this test's backend (call it twice for two servers)."""
    opened = []
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        import redis

        redis.Redis.from_url(url).flushdb()

        def make():
            opened.append(room_store.RedisStore(url, clock=clock))
            return opened[-1]
    else:

        def make():
            opened.append(room_store.SQLiteStore(tmp_path / "classes.sqlite3", clock=clock))
            return opened[-1]

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(make_store):
    return make_store()
