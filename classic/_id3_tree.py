"""The grown ID3 tree: as flat arrays, as the :class:`Node` objects a reader walks, and prediction.

:class:`classic.id3.ID3` grows its tree one level at a time straight into a :class:`FlatTree`
(one entry per node, ids in the order the nodes are made: breadth first, children in branch
order), as scikit-learn keeps ``tree_``; the nodes (``root_``) and the splits (``steps_``) are
built from these arrays when first asked for. ``classic.id3`` re-exports ``Node`` and ``SplitStep``.

:class:`Router` predicts: every row sent down the tree's arrays at once, one level per step. A
leaf sends a row to itself, so no row leaves the arrays before the last step; a value the node
has no child for (or never seen) sends it to the node's *stop copy*, a leaf with the node's
distribution. A missing value follows every branch training rows took (weighted by their
share, or not) or only the majority branch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from classic._id3_engine import threshold_branches
from classic.criteria import SplitScore, impurity

SPREAD = ("fractional", "branch")  # the rules under which a missing value follows every branch


class FlatTree:
    """Nodes as arrays: ``parent``, ``slot`` (its branch at the parent), ``depth``, ``counts[node,
    class]``, and the test: ``feature`` (−1: a leaf), ``threshold`` (NaN: categorical), the values τ
    lies between (``low``, ``high``), ``step``; per branch slot ``child`` (−1: none) and ``share``
    (its part of the known-value rows). ``labels()`` and ``sources()`` follow from them.

    Growth hands over each level's pieces (``add``, ``split``, ``link``); ``flush`` writes them
    into the arrays at once (after growth, or when the nodes are read meanwhile).
    """

    def __init__(self, n_classes: int, width: int) -> None:
        self.size, self.width = 0, width
        self.parent = self.slot = self.depth = self.feature = self.step = np.zeros(0, np.int64)
        self.threshold = self.low = self.high = np.zeros(0)
        self.counts = np.zeros((0, n_classes), np.int64)
        self.child, self.share = np.zeros((0, width), np.int64), np.zeros((0, width))
        self.pruned = np.zeros(0, bool)
        self._made: list[tuple] = []
        self._tests: list[tuple] = []
        self._links: list[tuple] = []

    def add(self, parent: np.ndarray, slot: np.ndarray, counts: np.ndarray, depth: Any) -> np.ndarray:
        """New nodes at ``depth`` (one for all, or each one's; children of ``parent``, or the root when
        −1); returns their ids."""
        start = self.size
        self.size += len(parent)
        self._made.append((parent, slot, counts, depth))
        return np.arange(start, self.size)

    def split(self, at: np.ndarray, feature: np.ndarray, tests: np.ndarray | None, share: np.ndarray) -> None:
        """The nodes ``at`` test ``feature``: ``tests`` rows ``[τ, low, high]`` (None: categorical
        tests), ``share`` each branch's part of the known-value rows."""
        self._tests.append((at, feature, tests, share))

    def link(self, parent: np.ndarray, slot: np.ndarray, children: np.ndarray) -> None:
        """``children[i]`` is the child of ``parent[i]`` in branch ``slot[i]``."""
        self._links.append((parent, slot, children))

    def flush(self) -> FlatTree:
        """Writes what growth handed over into the arrays; returns the tree."""
        if self._made:
            new = self.size - len(self.parent)
            parent, slot, counts, depth = zip(*self._made, strict=True)
            self.parent = np.concatenate([self.parent, *parent])
            self.slot = np.concatenate([self.slot, *slot])
            self.counts = np.concatenate([self.counts, *counts])
            lengths = [len(p) for p in parent]
            if all(isinstance(d, int) for d in depth):  # one np.repeat rather than an array a level
                each = [np.repeat(depth, lengths)]
            else:
                each = [
                    np.full(n, d) if isinstance(d, int) else d for d, n in zip(depth, lengths, strict=True)
                ]
            self.depth = np.concatenate([self.depth, *each])
            none, unknown = np.full(new, -1), np.full(new, np.nan)
            for name, fill in (("feature", none), ("step", none), ("threshold", unknown), ("low", unknown)):
                setattr(self, name, np.concatenate([getattr(self, name), fill]))
            self.high = np.concatenate([self.high, unknown])
            self.child = np.concatenate([self.child, np.full((new, self.width), -1)])
            self.share = np.concatenate([self.share, np.zeros((new, self.width))])
            self.pruned = np.concatenate([self.pruned, np.zeros(new, bool)])
            self._made = []
        if self._tests:
            at = np.concatenate([test[0] for test in self._tests])
            self.feature[at] = np.concatenate([test[1] for test in self._tests])
            self.share[at] = np.concatenate([test[3] for test in self._tests])
            if self._tests[0][2] is not None:  # (None at every level when no feature is numeric)
                tests = np.concatenate([test[2] for test in self._tests])
                self.threshold[at], self.low[at], self.high[at] = tests.T
            splits = self.feature >= 0  # the splits in the order they were made: by id
            self.step = np.where(splits, splits.cumsum() - 1, -1)
            self._tests = []
        if self._links:
            parent, slot, children = (np.concatenate(part) for part in zip(*self._links, strict=True))
            self.child[parent, slot] = children
            self._links = []
        return self

    def sources(self) -> np.ndarray:
        """Whose counts answer at each node: its own, or its parent's where no training row came."""
        ids = np.arange(self.size)
        return np.where(self.counts[: self.size].any(axis=1), ids, self.parent[: self.size])

    def labels(self) -> np.ndarray:
        """Each node's majority class (ties: the first), its parent's where no training row came."""
        return np.argmax(self.counts[self.sources()], axis=1)

    def reachable(self) -> np.ndarray:
        """Which nodes hang from the root (pruning cuts subtrees off; ids do not change)."""
        if not self.pruned[: self.size].any():
            return np.ones(self.size, bool)
        reach = np.zeros(self.size, bool)
        reach[0] = True
        for depth in range(1, int(self.depth[: self.size].max(initial=0)) + 1):
            at = np.flatnonzero(self.depth[: self.size] == depth)
            up = self.parent[at]
            reach[at] = reach[up] & (self.child[up, self.slot[at]] == at)
        return reach

    def nodes(self, classes: list[str], features: list[str], branches: list[list[str] | None]) -> list[Node]:
        """The tree as :class:`Node` objects, by id; ``branches``: a categorical feature's values
        (None: numeric, whose branches are ``"<= τ"`` and ``"> τ"``)."""
        n = self.size
        counts, depth, feature, parent, slot, step, threshold, low, high, share, pruned = (
            getattr(self, a)[:n].tolist()
            for a in "counts depth feature parent slot step threshold low high share pruned".split()
        )
        label, source = self.labels().tolist(), self.sources().tolist()
        nodes: list[Node] = []
        keys: dict[int, list[str]] = {}
        for i in range(n):
            src, f, p = source[i], feature[i], parent[i]
            node = Node(i, depth[i], dict(zip(classes, counts[i], strict=True)), classes[label[i]])
            node.source, node.pruned = None if src == i else nodes[src], pruned[i]
            node.step = None if step[i] < 0 else step[i]
            if f >= 0:
                node.feature, node.feature_index = features[f], f
                node.threshold = None if threshold[i] != threshold[i] else threshold[i]
            nodes.append(node)
            if p >= 0 and feature[p] >= 0:
                if p not in keys:
                    tau, names = nodes[p].threshold, branches[feature[p]]
                    if names is None:  # a numeric test (one with no threshold is a drawn tree's)
                        names = ["", ""] if tau is None else threshold_branches(tau, low[p], high[p])
                    keys[p] = names
                key = keys[p][slot[i]]
                nodes[p].children[key], nodes[p].shares[key] = node, share[p][slot[i]]
                node.parent, node.branch = nodes[p], key
        return nodes

    def make_leaf(self, node: int) -> None:
        """Prune: the node answers with its own counts; its subtree is no longer reachable."""
        self.feature[node], self.threshold[node] = -1, np.nan
        self.child[node], self.share[node], self.pruned[node] = -1, 0.0, True


