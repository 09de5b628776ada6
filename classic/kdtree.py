"""k-d tree: a binary space partition that finds nearest neighbours without measuring them all.

Building (as in the course notes): at depth t split on axis a = t mod d, at the median of the
points' a-coordinates; the median point stays in the node, the smaller ones go left and the
larger ones right; stop at ``leaf_size`` points. Querying: descend to the leaf containing x,
keep the k best points seen, and on the way back visit the other side of a split only if the
splitting plane is closer to x than the current k-th best distance, |x_a − s| < d_k. For any
Minkowski metric |x_a − s| is a lower bound on the distance to every point beyond the plane,
so the pruning never loses a true neighbour. ``query`` reports how many distances it computed,
to compare with the n of brute force; ``search`` also records each of those decisions (the
notes' test, ‖x − y‖ against |t − x_a|) and the cell of every side it pruned, for drawing.

Depth: the median split halves the points at every level, so a tree over n points with
leaves of at most ``leaf_size`` has depth at most ⌈log₂(n / leaf_size)⌉ + 1, whatever the
dimension d: O(lg n). The course notes give the depth as O(d lg n), a true but loose bound;
the d belongs to the time of a descent (a comparison per level, a d-dimensional distance at
the leaf), not to the depth.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

import numpy as np

from classic._validation import check_array
from classic.distances import minkowski_distance


@dataclass
class Node:
    """A node of the tree: a split (axis, value, the median point) or a leaf of point indices."""

    indices: np.ndarray
    axis: int | None = None
    value: float | None = None
    left: Node | None = None
    right: Node | None = None

    @property
    def is_leaf(self) -> bool:
        return self.axis is None


@dataclass(frozen=True)
class Split:
    """A splitting line for drawing: on ``axis`` at ``value``, inside the box ``bounds``."""

    axis: int
    value: float
    bounds: tuple[tuple[float, float], ...]
    depth: int

    def rescaled(self, scale: np.ndarray, offset: np.ndarray) -> Split:
        """The same line in original units, for a tree built on (x − offset) / scale."""
        value = self.value * scale[self.axis] + offset[self.axis]
        bounds = tuple(
            (lo * scale[a] + offset[a], hi * scale[a] + offset[a]) for a, (lo, hi) in enumerate(self.bounds)
        )
        return Split(self.axis, float(value), bounds, self.depth)


Box = tuple[tuple[float, float], ...]  # (low, high) on each axis


@dataclass(frozen=True)
class Decision:
    """One split met on the way back up: whether the far side can hold a nearer point.

    The notes' test: every point beyond the plane x_a = t is at least ``gap`` = |t − x_a| away,
    so the far side is searched only if ``gap`` ≤ ``best``, the k-th best distance so far
    (∞ while fewer than k points are known); otherwise its whole cell ``far`` is pruned.
    """

    depth: int
    axis: int
    value: float
    gap: float
    best: float
    searched: bool
    far: Box


@dataclass(frozen=True)
class Search:
    """A query's answer and its course: the points whose distance was measured, and each decision."""

    distances: np.ndarray
    indices: np.ndarray
    measured: np.ndarray
    decisions: list[Decision]

    @property
    def pruned(self) -> list[Box]:
        """The cells the search never entered."""
        return [d.far for d in self.decisions if not d.searched]


