"""The class store (pages/classroom/room_store.py): the same tests against SQLite (a temporary folder)
and a real redis-server on a free local port (tests/redis_server.py)."""

from __future__ import annotations

import inspect
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from redis_server import redis_server, require_redis

from pages.classroom import room_store, rooms
from pages.classroom.kinds import DRAW
from pages.classroom.rooms import Question, RoomError
from pages.widgets.downloads import table_csv

K1 = Question("knn.k1", "What does k = 1 do near a noisy point?", ("Follows it", "Ignores it", "Averages"), 0,
              "One neighbour: its label, noise or not.")  # fmt: skip
DRAW7 = Question("digits.draw7", "Everyone draws a 7", (), 7, "", DRAW)


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


def _sqlite(request, tmp_path, clock):
    return lambda: room_store.SQLiteStore(tmp_path / "classes.sqlite3", clock=clock)


def _redis(request, tmp_path, clock):
    url = request.getfixturevalue("redis_url")
    import redis

    with redis.Redis.from_url(url) as client:
        client.flushdb()
    return lambda: room_store.RedisStore(url, clock=clock)


# How the tests open each backend of the registry against a real, empty server.
TEST_SERVERS = {"sqlite": _sqlite, "redis": _redis}


@pytest.fixture(params=list(room_store.BACKENDS))
def make_store(request, tmp_path, clock):
    """A function opening a store on this test's backend (call it twice for two servers)."""
    if request.param not in TEST_SERVERS:
        pytest.fail(f"No test server for the {request.param!r} store backend: add one to TEST_SERVERS")
    opened = []
    opener = TEST_SERVERS[request.param](request, tmp_path, clock)

    def make():
        opened.append(opener())
        return opened[-1]

    yield make
    for store in opened:
        store.close()


def test_every_backend_keeps_every_row_the_rules_ask_for():
    """Each backend of the registry implements every method the shared rules call on it."""
    needed = [
        name
        for name, f in vars(room_store.RoomStore).items()
        if name.startswith("_") and callable(f) and "raise NotImplementedError" in inspect.getsource(f)
    ]
    assert len(needed) >= 10
    for name, backend in room_store.BACKENDS.items():
        missing = [m for m in needed if getattr(backend, m) is getattr(room_store.RoomStore, m)]
        assert missing == [], f"the {name} backend does not implement {missing}"


@pytest.fixture
def store(make_store):
    return make_store()


def phone(i: int) -> str:
    return f"phone-{i:04d}-abcdef"


def test_a_whole_round_ask_answer_change_reveal_ask_again(store):
    code, key = store.open_room()
    assert store.room(code).rounds == 0 and store.is_teacher(code, key)
    assert store.join(code.lower(), phone(1), "Ada").status == "waiting"
    store.join(code, phone(2))

    first = store.ask(code, key, K1)
    assert (first.number, first.attempt, first.revealed) == (1, 1, False)
    seen = store.view(code, phone(1))
    assert (seen.status, seen.text, seen.choices, seen.mine) == ("question", K1.text, K1.choices, None)
    assert seen.answer is None and seen.why == ""  # the right answer stays on the server

    assert store.answer(code, phone(1), 1).mine == 1
    assert store.answer(code, phone(1), 0).mine == 0  # a second tap replaces the first
    store.answer(code, phone(2), 2)
    assert store.counts(code, 1) == (1, 0, 1) and store.answered(code, 1) == 2

    assert store.reveal(code, key).revealed
    shown = store.view(code, phone(1))
    assert (shown.status, shown.answer, shown.why, shown.correct) == ("revealed", 0, K1.why, True)
    assert store.view(code, phone(2)).correct is False
    with pytest.raises(RoomError, match="answers are closed"):
        store.answer(code, phone(2), 0)
    assert store.counts(code, 1) == (1, 0, 1)

    second = store.ask_again(code, key)
    assert (second.number, second.attempt, second.question) == (2, 2, K1)
    assert store.view(code, phone(2)).status == "question" and store.view(code, phone(2)).mine is None
    store.answer(code, phone(2), 0)
    assert store.counts(code, 2) == (1, 0, 0) and store.counts(code, 1) == (1, 0, 1)  # both rounds kept
    assert [r.attempt for r in store.rounds(code)] == [1, 2]
    assert store.ask(code, key, K1).attempt == 3  # asking the same step later counts on


