"""Finding the k nearest training points of many queries at once: the fast paths behind k-NN.

Every path returns the k nearest training points sorted by (distance, index): of points at
the same distance the lower index comes first, and is kept when they straddle the k-th place.
They differ in how much work they skip.

- **Brute force** (any metric, any dimension). Up to ``EXACT_DIMS`` features every distance
  is measured exactly in float64. Above, the training set is prepared once
  (:class:`TrainingSet`) and for the Euclidean metric |a − b|² = |a|² + |b|² − 2 a·b ranks all
  training points with one float32 matrix multiply per chunk of queries (chunks sized from the
  cache and the number of features), then a partition picks the k smallest; those distances
  are good to about 7 significant digits. Small-integer data (binary pixels) pack distance and
  index into one exact float32 key per pair, so a plain ``partition`` on values finds the
  neighbours exactly. Other metrics, and coordinates too large for float32, are measured
  exactly in float64.
- **Query tiles** (one or two dimensions, Minkowski metrics; see :func:`tile_neighbors`). The
  queries' box is cut into tiles, each with the few training points that can be the neighbours
  of a query inside it (a triangle-inequality bound), so each tile is one small dense distance
  matrix, and a partition on the values picks the k smallest. Exact float64 distances.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from classic.distances import distances, minkowski_p

CACHE_BYTES = 2**22  # one chunk's ranking: 4 MiB measured best here (1 MiB L2 per core, 32 MiB L3)
MIN_CHUNK_ROWS = 64  # fewer query rows per chunk re-read the whole training matrix too often
MAX_CHUNK_BYTES = 2**26  # a chunk's ranking never takes more memory than this
EXACT_DIMS = 8  # up to this many features, brute force measures every distance exactly in float64
FLOAT32_SAFE = 1e36  # largest |x|²·d for which float32 squares and dot products stay finite
TILE_SAFE = 2.0**250  # coordinates below this keep the query tiles' powers finite in float64
TILE_COST = 2048  # the overhead of one more tile, in query–candidate pairs (measured)


def _fits_float32(values: np.ndarray) -> bool:
    """Whether float32 squared distances and dot products of these rows stay finite."""
    return bool(np.abs(values).max(initial=0.0) < np.sqrt(FLOAT32_SAFE / max(values.shape[-1], 1)))


@dataclass(frozen=True)
class TrainingSet:
    """Training points prepared once for brute-force searches (centred float32, squared norms).

    For small-integer data (binary pixels) under the Euclidean metric, ``keyed`` also holds
    the rows [−2n·x, n·|x|² + j] for training point j of n: a query [b, 1] times it gives
    n·(|x_j|² − 2 b·x_j) + j, an exact integer in float32 that orders the neighbours by
    (distance, index) on its own, so one matrix multiply and one ``partition`` find them.
    Coordinates too large for float32 leave ``X32`` empty: every search is then exact float64.
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
        small_integers = np.abs(X).max(initial=0.0) < np.sqrt(2**20 / max(X.shape[1], 1)) and bool(
            np.all(X == np.round(X))
        )
        centre = np.zeros(X.shape[1]) if small_integers else X.mean(axis=0)
        if not _fits_float32(X - centre):
            return cls(X, metric, p)
        X32 = (X - centre).astype(np.float32)
        squared_norms = np.einsum("ij,ij->i", X32, X32)
        keyed = None
        if small_integers:
            keyed = np.column_stack([-2.0 * n * X, n * squared_norms + np.arange(n)]).astype(np.float32)
        return cls(X, metric, p, centre, X32, squared_norms, keyed)


