"""The array work behind :mod:`classic.id3`: reading a table, counting, routing rows.

``classic.id3`` reads like the algorithm (score every candidate test, keep the best, split);
this module does its counting with numpy so that a tree grows and predicts at interactive
speed. Nothing here scores a split: it builds count tables (rows per branch × class) for many
nodes at once and ``classic.criteria.split_scores`` scores them.

- ``read_table``: which columns are numeric (a numeric array, or every known value parses as
  a finite number) and the sorted values of each column.
- ``Encoding``: a categorical value → its branch (−1 missing, −2 never seen), numbers as floats.
- ``categorical_counts``: one bincount gives ``counts[node, feature, branch, class]``.
- ``threshold_candidates``: for one numeric feature and all nodes of a level, the slides'
  candidate thresholds (midpoints between consecutive values whose labels differ) with the
  count table of each, from one presorted order of the column.
- ``Router``: the tree as flat arrays; all rows go down one level at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

MAX_CELLS = 2_000_000  # count-table cells per bincount (nodes are processed in chunks above this)


def as_table(X: Any) -> np.ndarray:
    X = X if isinstance(X, np.ndarray) else np.asarray(X, dtype=object)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (rows × features), got an array of shape {X.shape}")
    return X


def numbers(column: np.ndarray, missing_value: str) -> np.ndarray | None:
    """The column as floats (NaN where missing), or None when a known value is not a finite number."""
    if column.dtype.kind in "biuf":
        return column.astype(np.float64)
    text = column.astype(str)
    known = text != missing_value
    try:
        float(text[known][0]) if known.any() else None  # most text columns fail here, cheaply
        values = text[known].astype(np.float64)
    except ValueError:
        return None
    if not np.isfinite(values).all():
        return None
    out = np.full(len(text), np.nan)
    out[known] = values
    return out


def read_table(X: np.ndarray, missing_value: str) -> tuple[np.ndarray, list[np.ndarray]]:
    """Which columns are numeric (an all-missing column is not) and each column's sorted values."""
    parsed = [numbers(X[:, j], missing_value) for j in range(X.shape[1])]
    parsed = [c if c is not None and not np.isnan(c).all() else None for c in parsed]
    numeric = np.array([c is not None for c in parsed], dtype=bool)
    # A set of the column's strings is much faster than sorting them all (few distinct values).
    values = [
        np.unique(c[~np.isnan(c)])
        if c is not None
        else np.array(sorted(set(X[:, j].astype(str).tolist())), dtype=str)
        for j, c in enumerate(parsed)
    ]
    return numeric, values


class Encoding:
    """Turns rows into branch codes (categorical features) and floats (numeric features)."""

    FEW = 16  # up to this many distinct values over all categorical columns, compare whole tables

    def __init__(
        self, numeric: np.ndarray, branches: Sequence[np.ndarray], names: Sequence[str], missing_value: str
    ):
        self.numeric, self.branches, self.names, self.missing_value = numeric, branches, names, missing_value
        self.categorical = np.flatnonzero(~numeric)
        self.lookup = [
            {} if num else {str(v): b for b, v in enumerate(values)}
            for values, num in zip(branches, numeric, strict=True)
        ]
        known = sorted({v for j in self.categorical for v in self.lookup[j]} | {missing_value})
        self.values = known if len(known) <= self.FEW else None

    def __call__(self, X: np.ndarray, missing_is_value: bool) -> tuple[np.ndarray, np.ndarray]:
        codes = np.zeros(X.shape, dtype=np.int64)
        values = np.full(X.shape, np.nan)
        for j in np.flatnonzero(self.numeric):
            column = numbers(X[:, j], self.missing_value)
            if column is None:
                raise ValueError(f"feature {self.names[j]!r} is numeric: every value must be a number")
            values[:, j] = column
        if not len(self.categorical):
            return codes, values
        text = X[:, self.categorical]
        text = text if text.dtype.kind == "U" else text.astype(str)
        missing = -2 if missing_is_value else -1
        if self.values is not None:  # few values (a vote table): one comparison of the table per value
            found = np.full(text.shape, -2, dtype=np.int64)
            for value in self.values:
                code = [
                    self.lookup[j].get(value, missing if value == self.missing_value else -2)
                    for j in self.categorical
                ]
                found = np.where(text == value, np.array(code)[None, :], found)
            codes[:, self.categorical] = found
            return codes, values
        for k, j in enumerate(self.categorical.tolist()):
            seen, inverse = np.unique(text[:, k], return_inverse=True)
            lookup = self.lookup[j]
            mapped = [lookup.get(v, missing if v == self.missing_value else -2) for v in seen.tolist()]
            codes[:, j] = np.asarray(mapped, dtype=np.int64)[inverse]
        return codes, values


