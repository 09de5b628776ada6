"""Query tiles: the exact k nearest neighbours of many queries in one or two dimensions, fast.

The k-NN page's map and its k player need the neighbours of every pixel (tens of thousands of
queries against up to 1,000 points): brute force measures every pair, the tiles only the
pairs that can matter, with the same answer bit for bit (``tests/benchmarks/bench_knn.py``
times both on the k player's table). The queries' box is cut into quarters level by level,
each tile with the few training points that can be the neighbours of a query inside it (a
triangle-inequality bound, :func:`tile_neighbors`); tiles of similar sizes make one dense
distance matrix, sorted by packed integer keys (:func:`classic._search.sorted_smallest`).
Exact float64, Minkowski metrics only, sorted by (distance, index) as brute force is.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from classic._search import KEY_PIECE, TrainingSet, sorted_pieces, sorted_smallest, thread_scratch
from classic.distances import minkowski_length, minkowski_p, minkowski_powers, minkowski_root

TILE_SAFE = 2.0**250  # coordinates below this keep the query tiles' powers finite in float64
TILE_COST = 64  # the overhead of one more tile, in query–candidate pairs (measured)
SPLIT_COST = 1.5  # one centre–candidate distance of a cut, in query–candidate pairs (measured)
ALWAYS_CUT = 32  # a tile of this many queries is cut even when its quarters alone save nothing
BATCH = 2**17  # elements of one batch's distance matrix: 1 MiB of float64 stays in cache
ITEM_QUERIES = 64  # queries of one tile measured together, at most (larger tiles are split up)
SIMILAR = 1.25  # tiles batched together have candidate counts within this ratio (+ 8)
F32_MARGIN = 2.0**-18  # float32 centre distances are widened by this (relative) and this × the data's extent


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
    """The search of :func:`tile_neighbors`. Queries are sorted by Morton code: every tile is a
    range of them. A level's tiles keep their candidates in one flat array (tile t's ascending
    at ``offsets[t]``, ``counts[t]`` of them), their ``reach`` (the candidates lie within it of
    the centre) and ``kth`` (a bound on the k-th distance from the centre)."""

    def __init__(self, Q: np.ndarray, X: np.ndarray, k: int, p: float, out: tuple) -> None:
        n, m, dims = len(X), len(Q), X.shape[1]
        self.n, self.k, self.p = n, k, p
        self.out = out  # the (distances, indices) arrays written query by query
        self.scratch = thread_scratch()
        self.xs = np.append(X[:, 0], np.inf)
        self.ys = np.append(X[:, 1], np.inf) if dims > 1 else np.append(np.zeros(n), np.inf)
        qx, qy = Q[:, 0], (Q[:, 1] if dims > 1 else np.zeros(m))
        low, high = np.array([qx.min(), qy.min()]), np.array([qx.max(), qy.max()])
        self.low, self.span = low, high - low
        # The deepest level has about 4√m cells a side (at most 2¹⁵): far more cells than queries.
        self.levels = int(min(15, np.ceil(np.log2(m) / 2) + 2))
        cells = 2**self.levels
        scale = cells / np.where(self.span > 0, self.span, 1.0)
        code = _spread(np.clip(((qx - low[0]) * scale[0]).astype(np.int64), 0, cells - 1)) << 1
        code |= _spread(np.clip(((qy - low[1]) * scale[1]).astype(np.int64), 0, cells - 1))
        # Two stable passes of 16-bit keys (a radix sort in numpy): faster than one argsort here.
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
            leaves = [np.flatnonzero(~cut)]  # tiles answered at this level
            children = []  # the quarters of the tiles cut, for the next level
            chosen = np.flatnonzero(cut)
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
        if self.f32:  # the k-th smallest: float32 ≥ 0 sorts as uint32, in pieces (faster than partition)
            pieces = -(-width // KEY_PIECE)
            keys = self.scratch("kth", (shape[0] * 4, -(-width // pieces) * pieces), np.uint32)
            keys[:, :width], keys[:, width:] = powered.view(np.uint32).reshape(-1, width), 2**32 - 1
            kth = sorted_pieces(keys, k)[:, k - 1].view(np.float32).reshape(-1, 4)
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
            candidates[tile][inside[tile, quarter]],  # row by row, ascending: a mask is faster than nonzero
            sizes[tile, quarter],
            radius[tile, quarter],
            kth[tile, quarter],
        )

    def _bound(self, distance: np.ndarray) -> np.ndarray:  # widened by the arithmetic's rounding margin
        return distance * self.margin[0] + self.margin[1]

    def _answer(self, leaves: np.ndarray, tiles: tuple, h: float) -> None:
        """Measure the queries of these tiles against their candidates, in batches of items of
        at most ``ITEM_QUERIES`` queries of one tile (fewer for wide tiles, so that a batch's
        memory stays bounded)."""
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

    The same result as :func:`classic._search.brute_neighbors` with a Minkowski metric, bit for bit. ``out``
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
