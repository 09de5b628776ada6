"""The array work behind :mod:`classic.id3`: reading a table, counting the candidate tests of a level.

``classic.id3`` reads like the algorithm (score every candidate test, keep the best, split);
this module does its counting with numpy so that a tree grows and predicts at interactive
speed. Nothing here scores a split: it builds count tables (rows per branch × class) for many
nodes at once and ``classic.criteria.split_scores`` scores them.

- ``read_table``: which columns are numeric (a numeric array, or every known value parses as
  a finite number) and the sorted values of each column.
- ``Encoding``: a categorical value → its branch (−1 missing, −2 never seen), numbers as floats.
- ``categorical_counts``: one bincount gives ``counts[node, feature, branch, class]``.
- ``Presorted`` / ``threshold_candidates``: for the numeric features and all nodes of a level,
  the slides' candidate thresholds (midpoints between consecutive values whose labels differ)
  with the count table of each, from columns sorted once per fit; ``split_scores`` then scores
  every threshold of the level in one call and ``first_best`` keeps each node's best.
- ``Training.descend``: all splitting nodes' rows sent down their tests at once.

Counting a whole level at once, rather than node by node, is what keeps the /decision-tree
page's evaluation (71 fits of the 1984 votes) interactive; ``tests/benchmarks/bench_id3.py``
times it beside scikit-learn. The grown tree, its ``Node`` objects and prediction are in
:mod:`classic._id3_tree`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from classic._validation import check_array

# --------------------------------------------------------------------------------------------
# Reading a table: which columns are numbers, and each value as a code
# --------------------------------------------------------------------------------------------


def as_table(X: Any, n_features: int | None = None, estimator: Any = None) -> np.ndarray:
    """X as a 2-D table of its own dtype (strings, objects or numbers; NaN marks a missing
    number), checked by :func:`classic._validation.check_array`."""
    return check_array(X, numeric=False, allow_nan=True, n_features=n_features, estimator=estimator)


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


def distinct(column: np.ndarray) -> np.ndarray:
    """``np.unique`` of a numeric column's known values (the same sort, without its overhead)."""
    missing = np.isnan(column)
    known = np.sort(column[~missing] if missing.any() else column)
    first = np.empty(len(known), dtype=bool)  # the first of each run of one value
    first[:1] = True
    np.not_equal(known[1:], known[:-1], out=first[1:])
    return known[first]


def read_table(X: np.ndarray, missing_value: str) -> tuple[np.ndarray, list[np.ndarray]]:
    """Which columns are numeric (an all-missing column is not) and each column's sorted values."""
    parsed = [numbers(X[:, j], missing_value) for j in range(X.shape[1])]
    parsed = [c if c is not None and not np.isnan(c).all() else None for c in parsed]
    numeric = np.array([c is not None for c in parsed], dtype=bool)
    # A set of the column's strings is much faster than sorting them all (few distinct values).
    values = [
        distinct(c) if c is not None else np.array(sorted(set(X[:, j].astype(str).tolist())), dtype=str)
        for j, c in enumerate(parsed)
    ]
    return numeric, values


