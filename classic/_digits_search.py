"""The digits' nearest-neighbour search by the metrics other than Euclidean, fast where a user waits.

The /digits Evaluation finds the 50 nearest of 800 to 2400 training digits for 5 × 793 test
digits. Measuring every pair exactly (``classic.distances``: a difference per pixel) is too slow
for a page (tests/benchmarks/bench_digits.py times it); here a faster ranking picks the few to measure:

- **cosine**: 1 − u·v for rows scaled to unit length;
- **0/1 pixels** (the digits without blur): the pixels that differ number c = |a| + |b| − 2 a·b,
  exact integers, so Manhattan is c, Hamming c / 256 and Chebyshev 1 when c > 0;
- **Manhattan and Chebyshev on blurred digits** (no product gives them): every difference in
  float32, with a bound on its rounding.

- **Hamming on blurred digits**: the coordinates a query shares exactly with a row, found column
  by column by sorting (almost none: nearly every distance is 1).

(Euclidean has its own fast path, ``classic._search``.) The tangent distance's batched version,
:func:`tangent_distances`, is here too.

The ranking picks each row's candidates, the k-th smallest value plus twice the ranking's
rounding (ties at the k-th place included); these alone are measured exactly by
:func:`classic.distances.distances` and sorted by (distance, index). The answer is the brute-force
search's (:meth:`classic.knn.KNNClassifier.kneighbors`) bit for bit: tests/test_digits.py checks.
"""

from __future__ import annotations

import numpy as np

from classic._search import _smallest
from classic.distances import distances

SCREEN_ERROR = 1e-9  # far above a float64 product's rounding on 256 pixels in [0, 1] (about 1e-13)
BINARY_METRICS = {  # metric: its distance from the number of differing 0/1 pixels c, of d
    "manhattan": lambda c, d: c,
    "hamming": lambda c, d: c / d,
    "chebyshev": lambda c, d: (c > 0).astype(np.float64),
}


def _unit(rows: np.ndarray) -> np.ndarray:
    norms = np.sqrt(np.einsum("ij,ij->i", rows, rows))[:, None]
    return np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)


def ranking(queries: np.ndarray, train: np.ndarray, metric: str) -> tuple[np.ndarray, float] | None:
    """Every query's distance to every training row, ranked fast, and how far a value may be from
    the exact distance (0: exact); None when there is no fast ranking for this metric."""
    if metric == "cosine":  # unit rows (each |u| = 1 to 1e-16): 256 products off by at most 1e-13
        return 1.0 - _unit(queries) @ _unit(train).T, SCREEN_ERROR
    binary = all(np.array_equal(rows, rows.astype(bool)) for rows in (queries, train))
    if metric in BINARY_METRICS and binary:
        differ = queries.sum(axis=1)[:, None] + train.sum(axis=1) - 2.0 * (queries @ train.T)
        return BINARY_METRICS[metric](differ, train.shape[1]), 0.0
    if metric in SINGLE_METRICS:
        return _single_precision(queries, train, metric)
    equal = _equal_counts(queries, train) if metric == "hamming" else None
    return None if equal is None else ((train.shape[1] - equal) / train.shape[1], 0.0)


def _equal_counts(queries: np.ndarray, train: np.ndarray, most: int = 4) -> np.ndarray | None:
    """How many coordinates each query shares exactly with each training row, found column by
    column by sorting (blurred digits share almost none); None past ``most`` shares a pair."""
    equal = np.zeros((len(queries), len(train)), dtype=np.int64)
    for column, values in zip(train.T, queries.T, strict=True):
        order = np.argsort(column, kind="stable")
        low, high = np.searchsorted(column[order], values), np.searchsorted(column[order], values, "right")
        counts = high - low
        if counts.sum() > most * len(train):
            return None
        rows = np.repeat(np.arange(len(queries)), counts)
        at = np.repeat(low - (np.cumsum(counts) - counts), counts) + np.arange(counts.sum())
        equal[rows, order[at]] += 1  # each (query, row) pair at most once per column
    return equal


# Manhattan and Chebyshev on blurred digits have no product: their differences are taken in float32
# (half the memory to move), one query at a time against the training rows as columns.
SINGLE_METRICS = {"manhattan": np.add, "chebyshev": np.maximum}


def _single_precision(queries: np.ndarray, train: np.ndarray, metric: str) -> tuple[np.ndarray, float]:
    """Σ or max of |a − b| in float32, and a bound on its error: each of a, b and |a − b| is rounded
    (relative 2⁻²⁴ each, |a|, |b| ≤ s) and a sum of d terms adds at most (d − 1) 2⁻²⁴ times their
    total (≤ 2 d s), so Manhattan is off by at most 2⁻²⁴ d (3 + 2d) s, Chebyshev by 3 · 2⁻²⁴ s."""
    columns = np.ascontiguousarray(train.T, dtype=np.float32)
    rows, work = queries.astype(np.float32), np.empty_like(columns)
    values = np.empty((len(queries), len(train)), dtype=np.float32)
    reduce = SINGLE_METRICS[metric].reduce
    for i, row in enumerate(rows):
        np.subtract(row[:, None], columns, out=work)
        reduce(np.abs(work, out=work), axis=0, out=values[i])
    s, d = max(np.abs(queries).max(initial=0.0), np.abs(train).max(initial=0.0)), train.shape[1]
    error = 2.0**-24 * s * (d * (3 + 2 * d) if metric == "manhattan" else 3)
    return values.astype(np.float64), error