def test_a_late_joiner_sees_the_current_question(store):
    code, key = store.open_room()
    store.ask(code, key, K1)
    late = store.join(code, phone(9), "late")
    assert (late.status, late.round, late.text) == ("question", 1, K1.text)
    store.reveal(code, key)
    assert store.join(code, phone(10)).status == "revealed"


def test_only_the_teacher_key_asks_reveals_ends_and_exports(store):
    code, key = store.open_room()
    other_code, other_key = store.open_room()
    assert code != other_code
    store.join(code, phone(1))
    for wrong in (None, "", key[:-1], other_key, phone(1)):
        assert not store.is_teacher(code, wrong)
        for action in (store.reveal, store.ask_again, store.end, store.export):
            with pytest.raises(RoomError, match="Only the teacher"):
                action(code, wrong)
        with pytest.raises(RoomError, match="Only the teacher"):
            store.ask(code, wrong, K1)
    assert store.room(code).rounds == 0 and not store.room(code).ended
    assert key not in repr(store._room(code))  # the store keeps a digest, not the key


def test_unknown_and_ended_rooms_get_a_clear_message(store):
    with pytest.raises(RoomError, match="No class has the code ABCDE"):
        store.join("abcde", phone(1))
    with pytest.raises(RoomError, match="not a room code"):
        store.join("0000O", phone(1))
    with pytest.raises(RoomError, match="No class has the code"):
        store.view("ABCDE", phone(1))
    code, key = store.open_room()
    store.join(code, phone(1))
    store.ask(code, key, K1)
    store.end(code, key)
    assert store.room(code).ended and store.view(code, phone(1)).status == "ended"
    with pytest.raises(RoomError, match="ended"):
        store.join(code, phone(2))
    with pytest.raises(RoomError, match="ended"):
        store.answer(code, phone(1), 0)
    with pytest.raises(RoomError, match="ended"):
        store.ask(code, key, K1)


def test_a_phone_must_join_and_send_valid_values(store):
    code, key = store.open_room()
    with pytest.raises(RoomError, match="No question yet"):
        store.join(code, phone(1)) and store.answer(code, phone(1), 0)
    store.ask(code, key, K1)
    with pytest.raises(RoomError, match="Join the class first"):
        store.answer(code, phone(2), 0)
    for bad in (3, -1, "0", True, None):
        with pytest.raises(RoomError, match="Choose one of the 3"):
            store.answer(code, phone(1), bad)
    for bad_phone in ("", "short", "x" * 41, "phone 0001 abc", None):
        with pytest.raises(RoomError, match="reload"):
            store.answer(code, bad_phone, 0)
    with pytest.raises(RoomError, match="at most 20"):
        store.join(code, phone(3), "n" * 21)
    with pytest.raises(RoomError, match="asks for a choice"):
        store.answer(code, phone(1), [0] * 256, DRAW)
    assert store.answered(code, 1) == 0


def test_drawings_are_kept_per_phone_and_round(store):
    code, key = store.open_room()
    store.join(code, phone(1))
    store.join(code, phone(2))
    store.ask(code, key, DRAW7)
    seven = np.zeros((16, 16), dtype=int)
    seven[1, 2:14] = 1
    seven[2:15, 12] = 1
    assert store.answer(code, phone(1), np.ones((16, 16)), DRAW).mine == 1
    store.answer(code, phone(1), seven, DRAW)  # a new drawing replaces the first
    store.answer(code, phone(2), seven.ravel().tolist(), DRAW)
    drawn = store.drawings(code, 1)
    assert set(drawn) == {phone(1), phone(2)} and drawn[phone(1)] == tuple(seven.ravel())
    with pytest.raises(RoomError, match="16×16"):
        store.answer(code, phone(2), [1] * 255, DRAW)
    with pytest.raises(RoomError, match="asks for a drawing"):
        store.answer(code, phone(2), 0)
    assert store.drawings(code, 1)[phone(2)] == tuple(seven.ravel())


def test_rate_limits_per_phone(store, clock):
    code, key = store.open_room()
    joins, window = rooms.RATE_LIMITS["join"]
    for _ in range(joins):
        store.join(code, phone(1))
    with pytest.raises(RoomError, match="Too many tries"):
        store.join(code, phone(1))
    with pytest.raises(RoomError, match="Too many tries"):  # guessing codes counts too
        store.join("ZZZZZ", phone(1))
    store.join(code, phone(2))  # another phone is not held up
    clock.advance(window)
    store.join(code, phone(1))

    store.ask(code, key, K1)
    answers, window = rooms.RATE_LIMITS["answer"]
    for i in range(answers):
        store.answer(code, phone(1), i % 3)
    with pytest.raises(RoomError, match="Too many tries"):
        store.answer(code, phone(1), 0)
    assert store.answered(code, 1) == 1


