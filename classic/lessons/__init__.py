"""What each lesson says and asks, Streamlit-free: its data menu, "Try this" steps, claims, prose.

``LESSONS`` is the registry of lesson pages (below): app.py's navigation, the home page's cards,
the server's warm start and the tests' page lists read it.

One module per lesson: ``perceptron``, ``knn``, ``tree`` (with ``tree_sources``, the sources'
own versions of ID3 and their experiments), ``digits`` and ``compare``; ``points`` is the one
registry of 2-D point sets that every 2-D page's data menu, and the link to /compare, read.
Every answer a step reveals and every number a sentence holds is computed by the library, never
typed. The modules use numpy, ``classic`` and the plain helpers of ``classic.viz`` (no drawing
library); the pages in ``pages/`` turn them into widgets.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Step:
    """One "Try this" step: set up a view, ask the student to predict, reveal the answer.

    ``setup`` maps the page's widget keys (its link's parameters) to the values that make the
    view (applied by a button, and written as a link a teacher can share); ``answer`` is one of
    ``options`` and, like ``why``, is computed from the library, never typed.

    An honest question never shows its answer before the reveal: ``hides`` names the parts of
    the page that would give it away (the page asks ``lesson.hidden(page, part)`` before drawing
    each), and ``tells`` lists texts that give it away, which the page must not show while the
    step is asked and shows once it is revealed (the tests read the page for them).
    """

    title: str
    setup: dict[str, Any]
    question: str
    options: Sequence[str]
    answer: str
    why: str
    hides: tuple[str, ...] = ()
    tells: tuple[str, ...] = ()


MAX_OPTIONS = 8  # what a phone can be asked to choose from (pages/classroom/rooms.MAX_CHOICES)


def check_step(fields: Mapping[str, Any]) -> Step:
    """A made question (a dict of :class:`Step`'s fields) as a Step a class can be asked, or
    ``ValueError`` saying why not: a title and a question, 2 to 8 distinct options, the answer
    one of them (so exactly one is right), a why, and a setup of link values."""
    step = Step(**fields)
    options = [str(option) for option in step.options]
    if not str(step.title).strip() or not str(step.question).strip() or not str(step.why).strip():
        raise ValueError("A question has a title, a text and a why.")
    if not 2 <= len(options) <= MAX_OPTIONS or len(set(options)) != len(options):
        raise ValueError(f"A question has 2 to {MAX_OPTIONS} distinct options, got {options}.")
    if str(step.answer) not in options:
        raise ValueError(f"The answer {step.answer!r} is not one of the options {options}.")
    if not isinstance(step.setup, Mapping):
        raise ValueError("A question's setup maps the page's link parameters to values.")
    return step


@dataclass(frozen=True)
class ViewQuestion:
    """A kind of question "Ask about this view" makes from what the page shows now.

    ``make(view, rng)`` returns a dict of :class:`Step`'s fields (as ``try_this_steps`` does),
    or None where the kind does not apply to this view (no drawing yet, one class only…).
    ``view`` is the dict the lesson's page builds of what it has on screen (the lesson module's
    ``random_view`` makes one at random for the tests); ``rng`` picks among equally good
    questions (which point, which k). The answer is computed by the library; ``hides`` names the
    page's parts that would give it away (the same parts as the "Try this" steps'); the setup
    is usually empty: the view is already on the screen.
    """

    name: str  # unique in its lesson: letters, digits and _
    label: str  # the teacher's menu entry ("The class at the query")
    make: Callable[[Mapping[str, Any], np.random.Generator], dict | None]


@dataclass(frozen=True)
class Lesson:
    """One lesson page: where it lives, its menu entry, its card on the home page, and what the
    server computes for it before the first visit.

    ``page`` is the file under ``pages/``; its URL path is the file's stem (``knn.py`` is
    ``/knn``). ``warm`` names functions (``"module:function"``, no arguments) whose results every
    visitor shares: the server calls each once when it starts (``pages/server/warm.py``).
    """

    page: str
    title: str
    icon: str
    heading: str
    teaches: str
    does: str
    module: str = ""  # its words and questions: classic.lessons.<module>
    prefix: str = ""  # what its link parameters (its widgets' keys) start with
    warm: tuple[str, ...] = ()

    @property
    def url_path(self) -> str:
        return self.page.removesuffix(".py")

    @property
    def file(self) -> str:
        return f"pages/{self.page}"

    def questions(self) -> ModuleType:
        """The lesson's module, which holds its question makers (by the lessons' contract):

        - ``SAME_KIND``: one maker per "Try this" step, in the steps' order. ``maker(rng)``
          returns the step made anew (a dict of :class:`Step`'s fields): the same kind of question
          and the same ``hides``, other parameters (a seed, a point, k, a table, a drawing), a
          full ``setup`` of link values, the answer recomputed by the library, and not always the
          original step's answer (remembering the first reveal must not answer it).
        - ``VIEW_QUESTIONS``: at least three :class:`ViewQuestion`, "Ask about this view".
        - ``random_view(rng)``: a view as the page builds it, at random, for the tests.
        """
        return importlib.import_module(f"classic.lessons.{self.module}")


def lesson_of(url_path: str) -> Lesson | None:
    """The lesson whose page is at ``url_path`` ("knn"), or None."""
    return next((lesson for lesson in LESSONS if lesson.url_path == url_path), None)


_SHARED = "pages.widgets.shared"

# The lessons in menu order: app.py's navigation, the home page's cards, the server's warm start
# and the tests' page lists all read this one list; a new lesson is one entry and its page.
LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "perceptron.py",
        "Perceptron",
        ":material/timeline:",
        "Perceptron",
        "How a linear classifier learns from its mistakes: it stops when some line separates the "
        "classes (Novikoff's bound says how soon) and loops for ever on XOR, where none does; a "
        "kernel bends the line.",
        "Watch the line move at every update, place your own points, find the cycle on XOR.",
        module="perceptron",
        prefix="pc_",
        warm=(f"{_SHARED}:perceptron_steps",),
    ),
    Lesson(
        "knn.py",
        "k-NN",
        ":material/scatter_plot:",
        "k-nearest neighbours",
        "Classifying by a vote of the k nearest training points: small k follows every point, large "
        "k smooths the boundary; the distance metric and feature scaling decide what *near* means.",
        "Move k and watch the regions re-vote; try metrics, weights, scaling and a k-d tree.",
        module="knn",
        prefix="knn_",
        warm=(f"{_SHARED}:knn_steps", f"{_SHARED}:warm_knn"),
    ),
    Lesson(
        "decision-tree.py",
        "ID3 decision tree",
        ":material/account_tree:",
        "ID3 decision tree",
        "How a tree chooses its questions by information gain (entropy), split by split, with "
        "every gain shown so you can check each choice by hand; how a real-valued feature is cut at "
        "a threshold, giving axis-aligned boxes; why parity needs far more nodes than AND.",
        "Grow trees on toy tables, the 1984 congressional votes, 2-D points or your own CSV.",
        module="tree",
        prefix="tree_",
        warm=(f"{_SHARED}:tree_steps",),
    ),
    Lesson(
        "digits.py",
        "Digits",
        ":material/draw:",
        "Handwritten digits",
        "k-NN on real data: a drawing becomes the 16×16 grid of the Semeion data set and is "
        "classified against 1593 digits written by about 80 people.",
        "Draw a digit and see its grid, the vote and the nearest digits.",
        module="digits",
        prefix="digits_",
        warm=(f"{_SHARED}:warm_digits",),
    ),
    Lesson(
        "compare.py",
        "Compare",
        ":material/compare:",
        "Three classifiers, one data set",
        "What each boundary can and cannot be: the perceptron's line, k-NN's vote and a tree's "
        "axis-aligned boxes on the same points and the same axes, each with its training and held-out "
        "accuracy and its fit time.",
        "Pick a data set (XOR, circles, moons, a spiral, axis-aligned boxes, your own points) and see who wins.",
        module="compare",
        prefix="cmp_",
        warm=(f"{_SHARED}:compare_questions", f"{_SHARED}:warm_compare"),
    ),
)