class KDTree:
    """A k-d tree over the rows of X with median splits cycling through the axes.

    Parameters
    ----------
    X : array of shape (n, d)
    leaf_size : int, default 1
        A node with at most this many points is a leaf.

    Attributes
    ----------
    root_ : Node
    n_nodes_ : int
    depth_ : int
    """

    def __init__(self, X: Any, *, leaf_size: int = 1) -> None:
        X = check_array(X, estimator=self)
        if isinstance(leaf_size, bool) or int(leaf_size) != leaf_size or leaf_size < 1:
            raise ValueError(f"leaf_size must be a positive integer; got {leaf_size!r}")
        self.X = X
        self.leaf_size = int(leaf_size)
        self.n_nodes_ = 0
        self.depth_ = 0
        self.root_ = self._build(np.arange(len(X)), 0)

    def __repr__(self) -> str:
        return (
            f"KDTree(n={len(self.X)}, leaf_size={self.leaf_size}, nodes={self.n_nodes_}, depth={self.depth_})"
        )

    def _build(self, indices: np.ndarray, depth: int) -> Node:
        self.n_nodes_ += 1
        self.depth_ = max(self.depth_, depth)
        if len(indices) <= self.leaf_size:
            return Node(indices)
        axis = depth % self.X.shape[1]
        order = indices[np.argsort(self.X[indices, axis], kind="stable")]
        middle = len(order) // 2
        node = Node(order[middle : middle + 1], axis, float(self.X[order[middle], axis]))
        node.left = self._build(order[:middle], depth + 1)
        node.right = self._build(order[middle + 1 :], depth + 1) if middle + 1 < len(order) else None
        return node

    def query(self, x: Any, k: int = 1, p: float = 2) -> tuple[np.ndarray, np.ndarray, int]:
        """The k nearest points to x: (distances, indices, number of distances computed).

        ``p`` is the Minkowski exponent (2 Euclidean, 1 Manhattan, ``np.inf`` Chebyshev).
        Neighbours are sorted nearest first, equal distances by index.
        """
        found = self._search(x, k, p, None)
        return found.distances, found.indices, len(found.measured)

    def search(self, x: Any, k: int = 1, p: float = 2, bounds: Box | None = None) -> Search:
        """:meth:`query` with its course: every decision at a split, with the far side's cell
        inside ``bounds`` (by default the box of :meth:`splits`)."""
        return self._search(x, k, p, self.box(bounds))

    def _search(self, x: Any, k: int, p: float, bounds: Box | None) -> Search:
        x = check_array(np.reshape(x, (1, -1)), n_features=self.X.shape[1], estimator=self, name="x")[0]
        if isinstance(k, bool) or int(k) != k or not 1 <= k <= len(self.X):
            raise ValueError(f"k must be an integer in [1, {len(self.X)}]; got {k!r}")
        best: list[tuple[float, int]] = []  # max-heap of (−distance, −index)
        measured: list[np.ndarray] = []
        decisions: list[Decision] = []

        def consider(indices: np.ndarray) -> None:
            measured.append(indices)
            for distance, index in zip(
                minkowski_distance(self.X[indices] - x, p), indices.tolist(), strict=True
            ):
                item = (-float(distance), -index)
                if len(best) < k:
                    heapq.heappush(best, item)
                elif item > best[0]:
                    heapq.heapreplace(best, item)

        def visit(node: Node | None, box: Box | None, depth: int) -> None:
            if node is None:
                return
            consider(node.indices)
            if node.is_leaf:
                return
            gap = x[node.axis] - node.value
            sides = [
                (node.left, _cut(box, node.axis, high=node.value)),
                (node.right, _cut(box, node.axis, low=node.value)),
            ]
            (near, near_box), (far, far_box) = sides if gap < 0 else sides[::-1]
            visit(near, near_box, depth + 1)
            bound = -best[0][0] if len(best) == k else np.inf
            searched = abs(gap) <= bound
            if box is not None and far is not None:
                decisions.append(
                    Decision(depth, node.axis, node.value, abs(float(gap)), bound, searched, far_box)
                )
            if searched:
                visit(far, far_box, depth + 1)

        visit(self.root_, bounds, 0)
        result = sorted((-d, -i) for d, i in best)
        return Search(
            np.array([d for d, _ in result]),
            np.array([i for _, i in result], dtype=np.int64),
            np.concatenate(measured),
            decisions,
        )

    def box(self, bounds: Box | None = None) -> Box:
        """``bounds``, or the points' bounding box widened by 5% on each side."""
        if bounds is not None:
            return tuple(bounds)
        low, high = self.X.min(axis=0), self.X.max(axis=0)
        margin = 0.05 * np.maximum(high - low, 1e-9)
        return tuple(zip((low - margin).tolist(), (high + margin).tolist(), strict=True))

    def query_many(self, Q: Any, k: int = 1, p: float = 2) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`query` for every row of Q: (distances, indices), each of shape (len(Q), k)."""
        Q = np.asarray(Q, dtype=np.float64).reshape(-1, self.X.shape[1])
        distances = np.empty((len(Q), k))
        indices = np.empty((len(Q), k), dtype=np.int64)
        for row, x in enumerate(Q):
            distances[row], indices[row], _ = self.query(x, k, p)
        return distances, indices

    def splits(self, bounds: Box | None = None) -> list[Split]:
        """Every splitting line with the box it cuts (for drawing the partition in 2-D)."""
        lines: list[Split] = []

        def walk(node: Node | None, box: Box, depth: int) -> None:
            if node is None or node.is_leaf:
                return
            lines.append(Split(node.axis, node.value, box, depth))
            walk(node.left, _cut(box, node.axis, high=node.value), depth + 1)
            walk(node.right, _cut(box, node.axis, low=node.value), depth + 1)

        walk(self.root_, self.box(bounds), 0)
        return lines


def _cut(box: Box | None, axis: int, low: float | None = None, high: float | None = None) -> Box | None:
    """The part of ``box`` on one side of a split: its ``axis`` range from ``low`` or up to ``high``."""
    if box is None:
        return None
    return tuple(
        (box[a][0] if low is None else low, box[a][1] if high is None else high) if a == axis else side
        for a, side in enumerate(box)
    )