def test_opening_rooms_is_rate_limited_per_teacher_session_never_per_address(store, clock):
    """A whole class shares its school's address (or a proxy's): a limit on it would let students
    stop their teacher from starting a class. The limit is the teacher's own session's."""
    opens, window = rooms.RATE_LIMITS["open"]
    codes = {store.open_room("session-a")[0] for _ in range(opens)}
    assert len(codes) == opens
    with pytest.raises(RoomError, match="Too many tries from this session"):
        store.open_room("session-a")
    store.open_room("session-b")  # another teacher, from the same address, is not held up
    clock.advance(window)
    store.open_room("session-a")


def test_the_class_size_the_lock_and_the_join_rate_bound_what_one_script_can_add(store, clock):
    code, key = store.open_room("teacher", size=3)
    assert store.size(code) == 3 and not store.locked(code)
    for i in (1, 2, 3):
        assert store.join(code, phone(i)).status == "waiting"
    # Beyond the class's size a phone waits for the teacher's OK, and is not counted or asked.
    assert store.join(code, phone(4)).status == "full" and store.view(code, phone(4)).status == "full"
    assert store.joined(code) == 3 and store.waiting(code) == [phone(4)]
    store.ask(code, key, K1)
    with pytest.raises(RoomError, match="Join the class first"):
        store.answer(code, phone(4), 0)
    assert store.admit(code, key) == 1 and store.waiting(code) == []
    assert store.view(code, phone(4)).status == "question" and store.joined(code) == 4
    # Locked: no new phone, whatever the size; a phone already in may join again (a reload).
    store.lock(code, key, True)
    with pytest.raises(RoomError, match="closed to new phones"):
        store.join(code, phone(5))
    assert store.join(code, phone(1), "Ada").status == "question"
    store.lock(code, key, False)
    with pytest.raises(RoomError, match="Only the teacher"):
        store.lock(code, "not-the-key", True)
    for bad in (0, -1, 10_000, "60", True, None):
        with pytest.raises(RoomError, match="A class has 1 to"):
            store.open_room("teacher-2", size=bad)
    # Joins per room are bounded in a window: a script opening sessions cannot pour phones in.
    big, big_key = store.open_room("teacher-3", size=1000)
    limit, window = rooms.room_join_rate(1000)
    for i in range(limit):
        store.join(big, f"script-{i:06d}-phone")
    with pytest.raises(RoomError, match="Many phones are joining at once"):
        store.join(big, "script-extra-phone")
    assert store.joined(big) == limit
    assert store.refused(big) == 1  # the projector shows the phones turned away, not only those in
    clock.advance(window)
    store.join(big, "script-extra-phone")


def test_phones_joining_at_once_never_pass_the_class_size(make_store):
    """The load run's flood: 62 phones got into a class of 60 when the size was checked and the
    phone added in two steps. 30 new phones from 10 threads (two stores: two servers) at once
    against a class of 10: 10 in, 20 waiting."""
    first = make_store()
    second = make_store()
    code, key = first.open_room("teacher", size=10)

    def join(i):
        return (first if i % 2 else second).join(code, f"crowd-{i:04d}-phone").status

    with ThreadPoolExecutor(10) as pool:
        statuses = list(pool.map(join, range(30)))
    assert statuses.count("full") == 20 and first.joined(code) == 10 and len(first.waiting(code)) == 20


def test_export_has_no_names_and_neutralises_formulas(store):
    code, key = store.open_room()
    store.join(code, phone(1), '=HYPERLINK("x")')
    store.join(code, phone(2))
    store.ask(code, key, K1)
    store.answer(code, phone(1), 0)
    store.answer(code, phone(2), 1)
    store.reveal(code, key)
    store.ask_again(code, key)
    store.answer(code, phone(2), 0)
    store.end(code, key)
    columns = store.export(code, key)
    assert columns["round"] == [1, 1, 2] and columns["attempt"] == [1, 1, 2]
    assert columns["phone"] == [phone(1), phone(2), phone(2)] and columns["answer"] == ["0", "1", "0"]
    assert columns["right"] == [True, False, ""]  # the second round was never revealed
    assert columns["choice"] == ["Follows it", "Ignores it", "Follows it"]
    csv = table_csv(columns).decode()
    assert "'=HYPERLINK" in csv and "\n=HYPERLINK" not in csv


