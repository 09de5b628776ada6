"""Benchmark: what a class costs the store as it grows, on SQLite and on a real Redis.

Run: ``python3 tests/benchmarks/bench_store.py`` (``--answers 0,5000,20000``). For a round with
that many answers already in it (phones joined and answered through the store's own calls), the
median and p95 wall time of:

- a phone's poll, every 2 s for every phone: ``view(code, phone)``;
- the projector's count, every second: ``answered``, ``joined`` and ``counts``.

The goal (issue 32): a phone's poll flat in the number of answers. Run it from another checkout
(``PYTHONPATH=../other python3 tests/benchmarks/bench_store.py``) to set two versions side by
side. Then a scripted flood: one client opens hundreds of phones against a class of 60 at once,
and the script prints what the store counted and what the projector would say.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: redis_server
sys.path.append(str(Path(__file__).resolve().parents[2]))  # the app, unless PYTHONPATH names another

from redis_server import redis_server  # noqa: E402

try:
    from pages.classroom import room_store, rooms  # noqa: E402
except ImportError:  # a checkout from before class mode had a package of its own
    from pages._ui import room_store, rooms  # noqa: E402
Question, RoomError = rooms.Question, rooms.RoomError

QUESTION = Question("bench.1", "Which?", ("a", "b", "c", "d"), 1, "Because.")


def timed(call, repeat: int) -> tuple[float, float]:
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - started)
    seconds.sort()
    return statistics.median(seconds) * 1000, seconds[int(0.95 * (len(seconds) - 1))] * 1000


def fill(store, answers: int) -> tuple[str, str]:
    if hasattr(rooms, "MAX_CLASS_SIZE"):
        code, key = store.open_room("bench", size=rooms.MAX_CLASS_SIZE)
    else:  # an older store: no class size
        code, key = store.open_room("bench")
    store.ask(code, key, QUESTION)
    clock = [time.time()]
    store.clock = lambda: clock[0]
    phones = [f"bench-{i:07d}-phone" for i in range(answers)]
    for phone in phones:
        clock[0] += 0.011  # under the room's join rate (1,000 phones in 10 s)
        store.join(code, phone)
    if hasattr(store, "admit"):
        store.admit(code, key)  # those beyond the class's size
    for i, phone in enumerate(phones):
        store.answer(code, phone, i % 4)
    store.clock = time.time
    return code, key


def measure(name: str, store, answers: int, repeat: int) -> None:
    code, _ = fill(store, answers)
    phone = f"bench-{0:07d}-phone" if answers else "bench-none-phone"
    if not answers:
        store.join(code, phone)
    poll = timed(lambda: store.view(code, phone), repeat)
    count = timed(lambda: (store.answered(code, 1), store.joined(code), store.counts(code, 1)), repeat)
    print(f"{name:7} {answers:>7,} answers   phone poll {poll[0]:7.2f} ms (p95 {poll[1]:7.2f})   "
          f"projector count {count[0]:7.2f} ms (p95 {count[1]:7.2f})")  # fmt: skip


def flood(store, phones: int) -> None:
    """One script, ``phones`` sessions at once, against a class of 60."""
    code, key = store.open_room("flood", size=60)
    refused, waiting = 0, 0
    for i in range(phones):
        try:
            if store.join(code, f"flood-{i:06d}-phone").status == "full":
                waiting += 1
        except RoomError:
            refused += 1
    print(f"flood   {phones} phones at once against a class of 60: joined {store.joined(code)}, "
          f"waiting for the teacher {waiting} (the projector: 'Let {len(store.waiting(code))} more in'), "
          f"refused by the room's join rate {refused}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--answers", default="0,5000,20000")
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--flood", type=int, default=535)
    args = parser.parse_args()
    sizes = [int(n) for n in args.answers.split(",")]
    with tempfile.TemporaryDirectory() as folder, redis_server() as url:
        for answers in sizes:
            sqlite = room_store.SQLiteStore(Path(folder) / f"bench-{answers}.sqlite3")
            measure("sqlite", sqlite, answers, args.repeat)
            sqlite.close()
            redis = room_store.RedisStore(url)
            redis.db.flushdb()
            measure("redis", redis, answers, args.repeat)
            redis.close()
        if hasattr(room_store.RoomStore, "waiting"):
            flood(room_store.SQLiteStore(Path(folder) / "flood.sqlite3"), args.flood)


if __name__ == "__main__":
    main()
