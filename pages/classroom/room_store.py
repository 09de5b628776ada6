"""Where a class lives: one small store interface, two backends (SQLite by default, Redis).

A class must be shared by every Streamlit session (the projector, the phones) and survive a
server restart, so it lives in a store rather than in ``st.session_state``:

- **SQLite** (default): one file, ``classes.sqlite3``, under ``CLASSIC_CLASS_DIR`` (default
  ``data/classes/``), in WAL mode, a small pool of connections; ``streamlit run app.py`` needs nothing
  more.
- **Redis**: ``CLASSIC_CLASS_STORE=redis://host:port/db``, for several servers sharing classes
  (a phone joined on one server, the projector on another). Every key has a TTL, so a room
  disappears on its own when it expires.

:class:`RoomStore` holds the rules — every value checked by ``rooms``, the teacher key checked on
each teacher action, rate limits per phone — and the backends only keep rows. The one write
that races (many phones answering at once) is a single atomic statement in each backend (an
upsert in SQLite, a Lua script in Redis): written once per (room, round, phone), a second answer
replaces the first until the reveal, none is lost or counted twice.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pages.classroom import kinds, rooms
from pages.classroom.rooms import CHOOSE, PhoneView, Question, Room, RoomError, Round

Clock = Callable[[], float]
DEFAULT_DIR = Path(__file__).resolve().parents[2] / "data" / "classes"
_shared: RoomStore | None = None
_shared_lock = threading.Lock()


# A round's "revealed" field: open, revealed, or stopped (no more answers, the answer not shown).
# A write is taken only while it is open (_OPEN), in both backends.
_OPEN, _REVEALED, _STOPPED = 0, 1, 2


class RoomStore:
    """The class-mode operations, whatever keeps the rows (subclasses: SQLite, Redis).

    Teacher actions take the room's code and the teacher key; phone actions take the code and
    the phone's random id (random, kept in the phone's own address; checked by ``rooms``). Every
    refusal is a :class:`~pages.classroom.rooms.RoomError` with a message for the page to show.
    ``clock`` gives the time (tests move it to expire a room).
    """

    SCHEMES: tuple[str, ...] = ()  # the URL schemes of CLASSIC_CLASS_STORE that open this backend

    def __init__(self, clock: Clock = time.time, hours: float = rooms.HOURS) -> None:
        self.clock = clock
        self.hours = hours

    # ---- the teacher -------------------------------------------------------------------

    def open_room(self, session: str = "", size: Any = rooms.CLASS_SIZE) -> tuple[str, str]:
        """Open a room: its code (for the class) and its teacher key (for the teacher only).
        ``session`` is the teacher's session (rate-limited: ``rooms.RATE_LIMITS["open"]``; never a
        network address, which a whole school shares behind its proxy); ``size`` the class's
        size: phones beyond it wait for the teacher's OK."""
        size = rooms.check_size(size)
        window = rooms.RATE_LIMITS["open"][1]
        rooms.check_rate(self._hit(f"open:{str(session)[:64]}", window, self.clock()), "open")
        self.purge_expired()  # a teacher opening a class is rare enough to tidy up the store
        key = rooms.new_key()
        now = self.clock()
        for _ in range(20):
            code = rooms.new_code()
            if self._create(code, rooms.key_digest(key), now, now + self.hours * 3600):
                self._set_note(code, "size", str(size), self._ttl(code))
                return code, key
        raise RoomError("Could not find a free room code: try again.")

    def room(self, code: Any) -> Room | None:
        """The room with this code, or None if there is none (or it expired); an ended room is kept
        until it expires, so that its answers can still be downloaded."""
        row = self._room(rooms.check_code(code))
        if row is None or row["expires"] <= self.clock():
            return None
        return Room(row["code"], row["created"], row["expires"], bool(row["ended"]), row["rounds"])

    def is_teacher(self, code: Any, key: Any) -> bool:
        try:
            row = self._room(rooms.check_code(code))
        except RoomError:
            return False
        return row is not None and row["expires"] > self.clock() and rooms.key_matches(key, row["digest"])

    def ask(self, code: Any, key: Any, question: Question) -> Round:
        """Send a question to every phone: it opens the next round (the current one is closed)."""
        code = self._teacher(code, key)
        question = kinds.checked(question)
        attempt = 1 + sum(r.question.qid == question.qid for r in self.rounds(code))
        return self._open_round(code, question, attempt)

    def ask_again(self, code: Any, key: Any) -> Round:
        """Ask the current question again (the second vote after a discussion): a new round that
        keeps the first one's answers."""
        code = self._teacher(code, key)
        current = self.current(code)
        if current is None:
            raise RoomError("No question was asked yet.")
        return self._open_round(code, current.question, current.attempt + 1)

    def stop(self, code: Any, key: Any) -> Round:
        """Stop the vote: the current round takes no more answers, and its answer stays hidden
        (peer instruction: the teacher sees how many were right, then the class discusses)."""
        code = self._teacher(code, key)
        current = self.current(code)
        if current is None:
            raise RoomError("No question was asked yet.")
        if not current.stopped:
            self._stop(code, current.number)
        return self.current(code)

    def reveal(self, code: Any, key: Any) -> Round:
        """Show the right answer: the current round takes no more answers, and the earlier
        rounds about the same question (vote 1, vote 2 before a question of the same kind) are
        revealed with it."""
        code = self._teacher(code, key)
        rounds = self.rounds(code)
        if not rounds:
            raise RoomError("No question was asked yet.")
        root = rounds[-1].question.root
        for r in reversed(rounds):
            if r.question.root != root:
                break
            if not r.revealed:
                self._reveal(code, r.number)
        return self.current(code)

    def end(self, code: Any, key: Any) -> None:
        """Close the room: phones see that the class has ended; the answers stay until expiry."""
        self._end(self._teacher(code, key))

    def export(self, code: Any, key: Any) -> dict[str, list]:
        """Every answer of the room as CSV columns (for ``downloads.table_csv``): no names, only
        the phone's random id and its optional nickname."""
        code = self._teacher(code, key)
        names = self._phones(code)
        columns: dict[str, list] = {
            k: []
            for k in (
                "round",
                "question",
                "attempt",
                "phone",
                "nickname",
                "answer",
                "choice",
                "right",
                "read as",
                "seconds",
            )
        }
        for r in self.rounds(code):
            kind = kinds.of(r.question)
            read = self.reads(code, r.number)
            for phone, (value, at) in sorted(self._answers(code, r.number).items(), key=lambda a: a[1][1]):
                shown, right = kind.cells(value, r.question, r.revealed)
                row = (
                    r.number, r.question.qid, r.attempt, phone, names.get(phone, ""), value, shown, right,
                    read.get(phone, ""), round(at - r.asked_at, 3),
                )  # fmt: skip
                for column, cell in zip(columns, row, strict=True):
                    columns[column].append(cell)
        return columns

    # ---- the deck the class plays (the teacher's; a phone never reads it: it holds answers) -----

    MAX_DECK = 256 * 1024  # a deck file's limit (classic.lessons.decks.MAX_BYTES)

    def keep_deck(self, code: Any, key: Any, text: Any) -> None:
        """Keep the deck the class plays (its file's text) with the class, until it expires."""
        code = self._teacher(code, key)
        if not isinstance(text, str) or len(text.encode("utf-8", "replace")) > self.MAX_DECK:
            raise RoomError("A lesson is a file of at most 256 KiB.")
        self._set_note(code, "deck", text, self._ttl(code))

    def deck(self, code: Any, key: Any) -> str | None:
        """The deck the class plays, as its file's text (None: none)."""
        return self._note(self._teacher(code, key), "deck")

    def note_slide(self, code: Any, key: Any, qid: Any, slide: Any, title: Any) -> None:
        """Remember that question ``qid`` was asked on slide ``slide`` (1-based) titled ``title``
        of the class's deck: the report lists the questions slide by slide."""
        code = self._teacher(code, key)
        if (
            not isinstance(qid, str)
            or not isinstance(slide, int)
            or isinstance(slide, bool)
            or not 1 <= slide <= 40
        ):
            raise RoomError("A slide is a number from 1 to 40.")
        slides = self.slides(code, key)
        if len(slides) >= 500:
            raise RoomError("This class has asked too many questions to note more.")
        slides[qid[:80]] = [slide, str(title)[:120]]
        self._set_note(code, "slides", json.dumps(slides), self._ttl(code))

    def slides(self, code: Any, key: Any) -> dict[str, list]:
        """Each question asked from the deck (its id) with its slide's number and title."""
        note = self._note(self._teacher(code, key), "slides")
        return {} if note is None else json.loads(note)

    def answers(self, code: Any, key: Any, number: int) -> dict[str, tuple[str, float]]:
        """Every phone's answer to round ``number`` and when it came (the teacher's report)."""
        return self._answers(self._teacher(code, key), number)

    # ---- what everyone may read (the projector, the phones) --------------------------------

    def rounds(self, code: Any) -> list[Round]:
        return [self._as_round(row) for row in self._rounds(rooms.check_code(code))]

    def current(self, code: Any) -> Round | None:
        room = self.room(code)
        if room is None or room.rounds == 0:
            return None
        row = self._round(room.code, room.rounds)
        return None if row is None else self._as_round(row)

    def counts(self, code: Any, number: int) -> tuple[int, ...]:
        """Round ``number``'s answers as its kind counts them (one number per choice)."""
        code = rooms.check_code(code)
        row = self._round(code, number)
        if row is None:
            return ()
        question = Question.from_json(row["question"])
        return kinds.of(question).tally(self._tally(code, number), question)

    def answered(self, code: Any, number: int) -> int:
        """How many phones answered (or drew in) round ``number``."""
        return self._answered(rooms.check_code(code), number)

    def joined(self, code: Any) -> int:
        return self._joined(rooms.check_code(code))

    def drawings(self, code: Any, number: int) -> dict[str, tuple[int, ...]]:
        """Each phone's 16×16 drawing (256 cells of 0/1, row by row) in a drawing round."""
        answers = self._answers(rooms.check_code(code), number)
        return {phone: tuple(int(c) for c in value) for phone, (value, _) in answers.items()}

    # ---- the teacher's say over what the class sent (Draw together) -------------------------

    def marks(self, code: Any, number: int) -> dict[str, frozenset[str]]:
        """The teacher's marks on each phone's answer in round ``number`` (``rooms.MARKS``):
        hidden from the projector, approved for it, taught to the model."""
        return {phone: frozenset(m) for phone, m in self._marks(rooms.check_code(code), number).items()}

    def mark(self, code: Any, key: Any, number: Any, phones: Any, mark: Any, on: bool = True) -> int:
        """Set (or clear) ``mark`` on these phones' answers in round ``number``; how many changed.
        A hidden answer is never taught: hiding one takes its teaching back, and teaching skips
        the hidden ones."""
        code = self._teacher(code, key)
        mark = rooms.check_mark(mark)
        if isinstance(number, bool) or not isinstance(number, int) or self._round(code, number) is None:
            raise RoomError("There is no such round in this class.")
        answered = self._answers(code, number)
        chosen = [
            rooms.check_phone(p) for p in (phones if isinstance(phones, (list, tuple, set)) else [phones])
        ]
        if len(chosen) > rooms.MAX_MARKED:
            raise RoomError(f"At most {rooms.MAX_MARKED} answers at a time.")
        marks = self._marks(code, number)
        changed = 0
        for phone in chosen:
            if phone not in answered or (on and mark == "taught" and "hidden" in marks.get(phone, ())):
                continue
            self._set_mark(code, number, phone, mark, on, self._ttl(code))
            if on and mark == "hidden":
                self._set_mark(code, number, phone, "taught", False, self._ttl(code))
            changed += 1
        return changed

    def reads(self, code: Any, number: int) -> dict[str, int]:
        """The label the projector's model last gave each phone's drawing in round ``number``."""
        note = self._note(rooms.check_code(code), f"read:{number}")
        return {} if note is None else {phone: int(label) for phone, label in json.loads(note).items()}

    def record_reads(self, code: Any, key: Any, number: Any, labels: Any) -> None:
        """Keep the labels the projector's model gave round ``number``'s drawings (for the CSV)."""
        code = self._teacher(code, key)
        if isinstance(number, bool) or not isinstance(number, int) or self._round(code, number) is None:
            raise RoomError("There is no such round in this class.")
        answered = self._answers(code, number)
        kept = {
            rooms.check_phone(phone): int(label)
            for phone, label in dict(labels).items()
            if phone in answered
            and isinstance(label, int)
            and not isinstance(label, bool)
            and 0 <= label <= 9
        }
        self._set_note(
            code, f"read:{number}", json.dumps({**self.reads(code, number), **kept}), self._ttl(code)
        )

    def holding(self, code: Any) -> bool:
        """Whether the projector shows the class's drawings only once the teacher approved them."""
        return self._note(rooms.check_code(code), "hold") == "1"

    def hold(self, code: Any, key: Any, on: bool) -> None:
        code = self._teacher(code, key)
        self._set_note(code, "hold", "1" if on else "0", self._ttl(code))

    def taught(self, code: Any) -> list[tuple[int, str]]:
        """Every (round, phone) whose drawing the teacher taught the model, round by round."""
        code = rooms.check_code(code)
        return [
            (r.number, phone)
            for r in self.rounds(code)
            for phone, marks in sorted(self._marks(code, r.number).items())
            if "taught" in marks and "hidden" not in marks
        ]

    # ---- a phone ------------------------------------------------------------------------

    def join(self, code: Any, phone: Any, nickname: Any = "") -> PhoneView:
        """A phone joins (or joins again, with a new nickname); it sees the current question. A
        new phone in a locked room is refused; one beyond the class's size waits for the teacher
        (``admit``); joins per room are rate-bounded, so a script cannot pour phones in."""
        phone = rooms.check_phone(phone)
        rooms.check_rate(self._hit(f"join:{phone}", rooms.RATE_LIMITS["join"][1], self.clock()), "join")
        code = rooms.check_code(code)
        name = rooms.check_nickname(nickname)
        self._open(code)
        if not self._has_phone(code, phone):
            if self.locked(code):
                raise RoomError("This class is closed to new phones: ask your teacher.")
            size = self.size(code)
            limit, window = rooms.room_join_rate(size)
            if self._hit(f"joinroom:{code}", window, self.clock()) > limit:
                self._count_refused(code)
                raise RoomError("Many phones are joining at once: try again in a few seconds.")
            # The count and the join in one atomic step: phones joining at once never pass the size
            # together (62 of a class of 60 got in, when they were two steps).
            if not self._join_within(code, phone, name, self.clock(), size):
                self._set_mark(code, 0, phone, "waiting", True, self._ttl(code))
                return PhoneView("full")
            return self.view(code, phone)
        self._join(code, phone, name, self.clock())
        return self.view(code, phone)

    def refused(self, code: Any) -> int:
        """How many new phones the room's join rate turned away (a script flooding the room shows
        on the projector as this number, not as phones)."""
        note = self._note(rooms.check_code(code), "refused")
        return int(note) if note and note.isdigit() else 0

    def _count_refused(self, code: str) -> None:
        self._set_note(code, "refused", str(self.refused(code) + 1), self._ttl(code))

    def size(self, code: Any) -> int:
        """The class's size (the phones let in without the teacher's OK)."""
        note = self._note(rooms.check_code(code), "size")
        return int(note) if note and note.isdigit() else rooms.CLASS_SIZE

    def locked(self, code: Any) -> bool:
        return self._note(rooms.check_code(code), "locked") == "1"

    def waiting(self, code: Any) -> list[str]:
        """The phones that asked to join a full class, waiting for the teacher's OK."""
        return sorted(self._marks(rooms.check_code(code), 0))

    def lock(self, code: Any, key: Any, on: bool) -> None:
        """Close the room to new phones (everyone is in), or open it again."""
        code = self._teacher(code, key)
        self._set_note(code, "locked", "1" if on else "0", self._ttl(code))

    def admit(self, code: Any, key: Any) -> int:
        """Let in every phone waiting to join (the class is larger than its size); how many."""
        code = self._teacher(code, key)
        waiting = self._marks(code, 0)
        for phone in waiting:
            self._join(code, phone, "", self.clock())
            self._set_mark(code, 0, phone, "waiting", False, self._ttl(code))
        return len(waiting)

    def answer(self, code: Any, phone: Any, value: Any, kind: str = CHOOSE) -> PhoneView:
        """A phone's answer to the current round, for a question of ``kind`` (the kind the phone
        showed), checked by that kind; a new one replaces it until the reveal."""
        phone = rooms.check_phone(phone)
        rooms.check_rate(self._hit(f"answer:{phone}", rooms.RATE_LIMITS["answer"][1], self.clock()), "answer")
        code = rooms.check_code(code)
        self._open(code)
        if not self._has_phone(code, phone):
            raise RoomError("Join the class first: reload the page.")
        current = self.current(code)
        if current is None:
            raise RoomError("No question yet: wait for the teacher.")
        asked = kinds.of(current.question)
        if asked.name != kind:
            raise RoomError(f"This question asks for {asked.asks}.")
        value = asked.check(value, current.question)
        if current.closed(self.clock()) and not current.revealed:
            raise RoomError("The vote is closed: wait for the teacher.")
        if not self._write(code, current.number, phone, value, self.clock(), self._ttl(code)):
            raise RoomError("The answer was revealed (or a new question asked): answers are closed.")
        return self.view(code, phone)

    def view(self, code: Any, phone: Any) -> PhoneView:
        """What this phone sees now: waiting, the question (with its own choice), the reveal
        (right answer and why), or the end. An unknown room is refused."""
        room = self.room(code)
        if room is None:
            raise RoomError(_unknown(code))
        if room.ended:
            return PhoneView("ended")
        if not self._has_phone(room.code, phone):
            return PhoneView("full")
        current = self.current(room.code)
        if current is None:
            return PhoneView("waiting")
        q, kind = current.question, kinds.of(current.question)
        mine = self._answer(room.code, current.number, phone)
        chosen = None if mine is None else kind.mine(mine[0])
        if not current.revealed:
            now = self.clock()
            if current.closed(now):
                return PhoneView("closed", current.number, q.kind, q.text, q.choices, chosen)
            left = None if current.closes_at is None else max(0, math.ceil(current.closes_at - now))
            return PhoneView("question", current.number, q.kind, q.text, q.choices, chosen, seconds_left=left)
        right = None if mine is None else kind.right(mine[0], q)
        return PhoneView(
            "revealed", current.number, q.kind, q.text, q.choices, chosen, q.answer, q.why, right,
            tolerance=q.tolerance,
        )  # fmt: skip

    # ---- housekeeping -----------------------------------------------------------------

    def purge_expired(self) -> int:
        """Remove every expired room with its rounds and answers; how many were removed."""
        codes = self._expired(self.clock())
        for code in codes:
            self._delete(code)
        return len(codes)

    def close(self) -> None:
        """Release connections (the store's data stays)."""

    # ---- the rules shared by both backends ---------------------------------------------------

    def _teacher(self, code: Any, key: Any) -> str:
        code = rooms.check_code(code)
        if not self.is_teacher(code, key):
            raise RoomError("Only the teacher of this class can do that.")
        return code

    def _open(self, code: str) -> Room:
        room = self.room(code)
        if room is None:
            raise RoomError(_unknown(code))
        if room.ended:
            raise RoomError("This class has ended: thank you for taking part.")
        return room

    def _open_round(self, code: str, question: Question, attempt: int) -> Round:
        number = self._add_round(code, question.to_json(), attempt, self.clock(), self._ttl(code))
        if number is None:
            raise RoomError("This class has ended: start a new class to ask again.")
        return self._as_round(self._round(code, number))

    def _ttl(self, code: str) -> int:
        row = self._room(code)
        return max(1, math.ceil(row["expires"] - self.clock())) if row else 1

    @staticmethod
    def _as_round(row: dict) -> Round:
        return Round(
            row["number"],
            Question.from_json(row["question"]),
            row["attempt"],
            row["asked"],
            row["revealed"] == _REVEALED,
            row["revealed"] != _OPEN,
        )

    # ---- what a backend provides ---------------------------------------------------------

    def _create(self, code: str, digest: str, created: float, expires: float) -> bool:
        raise NotImplementedError

    def _room(self, code: str) -> dict | None:
        raise NotImplementedError

    def _add_round(self, code: str, question: str, attempt: int, now: float, ttl: int) -> int | None:
        raise NotImplementedError

    def _round(self, code: str, number: int) -> dict | None:
        raise NotImplementedError

    def _rounds(self, code: str) -> list[dict]:
        raise NotImplementedError

    def _reveal(self, code: str, number: int) -> None:
        raise NotImplementedError

    def _stop(self, code: str, number: int) -> None:
        """Mark round ``number`` stopped (``_STOPPED``) unless it is revealed."""
        raise NotImplementedError

    def _end(self, code: str) -> None:
        raise NotImplementedError

    def _join(self, code: str, phone: str, nickname: str, now: float) -> None:
        raise NotImplementedError

    def _phones(self, code: str) -> dict[str, str]:
        raise NotImplementedError

    def _join_within(self, code: str, phone: str, nickname: str, now: float, size: int) -> bool:
        """Atomically: join the phone if the room has fewer than ``size`` phones; whether it did."""
        raise NotImplementedError

    def _write(self, code: str, number: int, phone: str, value: str, now: float, ttl: int) -> bool:
        """Atomically: write (or replace) the phone's answer if ``number`` is the room's current,
        unrevealed round and the room has not ended."""
        raise NotImplementedError

    def _answers(self, code: str, number: int) -> dict[str, tuple[str, float]]:
        raise NotImplementedError

    def _marks(self, code: str, number: int) -> dict[str, set[str]]:
        raise NotImplementedError

    # What a phone's poll and the projector's count read: one row, or a count, never every answer.

    def _answer(self, code: str, number: int, phone: str) -> tuple[str, float] | None:
        raise NotImplementedError

    def _answered(self, code: str, number: int) -> int:
        raise NotImplementedError

    def _tally(self, code: str, number: int) -> dict[str, int]:
        """How many phones gave each stored value in round ``number``."""
        raise NotImplementedError

    def _joined(self, code: str) -> int:
        raise NotImplementedError

    def _has_phone(self, code: str, phone: str) -> bool:
        raise NotImplementedError

    def _set_mark(self, code: str, number: int, phone: str, mark: str, on: bool, ttl: int) -> None:
        raise NotImplementedError

    def _note(self, code: str, name: str) -> str | None:
        raise NotImplementedError

    def _set_note(self, code: str, name: str, value: str, ttl: int) -> None:
        raise NotImplementedError

    def _hit(self, key: str, window: float, now: float) -> int:
        """Count one action under ``key`` in the current window of ``window`` seconds."""
        raise NotImplementedError

    def _expired(self, now: float) -> list[str]:
        raise NotImplementedError

    def _delete(self, code: str) -> None:
        raise NotImplementedError