def test_many_phones_answering_at_once_are_each_counted_once(make_store):
    # Two store objects on the same data: for Redis, two connections standing for two servers.
    stores = [make_store(), make_store()]
    code, key = stores[0].open_room()
    n = 60
    for i in range(n):
        stores[i % 2].join(code, phone(i))
    stores[1].ask(code, key, K1)
    start = threading.Barrier(12, timeout=60)

    def answer(i: int) -> None:
        if i < 12:
            start.wait()
        store = stores[i % 2]
        store.answer(code, phone(i), (i + 1) % 3)  # a first tap, then the final choice
        store.answer(code, phone(i), i % 3)

    with ThreadPoolExecutor(max_workers=12) as pool:
        list(pool.map(answer, range(n)))
    expected = tuple(sum(1 for i in range(n) if i % 3 == c) for c in range(3))
    assert stores[0].counts(code, 1) == stores[1].counts(code, 1) == expected
    assert stores[0].answered(code, 1) == n
    assert all(stores[1].view(code, phone(i)).mine == i % 3 for i in range(n))


def test_a_reveal_racing_answers_closes_the_round_cleanly(make_store):
    stores = [make_store(), make_store()]
    code, key = stores[0].open_room()
    for i in range(40):
        stores[0].join(code, phone(i))
    stores[0].ask(code, key, K1)
    accepted = []

    def answer(i: int) -> None:
        try:
            stores[i % 2].answer(code, phone(i), 0)
            accepted.append(i)
        except RoomError:
            pass

    with ThreadPoolExecutor(max_workers=8) as pool:
        futures = [pool.submit(answer, i) for i in range(40)]
        stores[1].reveal(code, key)
        for f in futures:
            f.result()
    # Every answer the store accepted is counted, and none arrives after the reveal.
    counted = stores[0].answered(code, 1)
    assert counted == len(accepted)
    with pytest.raises(RoomError, match="closed"):
        stores[0].answer(code, phone(0), 1)
    assert stores[0].answered(code, 1) == counted


def test_rooms_expire_and_are_removed(store, clock):
    code, key = store.open_room()
    store.join(code, phone(1))
    store.ask(code, key, K1)
    store.answer(code, phone(1), 0)
    clock.advance(6 * 3600)
    young, young_key = store.open_room()
    assert store.purge_expired() == 0 and store.room(code) is not None
    clock.advance(6 * 3600)  # 12 h after the first room opened
    assert store.room(code) is None and not store.is_teacher(code, key)
    with pytest.raises(RoomError, match="No class has the code"):
        store.join(code, phone(2))
    assert store.purge_expired() == 1
    assert store._room(code) is None and store.rounds(code) == [] and store.answered(code, 1) == 0
    assert store.room(young) is not None and store.is_teacher(young, young_key)