@dataclass(eq=False)
class Node:
    """One node: the training rows that reached it and, unless a leaf, its test.

    ``counts`` maps every class to its training rows here; ``label`` is the majority (a node
    no row reached takes its parent's); ``feature`` is the feature tested (None at a leaf) and
    ``threshold`` its τ for a numeric test (None for a categorical one); ``children`` maps each
    branch (a value, or ``"<= τ"`` / ``"> τ"``) to a child; ``shares`` is the fraction of the
    known-value training rows that went each way; ``step`` indexes the tree's ``steps_``;
    ``parent`` and ``branch`` lead back up (``parent.children[branch]`` is the node unless
    pruning cut it off).
    """

    id: int
    depth: int
    counts: dict[str, int]
    label: str
    source: Node | None = field(default=None, repr=False)  # whose counts answer here (a parent's if empty)
    feature: str | None = None
    feature_index: int | None = None
    threshold: float | None = None
    children: dict[str, Node] = field(default_factory=dict)
    shares: dict[str, float] = field(default_factory=dict)
    step: int | None = None
    pruned: bool = False
    parent: Node | None = field(default=None, repr=False)
    branch: str | None = None

    @property
    def n_samples(self) -> int:
        return sum(self.counts.values())

    @property
    def votes(self) -> np.ndarray:
        """The class counts a record reaching this node gets (the parent's if no row came here)."""
        return np.array(list((self.source or self).counts.values()), dtype=np.float64)

    @property
    def proba(self) -> np.ndarray:
        """The class frequencies a record reaching this node gets (the parent's if no row came here)."""
        return self.votes / self.votes.sum()

    @property
    def entropy(self) -> float:
        """Entropy of the training labels here, in bits."""
        return float(impurity(list(self.counts.values())))

    @property
    def gini(self) -> float:
        """Gini impurity of the training labels here."""
        return float(impurity(list(self.counts.values()), "gini"))

    @property
    def is_leaf(self) -> bool:
        return self.feature is None

    def condition(self, branch: str) -> str:
        """The test leading to the child ``branch``: "Outlook = Sunny" or "x1 <= 0.5"."""
        return f"{self.feature} {branch}" if self.threshold is not None else f"{self.feature} = {branch}"

    def __repr__(self) -> str:
        test = f"feature={self.feature!r}, children={list(self.children)}" if self.feature else ""
        return f"Node(id={self.id}, {test or f'label={self.label!r}'}, counts={self.counts})"


