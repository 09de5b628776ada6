"""One 2-D data set through three classifiers: the perceptron's line, k-NN's vote and ID3's boxes.

Each classifier is fitted on the same seeded training split (70 % of the points, each class
split in proportion) and scored on the held-out rest. Each also predicts every pixel of a grid
over the data's bounding box: that grid is the picture of its decision regions (for k-NN the
grid's nearest training points are searched once, so any k is only a vote). The times are
wall-clock seconds (``time.perf_counter``) of ``fit`` and of predicting the held-out points.
k-NN's fit only stores the points (a lazy learner), so its cost moves to prediction; the
perceptron and the tree do their work in ``fit``.

The perceptron separates two classes, so every data set here has two. Its line is the pocket
perceptron's: the weights with the fewest training mistakes seen, the best line it finds when
no line separates the classes. The pocket scores every update against all training points, so
its passes are budgeted: as many as make ``POCKET_VISITS`` point visits, between 3 and
``EPOCHS``. The kernel perceptron (dual form, ``EPOCHS`` passes) replaces ``x·z`` by the RBF
kernel ``exp(−γ |x − z|²)`` with ``γ = 1 / (2 Var(X))``, the variance over all coordinates of
the training points (scikit-learn's ``gamma="scale"`` for two features), so the same setting
suits data of any spread; or by the polynomial kernel ``(x·z + 1)²``.

The data menu, the sentences the page shows and its questions are in
:mod:`classic.lessons.compare`; ``picture`` reads the shape of a panel's regions, for them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import numpy as np

from classic.evaluation import train_test_split
from classic.id3 import ID3
from classic.knn import KNNClassifier, NeighbourTable, neighbour_table, region_grid
from classic.perceptron import DualPerceptron, Perceptron

Points = tuple[np.ndarray, np.ndarray]

TEST_SIZE = 0.3
K_MAX = 100  # the largest k the page offers
EPOCHS = 20
POCKET_VISITS = 1500
GRID_CHUNK = 2000  # grid rows per prediction call: bounds the kernel perceptron's n × chunk matrix

PERCEPTRONS = ("line", "RBF kernel", "polynomial kernel")
NAMES = ("perceptron", "knn", "tree")


@dataclass(frozen=True)
class Split:
    """The seeded training and held-out parts of one data set."""

    X_train: np.ndarray
    X_test: np.ndarray
    y_train: np.ndarray
    y_test: np.ndarray


@dataclass(frozen=True)
class Fitted:
    """One classifier fitted on a split: its scores, its times and its regions on the grid."""

    model: Any
    train_accuracy: float
    test_accuracy: float
    fit_seconds: float
    predict_seconds: float
    regions: np.ndarray | None  # class index (0 or 1) per grid point, or None without a grid

    @property
    def gap(self) -> float:
        """Training minus held-out accuracy: how much of the fit was memorised."""
        return self.train_accuracy - self.test_accuracy


def flip_labels(y: np.ndarray, percent: float, seed: int) -> np.ndarray:
    """A copy of two-class labels with ``percent`` % of them (rounded, chosen by the seed) swapped.

    Label noise: the flipped points sit inside the other class's region, where no classifier
    should follow them.
    """
    y = np.asarray(y)
    if not 0 <= percent <= 100:
        raise ValueError(f"percent must be in [0, 100]; got {percent!r}")
    classes, index = np.unique(y, return_inverse=True)
    if len(classes) != 2:
        raise ValueError(f"flip_labels needs two classes; got {len(classes)}")
    # A stream of its own, so flipping does not change the points the same seed generated.
    chosen = np.random.default_rng([int(seed), 1]).permutation(len(y))[: round(len(y) * percent / 100)]
    index = index.copy()
    index[chosen] = 1 - index[chosen]
    return classes[index]


def comparison_problem(X: Any, y: Any) -> str | None:
    """Why these points cannot be compared (a sentence), or None when they can.

    The split needs at least two points of each of exactly two classes, so that both classes
    are in the training part.
    """
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
    if X.ndim != 2 or X.shape[1] != 2 or len(X) != len(y):
        return "The points must be rows of two coordinates, each with a class."
    if not np.isfinite(X).all():
        return "Every coordinate must be a finite number."
    classes, counts = np.unique(y, return_counts=True)
    if len(classes) != 2 or counts.min() < 2:
        return "The comparison needs exactly two classes with at least two points each."
    return None


def split(X: np.ndarray, y: np.ndarray, seed: int) -> Split:
    """A seeded, stratified split: 70 % to train on, 30 % held out."""
    return Split(*train_test_split(X, y, test_size=TEST_SIZE, random_state=int(seed), stratify=True))


def rbf_gamma(X: np.ndarray) -> float:
    """γ = 1 / (2 Var(X)) over all coordinates (1 when the points do not spread)."""
    variance = float(np.var(X))
    return 1.0 / (2.0 * variance) if variance > 0 else 1.0


def make_perceptron(kind: str, X_train: np.ndarray) -> Perceptron | DualPerceptron:
    """The pocket perceptron's line, or the kernel perceptron (``PERCEPTRONS``)."""
    if kind == "line":
        return Perceptron(max_epochs=int(np.clip(POCKET_VISITS // len(X_train), 3, EPOCHS)), pocket=True)
    if kind == "RBF kernel":
        return DualPerceptron(kernel="rbf", gamma=rbf_gamma(X_train), max_epochs=EPOCHS)
    if kind == "polynomial kernel":
        return DualPerceptron(kernel="polynomial", degree=2, max_epochs=EPOCHS)
    raise ValueError(f"perceptron must be one of {', '.join(PERCEPTRONS)}; got {kind!r}")


def make_model(name: str, data: Split, perceptron: str = "line", k: int = 15, max_depth: int | None = None):
    """An unfitted classifier: ``"perceptron"``, ``"knn"`` (k capped at the training size) or ``"tree"``."""
    if name == "perceptron":
        return make_perceptron(perceptron, data.X_train)
    if name == "knn":
        return KNNClassifier(k=min(int(k), len(data.y_train)))
    if name == "tree":
        return ID3(max_depth=max_depth)
    raise ValueError(f"classifier must be one of {', '.join(NAMES)}; got {name!r}")


def _predict(model: Any, X: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Predictions in chunks, as labels of the training dtype (ID3 answers with strings)."""
    chunks = [model.predict(X[i : i + GRID_CHUNK]) for i in range(0, len(X), GRID_CHUNK)]
    return np.concatenate(chunks).astype(dtype)


def fit(model: Any, data: Split, grid: np.ndarray | None = None) -> Fitted:
    """Fit on the training part (timed), predict the held-out part (timed), score both parts,
    and classify the grid when one is given."""
    dtype = data.y_train.dtype
    start = time.perf_counter()
    model.fit(data.X_train, data.y_train)
    fit_seconds = time.perf_counter() - start
    start = time.perf_counter()
    test = float(np.mean(_predict(model, data.X_test, dtype) == data.y_test))
    predict_seconds = time.perf_counter() - start
    train = float(np.mean(_predict(model, data.X_train, dtype) == data.y_train))
    regions = None
    if grid is not None:
        regions = np.searchsorted(np.unique(data.y_train), _predict(model, grid, dtype)).astype(np.uint8)
    return Fitted(model, train, test, fit_seconds, predict_seconds, regions)


def grid_neighbours(data: Split, grid: np.ndarray) -> NeighbourTable:
    """The ``K_MAX`` nearest training points of every grid point, searched once per split: any
    k up to it is then only a vote (the k slider moves without a new search)."""
    return neighbour_table(grid, data.X_train, min(K_MAX, len(data.y_train)))


def with_knn_regions(fitted: Fitted, table: NeighbourTable, data: Split) -> Fitted:
    """The k-NN fit with its regions voted from the grid's neighbour table (the same vote and tie
    rule as ``KNNClassifier.predict``)."""
    y_index = np.searchsorted(np.unique(data.y_train), data.y_train)
    return replace(fitted, regions=table.vote(y_index, fitted.model.k)[0].astype(np.uint8))


def box(X: np.ndarray, resolution: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The grid the regions are drawn on (``resolution``² points over the data's bounding box,
    row-major from the lowest x₂), and the box's low and high corners."""
    xs, ys, grid = region_grid(X, resolution)
    return grid, np.array([xs[0], ys[0]]), np.array([xs[-1], ys[-1]])


@dataclass(frozen=True)
class Picture:
    """What a panel's regions look like: its areas of one colour, and the boundary between them
    counted as the eye reads it, in corners (where it turns) and straight pieces."""

    areas: int
    corners: int
    pieces: int
    staircase: bool


def picture(regions: np.ndarray) -> Picture:
    """The shape of a square grid of class indices (``Fitted.regions``) as drawn.

    Areas are 4-connected runs of one class. A corner is a grid vertex where the boundary turns:
    one of its four pixels differs from the other three (two corners where the two classes
    meet diagonally). Every straight piece of boundary ends at a corner or on the frame, so the
    pieces are the corners plus half the ends on the frame (the changes of class along it).
    """
    side = int(round(np.sqrt(np.size(regions))))
    g = np.reshape(np.asarray(regions), (side, side)).astype(np.int64)
    a, b, c, d = g[:-1, :-1], g[:-1, 1:], g[1:, :-1], g[1:, 1:]
    same = (a == b).astype(int) + (a == c) + (a == d) + (b == c) + (b == d) + (c == d)
    # Among four pixels of two classes: 3 + 1 leaves 3 equal pairs, 2 + 2 leaves 2 (diagonal when a == d).
    corners = int(np.sum(same == 3) + 2 * np.sum((same == 2) & (a == d)))
    frame = np.concatenate([g[0, :], g[1:, -1], g[-1, -2::-1], g[-2:0:-1, 0]])
    ends = int(np.sum(frame != np.roll(frame, 1)))
    return Picture(_areas(g), corners, corners + ends // 2, _staircase(g))


def _areas(g: np.ndarray) -> int:
    """The number of 4-connected areas of one class in the grid g.

    Each row is cut into runs of one class; two runs of the same class in neighbouring rows
    whose columns overlap are one area (a union-find over the runs, a few hundred of them).
    """
    runs = []  # (row, first column, last column, class)
    for r, row in enumerate(g):
        starts = np.flatnonzero(np.diff(row, prepend=row[0] - 1))
        ends = np.append(starts[1:], len(row)) - 1
        runs.extend((r, int(a), int(b), int(row[a])) for a, b in zip(starts, ends, strict=True))
    parent = list(range(len(runs)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    above = 0  # the first run of the previous row
    for i, (r, a, b, c) in enumerate(runs):
        while runs[above][0] < r - 1:
            above += 1
        j = above
        while j < i and runs[j][0] == r - 1:
            rr, aa, bb, cc = runs[j]
            if cc == c and aa <= b and a <= bb:
                parent[root(i)] = root(j)
            j += 1
    return sum(root(i) == i for i in range(len(runs)))


def _staircase(g: np.ndarray) -> bool:
    """Whether the two classes meet along a staircase: along one axis every line of pixels
    changes class at most once, always from the same class to the other, at a place that only
    moves one way from line to line."""
    for lines in (g.T, g):  # the columns, then the rows (each a row of ``lines``)
        changes = np.diff(lines, axis=1) != 0
        if changes.sum(axis=1).max() > 1:
            continue
        first = lines[changes.any(axis=1), 0]
        if len(np.unique(first)) > 1:
            continue
        low = first[0] if len(first) else lines[0, 0]
        # Where each line changes class: 0 if it is all the second class, its length if all the first.
        at = np.where(
            changes.any(axis=1), changes.argmax(axis=1) + 1, np.where(lines[:, 0] == low, g.shape[0], 0)
        )
        steps = np.diff(at)
        if (steps >= 0).all() or (steps <= 0).all():
            return True
    return False


def title(name: str, fitted: Fitted, perceptron: str = "line", leaves: bool = True) -> str:
    """A panel's title: the classifier and the setting that shapes its regions.

    The tree's is its number of leaves, or a question mark without ``leaves`` (while a question
    asks for that number).
    """
    if name == "perceptron":
        return f"Perceptron: {perceptron}"
    if name == "knn":
        return f"k-NN, k = {fitted.model.k}"
    if not leaves:
        return "ID3 tree: ? leaves"
    n = fitted.model.n_leaves_
    return f"ID3 tree: {n} {'leaf' if n == 1 else 'leaves'}"


def scores(fitted: Fitted) -> str:
    """A panel's two accuracies in words, as a panel's description and the sentences say them."""
    return f"{_percent(fitted.train_accuracy)} training, {_percent(fitted.test_accuracy)} held out"


def _milliseconds(seconds: float) -> str:
    return f"{1000 * seconds:.1f} ms" if seconds < 0.01 else f"{1000 * seconds:.0f} ms"


class Numbers(NamedTuple):
    """A panel's numbers as the page shows them: the held-out accuracy (the headline), the
    training accuracy, and the times (fit, and predicting the held-out points)."""

    held_out: str
    training: str
    times: str


def numbers(fitted: Fitted) -> Numbers:
    """A panel's accuracies and times, as text."""
    return Numbers(
        _percent(fitted.test_accuracy),
        _percent(fitted.train_accuracy),
        f"fit {_milliseconds(fitted.fit_seconds)} · predict {_milliseconds(fitted.predict_seconds)}",
    )


def line_ends(model: Any, low: np.ndarray, high: np.ndarray) -> np.ndarray | None:
    """The ends of the perceptron's line w·x + b = 0 inside the box [low, high], or None.

    None when the model has no line (a kernel), w is zero, or the line misses the box.
    """
    if not isinstance(model, Perceptron):
        return None
    (w1, w2), b = model.coef_, model.intercept_
    ends = []
    if w2 != 0:
        for x in (low[0], high[0]):
            ends.append((x, -(b + w1 * x) / w2))
    if w1 != 0:
        for y in (low[1], high[1]):
            ends.append((-(b + w2 * y) / w1, y))
    inside = [
        p for p in ends if low[0] - 1e-9 <= p[0] <= high[0] + 1e-9 and low[1] - 1e-9 <= p[1] <= high[1] + 1e-9
    ]
    if len(inside) < 2:
        return None
    inside = np.array(inside)
    # The two inside points farthest apart (a corner can appear twice).
    far = np.linalg.norm(inside[:, None] - inside[None], axis=2)
    i, j = np.unravel_index(np.argmax(far), far.shape)
    return inside[[i, j]] if far[i, j] > 0 else None


def _percent(value: float) -> str:
    return f"{value:.0%}"
