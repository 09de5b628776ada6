"""The digits lesson's words: "How it works", the page's first settings, the "Try this" steps,
and the questions made for a class (``SAME_KIND``, ``VIEW_QUESTIONS``: ``classic.lessons``).

Pure Python over ``classic``: the first settings are those of ``classic.digits.DEFAULT``, and
every step's answer is computed from the protocol's accuracies or from ``classic.digits``, never
typed. The pictures are in :mod:`classic.viz.digits`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from classic import datasets, digits
from classic.knn import METRICS, WEIGHTS
from classic.lessons import ViewQuestion
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
    bar = digits.canvas_to_grid(_stroke_canvas((slice(20, 260), slice(130, 150))))
    shape = (
        "a black square" if bar.mean() > 0.9 else "a vertical bar" if bar[:, 7:9].all() else "a diagonal band"
    )
    tiny = digits.read_drawing(_stroke_canvas((slice(10, 60), slice(24, 30)), (slice(10, 16), slice(10, 40))))
    said = tiny.message.split(":")[0]  # what the page says to a drawing that small

    def tells(scores: np.ndarray, k: int) -> tuple[str, ...]:
        return _tells(scores, k, tested)

    plain_setup = _evaluation_setup(1, blur=False)
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
            "answer": _change(plain_1, plain_50),
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


# ---------------------------------------------------------------------------------------------
# Peer instruction: a question of the same kind per "Try this" step, and "Ask about this view".

# The answers' bins, by their lower ends: three points wide where the settings' accuracies lie
# (84% to 94%, k = 1 … 50, blurred or not), so that k and the blur move the answer.
TESTED_SHARE_BINS = (
    (0.0, "below 85%"),
    (0.85, "85% to 88%"),
    (0.88, "88% to 91%"),
    (0.91, "91% to 94%"),
    (0.94, "94% or more"),
)
GAIN_BINS = {"none": -100.0, "1 to 3 points": 1.0, "3 to 6 points": 3.0, "more than 6 points": 6.0}
SHAPES = ("a black square", "a vertical bar", "a horizontal bar", "a diagonal band")
CANVAS, PEN = 280, 18  # the page's canvas (pixels a side) and its default pen width


@functools.lru_cache(maxsize=1)
def semeion() -> tuple[np.ndarray, np.ndarray]:
    """The Semeion digits (rows of 256 pixels, labels), read once: the makers' and the views' data."""
    return datasets.load_semeion()


@functools.lru_cache(maxsize=16)
def protocol(blur: float = 0.0, metric: str = "euclidean", weights: str = "uniform") -> np.ndarray:
    """The post's protocol's accuracy (seeds × k = 1 … 50) for one setting without invariances,
    as the page computes it (``pages.widgets.shared.digits_results``): a fraction of a second,
    kept for every later question."""
    X, y = semeion()
    return digits.protocol_curve(X, y, range(1, 51), blur=blur, metric=metric, weights=weights)


def _tested() -> int:
    """How many digits each shuffle of the protocol tests (1593 − 800)."""
    return len(semeion()[1]) - 800


def _share_bin(share: float) -> str:
    """The bin of an accuracy, read off its value rounded as the why shows it (one decimal)."""
    shown = round(100 * share, 1) / 100
    return [name for low, name in TESTED_SHARE_BINS if shown >= low - 1e-12][-1]


def _gain_bin(points: float) -> str:
    """The bin of a gain in points, read off its value rounded as the why shows it."""
    shown = round(points, 1)
    return max((o for o in GAIN_BINS if GAIN_BINS[o] <= shown + 1e-12), key=GAIN_BINS.get)


def _change(before: float, after: float) -> str:
    return "rises" if after > before + 0.005 else "falls" if after < before - 0.005 else "stays the same"


def _tells(scores: np.ndarray, k: int, tested: int) -> tuple[str, ...]:
    """The Evaluation's texts for a setting at ``k``: its accuracy, spread and misreads."""
    return (f"{scores[:, k - 1].mean():.1%}", accuracy_range(scores, k), wrong_count(scores, k, tested))


def _evaluation_setup(k: int, blur: bool) -> dict[str, Any]:
    """The page's link values for plain k-NN (blurred or not) at ``k``, on the Evaluation tab."""
    setup = {"digits_k": int(k), "digits_metric": "euclidean", "digits_weights": "uniform"}
    setup |= {"digits_blur": bool(blur), "digits_invariance": "none", "digits_shear": False}
    return setup | {"digits_tab": "Evaluation"}


