"""The /compare lesson's words and data: its menu, what the panels show, the "Try this" questions.

The data menu is the registry's (:mod:`classic.lessons.points`, the sets offered on /compare),
each with two classes as the perceptron needs, ``flip`` % of their labels swapped for noise.
``describe`` turns the fitted classifiers into the sentences the page shows: every number in
them is computed from the fits, never typed, and what it says of the tree's shape is read off
the picture drawn (:func:`classic.compare.picture`: the regions, their corners and straight
pieces), so that a sentence never calls an L a staircase. ``questions`` are the page's
predict-then-reveal steps, each answered by running the classifiers, each naming the parts of
the page (``PARTS``) and the texts that would give its answer away before the reveal. The algorithms (the split,
the fits, the grid) are in :mod:`classic.compare`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from classic.compare import (
    NAMES,
    Fitted,
    Picture,
    Points,
    _percent,
    fit,
    flip_labels,
    make_model,
    picture,
    scores,
    split,
    title,
)
from classic.lessons import points

LABELS = {"perceptron": "the perceptron", "knn": "k-NN", "tree": "the tree"}
# The parts of the page a question can hide until its answer is revealed: every accuracy (the
# panels' numbers and descriptions), the sentences under the panels, and a panel's regions (the
# tree's with its number of leaves).
SCORES, SAID, PERCEPTRON_REGIONS, TREE_REGIONS = "scores", "said", "perceptron_regions", "tree_regions"
PARTS = (SCORES, SAID, PERCEPTRON_REGIONS, TREE_REGIONS)
DATASETS = points.menu("compare")[:-1]  # the generated sets, by name (a link's value)
YOURS = points.yours("compare")


def make_data(name: str, n_points: int, seed: int, flip: float = 0) -> Points:
    """The named set's two-class points (``DATASETS``), ``flip`` % of labels swapped."""
    if name not in DATASETS:
        raise ValueError(f"data must be one of {', '.join(DATASETS)}; got {name!r}")
    X, y = points.load("compare", name, seed, n_points)
    return X, flip_labels(y, flip, seed) if flip else y


def shape_words(drawn: Picture) -> str:
    """The tree's picture in words: its cuts, and whether they make a staircase."""
    if drawn.pieces == 0:
        return "one class over the whole box"
    if drawn.corners == 0:
        return "one straight cut" if drawn.pieces == 1 else f"{drawn.pieces} straight cuts"
    kind = (
        "a staircase"
        if drawn.staircase and drawn.corners >= 3
        else "an L"
        if drawn.corners == 1 and drawn.areas == 2
        else "a boundary"
    )
    areas = "" if drawn.areas <= 2 else f" around {drawn.areas} areas"
    turns = "corner" if drawn.corners == 1 else "corners"
    return f"{kind} of {drawn.pieces} straight pieces with {drawn.corners} {turns}{areas}"


def boxes(leaves: int) -> str:
    """A tree's leaves as the boxes they cut the plane into."""
    return f"{leaves} {'box' if leaves == 1 else 'boxes'}"


def _tree_sentence(data: str, tree: Fitted, line: Fitted) -> str:
    """What the tree's panel shows, read off its picture (without one, only its boxes)."""
    leaves = tree.model.n_leaves_
    cut = boxes(leaves)
    if tree.regions is None:
        drawn = f"the tree cuts the plane into {cut}"
    else:
        its = "its leaf" if leaves == 1 else "its leaves"
        drawn = f"from {cut} ({its}) the tree draws {shape_words(picture(tree.regions))}"
    if data == "Axis-aligned boxes":
        return (
            f"Here the label is constant on large axis-aligned rectangles, where the CS 886 slides say trees "
            f"do well: {drawn}, {scores(tree)}; its cuts can sit exactly on the edges."
        )
    if data in ("Diagonal boundary", "Gaussian clusters"):
        return (
            f"The boundary between the classes is diagonal, but each of the tree's tests cuts across one axis: "
            f"{drawn}, {_percent(tree.test_accuracy)} held out against the perceptron's "
            f"{_percent(line.test_accuracy)} with one line."
        )
    return f"At depth {tree.model.depth_}, {drawn}: {scores(tree)}."


