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

For peer instruction: ``SAME_KIND`` makes each step anew on other settings (a seed, a
size, k, a depth, a data set), and ``VIEW_QUESTIONS`` ask about the view on screen, which the page
hands over as ``view_of`` builds it (its keys: ``VIEW``); ``random_view`` makes one for the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from classic.compare import (
    NAMES,
    PERCEPTRONS,
    Fitted,
    Picture,
    Points,
    Split,
    _percent,
    comparison_problem,
    fit,
    flip_labels,
    make_model,
    picture,
    scores,
    split,
    title,
)
from classic.lessons import ViewQuestion, points

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


# ---------------------------------------------------------------------------------------------
# Peer instruction: a question of the same kind, and "Ask about this view"
# ---------------------------------------------------------------------------------------------

WHO = tuple(LABELS[name] for name in NAMES)
NUMBERS = (SCORES, SAID)  # what a question about accuracies hides
KERNEL_BUCKETS = ("below 60%", "60% to 90%", "above 90%")
LEAF_BUCKETS = ("2", "3 to 6", "more than 6")
ATTEMPTS = 30  # draws before a maker falls back to the original step (a tie every time)


def _setup(settings: dict[str, Any]) -> dict[str, Any]:
    """Complete settings as the page's link values (its widget keys carry ``cmp_``)."""
    return {f"cmp_{key}": value for key, value in {**DEFAULTS, **settings}.items()}


def _as_step(q: Question) -> dict[str, Any]:
    """A Question as the dict of ``classic.lessons.Step`` fields the page makes of it."""
    return {
        "title": q.title,
        "setup": _setup(q.settings),
        "question": q.question,
        "options": q.options,
        "answer": q.answer,
        "why": q.why,
        "hides": q.hides,
        "tells": q.tells,
    }


def _only_best(values: dict[str, Any], best: Any = max) -> str | None:
    """The one classifier whose value is the best (None when two share it)."""
    top = best(values.values())
    winners = [name for name, value in values.items() if value == top]
    return winners[0] if len(winners) == 1 else None


def _held_out_list(fitted: dict[str, Fitted]) -> str:
    return "Held out: " + ", ".join(f"{LABELS[n]} {_percent(fitted[n].test_accuracy)}" for n in NAMES) + "."


def _drawn(rng: np.random.Generator, draw, make, fallback: int) -> dict[str, Any]:
    """The first drawn instance with exactly one right answer: ``draw(rng)`` gives settings,
    ``make(settings, fitted)`` the step's fields or None (a tie). If every draw ties, the
    original step (``fallback``, its index), which has one answer."""
    for _ in range(ATTEMPTS):
        settings = {**DEFAULTS, **draw(rng)}
        made = make(settings, run(**settings))
        if made is not None:
            return {**made, "setup": _setup(settings)}
    return _as_step(questions()[fallback])


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 10_000))


