"""Question kinds: what a phone answers with, one registry entry each.

A question's ``kind`` names its entry in ``KINDS``. An entry holds everything that differs
between kinds: the check of the question itself, the check of a phone's value (the only place
it is checked; the store keeps what it returns, as text), what a phone's view keeps of its
answer and whether it was right, the projector's count of the answers and their reveal, the CSV
cells, and the phone's input widget. The store, the teacher's panel and /join ask the entry and
never branch on a kind, so a new kind is one entry here plus its phone widget.

A kind's ``example`` and ``samples`` give the tests a question of the kind and a right and a
wrong answer to it, so every test that runs over ``KINDS`` covers a new kind without editing.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from pages.classroom import class_view
from pages.classroom.rooms import CHOOSE, MAX_CHOICES, PhoneView, Question, RoomError, check_question

Send = Callable[[Any], Any]  # the phone's send: the store call, which turns a refusal into a message


class Kind:
    """The base of a kind; a subclass fills in the methods (the defaults suit a graded kind)."""

    name = ""
    asks = ""  # what a question of this kind asks for, in "This question asks for …"
    graded = True  # a revealed answer is right or wrong (a drawing is read by a model instead)

    def check_question(self, q: Question) -> None:
        """Refuse (``RoomError``) a question whose choices or answer do not fit the kind."""
        raise NotImplementedError

    def check(self, raw: Any, q: Question) -> str:
        """A phone's value, checked, as the text the store keeps (``RoomError`` if refused)."""
        raise NotImplementedError

    def mine(self, value: str) -> int:
        """What the phone's view keeps of its stored answer."""
        raise NotImplementedError

    def right(self, value: str, q: Question) -> bool | None:
        """Whether a stored answer is the right one (None where the kind is not graded)."""
        raise NotImplementedError

    def tally(self, counts: Mapping[str, int], q: Question) -> tuple[int, ...]:
        """The projector's count of the stored answers (one number per choice, or the total),
        from how many phones gave each stored value."""
        return (sum(counts.values()),)

    def results(self, title: str, q: Question, tally: Sequence[int], revealed: bool) -> str:
        """HTML: a round's answers on the projector (the right one marked only once revealed)."""
        return class_view.count_line(title, sum(tally), sum(tally))

    def answer_text(self, q: Question) -> str:
        """The right answer as a person reads it (shown at the reveal)."""
        raise NotImplementedError

    def right_count(self, tally: Sequence[int], q: Question) -> int | None:
        """How many of a round's answers (its ``tally``) are right; None for a kind with no
        right answer (peer instruction's suggestion needs the share right)."""
        return None

    def wrong_answers(self, counts: Mapping[str, int], q: Question) -> dict[str, int]:
        """The wrong answers as a person reads them, with how many phones gave each (the report's
        most common wrong answer); empty for a kind with no right answer."""
        if not self.graded:
            return {}
        wrong: dict[str, int] = {}
        for value, n in counts.items():
            if not self.right(value, q):
                shown = self.shown(value, q)
                wrong[shown] = wrong.get(shown, 0) + n
        return wrong

    def cells(self, value: str, q: Question, revealed: bool) -> tuple[str, Any]:
        """The CSV's cells for one answer: the answer as read, and whether it was right (blank
        before the reveal and for a kind that is not graded)."""
        right = self.right(value, q) if revealed and self.graded else None
        return self.shown(value, q), "" if right is None else right

    def shown(self, value: str, q: Question) -> str:
        """A stored answer as a person reads it."""
        return value

    def phone(self, view: PhoneView, send: Send) -> None:
        """The phone's input for an open round of this kind, inside /join's fragment."""
        raise NotImplementedError

    def example(self) -> Question:
        """A question of this kind, for tests."""
        raise NotImplementedError

    def samples(self, q: Question) -> tuple[Any, Any]:
        """A right and a wrong raw answer to ``q`` as a phone would send them, for tests."""
        raise NotImplementedError