def nearest(
    queries: np.ndarray, train: np.ndarray, k: int, metric: str
) -> tuple[np.ndarray, np.ndarray] | None:
    """The k nearest training rows of each query, (distances, indices) sorted by (distance, index),
    or None when :func:`ranking` has no fast ranking for this metric (then measure every pair)."""
    queries, train = np.asarray(queries, dtype=np.float64), np.asarray(train, dtype=np.float64)
    ranked = ranking(queries, train, metric)
    if ranked is None:
        return None
    values, error = ranked
    if not error:  # the ranking is the distance: the k smallest, ties to the lower index
        chosen = _smallest(values, k)
        found = np.take_along_axis(values, chosen, axis=1)
        order = np.argsort(found, axis=1, kind="stable")
        return np.take_along_axis(found, order, axis=1), np.take_along_axis(chosen, order, axis=1)
    # Within twice the error of the k-th ranked value lie all the k nearest, and all tied with them.
    kth = np.partition(values, k - 1, axis=1)[:, k - 1 : k]
    return _measured(queries, train, k, metric, values, kth + 2 * error)


def _measured(
    queries: np.ndarray, train: np.ndarray, k: int, metric: str, values: np.ndarray, limit: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The k nearest among each row's candidates (``values`` ≤ ``limit``), measured exactly."""
    inside = values <= limit
    found, indices = np.empty((len(queries), k)), np.empty((len(queries), k), dtype=np.int64)
    for start in range(0, len(queries), 64):  # 64 queries' candidates: a few MB
        rows = slice(start, start + 64)
        count = inside[rows].sum(axis=1)[:, None]
        # Each row's candidates first (in index order); the padding after them is never chosen.
        candidates = np.argsort(~inside[rows], axis=1, kind="stable")[:, : count.max()]
        measured = distances(queries[rows, None, :], train[candidates], metric)
        measured[np.arange(candidates.shape[1]) >= count] = np.inf
        order = np.lexsort((candidates, measured), axis=1)[:, :k]
        found[rows] = np.take_along_axis(measured, order, axis=1)
        indices[rows] = np.take_along_axis(candidates, order, axis=1)
    return found, indices


def shift_distances_of(
    moved: np.ndarray, train: np.ndarray, norms: np.ndarray, near: np.ndarray
) -> np.ndarray:
    """:func:`classic.digits.shift_distances` in float64 for each query's rows ``near`` (b, m) only
    (the blurred digits' candidates, chosen by the same distance in float32); ``moved`` (9, b, 256)
    holds the queries' nine shifts."""
    dots = (train[near][None] @ moved[:, :, :, None])[..., 0]  # (9, b, m)
    squared = np.einsum("sbd,sbd->sb", moved, moved)[:, :, None] + norms[near] - 2.0 * dots
    return np.maximum(squared.min(axis=0), 0.0)


def tangent_distances(
    x: np.ndarray,
    Tx: np.ndarray,
    t: np.ndarray,
    t_norms: np.ndarray,
    planes: np.ndarray,
    plane_dots: np.ndarray,
) -> np.ndarray:
    """:func:`classic.digits.two_sided_tangent_distances` for a batch of queries, each with its m
    candidates, from inner products only (a few matrix products per query, not one per pair).

    ``x`` (b, 256) and ``Tx`` (b, 256, r) the queries and their orthonormal planes; ``t`` (b, m, 256)
    the candidates, ``t_norms`` (b, m) their |t|², ``planes`` (b, m, r, 256) their planes' rows and
    ``plane_dots`` (b, m, r) = Ttᵀ t. With u = Txᵀ d, v = Ttᵀ d, C = Txᵀ Tt and G's ridge ε, the
    residual is |d|² − |u|²/(1+ε) − wᵀ S⁻¹ w, w = v − Cᵀu/(1+ε), S = (1+ε) I − CᵀC/(1+ε): the
    14 × 14 system of the readable version by its Schur complement, 7 × 7.
    """
    b, m, r = planes.shape[:3]
    rows = planes.reshape(b, m * r, -1)  # float32 (as the planes are kept): half the memory to read
    Ttx = (rows @ x[:, :, None].astype(rows.dtype)).reshape(b, m, r).astype(np.float64)  # Ttᵀ x
    Ct = (rows @ Tx.astype(rows.dtype)).reshape(b, m, r, r).astype(np.float64)  # Ttᵀ Tx = Cᵀ
    x, Tx = x.astype(np.float64), Tx.astype(np.float64)
    xt = (t @ x[:, :, None])[..., 0]  # (b, m): x·t
    Txt = t @ Tx  # (b, m, r): Txᵀ t
    u = np.einsum("bdr,bd->br", Tx, x)[:, None, :] - Txt
    v = Ttx - plane_dots
    d2 = np.einsum("bd,bd->b", x, x)[:, None] + t_norms - 2.0 * xt
    ridge = 1.0 + 1e-6
    w = v - (Ct @ u[..., None])[..., 0] / ridge
    S = ridge * np.eye(r) - Ct @ np.swapaxes(Ct, -1, -2) / ridge
    projected = np.einsum("bmr,bmr->bm", u, u) / ridge + np.einsum(
        "bmr,bmr->bm", w, np.linalg.solve(S, w[..., None])[..., 0]
    )
    return np.maximum(d2 - projected, 0.0)
