"""k-nearest neighbours: label a point by a vote of the k training points nearest to it.

Training stores the data. To classify x, find the k training points x_i with the smallest
distance d(x, x_i) and let each vote for its label y_i with weight w_i; the label with the
largest total wins:

    ŷ(x) = argmax_c Σ_{i ∈ N_k(x)} w_i [y_i = c]

with w_i = 1 ("uniform"), 1/d_i ("distance"), 1/d_i² ("distance2") or exp(−d_i²/h²)
("gaussian", bandwidth h). Only the ratios of the weights matter, so each is computed relative
to the nearest neighbour's (w_i / w_1: (d_1/d_i)^q, or exp(−(d_i² − d_1²)/h²)): the nearest
neighbour always weighs 1 and the weights never all vanish, however small h. Under the
inverse weights an exact match (d_1 = 0) wins outright.

**Ties** (:data:`TIE_RULE`): when several classes share the largest total, the class of the
nearest neighbour among them wins. So with two classes k = 2 always agrees with k = 1, and
k = n on balanced classes (every class ties) is 1-NN; :func:`vote` says where a tie happened.

Among training points at the same distance the lower index counts as nearer, in every search
path. :func:`knn_textbook` is the whole method in a few readable lines, and gives the same
predictions as :class:`KNNClassifier`. :func:`nearest_neighbors` chooses the search: brute
force (:mod:`classic._search`) or, in one or two dimensions, query tiles (:mod:`classic._tiles`).
The edited variants :func:`wilson_edit` and :func:`hart_condense` thin the training set.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from classic._search import TrainingSet, brute_neighbors
from classic._tiles import tile_neighbors, tiles_suit
from classic._validation import Estimator, check_array, check_is_fitted, check_labels
from classic.distances import METRIC_REGISTRY, METRICS, metric_suits, minkowski_p, pairwise_distances
from classic.kdtree import KDTree

__all__ = [
    "ALGORITHMS",
    "METRICS",
    "METRIC_REGISTRY",
    "TIE_RULE",
    "WEIGHTS",
    "WEIGHT_REGISTRY",
    "Decision",
    "KNNClassifier",
    "NeighbourTable",
    "TrainingSet",
    "accuracy_by_k",
    "decide",
    "hart_condense",
    "knn_textbook",
    "leave_one_out_accuracy",
    "metric_suits",
    "minkowski_p",
    "nearest_neighbors",
    "neighbour_table",
    "pairwise_distances",
    "region_grid",
    "vote",
    "wilson_edit",
]

ALGORITHMS = ("auto", "brute", "kdtree")
TIE_RULE = "a tie between classes goes to the class of the nearest neighbour among the tied classes"


def _gaussian(d: np.ndarray, nearest: np.ndarray, h: float) -> np.ndarray:
    # d² − d_1² = (d − d_1)(d + d_1), each factor divided by h first: no overflow to inf − inf
    return np.exp(-((d - nearest) / h) * ((d + nearest) / h))


@dataclass(frozen=True)
class Weighting:
    """One entry of :data:`WEIGHT_REGISTRY`: a neighbour's vote weight w(d) as its ``formula``
    says, and ``relative(d, d_1, h)``, the ratio w(d) / w(d_1) to the nearest neighbour's
    weight (None: every neighbour weighs 1)."""

    formula: str
    relative: Callable[[np.ndarray, np.ndarray, float], np.ndarray] | None = None


# Every vote weighting, by name, in the order the pages list them: a new one is one entry here
# (and one in the k player's vote).
WEIGHT_REGISTRY: dict[str, Weighting] = {
    "uniform": Weighting("1"),
    "distance": Weighting("1/d", lambda d, nearest, h: nearest / d),
    "distance2": Weighting("1/d²", lambda d, nearest, h: (nearest / d) ** 2),
    "gaussian": Weighting("exp(−d²/h²)", _gaussian),
}
WEIGHTS = tuple(WEIGHT_REGISTRY)


def relative_weights(distances: np.ndarray, weights: str = "uniform", bandwidth: float = 1.0) -> np.ndarray:
    """Vote weights w_i / w_nearest for each row of distances (1 for the nearest neighbour).

    Working relative to the nearest distance d_1 keeps them representable: exp(−(d² − d_1²)/h²)
    is 1 for the nearest even when exp(−d²/h²) underflows to 0 (far from the data, small h).
    """
    distances = np.asarray(distances, dtype=np.float64)
    relative = WEIGHT_REGISTRY[weights].relative
    if relative is None:
        return np.ones_like(distances)
    nearest = distances.min(axis=1, keepdims=True)
    same = distances == nearest  # also where both are inf, which the arithmetic turns to NaN
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        w = relative(distances, nearest, bandwidth)
    w[same] = 1.0
    # An exact match wins outright: only the zero-distance neighbours vote.
    exact_rows = nearest[:, 0] == 0
    w[exact_rows] = (distances[exact_rows] == 0).astype(np.float64)
    return w


def vote(
    labels: np.ndarray,
    distances: np.ndarray,
    n_classes: int,
    weights: str = "uniform",
    bandwidth: float = 1.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted vote over the neighbours in each row (columns sorted nearest first).

    ``labels`` are class indices 0..n_classes−1. Returns ``(winner, shares, tied)``: the winning
    class index per row, each class's share of the vote, and whether the top total was shared
    by several classes, in which case :data:`TIE_RULE` decided (:func:`decide`).
    """
    labels = np.asarray(labels)
    n = len(labels)
    if labels.shape[1] == 1:  # one neighbour (weight 1 whatever the weights): all its class's, no tie
        shares = np.zeros((n, n_classes))
        shares[np.arange(n), labels[:, 0]] = 1.0
        return labels[:, 0].astype(np.intp), shares, np.zeros(n, dtype=bool)
    weighted = WEIGHT_REGISTRY[weights].relative is not None
    w = relative_weights(distances, weights, bandwidth).ravel() if weighted else None
    cells = (np.arange(n)[:, None] * n_classes + labels).ravel()
    totals = np.bincount(cells, w, minlength=n * n_classes).reshape(n, n_classes)
    winner, tied = decide(totals, labels)
    everything = totals.sum(axis=1, keepdims=True)
    shares = np.divide(totals, everything, out=np.full(totals.shape, 1.0 / n_classes), where=everything > 0)
    return winner, shares, tied