def same_share(rng: np.random.Generator) -> dict:
    """Step 1 anew: what share plain k-NN (blurred or not) reads right at a k of 1 … 50."""
    k, blur = int(rng.integers(1, 51)), bool(rng.integers(2))
    scores, tested = protocol(1.0 if blur else 0.0), _tested()
    share = scores[:, k - 1].mean()
    kind = "blur (σ = 1 cell)" if blur else "no blur"
    return {
        "title": "Plain k-NN, as in the post, again",
        "setup": _evaluation_setup(k, blur),
        "question": f"k = {k}, {kind}: what share of the {tested} test digits does it read right?",
        "options": [name for _, name in TESTED_SHARE_BINS],
        "answer": _share_bin(share),
        "why": f"{share:.1%} on average over five shuffles ({accuracy_range(scores, k)}).",
        "hides": ("plain_tile", *EVALUATION, "ladder"),
        "tells": _tells(scores, k, tested),
    }


def same_change(rng: np.random.Generator) -> dict:
    """Step 2 anew: from k = a to k = b (blurred or not), does the accuracy rise, stay or fall?"""
    # Mostly near k, where the accuracy can still rise (plain k-NN peaks at k = 4), sometimes far.
    a = int(rng.integers(1, 5) if rng.random() < 0.5 else rng.integers(1, 46))
    b = min(50, a + int(rng.choice([1, 2, 3, 5, 10, 25])))
    blur = bool(rng.integers(2))
    scores = protocol(1.0 if blur else 0.0)
    before, after = scores[:, a - 1].mean(), scores[:, b - 1].mean()
    kind = "blurred k-NN (σ = 1 cell)" if blur else "Plain k-NN"
    return {
        "title": "More neighbours, again",
        "setup": _evaluation_setup(b, blur),
        "question": f"{kind} from k = {a} to k = {b}: does the accuracy rise or fall?",
        "options": ["rises", "stays the same", "falls"],
        "answer": _change(before, after),
        "why": f"{before:.1%} at k = {a}, {after:.1%} at k = {b} (half a point either way: the same).",
        "hides": EVALUATION,
        "tells": _tells(scores, b, _tested()),
    }


def same_blur(rng: np.random.Generator) -> dict:
    """Step 3 anew: how much blur adds to plain k-NN at a k of 1 … 50."""
    k = int(rng.integers(1, 51))
    plain, blurred = protocol(0.0), protocol(1.0)
    before, after = plain[:, k - 1].mean(), blurred[:, k - 1].mean()
    points = 100 * (after - before)
    return {
        "title": "Blur, again",
        "setup": _evaluation_setup(k, True),
        "question": f"Blur both sides (σ = 1 cell): how much does it add at k = {k}?",
        "options": list(GAIN_BINS),
        "answer": _gain_bin(points),
        "why": f"{points:+.1f} points ({before:.1%} → {after:.1%}) at k = {k}.",
        "hides": (*EVALUATION, "ladder"),
        "tells": _tells(blurred, k, _tested()),  # the ladder's gains are at k = 1 and 3 (and hidden)
    }


# One straight stroke through the canvas's centre: its direction (dx, dy) and how a question says it.
STROKES = {
    "vertical": ((0.0, 1.0), "straight down (a bare 1)"),
    "horizontal": ((1.0, 0.0), "straight across (a minus sign)"),
    "falling": ((1.0, 1.0), "from top left to bottom right, at 45°"),
    "rising": ((1.0, -1.0), "from bottom left to top right, at 45°"),
    "leaning": ((1.0, 6.0), "down, leaning right by one in six (a slanted 1)"),
}
LENGTHS = {"half": 0.5, "three quarters": 0.75, "nine tenths": 0.9}  # of the canvas's side


def pen_canvas(
    segments: Sequence[tuple[tuple[float, float], tuple[float, float]]], width: float = PEN
) -> np.ndarray:
    """A transparent canvas with round-pen strokes of ``width`` along straight segments ((x, y) pairs)."""
    rows, cols = np.mgrid[0:CANVAS, 0:CANVAS]
    inked = np.zeros((CANVAS, CANVAS), dtype=bool)
    for (x0, y0), (x1, y1) in segments:
        dx, dy = x1 - x0, y1 - y0
        t = np.clip(((cols - x0) * dx + (rows - y0) * dy) / max(dx * dx + dy * dy, 1e-9), 0, 1)
        inked |= np.hypot(cols - x0 - t * dx, rows - y0 - t * dy) <= width / 2
    image = np.zeros((CANVAS, CANVAS, 4), dtype=np.uint8)
    image[inked, 3] = 255
    return image


