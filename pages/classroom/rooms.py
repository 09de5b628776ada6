"""Class mode's room model: what a class is, and the one place where a phone's values are checked.

A teacher opens a **room** (a short code the class types or scans, and a secret teacher key that
never leaves the teacher's link). The teacher asks a **question** — a "Try this" step's text,
its choices, the right one and why — which opens a **round**; "ask again" after a discussion
opens the next round of the same question and keeps the first (peer instruction's two votes). A
phone answers the current round once; a second tap replaces its choice until the reveal. A
drawing round ("Everyone draws a 7" on /digits) collects a 16×16 grid per phone instead.

Everything a phone sends — the room code, its id, a nickname — is checked here and nowhere else;
its answer is checked by its question's kind (``kinds``, one entry a kind). A bad value raises
:class:`RoomError`, whose message the page shows as is.
The store (``room_store``) keeps rooms, rounds and answers; this module holds no state.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

# No look-alikes: no 0/O, no 1/I/L (and no U/V pair trouble on a projector is not worth a letter).
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 5  # 31**5 ≈ 28.6 million codes: a guesser limited to a few joins a minute finds none
HOURS = 12  # a room lives this long after it opens, then it is removed with its answers
MAX_NICKNAME = 20
MAX_CHOICES = 8
MAX_TEXT = 2000  # a question's text or its why; the lessons' longest step is far shorter
MAX_SECONDS = 600  # a question's timer
CHOOSE = "choose"  # a question's default kind (every kind: pages/classroom/kinds.py)
# What the teacher can say of a phone's answer (a drawing): hidden from the projector, approved
# for it (while drawings are held back), taught to the model.
MARKS = ("hidden", "approved", "taught", "waiting")  # "waiting": a phone beyond the class's size
CLASS_SIZE = 60  # phones let in without the teacher's OK, unless the teacher says otherwise
MAX_CLASS_SIZE = 1000
MAX_MARKED = 500  # answers marked in one action
# At most this many actions in a window of this many seconds: per phone (join, answer), and per
# network address for opening a class (a script opening rooms in a loop fills no store).
RATE_LIMITS = {"join": (10, 60.0), "answer": (60, 60.0), "open": (10, 60.0)}

# A phone id starts with a letter or a digit: a spreadsheet reads a cell starting with - as a
# formula, and the CSV would have to change the id to keep it text.
_PHONE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{7,39}")
_QUESTION_ID = re.compile(r"[A-Za-z0-9_.:/-]{1,80}")
# Unicode categories removed from a nickname: controls, format characters (which include the
# bidi overrides and zero-width joiners), separators other than the space, private use, unassigned.
_STRIPPED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# A refusal never echoes what was sent: the page shows it as Markdown, and a phone can send anything.
_NOT_A_CODE = (
    f"That is not a room code: a room code is {CODE_LENGTH} letters and digits, as shown on the projector."
)


class RoomError(ValueError):
    """A value refused, or an action not allowed now; the message is for the person who sent it."""


@dataclass(frozen=True)
class Question:
    """What a round asks: a "Try this" step's id, text and choices, the right one and why.

    ``kind`` names its entry in ``kinds.KINDS``, which says what ``choices`` and ``answer`` hold
    (a drawing question has no choices; its ``answer`` is the digit to draw; a number question's
    answer is a number, right within ``tolerance``). ``seconds``: a timer (0: none), after which
    the round takes no more answers. ``follows``: the id of the question this one is "of the same
    kind" as (peer instruction's third question, answered alone), "" for none.
    """

    qid: str
    text: str
    choices: tuple[str, ...]
    answer: int | float
    why: str = ""
    kind: str = CHOOSE
    tolerance: float = 0.0
    seconds: int = 0
    follows: str = ""

    @property
    def root(self) -> str:
        """The question a chain of rounds (vote 1, vote 2, the same kind) is about."""
        return self.follows or self.qid

    def to_json(self) -> str:
        return json.dumps(
            {"qid": self.qid, "text": self.text, "choices": list(self.choices), "answer": self.answer,
             "why": self.why, "kind": self.kind, "tolerance": self.tolerance, "seconds": self.seconds,
             "follows": self.follows}
        )  # fmt: skip

    @classmethod
    def from_json(cls, text: str) -> Question:
        d = json.loads(text)
        return cls(
            d["qid"], d["text"], tuple(d["choices"]), d["answer"], d["why"], d["kind"],
            d.get("tolerance", 0.0), d.get("seconds", 0), d.get("follows", ""),
        )  # fmt: skip


@dataclass(frozen=True)
class Round:
    """One asking of a question: the room's ``number``-th round, the question's ``attempt``-th."""

    number: int
    question: Question
    attempt: int
    asked_at: float
    revealed: bool = False
    stopped: bool = False  # the teacher stopped the vote (or revealed it): no more answers

    @property
    def closes_at(self) -> float | None:
        """When the question's timer ends (None: no timer)."""
        return self.asked_at + self.question.seconds if self.question.seconds else None

    def closed(self, now: float) -> bool:
        """Whether the round takes no more answers at ``now``: stopped, revealed or timed out."""
        return self.stopped or self.revealed or (self.closes_at is not None and now >= self.closes_at)


