"""Data sets for the lab: 2-D generators, small categorical tables and two UCI files.

The generators return ``(X, y)`` with ``X`` float64 of shape (n, 2) and ``y`` int64 labels
``0..C-1``; each takes ``random_state`` (an int, a ``numpy.random.Generator`` or None) so a
seed reproduces a picture. The toy tables return ``(X, y, feature_names)`` with ``X`` a 2-D
array of strings. The UCI loaders live in :mod:`classic.uci` and are re-exported here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

import numpy as np

from classic._validation import RandomState, check_random_state

# The UCI loaders (find → download → validate → cache) live in classic.uci; re-exported so that
# ``from classic.datasets import load_semeion`` keeps working.
from classic.uci import DatasetUnavailable as DatasetUnavailable
from classic.uci import data_dirs as data_dirs
from classic.uci import load_house_votes as load_house_votes
from classic.uci import load_semeion as load_semeion
from classic.uci import main as uci_main

Points = tuple[np.ndarray, np.ndarray]
Table = tuple[np.ndarray, np.ndarray, list[str]]


def _check_positive(name: str, value: int, minimum: int = 1) -> None:
    if int(value) != value or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")


def _check_noise(noise: float) -> None:
    if not np.isfinite(noise) or noise < 0:
        raise ValueError(f"noise must be a finite number >= 0, got {noise!r}")


def _shuffled(X: np.ndarray, y: np.ndarray, rng: np.random.Generator) -> Points:
    order = rng.permutation(len(y))
    return X[order].astype(np.float64), y[order].astype(np.int64)


# --------------------------------------------------------------------------------------------
# 2-D generators
# --------------------------------------------------------------------------------------------


def linearly_separable(n: int = 25, random_state: RandomState = None) -> Points:
    """Points uniform in the unit square, label 1 above the line y = 1 − x, else 0.

    This is the perceptron post's set-up: 25 points, the true separator ``x + y = 1``.
    """
    _check_positive("n", n)
    rng = check_random_state(random_state)
    X = rng.uniform(0.0, 1.0, size=(n, 2))
    y = (X[:, 1] > 1.0 - X[:, 0]).astype(np.int64)
    return X, y


def xor(n: int = 4, noise: float = 0.0, random_state: RandomState = None) -> Points:
    """The XOR problem: (0,0) and (1,1) are class 1, (1,0) and (0,1) are class 0.

    ``n=4`` returns exactly the four corners (in the order (0,0), (1,1), (1,0), (0,1)).
    A larger ``n`` spreads n points over noisy clusters around the corners, with Gaussian
    scatter ``noise`` (0.15 when ``noise`` is 0, so that the clusters are visible).
    """
    _check_positive("n", n, minimum=4)
    _check_noise(noise)
    corners = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    labels = np.array([1, 1, 0, 0], dtype=np.int64)
    if n == 4 and noise == 0:
        return corners.copy(), labels.copy()
    rng = check_random_state(random_state)
    which = np.arange(n) % 4
    scatter = noise if noise > 0 else 0.15
    X = corners[which] + rng.normal(0.0, scatter, size=(n, 2))
    return _shuffled(X, labels[which], rng)


def gaussian_clusters(
    n_per_class: int = 50,
    centers: Sequence[Sequence[float]] = ((-4, 0), (4, 0)),
    std: float = 1.0,
    random_state: RandomState = None,
) -> Points:
    """Round Gaussian blobs, one class per centre (the k-NN post's dummy data)."""
    _check_positive("n_per_class", n_per_class)
    centers = np.asarray(centers, dtype=np.float64)
    if centers.ndim != 2 or centers.shape[1] != 2 or len(centers) < 1:
        raise ValueError(f"centers must be a list of (x, y) pairs, got shape {centers.shape}")
    if not np.isfinite(std) or std <= 0:
        raise ValueError(f"std must be a finite number > 0, got {std!r}")
    rng = check_random_state(random_state)
    y = np.repeat(np.arange(len(centers)), n_per_class)
    X = centers[y] + rng.normal(0.0, std, size=(len(y), 2))
    return _shuffled(X, y, rng)


def _labelled(
    n: int, n_classes: int, noise: float, random_state: RandomState
) -> tuple[np.ndarray, np.random.Generator]:
    """How each curve below starts: its checks, its random generator, labels 0, 1, … in turn."""
    _check_positive("n", n, minimum=n_classes)
    _check_noise(noise)
    return np.arange(n) % n_classes, check_random_state(random_state)


def concentric_circles(n: int = 200, noise: float = 0.1, random_state: RandomState = None) -> Points:
    """Two rings: class 0 on the circle of radius 1, class 1 on the circle of radius 0.5."""
    y, rng = _labelled(n, 2, noise, random_state)
    angle = rng.uniform(0.0, 2 * np.pi, size=n)
    radius = np.where(y == 0, 1.0, 0.5)
    X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    X += rng.normal(0.0, noise, size=X.shape)
    return _shuffled(X, y, rng)


def moons(n: int = 200, noise: float = 0.1, random_state: RandomState = None) -> Points:
    """Two interleaving half circles (class 0 on top, class 1 below and shifted right)."""
    y, rng = _labelled(n, 2, noise, random_state)
    t = rng.uniform(0.0, np.pi, size=n)
    X = np.where(
        (y == 0)[:, None],
        np.column_stack([np.cos(t), np.sin(t)]),
        np.column_stack([1.0 - np.cos(t), 0.5 - np.sin(t)]),
    )
    X += rng.normal(0.0, noise, size=X.shape)
    return _shuffled(X, y, rng)


def spiral(n: int = 300, n_classes: int = 2, noise: float = 0.1, random_state: RandomState = None) -> Points:
    """Interleaved spiral arms, one per class, each turning once and a half around the origin."""
    _check_positive("n_classes", n_classes)
    y, rng = _labelled(n, n_classes, noise, random_state)
    r = rng.uniform(0.05, 1.0, size=n)
    theta = 3 * np.pi * r + 2 * np.pi * y / n_classes
    X = np.column_stack([r * np.cos(theta), r * np.sin(theta)])
    X += rng.normal(0.0, noise * r[:, None], size=X.shape)
    return _shuffled(X, y, rng)


def stretched_clusters(
    n_per_class: int = 50, factor: float = 100.0, random_state: RandomState = None
) -> Points:
    """Adults' weight (x₁, in kg) and height (x₂, in m), two classes told apart by height alone.

    Heights are Gaussian clusters centred at 1.70 ∓ 0.105 m with σ = 0.07 m; weights are pure
    noise around 70 kg with σ = ``factor`` × 0.07 kg (``factor`` times a height's σ within a
    class: 7 kg by default). Each value is kept within 4σ of its centre, so every weight and
    height is a plausible positive one (weights stay within 28–112 kg for ``factor`` ≤ 150).

    It stands for the notes' shoe-size example: the label is the shoe size, the features are
    height and weight, and weight's much larger range swamps height in the distance. x₁ plays
    weight (the wide feature, here irrelevant), x₂ height (the narrow one that decides).
    Without scaling, distances are dominated by x₁ and k-NN does badly; standardising the
    features fixes it.
    """
    if not np.isfinite(factor) or not 0 < factor <= 150:
        raise ValueError(f"factor must be a finite number in (0, 150], got {factor!r}")
    height, sigma, weight = 1.70, 0.07, 70.0  # metres, metres, kilograms
    # Standard draws first (the seed's picture), then each feature's units and centre.
    Z, y = gaussian_clusters(n_per_class, ((0.0, -1.5), (0.0, 1.5)), 1.0, random_state)
    centre = np.where(y == 0, -1.5, 1.5)
    Z[:, 0] = np.clip(Z[:, 0], -4.0, 4.0)
    Z[:, 1] = centre + np.clip(Z[:, 1] - centre, -4.0, 4.0)
    return np.column_stack([weight + sigma * factor * Z[:, 0], height + sigma * Z[:, 1]]), y


def three_in_a_row() -> Points:
    """Three classes in a row of four columns, the first class at both ends (8 points).

    No linear machine separates them: a class's region, where its score beats every other, is
    an intersection of half-planes, hence convex, and a convex region holding both ends holds
    the middle columns too. No two lines, drawn any way, give each class its own side.
    """
    X = np.array([[x, h] for x in (-1.5, -0.5, 0.5, 1.5) for h in (-0.5, 0.5)])
    return X, np.repeat([0, 1, 2, 0], 2)


def axis_aligned_boxes(n: int = 200, random_state: RandomState = None) -> Points:
    """Points uniform in the unit square, class 1 inside two axis-aligned rectangles.

    The label is constant on large axis-orthogonal regions, the case where the CS 886 slides say
    trees do well: two rectangles, x₁ > 0.35 and x₂ > 0.5, or x₁ > 0.7 and x₂ < 0.25.
    """
    X = check_random_state(random_state).uniform(0.0, 1.0, size=(int(n), 2))
    inside = ((X[:, 0] > 0.35) & (X[:, 1] > 0.5)) | ((X[:, 0] > 0.7) & (X[:, 1] < 0.25))
    return X, inside.astype(np.int64)


def diagonal_boundary(n: int = 200, random_state: RandomState = None) -> Points:
    """Points uniform in the square [−2, 2]², class 1 above the diagonal x₂ = x₁.

    The other side of the axis-aligned boxes: one line is the exact boundary, and a tree, whose
    every cut is across one axis, can only follow it with a staircase (the first view of /compare).
    """
    X = check_random_state(random_state).uniform(-2.0, 2.0, size=(int(n), 2))
    return X, (X[:, 1] > X[:, 0]).astype(np.int64)


# --------------------------------------------------------------------------------------------
# Toy tables
# --------------------------------------------------------------------------------------------

ARYA_FEATURES = ["Sky", "Temperature", "Humidity", "Wind"]
ARYA_ROWS = [
    ("Cloudy", "Warm", "Low", "Low", "Yes"),
    ("Rainy", "Cold", "Medium", "Low", "No"),
    ("Sunny", "Warm", "Medium", "Low", "Yes"),
    ("Sunny", "Hot", "High", "High", "No"),
    ("Snow", "Cold", "Low", "High", "No"),
    ("Rainy", "Warm", "High", "Low", "Yes"),
]

PLAY_TENNIS_FEATURES = ["Outlook", "Temperature", "Humidity", "Wind"]
PLAY_TENNIS_ROWS = [
    ("Sunny", "Hot", "High", "Weak", "No"),
    ("Sunny", "Hot", "High", "Strong", "No"),
    ("Overcast", "Hot", "High", "Weak", "Yes"),
    ("Rain", "Mild", "High", "Weak", "Yes"),
    ("Rain", "Cool", "Normal", "Weak", "Yes"),
    ("Rain", "Cool", "Normal", "Strong", "No"),
    ("Overcast", "Cool", "Normal", "Strong", "Yes"),
    ("Sunny", "Mild", "High", "Weak", "No"),
    ("Sunny", "Cool", "Normal", "Weak", "Yes"),
    ("Rain", "Mild", "Normal", "Weak", "Yes"),
    ("Sunny", "Mild", "Normal", "Strong", "Yes"),
    ("Overcast", "Mild", "High", "Strong", "Yes"),
    ("Overcast", "Hot", "Normal", "Weak", "Yes"),
    ("Rain", "Mild", "High", "Strong", "No"),
]


def _table(rows: list[tuple[str, ...]], features: list[str]) -> Table:
    data = np.array(rows, dtype=str)
    return data[:, :-1].copy(), data[:, -1].copy(), list(features)


def load_arya() -> Table:
    """Arya's riding data from the decision-tree post: six days, did she go for a ride?"""
    return _table(ARYA_ROWS, ARYA_FEATURES)


def load_play_tennis() -> Table:
    """Quinlan's 14 days of Play Tennis (Outlook, Temperature, Humidity, Wind → Yes/No)."""
    return _table(PLAY_TENNIS_ROWS, PLAY_TENNIS_FEATURES)


# The CS 886 slides' entropy example, row for row: x = HasKids, y = OwnsDoraVideo.
HAS_KIDS_ROWS = [("Yes", "Yes")] * 4 + [("No", "No")] * 2 + [("Yes", "No")] * 2


def load_has_kids() -> Table:
    """The slides' eight customers: does one with kids own the Dora video?

    Six have kids (four own it, two don't), two have none (and don't): H(y) = 1 bit,
    H(y | HasKids = Yes) = H(2/3, 1/3) ≈ 0.9183, H(y | HasKids) = 3/4 · 0.9183 ≈ 0.6887, so the
    gain is ≈ 0.3113 bits.
    """
    return _table(HAS_KIDS_ROWS, ["HasKids"])


def load_two_tests() -> Table:
    """The slides' "which test is best?": 30 positives and 10 negatives, two binary tests.

    Test1 splits them into [20+, 10−] and [10+, 0−], Test2 into [15+, 7−] and [15+, 3−];
    Test1 gains more (≈ 0.1226 bits against ≈ 0.0225).
    """
    positives = [("T", "T", "+")] * 15 + [("T", "F", "+")] * 5 + [("F", "F", "+")] * 10
    negatives = [("T", "T", "-")] * 7 + [("T", "F", "-")] * 3
    return _table(positives + negatives, ["Test1", "Test2"])


def _boolean_table(n: int, rule: Callable[[np.ndarray], np.ndarray]) -> Table:
    _check_positive("n", n)
    bits = (np.arange(2**n)[:, None] >> np.arange(n - 1, -1, -1)) & 1  # every combination, x1 first
    truth = np.array(["F", "T"])
    return truth[bits], truth[rule(bits).astype(int)], [f"x{i}" for i in range(1, n + 1)]


def load_and(n: int) -> Table:
    """The truth table of ``x1 AND … AND xn`` (2ⁿ rows of T/F): a tree needs O(n) tests."""
    return _boolean_table(n, lambda bits: bits.all(axis=1))


def load_parity(n: int) -> Table:
    """The truth table of ``x1 XOR … XOR xn`` (2ⁿ rows of T/F): a tree needs O(2ⁿ) tests."""
    return _boolean_table(n, lambda bits: bits.sum(axis=1) % 2 == 1)


# --------------------------------------------------------------------------------------------
# UCI files: they live in classic.uci; ``python -m classic.datasets download`` still works.
# --------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """``python -m classic.datasets download``: the README's name for ``classic.uci``'s CLI."""
    return uci_main(argv, program="classic.datasets")


if __name__ == "__main__":
    sys.exit(main())
