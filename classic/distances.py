"""Distances between points, shared by k-NN and the k-d tree.

The Minkowski family d_p(a, b) = (Σ_j |a_j − b_j|^p)^(1/p): p = 2 is Euclidean, p = 1
Manhattan, p → ∞ Chebyshev (max_j |a_j − b_j|). Cosine distance is 1 − a·b / (|a| |b|) (0 for
the same direction, 2 for opposite ones; a zero vector is at distance 1 from everything), and
Hamming distance is the fraction of coordinates that differ.

Huge finite coordinates (up to 1.8e308) must not turn a distance into inf or NaN on the way:
the Minkowski distances are computed on differences scaled by a power of two (exact) whenever
a square or a difference could overflow, and scaled back at the end. A distance that is itself
beyond the float64 range is +inf.

Each metric is one entry of :data:`METRIC_REGISTRY` (its distance, and its Minkowski exponent
if it has one); every search path reads it.

Hamming only means something for categorical or binary coordinates: on continuous data almost
every coordinate differs, so nearly every distance is 1. :func:`metric_suits` says when a
metric fits the data, so a page can explain it instead of drawing noise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

HAMMING_MAX_VALUES = 16  # more distinct values per feature than this reads as continuous data
_SAFE = 2.0**500  # below this in magnitude, differences and squares stay finite (2^1000 < 1.8e308)


def minkowski_distance(diff: np.ndarray, p: float) -> np.ndarray:
    """(Σ |diff|^p)^(1/p) over the last axis; p = np.inf gives max |diff|.

    ``diff`` holds coordinate differences (finite or +inf). When a power could overflow, every
    difference is divided by the largest one's power of two first (an exact rescaling) and the
    result multiplied back; a distance beyond the float64 range is inf, without a warning.
    """
    diff = np.abs(np.asarray(diff, dtype=np.float64))
    with np.errstate(over="ignore"):
        if p == np.inf:
            return diff.max(axis=-1)
        if p == 1:
            return diff.sum(axis=-1)
        top = diff.max(initial=0.0)
        if top < _SAFE ** (2.0 / max(p, 2.0)):
            return _power_sum(diff, p)
        largest = diff.max(axis=-1, keepdims=True)
        usable = (largest > 0) & np.isfinite(largest)
        scale = np.exp2(np.floor(np.log2(np.where(usable, largest, 1.0))))
        return _power_sum(diff / scale, p) * scale[..., 0]


def _power_sum(diff: np.ndarray, p: float) -> np.ndarray:
    if p == 2:
        return np.sqrt((diff * diff).sum(axis=-1))
    return (diff**p).sum(axis=-1) ** (1.0 / p)


def minkowski_powers(dx: np.ndarray, dy: np.ndarray, p: float) -> np.ndarray:
    """Σ|Δ|^p over two coordinates without the root (max |Δ| for p = ∞): monotone in the
    distance, so it ranks points as well. Works in place: ``dx`` and ``dy`` are overwritten."""
    if p == 2:
        dx *= dx
        dy *= dy
    else:
        np.abs(dx, out=dx)
        np.abs(dy, out=dy)
        if p == np.inf:
            return np.maximum(dx, dy, out=dx)
        if p != 1:
            dx **= p
            dy **= p
    dx += dy
    return dx


def minkowski_root(powered: np.ndarray, p: float, in_place: bool = False) -> np.ndarray:
    """The distance from :func:`minkowski_powers`' Σ|Δ|^p (the same arithmetic as
    :func:`minkowski_distance`, so the same float64 values), overwriting ``powered`` if asked."""
    out = powered if in_place else None
    if p == 2:
        return np.sqrt(powered, out=out)
    if p in (1, np.inf):
        return powered
    return np.power(powered, 1.0 / p, out=out)


def minkowski_length(a: float, b: float, p: float) -> float:
    """The Minkowski length of the vector (a, b)."""
    a, b = abs(float(a)), abs(float(b))
    return max(a, b) if p == np.inf else (a**p + b**p) ** (1.0 / p)


def differences(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """A − B (broadcast), with inf only where the true difference is beyond the float64 range."""
    with np.errstate(over="ignore"):
        return A - B


def _minkowski(A: np.ndarray, B: np.ndarray, p: float) -> np.ndarray:
    return minkowski_distance(differences(A, B), p)


def _hamming(A: np.ndarray, B: np.ndarray, p: None) -> np.ndarray:
    return (A != B).mean(axis=-1)


def _most_values(X: np.ndarray) -> int:
    """The most distinct values any one feature (column) of ``X`` takes."""
    return max(len(np.unique(column)) for column in X.reshape(len(X), -1).T)


def _hamming_unsuited(X: np.ndarray) -> str | None:
    """Hamming counts differing coordinates, which suits categorical or binary data only: on
    continuous coordinates two points almost never share a value, every distance is 1 and every
    vote a tie. Data count as categorical when each feature takes at most ``HAMMING_MAX_VALUES``
    distinct values. Returns why not, or None."""
    distinct = _most_values(X)
    if distinct <= HAMMING_MAX_VALUES:
        return None
    return (
        f"Hamming distance counts the coordinates that differ, which suits categorical or binary "
        f"data; these features are continuous (up to {distinct} distinct values), so almost every "
        f"pair of points differs in every coordinate and nearly every distance is 1."
    )


def _chebyshev_unsuited(X: np.ndarray) -> str | None:
    """Chebyshev takes the largest difference in any one coordinate: on black-and-white data
    (each feature 0 or 1) every two points that differ anywhere are exactly 1 apart, so the
    nearest neighbours are a tie among nearly all points (a 16×16 digit read this way is right
    about one time in ten). Returns why not, or None."""
    distinct = _most_values(X)
    if distinct > 2 or X.shape[-1] < 2:
        return None
    return (
        "Chebyshev distance is the largest difference in any one coordinate; on black-and-white "
        "features (0 or 1) any two points that differ anywhere are exactly 1 apart, so nearly "
        "every point ties for nearest."
    )


def _cosine(A: np.ndarray, B: np.ndarray, p: None) -> np.ndarray:
    # Each vector is divided by its largest coordinate's power of two first, which changes no
    # angle and keeps the squares and products finite.
    def unit(V: np.ndarray) -> np.ndarray:
        top = np.abs(V).max(axis=-1, keepdims=True)
        V = V / np.exp2(np.floor(np.log2(np.where(top > 0, top, 1.0))))
        norm = np.sqrt((V * V).sum(axis=-1, keepdims=True))
        return np.divide(V, norm, out=np.zeros_like(V), where=norm > 0)

    similarity = (unit(A) * unit(B)).sum(axis=-1)
    return np.clip(1.0 - similarity, 0.0, 2.0)


@dataclass(frozen=True)
class Metric:
    """One entry of :data:`METRIC_REGISTRY`: ``distance(A, B, p)`` between broadcastable point
    arrays (features on the last axis), exact float64; and, for a Minkowski metric, its exponent
    ``minkowski`` (``"p"``: the exponent the caller gives), which ``distance`` receives as p.
    The k-d tree and the query tiles work for Minkowski metrics only. ``unsuited(X)``, if given,
    says why the metric means nothing on the data X (None when it does: :func:`metric_suits`)."""

    distance: Callable[[np.ndarray, np.ndarray, Any], np.ndarray]
    minkowski: float | str | None = None
    unsuited: Callable[[np.ndarray], str | None] | None = None


# Every metric k-NN knows, by name, in the order the pages list them (as scikit-learn's
# metric registries): a new metric is one entry here, and one in the k player's table.
METRIC_REGISTRY: dict[str, Metric] = {
    "euclidean": Metric(_minkowski, 2.0),
    "manhattan": Metric(_minkowski, 1.0),
    "chebyshev": Metric(_minkowski, np.inf, unsuited=_chebyshev_unsuited),
    "minkowski": Metric(_minkowski, "p"),
    "cosine": Metric(_cosine),
    "hamming": Metric(_hamming, unsuited=_hamming_unsuited),
}
METRICS = tuple(METRIC_REGISTRY)


def minkowski_p(metric: str, p: float = 2) -> float | None:
    """The Minkowski exponent a metric stands for (None for cosine, hamming or an unknown name)."""
    exponent = getattr(METRIC_REGISTRY.get(metric), "minkowski", None)
    return float(p) if exponent == "p" else exponent


def metric_table() -> list[dict[str, Any]]:
    """The metrics in registry order, for a browser player: each one's ``name`` and Minkowski
    exponent ``p`` (a number, "inf", "p" for the page's own p, or None: not a Minkowski metric)."""
    exponents = {np.inf: "inf"}
    return [
        {"name": name, "p": exponents.get(metric.minkowski, metric.minkowski)}
        for name, metric in METRIC_REGISTRY.items()
    ]


def distances(A: np.ndarray, B: np.ndarray, metric: str, p: float = 2) -> np.ndarray:
    """Exact float64 distances between broadcastable point arrays (last axis = features)."""
    return METRIC_REGISTRY[metric].distance(A, B, minkowski_p(metric, p))


def pairwise_distances(A: Any, B: Any, metric: str = "euclidean", p: float = 2) -> np.ndarray:
    """Exact float64 distances between every row of A and every row of B, shape (len(A), len(B))."""
    A, B = np.asarray(A, dtype=np.float64), np.asarray(B, dtype=np.float64)
    return distances(A[:, None, :], B[None, :, :], metric, p)


def metric_suits(metric: str, X: Any) -> tuple[bool, str]:
    """Whether ``metric`` means something on the data X, and why not when it does not.

    Asks the metric's ``unsuited`` check in :data:`METRIC_REGISTRY` (Hamming's on continuous
    data, :func:`_hamming_unsuited`; Chebyshev's on black-and-white data,
    :func:`_chebyshev_unsuited`); every other metric suits any numeric data. Returns
    ``(True, "")`` or ``(False, reason)``.
    """
    X = np.asarray(X, dtype=np.float64)
    unsuited = getattr(METRIC_REGISTRY.get(metric), "unsuited", None)
    reason = unsuited(X) if unsuited is not None and X.size else None
    return (False, reason) if reason else (True, "")