@dataclass(eq=False)
class SplitStep:
    """One split made while growing: the node, its rows and every candidate's count table."""

    node: Node
    rows: np.ndarray
    columns: list[int]
    chosen: str
    table: Any = field(repr=False)  # table(j) → (branches, counts, missing rows, τ) of feature j
    tree: Any = field(repr=False)  # the ID3 grown

    @property
    def features(self) -> list[str]:
        return [self.tree.feature_names_[j] for j in self.columns]

    def candidates(self) -> list[SplitScore]:
        """The split table: one :class:`SplitScore` per candidate feature, in column order."""
        classes, criterion = [str(c) for c in self.tree.classes_], self.tree.criterion
        return [
            SplitScore(name, branches, classes, counts, missing, criterion, 2.0, t, name == self.chosen)
            for name, (branches, counts, missing, t) in zip(
                self.features, map(self.table, self.columns), strict=True
            )
        ]


def split_steps(model: Any, levels: list[tuple], nodes: list[Node]) -> list[SplitStep]:
    """The ``SplitStep`` of each split, from what each level recorded while growing."""
    steps = []
    for tables, rows, node, chosen, ids, available in levels:
        ordered = rows[np.lexsort((rows, node))]  # each node's rows, in row order
        ends = np.cumsum(np.bincount(node, minlength=len(ids))).tolist()
        for i in np.flatnonzero(chosen >= 0).tolist():
            here, columns = ordered[ends[i - 1] if i else 0 : ends[i]], np.flatnonzero(available[i]).tolist()
            name = model.feature_names_[chosen[i]]  # (pruning may have made the node a leaf since)
            steps.append(SplitStep(nodes[ids[i]], here, columns, name, partial(tables, i), model))
    return steps


# --------------------------------------------------------------------------------------------
# Prediction: every row sent down the arrays at once
# --------------------------------------------------------------------------------------------


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
            # Each row follows one path: as a leaf, a node answers its own majority for the rows
            # that reach it, so the change is counted for every node at once (no re-routing).
            rows = np.concatenate([rows for rows, _ in visits])
            nodes = np.concatenate([nodes for _, nodes in visits])
            table = self.votes if rule == "branch" else self.proba
            gain = (np.argmax(table[nodes], axis=1) == truth[rows]).astype(np.int64) - correct[rows]
            inner = self.feature[nodes] >= 0
            change = np.bincount(nodes[inner], weights=gain[inner], minlength=len(self.feature))
            return {int(node): int(change[node]) for node in np.unique(nodes[inner])}
        return self._changes_by_rerouting(codes, values, truth, rule, visits, correct)

    def _changes_by_rerouting(self, codes, values, truth, rule: str, visits: list, correct) -> dict:
        """``changes_as_leaf`` where rows spread over several branches: each node made a leaf in
        turn and its rows routed again."""
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