class Choice(Kind):
    """Pick one of 2–8 choices: a "Try this" step's question."""

    name = CHOOSE
    asks = "a choice"

    def check_question(self, q):
        if not 2 <= len(q.choices) <= MAX_CHOICES:
            raise RoomError(f"A question has 2 to {MAX_CHOICES} choices, got {len(q.choices)}.")
        if isinstance(q.answer, bool) or not isinstance(q.answer, int) or not 0 <= q.answer < len(q.choices):
            raise RoomError("A question's right answer is one of its choices.")

    def check(self, raw, q):
        """A choice index within the question's choices (a bool or a float is not an index)."""
        n = len(q.choices)
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < n:
            raise RoomError(f"Choose one of the {n} answers shown.")
        return str(raw)

    def mine(self, value):
        return int(value)

    def right(self, value, q):
        return int(value) == q.answer

    def tally(self, counts, q):
        return tuple(counts.get(str(i), 0) for i in range(len(q.choices)))

    def results(self, title, q, tally, revealed):
        return class_view.bars(title, q.choices, tally, q.answer if revealed else None)

    def answer_text(self, q):
        return q.choices[q.answer]

    def right_count(self, tally, q):
        return tally[q.answer] if 0 <= q.answer < len(tally) else 0

    def shown(self, value, q):
        return q.choices[int(value)]

    def phone(self, view, send):
        from pages.classroom import phone_choice

        phone_choice.phone(view, send)

    def example(self):
        return Question("example.choice", "Which is right?", ("this", "that", "neither"), 1, "Because.")

    def samples(self, q):
        return q.answer, (q.answer + 1) % len(q.choices)


class Drawing(Kind):
    """Draw a digit on a 16×16 grid ("Everyone draws a 7"): the answer is the digit asked for,
    and the projector's model reads each drawing (Draw together on /digits)."""

    name = "draw"
    asks = "a drawing"
    graded = False
    SIZE = 16  # Semeion's 16×16 grid of 0/1 cells (classic.digits)

    def check_question(self, q):
        if q.choices or isinstance(q.answer, bool) or not (isinstance(q.answer, int) and 0 <= q.answer <= 9):
            raise RoomError("A drawing question has no choices; its answer is the digit to draw (0–9).")

    def check(self, raw, q):
        """Exactly 16×16 = 256 cells, each 0 (paper) or 1 (ink), flat or as 16 rows."""
        size, cells = self.SIZE, self.SIZE * self.SIZE
        if isinstance(raw, (str, bytes)) or not hasattr(raw, "__len__") or len(raw) not in (size, cells):
            raise RoomError(f"A drawing is a 16×16 grid of {cells} cells.")
        try:
            grid = np.array(raw, dtype=float)
        except (TypeError, ValueError, OverflowError):
            raise RoomError(f"A drawing is a 16×16 grid of {cells} cells.") from None
        if grid.shape not in ((cells,), (size, size)):
            raise RoomError(f"A drawing is a 16×16 grid of {cells} cells, got shape {grid.shape}.")
        if not np.isin(grid, (0.0, 1.0)).all():
            raise RoomError("A drawing's cells are 0 (paper) or 1 (ink).")
        return "".join(str(int(v)) for v in grid.ravel())

    def mine(self, value):
        return 1

    def right(self, value, q):
        return None

    def results(self, title, q, tally, revealed):
        return f"<p>{html.escape(title)}: {sum(tally)} drawings</p>"

    def shown(self, value, q):
        return f"a drawing of a {q.answer}"  # the grid itself is the answer column

    def answer_text(self, q):
        return f"a {q.answer}"

    def phone(self, view, send):
        from pages.classroom import phone_draw

        phone_draw.phone(view, send)

    def example(self):
        return Question("digits.draw.7", "Everyone draws a 7", (), 7, kind=self.name)

    def samples(self, q):
        seven = np.zeros((16, 16), dtype=int)
        seven[1, 2:14] = 1
        seven[2:15, 12] = 1
        return seven, np.ones((16, 16), dtype=int)