def test_the_teacher_marks_drawings_hidden_approved_or_taught_and_a_hidden_one_is_never_taught(make_store):
    store = make_store()
    code, key = store.open_room()
    for i in (1, 2, 3):
        store.join(code, phone(i))
    store.ask(code, key, DRAW7)
    seven, other = np.zeros((16, 16), dtype=int), np.ones((16, 16), dtype=int)
    seven[1, 2:14] = seven[2:15, 12] = 1
    for i, grid in ((1, seven), (2, seven), (3, other)):
        store.answer(code, phone(i), grid, DRAW)
    assert store.marks(code, 1) == {} and not store.holding(code) and store.taught(code) == []
    store.hold(code, key, True)
    assert store.holding(code)
    assert store.mark(code, key, 1, [phone(1), phone(2)], "approved") == 2
    assert store.mark(code, key, 1, phone(3), "hidden") == 1
    # Teaching skips the hidden drawing; hiding a taught one takes its teaching back.
    assert store.mark(code, key, 1, [phone(1), phone(2), phone(3)], "taught") == 2
    assert store.taught(code) == [(1, phone(1)), (1, phone(2))]
    store.mark(code, key, 1, phone(2), "hidden")
    assert store.taught(code) == [(1, phone(1))]
    assert store.marks(code, 1)[phone(2)] == {"approved", "hidden"}
    store.mark(code, key, 1, phone(2), "hidden", on=False)
    assert "hidden" not in store.marks(code, 1)[phone(2)] and store.taught(code) == [(1, phone(1))]
    # They live with the class: another server (or a reload) sees them.
    again = make_store()
    assert again.taught(code) == [(1, phone(1))] and again.holding(code)
    assert again.marks(code, 1)[phone(3)] == {"hidden"}
    # Only the teacher, only a mark, only a round that exists, only phones that answered.
    with pytest.raises(RoomError, match="Only the teacher"):
        store.mark(code, "wrong-key", 1, phone(1), "hidden")
    for bad in ("shown", None, ["hidden"], "taught; DROP TABLE marks"):
        with pytest.raises(RoomError, match="A mark is one of"):
            store.mark(code, key, 1, phone(1), bad)
    for bad_round in (0, 2, "1", True, None):
        with pytest.raises(RoomError, match="no such round"):
            store.mark(code, key, bad_round, phone(1), "hidden")
    with pytest.raises(RoomError, match="reload"):
        store.mark(code, key, 1, ["not a phone id"], "hidden")
    assert store.mark(code, key, 1, phone(4), "hidden") == 0  # no answer to hide
    with pytest.raises(RoomError, match="At most"):
        store.mark(code, key, 1, [phone(1)] * (rooms.MAX_MARKED + 1), "hidden")


def test_a_drawing_s_row_in_the_csv_carries_the_label_it_was_read_as(store):
    code, key = store.open_room()
    for i in (1, 2):
        store.join(code, phone(i))
    store.ask(code, key, DRAW7)
    store.answer(code, phone(1), np.ones((16, 16), dtype=int), DRAW)
    store.answer(code, phone(2), np.zeros((16, 16), dtype=int), DRAW)
    store.record_reads(code, key, 1, {phone(1): 1, phone(2): 7, phone(3): 4, "x": True})
    store.record_reads(code, key, 1, {phone(2): 9, phone(1): "7"})  # a label that is not a digit is not kept
    assert store.reads(code, 1) == {phone(1): 1, phone(2): 9}
    columns = store.export(code, key)
    by_phone = dict(zip(columns["phone"], columns["read as"], strict=True))
    assert by_phone == {phone(1): 1, phone(2): 9}
    assert columns["choice"] == ["a drawing of a 7"] * 2
    with pytest.raises(RoomError, match="Only the teacher"):
        store.record_reads(code, "not-the-key", 1, {phone(1): 3})
    with pytest.raises(RoomError, match="no such round"):
        store.record_reads(code, key, 5, {phone(1): 3})


def test_a_room_s_marks_and_notes_go_with_it(make_store, clock):
    store = make_store()
    code, key = store.open_room()
    store.join(code, phone(1))
    store.ask(code, key, DRAW7)
    store.answer(code, phone(1), np.ones((16, 16), dtype=int), DRAW)
    store.mark(code, key, 1, phone(1), "taught")
    store.hold(code, key, True)
    clock.advance(13 * 3600)
    assert store.purge_expired() == 1
    assert store._marks(code, 1) == {} and store._note(code, "hold") is None


def test_redis_keys_carry_the_room_s_ttl(store):
    if not isinstance(store, room_store.RedisStore):
        pytest.skip("Redis only: SQLite rooms are removed by purge_expired")
    code, key = store.open_room()
    store.join(code, phone(1))
    store.ask(code, key, K1)
    store.answer(code, phone(1), 0)
    keys = store.db.keys(f"classic:room:{{{code}}}*")
    assert len(keys) == 6  # the room, its notes (its size), its phones, round 1, its answers and their tally
    ttls = [store.db.ttl(k) for k in keys]
    assert all(0 < t <= rooms.HOURS * 3600 for t in ttls), ttls


def test_sqlite_rooms_survive_a_restart(tmp_path, clock):
    first = room_store.SQLiteStore(tmp_path / "classes.sqlite3", clock=clock)
    code, key = first.open_room()
    first.join(code, phone(1), "Ada")
    first.ask(code, key, K1)
    first.answer(code, phone(1), 2)
    first.close()
    again = room_store.SQLiteStore(tmp_path / "classes.sqlite3", clock=clock)
    assert again.is_teacher(code, key) and again.counts(code, 1) == (0, 0, 1)
    assert again.view(code, phone(1)).mine == 2
    again.answer(code, phone(1), 1)
    assert again.counts(code, 1) == (0, 1, 0)
    assert again._one("PRAGMA journal_mode")["journal_mode"] == "wal"
    again.close()


