"""Prediction for :mod:`classic.id3`: every row sent down the grown tree's arrays at once."""

from __future__ import annotations

import numpy as np

from classic._id3_tree import FlatTree


class Router:
    """The tree as flat arrays (feature, threshold, child per branch, shares, distributions).

    ``route`` sends every row down one level at a time and adds, per row, the distribution
    of each leaf reached; a missing value follows every branch training rows took (weighted
    by their share, or not), or only the majority branch.
    """

    def __init__(self, tree: FlatTree, numeric: np.ndarray) -> None:
        self.numeric = numeric
        self.feature = tree.feature[: tree.size].copy()
        self.threshold = tree.threshold[: tree.size]
        self.child, self.share = tree.child[: tree.size], tree.share[: tree.size]
        self.votes = tree.counts[tree.sources()].astype(np.float64)
        self.proba = self.votes / np.maximum(self.votes.sum(axis=1, keepdims=True), 1)
        self.majority = np.argmax(self.share, axis=1)

    def route(
        self, codes: np.ndarray, values: np.ndarray, rule: str, visits: list | None = None
    ) -> np.ndarray:
        """Each row's summed class distribution (``rule``: fractional, branch, majority or value)."""
        table = self.votes if rule == "branch" else self.proba
        out = np.zeros((len(codes), table.shape[1]))
        rows, nodes = np.arange(len(codes)), np.zeros(len(codes), dtype=np.int64)
        weights, expanded, numeric = np.ones(len(codes)), False, self.numeric.any()
        while len(rows):
            if visits is not None:
                visits.append((rows, nodes))
            feature = self.feature[nodes]
            inner = feature >= 0
            f, r = feature[inner], rows[inner]
            slot = np.full(len(rows), -3, dtype=np.int64)  # −3: a leaf
            if numeric:
                x = values[r, f]
                test = np.where(np.isnan(x), -1, x > self.threshold[nodes[inner]])
                slot[inner] = np.where(self.numeric[f], test, codes[r, f])
            else:
                slot[inner] = codes[r, f]
            if rule in ("majority", "value"):  # a missing value follows the majority branch
                lost = slot == -1
                slot[lost] = self.majority[nodes[lost]]
            target = self.child[nodes, np.maximum(slot, 0)]
            # A leaf, or a value this node has no child for: its own distribution answers.
            stop = (slot <= -2) | ((slot >= 0) & (target < 0))
            if expanded:  # a row may reach several leaves at once
                np.add.at(out, rows[stop], weights[stop, None] * table[nodes[stop]])
            else:
                out[rows[stop]] = table[nodes[stop]]
            lost = slot == -1
            if not lost.any():
                go = ~stop
                rows, nodes, weights = rows[go], target[go], weights[go]
                continue
            expanded = True
            go = np.flatnonzero(~stop & ~lost)
            entry, branch = np.nonzero(self.share[nodes[lost]] > 0)  # every way training rows went
            entry = np.flatnonzero(lost)[entry]
            spread = weights[entry] * (self.share[nodes[entry], branch] if rule == "fractional" else 1.0)
            rows = np.concatenate([rows[go], rows[entry]])
            nodes = np.concatenate([target[go], self.child[nodes[entry], branch]])
            weights = np.concatenate([weights[go], spread])
        return out

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
            now = np.argmax(self.route(codes[rows], values[rows], rule), axis=1) == truth[rows]
            self.feature[node] = feature
            changes[node] = int(now.sum()) - int(correct[rows].sum())
        return changes
