"""Prediction for :mod:`classic.id3`: every row sent down the grown tree's arrays at once.

Rows go down one level per step. A leaf sends a row to itself, so no row leaves the arrays
before the last step; a value the node has no child for (or never seen) sends it to the
node's *stop copy*, a leaf with the node's distribution. A missing value follows every branch
training rows took (weighted by their share, or not) or only the majority branch.
"""

from __future__ import annotations

import numpy as np

from classic._id3_tree import FlatTree

SPREAD = ("fractional", "branch")  # the rules under which a missing value follows every branch


class Router:
    """The tree as flat arrays: per node its feature (−1: a leaf), τ, child per branch slot,
    shares and class distributions (``votes`` counts, ``proba`` frequencies)."""

    def __init__(self, tree: FlatTree, numeric: np.ndarray) -> None:
        self.numeric = numeric
        self.feature = tree.feature[: tree.size].copy()
        self.threshold = tree.threshold[: tree.size]
        self.child, self.share = tree.child[: tree.size], tree.share[: tree.size]
        self.depth = tree.depth[: tree.size]
        inner = tree.reachable() & (self.feature >= 0)
        self.levels = int(self.depth[inner].max(initial=-1)) + 1  # steps down to a leaf
        self.votes = tree.counts[tree.sources()].astype(np.float64)
        self.proba = self.votes / np.maximum(self.votes.sum(axis=1, keepdims=True), 1)
        self.majority = np.argmax(self.share, axis=1)
        self.has_numeric, self.has_categorical = bool(numeric.any()), not numeric.all()
        self._steps: dict[bool, tuple] = {}

    def _step_tables(self, spread: bool) -> tuple:
        """``(feature, τ, next)`` over the nodes and their stop copies (ids + n): ``next[node, slot]``
        for the branch slots, then for an unseen value (slot −2) and a missing one (slot −1: −1 is
        "follow every branch")."""
        if spread not in self._steps:
            n, width = self.child.shape
            ids, inner = np.arange(n), self.feature >= 0
            step = np.empty((2 * n, width + 2), np.int64)
            step[:n, :width] = np.where(self.child >= 0, self.child, (ids + n)[:, None])
            step[:n, -2] = ids + n
            step[:n, -1] = -1 if spread else step[ids, self.majority]
            step[:n][~inner] = ids[~inner, None]  # a leaf keeps its rows
            step[n:] = (ids + n)[:, None]
            feature = np.concatenate([np.where(inner, self.feature, 0), np.zeros(n, np.int64)])
            numeric = inner & self.numeric[np.maximum(self.feature, 0)]
            threshold = np.concatenate([np.where(numeric, self.threshold, np.nan), np.full(n, np.nan)])
            depth = np.concatenate([self.depth, self.depth])  # a stop copy's level is its node's
            self._steps[spread] = (feature, threshold, step, self.share > 0, depth)
        return self._steps[spread]

    def route(
        self, codes: np.ndarray, values: np.ndarray, rule: str, visits: list | None = None
    ) -> np.ndarray:
        """Each row's summed class distribution (``rule``: fractional, branch, majority or value).

        ``visits`` gets, level by level, the ``(rows, nodes)`` reached (stop copies left out).
        A node at depth d is reached at step d: a row's distributions are added by that order.
        """
        n = len(self.feature)
        feature, threshold, step, taken, depth = self._step_tables(rule in SPREAD)
        has_numeric, has_categorical = self.has_numeric, self.has_categorical
        rows, nodes, weights = np.arange(len(codes)), np.zeros(len(codes), dtype=np.int64), None
        for level in range(self.levels + 1):
            if visits is not None:  # the rows that reached a node at this level
                here = (nodes < n) & (depth[nodes] == level)
                if here.any():
                    visits.append((rows[here], nodes[here]))
            if level == self.levels:
                break
            f = feature[nodes]
            if has_numeric:  # a number: x > τ, or −1 (missing)
                x = values[rows, f]
                slot = np.where(np.isnan(x), -1, x > threshold[nodes])
                if has_categorical:
                    slot = np.where(self.numeric[f], slot, codes[rows, f])
            else:
                slot = codes[rows, f]  # a branch, −1 (missing) or −2 (unseen)
            target = step[nodes, slot]
            lost = (target < 0).nonzero()[0] if rule in SPREAD else ()
            if not len(lost):
                nodes = target
                continue
            at = nodes[lost]
            entry, branch = taken[at].nonzero()  # every way training rows went
            at, entry = at[entry], lost[entry]
            weights = np.ones(len(rows)) if weights is None else weights
            spread = weights[entry] * (self.share[at, branch] if rule == "fractional" else 1.0)
            go = target >= 0
            rows = np.concatenate([rows[go], rows[entry]])
            nodes = np.concatenate([target[go], self.child[at, branch]])
            weights = np.concatenate([weights[go], spread])
        table = self.votes if rule == "branch" else self.proba
        stopped = nodes % n  # a stop copy answers with its node's distribution
        if weights is None:  # one leaf a row, rows in order
            return table[stopped]
        # Each row's distributions added in the order they were reached: level, then position.
        order = depth[nodes].argsort(kind="stable")
        rows, parts = rows[order], weights[order, None] * table[stopped[order]]
        return np.stack([np.bincount(rows, parts[:, c], len(codes)) for c in range(parts.shape[1])], axis=1)

    def changes_as_leaf(self, codes: np.ndarray, values: np.ndarray, truth: np.ndarray, rule: str) -> dict:
        """For each internal node some rows reach: how many more rows are right if it becomes a leaf."""
        visits: list = []
        correct = np.argmax(self.route(codes, values, rule, visits), axis=1) == truth
        if all(len(np.unique(rows)) == len(rows) for rows, _ in visits):
            # One path a row: a node as a leaf answers its majority to the rows reaching it.
            rows = np.concatenate([rows for rows, _ in visits])
            nodes = np.concatenate([nodes for _, nodes in visits])
            table = self.votes if rule == "branch" else self.proba
            gain = (np.argmax(table[nodes], axis=1) == truth[rows]).astype(np.int64) - correct[rows]
            inner = self.feature[nodes] >= 0
            change = np.bincount(nodes[inner], weights=gain[inner], minlength=len(self.feature))
            return {int(node): int(change[node]) for node in np.unique(nodes[inner])}
        return self._changes_by_rerouting(codes, values, truth, rule, visits, correct)

    def _changes_by_rerouting(self, codes, values, truth, rule: str, visits: list, correct) -> dict:
        """``changes_as_leaf`` where rows spread over branches: each node a leaf in turn, rows rerouted."""
        reach = np.zeros((len(self.feature), len(codes)), dtype=bool)
        for rows, nodes in visits:
            reach[nodes, rows] = True
        changes = {}
        for node in np.flatnonzero((self.feature >= 0) & reach.any(axis=1)).tolist():
            rows = np.flatnonzero(reach[node])
            feature, self.feature[node] = self.feature[node], -1  # as a leaf, for a moment
            self._steps.clear()
            now = (
                self.route(codes[rows], None if values is None else values[rows], rule).argmax(axis=1)
                == truth[rows]
            )
            self.feature[node] = feature
            self._steps.clear()
            changes[node] = int(now.sum()) - int(correct[rows].sum())
        return changes
