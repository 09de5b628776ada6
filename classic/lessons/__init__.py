"""What each lesson says and asks, Streamlit-free: its data menu, "Try this" steps, claims, prose.

One module per lesson: ``perceptron``, ``knn``, ``tree`` (with ``tree_sources``, the sources'
own versions of ID3 and their experiments), ``digits`` and ``compare``; ``points`` is the one
registry of 2-D point sets that every 2-D page's data menu, and the link to /compare, read.
Every answer a step reveals and every number a sentence holds is computed by the library, never
typed. The modules use numpy, ``classic`` and the plain helpers of ``classic.viz`` (no drawing
library); the pages in ``pages/`` turn them into widgets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Step:
    """One "Try this" step: set up a view, ask the student to predict, reveal the answer.

    ``setup`` maps the page's widget keys (its link's parameters) to the values that make the
    view (applied by a button, and written as a link a teacher can share); ``answer`` is one of
    ``options`` and, like ``why``, is computed from the library, never typed.
    """

    title: str
    setup: dict[str, Any]
    question: str
    options: Sequence[str]
    answer: str
    why: str