def test_the_environment_chooses_the_backend(tmp_path, monkeypatch, redis_url):
    monkeypatch.delenv("CLASSIC_CLASS_STORE", raising=False)
    monkeypatch.setenv("CLASSIC_CLASS_DIR", str(tmp_path / "here"))
    store = room_store.open_store()
    assert isinstance(store, room_store.SQLiteStore) and store.path == tmp_path / "here" / "classes.sqlite3"
    store.close()
    monkeypatch.setenv("CLASSIC_CLASS_STORE", redis_url)
    store = room_store.open_store()
    assert isinstance(store, room_store.RedisStore) and store.db.ping()
    store.close()
    monkeypatch.setenv("CLASSIC_CLASS_STORE", "mysql://x")
    with pytest.raises(ValueError, match="redis://"):
        room_store.open_store()
    assert room_store.DEFAULT_DIR.parts[-2:] == ("data", "classes")


def _open_files() -> int:
    import os

    return len(os.listdir("/proc/self/fd"))


def test_sqlite_keeps_no_connection_per_thread(tmp_path, clock):
    """Streamlit runs every rerun and every fragment tick in a new thread: the store's files stay
    open in a bounded pool, not once per thread that ever used it (the class panel's tick every
    second once left two open files behind each, until the server ran out of descriptors)."""
    store = room_store.SQLiteStore(tmp_path / "classes.sqlite3", clock=clock)
    code, key = store.open_room("10.0.0.1")
    store.join(code, phone(1))

    def poll() -> None:  # what one tick of the projector's panel does
        assert store.room(code) is not None
        store.joined(code)
        store.current(code)

    poll()
    before = _open_files()
    for _ in range(300):
        thread = threading.Thread(target=poll)
        thread.start()
        thread.join()
    assert _open_files() - before <= 3  # one connection: its database, WAL and shared-memory files
    assert store.open_connections() <= room_store.SQLiteStore.IDLE
    # Many at once borrow more connections; afterwards the pool keeps at most IDLE of them.
    with ThreadPoolExecutor(24) as pool:
        list(pool.map(lambda _: poll(), range(240)))
    assert store.open_connections() <= room_store.SQLiteStore.IDLE
    # SQLite may keep a closed connection's files open for reuse while another holds a lock on
    # the database (its unix VFS), so the burst may leave up to one connection's files per thread;
    # but then nothing grows: threads in turn reuse what is open.
    burst = _open_files()
    assert burst - before <= 3 * 24
    for _ in range(100):
        thread = threading.Thread(target=poll)
        thread.start()
        thread.join()
    assert _open_files() <= burst
    store.close()
    assert store.open_connections() == 0


def test_a_phone_s_poll_and_the_projector_s_count_never_read_every_answer(store, monkeypatch):
    """What every phone reads every 2 s (its view, its answer) and the projector every second
    (the count, the tally, the phones joined) is one row or a count: flat in the class's size."""
    code, key = store.open_room()
    for i in range(1, 41):
        store.join(code, phone(i))
    store.ask(code, key, K1)
    for i in range(1, 41):
        store.answer(code, phone(i), i % 3)
    store.answer(code, phone(1), 2)  # a changed answer moves its count

    def every(*args):
        raise AssertionError("read every answer (or every phone) of the class")

    monkeypatch.setattr(store, "_answers", every)
    monkeypatch.setattr(store, "_phones", every)
    assert store.view(code, phone(1)).mine == 2
    assert store.answer(code, phone(2), 0).mine == 0
    expected = (14, 13, 13)
    assert store.counts(code, 1) == expected and store.answered(code, 1) == 40 and store.joined(code) == 40
    store.reveal(code, key)
    assert store.view(code, phone(3)).correct is True


# ---- peer instruction: stop the vote, vote again, a question of the same kind, a timer ---------

SAME = Question("knn.k1.same", "And at k = 3?", ("Follows it", "Ignores it", "Averages"), 1, "Three vote.",
                follows=K1.qid)  # fmt: skip