def _unknown(code: Any) -> str:
    return f"No class has the code {rooms.check_code(code)}: check the code on the projector (or the class has ended)."


# ---- SQLite -------------------------------------------------------------------------------

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY, digest TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL,
    ended INTEGER NOT NULL DEFAULT 0, rounds INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS rounds (
    code TEXT NOT NULL, number INTEGER NOT NULL, question TEXT NOT NULL, attempt INTEGER NOT NULL,
    asked REAL NOT NULL, revealed INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (code, number));
CREATE TABLE IF NOT EXISTS phones (
    code TEXT NOT NULL, phone TEXT NOT NULL, nickname TEXT NOT NULL, joined REAL NOT NULL,
    PRIMARY KEY (code, phone));
CREATE TABLE IF NOT EXISTS answers (
    code TEXT NOT NULL, number INTEGER NOT NULL, phone TEXT NOT NULL, value TEXT NOT NULL,
    at REAL NOT NULL, PRIMARY KEY (code, number, phone));
CREATE TABLE IF NOT EXISTS hits (key TEXT PRIMARY KEY, start REAL NOT NULL, count INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS marks (
    code TEXT NOT NULL, number INTEGER NOT NULL, phone TEXT NOT NULL, mark TEXT NOT NULL,
    PRIMARY KEY (code, number, phone, mark));
CREATE TABLE IF NOT EXISTS notes (
    code TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (code, name));
"""


class SQLiteStore(RoomStore):
    """Classes in one SQLite file (WAL: the phones' writes do not block the projector's reads).

    Connections are borrowed from a small pool for one action and given back: Streamlit runs
    every rerun, and every tick of a fragment, in a new thread, so a connection per thread would
    leave two open files behind each tick (a projector's class panel ticks every second, each
    phone every two) until the server ran out of file descriptors. Writers wait for each other
    up to ``timeout`` seconds instead of failing.
    """

    SCHEMES: tuple[str, ...] = ()  # the default backend: no URL
    IDLE = 8  # connections kept open between actions; more are opened while many act at once

    def __init__(
        self, path: str | Path, clock: Clock = time.time, hours: float = rooms.HOURS, timeout: float = 30.0
    ):
        super().__init__(clock, hours)
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.timeout = timeout
        self._lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []
        with self._db() as db:
            db.executescript(_SCHEMA)

    def __repr__(self) -> str:
        return f"SQLiteStore({str(self.path)!r})"

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False)
        db.row_factory = sqlite3.Row
        db.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        return db

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        """A connection for one action (one statement, or one transaction), then back to the pool."""
        with self._lock:
            db = self._idle.pop() if self._idle else None
        db = db or self._connect()
        try:
            yield db
        finally:
            if db.in_transaction:  # an action interrupted mid-transaction: never lend it on so
                db.close()
            else:
                with self._lock:
                    keep = len(self._idle) < self.IDLE
                    if keep:
                        self._idle.append(db)
                if not keep:
                    db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A connection inside one write transaction: committed at the end, rolled back on an error."""
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def open_connections(self) -> int:
        """How many connections wait in the pool (a test's measure of the leak it prevents)."""
        with self._lock:
            return len(self._idle)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for db in idle:
            db.close()

    def _one(self, sql: str, *args: Any) -> dict | None:
        with self._db() as db:
            row = db.execute(sql, args).fetchone()
        return None if row is None else dict(row)

    def _all(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        with self._db() as db:
            return db.execute(sql, args).fetchall()

    def _run(self, sql: str, *args: Any) -> int:
        """One statement that writes; its row count."""
        with self._db() as db:
            return db.execute(sql, args).rowcount

    def _create(self, code, digest, created, expires):
        try:
            self._run("INSERT INTO rooms (code, digest, created, expires) VALUES (?, ?, ?, ?)",
                      code, digest, created, expires)  # fmt: skip
        except sqlite3.IntegrityError:
            return False
        return True

    def _room(self, code):
        return self._one("SELECT * FROM rooms WHERE code = ?", code)

    def _add_round(self, code, question, attempt, now, ttl):
        with self._transaction() as db:
            # fetchall, not fetchone: a RETURNING statement left unfinished keeps its transaction open.
            rows = db.execute(
                "UPDATE rooms SET rounds = rounds + 1 WHERE code = ? AND ended = 0 RETURNING rounds", (code,)
            ).fetchall()
            row = rows[0] if rows else None
            if row is not None:
                db.execute("INSERT INTO rounds (code, number, question, attempt, asked) VALUES (?, ?, ?, ?, ?)",
                           (code, row[0], question, attempt, now))  # fmt: skip
        return None if row is None else row[0]

    def _round(self, code, number):
        return self._one("SELECT * FROM rounds WHERE code = ? AND number = ?", code, number)

    def _rounds(self, code):
        return [dict(r) for r in self._all("SELECT * FROM rounds WHERE code = ? ORDER BY number", code)]

    def _reveal(self, code, number):
        self._run("UPDATE rounds SET revealed = ? WHERE code = ? AND number = ?", _REVEALED, code, number)

    def _stop(self, code, number):
        self._run("UPDATE rounds SET revealed = ? WHERE code = ? AND number = ? AND revealed = ?",
                  _STOPPED, code, number, _OPEN)  # fmt: skip

    def _end(self, code):
        self._run("UPDATE rooms SET ended = 1 WHERE code = ?", code)

    def _join(self, code, phone, nickname, now):
        self._run(
            "INSERT INTO phones (code, phone, nickname, joined) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (code, phone) DO UPDATE SET nickname = excluded.nickname",
            code, phone, nickname, now,
        )  # fmt: skip

    def _phones(self, code):
        return {r[0]: r[1] for r in self._all("SELECT phone, nickname FROM phones WHERE code = ?", code)}

    def _join_within(self, code, phone, nickname, now, size):
        # One statement, so one atomic step (SQLite runs one writer at a time).
        return self._run(
            "INSERT INTO phones (code, phone, nickname, joined) SELECT ?, ?, ?, ? "
            "WHERE (SELECT COUNT(*) FROM phones WHERE code = ?) < ? "
            "OR EXISTS (SELECT 1 FROM phones WHERE code = ? AND phone = ?) "
            "ON CONFLICT (code, phone) DO UPDATE SET nickname = excluded.nickname",
            code, phone, nickname, now, code, size, code, phone,
        ) == 1  # fmt: skip

    def _write(self, code, number, phone, value, now, ttl):
        # One statement, so one atomic step: the check (current round, not revealed, room open)
        # and the upsert cannot be split by another writer.
        upsert = (
            "INSERT INTO answers (code, number, phone, value, at) SELECT ?, ?, ?, ?, ? WHERE EXISTS ("
            " SELECT 1 FROM rooms JOIN rounds ON rounds.code = rooms.code AND rounds.number = rooms.rounds"
            " WHERE rooms.code = ? AND rooms.ended = 0 AND rounds.number = ? AND rounds.revealed = 0)"
            " ON CONFLICT (code, number, phone) DO UPDATE SET value = excluded.value, at = excluded.at"
        )
        return self._run(upsert, code, number, phone, value, now, code, number) == 1

    def _answers(self, code, number):
        rows = self._all("SELECT phone, value, at FROM answers WHERE code = ? AND number = ?", code, number)
        return {r[0]: (r[1], r[2]) for r in rows}

    def _answer(self, code, number, phone):
        row = self._one(
            "SELECT value, at FROM answers WHERE code = ? AND number = ? AND phone = ?", code, number, phone
        )
        return None if row is None else (row["value"], row["at"])

    def _answered(self, code, number):
        return self._all("SELECT COUNT(*) FROM answers WHERE code = ? AND number = ?", code, number)[0][0]

    def _tally(self, code, number):
        rows = self._all(
            "SELECT value, COUNT(*) FROM answers WHERE code = ? AND number = ? GROUP BY value", code, number
        )
        return {r[0]: r[1] for r in rows}

    def _joined(self, code):
        return self._all("SELECT COUNT(*) FROM phones WHERE code = ?", code)[0][0]

    def _has_phone(self, code, phone):
        return self._one("SELECT 1 AS one FROM phones WHERE code = ? AND phone = ?", code, phone) is not None

    def _marks(self, code, number):
        marks: dict[str, set[str]] = {}
        for phone, mark in self._all(
            "SELECT phone, mark FROM marks WHERE code = ? AND number = ?", code, number
        ):
            marks.setdefault(phone, set()).add(mark)
        return marks

    def _set_mark(self, code, number, phone, mark, on, ttl):
        if on:
            self._run("INSERT OR IGNORE INTO marks (code, number, phone, mark) VALUES (?, ?, ?, ?)",
                      code, number, phone, mark)  # fmt: skip
        else:
            self._run("DELETE FROM marks WHERE code = ? AND number = ? AND phone = ? AND mark = ?",
                      code, number, phone, mark)  # fmt: skip

    def _note(self, code, name):
        row = self._one("SELECT value FROM notes WHERE code = ? AND name = ?", code, name)
        return None if row is None else row["value"]

    def _set_note(self, code, name, value, ttl):
        self._run("INSERT INTO notes (code, name, value) VALUES (?, ?, ?) ON CONFLICT (code, name) DO UPDATE "
                  "SET value = excluded.value", code, name, value)  # fmt: skip

    def _hit(self, key, window, now):
        rows = self._all(
            "INSERT INTO hits (key, start, count) VALUES (?, ?, 1) ON CONFLICT (key) DO UPDATE SET "
            "count = CASE WHEN hits.start = excluded.start THEN hits.count + 1 ELSE 1 END, "
            "start = excluded.start RETURNING count",
            key, (now // window) * window,
        )  # fmt: skip
        return rows[0][0]

    def _expired(self, now):
        # Rate-limit counters are only useful within their window: old ones go with the rooms.
        self._run("DELETE FROM hits WHERE start < ?", now - 3600)
        return [r[0] for r in self._all("SELECT code FROM rooms WHERE expires <= ?", now)]

    def _delete(self, code):
        with self._transaction() as db:
            for table in ("answers", "phones", "marks", "notes", "rounds", "rooms"):
                db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))


# ---- Redis --------------------------------------------------------------------------------

# KEYS[1] the room, KEYS[2] the new round's prefix; ARGV question, attempt, now, ttl.
_ADD_ROUND = """
local ended = redis.call('HGET', KEYS[1], 'ended')
if ended ~= '0' then return -1 end
local n = redis.call('HINCRBY', KEYS[1], 'rounds', 1)
local key = KEYS[2] .. n
redis.call('HSET', key, 'number', n, 'question', ARGV[1], 'attempt', ARGV[2], 'asked', ARGV[3], 'revealed', 0)
redis.call('EXPIRE', key, ARGV[4])
return n
"""
# KEYS[1] the room, KEYS[2] the round, KEYS[3] its answers, KEYS[4] its tally (answers per
# value, kept as they change so that a count never reads every answer); ARGV number, phone,
# [value, at] as JSON, value, ttl.
_WRITE = """
local room = redis.call('HMGET', KEYS[1], 'ended', 'rounds')
if room[1] ~= '0' or room[2] ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[2], 'revealed') ~= '0' then return 0 end
local before = redis.call('HGET', KEYS[3], ARGV[2])
if before then redis.call('HINCRBY', KEYS[4], cjson.decode(before)[1], -1) end
redis.call('HINCRBY', KEYS[4], ARGV[4], 1)
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[3], ARGV[5])
redis.call('EXPIRE', KEYS[4], ARGV[5])
return 1
"""
# KEYS[1] the round; ARGV the stopped state: set only on an open round (a revealed one stays so).
_STOP = """
if redis.call('HGET', KEYS[1], 'revealed') == '0' then redis.call('HSET', KEYS[1], 'revealed', ARGV[1]) end
return 0
"""
# KEYS[1] the room's phones; ARGV phone, nickname, size, ttl: a new phone joins only below the size.
_JOIN = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""
# KEYS[1] the counter; ARGV the window in seconds.
_HIT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n
"""


class RedisStore(RoomStore):
    """Classes in Redis, for several servers: every key carries the room's TTL, and the room's
    keys share a hash tag (``{CODE}``) so that its scripts stay on one node of a cluster."""

    SCHEMES = ("redis://", "rediss://", "unix://")

    def __init__(
        self, url: str, clock: Clock = time.time, hours: float = rooms.HOURS, prefix: str = "classic"
    ):
        import redis  # only a deployment that asks for Redis needs the client

        super().__init__(clock, hours)
        self.url = url
        self.prefix = prefix
        self.db = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=10, health_check_interval=30
        )
        self._add_round_script = self.db.register_script(_ADD_ROUND)
        self._write_script = self.db.register_script(_WRITE)
        self._hit_script = self.db.register_script(_HIT)
        self._stop_script = self.db.register_script(_STOP)
        self._join_script = self.db.register_script(_JOIN)

    def __repr__(self) -> str:
        return f"RedisStore({self.url!r})"

    def close(self) -> None:
        self.db.close()

    def _key(self, code: str, *parts: Any) -> str:
        return ":".join([f"{self.prefix}:room:{{{code}}}", *map(str, parts)])

    def _create(self, code, digest, created, expires):
        key = self._key(code)
        if not self.db.hsetnx(key, "digest", digest):
            return False
        pipe = self.db.pipeline()
        pipe.hset(
            key, mapping={"code": code, "created": created, "expires": expires, "ended": 0, "rounds": 0}
        )
        pipe.expire(key, max(1, math.ceil(expires - created)))
        pipe.zadd(f"{self.prefix}:rooms", {code: expires})
        pipe.execute()
        return True

    def _room(self, code):
        row = self.db.hgetall(self._key(code))
        if "rounds" not in row:
            return None
        return {"code": code, "digest": row["digest"], "created": float(row["created"]),
                "expires": float(row["expires"]), "ended": int(row["ended"]), "rounds": int(row["rounds"])}  # fmt: skip

    def _add_round(self, code, question, attempt, now, ttl):
        n = self._add_round_script(keys=[self._key(code), self._key(code, "round", "")],
                                   args=[question, attempt, now, ttl])  # fmt: skip
        return None if n < 0 else n

    @staticmethod
    def _round_row(row: dict) -> dict | None:
        if "question" not in row:
            return None
        return {"number": int(row["number"]), "question": row["question"], "attempt": int(row["attempt"]),
                "asked": float(row["asked"]), "revealed": int(row["revealed"])}  # fmt: skip

    def _round(self, code, number):
        return self._round_row(self.db.hgetall(self._key(code, "round", number)))

    def _rounds(self, code):
        room = self._room(code)
        if room is None:
            return []
        pipe = self.db.pipeline()
        for n in range(1, room["rounds"] + 1):
            pipe.hgetall(self._key(code, "round", n))
        return [r for r in map(self._round_row, pipe.execute()) if r is not None]

    def _reveal(self, code, number):
        self.db.hset(self._key(code, "round", number), "revealed", _REVEALED)

    def _stop(self, code, number):
        self._stop_script(keys=[self._key(code, "round", number)], args=[_STOPPED])

    def _end(self, code):
        self.db.hset(self._key(code), "ended", 1)

    def _join(self, code, phone, nickname, now):
        key = self._key(code, "phones")
        pipe = self.db.pipeline()
        pipe.hset(key, phone, nickname)
        pipe.expire(key, self._ttl(code))
        pipe.execute()

    def _phones(self, code):
        return self.db.hgetall(self._key(code, "phones"))

    def _join_within(self, code, phone, nickname, now, size):
        key = self._key(code, "phones")
        return bool(self._join_script(keys=[key], args=[phone, nickname, size, self._ttl(code)]))

    def _write(self, code, number, phone, value, now, ttl):
        keys = [self._key(code), self._key(code, "round", number), self._key(code, "answers", number),
                self._key(code, "tally", number)]  # fmt: skip
        return bool(self._write_script(keys=keys, args=[number, phone, json.dumps([value, now]), value, ttl]))

    def _answers(self, code, number):
        rows = self.db.hgetall(self._key(code, "answers", number))
        return {phone: tuple(json.loads(v)) for phone, v in rows.items()}

    def _answer(self, code, number, phone):
        value = self.db.hget(self._key(code, "answers", number), phone)
        return None if value is None else tuple(json.loads(value))

    def _answered(self, code, number):
        return self.db.hlen(self._key(code, "answers", number))

    def _tally(self, code, number):
        return {
            value: int(n)
            for value, n in self.db.hgetall(self._key(code, "tally", number)).items()
            if int(n) > 0
        }

    def _joined(self, code):
        return self.db.hlen(self._key(code, "phones"))

    def _has_phone(self, code, phone):
        return bool(self.db.hexists(self._key(code, "phones"), phone))

    def _marks(self, code, number):
        marks: dict[str, set[str]] = {}
        pipe = self.db.pipeline()
        for mark in rooms.MARKS:
            pipe.smembers(self._key(code, "marks", number, mark))
        for mark, phones in zip(rooms.MARKS, pipe.execute(), strict=True):
            for phone in phones:
                marks.setdefault(phone, set()).add(mark)
        return marks

    def _set_mark(self, code, number, phone, mark, on, ttl):
        key = self._key(code, "marks", number, mark)
        pipe = self.db.pipeline()
        pipe.sadd(key, phone) if on else pipe.srem(key, phone)
        pipe.expire(key, ttl)
        pipe.execute()

    def _note(self, code, name):
        return self.db.hget(self._key(code, "notes"), name)

    def _set_note(self, code, name, value, ttl):
        pipe = self.db.pipeline()
        pipe.hset(self._key(code, "notes"), name, value)
        pipe.expire(self._key(code, "notes"), ttl)
        pipe.execute()

    def _hit(self, key, window, now):
        return int(
            self._hit_script(keys=[f"{self.prefix}:hit:{key}:{int(now // window)}"], args=[math.ceil(window)])
        )

    def _expired(self, now):
        return list(self.db.zrangebyscore(f"{self.prefix}:rooms", "-inf", now))

    def _delete(self, code):
        room = self._room(code)
        keys = [self._key(code), self._key(code, "phones"), self._key(code, "notes")]
        keys += [self._key(code, "marks", 0, mark) for mark in rooms.MARKS]  # the phones waiting
        for n in range(1, (room["rounds"] if room else 0) + 1):
            keys += [self._key(code, "round", n), self._key(code, "answers", n), self._key(code, "tally", n)]
            keys += [self._key(code, "marks", n, mark) for mark in rooms.MARKS]
        pipe = self.db.pipeline()
        pipe.delete(*keys)
        pipe.zrem(f"{self.prefix}:rooms", code)
        pipe.execute()


# Every backend by name; a URL in CLASSIC_CLASS_STORE picks the one whose SCHEMES it starts with,
# and SQLite (no URL) is the default. A new backend is one class and one entry.
BACKENDS: dict[str, type[RoomStore]] = {"sqlite": SQLiteStore, "redis": RedisStore}


def open_store(
    url: str | None = None, directory: str | Path | None = None, clock: Clock = time.time
) -> RoomStore:
    """The store the environment asks for: the backend whose URL scheme ``CLASSIC_CLASS_STORE``
    (or ``url``) has (``redis://``, ``rediss://``, ``unix://``: Redis), else SQLite under
    ``CLASSIC_CLASS_DIR`` (or ``directory``, default ``data/classes/``)."""
    url = url if url is not None else os.environ.get("CLASSIC_CLASS_STORE", "")
    if not url:
        folder = Path(directory or os.environ.get("CLASSIC_CLASS_DIR") or DEFAULT_DIR)
        return SQLiteStore(folder / "classes.sqlite3", clock)
    for backend in BACKENDS.values():
        if backend.SCHEMES and url.startswith(backend.SCHEMES):
            return backend(url, clock)
    schemes = ", ".join(scheme for backend in BACKENDS.values() for scheme in backend.SCHEMES)
    raise ValueError(
        f"CLASSIC_CLASS_STORE must be a URL starting with {schemes} (or unset for SQLite), got {url!r}"
    )


def shared_store() -> RoomStore:
    """The server's one store, opened on first use and shared by every session (thread)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = open_store()
        return _shared


def unavailable_errors() -> tuple[type[BaseException], ...]:
    """The errors of a store that cannot be reached (a Redis down, a SQLite file locked for too
    long): a page shows "try again" for them instead of a traceback."""
    errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)
    try:
        import redis
    except ImportError:
        return errors
    return (*errors, redis.RedisError)
