"""The digits lesson's words: "How it works", the page's first settings, the "Try this" steps.

Pure Python over ``classic``: the first settings are those of ``classic.digits.DEFAULT``, and
every step's answer is computed from the protocol's accuracies or from ``classic.digits``, never
typed. The pictures are in :mod:`classic.viz.digits`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from classic import digits
from classic.knn import METRICS, WEIGHTS
from classic.viz.digits import grid_description, rung_gains

HOW_IT_WORKS = {
    "formulas": [
        r"\hat y = \arg\max_c \sum_{i \in N_k} w_i [y_i = c]",
        r"d_T(x, t)^2 = \min_{a, b} \lVert x + T_x a - t - T_t b \rVert^2",
    ],
    "text": "Each of the 16×16 cells averages the ink of its share of the cropped drawing, so a drawing of "
    "any size lands on the same grid as the scanned digits. The k nearest training digits vote, each with "
    "weight w_i. The tangent distance forgives the small moves, turns and stretches that change a digit's "
    "pixels but not which digit it is: T_x holds those directions at x, T_t at t.",
}


def sidebar_defaults() -> dict:
    """The digits page's starting settings, those of ``classic.digits.default_model``: k, the
    blur and sheared-copies checkboxes, and the metric, weights and invariance as indices into their menus."""
    params = digits.DigitClassifier(**digits.DEFAULT).get_params()
    return {
        "k": params["k"],
        "metric": METRICS.index(params["metric"]),
        "weights": WEIGHTS.index(params["weights"]),
        "blur": params["blur"] > 0,
        "shear": params["shear"] > 0,
        "invariance": digits.INVARIANCES.index(params["invariance"]),
    }


def rung_notes(rungs: Sequence[tuple[str, float]], notes: dict[str, str], gains: bool = True) -> str:
    """The ladder's rungs as a Markdown list: name, gain over the rung below, what it adds
    (without ``gains``: name and what it adds, while a step asks what a rung gains)."""
    return "\n".join(
        f"- **{name}** ({gain}): {notes[name]}" if gains else f"- **{name}**: {notes[name]}"
        for (name, _), gain in zip(rungs, rung_gains(rungs), strict=True)
    )


def accuracy_range(scores: np.ndarray, k: int) -> str:
    """The spread of a setting's accuracy at ``k`` over the protocol's shuffles (seeds × k)."""
    return f"range {scores[:, k - 1].min():.1%} – {scores[:, k - 1].max():.1%}"


def wrong_count(scores: np.ndarray, k: int, tested: int) -> str:
    """How many of the first shuffle's ``tested`` digits a setting reads wrong at ``k``."""
    return f"{round((1 - scores[0, k - 1]) * tested)} of {tested}"


def _stroke_canvas(*strokes: tuple[slice, slice], size: int = 280) -> np.ndarray:
    """A transparent canvas with straight strokes of ink (rows, columns), as the canvas returns it."""
    image = np.zeros((size, size, 4), dtype=np.uint8)
    for rows, cols in strokes:
        image[rows, cols, 3] = 255
    return image


# The parts of the Evaluation tab that show the accuracy of the settings a step sets up (the page
# asks lesson.hidden about each): their tile, the lines against k (and their PNG), the confusion
# matrix with the count of digits read wrong. Steps may hide plain k-NN's tile and the ladder too.
EVALUATION = ("your_tile", "curves", "confusion")