def _points(rng: np.random.Generator, low: int, high: int) -> int:
    """A value of the points slider (steps of 10) in [low, high]."""
    return int(rng.integers(low // 10, high // 10 + 1)) * 10


def same_xor(rng: np.random.Generator) -> dict[str, Any]:
    """Step 1 anew: the worst held out on XOR, another seed and size, k and depth."""

    def draw(rng):
        return {
            "data": "XOR",
            "points": _points(rng, 100, 300),
            "seed": _seed(rng),
            "k": int(rng.integers(1, 101)),
            "depth": int(rng.choice((1, 1, 2, 3, 6, 10))),
        }

    def make(s, fitted):
        worst = _only_best({n: fitted[n].test_accuracy for n in NAMES}, min)
        if worst is None:
            return None
        k, depth = fitted["knn"].model.k, s["depth"]
        because = {
            "perceptron": "Each class sits in two opposite corners, and one line cannot put both on the same side.",
            "knn": f"With k = {k} of the {len(fitted['knn'].model.y_)} training points voting, the vote "
            "reaches far beyond a point's own corner.",
            "tree": f"At depth {depth} the tree has at most {2**depth} boxes, and XOR has four corners to tell apart.",
        }[worst]
        return {
            "title": "A line against XOR, again",
            "question": f"On XOR ({s['points']} points, seed {s['seed']}), with k-NN at k = {k} and the tree at "
            f"depth {depth}: which classifier does worst on the held-out points?",
            "options": WHO,
            "answer": LABELS[worst],
            "why": f"{_held_out_list(fitted)} {because}",
            "hides": NUMBERS,
            "tells": score_tells(fitted),
        }

    return _drawn(rng, draw, make, 0)


def same_memorises(rng: np.random.Generator) -> dict[str, Any]:
    """Step 2 anew: k-NN's training against held-out accuracy, for another set, k and noise."""

    def draw(rng):
        return {
            "data": str(rng.choice(DATASETS)),
            "points": _points(rng, 100, 300),
            "seed": _seed(rng),
            "k": int(rng.choice((1, 1, 1, 3, 5, 9, 15))),
            "flip": int(rng.choice((0, 0, 5, 10, 20, 30))),
        }

    def make(s, fitted):
        knn = fitted["knn"]
        k = knn.model.k
        answer = "higher than" if knn.gap > 0 else "the same as" if knn.gap == 0 else "lower than"
        own = " (each is its own nearest neighbour)" if k == 1 else ""
        return {
            "title": "k = 1 memorises" if k == 1 else f"k = {k}: memorised or not",
            "question": f"{s['data']}, {s['points']} points, seed {s['seed']}, with {s['flip']}% of the labels "
            f"flipped: k-NN's training accuracy at k = {k} is … its held-out accuracy.",
            "options": ("higher than", "the same as", "lower than"),
            "answer": answer,
            "why": f"{_percent(knn.train_accuracy)} on the training points{own} against "
            f"{_percent(knn.test_accuracy)} held out.",
            "hides": NUMBERS,
            "tells": score_tells(fitted),
        }

    return _drawn(rng, draw, make, 1)


def same_kernel(rng: np.random.Generator) -> dict[str, Any]:
    """Step 3 anew: a kernel perceptron's held-out accuracy, bucketed, on another set."""

    def draw(rng):
        return {
            "data": str(rng.choice(DATASETS)),
            "points": _points(rng, 100, 300),
            "seed": _seed(rng),
            "perceptron": str(rng.choice(("RBF kernel", "polynomial kernel"))),
        }

    def make(s, fitted):
        bent = fitted["perceptron"]
        if bent.test_accuracy in (0.6, 0.9):  # on a bucket's edge: ambiguous in words
            return None
        data = split(*make_data(s["data"], s["points"], s["seed"], s["flip"]), s["seed"])
        line = fit(make_model("perceptron", data), data)
        return {
            "title": "A kernel bends the line, again",
            "question": f"With the {s['perceptron']}, the perceptron's held-out accuracy on {s['data']} "
            f"({s['points']} points, seed {s['seed']}) is …",
            "options": KERNEL_BUCKETS,
            "answer": _bucket(bent.test_accuracy, (0.6, 0.9), KERNEL_BUCKETS),
            "why": f"{_percent(bent.test_accuracy)} held out, where the best line gets "
            f"{_percent(line.test_accuracy)}.",
            "hides": (*NUMBERS, PERCEPTRON_REGIONS),
            "tells": score_tells(fitted),
        }

    return _drawn(rng, draw, make, 2)


def same_staircase(rng: np.random.Generator) -> dict[str, Any]:
    """Step 4 anew: the tree's leaves on the diagonal, for another depth limit, seed and size."""

    def draw(rng):
        return {
            "data": "Diagonal boundary",
            "points": _points(rng, 40, 300),
            "seed": _seed(rng),
            "depth": int(rng.integers(1, 21)),
        }

    def make(s, fitted):
        tree = fitted["tree"]
        leaves = tree.model.n_leaves_
        if leaves < 2:  # no option says one
            return None
        return {
            "title": "The tree's staircase, again",
            "question": f"{s['points']} points (seed {s['seed']}), the tree at depth {s['depth']} at most: how many "
            "boxes (leaves) does it cut to follow the diagonal x₂ = x₁?",
            "options": LEAF_BUCKETS,
            "answer": _bucket(leaves, (3, 7), LEAF_BUCKETS),
            "why": f"{boxes(leaves)} (depth {tree.model.depth_}): each test cuts across one axis, so a diagonal "
            "boundary becomes a staircase, as fine as the depth and the points allow.",
            "hides": (SAID, TREE_REGIONS),
            "tells": (title("tree", tree), boxes(leaves)),
        }

    return _drawn(rng, draw, make, 3)


def _best_of(data: str, title_: str, question: str, fallback: int, low: int, high: int, depths=(1, 21)):
    """A maker for "which classifier does best held out" on ``data``, over seeds, sizes, k and depth."""

    def maker(rng: np.random.Generator) -> dict[str, Any]:
        def draw(rng):
            return {
                "data": data,
                "points": _points(rng, low, high),
                "seed": _seed(rng),
                "k": int(rng.integers(1, 101)),
                "depth": int(rng.integers(*depths)),
            }

        def make(s, fitted):
            best = _only_best({n: fitted[n].test_accuracy for n in NAMES})
            if best is None:
                return None
            return {
                "title": f"{title_}, again",
                "question": question.format(
                    points=s["points"], seed=s["seed"], k=fitted["knn"].model.k, depth=s["depth"]
                ),
                "options": WHO,
                "answer": LABELS[best],
                "why": _held_out_list(fitted),
                "hides": NUMBERS,
                "tells": score_tells(fitted),
            }

        return _drawn(rng, draw, make, fallback)

    return maker


same_spiral = _best_of(
    "Spiral",
    "The spiral",
    "The spiral, {points} points (seed {seed}), k-NN at k = {k}, the tree at depth {depth}: which classifier "
    "has the best held-out accuracy?",
    4,
    200,
    400,
    (2, 21),
)
same_boxes = _best_of(
    "Axis-aligned boxes",
    "Where trees do well",
    "The label is constant on two axis-aligned rectangles ({points} points, seed {seed}); k-NN at k = {k}, the "
    "tree at depth {depth}. Which classifier does best held out?",
    5,
    100,
    400,
)

# One maker per "Try this" step of ``questions()``, in its order.
SAME_KIND = (same_xor, same_memorises, same_kernel, same_staircase, same_spiral, same_boxes)


# "Ask about this view": the page builds VIEW from what it shows (``view_of``), the kinds below read it.
VIEW = """The view /compare hands "Ask about this view" (``view_of``), a plain dict:
data: the data menu's name; X, y: the points (n × 2, and their two labels); seed: the data's and
the split's seed; flip: the labels flipped, % (0 for your own points); perceptron: its kind (a
``PERCEPTRONS`` name); k: k-NN's k as fitted (capped at the training points); depth: the tree's
depth limit; n_train, n_test: the split's sizes; train, held_out: each classifier's accuracies
(``NAMES`` → a fraction); leaves: the tree's number of leaves."""


def view_of(
    data: str,
    X: Any,
    y: Any,
    seed: int,
    flip: int,
    perceptron: str,
    depth: int,
    fitted: dict[str, Fitted],
    parts: Split,
) -> dict[str, Any]:
    """The view (``VIEW``) of the three fits the page shows on these points, split into ``parts``."""
    return {
        "data": data,
        "X": np.asarray(X),
        "y": np.asarray(y),
        "seed": int(seed),
        "flip": int(flip),
        "perceptron": perceptron,
        "k": int(fitted["knn"].model.k),
        "depth": int(depth),
        "n_train": len(parts.y_train),
        "n_test": len(parts.y_test),
        "train": {n: float(fitted[n].train_accuracy) for n in NAMES},
        "held_out": {n: float(fitted[n].test_accuracy) for n in NAMES},
        "leaves": int(fitted["tree"].model.n_leaves_),
    }


def _view_scores(view: dict[str, Any]) -> str:
    return ", ".join(f"{LABELS[n]} {_percent(view['held_out'][n])}" for n in NAMES)


def _view_tells(view: dict[str, Any]) -> tuple[str, ...]:
    """The texts on the page that give an accuracy away: each panel's scores, the best held out."""
    panels = tuple(
        f"{_percent(view['train'][n])} training, {_percent(view['held_out'][n])} held out" for n in NAMES
    )
    top = max(view["held_out"].values())
    best = [LABELS[n] for n in NAMES if view["held_out"][n] == top]
    together = best[0] if len(best) == 1 else f"{', '.join(best[:-1])} and {best[-1]}"
    return (*panels, f"Best held out here: {together} ({_percent(top)}).")


def _counts(view: dict[str, Any], n: str) -> tuple[int, int]:
    """A classifier's right answers: (training, held out), as counts of points."""
    return round(view["train"][n] * view["n_train"]), round(view["held_out"][n] * view["n_test"])


def view_best(view: dict[str, Any], rng: np.random.Generator) -> dict | None:
    """Which classifier scores best held out here (None on a tie)."""
    best = _only_best({n: _counts(view, n)[1] for n in NAMES})
    if best is None:
        return None
    return {
        "title": "Best held out",
        "setup": {},
        "question": f"On these {len(view['y'])} points, which classifier scores best on the {view['n_test']} "
        "held-out points?",
        "options": WHO,
        "answer": LABELS[best],
        "why": f"Held out: {_view_scores(view)}.",
        "hides": NUMBERS,
        "tells": _view_tells(view),
    }


def view_gap(view: dict[str, Any], rng: np.random.Generator) -> dict | None:
    """Which classifier loses most from the training points to the held-out ones (None on a tie)."""
    # Exact, in fractions of a point: the two parts have different sizes.
    gaps = {n: _counts(view, n)[0] * view["n_test"] - _counts(view, n)[1] * view["n_train"] for n in NAMES}
    most = _only_best(gaps)
    if most is None:
        return None
    said = ", ".join(
        f"{LABELS[n]} {_percent(view['train'][n])} → {_percent(view['held_out'][n])}" for n in NAMES
    )
    return {
        "title": "Training against held out",
        "setup": {},
        "question": "Which classifier's accuracy drops most from its training points to the held-out ones "
        "(or rises least)?",
        "options": WHO,
        "answer": LABELS[most],
        "why": f"Training → held out: {said}. The one that drops most followed its training points most "
        "closely, noise included.",
        "hides": NUMBERS,
        "tells": _view_tells(view),
    }


def view_perceptron(view: dict[str, Any], rng: np.random.Generator) -> dict | None:
    """Whether the perceptron's held-out accuracy reaches a round percentage (one clearly off it)."""
    right, n_test = _counts(view, "perceptron")[1], view["n_test"]
    # Not a percentage the shown (rounded) accuracy would blur: at least one point away from it.
    clear = [edge for edge in (50, 60, 70, 80, 90) if abs(100 * right - edge * n_test) >= n_test]
    if not clear:
        return None
    # One of the two nearest: a question close to the accuracy, not an obvious one.
    edge = int(rng.choice(sorted(clear, key=lambda e: abs(100 * right - e * n_test))[:2]))
    options = (f"below {edge}%", f"{edge}% or more")
    kind = view["perceptron"]
    shape = "its line" if kind == "line" else f"the {kind} perceptron"
    return {
        "title": "The perceptron held out",
        "setup": {},
        "question": f"Held out, {shape} gets … of the {n_test} points right.",
        "options": options,
        "answer": options[100 * right >= edge * n_test],
        "why": f"{right} of {n_test}: {_percent(view['held_out']['perceptron'])} held out "
        f"({_percent(view['train']['perceptron'])} on the training points).",
        "hides": NUMBERS,
        "tells": _view_tells(view),
    }


VIEW_LEAF_BUCKETS = ("1 or 2", "3 to 5", "6 to 10", "11 to 20", "more than 20")


def view_leaves(view: dict[str, Any], rng: np.random.Generator) -> dict | None:
    """How many boxes (leaves) the tree cuts the plane into."""
    leaves = view["leaves"]
    # The tree's title without a fit: it reads only the number of leaves.
    shown = title("tree", Fitted(_Leaves(leaves), 0.0, 0.0, 0.0, 0.0, None))
    return {
        "title": "The tree's boxes",
        "setup": {},
        "question": f"The tree may ask up to {view['depth']} questions on a path. Into how many boxes (leaves) "
        "does it cut the plane?",
        "options": VIEW_LEAF_BUCKETS,
        "answer": _bucket(leaves, (3, 6, 11, 21), VIEW_LEAF_BUCKETS),
        "why": f"{boxes(leaves)}: each leaf is a box of the plane with one class, cut by tests across one axis.",
        "hides": (SAID, TREE_REGIONS),
        "tells": (shown, boxes(leaves)),
    }


@dataclass(frozen=True)
class _Leaves:
    n_leaves_: int


VIEW_QUESTIONS = (
    ViewQuestion("best_held_out", "Which classifier scores best held out", view_best),
    ViewQuestion("largest_gap", "Which one drops most from training to held out", view_gap),
    ViewQuestion(
        "perceptron_edge", "Whether the perceptron reaches a round percentage held out", view_perceptron
    ),
    ViewQuestion("tree_leaves", "How many boxes the tree cuts", view_leaves),
)


def random_view(rng: np.random.Generator) -> dict[str, Any]:
    """A view as the page builds it, over its menus at random (at most 400 points, for speed)."""
    while True:  # until the points can be compared (a few noisy points may leave one class)
        seed = _seed(rng)
        if rng.random() < 0.1:
            data, flip = YOURS, 0
            X, y = points.your_points("compare")[1]
        else:
            data, flip = str(rng.choice(DATASETS)), int(rng.integers(0, 9)) * 5
            X, y = make_data(data, _points(rng, 20, 400), seed, flip)
        if comparison_problem(X, y) is None:
            break
    kind, depth = str(rng.choice(PERCEPTRONS)), int(rng.integers(1, 21))
    parts = split(X, y, seed)
    params = {"perceptron": kind, "k": int(rng.integers(1, 101)), "max_depth": depth}
    fitted = {name: fit(make_model(name, parts, **params), parts) for name in NAMES}
    return view_of(data, X, y, seed, flip, kind, depth, fitted, parts)
