"""Finding the k nearest training points of many queries at once: the fast paths behind k-NN.

Every path returns the k nearest training points sorted by (distance, index): of points at
the same distance the lower index comes first, and is kept when they straddle the k-th place.

- **Brute force** (any metric, any dimension). Up to ``EXACT_DIMS`` features every distance
  is measured exactly in float64 and :func:`sorted_smallest` sorts them. Above, for the
  Euclidean metric, |a − b|² = |a|² + |b|² − 2 a·b ranks the training set (:class:`TrainingSet`)
  with one float32 matrix multiply per chunk of queries and a partition picks the k smallest
  (distances to about 7 digits); small-integer data (binary pixels) make each product an
  exact integer key holding distance and index, sorted as uint32. Other metrics, and
  coordinates too large for float32, are measured exactly in float64.
- **Query tiles** (one or two dimensions, Minkowski metrics; see :func:`tile_neighbors`). The
  queries' box is cut into quarters level by level, each tile with the few training points
  that can be the neighbours of a query inside it (a triangle-inequality bound); tiles of
  similar sizes make one dense distance matrix, sorted by packed integer keys. Exact float64.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from classic.distances import distances, minkowski_length, minkowski_p, minkowski_powers, minkowski_root

CACHE_BYTES = 2**22  # one chunk's ranking: 4 MiB measured best here (1 MiB L2 per core, 32 MiB L3)
MIN_CHUNK_ROWS = 64  # fewer query rows per chunk re-read the whole training matrix too often
MAX_CHUNK_BYTES = 2**26  # a chunk's ranking never takes more memory than this
KEPT_BYTES = 2**22  # work arrays up to this size stay with their thread for its next search
EXACT_DIMS = 8  # up to this many features, brute force measures every distance exactly in float64
KEY_PIECE = 512  # columns of a packed-key row sorted at once: numpy's network sort reaches 512
FLOAT32_SAFE = 1e36  # largest |x|²·d for which float32 squares and dot products stay finite
TILE_SAFE = 2.0**250  # coordinates below this keep the query tiles' powers finite in float64
TILE_COST = 64  # the overhead of one more tile, in query–candidate pairs (measured)
SPLIT_COST = 1.5  # one centre–candidate distance of a cut, in query–candidate pairs (measured)
ALWAYS_CUT = 32  # a tile of this many queries is cut even when its quarters alone save nothing
BATCH = 2**17  # elements of one batch's distance matrix: 1 MiB of float64 stays in cache
ITEM_QUERIES = 64  # queries of one tile measured together, at most (larger tiles are split up)
SIMILAR = 1.25  # tiles batched together have candidate counts within this ratio (+ 8)
F32_MARGIN = 2.0**-18  # float32 centre distances are widened by this (relative) and this × the data's extent


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
            keyed[:n, :-2], keyed[:n, -2], keyed[:n, -1] = -2.0 * n * X, n * squared_norms + np.arange(n), n
            keyed[n:, -2] = 2**24
        return cls(X, metric, p, centre, X32, squared_norms, keyed)


def chunk_rows(n: int, dims: int, bytes_per_pair: int, n_queries: int) -> int:
    """Query rows per chunk of a brute-force search over n training points of ``dims`` features.

    A chunk's ranking (rows × n) should stay in cache, but each chunk also reads the whole training
    matrix (n × dims): with at least dims + 1 rows, that costs no more than writing the ranking."""
    rows = max(CACHE_BYTES // max(n * bytes_per_pair, 1), dims + 1, MIN_CHUNK_ROWS)
    rows = min(rows, MAX_CHUNK_BYTES // max(n * bytes_per_pair, 1))
    return int(max(1, min(rows, n_queries)))


class _Scratch(dict):
    """Work arrays reused from batch to batch and, per thread, between searches (up to ``KEPT_BYTES``):
    fresh memory's page faults cost more than the arithmetic (4× a tile batch; +1 ms on Semeion)."""

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