def stroke_canvas(direction: str, length: str) -> np.ndarray:
    """One straight stroke of ``STROKES[direction]`` and ``LENGTHS[length]``, centred on the canvas."""
    (dx, dy), _ = STROKES[direction]
    half = LENGTHS[length] * CANVAS / 2 / np.hypot(dx, dy)
    centre = CANVAS / 2
    return pen_canvas([((centre - half * dx, centre - half * dy), (centre + half * dx, centre + half * dy))])


def grid_shape(grid: np.ndarray) -> str:
    """What a grid of one stroke looks like (one of ``SHAPES``): all ink, a bar along a side
    (every row, or every column, inked, the other way less than half), or a band."""
    cells = np.asarray(grid).reshape(digits.SIZE, digits.SIZE) > 0
    if cells.mean() > 0.9:
        return SHAPES[0]
    columns, rows = cells.any(axis=0).sum(), cells.any(axis=1).sum()
    if rows == digits.SIZE and columns <= digits.SIZE // 2:
        return SHAPES[1]
    if columns == digits.SIZE and rows <= digits.SIZE // 2:
        return SHAPES[2]
    return SHAPES[3]


def same_stroke(rng: np.random.Generator) -> dict:
    """Step 4 anew: one straight stroke (a direction and a length): what does the grid show?"""
    direction, length = str(rng.choice(list(STROKES))), str(rng.choice(list(LENGTHS)))
    grid = digits.canvas_to_grid(stroke_canvas(direction, length))
    said, shape = STROKES[direction][1], grid_shape(grid)
    return {
        "title": "One straight stroke",
        "setup": {"digits_tab": "Draw"},
        "question": f"Draw one straight stroke {said}, {length} of the canvas long, through its centre, "
        f"with the pen at {PEN}. What does the 16×16 grid show?",
        "options": list(SHAPES),
        "answer": shape,
        "why": f"The stroke becomes {grid_description(grid)}: cropped to its ink and stretched to fill the box, "
        "a wide flat box becomes all ink; a narrow one is widened first.",
        "hides": ("seen_grid",),
        "tells": (grid_description(grid),),
    }


# A drawn 7 (a bar and a stem), ``size`` of the canvas tall with the pen's ink, in a corner.
SIZES = {"6%": 0.06, "8%": 0.08, "20%": 0.2, "25%": 0.25, "40%": 0.4, "50%": 0.5, "60%": 0.6, "80%": 0.8}
CORNERS = {"top left": (0, 0), "top right": (1, 0), "bottom left": (0, 1), "bottom right": (1, 1)}
OUTCOMES = {
    "ok": "the page reads it as a digit",
    "small": "the page asks you to draw bigger",
    "dot": "the page says it is a dot",
    "filled": "the page says it is solid ink",
}


def seven_canvas(size: float, corner: str, margin: int = 12) -> np.ndarray:
    """A 7 whose ink is ``size`` of the canvas tall (0.6 of that wide), ``margin`` pixels from a corner."""
    right, bottom = CORNERS[corner]
    height = size * CANVAS - PEN  # the pen adds half its width above and below the strokes
    left = CANVAS - margin - PEN / 2 - 0.6 * height if right else margin + PEN / 2
    top = CANVAS - margin - PEN / 2 - height if bottom else margin + PEN / 2
    bar, foot = (left + 0.6 * height, top), (left + 0.15 * height, top + height)
    return pen_canvas([((left, top), bar), (bar, foot)])


def same_tiny(rng: np.random.Generator) -> dict:
    """Step 5 anew: a 7 of some size in some corner: does the page read it, or say why not?"""
    size, corner = str(rng.choice(list(SIZES))), str(rng.choice(list(CORNERS)))
    drawing = digits.read_drawing(seven_canvas(SIZES[size], corner))
    said = drawing.message.split(":")[0] if drawing.message else ""
    why = f"“{said}”." if said else "It is read: the page shows the digit it is read as and the vote."
    return {
        "title": "A digit's size",
        "setup": {"digits_tab": "Draw"},
        "question": f"Draw a 7 in the {corner} corner, {size} of the canvas tall, with the pen at {PEN}. "
        "What happens?",
        "options": list(OUTCOMES.values()),
        "answer": OUTCOMES[drawing.status],
        "why": f"{why} Below {digits.SMALL / 3:.0%} of the canvas a drawing is a dot; below {digits.SMALL:.0%} "
        "it is too small: stretched to 16×16, its strokes become a blob.",
        "hides": ("reading",),
        "tells": (said,) if said else ("Read in",),
    }