def decide(totals: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The winning class of each row of vote ``totals`` (rows × classes), and whether it was tied.

    The largest total wins. When several classes share it (equal up to rounding in the sums),
    :data:`TIE_RULE`: the class of the nearest neighbour among them, read from ``labels``, the
    neighbours' classes nearest first. ``totals`` may also be (rows, m, classes): the votes of m
    numbers of neighbours in each row (their nearest ones), each decided alone, results (rows, m).
    """
    shape = totals.shape[:-1]
    totals = totals.reshape(-1, totals.shape[-1])
    # Class by class, a row of n each: the reductions over the few classes run along long rows
    # instead of n times along a short one (much faster for two classes).
    by_class = np.ascontiguousarray(totals.T)
    best = by_class.max(axis=0)
    is_top = (by_class >= best * (1 - 1e-12)) & (best > 0)
    tied = np.count_nonzero(is_top, axis=0) > 1
    winner = totals.argmax(axis=1)  # the first class with the top total
    rows = np.flatnonzero(tied)
    # Every class with a positive total has a neighbour among those voting: the first neighbour
    # in the row whose class is at the top is one of them.
    neighbours = labels[rows // (totals.shape[0] // max(len(labels), 1))]
    first = np.take_along_axis(is_top[:, rows].T, neighbours, axis=1).argmax(axis=1)
    winner[rows] = neighbours[np.arange(len(rows)), first]
    return winner.reshape(shape), tied.reshape(shape)


def knn_textbook(X_train: Any, y_train: Any, x: Any, k: int) -> Any:
    """The post's k-NN in a few lines: sort every training point by its Euclidean distance to x,
    take the k first, return their most common label (a tie: the nearest tied neighbour's label).

    Equal distances keep the training order, as in :class:`KNNClassifier`, which returns the
    same predictions with a faster search.
    """
    distance = [math.sqrt(sum((a - b) ** 2 for a, b in zip(x, point, strict=True))) for point in X_train]
    nearest = sorted(range(len(X_train)), key=lambda i: (distance[i], i))[:k]
    labels = [y_train[i] for i in nearest]
    counts = Counter(labels)
    return next(label for label in labels if counts[label] == max(counts.values()))


def nearest_neighbors(
    Q: Any, T: Any, k: int, metric: str = "euclidean", p: float = 2, algorithm: str = "auto"
) -> tuple[np.ndarray, np.ndarray]:
    """The k nearest rows of T for every row of Q: (distances, indices), nearest first.

    ``T`` is an array or a :class:`TrainingSet` prepared for the same metric. Ties are broken
    by index: of several points at the same distance the lower index comes first, and is kept
    when they straddle the k-th place. ``algorithm="auto"`` takes query tiles for 1-D and
    2-D Minkowski data and brute force otherwise; ``"brute"`` always measures every point.
    """
    prepared = T if isinstance(T, TrainingSet) else TrainingSet.prepare(T, metric, p)
    Q = np.asarray(Q)
    if algorithm == "auto" and tiles_suit(prepared, Q):
        return tile_neighbors(Q, prepared, k)
    return brute_neighbors(Q, prepared, k)


@dataclass(frozen=True)
class Decision:
    """What decided each query: its neighbours (nearest first), each class's vote share, the
    winning label, and whether the vote was tied (then :data:`TIE_RULE` decided)."""

    distances: np.ndarray
    indices: np.ndarray
    shares: np.ndarray
    label: np.ndarray
    tied: np.ndarray


class KNNClassifier(Estimator):
    """k-nearest-neighbours classifier.

    Parameters
    ----------
    k : int, default 5
        Number of neighbours that vote. Must be at most the number of training points.
    metric : {"euclidean", "manhattan", "chebyshev", "minkowski", "cosine", "hamming"}
        Distance between points. "minkowski" uses ``p``; "hamming" is the fraction of
        coordinates that differ (for categorical data: see :func:`metric_suits`); "cosine" is
        1 − cos(angle).
    p : float, default 2
        Exponent of the Minkowski metric (p ≥ 1; ``np.inf`` is Chebyshev).
    weights : {"uniform", "distance", "distance2", "gaussian"}
        Vote weight of a neighbour at distance d: 1, 1/d, 1/d², exp(−d²/bandwidth²).
    algorithm : {"auto", "brute", "kdtree"}, default "auto"
        How neighbours are found; all give the same neighbours, ties by index. "auto" takes
        query tiles for 1-D and 2-D data under a Minkowski metric and brute force otherwise;
        "kdtree" asks a :class:`~classic.kdtree.KDTree` (Minkowski metrics only). Brute force
        on more than 8 real-valued features ranks in float32 (distances to ~7 digits).
    bandwidth : float, default 1.0
        Width h of the Gaussian weights.

    Attributes
    ----------
    classes_ : ndarray, the sorted distinct training labels.
    n_features_in_ : int
    X_, y_ : the training points (float64) and their class indices into ``classes_``.
    tree_ : KDTree or None.
    training_set_ : TrainingSet, the training points prepared for the search.
    """

    def __init__(
        self,
        *,
        k: int = 5,
        metric: str = "euclidean",
        p: float = 2,
        weights: str = "uniform",
        algorithm: str = "auto",
        bandwidth: float = 1.0,
    ) -> None:
        self.k = k
        self.metric = metric
        self.p = p
        self.weights = weights
        self.algorithm = algorithm
        self.bandwidth = bandwidth

    def _check_params(self) -> None:
        for name, value, allowed in (
            ("metric", self.metric, METRIC_REGISTRY),
            ("weights", self.weights, WEIGHT_REGISTRY),
            ("algorithm", self.algorithm, ALGORITHMS),
        ):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {value!r}")
        _check_k(self.k)
        if METRIC_REGISTRY[self.metric].minkowski == "p" and not (_is_number(self.p) and self.p >= 1):
            raise ValueError(f"p must be >= 1 for the Minkowski metric; got {self.p!r}")
        if not (_is_number(self.bandwidth) and np.isfinite(self.bandwidth) and self.bandwidth > 0):
            raise ValueError(f"bandwidth must be a positive number; got {self.bandwidth!r}")
        if self.algorithm == "kdtree" and minkowski_p(self.metric, self.p) is None:
            raise ValueError(f"the k-d tree supports Minkowski metrics only, not {self.metric!r}")

    def fit(self, X: Any, y: Any) -> KNNClassifier:
        """Store the training data (prepared for the search). Returns self."""
        self._check_params()
        X = check_array(X, estimator=self)
        _, self.classes_, self.y_ = check_labels(y, len(X), self)
        if self.k > len(X):
            samples = f"{len(X)} sample" + ("s" if len(X) > 1 else "")
            raise ValueError(
                f"k={self.k} is larger than the training set ({samples}): k must be at most {len(X)}"
            )
        self.n_features_in_ = X.shape[1]
        self.X_ = X
        self.tree_ = KDTree(X) if self.algorithm == "kdtree" else None
        self.training_set_ = TrainingSet.prepare(X, self.metric, self.p)
        return self

    def kneighbors(self, X: Any, k: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Distances and training indices of the k nearest neighbours, nearest first."""
        check_is_fitted(self, "X_")
        X = check_array(X, keep_integers=self.tree_ is None, n_features=self.n_features_in_, estimator=self)
        k = self.k if k is None else k
        if not _is_count(k) or k > len(self.X_):
            raise ValueError(f"k must be an integer in [1, {len(self.X_)}]; got {k!r}")
        if self.tree_ is not None:
            return self.tree_.query_many(X, int(k), p=minkowski_p(self.metric, self.p))
        algorithm = "auto" if self.algorithm == "auto" else "brute"
        return nearest_neighbors(X, self.training_set_, int(k), algorithm=algorithm)

    def decide(self, X: Any) -> Decision:
        """The neighbours, the vote shares, the winning label and the tie flag of each row of X."""
        distances, indices = self.kneighbors(X)
        winner, shares, tied = vote(
            self.y_[indices], distances, len(self.classes_), self.weights, self.bandwidth
        )
        return Decision(distances, indices, shares, self.classes_[winner], tied)

    def predict(self, X: Any) -> np.ndarray:
        """The winning label for each row of X (ties: see :data:`TIE_RULE`)."""
        return self.decide(X).label

    def predict_proba(self, X: Any) -> np.ndarray:
        """Each class's share of the (weighted) vote, columns in the order of ``classes_``."""
        return self.decide(X).shares


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def _is_count(k: Any) -> bool:
    """Whether k is a whole number ≥ 1 (an int, or a float such as 3.0; never a bool, NaN or inf)."""
    return _is_number(k) and bool(np.isfinite(k) and k >= 1 and int(k) == k)


def _check_k(k: Any) -> None:
    if not _is_count(k):
        raise ValueError(f"k must be a positive integer; got {k!r}")


def _neighbours_of_each_other(X: np.ndarray, k: int, metric: str, p: float) -> tuple[np.ndarray, np.ndarray]:
    """For every training point, its k nearest other points (itself left out, even among duplicates)."""
    distances, indices = nearest_neighbors(X, X, min(k + 1, len(X)), metric, p)
    others = indices != np.arange(len(X))[:, None]
    if np.count_nonzero(others) == others.size - len(X):  # each row holds itself once: drop it
        return distances[others].reshape(len(X), -1), indices[others].reshape(len(X), -1)
    keep = np.argsort(~others, axis=1, kind="stable")[:, : indices.shape[1] - 1]
    return np.take_along_axis(distances, keep, axis=1), np.take_along_axis(indices, keep, axis=1)


def _accuracy_per_k(
    distances: np.ndarray,
    indices: np.ndarray,
    y_index: np.ndarray,
    truth: np.ndarray,
    k_values: list[int],
    weights: str,
    bandwidth: float,
) -> np.ndarray:
    """Accuracy of the vote over the first k neighbour columns, for each k (class indices).

    :func:`vote` for every k at once: a class's total over the first k columns is a running sum
    along the row (the same additions, in the same order, as the vote's), and :func:`decide`
    names the winners.
    """
    n_classes, columns = int(y_index.max()) + 1, max(k_values)
    labels = y_index[indices[:, :columns]]
    w = relative_weights(distances[:, :columns], weights, bandwidth)  # each row's nearest: column 0
    mine = labels[:, :, None] == np.arange(n_classes)
    totals = np.cumsum(np.where(mine, w[:, :, None], 0.0), axis=1)[:, np.asarray(k_values) - 1]
    winner, _ = decide(totals, labels)
    return (winner == np.asarray(truth)[:, None]).mean(axis=0)


def leave_one_out_accuracy(
    X: Any,
    y: Any,
    k_values: Any,
    metric: str = "euclidean",
    p: float = 2,
    weights: str = "uniform",
    bandwidth: float = 1.0,
) -> np.ndarray:
    """Leave-one-out accuracy for each k: every point classified by the others (one search)."""
    X = check_array(X)
    _, y_index = np.unique(np.asarray(y), return_inverse=True)
    k_values = [int(k) for k in k_values]
    distances, indices = _neighbours_of_each_other(X, max(k_values), metric, p)
    return _accuracy_per_k(distances, indices, y_index, y_index, k_values, weights, bandwidth)


def accuracy_by_k(
    X_train: Any,
    y_train: Any,
    X_eval: Any,
    y_eval: Any,
    k_values: Any,
    metric: str = "euclidean",
    p: float = 2,
    weights: str = "uniform",
    bandwidth: float = 1.0,
) -> np.ndarray:
    """Accuracy on (X_eval, y_eval) for each k, from one neighbour search for the largest k."""
    X_train = check_array(X_train)
    classes, y_index = np.unique(np.asarray(y_train), return_inverse=True)
    k_values = [int(k) for k in k_values]
    distances, indices = nearest_neighbors(check_array(X_eval), X_train, max(k_values), metric, p)
    # An evaluation label never seen in training can never be predicted: it gets index −1.
    position = np.searchsorted(classes, np.asarray(y_eval))
    position = np.minimum(position, len(classes) - 1)
    truth = np.where(classes[position] == np.asarray(y_eval), position, -1)
    return _accuracy_per_k(distances, indices, y_index, truth, k_values, weights, bandwidth)


def wilson_edit(X: Any, y: Any, k: int = 3, metric: str = "euclidean", p: float = 2) -> np.ndarray:
    """Wilson's editing: the indices of the points their k nearest other points classify correctly.

    Points that the rest of the data out-vote (noise, or points deep in the other class's
    region) are dropped; the boundary between the classes becomes smoother. Uniform vote,
    ties by :data:`TIE_RULE`. Returns the kept indices in increasing order.
    """
    X = check_array(X)
    _check_k(k)
    if k >= len(X):
        raise ValueError(f"k={k} must be below the number of points ({len(X)}): each point is left out")
    classes, y_index = np.unique(np.asarray(y), return_inverse=True)
    distances, indices = _neighbours_of_each_other(X, int(k), metric, p)
    winner, _, _ = vote(y_index[indices], distances, len(classes))
    return np.flatnonzero(winner == y_index)


def hart_condense(X: Any, y: Any, metric: str = "euclidean", p: float = 2) -> np.ndarray:
    """Hart's condensed nearest neighbour: a consistent subset for 1-NN, as Hart (1968) builds it.

    Start with the first point; go through the points in order and add every one that 1-NN on
    the points kept so far misclassifies; repeat passes until one adds nothing. Every training
    point is then classified correctly by its nearest kept point. Returns the kept indices in
    increasing order.
    """
    X = check_array(X)
    y = np.asarray(y)
    kept = [0]
    changed = True
    while changed:
        changed = False
        for i in range(len(X)):
            store = np.array(kept)
            nearest = store[np.argmin(pairwise_distances(X[i : i + 1], X[store], metric, p)[0])]
            if y[nearest] != y[i]:
                kept.append(i)
                changed = True
    return np.sort(np.array(kept))


def region_grid(
    X: Any, resolution: int = 200, margin: float = 0.1
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A ``resolution`` × ``resolution`` grid over the data's bounding box (plus a margin).

    Returns ``(xs, ys, points)`` with ``points`` of shape (resolution², 2), row-major over ys,
    ready to classify and reshape to an image.
    """
    X = check_array(X)
    low, high = X[:, :2].min(axis=0), X[:, :2].max(axis=0)
    pad = margin * np.where(high > low, high - low, 1.0)
    xs = np.linspace(low[0] - pad[0], high[0] + pad[0], resolution)
    ys = np.linspace(low[1] - pad[1], high[1] + pad[1], resolution)
    grid_x, grid_y = np.meshgrid(xs, ys)
    return xs, ys, np.column_stack([grid_x.ravel(), grid_y.ravel()])


@dataclass(frozen=True)
class NeighbourTable:
    """The ``k_max`` nearest training points of many queries, compact enough to cache or send
    to a browser player: ``indices`` int32 and ``distances`` float32, shape (queries, k_max),
    nearest first. Any k ≤ k_max is a vote over the first k columns."""

    indices: np.ndarray
    distances: np.ndarray

    def vote(self, y_index: np.ndarray, k: int, weights: str = "uniform", bandwidth: float = 1.0) -> tuple:
        """:func:`vote` over the first k columns, with ``y_index`` the training class indices."""
        n_classes = int(np.max(y_index)) + 1
        return vote(y_index[self.indices[:, :k]], self.distances[:, :k], n_classes, weights, bandwidth)


def neighbour_table(
    queries: Any, X_train: Any, k_max: int, metric: str = "euclidean", p: float = 2
) -> NeighbourTable:
    """The ``k_max`` nearest training points of every query (e.g. every pixel of a region map).

    Searched in batches of queries written straight into the float32/int32 result (8 bytes
    per query and neighbour), so the float64/int64 temporaries stay small next to it.
    """
    queries, X_train = check_array(queries), check_array(X_train)
    _check_k(k_max)
    if k_max > len(X_train):
        raise ValueError(f"k_max={k_max} is larger than the training set ({len(X_train)} points)")
    prepared = TrainingSet.prepare(X_train, metric, p)
    indices = np.empty((len(queries), int(k_max)), dtype=np.int32)
    distances = np.empty((len(queries), int(k_max)), dtype=np.float32)
    if tiles_suit(prepared, queries):  # batch by batch into the compact arrays themselves
        tile_neighbors(queries, prepared, int(k_max), out=(distances, indices))
        return NeighbourTable(indices, distances)
    step = max(1024, 2**22 // int(k_max))
    for start in range(0, len(queries), step):
        found = nearest_neighbors(queries[start : start + step], prepared, int(k_max))
        distances[start : start + step], indices[start : start + step] = found
    return NeighbourTable(indices, distances)