def describe(data: str, fitted: dict[str, Fitted], k: int, perceptron: str = "line") -> list[str]:
    """What the three panels show on this data set, as sentences with computed numbers.

    ``fitted`` maps ``"perceptron"``, ``"knn"`` and ``"tree"`` to their fits.
    """
    line, knn, tree = fitted["perceptron"], fitted["knn"], fitted["tree"]
    said = []
    if perceptron == "line":
        if data == "XOR":
            said.append(
                f"No line can do XOR: the best line found gets {_percent(line.train_accuracy)} of the training "
                "points right (of XOR's four corners a line classifies at most three), while k-NN "
                f"gets {_percent(knn.train_accuracy)} and the tree {_percent(tree.train_accuracy)}."
            )
        elif (
            data in ("Concentric circles", "Moons", "Spiral", "Axis-aligned boxes")
            and line.train_accuracy < 0.95
        ):
            said.append(
                f"No line follows this boundary: the best line gets {_percent(line.test_accuracy)} held out, "
                f"k-NN {_percent(knn.test_accuracy)}, the tree {_percent(tree.test_accuracy)}. "
                "Try the kernel perceptron."
            )
        elif line.train_accuracy == 1.0:
            said.append("A line separates the training points: the perceptron gets them all right.")
    else:
        said.append(
            f"The {perceptron} perceptron bends its boundary: {_percent(line.train_accuracy)} of the training "
            f"points and {_percent(line.test_accuracy)} held out."
        )
    if knn.model.k == 1 and knn.gap <= 0:
        said.append(
            f"k-NN at k = 1 gets every training point right (each is its own nearest neighbour) and "
            f"{_percent(knn.test_accuracy)} held out: no noise to memorise here; flip some labels to see it."
        )
    elif knn.model.k == 1:
        said.append(
            f"k-NN at k = 1 memorises the training points, noise and all: {_percent(knn.train_accuracy)} on them "
            f"(each is its own nearest neighbour) against {_percent(knn.test_accuracy)} held out."
        )
    elif knn.gap > 0.1:
        said.append(
            f"k-NN at k = {knn.model.k} gets {_percent(knn.train_accuracy)} of the training points and "
            f"{_percent(knn.test_accuracy)} held out: a gap of {100 * knn.gap:.0f} percentage points."
        )
    else:
        said.append(f"k-NN at k = {knn.model.k} lets {knn.model.k} neighbours vote: {scores(knn)}.")
    said.append(_tree_sentence(data, tree, line))
    said.append(best_held_out(fitted))
    return said


def best_held_out(fitted: dict[str, Fitted]) -> str:
    """The sentence naming the classifiers with the best held-out accuracy (all of them on a tie)."""
    top = max(f.test_accuracy for f in fitted.values())
    best = [LABELS[name] for name in fitted if fitted[name].test_accuracy == top]
    together = best[0] if len(best) == 1 else f"{', '.join(best[:-1])} and {best[-1]}"
    return f"Best held out here: {together} ({_percent(top)})."


def score_tells(fitted: dict[str, Fitted]) -> tuple[str, ...]:
    """What gives away a question about accuracies: each panel's two accuracies and the best."""
    return (*(scores(f) for f in fitted.values()), best_held_out(fitted))


# The page's default settings (the URL names without their ``cmp_`` prefix).
DEFAULTS: dict[str, Any] = {
    "data": "Diagonal boundary",
    "points": 200,
    "seed": 0,
    "perceptron": "line",
    "k": 15,
}
DEFAULTS.update(flip=0, depth=6)


def run(**settings: Any) -> dict[str, Fitted]:
    """The three classifiers on the data the settings name (``DEFAULTS`` for the rest), without a grid."""
    s = {**DEFAULTS, **settings}
    X, y = make_data(s["data"], s["points"], s["seed"], s["flip"])
    data = split(X, y, s["seed"])
    params = {"perceptron": s["perceptron"], "k": s["k"], "max_depth": s["depth"]}
    return {name: fit(make_model(name, data, **params), data) for name in NAMES}


@dataclass(frozen=True)
class Question:
    """A predict-then-reveal question: the settings that make the view, and the computed answer.

    ``settings`` are complete (``DEFAULTS`` for those the question does not change), so setting
    them up gives the view the answer was computed on whatever was on the screen before.
    ``hides`` names the parts of the page (``PARTS``) that would give the answer away until it is
    revealed, ``tells`` the texts that would (as ``classic.lessons.Step``).
    """

    title: str
    settings: dict[str, Any]
    question: str
    options: tuple[str, ...]
    answer: str
    why: str
    hides: tuple[str, ...] = ()
    tells: tuple[str, ...] = ()


def _bucket(value: float, edges: tuple[float, ...], options: tuple[str, ...]) -> str:
    return options[int(np.searchsorted(edges, value, side="right"))]