SAME_KIND = (same_share, same_change, same_blur, same_stroke, same_tiny)


# "Ask about this view": the dict the page builds of what it shows (pages/digits.py), its keys:
VIEW = """
- ``model``: the page's fitted classifier (its settings with k = 1: ``vote`` takes the k), or None
  without training digits;
- ``y``: the training digits' labels (Semeion's, then the session's own), indexed like the model's
  neighbours;
- ``k``: the page's k;
- ``settings``: the sidebar's classifier settings (``DigitClassifier``'s parameters, k included);
- ``grid``: the drawing as the 16×16 grid the model reads, or None (no drawing, or one the page
  does not read: a dot, solid ink, too small);
- ``accuracy``: the protocol's accuracy of these settings (seeds × k = 1 … 50) while the
  Evaluation tab shows it, else None.
"""
READING = ("reading",)  # the page's part with the digit read, the vote and the nearest digits


def _vote(view: Mapping[str, Any], k: int) -> tuple[int, np.ndarray, np.ndarray]:
    """The drawing's reading at ``k``: the digit, each class's vote share, the neighbours' rows."""
    labels, share, _, indices = view["model"].vote(np.asarray(view["grid"]).reshape(1, -1), k)
    return int(labels[0]), share[0], indices[0]


def _readable(view: Mapping[str, Any]) -> bool:
    return view.get("grid") is not None and view.get("model") is not None and len(view["y"]) >= view["k"]


def _digit_options(answer: int, likely: Sequence[int], rng: np.random.Generator, n: int = 4) -> list[str]:
    """``answer`` and ``n`` − 1 other digits, the ``likely`` ones first (the runners-up), in order."""
    others = [int(d) for d in dict.fromkeys(likely) if int(d) != answer]
    rest = [d for d in rng.permutation(10) if d != answer and d not in others]
    return [str(d) for d in sorted([answer, *(others + [int(d) for d in rest])[: n - 1]])]


def read_as(view: Mapping[str, Any], rng: np.random.Generator) -> dict | None:
    """What the model reads the drawing as, at the page's k."""
    if not _readable(view):
        return None
    k = int(view["k"])
    digit, share, indices = _vote(view, k)
    classes = view["model"].classes_
    runners = [classes[c] for c in np.argsort(-share, kind="stable") if share[c] > 0]
    return {
        "title": "What the model reads the drawing as",
        "setup": {},
        "question": f"The drawing on the screen, k = {k}: what does the model read it as?",
        "options": _digit_options(digit, [*runners, *view["y"][indices]], rng),
        "answer": str(digit),
        "why": f"Its {k} nearest training digit{'s' if k > 1 else ''} vote {share.max():.0%} for {digit}.",
        "hides": READING,
        "tells": (f"Read as {digit} with {share.max():.0%} of the vote",),
    }


def nearest_class(view: Mapping[str, Any], rng: np.random.Generator) -> dict | None:
    """The class of the drawing's nearest training digit."""
    if not _readable(view):
        return None
    _, share, indices = _vote(view, max(1, min(int(view["k"]), 5)))
    labels = [int(label) for label in view["y"][indices]]
    return {
        "title": "The nearest digit",
        "setup": {},
        "question": "The drawing on the screen: which digit is its nearest training digit?",
        "options": _digit_options(labels[0], labels[1:], rng),
        "answer": str(labels[0]),
        "why": f"The nearest training digit, with these settings' distance, is a {labels[0]}"
        + (f"; the next are {', '.join(map(str, labels[1:]))}." if len(labels) > 1 else "."),
        "hides": READING,
        "tells": (),
    }


def _count_options(k: int) -> list[tuple[int, int]]:
    """Ranges of counts 1 … k: one a count while there are at most 8, else 5 of about equal width."""
    if k <= 8:
        return [(n, n) for n in range(1, k + 1)]
    edges = np.linspace(0, k, 6).round().astype(int)
    return [(int(lo) + 1, int(hi)) for lo, hi in zip(edges[:-1], edges[1:], strict=True)]