def chunk_rows(n: int, dims: int, bytes_per_pair: int, n_queries: int) -> int:
    """Query rows per chunk of a brute-force search over n training points of ``dims`` features.

    A chunk's ranking (rows × n) should stay in cache, but each chunk also reads the whole
    training matrix (n × dims): with at least dims + 1 rows, that read costs no more than
    writing the ranking. The buffer is capped at ``MAX_CHUNK_BYTES``.
    """
    rows = max(CACHE_BYTES // max(n * bytes_per_pair, 1), dims + 1, MIN_CHUNK_ROWS)
    rows = min(rows, MAX_CHUNK_BYTES // max(n * bytes_per_pair, 1))
    return int(max(1, min(rows, n_queries)))


def _keyed_neighbors(
    prepared: TrainingSet, block: np.ndarray, k: int, out: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """The k nearest neighbours by packed integer keys, or None when the keys are not exact.

    Every partial sum of the product stays below n·(|x|² + 2|b||x| + 1) in magnitude
    (Cauchy–Schwarz), so when that is under 2²⁴ and the query is integer the float32
    arithmetic is exact and the keys are distinct integers.
    """
    n = len(prepared.X)
    if block.dtype.kind == "f" and not (
        np.abs(block).max(initial=0.0) < 2**24 and np.all(np.rint(block) == block)
    ):
        return None
    augmented = np.ones((len(block), block.shape[1] + 1), dtype=np.float32)
    augmented[:, :-1] = block
    B32 = augmented[:, :-1]
    query_norms = np.einsum("ij,ij->i", B32, B32)
    top = float(prepared.squared_norms.max())
    if n * (top + 2 * np.sqrt(float(query_norms.max()) * top) + 1) >= 2**24:
        return None
    keys = np.matmul(augmented, prepared.keyed.T, out=out)
    if k == 1:
        keys = keys.min(axis=1, keepdims=True)
    elif k < n:
        keys.partition(k - 1, axis=1)
    keys = np.sort(keys[:, :k], axis=1).astype(np.int64)
    values, columns = np.divmod(keys, n)
    return np.sqrt(np.maximum(values + query_norms[:, None], 0.0)), columns


def _smallest(ranking: np.ndarray, k: int) -> np.ndarray:
    """Column indices of the k smallest values per row, in increasing column order; of values
    tied at the k-th, the lowest columns."""
    n = ranking.shape[1]
    if k >= n:
        return np.broadcast_to(np.arange(n), ranking.shape)
    if k == 1:
        return ranking.argmin(axis=1)[:, None]  # argmin returns the first of equal minima
    chosen = np.argpartition(ranking, k - 1, axis=1)[:, :k]
    kth = np.take_along_axis(ranking, chosen, axis=1).max(axis=1, keepdims=True)
    # A partition keeps an arbitrary subset of the values tied at the k-th: redo those rows stably.
    ambiguous = np.flatnonzero((ranking <= kth).sum(axis=1) > k)
    if len(ambiguous):
        chosen[ambiguous] = np.argsort(ranking[ambiguous], axis=1, kind="stable")[:, :k]
    return np.sort(chosen, axis=1)


def _sorted_by_distance(chosen: np.ndarray, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's neighbours by (distance, index), for candidates in increasing index order."""
    order = np.argsort(chosen, axis=1, kind="stable")
    return np.take_along_axis(chosen, order, axis=1), np.take_along_axis(candidates, order, axis=1)


def brute_neighbors(Q: Any, prepared: TrainingSet, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k nearest training points of every row of Q by measuring them all: (distances, indices).

    Integer queries (pixels) are converted chunk by chunk, never copied whole to float64.
    """
    Q, T, metric, p = np.asarray(Q), prepared.X, prepared.metric, prepared.p
    if Q.dtype.kind not in "biu":
        Q = Q.astype(np.float64, copy=False)
    n, dims = T.shape
    euclidean = prepared.X32 is not None
    rows = chunk_rows(n, dims, 4 if euclidean else 8 * dims, len(Q))
    result = np.empty((len(Q), k)), np.empty((len(Q), k), dtype=np.int64)
    if euclidean:  # one buffer for every chunk's ranking: fresh memory is slow to touch
        buffer = np.empty((rows, n), dtype=np.float32)
    for start in range(0, len(Q), rows):
        block = Q[start : start + rows]
        found = None
        if euclidean and prepared.keyed is not None:  # small integers: not centred
            found = _keyed_neighbors(prepared, block, k, buffer[: len(block)])
        if found is None:
            block = block.astype(np.float64, copy=False)
            centred = block - prepared.centre if euclidean else block
            if euclidean and dims > EXACT_DIMS and _fits_float32(centred):
                found = _ranked_neighbors(prepared, centred, block, k, buffer[: len(block)])
            else:
                exact = _exact_in_chunks(block, T, metric, p)
                candidates = _smallest(exact, k)
                found = _sorted_by_distance(np.take_along_axis(exact, candidates, axis=1), candidates)
        result[0][start : start + len(block)], result[1][start : start + len(block)] = found
    return result


def _exact_in_chunks(block: np.ndarray, T: np.ndarray, metric: str, p: float) -> np.ndarray:
    """Exact float64 distances from every row of block to every row of T, bounded memory."""
    out = np.empty((len(block), len(T)))
    step = max(1, CACHE_BYTES // (8 * T.size))
    for start in range(0, len(block), step):
        out[start : start + step] = distances(block[start : start + step, None, :], T[None, :, :], metric, p)
    return out


def _ranked_neighbors(
    prepared: TrainingSet, centred: np.ndarray, block: np.ndarray, k: int, out: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Euclidean neighbours ranked by one float32 matrix multiply (|b|² is the same along a row,
    so it is left out of the ranking and added after)."""
    B32 = centred.astype(np.float32)
    ranking = np.matmul(B32, prepared.X32.T, out=out)
    ranking *= -2.0
    ranking += prepared.squared_norms
    candidates = _smallest(ranking, k)
    chosen = np.take_along_axis(ranking, candidates, axis=1).astype(np.float64)
    chosen = np.sqrt(np.maximum(chosen + np.einsum("ij,ij->i", B32, B32)[:, None], 0.0))
    return _sorted_by_distance(chosen, candidates)


def tiles_suit(prepared: TrainingSet, Q: np.ndarray, k: int) -> bool:
    """Whether query tiles answer this search: 1-D or 2-D Minkowski data, moderate values,
    and k small next to n (for k near n every query measures every point anyway)."""
    X = prepared.X
    return (
        X.shape[1] <= 2
        and minkowski_p(prepared.metric, prepared.p) is not None
        and 4 * k <= len(X)
        and np.abs(X).max(initial=0.0) < TILE_SAFE
        and np.abs(Q).max(initial=0.0) < TILE_SAFE
    )


def _powered(dx: np.ndarray, dy: np.ndarray, p: float) -> np.ndarray:
    """Σ|Δ|^p without the root (max |Δ| for p = ∞): the ranking, monotone in the distance.

    Works in place: ``dx`` and ``dy`` (fresh differences) are overwritten.
    """
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


def _rooted(powered: np.ndarray, p: float) -> np.ndarray:
    if p == 2:
        return np.sqrt(powered)
    if p in (1, np.inf):
        return powered
    return powered ** (1.0 / p)


class _Scratch:
    """Work arrays reused from tile to tile: fresh memory for every small matrix costs page
    faults that took longer than the arithmetic (measured: 5× for a 600 × 90 ranking)."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, int], dtype: type = np.float64) -> np.ndarray:
        size = shape[0] * shape[1]
        array = self.arrays.get(name)
        if array is None or array.size < size:
            array = self.arrays[name] = np.empty(max(size, 2 * (0 if array is None else array.size)), dtype)
        return array[:size].reshape(shape)


def _k_smallest_by_value(ranking: np.ndarray, k: int, scratch: _Scratch) -> np.ndarray:
    """Flat positions (into ``ranking.ravel()``) of the k smallest values of each row, shape
    (rows, k), in increasing column order; of values tied at the k-th, the lowest columns.

    A partition on the values finds each row's k-th value (cheaper than ``argpartition``), and
    a comparison marks everything up to it.
    """
    partitioned = scratch.get("partitioned", ranking.shape)
    partitioned[...] = ranking
    partitioned.partition(k - 1, axis=1)
    kth = partitioned[:, k - 1 : k]
    keep = np.less_equal(ranking, kth, out=scratch.get("keep", ranking.shape, np.bool_))
    if np.count_nonzero(keep) > keep.size // keep.shape[1] * k:  # ties at the k-th in some rows
        crowded = np.flatnonzero(keep.sum(axis=1) > k)
        tied = ranking[crowded] == kth[crowded]
        surplus = keep[crowded].sum(axis=1, keepdims=True) - k
        from_right = np.cumsum(tied[:, ::-1], axis=1)[:, ::-1]
        keep[crowded] &= ~(tied & (from_right <= surplus))  # drop the highest columns tied at it
    return np.flatnonzero(keep).reshape(len(ranking), k)


def tile_neighbors(Q: Any, prepared: TrainingSet, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k nearest training points of every row of Q, for 1-D or 2-D data, by query tiles.

    Same result as :func:`brute_neighbors` with a Minkowski metric: sorted by (distance,
    index), ties at the k-th distance to the lowest indices, distances computed in float64 as
    :func:`classic.distances.minkowski_distance` does.

    The queries' bounding box is a tile whose candidates are all training points. A tile is cut
    into four while that saves work. For a child tile with centre c and half-diagonal h (in the
    metric), let d_k be the k-th distance from c among its parent's candidates. Every query q
    in the tile is within h of c, so its k-th distance is at most d_k + h, and by the triangle
    inequality each of its neighbours (ties included) lies within d_k + 2h of c: those points
    are the child's candidates. A tile that is not cut measures its queries against its
    candidates only: one small dense distance matrix.
    """
    p = minkowski_p(prepared.metric, prepared.p)
    dims = prepared.X.shape[1]
    X, Q2 = np.zeros((len(prepared.X), 2)), np.zeros((len(Q), 2))
    X[:, :dims], Q2[:, :dims] = prepared.X, np.asarray(Q, dtype=np.float64)
    # Queries are reordered so that every tile is a contiguous range of rows; ``position`` maps back.
    position = np.arange(len(Q2))
    found_d, found_i = np.empty((len(Q2), k)), np.empty((len(Q2), k), dtype=np.int64)
    scratch = _Scratch()
    stack = [(0, len(Q2), Q2.min(axis=0), Q2.max(axis=0), np.arange(len(X)), np.nan)]
    while stack:
        start, end, low, high, candidates, kth = stack.pop()
        children = _cut(Q2, position, start, end, low, high, X, candidates, kth, k, p)
        if children is not None:
            stack.extend(children)
            continue
        q, points = Q2[start:end], X[candidates]
        shape = (end - start, len(candidates))
        dx = np.subtract(q[:, :1], points[:, 0], out=scratch.get("dx", shape))
        dy = np.subtract(q[:, 1:], points[:, 1], out=scratch.get("dy", shape))
        ranking = _powered(dx, dy, p)
        flat = _k_smallest_by_value(ranking, k, scratch)
        values = ranking.ravel()[flat]
        # Columns ascend along each row, so a stable sort keeps ties by index; the sorted
        # positions are then read through flat indices (faster than 2-D fancy indexing).
        order = values.argsort(axis=1, kind="stable")
        order += np.arange(0, order.size, k)[:, None]
        found_d[start:end] = _rooted(values.ravel()[order], p)
        found_i[start:end] = candidates[flat.ravel()[order] % len(candidates)]
    out_d, out_i = np.empty_like(found_d), np.empty_like(found_i)
    out_d[position], out_i[position] = found_d, found_i
    return out_d, out_i


_QUARTERS = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])  # lower-left corners of a tile's quarters, in halves


def _norm(a: float, b: float, p: float) -> float:
    """The Minkowski length of the vector (a, b)."""
    a, b = abs(float(a)), abs(float(b))
    if p == np.inf:
        return max(a, b)
    return (a**p + b**p) ** (1.0 / p)


def _cut(
    Q: np.ndarray,
    position: np.ndarray,
    start: int,
    end: int,
    low: np.ndarray,
    high: np.ndarray,
    X: np.ndarray,
    candidates: np.ndarray,
    kth: float,
    k: int,
    p: float,
) -> list | None:
    """Cut the tile of query rows start:end into its (up to) four quarters, reordering those
    rows (and ``position``) quarter by quarter; None when cutting saves no work.

    ``kth`` is the k-th distance d_k from the tile's centre (NaN if unknown). The quarters'
    candidates lie within about d_k + h of their centres instead of d_k + 2h, h the tile's
    half-diagonal, so a cut saves about work · (1 − ((d_k + h)/(d_k + 2h))²) pairs: when that
    is below the cost of the new tiles, the cut is not even tried.
    """
    work = (end - start) * len(candidates)
    if end - start < 2 or len(candidates) <= k or np.all(high == low):
        return None
    h = _norm(*((high - low) / 2), p)
    if np.isfinite(kth) and work * (1 - ((kth + h) / (kth + 2 * h)) ** 2) < 5 * TILE_COST:
        return None
    middle = (low + high) / 2
    # uint8 codes: numpy's stable sort of 8-bit keys is a radix sort, one pass
    quarter = (Q[start:end, 0] > middle[0]).view(np.uint8) * np.uint8(2) + (Q[start:end, 1] > middle[1])
    counts = np.bincount(quarter, minlength=4)
    centres = low + (_QUARTERS + 0.5) * (high - low) / 2
    half = _norm(*((high - low) / 4), p)
    points = X[candidates]
    reach = _powered(centres[:, :1] - points[:, 0], centres[:, 1:] - points[:, 1], p)
    # Compared as powers (Σ|Δ|^p), which keeps the root off 4 × C values.
    reach_k = _rooted(np.partition(reach, k - 1, axis=1)[:, k - 1], p)
    radius = reach_k + 2 * half
    inside = reach <= _powered(radius * (1 + 1e-9) + 1e-300, np.zeros(4), p)[:, None]
    if np.sum(counts * inside.sum(axis=1)) + TILE_COST * np.count_nonzero(counts) >= work:
        return None
    order = np.argsort(quarter, kind="stable")
    Q[start:end], position[start:end] = Q[start:end][order], position[start:end][order]
    bounds = start + np.concatenate([[0], np.cumsum(counts)])
    return [
        (
            bounds[c],
            bounds[c + 1],
            low + _QUARTERS[c] * (high - low) / 2,
            middle + _QUARTERS[c] * (high - low) / 2,
            candidates[inside[c]],
            reach_k[c],
        )
        for c in range(4)
        if counts[c]
    ]


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
    if algorithm == "auto" and tiles_suit(prepared, Q, k):
        return tile_neighbors(Q, prepared, k)
    return brute_neighbors(Q, prepared, k)