def try_this_steps(plain: np.ndarray, blurred: np.ndarray, tested: int) -> list[dict]:
    """The page's "Try this" steps (keyword arguments of ``pages.widgets.lesson.Step``).

    ``plain`` and ``blurred`` are the protocol's accuracies (seeds × k = 1 … 50) of plain
    k-NN and of k-NN on blurred digits, on shuffles of ``tested`` test digits; every answer is
    computed from them or from ``classic.digits``, never typed. Each step hides the parts of the
    page that would give its answer away, and its ``tells`` are those parts' texts.
    """
    plain_1, plain_50, blurred_1 = plain[:, 0].mean(), plain[:, -1].mean(), blurred[:, 0].mean()
    gain = blurred_1 - plain_1
    shares = {"about 70%": 0.7, "about 80%": 0.8, "about 90%": 0.9, "about 99%": 0.99}
    gains = {
        "none": -1.0,
        "1 to 3 points": 0.01,
        "3 to 6 points": 0.03,
        "more than 6 points": 0.06,
    }  # lower ends
    change = (
        "rises" if plain_50 > plain_1 + 0.005 else "falls" if plain_50 < plain_1 - 0.005 else "stays the same"
    )
    bar = digits.canvas_to_grid(_stroke_canvas((slice(20, 260), slice(130, 150))))
    shape = (
        "a black square" if bar.mean() > 0.9 else "a vertical bar" if bar[:, 7:9].all() else "a diagonal band"
    )
    tiny = digits.read_drawing(_stroke_canvas((slice(10, 60), slice(24, 30)), (slice(10, 16), slice(10, 40))))
    said = tiny.message.split(":")[0]  # what the page says to a drawing that small

    def tells(scores: np.ndarray, k: int) -> tuple[str, ...]:
        """The Evaluation's texts for a setting at ``k``: its accuracy, spread and misreads."""
        return (f"{scores[:, k - 1].mean():.1%}", accuracy_range(scores, k), wrong_count(scores, k, tested))

    plain_setup = {"digits_k": 1, "digits_metric": "euclidean", "digits_weights": "uniform"}
    plain_setup |= {"digits_blur": False, "digits_invariance": "none", "digits_shear": False}
    plain_setup["digits_tab"] = "Evaluation"
    return [
        {
            "title": "Plain k-NN, as in the post",
            "setup": plain_setup,
            "question": f"k = 1, no blur: what share of the {tested} test digits does it read right?",
            "options": list(shares),
            "answer": min(shares, key=lambda o: abs(shares[o] - plain_1)),
            "why": f"{plain_1:.1%} on average over five shuffles (the post: 89%).",
            # Plain k-NN's own tile is the answer here, and the ladder's first bar.
            "hides": ("plain_tile", *EVALUATION, "ladder"),
            "tells": tells(plain, 1),
        },
        {
            "title": "More neighbours",
            "setup": {**plain_setup, "digits_k": 50},
            "question": "Plain k-NN from k = 1 to k = 50: does the accuracy rise or fall?",
            "options": ["rises", "stays the same", "falls"],
            "answer": change,
            "why": f"{plain_1:.1%} at k = 1, {plain_50:.1%} at k = 50: far neighbours are other digits.",
            "hides": EVALUATION,  # the ladder's rungs are at k = 1 and 3: they say nothing of k = 50
            "tells": tells(plain, 50),
        },
        {
            "title": "Blur",
            "setup": {**plain_setup, "digits_blur": True},
            "question": "Blur both sides (σ = 1 cell): how much does it add at k = 1?",
            "options": list(gains),
            "answer": max((o for o in gains if gains[o] <= gain), key=gains.get),
            "why": f"{100 * gain:+.1f} points ({plain_1:.1%} → {blurred_1:.1%}): a stroke one cell off is now "
            "near, not as far as a missing one.",
            "hides": (*EVALUATION, "ladder"),  # the ladder's second rung is blur, with its gain
            "tells": (*tells(blurred, 1), f"{100 * gain:+.1f} points"),
        },
        {
            "title": "A bare 1",
            "setup": {"digits_tab": "Draw"},
            "question": "Draw a 1 as one straight vertical stroke. What does the 16×16 grid show?",
            "options": ["a black square", "a vertical bar", "a diagonal band"],
            "answer": shape,
            "why": f"One straight stroke becomes {grid_description(bar)}. Stretched to fill the box it would "
            "be a black square; the page widens narrow drawings first.",
            "hides": ("seen_grid",),  # the grid drawn is the answer: predict, draw, then see it
            "tells": (grid_description(bar),),
        },
        {
            "title": "A tiny digit",
            "setup": {"digits_tab": "Draw"},
            "question": "Draw a small digit in a corner, a fifth of the canvas tall. What happens?",
            "options": ["it is read as an 8", "it is read right", "the page asks you to draw bigger"],
            "answer": "the page asks you to draw bigger" if tiny.status == "small" else "it is read right",
            "why": f"“{said}”: stretched to 16×16, a small drawing's strokes are several cells thick, a blob.",
            "hides": ("reading",),  # what the page does with the drawing: its note, or its reading
            "tells": (said,),
        },
    ]


def taught_caption(n: int, only: bool = False) -> str:
    """How many examples of their own a student has taught (``only``: without Semeion, they are all
    the training data)."""
    if n == 0:
        first = "No examples of yours yet: draw a digit, choose its label and press “This was a …”."
        return f"{first} Without the Semeion digits, yours are the only training data." if only else first
    words = f"{n:,} example{'s' if n != 1 else ''} of yours"
    return f"{words}: the only training data." if only else f"{words} in the training set."
