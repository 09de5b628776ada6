"""k-nearest neighbours: label a point by a vote of the k training points nearest to it.

Training stores the data. To classify x, find the k training points x_i with the smallest
distance d(x, x_i) and let each vote for its label y_i with weight w_i; the label with the
largest total wins:

    ŷ(x) = argmax_c Σ_{i ∈ N_k(x)} w_i [y_i = c]

with w_i = 1 ("uniform"), 1/d_i ("distance"), 1/d_i² ("distance2") or exp(−d_i²/h²)
("gaussian", bandwidth h). Under the inverse weights an exact match (d_i = 0) wins outright.
**Ties**: when several classes share the largest total, the class of the nearest neighbour
among them wins, so k = 2 never does worse than k = 1 by a coin flip.

Brute force computes all distances at once: for the Euclidean metric
|a − b|² = |a|² + |b|² − 2 a·b, one float32 matrix multiply per chunk of queries (chunks keep
memory bounded), then ``argpartition`` picks the k smallest, sorted by distance and then
index. Small-integer data (binary pixels) take a faster exact path: distance and index are
packed into one integer key per pair, computed by the same matrix multiply, so a plain
``partition`` finds the neighbours, and ties fall to the lowest indices. In low dimensions the chosen few are then measured exactly in float64; in high
dimensions the float32 values are kept (exact for small integers such as binary pixels,
otherwise good to about 7 significant digits). ``algorithm="kdtree"`` asks a :class:`~classic.kdtree.KDTree`
instead and returns the same neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from classic.kdtree import KDTree, minkowski_distance

METRICS = ("euclidean", "manhattan", "chebyshev", "minkowski", "cosine", "hamming")
WEIGHTS = ("uniform", "distance", "distance2", "gaussian")
ALGORITHMS = ("brute", "kdtree")
CHUNK_BYTES = 2**20  # memory for one chunk of the distance computation (cache-sized: faster than larger)
EXACT_DIMS = 8  # up to this many features, the chosen neighbours' distances are recomputed in float64


def minkowski_p(metric: str, p: float = 2) -> float | None:
    """The Minkowski exponent a metric stands for (None for cosine and hamming)."""
    return {"euclidean": 2.0, "manhattan": 1.0, "chebyshev": np.inf, "minkowski": float(p)}.get(metric)


def _distances(A: np.ndarray, B: np.ndarray, metric: str, p: float) -> np.ndarray:
    """Exact float64 distances between broadcastable point arrays (last axis = features)."""
    if metric == "cosine":
        norms = np.linalg.norm(A, axis=-1) * np.linalg.norm(B, axis=-1)
        dots = (A * B).sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            similarity = np.where(norms > 0, dots / norms, 0.0)
        return np.clip(1.0 - similarity, 0.0, 2.0)
    if metric == "hamming":
        return (A != B).mean(axis=-1)
    return minkowski_distance(A - B, minkowski_p(metric, p))


def pairwise_distances(A: Any, B: Any, metric: str = "euclidean", p: float = 2) -> np.ndarray:
    """Exact float64 distances between every row of A and every row of B, shape (len(A), len(B))."""
    A, B = np.asarray(A, dtype=np.float64), np.asarray(B, dtype=np.float64)
    return _distances(A[:, None, :], B[None, :, :], metric, p)


@dataclass(frozen=True)
class TrainingSet:
    """Training points prepared once for brute-force searches (centred float32, squared norms).

    For small-integer data (binary pixels) under the Euclidean metric, ``keyed`` also holds
    the rows [−2n·x, n·|x|² + j] for training point j of n: a query [b, 1] times it gives
    n·(|x_j|² − 2 b·x_j) + j, an exact integer in float32 that orders the neighbours by
    (distance, index) on its own, so one matrix multiply and one ``partition`` find them.
    """

    X: np.ndarray
    metric: str
    p: float
    centre: np.ndarray | None = None
    X32: np.ndarray | None = None
    squared_norms: np.ndarray | None = None
    keyed: np.ndarray | None = None

    @classmethod
    def prepare(cls, X: Any, metric: str = "euclidean", p: float = 2) -> TrainingSet:
        X = np.asarray(X, dtype=np.float64)
        if minkowski_p(metric, p) != 2:
            return cls(X, metric, p)
        # Small integers (binary pixels) are exact in float32: do not centre them, so their
        # squared distances stay exact integers. Otherwise centre to limit cancellation.
        n = len(X)
        small_integers = np.abs(X).max(initial=0.0) ** 2 * X.shape[1] < 2**20 and bool(
            np.all(X == np.round(X))
        )
        centre = np.zeros(X.shape[1]) if small_integers else X.mean(axis=0)
        X32 = (X - centre).astype(np.float32)
        squared_norms = np.einsum("ij,ij->i", X32, X32)
        keyed = None
        if small_integers:
            keyed = np.column_stack([-2.0 * n * X, n * squared_norms + np.arange(n)]).astype(np.float32)
        return cls(X, metric, p, centre, X32, squared_norms, keyed)


def _keyed_neighbors(
    prepared: TrainingSet, block: np.ndarray, k: int, out: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """The k nearest neighbours by packed integer keys, or None when the keys are not exact.

    Every partial sum of the product stays below n·(|x|² + 2|b||x| + 1) in magnitude
    (Cauchy–Schwarz), so when that is under 2²⁴ and the query is integer the float32
    arithmetic is exact and the keys are distinct integers.
    """
    n = len(prepared.X)
    B32 = block.astype(np.float32)
    query_norms = np.einsum("ij,ij->i", B32, B32)
    top = float(prepared.squared_norms.max())
    if n * (top + 2 * np.sqrt(float(query_norms.max()) * top) + 1) >= 2**24:
        return None
    if block.dtype.kind == "f" and np.any(np.rint(B32) != B32):
        return None
    augmented = np.ones((len(B32), B32.shape[1] + 1), dtype=np.float32)
    augmented[:, :-1] = B32
    keys = np.matmul(augmented, prepared.keyed.T, out=out)
    if k == 1:
        keys = keys.min(axis=1, keepdims=True)
    elif k < n:
        keys.partition(k - 1, axis=1)
    keys = np.sort(keys[:, :k], axis=1).astype(np.int64)
    values, columns = np.divmod(keys, n)
    return np.sqrt(np.maximum(values + query_norms[:, None], 0.0)), columns


def nearest_neighbors(
    Q: Any, T: Any, k: int, metric: str = "euclidean", p: float = 2
) -> tuple[np.ndarray, np.ndarray]:
    """The k nearest rows of T for every row of Q, by brute force: (distances, indices).

    ``T`` is an array or a :class:`TrainingSet` prepared for the same metric. For the
    Euclidean metric the squared distances come from one float32 matrix multiply per chunk of
    queries, after centring both sides on the training mean (which keeps the cancellation in
    |a|² + |b|² − 2a·b small); other metrics are computed exactly. ``argpartition`` then picks
    the k smallest per row, sorted by (distance, index); which of several points tied at the
    k-th distance are kept is unspecified. Small-integer data use packed keys (see
    :class:`TrainingSet`): exact, and ties at the k-th distance go to the lowest indices.
    Integer queries are converted chunk by chunk, never copied whole to float64.
    """
    prepared = T if isinstance(T, TrainingSet) else TrainingSet.prepare(T, metric, p)
    Q, T = np.asarray(Q), prepared.X
    if Q.dtype.kind not in "biu":  # integer queries (pixels) are converted chunk by chunk
        Q = Q.astype(np.float64, copy=False)
    n, dims = T.shape
    euclidean = prepared.X32 is not None
    rows = max(1, CHUNK_BYTES // (n * (4 if euclidean else 8 * dims)))
    distances = np.empty((len(Q), k))
    indices = np.empty((len(Q), k), dtype=np.int64)
    if euclidean:  # one buffer for every chunk's ranking: fresh memory is slow to touch
        buffer = np.empty((min(rows, len(Q)), n), dtype=np.float32)
    for start in range(0, len(Q), rows):
        block = Q[start : start + rows]
        if euclidean and prepared.keyed is not None:  # small integers: not centred
            found = _keyed_neighbors(prepared, block, k, buffer[: len(block)])
            if found is not None:
                distances[start : start + len(block)], indices[start : start + len(block)] = found
                continue
        block = block.astype(np.float64, copy=False)
        if euclidean:
            B32 = (block - prepared.centre).astype(np.float32)
            # |b|² is the same along a row, so it is left out of the ranking and added after.
            ranking = np.matmul(B32, prepared.X32.T, out=buffer[: len(block)])
            ranking *= -2.0
            ranking += prepared.squared_norms
        else:
            ranking = _distances(block[:, None, :], T[None, :, :], metric, p)
        if k == 1:
            candidates = ranking.argmin(axis=1)[:, None]
        elif k < n:
            candidates = np.argpartition(ranking, k - 1, axis=1)[:, :k]
        else:
            candidates = np.broadcast_to(np.arange(n), (len(block), n))
        if dims <= EXACT_DIMS:  # cheap: measure the chosen few exactly, in float64
            chosen = _distances(block[:, None, :], T[candidates], metric, p)
        else:
            chosen = np.take_along_axis(ranking, candidates, axis=1).astype(np.float64)
            if euclidean:
                chosen = np.sqrt(np.maximum(chosen + np.einsum("ij,ij->i", B32, B32)[:, None], 0.0))
        order = np.lexsort((candidates, chosen), axis=1)
        distances[start : start + len(block)] = np.take_along_axis(chosen, order, axis=1)
        indices[start : start + len(block)] = np.take_along_axis(candidates, order, axis=1)
    return distances, indices


def vote(
    labels: np.ndarray,
    distances: np.ndarray,
    n_classes: int,
    weights: str = "uniform",
    bandwidth: float = 1.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted vote over the neighbours in each row (columns sorted nearest first).

    ``labels`` are class indices 0..n_classes−1. Returns ``(winner, scores, tied)``: the winning
    class index per row, the normalised vote share per class, and whether the top score was
    shared by several classes (then the class of the nearest tied neighbour won).
    """
    labels = np.asarray(labels)
    distances = np.asarray(distances, dtype=np.float64)
    if weights == "uniform":
        w = np.ones_like(distances)
    elif weights == "gaussian":
        w = np.exp(-(distances**2) / bandwidth**2)
    else:
        power = 1 if weights == "distance" else 2
        exact = distances == 0
        with np.errstate(divide="ignore"):
            w = 1.0 / distances**power
        # An exact match wins outright: only the zero-distance neighbours vote.
        has_exact = exact.any(axis=1)
        w[has_exact] = exact[has_exact].astype(np.float64)
    cells = (np.arange(len(labels))[:, None] * n_classes + labels).ravel()
    scores = np.bincount(cells, w.ravel(), minlength=len(labels) * n_classes).reshape(len(labels), n_classes)
    best = scores.max(axis=1, keepdims=True)
    is_top = np.isclose(scores, best, rtol=1e-12, atol=0) & (best > 0)
    tied = is_top.sum(axis=1) > 1
    # The nearest neighbour whose class is among the top ones decides.
    top_of_neighbour = np.take_along_axis(is_top, labels, axis=1)
    first = top_of_neighbour.argmax(axis=1)
    winner = labels[np.arange(len(labels)), first]
    totals = scores.sum(axis=1, keepdims=True)
    shares = np.divide(scores, totals, out=np.full_like(scores, 1.0 / n_classes), where=totals > 0)
    return winner, shares, tied


