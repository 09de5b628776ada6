"""Decks: lessons a teacher prepares, an ordered list of slides, each a view of a lesson page
(its link values) with the questions to ask there.

A deck is a small JSON file (schema version 1, ``FORMAT``): ``load`` checks everything in it and
returns the whole :class:`Deck` or raises :class:`DeckError` with one message naming where the
first problem is; ``dumps`` writes it back in a stable order, so that ``load(dumps(d)) == d``.
``READY`` names the ready-made decks (``assets/decks/*.json``), ``ready(name)`` opens one. The
editing helpers (``add_slide``, ``move``, ``retitle``, ``remove``, ``with_question``,
``without_question``) return a new deck and never change the one given. ``resolve`` turns a
slide's questions into what the app asks: a lesson's own "Try this" step (``StepRef``), a
question made while preparing (``Made``) or the teacher's own (``Own``).

The file (UTF-8 JSON, at most 256 KiB)::

    {"format": "classic-deck", "version": 1, "title": "What k does", "about": "…",
     "slides": [{"title": "k = 1", "page": "knn", "view": {"knn_data": "Moons", "knn_k": 1},
                 "notes": "…", "questions": [{"step": 1},
                                             {"made": {"title", "question", "options", "answer", "why", "hides"}},
                                             {"own": {"text", "choices", "answer", "why", "seconds"}},
                                             {"own": {"text", "number", "tolerance", "why", "seconds"}}]}]}

1 to 40 slides; a view holds up to 40 link values of its page (keys start with the lesson's
``prefix``; each a text, a finite number or true/false); up to 8 questions a slide; an own
question's answer is an index, or -1 for an opinion. Unknown fields are refused.

Numpy and the standard library only, never Streamlit: texts are kept as text (markup is never
interpreted here; the app shows them escaped), and no message quotes more than ``SHOWN``
characters of what a file holds.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from classic import digits
from classic.lessons import LESSONS, Step, check_step, lesson_of
from classic.tables import CONTROL

FORMAT, VERSION = "classic-deck", 1
MAX_BYTES = 256 * 1024
MAX_TITLE, MAX_ABOUT, MAX_NOTES = 120, 2000, 2000
MAX_SLIDES, MAX_VIEW, MAX_VALUE, MAX_QUESTIONS = 40, 40, 200, 8
MAX_TEXT, MAX_WHY, MAX_SECONDS = 500, 2000, 600
MIN_CHOICES, MAX_CHOICES, MAX_CHOICE = 2, 8, 200
MAX_NUMBER = 1e9  # as a number question's phone accepts (pages/classroom/kinds.Number.LIMIT)
MAX_HIDE = 40
SHOWN = 40  # characters of a file's own text a message may quote
KEY = re.compile(r"[a-z0-9_]{1,40}")
OPINION = -1  # an own question's answer when none is right
DECKS = Path(__file__).resolve().parents[2] / "assets" / "decks"


class DeckError(ValueError):
    """A deck refused: the message (plain text, one sentence or two) says where and why."""


# ---------------------------------------------------------------------------------------------
# What a deck is
# ---------------------------------------------------------------------------------------------


class View(Mapping[str, Any]):
    """A slide's link values, read-only and hashable: a slide never changes under its deck."""

    __slots__ = ("_items",)

    def __init__(self, values: Mapping[str, Any] | Sequence[tuple[str, Any]] = ()) -> None:
        self._items = dict(values)

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __repr__(self) -> str:
        return f"View({self._items!r})"

    def __reduce__(self):  # pickled by a cache or a store as its dict
        return View, (self._items,)


@dataclass(frozen=True)
class StepRef:
    """The page's own "Try this" step ``n`` (1-based, in the page's order)."""

    n: int


@dataclass(frozen=True)
class Made:
    """A question made while preparing ("Ask about this view", "Same kind"), kept as made.

    It is asked on its slide's view, so the file keeps no ``setup`` (nor ``tells``): both are
    dropped here, and the options are kept as a tuple of texts, so that a saved and loaded
    question is the same question.
    """

    step: Step

    def __post_init__(self) -> None:
        s = self.step
        kept = Step(
            s.title,
            {},
            s.question,
            tuple(str(o) for o in s.options),
            str(s.answer),
            s.why,
            tuple(s.hides),
            (),
        )
        object.__setattr__(self, "step", kept)


