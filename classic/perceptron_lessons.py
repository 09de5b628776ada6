"""What the perceptron lesson shows beside the estimator: the textbook loop and the experiments.

- ``perceptron_textbook``: the loop as a textbook writes it, one point at a time; the page prints
  it, and ``Perceptron.fit`` makes the same updates in the same order (a test checks it).
- ``best_line_accuracy``: the best training accuracy any line reaches on 2-D points, found
  exactly by trying every ordering of the points' projections a direction can make (what the
  pocket is measured against on XOR).
- ``updates_against_size``: Novikoff's bound (R/γ)² against the updates actually made, on
  ``separated_band`` sets of 25 to 2500 points with the same radius and margin.
- ``generalisation``: the post's experiment (train on 25 points, test on 1000) over many seeds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from classic import datasets
from classic._validation import RandomState, check_random_state
from classic.perceptron import Perceptron, Update, _check_two_classes, best_cuts


def perceptron_textbook(X: np.ndarray, y: np.ndarray, max_epochs: int = 100) -> list[Update]:
    """The perceptron loop as the textbook writes it: every update, in order (η = 1, no shuffle).

    The labels' larger class is +1. This is the code the page shows; ``Perceptron.fit`` makes
    the same updates (a test checks it), but stops early when it proves a cycle.
    """
    X = np.asarray(X, dtype=np.float64)
    labels = np.where(np.asarray(y) == np.unique(y)[-1], 1.0, -1.0)
    w, b = np.zeros(X.shape[1]), 0.0
    history = []
    for epoch in range(max_epochs):
        made_a_mistake = False
        for i in range(len(X)):
            if labels[i] * (X[i] @ w + b) <= 0:
                w = w + labels[i] * X[i]
                b = b + labels[i]
                history.append(Update(epoch, i, w.copy(), float(b)))
                made_a_mistake = True
        if not made_a_mistake:
            break
    return history


MAX_BEST_LINE_POINTS = 100
# The pocket scores every point after every update, and slides the line to its best place (a
# sort): a pass over n noisy points costs about n/2 updates × n points. Its passes are capped at
# POCKET_WORK / n², so a page answers within about a second (200 passes stay up to 100 points;
# 2000 uploaded points at 200 passes took 42 s).
POCKET_WORK = 2_000_000


def pocket_passes(n_points: int, max_epochs: int) -> int:
    """The passes the pocket is given on ``n_points`` points when ``max_epochs`` are asked for."""
    return int(min(max_epochs, max(1, POCKET_WORK // max(n_points, 1) ** 2)))


def pocket_caption(n_points: int, max_epochs: int) -> str:
    """What the pocket did, and the budget when it ran fewer passes than asked."""
    text = "The pocket keeps the fewest-mistakes weights seen, each line slid along w to its best place."
    passes = pocket_passes(n_points, max_epochs)
    if passes < max_epochs:
        text += f" On {n_points:,} points it runs {passes} of the {max_epochs} passes, to answer at once."
    return text


def best_line_accuracy(X: Any, y: Any) -> float:
    """The highest training accuracy any line gets on 2-D points, points on the line counted wrong.

    Exact: the order of the points' projections onto a direction only changes where the
    direction is at right angles to the difference of two points, so one direction between
    each pair of neighbouring critical angles sees every ordering a line can make; for each,
    every threshold between distinct projections is tried. O(n³ log n): at most
    ``MAX_BEST_LINE_POINTS`` points.
    """
    X, _, signs = _check_two_classes(X, y)
    if X.shape[1] != 2:
        raise ValueError(f"best_line_accuracy is for 2-D points; got {X.shape[1]} features")
    if len(X) > MAX_BEST_LINE_POINTS:
        raise ValueError(f"best_line_accuracy takes at most {MAX_BEST_LINE_POINTS} points; got {len(X)}")
    i, j = np.triu_indices(len(X), 1)
    difference = X[j] - X[i]
    critical = np.arctan2(difference[:, 1], difference[:, 0]) + np.pi / 2
    critical = np.sort(np.mod(np.concatenate([critical, critical + np.pi, [0.0]]), 2 * np.pi))
    between = (critical + np.append(critical[1:], critical[0] + 2 * np.pi)) / 2
    normals = np.column_stack([np.cos(between), np.sin(between)])
    right, _ = best_cuts(X @ normals.T, signs)
    return float(right.max() / len(X))


def separated_band(n: int, gap: float, random_state: RandomState = None) -> tuple[np.ndarray, np.ndarray]:
    """``n`` points of the unit square with none closer than ``gap`` to the line x₁ + x₂ = 1.

    Labelled 1 above the line, 0 below. Every such set has the same radius R (the square)
    and a margin of at least ``gap``, however large n is: Novikoff's bound stays put.
    """
    rng = check_random_state(random_state)
    kept = np.empty((0, 2))
    while len(kept) < n:
        candidates = rng.random((2 * n, 2))
        far = np.abs(candidates.sum(axis=1) - 1) / np.sqrt(2) >= gap
        kept = np.vstack([kept, candidates[far]])
    X = kept[:n]
    return X, (X.sum(axis=1) > 1).astype(np.int64)


def updates_against_size(
    sizes: Any = (25, 250, 2500), gap: float = 0.05, seeds: Any = range(20)
) -> tuple[float, list[tuple[int, float, int]]]:
    """Updates to convergence against the number of points, at a fixed radius and margin.

    Points come from ``separated_band``: the unit square with a band of half-width ``gap``
    around x₁ + x₂ = 1 left empty. With the bias as a weight on a constant 1, every point
    lies within R = √3 of the origin (the corner (1, 1, 1)) and the true line (1, 1, −1) has
    margin γ = gap·√2/√3, so Novikoff's bound (R/γ)² = 4.5/gap² is the same for every n.
    Returns the bound and ``(n, median updates, most updates)`` per size over the seeds.
    """
    bound = 4.5 / gap**2
    rows = []
    for n in sizes:
        counts = []
        for seed in seeds:
            X, y = separated_band(n, gap, seed)
            if len(np.unique(y)) == 2:
                counts.append(Perceptron(max_epochs=10_000).fit(X, y).n_updates_)
        rows.append((int(n), float(np.median(counts)), int(np.max(counts))))
    return bound, rows


def generalisation(
    n_train: int = 25, n_test: int = 1000, seeds: Any = range(100), **params: Any
) -> np.ndarray:
    """The post's experiment per seed: train on ``n_train`` points of the line y = 1 − x,
    test on ``n_test`` fresh ones; returns the test accuracies."""
    scores = []
    for seed in seeds:
        X, y = datasets.linearly_separable(n_train, random_state=seed)
        X_test, y_test = datasets.linearly_separable(n_test, random_state=10_000 + seed)
        if len(np.unique(y)) < 2:
            continue
        scores.append(Perceptron(**params).fit(X, y).score(X_test, y_test))
    return np.array(scores)