class KNNClassifier:
    """k-nearest-neighbours classifier, brute force or with a k-d tree.

    Parameters
    ----------
    k : int, default 5
        Number of neighbours that vote. Must be at most the number of training points.
    metric : {"euclidean", "manhattan", "chebyshev", "minkowski", "cosine", "hamming"}
        Distance between points. "minkowski" uses ``p``; "hamming" is the fraction of
        coordinates that differ; "cosine" is 1 − cos(angle).
    p : float, default 2
        Exponent of the Minkowski metric (p ≥ 1; ``np.inf`` is Chebyshev).
    weights : {"uniform", "distance", "distance2", "gaussian"}
        Vote weight of a neighbour at distance d: 1, 1/d, 1/d², exp(−d²/bandwidth²).
    algorithm : {"brute", "kdtree"}
        How neighbours are found; both give the same answers. The k-d tree supports the
        Minkowski metrics only.
    bandwidth : float, default 1.0
        Width h of the Gaussian weights.

    Attributes
    ----------
    classes_ : ndarray, the sorted distinct training labels.
    X_, y_ : the training points (float64) and their class indices into ``classes_``.
    tree_ : KDTree or None.
    training_set_ : TrainingSet, the training points prepared for brute-force search.
    """

    def __init__(
        self,
        k: int = 5,
        metric: str = "euclidean",
        p: float = 2,
        weights: str = "uniform",
        algorithm: str = "brute",
        bandwidth: float = 1.0,
    ) -> None:
        self.k = k
        self.metric = metric
        self.p = p
        self.weights = weights
        self.algorithm = algorithm
        self.bandwidth = bandwidth

    def __repr__(self) -> str:
        return (
            f"KNNClassifier(k={self.k}, metric={self.metric!r}, weights={self.weights!r}, "
            f"algorithm={self.algorithm!r})"
        )

    def _check_params(self) -> None:
        if self.metric not in METRICS:
            raise ValueError(f"metric must be one of {', '.join(METRICS)}; got {self.metric!r}")
        if self.weights not in WEIGHTS:
            raise ValueError(f"weights must be one of {', '.join(WEIGHTS)}; got {self.weights!r}")
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be 'brute' or 'kdtree'; got {self.algorithm!r}")
        if isinstance(self.k, bool) or int(self.k) != self.k or self.k < 1:
            raise ValueError(f"k must be a positive integer; got {self.k!r}")
        if self.metric == "minkowski" and not self.p >= 1:
            raise ValueError(f"p must be >= 1 for the Minkowski metric; got {self.p!r}")
        if not (np.isfinite(self.bandwidth) and self.bandwidth > 0):
            raise ValueError(f"bandwidth must be a positive number; got {self.bandwidth!r}")
        if self.algorithm == "kdtree" and minkowski_p(self.metric, self.p) is None:
            raise ValueError(f"the k-d tree supports Minkowski metrics only, not {self.metric!r}")

    def fit(self, X: Any, y: Any) -> KNNClassifier:
        """Store the training data (and build the k-d tree). Returns self."""
        self._check_params()
        X = _check_points(X)
        y = np.asarray(y)
        if y.ndim != 1 or len(y) != len(X):
            raise ValueError(f"y must be 1-D with one label per row of X; got {y.shape} for {len(X)} rows")
        if self.k > len(X):
            raise ValueError(f"k={self.k} is larger than the training set ({len(X)} points)")
        self.classes_, self.y_ = np.unique(y, return_inverse=True)
        self.X_ = X
        self.tree_ = KDTree(X) if self.algorithm == "kdtree" else None
        self.training_set_ = TrainingSet.prepare(X, self.metric, self.p)
        return self

    def _check_fitted(self, X: Any) -> np.ndarray:
        if not hasattr(self, "X_"):
            raise ValueError("this KNNClassifier is not fitted yet: call fit(X, y) first")
        X = _check_points(X, keep_integers=self.tree_ is None)
        if X.shape[1] != self.X_.shape[1]:
            raise ValueError(f"X has {X.shape[1]} features, the model was fitted on {self.X_.shape[1]}")
        return X

    def kneighbors(self, X: Any, k: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Distances and training indices of the k nearest neighbours, nearest first."""
        X = self._check_fitted(X)
        k = self.k if k is None else k
        if isinstance(k, bool) or int(k) != k or not 1 <= k <= len(self.X_):
            raise ValueError(f"k must be an integer in [1, {len(self.X_)}]; got {k!r}")
        if self.tree_ is not None:
            q = minkowski_p(self.metric, self.p)
            results = [self.tree_.query(x, k, p=q) for x in X]
            return np.array([r[0] for r in results]), np.array([r[1] for r in results], dtype=np.int64)
        return nearest_neighbors(X, self.training_set_, int(k), self.metric, self.p)

    def _vote(self, X: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        distances, indices = self.kneighbors(X)
        return vote(self.y_[indices], distances, len(self.classes_), self.weights, self.bandwidth)

    def predict(self, X: Any) -> np.ndarray:
        """The winning label for each row of X (ties: the nearest tied neighbour's class)."""
        winner = self._vote(X)[0]
        return self.classes_[winner]

    def predict_proba(self, X: Any) -> np.ndarray:
        """Each class's share of the (weighted) vote, columns in the order of ``classes_``."""
        return self._vote(X)[1]

    def score(self, X: Any, y: Any) -> float:
        """Accuracy on (X, y)."""
        return float(np.mean(self.predict(X) == np.asarray(y)))


def _check_points(X: Any, keep_integers: bool = False) -> np.ndarray:
    """X as a float64 matrix (or, with ``keep_integers``, an integer one as it is), checked."""
    X = np.asarray(X) if keep_integers else X
    if not (keep_integers and X.dtype.kind in "biu"):
        try:
            X = np.asarray(X, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError("X must be numeric") from None
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (rows × features); got shape {X.shape}")
    if len(X) == 0:
        raise ValueError("X is empty: at least one point is needed")
    if X.dtype.kind == "f" and not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinite values")
    return X


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
    X = _check_points(X)
    classes, y_index = np.unique(np.asarray(y), return_inverse=True)
    k_values = [int(k) for k in k_values]
    distances, indices = nearest_neighbors(X, X, min(max(k_values) + 1, len(X)), metric, p)
    # Drop each point itself (it may not be first when duplicates sit at distance 0).
    mask = indices != np.arange(len(X))[:, None]
    keep = np.argsort(~mask, axis=1, kind="stable")[:, : indices.shape[1] - 1]
    indices = np.take_along_axis(indices, keep, axis=1)
    distances = np.take_along_axis(distances, keep, axis=1)
    scores = []
    for k in k_values:
        winner, _, _ = vote(y_index[indices[:, :k]], distances[:, :k], len(classes), weights, bandwidth)
        scores.append(np.mean(winner == y_index))
    return np.array(scores)


def region_grid(
    X: Any, resolution: int = 200, margin: float = 0.1
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A ``resolution`` × ``resolution`` grid over the data's bounding box (plus a margin).

    Returns ``(xs, ys, points)`` with ``points`` of shape (resolution², 2), row-major over ys,
    ready to classify and reshape to an image.
    """
    X = _check_points(X)
    low, high = X[:, :2].min(axis=0), X[:, :2].max(axis=0)
    pad = margin * np.where(high > low, high - low, 1.0)
    xs = np.linspace(low[0] - pad[0], high[0] + pad[0], resolution)
    ys = np.linspace(low[1] - pad[1], high[1] + pad[1], resolution)
    grid_x, grid_y = np.meshgrid(xs, ys)
    return xs, ys, np.column_stack([grid_x.ravel(), grid_y.ravel()])


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
    X_train = _check_points(X_train)
    classes, y_index = np.unique(np.asarray(y_train), return_inverse=True)
    k_values = [int(k) for k in k_values]
    distances, indices = nearest_neighbors(_check_points(X_eval), X_train, max(k_values), metric, p)
    y_eval = np.asarray(y_eval)
    return np.array(
        [
            np.mean(
                classes[vote(y_index[indices[:, :k]], distances[:, :k], len(classes), weights, bandwidth)[0]]
                == y_eval
            )
            for k in k_values
        ]
    )
