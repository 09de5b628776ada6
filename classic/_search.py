"""Brute force: the k nearest training points of many queries, found by measuring them all.

Every search returns the k nearest training points sorted by (distance, index): of points at
the same distance the lower index comes first, and is kept when they straddle the k-th place.

Up to ``EXACT_DIMS`` features every distance is measured exactly in float64 and
:func:`sorted_smallest` sorts them. Above, for the Euclidean metric, the training set is
prepared once (:class:`TrainingSet`) and |a − b|² = |a|² + |b|² − 2 a·b ranks all training
points with one float32 matrix multiply per chunk of queries (chunks sized from the cache and
the number of features); a partition then picks the k smallest, and those distances are good
to about 7 significant digits. Small-integer data (binary pixels) pack distance and index into
one exact integer key per pair, sorted as uint32, so the neighbours come out exact. Other
metrics, and coordinates too large for float32, are measured exactly in float64.

One and two dimensions have a faster exact search, by query tiles: :mod:`classic._tiles`.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from classic.distances import distances, minkowski_p

CACHE_BYTES = 2**22  # one chunk's ranking: the size that measured best (docs/measurements.md)
MIN_CHUNK_ROWS = 64  # fewer query rows per chunk re-read the whole training matrix too often
MAX_CHUNK_BYTES = 2**26  # a chunk's ranking never takes more memory than this
KEPT_BYTES = 2**22  # work arrays up to this size stay with their thread for its next search
EXACT_DIMS = 8  # up to this many features, brute force measures every distance exactly in float64
KEY_PIECE = 512  # columns of a packed-key row sorted at once: numpy's network sort reaches 512
FLOAT32_SAFE = 1e36  # largest |x|²·d for which float32 squares and dot products stay finite


def _fits_float32(values: np.ndarray) -> bool:
    """Whether float32 squared distances and dot products of these rows stay finite."""
    return bool(np.abs(values).max(initial=0.0) < np.sqrt(FLOAT32_SAFE / max(values.shape[-1], 1)))


@dataclass(frozen=True)
class TrainingSet:
    """Training points prepared once for brute-force searches (centred float32, squared norms).

    For small-integer data (binary pixels) under the Euclidean metric, ``keyed`` also holds
    the rows [−2n·x, n·|x|² + j, n] for training point j of n: a query [b, 1, |b|²] times it
    gives n·|b − x_j|² + j, an exact non-negative integer in float32 that orders the neighbours
    by (distance, index) on its own and as its bits read as uint32. Rows of 2²⁴ (above every
    key) pad n to whole pieces of at most ``KEY_PIECE`` columns, sorted by a sorting network.
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
            pieces = -(-n // KEY_PIECE)
            keyed = np.zeros((-(-n // pieces) * pieces, X.shape[1] + 2), dtype=np.float32)
            keyed[:n, :-2] = -2.0 * n * X
            keyed[:n, -2] = n * squared_norms + np.arange(n)  # the index j in the key's low part
            keyed[:n, -1] = n
            keyed[n:, -2] = 2**24
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


class _Scratch(dict):
    """Work arrays reused from batch to batch and, per thread, from search to search (up to
    ``KEPT_BYTES`` each): fresh memory costs page faults that take longer than the arithmetic."""

    def __call__(self, name: str, shape: tuple, dtype: type = np.float64) -> np.ndarray:
        size, array = math.prod(shape), self.get((name, dtype), np.empty(0, dtype))
        if array.size < size:
            if (array := np.empty(max(size, 2 * array.size), dtype)).nbytes <= KEPT_BYTES:
                self[name, dtype] = array
        return array[:size].reshape(shape)


class _PerThread(threading.local):
    def __init__(self) -> None:
        self.scratch = _Scratch()  # a search never runs inside another on one thread


_PER_THREAD = _PerThread()


def thread_scratch() -> _Scratch:
    """This thread's work arrays (brute force and the query tiles share them)."""
    return _PER_THREAD.scratch


def _keyed_neighbors(
    prepared: TrainingSet, block: np.ndarray, k: int, out: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """The k nearest neighbours by packed integer keys, or None when the keys are not exact.

    Every partial sum of the product stays below n·((|x| + |b|)² + 1) in magnitude
    (Cauchy–Schwarz), so when that is under 2²⁴ and the query is integer the float32
    arithmetic is exact and the keys are distinct integers. Each piece of a row is sorted by
    :func:`sorted_pieces`, then its k first.
    """
    n, dims = len(prepared.X), prepared.keyed.shape[1]
    if block.dtype.kind == "f" and not (
        np.abs(block).max(initial=0.0) < 2**24 and np.all(np.rint(block) == block)
    ):
        return None
    augmented = thread_scratch()("augmented", (len(block), dims), np.float32)
    augmented[:, :-2], augmented[:, -2] = block, 1.0
    augmented[:, -1] = np.einsum("ij,ij->i", augmented[:, :-2], augmented[:, :-2])  # exact below 2²⁴
    top = np.sqrt(float(prepared.squared_norms.max())) + np.sqrt(float(augmented[:, -1].max()))
    if n * (top**2 + 1) >= 2**24:
        return None
    keys = np.matmul(augmented, prepared.keyed.T, out=out).view(np.uint32)  # ≥ 0: ordered as uint32
    keys = keys.min(axis=1, keepdims=True) if k == 1 else sorted_pieces(keys, k)
    squared, columns = np.divmod(keys.view(np.float32).astype(np.int64), n)
    return np.sqrt(squared), columns


def sorted_pieces(keys: np.ndarray, k: int) -> np.ndarray:
    """The k smallest of each row of uint32 keys, sorted.

    Rows of whole pieces of up to ``KEY_PIECE`` columns are sorted piece by piece, in place:
    numpy sorts rows that short with a sorting network, faster than a partition of the whole
    row (``tests/benchmarks/bench_knn.py`` times the two).
    """
    rows, width = keys.shape
    piece = width // -(-width // KEY_PIECE)
    parts = keys.reshape(-1, piece)
    parts.sort(axis=1)
    return np.sort(parts[:, : min(k, piece)].reshape(rows, -1), axis=1)[:, :k]


def _smallest(ranking: np.ndarray, k: int) -> np.ndarray:
    """Columns of the k smallest values per row, ascending; of values tied at the k-th, the lowest."""
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
    if euclidean:  # one buffer for every chunk's ranking
        width = n if prepared.keyed is None else len(prepared.keyed)
        buffer = thread_scratch()("ranking", (rows, width), np.float32)
    for start in range(0, len(Q), rows):
        block = Q[start : start + rows]
        found = None
        if euclidean and prepared.keyed is not None:  # small integers: not centred
            found = _keyed_neighbors(prepared, block, k, buffer[: len(block)])
        if found is None:
            block = block.astype(np.float64, copy=False)
            centred = block - prepared.centre if euclidean else block
            if euclidean and dims > EXACT_DIMS and _fits_float32(centred):
                ranking = buffer.ravel()[: len(block) * n].reshape(len(block), n)
                found = _ranked_neighbors(prepared, centred, block, k, ranking)
            else:
                found = sorted_smallest(_exact_in_chunks(block, T, metric, p), k)[::-1]
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
    order = np.argsort(chosen, axis=1, kind="stable")  # candidates ascend: ties stay in index order
    return np.take_along_axis(chosen, order, axis=1), np.take_along_axis(candidates, order, axis=1)


def sorted_smallest(
    ranking: np.ndarray, k: int, cap: Any = None, scratch: _Scratch | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Columns and values of the k smallest values of each row (values ≥ 0 or +inf), sorted by
    (value, column): of equal values the lower column first, also across the k-th place.

    Each value becomes one integer key, ⌊value · scale⌋ in the high bits (``cap``, a per-row
    bound on the values that matter, fills them; row maxima if None), the column in the low
    ones: one sort of plain integers orders a row (32-bit up to 1024 columns, a sorting network
    much faster than 64-bit keys at 512). Only keys equal in their high bits can be misordered:
    rows where such a run straddles the k-th place, or where the exact values of the kept k
    are not ascending, are sorted again exactly (rare without true ties).
    """
    rows, width = ranking.shape
    bits, scratch = max(1, (width - 1).bit_length()), scratch or _Scratch()
    if width <= 1024:
        levels = float(2 ** min(32 - bits, 24) - 1)  # exact in float32
        cap = np.clip(ranking.max(axis=1, keepdims=True) if cap is None else cap, 1e-290, 1e308)
        with np.errstate(over="ignore"):  # rounded to float32 (monotone too): half the memory to clamp
            scaled = np.multiply(ranking, levels / cap, out=scratch("scaled", ranking.shape, np.float32))
        keys = scratch("keys", ranking.shape, np.uint32)
        np.copyto(keys, np.minimum(scaled, np.float32(levels), out=scaled), casting="unsafe")
        keys <<= np.uint32(bits)
    else:  # 64-bit keys: the float64 bit pattern (ordered like the value) with its low bits replaced
        keys = np.bitwise_and(
            ranking.view(np.uint64), ~np.uint64(2**bits - 1), out=scratch("keys64", ranking.shape, np.uint64)
        )
    keys |= np.arange(width, dtype=keys.dtype)
    keys.sort(axis=1)
    low = scratch("columns", (rows, k), np.intp)  # scratch too: fresh, these cost more than the work
    columns = np.bitwise_and(keys[:, :k], 2**bits - 1, out=low, casting="unsafe")
    at = np.add(columns, np.arange(0, ranking.size, width)[:, None], out=scratch("at", (rows, k), np.intp))
    values = np.take(ranking.ravel(), at, out=scratch("values", (rows, k)))
    unsure = np.less(values[:, 1:], values[:, :-1], out=scratch("less", (rows, k - 1), np.bool_))
    unsure = unsure.any(axis=1)
    if k < width:
        unsure |= (keys[:, k - 1] >> bits) == (keys[:, k] >> bits)
    redo = np.flatnonzero(unsure)
    if len(redo):
        exact = ranking[redo]
        order = np.lexsort((np.broadcast_to(np.arange(width), exact.shape), exact), axis=-1)[:, :k]
        columns[redo], values[redo] = order, np.take_along_axis(exact, order, axis=1)
    return columns, values