@dataclass(frozen=True)
class Own:
    """The teacher's own question: ``choices`` with ``answer`` the right one's index (``OPINION``,
    -1, when none is right), or a ``number`` right within ``tolerance`` (then no choices)."""

    text: str
    choices: tuple[str, ...] = ()
    answer: int | None = None
    why: str = ""
    seconds: int = 0
    number: float | None = None
    tolerance: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "choices", tuple(self.choices))
        if self.number is not None and self.tolerance is None:  # a number is exact unless told
            object.__setattr__(self, "tolerance", 0)

    @property
    def kind(self) -> str:
        """Its question kind (pages/classroom/kinds.py): "number", "opinion" or "choose"."""
        return "number" if self.number is not None else "opinion" if self.answer == OPINION else "choose"


Question = StepRef | Made | Own


@dataclass(frozen=True)
class Slide:
    """One view of a lesson page (``page``, its url_path; ``view``, its link values) with its
    questions, asked in order. ``notes`` are the teacher's, never projected."""

    title: str
    page: str
    view: Mapping[str, Any] = field(default_factory=View)
    notes: str = ""
    questions: tuple[Question, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "view", View(self.view))
        object.__setattr__(self, "questions", tuple(self.questions))


@dataclass(frozen=True)
class Deck:
    """A lesson prepared: its title, what it is about, and its slides in order."""

    title: str
    about: str = ""
    slides: tuple[Slide, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "slides", tuple(self.slides))


def empty(title: str) -> Deck:
    """A new deck with no slide yet (one slide at least before it can be saved)."""
    return Deck(_text(title, "", "The title", 1, MAX_TITLE, one_line=True))


# ---------------------------------------------------------------------------------------------
# Messages: where, and at most SHOWN characters of the file's own text
# ---------------------------------------------------------------------------------------------


def _shown(value: Any) -> str:
    """A file's text as a message quotes it: cut to ``SHOWN`` characters, each control or
    invisible character written as its code point, so that a message reads as it says."""
    text = str(value)
    cut = text[:SHOWN] + ("…" if len(text) > SHOWN else "")
    return (
        "“" + CONTROL.sub(lambda found: f"⟨U+{ord(found.group()):04X}⟩", cut).replace("\n", "⟨U+000A⟩") + "”"
    )


def _fail(where: str, what: str) -> DeckError:
    return DeckError(f"{where}: {what}" if where else what[:1].upper() + what[1:])