def agreeing(view: Mapping[str, Any], rng: np.random.Generator) -> dict | None:
    """How many of the k nearest digits are the digit the drawing is read as (k ≥ 2)."""
    if not _readable(view) or int(view["k"]) < 2:
        return None
    k = int(view["k"])
    digit, _, indices = _vote(view, k)
    count = int(np.sum(view["y"][indices] == digit))
    ranges, uniform = _count_options(k), view["settings"].get("weights") == "uniform"
    said = [str(lo) if lo == hi else f"{lo} to {hi}" for lo, hi in ranges]
    return {
        "title": "How many of the k nearest agree",
        "setup": {},
        "question": f"The drawing on the screen is read with its k = {k} nearest training digits: "
        "how many of them are the digit it is read as?",
        "options": said,
        "answer": next(s for s, (lo, hi) in zip(said, ranges, strict=True) if lo <= count <= hi),
        "why": f"{count} of the {k} nearest are {digit}s{'.' if uniform else ' (weighted by distance).'}",
        "hides": READING,
        "tells": (),
    }


def best_k(view: Mapping[str, Any], rng: np.random.Generator) -> dict | None:
    """Which of four k scores best on the protocol with the page's settings (the Evaluation tab)."""
    scores = view.get("accuracy")
    if scores is None:
        return None
    means = np.round(np.asarray(scores).mean(axis=0), 3)  # as the tile shows them, to a tenth of a point
    for _ in range(20):  # four k whose accuracies differ as shown, so that one is best
        ks = sorted(int(k) for k in rng.choice(np.arange(1, len(means) + 1), 4, replace=False))
        if len({means[k - 1] for k in ks}) == 4:
            break
    else:
        return None
    best = max(ks, key=lambda k: means[k - 1])
    return {
        "title": "The best k",
        "setup": {},
        "question": f"These settings on the post's protocol: which k reads the most test digits right, of "
        f"{', '.join(map(str, ks[:-1]))} and {ks[-1]}?",
        "options": [f"k = {k}" for k in ks],
        "answer": f"k = {best}",
        "why": "; ".join(f"k = {k}: {means[k - 1]:.1%}" for k in ks) + ", on average over five shuffles.",
        "hides": ("plain_tile", *EVALUATION, "ladder"),  # the ladder's rungs are settings at k = 1 and 3
        "tells": tuple(f"{means[k - 1]:.1%}" for k in ks if k == best),
    }


VIEW_QUESTIONS = (
    ViewQuestion("read_as", "What the model reads the drawing as", read_as),
    ViewQuestion("nearest_class", "The class of the nearest digit", nearest_class),
    ViewQuestion("agreeing", "How many of the k nearest agree", agreeing),
    ViewQuestion("best_k", "Which k scores best (Evaluation)", best_k),
)

# The settings random_view draws from: two metrics, both weights, blur or not; not the invariances
# and the sheared copies, whose searches the tests' brute force would take minutes to repeat.
VIEW_METRICS = ("euclidean", "manhattan")


@functools.lru_cache(maxsize=16)
def _fitted(metric: str, weights: str, blur: float) -> digits.DigitClassifier:
    return digits.DigitClassifier(metric=metric, weights=weights, blur=blur).fit(*semeion())


def random_view(rng: np.random.Generator) -> dict:
    """A view as the page builds it, at random: settings from the sidebar's menus, k, and a drawing
    (a Semeion digit moved by a cell with a few cells flipped; none, one time in eight)."""
    X, y = semeion()
    metric, weights = str(rng.choice(VIEW_METRICS)), str(rng.choice(["uniform", "distance"]))
    blur, k = float(rng.integers(2)), int(rng.integers(1, 51))
    grid = None
    if rng.random() > 1 / 8:
        digit = X[rng.integers(len(X))].reshape(digits.SIZE, digits.SIZE)
        grid = digits.shifted(digit[None].astype(np.float64), *map(int, rng.integers(-1, 2, 2)))[0]
        flips = rng.choice(grid.size, 6, replace=False)
        grid.flat[flips] = 1 - grid.flat[flips]
        grid = grid.astype(np.uint8)
        grid = grid if grid.any() else None
    settings = {
        "k": k,
        "metric": metric,
        "weights": weights,
        "blur": blur,
        "invariance": "none",
        "shear": 0.0,
    }
    return {
        "model": _fitted(metric, weights, blur),
        "y": y,
        "k": k,
        "settings": settings,
        "grid": grid,
        # The Evaluation tab open half the time (Euclidean only: the other searches are slower to repeat).
        "accuracy": protocol(blur, metric, weights) if metric == "euclidean" and rng.random() < 0.7 else None,
    }