class Opinion(Choice):
    """Pick one of 2–8 choices with no right one (a teacher's poll: "Which would you try?")."""

    name = "opinion"
    asks = "a choice"
    graded = False

    def check_question(self, q):
        if not 2 <= len(q.choices) <= MAX_CHOICES:
            raise RoomError(f"A question has 2 to {MAX_CHOICES} choices, got {len(q.choices)}.")
        if q.answer != -1 or isinstance(q.answer, bool):
            raise RoomError("An opinion question has no right answer (-1).")

    def right(self, value, q):
        return None

    def right_count(self, tally, q):
        return None

    def results(self, title, q, tally, revealed):
        return class_view.bars(title, q.choices, tally, None)

    def answer_text(self, q):
        return "none: it asked for an opinion"

    def example(self):
        return Question(
            "example.opinion", "Which would you try first?", ("k-NN", "a tree"), -1, kind=self.name
        )

    def samples(self, q):
        return 0, 1


class Number(Kind):
    """A number, right within the question's tolerance (an estimate: "How many updates?"). The
    projector counts the answers; the reveal shows how many were below, within and above."""

    name = "number"
    asks = "a number"
    LIMIT = 1e9  # no estimate in these lessons comes near it; a larger value is a typo or a script

    def _finite(self, value: Any) -> bool:
        return (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and np.isfinite(value)
            and abs(value) <= self.LIMIT
        )

    def check_question(self, q):
        if q.choices or not self._finite(q.answer):
            raise RoomError("A number question has no choices; its answer is a number.")
        if not self._finite(q.tolerance) or q.tolerance < 0:
            raise RoomError("A number question's tolerance is a number, 0 or more.")

    def check(self, raw, q):
        """A finite number within ±1e9 (a bool or a text is not one); kept as text, 10 digits."""
        if isinstance(raw, str):
            try:
                raw = float(raw.strip().replace(",", ".")) if len(raw) <= 40 else None
            except ValueError:
                raw = None
        if not self._finite(raw):
            raise RoomError("Send a number (digits, a point for decimals).")
        return format(float(raw), ".10g")

    def mine(self, value):
        return float(value)

    def right(self, value, q):
        return abs(float(value) - q.answer) <= q.tolerance * (1 + 1e-12) + 1e-12

    def _bins(self, q: Question) -> tuple[str, str, str]:
        low, high = q.answer - q.tolerance, q.answer + q.tolerance
        within = f"{q.answer:g} ± {q.tolerance:g}" if q.tolerance else f"{q.answer:g}"
        return f"below {low:g}", within, f"above {high:g}"

    def tally(self, counts, q):
        """Answers below, within and above the tolerance around the answer."""
        low = within = high = 0
        for value, n in counts.items():
            v = float(value)
            if self.right(value, q):
                within += n
            elif v < q.answer:
                low += n
            else:
                high += n
        return low, within, high

    def results(self, title, q, tally, revealed):
        if not revealed:  # the bins are drawn around the answer: before the reveal, only a count
            return class_view.count_line(title, sum(tally), sum(tally))
        return class_view.bars(title, self._bins(q), tally, 1)

    def right_count(self, tally, q):
        return tally[1] if len(tally) == 3 else 0

    def answer_text(self, q):
        return f"{q.answer:g}" + (f" (± {q.tolerance:g} counts as right)" if q.tolerance else "")

    def shown(self, value, q):
        return f"{float(value):g}"

    def phone(self, view, send):
        from pages.classroom import phone_number

        phone_number.phone(view, send)

    def example(self):
        return Question("example.number", "How many updates?", (), 12, kind=self.name, tolerance=2)

    def samples(self, q):
        return q.answer + q.tolerance / 2, q.answer + 10 * (q.tolerance + 1)


DRAW = Drawing.name
NUMBER = Number.name
OPINION = Opinion.name

# Every kind a question can be, by name.
KINDS: dict[str, Kind] = {kind.name: kind for kind in (Choice(), Drawing(), Number(), Opinion())}


def of(q: Question | PhoneView) -> Kind:
    """The entry of ``q``'s kind (``RoomError`` for a kind that is not one)."""
    kind = KINDS.get(q.kind) if isinstance(q.kind, str) else None
    if kind is None:
        raise RoomError(f"A question's kind is one of {sorted(KINDS)}, got {q.kind!r}.")
    return kind


def checked(question: Any) -> Question:
    """A teacher's question, checked before it reaches any phone: its id and texts
    (``rooms.check_question``), then what its kind asks of its choices and answer."""
    q = check_question(question)
    of(q).check_question(q)
    return q