def test_a_stopped_vote_takes_no_answer_and_hides_its_answer_until_the_reveal(store):
    code, key = store.open_room()
    for i in (1, 2):
        store.join(code, phone(i))
    store.ask(code, key, K1)
    store.answer(code, phone(1), 0)
    stopped = store.stop(code, key)
    assert stopped.stopped and not stopped.revealed
    seen = store.view(code, phone(1))
    assert (seen.status, seen.mine, seen.answer, seen.why) == ("closed", 0, None, "")
    with pytest.raises(RoomError, match="vote is closed"):
        store.answer(code, phone(2), 1)
    assert store.counts(code, 1) == (1, 0, 0)
    store.ask_again(code, key)  # vote 2 after the discussion
    store.answer(code, phone(2), 0)
    store.stop(code, key)
    store.ask(code, key, SAME)  # the same kind, answered alone
    store.answer(code, phone(1), 1)
    assert [(r.attempt, r.stopped, r.revealed) for r in store.rounds(code)] == [
        (1, True, False), (2, True, False), (1, False, False)
    ]  # fmt: skip
    store.reveal(code, key)
    assert [r.revealed for r in store.rounds(code)] == [True, True, True]  # the whole chain
    exported = store.export(code, key)
    assert exported["right"] == [True, True, True]  # every round's right column is filled once revealed
    assert store.view(code, phone(1)).correct is True


def test_the_reveal_leaves_an_earlier_question_s_stopped_rounds_alone(store):
    code, key = store.open_room()
    store.ask(code, key, DRAW7)
    store.stop(code, key)
    store.ask(code, key, K1)
    store.reveal(code, key)
    assert [r.revealed for r in store.rounds(code)] == [False, True]


def test_a_timed_question_closes_itself(store, clock):
    code, key = store.open_room()
    store.join(code, phone(1))
    store.join(code, phone(2))
    timed = Question("own.1", "Quick!", ("a", "b"), 0, seconds=30)
    store.ask(code, key, timed)
    assert store.view(code, phone(1)).seconds_left == 30
    clock.advance(12.5)
    assert store.answer(code, phone(1), 0).seconds_left == 18
    clock.advance(18)
    assert store.view(code, phone(2)).status == "closed"
    with pytest.raises(RoomError, match="vote is closed"):
        store.answer(code, phone(2), 1)
    assert store.counts(code, 1) == (1, 0)
    with pytest.raises(RoomError, match="timer"):
        store.ask(code, key, Question("own.2", "Slow", ("a", "b"), 0, seconds=rooms.MAX_SECONDS + 1))


def test_a_number_question_counts_below_within_and_above(store):
    code, key = store.open_room()
    estimate = Question("own.3", "How many updates?", (), 12, "It made 12.", "number", tolerance=2)
    store.ask(code, key, estimate)
    values = {1: 12, 2: "13,5", 3: 9.9, 4: 40, 5: 14}
    for i, value in values.items():
        store.join(code, phone(i))
        store.answer(code, phone(i), value, "number")
    assert store.view(code, phone(2)).mine == 13.5
    for bad in ("12 apples", float("nan"), float("inf"), 1e12, True, [12], "1" * 50):
        with pytest.raises(RoomError, match="number"):
            store.answer(code, phone(1), bad, "number")
    assert store.counts(code, 1) == (1, 3, 1)
    store.reveal(code, key)
    assert [store.view(code, phone(i)).correct for i in values] == [True, True, False, False, True]
    assert store.export(code, key)["choice"] == ["12", "13.5", "9.9", "40", "14"]


def test_the_class_keeps_its_deck_and_the_slide_of_each_question_for_the_teacher_only(store):
    code, key = store.open_room()
    text = '{"format": "classic-deck"}'
    assert store.deck(code, key) is None
    store.keep_deck(code, key, text)
    assert store.deck(code, key) == text
    store.note_slide(code, key, "knn.2", 3, "k = 2")
    assert store.slides(code, key) == {"knn.2": [3, "k = 2"]}
    for action in (lambda: store.deck(code, "wrong-key"), lambda: store.keep_deck(code, "x", text)):
        with pytest.raises(RoomError, match="Only the teacher"):
            action()
    with pytest.raises(RoomError, match="256 KiB"):
        store.keep_deck(code, key, "x" * (256 * 1024 + 1))
    with pytest.raises(RoomError, match="slide"):
        store.note_slide(code, key, "knn.2", 0, "none")