def _kind_of(value: Any) -> str:
    """What a JSON value is, in words."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a text"
    return "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else "nothing"


def _fields(obj: Any, where: str, what: str, required: Sequence[str], optional: Sequence[str] = ()) -> dict:
    """``obj`` as a JSON object with the ``required`` fields and no others than ``optional``."""
    if not isinstance(obj, dict):
        raise _fail(where, f"{what} must be an object ({{…}}), not {_kind_of(obj)}.")
    for name in obj:
        if name not in required and name not in optional:
            raise _fail(where, f"unknown field {_shown(name)} (a typo?).")
    for name in required:
        if name not in obj:
            raise _fail(where, f"{what} needs a field “{name}”.")
    return obj


def _text(value: Any, where: str, name: str, low: int, high: int, one_line: bool = False) -> str:
    """A text field: ``low`` to ``high`` characters, no control characters (newlines and tabs
    only where the text may have several lines), kept exactly as written."""
    if not isinstance(value, str):
        raise _fail(where, f"{name} must be a text, not {_kind_of(value)}.")
    if not low <= len(value) <= high:
        size = f"at most {high}" if low == 0 else f"1 to {high}"
        raise _fail(where, f"{name} must have {size} characters (it has {len(value):,}).")
    if low and not value.strip():
        raise _fail(where, f"{name} must not be blank.")
    found = CONTROL.search(value) or (re.search("[\n\t]", value) if one_line else None)
    if found:
        char = f"U+{ord(found.group()):04X}"
        raise _fail(where, f"{name} holds a control character ({char}), which a deck never has.")
    return value


def _whole(value: Any, where: str, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where, f"{name} must be a whole number from {low} to {high}.")
    return value


def _finite(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer too large for a float
        return False


def _number(value: Any, where: str, name: str, low: float) -> int | float:
    if not _finite(value) or not low <= value <= MAX_NUMBER:
        raise _fail(where, f"{name} must be a finite number from {low:g} to {MAX_NUMBER:g}.")
    return value


# ---------------------------------------------------------------------------------------------
# Loading: JSON → checked objects
# ---------------------------------------------------------------------------------------------


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    seen = {}
    for key, value in pairs:
        if key in seen:  # JSON would keep the last silently: a typo's twin must not hide
            raise DeckError(f"The file repeats the field {_shown(key)} in one object.")
        seen[key] = value
    return seen


def _refuse_constant(name: str) -> Any:
    raise DeckError(f"The file holds {name}, which is not a finite number.")


def _parse(data: str | bytes) -> Any:
    if isinstance(data, str):
        size = len(data.encode("utf-8", "surrogatepass"))
    elif isinstance(data, (bytes, bytearray)):
        size = len(data)
    else:
        raise DeckError("A deck is read from a file's text or bytes.")
    if size > MAX_BYTES:
        raise DeckError(f"The file is larger than {MAX_BYTES // 1024} KiB.")
    if not isinstance(data, str):
        try:
            data = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise DeckError(f"The file is not UTF-8 text (byte {error.start + 1}).") from None
    try:
        return json.loads(data, object_pairs_hook=_no_duplicates, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise DeckError(f"The file is not JSON (line {error.lineno}, column {error.colno}).") from None
    except RecursionError:
        raise DeckError("The file is not a deck: it nests too deeply.") from None
    except ValueError as error:  # an integer of thousands of digits
        if isinstance(error, DeckError):
            raise
        raise DeckError("The file is not JSON that a deck can hold (a number too long).") from None


def load(data: str | bytes) -> Deck:
    """The deck a file holds, every field checked (schema version 1), or ``DeckError`` with one
    clear message naming where its first problem is: never a partial deck."""
    obj = _parse(data)
    if not isinstance(obj, dict):
        raise DeckError(f"Not a deck file: it holds {_kind_of(obj)}, not a deck.")
    if obj.get("format") != FORMAT:
        raise DeckError(f"Not a deck file: its “format” is not “{FORMAT}”.")
    version = obj.get("version")
    if _finite(version) and not isinstance(version, bool) and version > VERSION:
        raise DeckError(f"This deck is of version {version:g}; this app reads version {VERSION}: update it.")
    if version != VERSION or isinstance(version, bool):
        raise DeckError(f"Not a deck file: its “version” must be {VERSION}.")
    _fields(obj, "", "A deck", ("format", "version", "title", "slides"), ("about",))
    title = _text(obj["title"], "", "The title", 1, MAX_TITLE, one_line=True)
    about = _text(obj.get("about", ""), "", "The description (“about”)", 0, MAX_ABOUT)
    slides = obj["slides"]
    if not isinstance(slides, list) or not 1 <= len(slides) <= MAX_SLIDES:
        raise DeckError(f"A deck has 1 to {MAX_SLIDES} slides in a list (“slides”).")
    return Deck(title, about, tuple(_slide(s, f"Slide {i}") for i, s in enumerate(slides, 1)))


def _slide(obj: Any, where: str) -> Slide:
    obj = _fields(obj, where, "A slide", ("title", "page"), ("view", "notes", "questions"))
    title = _text(obj["title"], where, "its title", 1, MAX_TITLE, one_line=True)
    page = obj["page"]
    lesson = lesson_of(page) if isinstance(page, str) else None
    if lesson is None:
        pages = ", ".join(ls.url_path for ls in LESSONS)
        raise _fail(where, f"the page {_shown(page)} is not a lesson page (one of {pages}).")
    view = _view(obj.get("view", {}), where, lesson.prefix)
    notes = _text(obj.get("notes", ""), where, "its notes", 0, MAX_NOTES)
    questions = obj.get("questions", [])
    if not isinstance(questions, list) or len(questions) > MAX_QUESTIONS:
        raise _fail(where, f"a slide has 0 to {MAX_QUESTIONS} questions in a list (“questions”).")
    asked = tuple(_question(q, f"{where}, question {i}", page) for i, q in enumerate(questions, 1))
    return Slide(title, page, view, notes, asked)


def _view(obj: Any, where: str, prefix: str) -> View:
    """Link values as a link carries them: keys of the page's own (``prefix``), each a text, a
    finite number or true/false."""
    if not isinstance(obj, dict):
        raise _fail(where, f"its view must be an object of link values, not {_kind_of(obj)}.")
    if len(obj) > MAX_VIEW:
        raise _fail(where, f"a view has at most {MAX_VIEW} link values (this one has {len(obj)}).")
    for key, value in obj.items():
        if not KEY.fullmatch(key) or not key.startswith(prefix):
            raise _fail(
                where,
                f"the link value {_shown(key)} is not one of this page's: its keys start with “{prefix}” "
                "(lower-case letters, digits and _, at most 40).",
            )
        at = f"{where}, link value “{key}”"
        if isinstance(value, str):
            _text(value, at, "the value", 0, MAX_VALUE, one_line=True)
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and not _finite(value):
            raise _fail(at, "the value must be a finite number.")
        elif not isinstance(value, (str, int, float, bool)):
            raise _fail(at, f"the value must be a text, a number or true/false, not {_kind_of(value)}.")
    return View(obj)


def _question(obj: Any, where: str, page: str) -> Question:
    if not isinstance(obj, dict) or len(obj) != 1 or next(iter(obj)) not in ("step", "made", "own"):
        raise _fail(where, "a question is one of {“step”: n}, {“made”: {…}} and {“own”: {…}}.")
    kind, value = next(iter(obj.items()))
    if kind == "step":
        return _step_ref(value, where, page)
    return _made(value, where) if kind == "made" else _own(value, where)


def _step_ref(value: Any, where: str, page: str) -> StepRef:
    count = steps(page)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= count:
        raise _fail(
            where, f"the {page} page has “Try this” steps 1 to {count}; there is no step {_shown(value)}."
        )
    return StepRef(value)


def _made(obj: Any, where: str) -> Made:
    obj = _fields(
        obj, where, "A made question", ("title", "question", "options", "answer", "why"), ("hides",)
    )
    title = _text(obj["title"], where, "its title", 1, MAX_TITLE, one_line=True)
    question = _text(obj["question"], where, "its text", 1, MAX_TEXT)
    why = _text(obj["why"], where, "its why", 1, MAX_WHY)
    options = _choices(obj["options"], where, "options")
    answer = _text(obj["answer"], where, "its answer", 1, MAX_CHOICE)
    if answer not in options:
        raise _fail(where, "the answer must be one of the options.")
    hides = obj.get("hides", [])
    if not isinstance(hides, list) or len(hides) > MAX_HIDE:
        raise _fail(where, f"“hides” is a list of at most {MAX_HIDE} names of the page's parts.")
    hidden = tuple(_text(h, where, "a name in “hides”", 1, MAX_HIDE, one_line=True) for h in hides)
    fields = dict(
        title=title, setup={}, question=question, options=options, answer=answer, why=why, hides=hidden
    )
    try:
        return Made(check_step(fields))
    except ValueError:  # every rule of check_step is checked above, in words of the file's
        raise _fail(where, "this question cannot be asked as it is.") from None


def _choices(value: Any, where: str, name: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not MIN_CHOICES <= len(value) <= MAX_CHOICES:
        raise _fail(where, f"“{name}” is a list of {MIN_CHOICES} to {MAX_CHOICES} texts.")
    texts = tuple(_text(v, where, f"each of its {name}", 1, MAX_CHOICE) for v in value)
    if len(set(texts)) != len(texts):
        raise _fail(where, f"its {name} must differ from one another.")
    return texts


def _own(obj: Any, where: str) -> Own:
    number = isinstance(obj, dict) and "number" in obj
    shape = (
        (("text", "number"), ("tolerance", "why", "seconds"))
        if number
        else (("text", "choices", "answer"), ("why", "seconds"))
    )
    obj = _fields(obj, where, "An own question", *shape)
    text = _text(obj["text"], where, "its text", 1, MAX_TEXT)
    why = _text(obj.get("why", ""), where, "its why", 0, MAX_WHY)
    seconds = _whole(obj.get("seconds", 0), where, "its timer (“seconds”)", 0, MAX_SECONDS)
    if number:
        value = _number(obj["number"], where, "its number", -MAX_NUMBER)
        tolerance = _number(obj.get("tolerance", 0), where, "its tolerance", 0)
        return Own(text, why=why, seconds=seconds, number=value, tolerance=tolerance)
    choices = _choices(obj["choices"], where, "choices")
    answer = obj["answer"]
    if isinstance(answer, bool) or not isinstance(answer, int) or not OPINION <= answer < len(choices):
        raise _fail(
            where, f"the answer must be one of the options (0 to {len(choices) - 1}), or -1 for an opinion."
        )
    return Own(text, choices, answer, why, seconds)


# ---------------------------------------------------------------------------------------------
# Saving: objects → JSON, in a stable order
# ---------------------------------------------------------------------------------------------


def _question_dict(q: Question) -> dict:
    if isinstance(q, StepRef):
        return {"step": q.n}
    if isinstance(q, Made):
        s = q.step
        made = {"title": s.title, "question": s.question, "options": list(s.options), "answer": s.answer}
        return {"made": {**made, "why": s.why, "hides": list(s.hides)}}
    if not isinstance(q, Own):
        raise DeckError(f"A question is a StepRef, a Made or an Own, not {type(q).__name__}.")
    if q.number is not None:
        own = {"text": q.text, "number": q.number, "tolerance": q.tolerance or 0}
    else:
        own = {"text": q.text, "choices": list(q.choices), "answer": q.answer}
    return {"own": {**own, "why": q.why, "seconds": q.seconds}}


def _slide_dict(slide: Slide) -> dict:
    return {
        "title": slide.title,
        "page": slide.page,
        "view": dict(slide.view),
        "notes": slide.notes,
        "questions": [_question_dict(q) for q in slide.questions],
    }


def _deck_dict(deck: Deck) -> dict:
    head = {"format": FORMAT, "version": VERSION, "title": deck.title, "about": deck.about}
    return {**head, "slides": [_slide_dict(s) for s in deck.slides]}


def dumps(deck: Deck) -> str:
    """The deck as its file's text: JSON, fields in the schema's order, one space of indent, texts
    as written (no \\u escapes but for control characters), ending with a newline."""
    try:
        return json.dumps(_deck_dict(deck), ensure_ascii=False, indent=1, allow_nan=False) + "\n"
    except (TypeError, ValueError):  # a value no deck file can hold (NaN, an object): check() says where
        raise DeckError(
            "This deck holds a value a deck file cannot (not a text, number or true/false)."
        ) from None


def check(deck: Deck) -> Deck:
    """``deck`` as loading its file would give it, or ``DeckError``: what the app calls before
    it saves, plays or stores a deck it built."""
    return load(dumps(deck))


# ---------------------------------------------------------------------------------------------
# Editing: each helper returns a new deck, checked where it changed
# ---------------------------------------------------------------------------------------------


def _at(deck: Deck, i: int) -> Slide:
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(deck.slides):
        raise DeckError(f"There is no slide {i + 1 if isinstance(i, int) else i!r} in this deck.")
    return deck.slides[i]


def _checked_slide(slide: Slide, i: int) -> Slide:
    """``slide`` as the file would give it back (its title, page, view and questions checked)."""
    return _slide(json.loads(json.dumps(_slide_dict(slide), allow_nan=True)), f"Slide {i + 1}")


def _with_slide(deck: Deck, i: int, slide: Slide) -> Deck:
    slides = list(deck.slides)
    slides[i] = _checked_slide(slide, i)
    return replace(deck, slides=tuple(slides))


def add_slide(deck: Deck, slide: Slide, at: int | None = None) -> Deck:
    """``deck`` with ``slide`` added at the end (or before slide index ``at``)."""
    if len(deck.slides) >= MAX_SLIDES:
        raise DeckError(f"A deck has at most {MAX_SLIDES} slides.")
    where = len(deck.slides) if at is None else max(0, min(int(at), len(deck.slides)))
    checked = _checked_slide(slide, where)
    return replace(deck, slides=(*deck.slides[:where], checked, *deck.slides[where:]))


def move(deck: Deck, i: int, j: int) -> Deck:
    """``deck`` with slide ``i`` moved to place ``j`` (0-based), the others in their order."""
    slide, _ = _at(deck, i), _at(deck, j)
    slides = [s for k, s in enumerate(deck.slides) if k != i]
    slides.insert(j, slide)
    return replace(deck, slides=tuple(slides))


def retitle(deck: Deck, i: int, title: str) -> Deck:
    """``deck`` with slide ``i`` titled ``title``."""
    return _with_slide(deck, i, replace(_at(deck, i), title=title))


def remove(deck: Deck, i: int) -> Deck:
    """``deck`` without slide ``i`` (a deck left with none cannot be saved until one is added)."""
    _at(deck, i)
    return replace(deck, slides=deck.slides[:i] + deck.slides[i + 1 :])


def with_question(deck: Deck, i: int, question: Question) -> Deck:
    """``deck`` with ``question`` asked last on slide ``i``."""
    slide = _at(deck, i)
    if len(slide.questions) >= MAX_QUESTIONS:
        raise DeckError(f"Slide {i + 1}: a slide has at most {MAX_QUESTIONS} questions.")
    return _with_slide(deck, i, replace(slide, questions=(*slide.questions, question)))


def without_question(deck: Deck, i: int, q: int) -> Deck:
    """``deck`` without question ``q`` (0-based) of slide ``i``."""
    slide = _at(deck, i)
    if isinstance(q, bool) or not isinstance(q, int) or not 0 <= q < len(slide.questions):
        raise DeckError(f"Slide {i + 1} has no question {q + 1 if isinstance(q, int) else q!r}.")
    return replace(
        deck,
        slides=(
            *deck.slides[:i],
            replace(slide, questions=slide.questions[:q] + slide.questions[q + 1 :]),
            *deck.slides[i + 1 :],
        ),
    )


# ---------------------------------------------------------------------------------------------
# The lessons' own steps, and a slide's questions as the app asks them
# ---------------------------------------------------------------------------------------------


def steps(page: str) -> int:
    """How many "Try this" steps the lesson page ``page`` has (one same-kind maker each)."""
    lesson = lesson_of(page)
    if lesson is None:
        raise DeckError(f"There is no lesson page {_shown(page)}.")
    return len(lesson.questions().SAME_KIND)


def _digits_steps(module: Any) -> list[Step]:
    """/digits' steps are made from the protocol's accuracies of plain and blurred k-NN (the
    ladder's first two rungs), on shuffles of as many test digits as the page's."""
    X, y = module.semeion()
    tested = len(digits.protocol_splits(len(y), [0])[0][1])
    return [Step(**s) for s in module.try_this_steps(module.protocol(0.0), module.protocol(1.0), tested)]


def _compare_steps(module: Any) -> list[Step]:
    """/compare's steps are its questions, their settings as the page's link values (cmp_…)."""
    return [
        Step(
            q.title,
            {f"cmp_{k}": v for k, v in q.settings.items()},
            q.question,
            q.options,
            q.answer,
            q.why,
            q.hides,
            q.tells,
        )
        for q in module.questions()
    ]


# How a lesson's module makes its page's steps, where it is not ``try_this_steps()``.
STEP_MAKERS = {"digits": _digits_steps, "compare": _compare_steps}


@functools.cache
def page_steps(page: str) -> tuple[Step, ...]:
    """The page's "Try this" steps as the page makes them, computed once a process (seconds:
    the digits' protocol, /compare's fits)."""
    lesson = lesson_of(page)
    if lesson is None:
        raise DeckError(f"There is no lesson page {_shown(page)}.")
    module = lesson.questions()
    make = STEP_MAKERS.get(lesson.module)
    return tuple(make(module) if make else (Step(**s) for s in module.try_this_steps()))


def resolve(slide: Slide) -> list[Step | Own]:
    """Each question of ``slide`` as the app asks it: a step of the page, a made step, or the
    teacher's own question as it is."""
    asked: list[Step | Own] = []
    for q in slide.questions:
        if isinstance(q, StepRef):
            asked.append(page_steps(slide.page)[q.n - 1])
        else:
            asked.append(q.step if isinstance(q, Made) else q)
    return asked


# ---------------------------------------------------------------------------------------------
# The ready-made decks
# ---------------------------------------------------------------------------------------------


def _first_page(path: Path) -> int:
    """The menu place of a ready deck's first slide's lesson: the decks follow the lessons."""
    try:
        page = json.loads(path.read_text(encoding="utf-8"))["slides"][0]["page"]
        return next(i for i, ls in enumerate(LESSONS) if ls.url_path == page)
    except (OSError, ValueError, KeyError, IndexError, TypeError, StopIteration):
        return len(LESSONS)


def _ready_files() -> dict[str, Path]:
    files = sorted(DECKS.glob("*.json")) if DECKS.is_dir() else []
    return {path.stem: path for path in sorted(files, key=lambda p: (_first_page(p), p.stem))}


# The ready-made decks by name (a file's stem), in the lessons' menu order: one entry per file.
READY: dict[str, Path] = _ready_files()


@functools.cache
def ready(name: str) -> Deck:
    """The ready-made deck ``name`` (a key of ``READY``), loaded and checked once."""
    if name not in READY:
        raise DeckError(f"There is no ready-made deck {_shown(name)}.")
    return load(READY[name].read_bytes())
