"""The array work behind :mod:`classic.id3`: reading a table, counting, routing rows.

``classic.id3`` reads like the algorithm (score every candidate test, keep the best, split);
this module does its counting with numpy so that a tree grows and predicts at interactive
speed. Nothing here scores a split: it builds count tables (rows per branch × class) for many
nodes at once and ``classic.criteria.split_scores`` scores them.

- ``read_table``: which columns are numeric (every known value a finite number), their values.
- ``Encoding``: a categorical value → its branch (−1 missing, −2 unseen), numbers as floats.
- ``categorical_counts``: one bincount gives ``counts[node, feature, branch, class]``.
- ``Presorted`` / ``threshold_candidates``: for the numeric features and all nodes of a level,
  the slides' candidate thresholds (midpoints between consecutive values whose labels differ)
  with the count table of each, from columns sorted once per fit; ``split_scores`` then scores
  every threshold of the level in one call and ``first_best`` keeps each node's best.
- ``Training.partition``: all splitting nodes' rows sent down their tests at once.
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


class Presorted:
    """The numeric columns sorted once: every known value as (row, feature, value, label), grouped
    by feature and sorted by value within a feature (stable, so ties keep the row order).
    ``candidates`` regroups them by (feature, node) with one stable sort on the group number,
    which keeps each group sorted by value; with ``narrow`` it keeps only the rows still
    growing, so that the next level (whose nodes split this level's) sorts fewer.
    """

    def __init__(self, orders: list[np.ndarray], columns: np.ndarray, y: np.ndarray):
        seq = np.concatenate(orders)
        feature = np.repeat(np.arange(len(orders)), [len(order) for order in orders])
        value = columns[seq, feature]
        known = ~np.isnan(value)
        self.n_features, self.lost = len(orders), (seq[~known], feature[~known])  # missing: (row, feature)
        seq, self.feature, self.value = seq[known], feature[known], value[known]
        self.seq, self.label = seq, y[seq]

    def candidates(
        self, node_of_row: np.ndarray, n_nodes: int, n_classes: int, narrow: bool = False
    ) -> tuple:
        """``threshold_candidates`` for these columns (see there)."""
        n_groups = self.n_features * n_nodes
        node = node_of_row[self.seq]
        active = node >= 0
        group = np.where(active, self.feature * n_nodes + node, n_groups)  # rows not growing: last
        # A stable sort on a 16-bit key is a radix sort (a few microseconds for thousands of rows).
        key = group.astype(np.int16) if n_groups < 2**15 - 1 else group
        keep = np.argsort(key, kind="stable")[: np.count_nonzero(active)]
        seq, value, label, group = self.seq[keep], self.value[keep], self.label[keep], group[keep]
        lost_seq, lost_feature = self.lost
        missing = np.zeros(n_groups, np.int64)
        if len(lost_seq):
            lost_node = node_of_row[lost_seq]
            on = lost_node >= 0
            lost_seq, lost_feature, lost_node = lost_seq[on], lost_feature[on], lost_node[on]
            missing = np.bincount(lost_feature * n_nodes + lost_node, minlength=n_groups)
        if narrow:
            self.seq, self.feature, self.value, self.label = seq, self.feature[keep], value, label
            self.lost = (lost_seq, lost_feature)
        n = len(seq)
        if n < 2:
            return _no_candidates(n_classes, missing)
        # Runs of one value in one group; a candidate lies after a run unless it ends its group,
        # or no label changes over it and the next run (both pure, one label).
        new_group = np.empty(n + 1, dtype=bool)  # a group starts at each True (and one ends at n)
        new_group[0] = new_group[n] = True
        np.not_equal(group[1:], group[:-1], out=new_group[1:n])
        run_end = new_group[1:].copy()
        run_end[:-1] |= value[1:] != value[:-1]
        ends = np.flatnonzero(run_end)
        changes = np.zeros(n, np.int64)  # label changes up to each position
        np.cumsum(label[1:] != label[:-1], out=changes[1:])
        starts = ends.copy()  # each run's first position (after the previous run's end)
        starts[0], starts[1:] = 0, ends[:-1] + 1
        at = ends[:-1]
        at = at[~new_group[at + 1] & (changes[ends[1:]] != changes[starts[:-1]])]
        if len(at) == 0:
            return _no_candidates(n_classes, missing)
        # Class counts: running totals per class, read at each candidate and at its group's ends.
        cum = np.zeros((n_classes, n + 1), np.int64)
        np.cumsum(label == np.arange(n_classes)[:, None], axis=1, out=cum[:, 1:])
        first = np.flatnonzero(new_group)
        which = np.searchsorted(first, at, "right")
        after = at + 1
        low, here, high = cum[:, first[which - 1]], cum[:, after], cum[:, first[which]]
        tables = np.empty((len(at), 2, n_classes), np.int64)
        tables[:, 0] = (here - low).T
        tables[:, 1] = (high - here).T
        gap = np.empty((len(at), 2))
        gap[:, 0], gap[:, 1] = value[at], value[after]
        return group[at], (gap[:, 0] + gap[:, 1]) / 2, gap, tables, missing


def _no_candidates(n_classes: int, missing: np.ndarray) -> tuple:
    return (
        np.zeros(0, np.int64),
        np.zeros(0),
        np.zeros((0, 2)),
        np.zeros((0, 2, n_classes), np.int64),
        missing,
    )


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
    (−1: none); group ``f · n_nodes + node``. Returns ``(group, threshold, gap, tables, missing)``:
    per candidate its group, τ, the values it lies between (``gap[:, 0] < τ < gap[:, 1]``), its
    ``[[left counts], [right counts]]``; per group its rows with no value. A candidate lies between
    two consecutive distinct values unless all rows at both have one same label.
    """
    return Presorted(orders, columns, y).candidates(node_of_row, n_nodes, n_classes)


def first_best(node: np.ndarray, score: np.ndarray, n_nodes: int, tolerance: float) -> np.ndarray:
    """For each node, the index of its first candidate within ``tolerance`` of its best (−1: none);
    ``node`` is sorted (candidates come grouped by node, lowest threshold first)."""
    out = np.full(n_nodes, -1, dtype=np.int64)
    if len(node) == 0:
        return out
    new = np.empty(len(node), dtype=bool)
    new[0] = True
    np.not_equal(node[1:], node[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    best = np.maximum.reduceat(score, starts)[np.cumsum(new) - 1]  # each candidate's node's best
    first = np.minimum.reduceat(np.where(score >= best - tolerance, np.arange(len(node)), len(node)), starts)
    out[node[starts]] = np.where(first < len(node), first, -1)
    return out


def threshold_text(threshold: float, low: float, high: float) -> str:
    """τ as printed: the fewest significant digits (4 at least, no exponent) strictly between the
    values it separates, so a rule sorts every training value as the tree does."""
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
        self.codes = codes
        self.order = {j: np.argsort(values[:, j], kind="stable") for j in np.flatnonzero(numeric)}
        self.sorted = (
            Presorted(list(self.order.values()), values[:, list(self.order)], y) if self.order else None
        )
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
            node_of_row[np.concatenate(groups)] = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
            numeric = list(self.order)
            # Each level's nodes split the last level's: the presorted rows narrow as they go.
            group, threshold, gap, counts, missing = self.sorted.candidates(node_of_row, len(groups), k, True)
            found = score(counts, missing[group])
            best = first_best(group, found, len(numeric) * len(groups), tolerance).reshape(len(numeric), -1)
            chosen, at = best >= 0, np.maximum(best, 0)
            if len(found):
                scores[:, numeric] = np.where(chosen, found[at], -np.inf).T
            ends = gap[at] if len(gap) else np.zeros((*best.shape, 2))
            low, high = ends[..., 0].tolist(), ends[..., 1].tolist()  # the best τ's neighbours
            per_node = zip(best.tolist(), low, high, missing.reshape(len(numeric), -1).tolist(), strict=True)
            for j, (b, lo, hi, lost) in zip(numeric, per_node, strict=True):
                tables.thresholds[j] = (b, threshold, lo, hi, counts, lost)
        return scores, tables

    def partition(self, tests: list[tuple[np.ndarray, int, float | None, int]]) -> list[list[np.ndarray]]:
        """The rows of each branch of each test ``(rows, feature, τ or None, majority branch)``.

        All nodes' rows go down their tests at once (``x > τ``, or the value's branch); a row
        missing the value goes to the majority branch; rows keep their order within a branch.
        """
        if not tests:
            return []
        width = max(self.width, 2)
        rows = np.concatenate([test[0] for test in tests])
        node = np.repeat(np.arange(len(tests)), [len(test[0]) for test in tests])
        feature = np.array([test[1] for test in tests])[node]
        threshold = np.array([np.nan if test[2] is None else test[2] for test in tests])[node]
        if self.order:  # a numeric test sends x > τ right (a categorical test's τ is NaN: never)
            x = self.values[rows, feature]
            branch, lost = (x > threshold).astype(np.int64), np.isnan(x)
        if len(self.categorical):  # a categorical test: the value's branch (−1: missing)
            code = self.codes[rows, feature]
            if self.order:
                categorical = np.isnan(threshold)
                branch, lost = np.where(categorical, code, branch), np.where(categorical, code < 0, lost)
            else:
                branch, lost = code, code < 0
        if lost.any():
            branch = np.where(lost, np.array([test[3] for test in tests])[node], branch)
        key = node * width + branch
        order = np.argsort(key.astype(np.int16) if len(tests) * width < 2**15 else key, kind="stable")
        ends = np.zeros(len(tests) * width + 1, np.int64)
        np.cumsum(np.bincount(key, minlength=len(tests) * width), out=ends[1:])
        ordered, ends = rows[order], ends.tolist()
        return [
            [ordered[ends[i * width + b] : ends[i * width + b + 1]] for b in range(width)]
            for i in range(len(tests))
        ]


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
        best, threshold, low, high, counts, missing = self.thresholds[j]
        b = best[i]
        if b < 0:
            return ["", ""], np.zeros((2, self.training.n_classes), np.int64), missing[i], None
        tau = float(threshold[b])
        return threshold_branches(tau, low[i], high[i]), counts[b], missing[i], tau


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
        inner = [node for node in nodes if not node.is_leaf]
        self.feature[[node.id for node in inner]] = [node.feature_index for node in inner]
        self.threshold[[node.id for node in inner]] = [
            np.nan if node.threshold is None else node.threshold for node in inner
        ]
        edges = [  # (parent, branch slot, child, share), gathered, then written at once
            (
                node.id,
                k if node.threshold is not None else position[node.feature_index][key],
                child.id,
                node.shares[key],
            )
            for node in inner
            for k, (key, child) in enumerate(node.children.items())
        ]
        if edges:
            parent, slot, child, share = zip(*edges, strict=True)
            self.child[parent, slot], self.share[parent, slot] = child, share
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