@dataclass(frozen=True)
class Room:
    code: str
    created_at: float
    expires_at: float
    ended: bool
    rounds: int  # how many rounds were asked; the current round is the last one

    def __repr__(self) -> str:
        return f"Room({self.code}, rounds={self.rounds}{', ended' if self.ended else ''})"


@dataclass(frozen=True)
class PhoneView:
    """What one phone sees now (also what a phone that joins late sees).

    ``status`` is "waiting" (no question yet), "question", "closed" (the vote was stopped, or
    its timer ran out: no more answers, no answer shown yet), "revealed", "ended", or "full" (the
    phone waits for the teacher's OK to join a class beyond its size). The right
    answer, the why and whether this phone was right are filled only once the round is revealed.
    """

    status: str
    round: int = 0
    kind: str = CHOOSE
    text: str = ""
    choices: tuple[str, ...] = ()
    mine: int | float | None = None  # this phone's answer in this round, as its kind keeps it
    answer: int | float | None = None
    why: str = ""
    correct: bool | None = None  # once revealed: whether this phone's answer was right (if graded)
    seconds_left: int | None = None  # an open round's timer
    tolerance: float = 0.0


# ---- the teacher's secrets ---------------------------------------------------------------


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def new_key() -> str:
    return secrets.token_urlsafe(24)


def new_phone_id() -> str:
    """A random id for one phone's session: the only identity a class keeps (no names)."""
    return secrets.choice(ALPHABET) + secrets.token_urlsafe(12)


def key_digest(key: str) -> str:
    """What the store keeps of a teacher key: a leaked store does not give the key away."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def key_matches(key: Any, digest: str) -> bool:
    """Whether ``key`` is the teacher key whose digest is stored, compared in constant time."""
    if not isinstance(key, str) or not key or len(key) > 200:
        return False
    return hmac.compare_digest(key_digest(key), digest)


# ---- what a phone sends ----------------------------------------------------------------


def check_code(raw: Any) -> str:
    """A room code as typed or linked: spaces and case forgiven, look-alikes refused."""
    if not isinstance(raw, str):
        raise RoomError(_NOT_A_CODE)
    code = "".join(raw.split()).upper()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        raise RoomError(_NOT_A_CODE)
    return code


def check_phone(raw: Any) -> str:
    if not isinstance(raw, str) or not _PHONE_ID.fullmatch(raw):
        raise RoomError("This page lost its link to the class: reload it to join again.")
    return raw


def check_nickname(raw: Any) -> str:
    """A nickname with control, format (bidi, zero-width) and other invisible characters removed
    and spaces collapsed; "" for none. Longer than 20 characters is refused, not cut."""
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise RoomError("A nickname is text.")
    if len(raw) > 10 * MAX_NICKNAME:
        raise RoomError(f"A nickname has at most {MAX_NICKNAME} characters.")
    kept = "".join(c for c in unicodedata.normalize("NFC", raw) if unicodedata.category(c) not in _STRIPPED)
    name = " ".join(kept.split())
    if len(name) > MAX_NICKNAME:
        raise RoomError(f"A nickname has at most {MAX_NICKNAME} characters (this one has {len(name)}).")
    return name


def check_question(question: Any) -> Question:
    """A teacher's question's id and texts, checked before it reaches any phone (what its kind
    asks of its choices and answer: ``kinds.checked``)."""
    if not isinstance(question, Question):
        raise RoomError("Only a lesson's question can be asked.")
    q = question
    if not isinstance(q.qid, str) or not _QUESTION_ID.fullmatch(q.qid):
        raise RoomError("A question's id is 1–80 letters, digits and . _ : / -.")
    texts = [q.text, q.why, *q.choices]
    if not all(isinstance(t, str) and len(t) <= MAX_TEXT for t in texts) or not q.text.strip():
        raise RoomError(f"A question has a text, and every text has at most {MAX_TEXT} characters.")
    if isinstance(q.seconds, bool) or not isinstance(q.seconds, int) or not 0 <= q.seconds <= MAX_SECONDS:
        raise RoomError(f"A question's timer is 0 (none) to {MAX_SECONDS} seconds.")
    if not isinstance(q.follows, str) or (q.follows and not _QUESTION_ID.fullmatch(q.follows)):
        raise RoomError("A question follows another by its id.")
    return q


def check_size(raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= MAX_CLASS_SIZE:
        raise RoomError(f"A class has 1 to {MAX_CLASS_SIZE} phones.")
    return raw


def room_join_rate(size: int) -> tuple[int, float]:
    """At most this many new phones a room in a window of this many seconds: a whole class
    scanning the code at once gets in, a script pouring in phones does not."""
    return max(30, size), 10.0


def check_mark(raw: Any) -> str:
    if raw not in MARKS:
        raise RoomError(f"A mark is one of {', '.join(MARKS)}.")
    return raw


def check_rate(count: int, action: str) -> None:
    """Refuse an action once a phone passed its limit for the current window."""
    limit, window = RATE_LIMITS[action]
    if count > limit:
        who = "session" if action == "open" else "phone"
        raise RoomError(f"Too many tries from this {who}: wait a minute ({limit} per {window:.0f} s).")