def _keyed_neighbors(
    prepared: TrainingSet, block: np.ndarray, k: int, out: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """The k nearest neighbours by packed integer keys, or None when the keys are not exact.

    Every partial sum of the product stays below n·((|x| + |b|)² + 1) in magnitude
    (Cauchy–Schwarz), so when that is under 2²⁴ and the query is integer the float32
    arithmetic is exact and the keys are distinct integers."""
    n, dims = len(prepared.X), prepared.keyed.shape[1]
    if block.dtype.kind == "f" and not (
        np.abs(block).max(initial=0.0) < 2**24 and np.all(np.rint(block) == block)
    ):
        return None
    augmented = _PER_THREAD.scratch("augmented", (len(block), dims), np.float32)
    augmented[:, :-2], augmented[:, -2] = block, 1.0
    augmented[:, -1] = np.einsum("ij,ij->i", augmented[:, :-2], augmented[:, :-2])  # exact below 2²⁴
    top = np.sqrt(float(prepared.squared_norms.max())) + np.sqrt(float(augmented[:, -1].max()))
    if n * (top**2 + 1) >= 2**24:
        return None
    keys = np.matmul(augmented, prepared.keyed.T, out=out).view(np.uint32)  # ≥ 0: ordered as uint32
    keys = keys.min(axis=1, keepdims=True) if k == 1 else _sorted_pieces(keys, k)
    squared, columns = np.divmod(keys.view(np.float32).astype(np.int64), n)
    return np.sqrt(squared), columns


def _sorted_pieces(keys: np.ndarray, k: int) -> np.ndarray:
    """The k smallest of each row of uint32 keys, sorted. Rows of whole pieces of up to ``KEY_PIECE``
    are sorted piece by piece in place (numpy's sorting network: 4× faster than a partition)."""
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
        buffer = _PER_THREAD.scratch("ranking", (rows, width), np.float32)
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
    10× faster than 64-bit keys at 512). Only keys equal in their high bits can be misordered:
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


def tiles_suit(prepared: TrainingSet, Q: np.ndarray) -> bool:
    """Whether query tiles answer this search: 1-D or 2-D Minkowski data, Σ|Δ|^p finite in float64."""
    X, p = prepared.X, minkowski_p(prepared.metric, prepared.p)
    top = max(np.abs(X).max(initial=0.0), np.abs(Q).max(initial=0.0)) if X.shape[1] <= 2 else np.inf
    return bool(p is not None and top < TILE_SAFE and (p == np.inf or p * np.log2(4 * top + 1) < 1000))


def _spread(v: np.ndarray) -> np.ndarray:
    """The bits of v (< 2¹⁶) spaced out to the even positions: half of a Morton code."""
    v = v.astype(np.int64)
    for shift, mask in ((8, 0x00FF00FF), (4, 0x0F0F0F0F), (2, 0x33333333), (1, 0x55555555)):
        v = (v | (v << shift)) & mask
    return v


def _batches(width: np.ndarray, cost: np.ndarray, rows: Any = 0):
    """Slices of consecutive tiles, sorted by (``rows``, candidate count ``width``), with the
    same rows, similar widths and at most ``BATCH`` elements of work each (or a single tile)."""
    order, total, i = rows * 2**40 + width, np.cumsum(cost), 0
    while i < len(width):
        j = min(
            np.searchsorted(order, order[i] + (SIMILAR - 1) * width[i] + 8, "right"),
            np.searchsorted(total, total[i] - cost[i] + BATCH, "right"),
        )
        yield slice(i, max(j, i + 1))
        i = max(j, i + 1)


def _padded(tiles: tuple, rows: np.ndarray, width: int) -> np.ndarray:
    """The candidates of these tiles, one row each, padded with the point at infinity (index n)."""
    flat, offsets, counts = tiles[4:7]
    return flat[np.where(np.arange(width) < counts[rows, None], offsets[rows, None] + np.arange(width), -1)]