def categorical_counts(
    cells: np.ndarray, y: np.ndarray, groups: Sequence[np.ndarray], width: int, n_classes: int
) -> np.ndarray:
    """``counts[node, feature, slot, class]`` for row groups, from ``cells = slot · n_classes``."""
    n_features = cells.shape[1]
    block = n_features * width * n_classes
    out = np.zeros((len(groups), n_features, width, n_classes), dtype=np.int64)
    step = max(1, MAX_CELLS // max(block, 1))
    offsets = (np.arange(n_features) * width * n_classes)[None, :]
    for start in range(0, len(groups), step):
        part = groups[start : start + step]
        rows = np.concatenate(part)
        node = np.repeat(np.arange(len(part)), [len(g) for g in part])
        index = cells[rows] + y[rows, None] + offsets + (node * block)[:, None]
        counts = np.bincount(index.ravel(), minlength=len(part) * block)
        out[start : start + len(part)] = counts.reshape(len(part), n_features, width, n_classes)
    return out


def threshold_candidates(
    orders: list[np.ndarray],
    columns: np.ndarray,
    y: np.ndarray,
    node_of_row: np.ndarray,
    n_nodes: int,
    n_classes: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every (feature, node) group's candidate thresholds on the numeric features, with their tables.

    ``orders[f]`` sorts ``columns[:, f]`` (NaN last); ``node_of_row`` gives each row's node
    (−1: none); group ``f · n_nodes + node``. Returns ``(group, threshold, tables, missing)``:
    per candidate its group, its τ (and the two observed values it lies between, ``gap[:, 0]`` <
    τ < ``gap[:, 1]``) and its ``[[left counts], [right counts]]``; per group its rows with no
    value. A candidate lies between two consecutive distinct values unless all rows at both
    have one same label.
    """
    parts = [order[node_of_row[order] >= 0] for order in orders]
    seq = np.concatenate(parts)
    feature = np.repeat(np.arange(len(parts)), [len(part) for part in parts])
    groups = feature * n_nodes + node_of_row[seq]
    keep = np.argsort(groups, kind="stable")  # grouped, sorted by value within a group
    seq, feature, groups = seq[keep], feature[keep], groups[keep]
    values = columns[seq, feature]
    n_groups = len(parts) * n_nodes
    known = ~np.isnan(values)
    missing = np.bincount(groups[~known], minlength=n_groups)
    seq, values, groups = seq[known], values[known], groups[known]
    empty = (
        np.zeros(0, np.int64),
        np.zeros(0),
        np.zeros((0, 2)),
        np.zeros((0, 2, n_classes), np.int64),
        missing,
    )
    if len(seq) < 2:
        return empty
    cum = np.cumsum(np.eye(n_classes, dtype=np.int64)[y[seq]], axis=0)
    last = np.append((groups[1:] != groups[:-1]) | (values[1:] != values[:-1]), True)
    ends = np.flatnonzero(last)  # last position of each run of one value in one group
    runs = np.diff(cum[ends], axis=0, prepend=np.zeros((1, n_classes), np.int64))
    pure = np.count_nonzero(runs, axis=1) == 1
    label = runs.argmax(axis=1)
    same_group = groups[ends[:-1]] == groups[ends[1:]]
    at = ends[:-1][same_group & ~(pure[:-1] & pure[1:] & (label[:-1] == label[1:]))]
    if len(at) == 0:
        return empty
    group = groups[at]
    padded = np.vstack([np.zeros((1, n_classes), np.int64), cum])
    base = padded[np.searchsorted(groups, np.arange(n_groups))]  # counts before each group
    total = padded[np.searchsorted(groups, np.arange(n_groups), "right")] - base
    left = cum[at] - base[group]
    tables = np.stack([left, total[group] - left], axis=1)
    gap = np.column_stack([values[at], values[at + 1]])
    return group, gap.mean(axis=1), gap, tables, missing


def first_best(node: np.ndarray, score: np.ndarray, n_nodes: int, tolerance: float) -> np.ndarray:
    """For each node, the index of its first candidate within ``tolerance`` of its best (−1: none).

    ``node`` is sorted (the candidates come grouped by node, lowest threshold first).
    """
    out = np.full(n_nodes, -1, dtype=np.int64)
    if len(node) == 0:
        return out
    starts = np.flatnonzero(np.r_[True, node[1:] != node[:-1]])
    best = np.maximum.reduceat(score, starts)
    good = np.flatnonzero(score >= np.repeat(best, np.diff(np.r_[starts, len(node)])) - tolerance)
    first = good[np.r_[True, node[good][1:] != node[good][:-1]]]
    out[node[first]] = first
    return out


def threshold_text(threshold: float, low: float, high: float) -> str:
    """τ as the tree and the rules print it: the fewest significant digits (4 at least, never an
    exponent) that still lie strictly between ``low`` and ``high``, the observed values τ
    separates, so the printed rule sorts every training value as the tree does (a ``.4g`` τ
    between 1.00002 and 1.00004 would print as 1, and read ``x > 1 AND x <= 1``)."""
    for digits in range(4, 18):
        text = np.format_float_positional(
            threshold, precision=digits, unique=True, fractional=False, trim="-"
        )
        if low < float(text) < high:
            return text
    return repr(float(threshold))


def threshold_branches(threshold: float, low: float, high: float) -> list[str]:
    """The child keys of a numeric test ``x <= τ``, as the tree and the rules show them."""
    text = threshold_text(threshold, low, high)
    return [f"<= {text}", f"> {text}"]


class Training:
    """The training rows as the growth loop needs them: codes, numbers, labels, presorted columns."""

    def __init__(self, codes, values, y, numeric, branches, n_classes: int):
        self.values, self.y, self.numeric, self.n_classes = values, y, numeric, n_classes
        self.branches = [[] if num else [str(b) for b in v] for v, num in zip(branches, numeric, strict=True)]
        self.order = {j: np.argsort(values[:, j], kind="stable") for j in np.flatnonzero(numeric)}
        self.categorical = np.flatnonzero(~numeric)
        # Count-table cells: a known value's branch, or the last slot for a missing one.
        self.width = max([len(self.branches[j]) for j in self.categorical] + [0]) + 1
        self.cells = (np.where(codes < 0, self.width - 1, codes) * n_classes).astype(np.intp)[
            :, self.categorical
        ]

    def score_level(
        self, groups: list[np.ndarray], score: Any, tolerance: float
    ) -> tuple[np.ndarray, LevelTables]:
        """Every candidate test of every node (row group) of one level.

        ``score(counts, missing)`` scores count tables. Returns the scores ``[node, feature]``
        (−inf: no candidate, e.g. a feature with one value there) and the level's tables.
        """
        k, n_features = self.n_classes, len(self.numeric)
        scores = np.full((len(groups), n_features), -np.inf)
        tables = LevelTables(self)
        if len(self.categorical):
            counts = categorical_counts(self.cells, self.y, groups, self.width, k)
            tables.known, tables.missing = counts[:, :, :-1], np.einsum("tfk->tf", counts[:, :, -1])
            found = score(tables.known, tables.missing)
            found[
                np.einsum("tfv->tf", (np.einsum("tfvk->tfv", tables.known) > 0).astype(np.int64)) < 2
            ] = -np.inf
            scores[:, self.categorical] = found
        if self.order:
            node_of_row = np.full(len(self.y), -1, dtype=np.int64)
            for i, rows in enumerate(groups):
                node_of_row[rows] = i
            numeric = list(self.order)
            group, threshold, gap, counts, missing = threshold_candidates(
                list(self.order.values()), self.values[:, numeric], self.y, node_of_row, len(groups), k
            )
            found = score(counts, missing[group])
            best = first_best(group, found, len(numeric) * len(groups), tolerance).reshape(len(numeric), -1)
            for f, j in enumerate(numeric):
                chosen = best[f] >= 0
                scores[chosen, j] = found[best[f][chosen]]
                tables.thresholds[j] = (best[f], threshold, gap, counts, missing[f * len(groups) :])
        return scores, tables


class LevelTables:
    """The count tables of one level's candidate tests, read one (node, feature) at a time."""

    def __init__(self, training: Training):
        self.training, self.thresholds = training, {}
        self.position = {j: f for f, j in enumerate(training.categorical.tolist())}

    def __call__(self, i: int, j: int) -> tuple[list[str], np.ndarray, int, float | None]:
        """``(branches, counts, missing rows, τ)`` of feature ``j``'s test at node ``i``."""
        if j in self.position:
            branches, f = self.training.branches[j], self.position[j]
            return branches, self.known[i, f, : len(branches)], int(self.missing[i, f]), None
        best, threshold, gap, counts, missing = self.thresholds[j]
        b = best[i]
        if b < 0:
            return ["", ""], np.zeros((2, self.training.n_classes), np.int64), int(missing[i]), None
        return threshold_branches(threshold[b], *gap[b]), counts[b], int(missing[i]), float(threshold[b])


class Router:
    """The tree as flat arrays (feature, threshold, child per branch, shares, distributions).

    ``route`` sends every row down one level at a time and adds, per row, the distribution
    of each leaf reached; a missing value follows every branch training rows took (weighted
    by their share, or not), or only the majority branch.
    """

    def __init__(self, nodes: list, numeric: np.ndarray, n_classes: int, branches: Sequence[np.ndarray]):
        size = max(node.id for node in nodes) + 1
        position = [
            {} if num else {str(v): b for b, v in enumerate(values)}
            for values, num in zip(branches, numeric, strict=True)
        ]
        width = max([len(v) for v, num in zip(branches, numeric, strict=True) if not num] + [2])
        self.numeric = numeric
        self.feature = np.full(size, -1, dtype=np.int64)
        self.threshold = np.full(size, np.nan)
        self.child = np.full((size, width), -1, dtype=np.int64)
        self.share = np.zeros((size, width))
        self.votes = np.zeros((size, n_classes))
        ids = [node.id for node in nodes]
        self.votes[ids] = [list((node.source or node).counts.values()) for node in nodes]
        self.proba = self.votes / np.maximum(self.votes.sum(axis=1, keepdims=True), 1)
        for node in nodes:
            if node.is_leaf:
                continue
            self.feature[node.id] = node.feature_index
            self.threshold[node.id] = np.nan if node.threshold is None else node.threshold
            for k, (key, child) in enumerate(node.children.items()):
                b = k if node.threshold is not None else position[node.feature_index][key]
                self.child[node.id, b], self.share[node.id, b] = child.id, node.shares[key]
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
