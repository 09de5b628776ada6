"""What the perceptron lesson shows beside the estimator: the textbook loop and the experiments.

- ``perceptron_textbook``: the loop as a textbook writes it, one point at a time; the page prints
  it, and ``Perceptron.fit`` makes the same updates in the same order (a test checks it).
- ``best_line_accuracy``: the best training accuracy any line reaches on 2-D points, found
  exactly by trying every ordering of the points' projections a direction can make (what the
  pocket is measured against on XOR).
- ``updates_against_size``: Novikoff's bound (R/γ)² against the updates actually made, on
  ``separated_band`` sets of 25 to 2500 points with the same radius and margin.
- ``generalisation_runs``: the post's experiment (train on 25 points, test on 1000) over many
  seeds, each run to convergence as the post's loop is.
- ``novikoff_figures``: R, γ and (R/γ)² printed so that the bound recomputes from what is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
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


def novikoff_figures(R: float, gamma: float) -> tuple[str, str, str]:
    """R, γ and Novikoff's bound (R/γ)² as the page prints them.

    The bound is rounded to a whole number of updates; R and γ get just enough significant
    digits (at least 3) that (R/γ)² worked out from the printed R and γ rounds to the printed
    bound, so a student who checks it by hand gets the number on screen.
    """
    if not (np.isfinite(R) and np.isfinite(gamma) and gamma > 0):
        raise ValueError(f"Novikoff's bound needs a finite R and a margin γ > 0; got R={R!r}, γ={gamma!r}")
    bound = f"{(R / gamma) ** 2:,.0f}"
    for digits in range(3, 18):
        r, g = _significant(R, digits), _significant(gamma, digits)
        if f"{(float(r) / float(g)) ** 2:,.0f}" == bound:
            return r, g, bound
    return repr(R), repr(gamma), bound


def _significant(value: float, digits: int) -> str:
    """``value`` to at least ``digits`` significant digits, in plain decimals (never 1e+03)."""
    decimals = max(0, digits - 1 - int(np.floor(np.log10(abs(value)))))
    return f"{value:.{decimals}f}"


def band_radius_and_margin(gap: float) -> tuple[float, float]:
    """R and γ of every ``separated_band`` set, with the bias as a weight on a constant 1.

    Every point (x₁, x₂, 1) lies within R = √3 of the origin (the corner (1, 1, 1)); the true
    line, (w, b) = (1, 1, −1), keeps every point at least γ = gap·√2/√3 away in that space.
    """
    return float(np.sqrt(3.0)), float(gap * np.sqrt(2.0) / np.sqrt(3.0))


def band_caption(gap: float = 0.05, n_seeds: int = 20) -> str:
    """What the table of ``updates_against_size`` holds, with the R, γ and bound of its sets."""
    R, gamma, bound = novikoff_figures(*band_radius_and_margin(gap))
    return (
        f"{n_seeds} seeds each, in the unit square with no point within {gap:g} of x₁ + x₂ = 1: every set has "
        f"R = √3 ≈ {R} (the corner (1, 1, 1)) and γ = {gap:g}·√2/√3 ≈ {gamma}, so (R/γ)² = ({R} / {gamma})² "
        f"≈ {bound}."
    )


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
    around x₁ + x₂ = 1 left empty, so R and γ (``band_radius_and_margin``) and Novikoff's
    bound (R/γ)² = 4.5/gap² are the same for every n. Returns the bound and
    ``(n, median updates, most updates)`` per size over the seeds.
    """
    R, gamma = band_radius_and_margin(gap)
    bound = (R / gamma) ** 2
    rows = []
    for n in sizes:
        counts = []
        for seed in seeds:
            X, y = separated_band(n, gap, seed)
            if len(np.unique(y)) == 2:
                counts.append(Perceptron(max_epochs=10_000).fit(X, y).n_updates_)
        rows.append((int(n), float(np.median(counts)), int(np.max(counts))))
    return bound, rows


# The post's loop runs while a mistake is made. On its 25 points the slowest of seeds 0-99 needs
# 276 passes; 5 of them need more than the estimator's default of 100.
PASSES_TO_CONVERGE = 10_000


@dataclass(frozen=True)
class GeneralisationRuns:
    """The post's experiment over seeds: each run's test accuracy, passes, and whether it converged."""

    scores: np.ndarray
    passes: np.ndarray
    converged: np.ndarray


def generalisation_runs(
    n_train: int = 25, n_test: int = 1000, seeds: Any = range(100), **params: Any
) -> GeneralisationRuns:
    """The post's experiment per seed: train on ``n_train`` points of the line x₂ = 1 − x₁,
    test on ``n_test`` fresh ones. ``params`` go to the Perceptron (by default it runs up to
    ``PASSES_TO_CONVERGE`` passes: to convergence). A seed whose points are all of one class
    is left out."""
    params = {"max_epochs": PASSES_TO_CONVERGE, **params}
    scores, passes, converged = [], [], []
    for seed in seeds:
        X, y = datasets.linearly_separable(n_train, random_state=seed)
        X_test, y_test = datasets.linearly_separable(n_test, random_state=10_000 + seed)
        if len(np.unique(y)) < 2:
            continue
        model = Perceptron(**params).fit(X, y)
        scores.append(model.score(X_test, y_test))
        passes.append(model.n_epochs_)
        converged.append(model.converged_)
    return GeneralisationRuns(np.array(scores), np.array(passes, dtype=int), np.array(converged, dtype=bool))


def generalisation(
    n_train: int = 25, n_test: int = 1000, seeds: Any = range(100), **params: Any
) -> np.ndarray:
    """The test accuracies of ``generalisation_runs``."""
    return generalisation_runs(n_train, n_test, seeds, **params).scores


def generalisation_caption(runs: GeneralisationRuns) -> str:
    """What the spread over seeds says: its median, and that every run converged (or how many did not)."""
    stopped = int((~runs.converged).sum())
    how = (
        f"every run converged (the slowest in {runs.passes.max()} passes)"
        if stopped == 0
        else f"{stopped} of the {len(runs.scores)} runs stopped before converging"
    )
    return (
        f"Over {len(runs.scores)} seeds the median is {np.median(runs.scores):.2%}; {how}. "
        "The post's 92.2% was one run."
    )