class Encoding:
    """Turns rows into branch codes (categorical features) and floats (numeric features)."""

    def __init__(
        self, numeric: np.ndarray, branches: Sequence[np.ndarray], names: Sequence[str], missing_value: str
    ):
        self.numeric, self.branches, self.names, self.missing_value = numeric, branches, names, missing_value
        self.categorical = np.flatnonzero(~numeric).tolist()
        self.numeric_columns = np.flatnonzero(numeric).tolist()
        # Per categorical feature: its values sorted (to be found by binary search) and their codes.
        self.known, self.code = {}, {}
        for j in self.categorical:
            lookup = {str(v): b for b, v in enumerate(branches[j])}
            self.known[j] = np.array(sorted(lookup), dtype=str)
            self.code[j] = np.array([lookup[v] for v in self.known[j].tolist()], dtype=np.int64)

    def __call__(self, X: np.ndarray, missing_is_value: bool) -> tuple[np.ndarray, np.ndarray | None]:
        """``(codes, values)``: branch codes (0 in a numeric column; −1 missing, or −2 when
        ``missing_is_value`` and the marker was never seen; −2 a value never seen) and numbers
        (NaN in a categorical column; None when no feature is numeric)."""
        values = np.full(X.shape, np.nan) if self.numeric_columns else None
        for j in self.numeric_columns:
            column = numbers(X[:, j], self.missing_value)
            if column is None:
                raise ValueError(f"feature {self.names[j]!r} is numeric: every value must be a number")
            values[:, j] = column
        codes, missing = np.zeros(X.shape, dtype=np.int64), -2 if missing_is_value else -1
        for j in self.categorical:
            text, known = X[:, j].astype(str), self.known[j]
            at = np.minimum(np.searchsorted(known, text), max(len(known) - 1, 0))
            found = known[at] == text if len(known) else np.zeros(len(text), bool)
            other = np.where(text == self.missing_value, missing, -2)  # missing, or never seen
            codes[:, j] = np.where(found, self.code[j][at] if len(known) else 0, other)
        return codes, values


# --------------------------------------------------------------------------------------------
# Counting: the count tables of every candidate test of a level
# --------------------------------------------------------------------------------------------


MAX_CELLS = 2_000_000  # count-table cells per bincount (nodes are processed in chunks above this)