def questions() -> list[Question]:
    """The page's "Try this" questions, each answered by running the classifiers.

    A question about accuracies hides them all (the panels' regions stay: predicting from the
    picture is the exercise), and also a panel's regions where the picture alone would answer it.
    """
    who = tuple(LABELS[name] for name in NAMES)
    numbers = (SCORES, SAID)
    asked = []
    xor = run(data="XOR")
    worst = min(NAMES, key=lambda name: xor[name].test_accuracy)
    asked.append(
        Question(
            "A line against XOR",
            {**DEFAULTS, **{"data": "XOR"}},
            "Which classifier does worst on the held-out XOR points?",
            who,
            LABELS[worst],
            "Held out: " + ", ".join(f"{LABELS[n]} {_percent(xor[n].test_accuracy)}" for n in NAMES) + ". "
            "Each class sits in two opposite corners, and one line cannot put both on the same side.",
            numbers,
            score_tells(xor),
        )
    )
    moons = run(data="Moons", k=1, flip=10)
    knn = moons["knn"]
    compared = "higher" if knn.gap > 0 else "the same" if knn.gap == 0 else "lower"
    asked.append(
        Question(
            "k = 1 memorises",
            {**DEFAULTS, **{"data": "Moons", "k": 1, "flip": 10}},
            "With 10% of the labels flipped, k-NN's training accuracy at k = 1 is … its held-out accuracy.",
            ("higher than", "the same as", "lower than"),
            f"{compared} than" if compared != "the same" else "the same as",
            f"{_percent(knn.train_accuracy)} on the training points (each is its own nearest neighbour, flipped "
            f"ones included) against {_percent(knn.test_accuracy)} held out: it memorised the noise.",
            numbers,
            score_tells(moons),
        )
    )
    options = ("below 60%", "60% to 90%", "above 90%")
    kernel = run(data="Concentric circles", perceptron="RBF kernel")
    circles = kernel["perceptron"]
    line = run(data="Concentric circles")["perceptron"]
    asked.append(
        Question(
            "A kernel bends the line",
            {**DEFAULTS, **{"data": "Concentric circles", "perceptron": "RBF kernel"}},
            "With the RBF kernel, the perceptron's held-out accuracy on the circles is …",
            options,
            _bucket(circles.test_accuracy, (0.6, 0.9), options),
            f"{_percent(circles.test_accuracy)} held out, where the best line gets "
            f"{_percent(line.test_accuracy)}: the kernel's boundary can close around the inner ring.",
            # Its regions, closing around the ring or not, would answer the question alone.
            (*numbers, PERCEPTRON_REGIONS),
            score_tells(kernel),
        )
    )
    tree = run(data="Diagonal boundary", depth=20)["tree"]
    options = ("2", "3 to 6", "more than 6")
    asked.append(
        Question(
            "The tree's staircase",
            {**DEFAULTS, **{"data": "Diagonal boundary", "depth": 20}},
            "How many boxes (leaves) does the tree need to follow the diagonal x₂ = x₁?",
            options,
            _bucket(tree.model.n_leaves_, (3, 7), options),
            f"{boxes(tree.model.n_leaves_)}: each test cuts across one axis, so a diagonal boundary "
            "becomes a staircase; the perceptron draws it with one line.",
            # The staircase drawn could be counted; the accuracies say nothing of the leaves.
            (SAID, TREE_REGIONS),
            (title("tree", tree), boxes(tree.model.n_leaves_)),
        )
    )
    spiral = run(data="Spiral", points=400)
    best = max(NAMES, key=lambda name: spiral[name].test_accuracy)
    asked.append(
        Question(
            "The spiral",
            {**DEFAULTS, **{"data": "Spiral", "points": 400}},
            "Which classifier has the best held-out accuracy on the spiral?",
            who,
            LABELS[best],
            "Held out: " + ", ".join(f"{LABELS[n]} {_percent(spiral[n].test_accuracy)}" for n in NAMES) + ".",
            numbers,
            score_tells(spiral),
        )
    )
    rectangles = run(data="Axis-aligned boxes")
    best = max(NAMES, key=lambda name: rectangles[name].test_accuracy)
    asked.append(
        Question(
            "Where trees do well",
            {**DEFAULTS, "data": "Axis-aligned boxes"},
            "The label is constant on two axis-aligned rectangles. Which classifier does best held out?",
            who,
            LABELS[best],
            "Held out: "
            + ", ".join(f"{LABELS[n]} {_percent(rectangles[n].test_accuracy)}" for n in NAMES)
            + ". "
            "Each of the tree's tests is a cut across one axis, the shape of these edges.",
            numbers,
            score_tells(rectangles),
        )
    )
    return asked