_HALVES = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])  # the quarters' lower-left corners, in halves


class _Tiles:
    """The search of :func:`tile_neighbors`. Queries are sorted by Morton code: every tile is a range
    of them. A level's tiles keep their candidates in one flat array (tile t's ascending at ``offsets[t]``,
    ``counts[t]`` of them), a ``reach`` (they lie within it of the centre) and ``kth`` (its bound)."""

    def __init__(self, Q: np.ndarray, X: np.ndarray, k: int, p: float, out: tuple) -> None:
        n, m, dims = len(X), len(Q), X.shape[1]
        self.n, self.k, self.p, self.out, self.scratch = n, k, p, out, _PER_THREAD.scratch
        self.xs = np.append(X[:, 0], np.inf)
        self.ys = np.append(X[:, 1], np.inf) if dims > 1 else np.append(np.zeros(n), np.inf)
        qx, qy = Q[:, 0], (Q[:, 1] if dims > 1 else np.zeros(m))
        low, high = np.array([qx.min(), qy.min()]), np.array([qx.max(), qy.max()])
        self.low, self.span, self.levels = low, high - low, int(min(15, np.ceil(np.log2(m) / 2) + 2))
        cells = 2**self.levels
        scale = cells / np.where(self.span > 0, self.span, 1.0)
        code = _spread(np.clip(((qx - low[0]) * scale[0]).astype(np.int64), 0, cells - 1)) << 1
        code |= _spread(np.clip(((qy - low[1]) * scale[1]).astype(np.int64), 0, cells - 1))
        # Two stable passes of 16-bit keys (a radix sort in numpy): 4× faster than argsort here.
        order = np.argsort((code & 0xFFFF).astype(np.uint16), kind="stable")
        self.order = order[np.argsort((code[order] >> 16).astype(np.uint16), kind="stable")]
        self.codes, self.qx, self.qy = code[self.order], qx[self.order], qy[self.order]
        centre = (low + high) / 2
        big = max(np.abs(self.xs[:-1] - centre[0]).max(), np.abs(self.ys[:-1] - centre[1]).max(), *self.span)
        self.margin = 1 + 1e-9, 1e-12 * max(np.abs(X).max(), np.abs(Q).max())
        # Centre–candidate distances only bound which points a tile keeps: float32 will do, with
        # a margin far above its rounding (about 3·2⁻²⁴ of the coordinates and the distance).
        self.f32 = p in (1, 2, np.inf) and big < 1e15
        if self.f32:
            self.centre, self.margin = centre, (1 + F32_MARGIN, F32_MARGIN * big)
            self.xs32 = (self.xs - centre[0]).astype(np.float32)
            self.ys32 = (self.ys - centre[1]).astype(np.float32)

    def run(self) -> None:
        n, k, p = self.n, self.k, self.p
        corner = np.zeros((1, 2), dtype=np.int64)
        code, start, end = np.zeros(1, dtype=np.int64), np.array([0]), np.array([len(self.qx)])
        flat, counts = np.arange(n + 1, dtype=np.int32), np.array([n])
        reach, kth = np.array([np.inf]), np.array([np.nan])
        for level in range(self.levels + 1):
            offsets = np.cumsum(counts) - counts
            tiles = (corner, code, start, end, flat, offsets, counts, reach)
            w = self.span / 2**level
            h, q = minkowski_length(*(w / 2), p), end - start
            # Cut a tile when its children's candidates would save more pairs than the cut costs:
            # the quarters' candidates lie within about d_k + h of their centres, not d_k + 2h.
            with np.errstate(invalid="ignore", divide="ignore"):
                saving = q * counts * (1 - ((kth + h) / (kth + 2 * h)) ** 2)
            cut = (q >= 2) & (counts > k) & (level < self.levels)
            cut &= (q >= ALWAYS_CUT) | ~(saving < 4 * (SPLIT_COST * counts + TILE_COST))
            leaves, children, chosen = [np.flatnonzero(~cut)], [], np.flatnonzero(cut)
            chosen = chosen[np.argsort(counts[chosen], kind="stable")]
            codes = self.codes >> max(0, 2 * (self.levels - level - 1))
            for batch in _batches(counts[chosen], 4 * counts[chosen]):
                kept, quarters = self._cut(chosen[batch], tiles, w, codes)
                leaves.append(kept)
                children += [quarters] if quarters is not None else []
            self._answer(np.concatenate(leaves), tiles, h)
            if not children:
                return
            arrays = map(np.concatenate, zip(*children, strict=True))
            corner, code, start, end, flat, counts, reach, kth = arrays
            flat = np.append(flat, np.int32(n))  # int32: a level's candidates take half the memory

    def _cut(self, chosen: np.ndarray, tiles: tuple, w: np.ndarray, codes: np.ndarray) -> tuple:
        """Quarter these tiles: (the tiles whose cut saves nothing, their quarters' arrays)."""
        corner, code, start, end, flat, offsets, counts, _ = tiles
        k, p, width = self.k, self.p, int(counts[chosen].max())
        candidates = _padded(tiles, chosen, width)
        centres = self.low + (2 * corner[chosen, None, :] + _HALVES + 0.5) * w / 2  # (tiles, 4, 2)
        if self.f32:
            centres = (centres - self.centre).astype(np.float32)
            px, py = self.xs32[candidates], self.ys32[candidates]
        else:
            px, py = self.xs[candidates], self.ys[candidates]
        shape = (len(chosen), 4, width)
        dx = np.subtract(centres[:, :, 0, None], px[:, None, :], out=self.scratch("cx", shape, px.dtype))
        dy = np.subtract(centres[:, :, 1, None], py[:, None, :], out=self.scratch("cy", shape, px.dtype))
        powered = minkowski_powers(dx, dy, p)
        if self.f32:  # the k-th smallest: float32 ≥ 0 sorts as uint32, in pieces (4× partition's speed)
            pieces = -(-width // KEY_PIECE)
            keys = self.scratch("kth", (shape[0] * 4, -(-width // pieces) * pieces), np.uint32)
            keys[:, :width], keys[:, width:] = powered.view(np.uint32).reshape(-1, width), 2**32 - 1
            kth = _sorted_pieces(keys, k)[:, k - 1].view(np.float32).reshape(-1, 4)
        else:
            kth = np.partition(powered, k - 1, axis=2)[..., k - 1]
        kth = self._bound(minkowski_root(kth.astype(np.float64), p))
        radius = self._bound(kth + 2 * minkowski_length(*(w / 4), p))
        limit = minkowski_powers(radius.copy(), np.zeros_like(radius), p).astype(powered.dtype)
        inside = powered <= limit[..., None]
        sizes = np.count_nonzero(inside, axis=2)
        quarters = 4 * code[chosen, None] + np.arange(4)
        first, last = np.searchsorted(codes, quarters), np.searchsorted(codes, quarters, "right")
        q = end[chosen] - start[chosen]
        work = ((last - first) * sizes).sum(axis=1) + TILE_COST * (last > first).sum(axis=1)
        cut = (work < q * counts[chosen]) | (q >= ALWAYS_CUT)
        tile, quarter = np.nonzero(cut[:, None] & (last > first))
        if not len(tile):
            return chosen, None
        return chosen[~cut], (
            2 * corner[chosen[tile]] + _HALVES[quarter],
            4 * code[chosen[tile]] + quarter,
            first[tile, quarter],
            last[tile, quarter],
            candidates[tile][inside[tile, quarter]],  # row by row, ascending: a mask, not nonzero (3×)
            sizes[tile, quarter],
            radius[tile, quarter],
            kth[tile, quarter],
        )

    def _bound(self, distance: np.ndarray) -> np.ndarray:  # widened by the arithmetic's rounding margin
        return distance * self.margin[0] + self.margin[1]

    def _answer(self, leaves: np.ndarray, tiles: tuple, h: float) -> None:
        """Measure the queries of these tiles against their candidates, in batches of items of at
        most ``ITEM_QUERIES`` queries of one tile (fewer for wide tiles: memory stays bounded)."""
        _, _, start, end, flat, offsets, counts, reach = tiles
        size = np.clip(BATCH // counts[leaves], 1, ITEM_QUERIES)  # queries per item: wide tiles take fewer
        parts = -(-(end[leaves] - start[leaves]) // size)
        tile, size = np.repeat(leaves, parts), np.repeat(size, parts)
        first = start[tile] + (np.arange(len(tile)) - np.repeat(np.cumsum(parts) - parts, parts)) * size
        last = np.minimum(first + size, end[tile])
        by = np.lexsort((counts[tile], last - first))  # a batch's items pad to its most queries
        tile, first, last = tile[by], first[by], last[by]
        for batch in _batches(counts[tile], (last - first) * counts[tile], last - first):
            t = tile[batch]
            width, rows = int(counts[t].max()), int((last[batch] - first[batch]).max())
            candidates = _padded(tiles, t, width)
            queries = np.minimum(first[batch, None] + np.arange(rows), last[batch, None] - 1)
            qx, qy, shape = self.qx[queries][:, :, None], self.qy[queries][:, :, None], (len(t), rows, width)
            dx = np.subtract(qx, self.xs[candidates][:, None, :], out=self.scratch("dx", shape))
            dy = np.subtract(qy, self.ys[candidates][:, None, :], out=self.scratch("dy", shape))
            # Sorted by the distance itself, as brute force does: two sums Σ|Δ|^p can differ by
            # an ulp and still have the same root, and then the lower index must come first.
            ranking = minkowski_powers(dx, dy, self.p).reshape(-1, width)
            ranking = minkowski_root(ranking, self.p, in_place=True)
            # Every candidate lies within reach + h of the tile's queries (the root's: row maxima).
            cap = self._bound(reach[t] + h)
            cap = None if np.isinf(cap).any() else np.repeat(cap, rows)[:, None]
            columns, values = sorted_smallest(ranking, self.k, cap, self.scratch)
            columns += np.arange(0, candidates.size, width).repeat(rows)[:, None]
            found = np.take(candidates.ravel(), columns, out=self.scratch("found", columns.shape, np.int32))
            rows = self.order[queries.ravel()]  # padding repeats a tile's last query: same answer
            self.out[0][rows], self.out[1][rows] = values, found


def tile_neighbors(
    Q: Any, prepared: TrainingSet, k: int, out: tuple | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The k nearest training points of every row of Q, for 1-D or 2-D data, by query tiles.

    The same result as :func:`brute_neighbors` with a Minkowski metric, bit for bit. ``out``
    may give the two result arrays (of any dtypes, e.g. float32 and int32).

    The queries' bounding box is the root tile, whose candidates are all training points, and
    tiles are cut into quarters level by level while that saves work. For a quarter with
    centre c and half-diagonal h (in the metric), let d_k be the k-th distance from c among its
    parent's candidates. Every query q in the quarter is within h of c, so its k-th distance
    is at most d_k + h, and by the triangle inequality each of its neighbours (ties included)
    lies within d_k + 2h of c: those points are the quarter's candidates. An uncut tile
    measures its queries against its candidates only; tiles of similar sizes are padded (with
    a point at infinity) into one dense distance matrix, sorted by :func:`sorted_smallest`.
    """
    Q = np.asarray(Q, dtype=np.float64)
    out = out or (np.empty((len(Q), k)), np.empty((len(Q), k), dtype=np.int64))
    if len(Q):
        _Tiles(Q, prepared.X, k, minkowski_p(prepared.metric, prepared.p), out).run()
    return out


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