def categorical_counts(
    cells: np.ndarray, rows: np.ndarray, node: np.ndarray, n_nodes: int, shape: tuple
) -> np.ndarray:
    """``counts[node, feature, slot, class]`` of the rows at each node: ``cells[row, feature]`` is
    the row's cell in a node's block of ``shape = (features, slots, classes)``; one bincount."""
    block = math.prod(shape)
    if n_nodes * block <= MAX_CELLS:  # one bincount
        index = cells.take(rows, axis=0) + (node * block)[:, None]
        return np.bincount(index.ravel(), minlength=n_nodes * block).reshape(n_nodes, *shape)
    out = np.empty((n_nodes, *shape), dtype=np.int64)
    step = max(1, MAX_CELLS // max(block, 1))
    for start in range(0, n_nodes, step):
        part = min(step, n_nodes - start)
        here = slice(None) if part == n_nodes else (node >= start) & (node < start + part)
        index = cells[rows[here]] + ((node[here] - start) * block)[:, None]
        out[start : start + part] = np.bincount(index.ravel(), minlength=part * block).reshape(part, *shape)
    return out


class Presorted:
    """The numeric columns sorted once: every known value as (row, feature, label) and value,
    grouped by feature and sorted by value within a feature (stable, so ties keep the row order).

    ``candidates`` regroups them by (node, feature) with one stable sort on the group number,
    which keeps each group sorted by value; with ``narrow`` it keeps only the rows still
    growing, so that the next level (whose nodes split this level's) sorts fewer.
    """

    def __init__(self, orders: list[np.ndarray], columns: np.ndarray, y: np.ndarray):
        seq = np.concatenate(orders)
        feature = np.repeat(np.arange(len(orders)), [len(order) for order in orders])
        value = columns[seq, feature]
        known = ~np.isnan(value)
        self.n_features, self.lost = len(orders), (seq[~known], feature[~known])  # missing: (row, feature)
        seq, feature, self.value = seq[known], feature[known], value[known]
        self.entries = np.stack([seq, feature, y[seq]])  # row, feature, label
        self.wide = not np.abs(self.value).max(initial=0.0) < 2.0**1022  # (see midpoints)

    def candidates(
        self, node_of_row: np.ndarray, n_nodes: int, n_classes: int, narrow: bool = False
    ) -> tuple:
        """``threshold_candidates`` for these columns (see there)."""
        n_features = self.n_features
        n_groups = n_nodes * n_features
        node = node_of_row[self.entries[0]]
        group = node * n_features + self.entries[1]  # rows not growing (node n_nodes) come last
        # A stable sort on a 16-bit key is a radix sort (bench_id3.py --only choices times it).
        key = group.astype(np.int16) if n_groups + n_features < 2**15 else group
        keep = key.argsort(kind="stable")[: np.count_nonzero(node < n_nodes)]
        entries, value, group = self.entries.take(keep, axis=1), self.value[keep], group[keep]
        label = entries[2]
        lost_seq, lost_feature = self.lost
        missing = np.zeros(n_groups, np.int64)
        if len(lost_seq):
            lost_node = node_of_row[lost_seq]
            on = lost_node < n_nodes
            lost_seq, lost_feature, lost_node = lost_seq[on], lost_feature[on], lost_node[on]
            missing = np.bincount(lost_node * n_features + lost_feature, minlength=n_groups)
        if narrow:
            self.entries, self.value, self.lost = entries, value, (lost_seq, lost_feature)
        found = thresholds_in_groups(group, value, label, n_classes)
        if found is None:
            return _no_candidates(n_classes, missing)
        at, tables = found
        return (group[at], *midpoints(value, at, self.wide), tables, missing)


def thresholds_in_groups(
    group: np.ndarray, value: np.ndarray, label: np.ndarray, n_classes: int
) -> tuple | None:
    """The candidate thresholds of rows sorted by ``group``, then by ``value``: ``(at, tables)``,
    each candidate's position (it lies between ``value[at]`` and ``value[at + 1]``, see
    ``midpoints``) and ``[[left counts], [right counts]]``; None when there is none.

    Runs of one value in one group; a candidate lies after a run unless it ends its group, or no
    label changes over it and the next run (both pure, one label).
    """
    n = len(value)
    if n < 2:
        return None
    new_group = np.empty(n + 1, dtype=bool)  # a group starts at each True (and one ends at n)
    new_group[0] = new_group[n] = True
    np.not_equal(group[1:], group[:-1], out=new_group[1:n])
    new_run = new_group.copy()  # a run (of one value in one group) starts at each True
    new_run[1:n] |= value[1:] != value[:-1]
    bounds = new_run.nonzero()[0]  # each run's first position, then n
    ends = bounds[1:] - 1  # each run's last position
    changes = np.empty(n, np.int64)  # label changes up to each position
    changes[0] = 0
    np.add.accumulate(label[1:] != label[:-1], dtype=np.int64, out=changes[1:])
    # Between run r and r + 1 (the positions ends[r] and bounds[r + 1]): a candidate if both are
    # in one group and a label changes from run r's first position to run r + 1's last.
    differ = changes.take(ends[1:]) != changes.take(bounds[:-2])
    keep = np.greater(differ, new_group.take(bounds[1:-1]))  # differ and not a new group
    at = ends[:-1].compress(keep)
    after = at + 1
    if len(at) == 0:
        return None
    # Class counts: running totals per class (a row a position), read at each candidate and at
    # its group's ends: left = up to the candidate, right = after it.
    cum = np.empty((n_classes, n + 1), np.int64)  # [class, position] (a cumsum along rows is fast)
    cum[:, 0] = 0
    np.add.accumulate(label == _CLASSES[:n_classes], axis=1, dtype=np.int64, out=cum[:, 1:])
    first = new_group.nonzero()[0]
    which = first.searchsorted(at, "right")  # (take: much faster than cum[:, index])
    low, here, high = (cum.take(i, axis=1) for i in (first.take(which - 1), after, first.take(which)))
    tables = np.empty((len(at), 2, n_classes), np.int64)
    np.subtract(here, low, out=tables[:, 0].T)
    np.subtract(high, here, out=tables[:, 1].T)
    return at, tables


def midpoints(value: np.ndarray, at: np.ndarray, wide: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``(τ, gap)`` of the candidates at ``at``: ``gap = [a, b] = [value[at], value[at + 1]]``
    (a < b) and τ their midpoint ``(a + b) / 2``, or the lower value ``a`` where the midpoint rounds
    onto the upper: so that ``a ≤ τ < b``, and the test ``x ≤ τ`` sends ``a`` left and ``b`` right.

    ``wide``: some value is infinite or beyond ±2¹⁰²² (False: none is, ``a + b`` cannot overflow).
    Where ``a + b`` overflows τ is ``a/2 + b/2``; it is ``a`` where τ would still not lie in
    ``[a, b)``: adjacent floats (1 + 2⁻⁵², 1 + 2⁻⁵¹), ``b = inf``, ``a = -inf`` with ``b = inf``
    (no midpoint). (``a = -inf`` and ``b`` finite: τ = −inf, the test ``x ≤ −inf``.)
    """
    gap = value[at[:, None] + _PAIR]
    low, high = gap[:, 0], gap[:, 1]
    if not wide:  # a ≤ (a + b) / 2 ≤ b
        tau = (low + high) / 2
        up = tau >= high
        tau[up] = low[up]
        return tau, gap
    with np.errstate(over="ignore", invalid="ignore"):
        tau = (low + high) / 2
        off = ~((low <= tau) & (tau < high))  # rounded onto b, overflowed, or NaN (−inf + inf)
        if off.any():
            a, b = low[off], high[off]
            half = a / 2 + b / 2  # no overflow (|a/2 + b/2| ≤ max |a|, |b|)
            tau[off] = np.where((a <= half) & (half < b), half, a)
    return tau, gap


_PAIR, _CLASSES = np.array([0, 1]), np.arange(256)[:, None]  # (more classes: a slice is shorter)


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
    """Every (node, feature) group's candidate thresholds on the numeric features, with their tables.

    ``orders[f]`` sorts ``columns[:, f]`` (NaN last); ``node_of_row`` gives each row's node
    (``n_nodes``: none); group ``node · n_features + f``. Returns ``(group, threshold, gap, tables,
    missing)``: per candidate its group, its τ (and the two observed values it lies between,
    ``gap[:, 0] ≤ τ < gap[:, 1]``, see ``midpoints``) and its ``[[left counts], [right counts]]``;
    per group its rows with no value. A candidate lies between two consecutive distinct values
    unless all rows at both have one same label.
    """
    return Presorted(orders, columns, y).candidates(node_of_row, n_nodes, n_classes)


def first_best(node: np.ndarray, score: np.ndarray, n_nodes: int, tolerance: float) -> np.ndarray:
    """For each node, the index of its first candidate within ``tolerance`` of its best (−1: none).

    ``node`` is sorted (the candidates come grouped by node, lowest threshold first), so ties go
    to the lowest threshold, as a scan from left to right would choose.
    """
    out = np.empty(n_nodes, dtype=np.int64)
    out.fill(-1)
    if len(node) == 0:
        return out
    n = len(node)
    new = np.empty(n + 1, dtype=bool)  # a node's candidates start at each True (and end at n)
    new[0] = new[n] = True
    np.not_equal(node[1:], node[:-1], out=new[1:n])
    bounds = new.nonzero()[0]
    starts = bounds[:-1]
    best = np.maximum.reduceat(score, starts).repeat(bounds[1:] - starts)  # each candidate's node's best
    near = (score >= np.subtract(best, tolerance, out=best)).nonzero()[0]  # (scores finite: the best is near)
    out[node.take(starts)] = near.take(near.searchsorted(starts))
    return out


def threshold_text(threshold: float, low: float, high: float) -> str:
    """τ as the tree and the rules print it: the fewest significant digits (4 at least, no
    exponent below 1e16) that still lie strictly between ``low`` and ``high``, the observed values
    τ separates, so the printed rule sorts every training value as the tree does (τ itself, in
    full, where it is the lower value: see ``midpoints``). A ``.4g`` τ between 1.00002 and 1.00004
    would print as 1, and a path would read ``x > 1 AND x <= 1``."""
    for digits in range(4, 18):
        text = (
            np.format_float_positional(threshold, precision=digits, unique=True, fractional=False, trim="-")
            if abs(threshold) < 1e16
            else np.format_float_scientific(threshold, precision=digits - 1, unique=True, trim="-")
        )
        if low < float(text) < high:
            return text
    return repr(float(threshold))


def threshold_branches(threshold: float, low: float, high: float) -> list[str]:
    """The child keys of a numeric test ``x <= τ``, as the tree and the rules show them."""
    text = threshold_text(threshold, low, high)
    return [f"<= {text}", f"> {text}"]


class Training:
    """The training rows as the growth loop needs them: codes, numbers, labels, presorted columns.

    A level of the tree is ``rows`` (ascending) and ``node``, each row's node in the level.
    """

    def __init__(self, codes, values, y, numeric, branches, n_classes: int):
        self.values, self.y, self.numeric, self.n_classes = values, y, numeric, n_classes
        self.branches = [[] if num else [str(b) for b in v] for v, num in zip(branches, numeric, strict=True)]
        self.codes = codes
        self.order = {j: np.argsort(values[:, j], kind="stable") for j in np.flatnonzero(numeric)}
        self.sorted = (
            Presorted(list(self.order.values()), values[:, list(self.order)], y) if self.order else None
        )
        self.categorical = np.flatnonzero(~numeric)
        # Count-table cells: a known value's branch, or the last slot for a missing one; per row
        # and categorical feature, its cell in a node's table [feature, slot, class].
        self.width = max([len(self.branches[j]) for j in self.categorical] + [0]) + 1
        self.shape = (len(self.categorical), self.width, n_classes)
        slot = np.where(codes < 0, self.width - 1, codes)[:, self.categorical]
        offsets = np.arange(len(self.categorical)) * self.width * n_classes
        self.cells = (slot * n_classes + y[:, None] + offsets).astype(np.intp)
        # Where LevelTables finds a feature's tables: its position among the categorical or numeric.
        self.position = {j: f for f, j in enumerate(self.categorical.tolist())}
        self.numeric_position = np.full(len(numeric), -1)
        self.numeric_position[list(self.order)] = np.arange(len(self.order))
        lost = codes < 0 if values is None else np.where(numeric, np.isnan(values), codes < 0)  # missing
        self.lost = lost if lost.any() else None
        self.has_numeric = bool(numeric.any())
        # Each feature's number of branches (a numeric test has 2).
        self.n_branches = np.array(
            [2 if num else len(b) for b, num in zip(self.branches, numeric, strict=True)]
        )

    def score_level(
        self, rows: np.ndarray, node: np.ndarray, may: np.ndarray, score: Any, tolerance: float
    ) -> tuple[np.ndarray, LevelTables]:
        """Every candidate test of every node of one level (categorical ones where ``may``).

        ``score(counts, missing)`` scores count tables. Returns the scores ``[node, feature]``
        (−inf: no candidate, e.g. a feature with one value there) and the level's tables.
        """
        k, n_features, n_nodes = self.n_classes, len(self.numeric), len(may)
        every = bool(may.all())
        mixed = bool(self.order) and len(self.categorical) > 0  # else one kind gives every score
        scores = np.full((n_nodes, n_features), -np.inf) if mixed else None
        tables = LevelTables(self)
        if len(self.categorical):  # the nodes that may split: their tables scored in one call
            here = slice(None) if every else may[node]  # (the other nodes' rows are not counted)
            counts = categorical_counts(self.cells, rows[here], node[here], n_nodes, self.shape)
            tables.known, tables.missing = counts[:, :, :-1], np.einsum("tfk->tf", counts[:, :, -1])
            known, missing = (
                (tables.known, tables.missing) if every else (tables.known[may], tables.missing[may])
            )
            found = score(known, missing)
            # Each test's branches with a row (einsum: reductions over short axes are slow in numpy).
            branches = np.einsum("tfv->tf", (np.einsum("tfvk->tfv", known) > 0).view(np.int8))
            found[branches < 2] = -np.inf  # one branch: no test
            if every and not mixed:
                scores = found
            else:
                scores = np.full((n_nodes, n_features), -np.inf) if scores is None else scores
                scores[may[:, None] & (self.numeric_position < 0)] = found.ravel()
        if self.order:
            node_of_row = np.full(len(self.y), n_nodes, dtype=np.int64)  # n_nodes: not growing
            node_of_row[rows] = node
            numeric = list(self.order)
            # Each level's nodes split the last level's: the presorted rows narrow as they go.
            group, threshold, gap, counts, missing = self.sorted.candidates(node_of_row, n_nodes, k, True)
            found = score(counts, missing[group])
            best = first_best(group, found, n_nodes * len(numeric), tolerance).reshape(n_nodes, -1)
            found = (
                np.where(best >= 0, found[np.maximum(best, 0)], -np.inf)
                if len(found)
                else np.full(best.shape, -np.inf)
            )
            if mixed:
                scores[:, numeric] = found
            else:
                scores = found
            tables.best, tables.threshold, tables.gap, tables.counts = best, threshold, gap, counts
            tables.lost = missing.reshape(n_nodes, -1)
        return scores, tables

    def descend(
        self, rows: np.ndarray, node: np.ndarray, feature: np.ndarray, threshold: np.ndarray | None
    ) -> tuple:
        """Each row's branch at its node's test (``feature[node]``, τ or NaN for a categorical
        test; None: no numeric feature): ``x > τ`` (1) or not (0), or the value's branch; and
        which rows miss the value (None when no training value is missing)."""
        feature, lost = feature[node], None
        if self.order:  # a numeric test sends x > τ right (a categorical test's τ is NaN: never)
            x, threshold = self.values[rows, feature], threshold[node]
            branch = x > threshold
            lost = np.isnan(x) if self.lost is not None else None
        if len(self.categorical):  # a categorical test: the value's branch (−1: missing)
            code = self.codes[rows, feature]
            if self.order:
                categorical = np.isnan(threshold)
                branch = np.where(categorical, code, branch)
                lost = None if lost is None else np.where(categorical, code < 0, lost)
            else:
                branch, lost = code, code < 0 if self.lost is not None else None
        return branch, lost


class LevelTables:
    """The count tables of one level's candidate tests, read one (node, feature) at a time."""

    def __init__(self, training: Training):
        self.training, self.position, self.numeric = training, training.position, training.numeric_position

    def __call__(self, i: int, j: int) -> tuple[list[str], np.ndarray, int, float | None]:
        """``(branches, counts, missing rows, τ)`` of feature ``j``'s test at node ``i``."""
        if j in self.position:
            branches, f = self.training.branches[j], self.position[j]
            return branches, self.known[i, f, : len(branches)], int(self.missing[i, f]), None
        f = self.numeric[j]
        b, missing = int(self.best[i, f]), int(self.lost[i, f])
        if b < 0:
            return ["", ""], np.zeros((2, self.training.n_classes), np.int64), missing, None
        tau = float(self.threshold[b])
        return threshold_branches(tau, *self.gap[b].tolist()), self.counts[b], missing, tau

    def thresholds(self, chosen: np.ndarray) -> np.ndarray:
        """``[τ, low, high]`` of each node's test on feature ``chosen[i]`` (NaN: categorical or none)."""
        out = np.full((len(chosen), 3), np.nan)
        f = np.where(chosen >= 0, self.numeric[chosen], -1)
        on = (f >= 0).nonzero()[0]
        if len(on):
            b = self.best[on, f[on]]
            on, b = on[b >= 0], b[b >= 0]
            out[on, 0], out[on, 1:] = self.threshold[b], self.gap[b]
        return out
