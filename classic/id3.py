"""ID3: grow a decision tree by asking, at each node, the question that tells most about the label.

ID3 (Quinlan, 1986) builds a tree over categorical features from the top down. At a node
holding the training rows ``S`` it scores every feature ``A`` not yet used on the path by its
information gain, the drop in label entropy that knowing ``A`` brings:

    H(S) = −Σ_c p_c log2 p_c            (0 · log 0 = 0)
    Gain(S, A) = H(S) − Σ_v |S_v| / |S| · H(S_v)

where ``S_v`` holds the rows with ``A = v``. The node splits on the feature of largest gain,
one child per value, and the children are grown the same way. A node becomes a leaf, labelled
by majority vote, when it is pure, when no feature is left, at the depth limit, or when no
feature gains more than ``min_gain``. Two variants change the score: the gain ratio
``Gain / SplitInfo`` with ``SplitInfo(S, A) = −Σ_v |S_v|/|S| log2 |S_v|/|S|`` (C4.5's cure for
features with many values), and the Gini impurity ``G(S) = 1 − Σ_c p_c²`` in place of ``H``.

Missing values (``"?"``) can be one more category, or be handled as C4.5 does: a feature's gain
is computed on the rows where it is known and multiplied by the fraction known; at prediction
a missing value follows every child, weighted by the share of training rows that went each way
(or only the child most rows took). Reduced-error pruning replaces subtrees by majority leaves
while accuracy on held-out rows does not drop; ``rules`` reads the tree as IF … THEN rules;
``to_dot`` draws it for graphviz.

The decision-tree post this lab follows subtracts the children's entropies without the weights
``|S_v|/|S|`` although its own definition has them; ``unweighted_information_gain`` keeps that
version only so that the page can show what it would have chosen.
"""

from __future__ import annotations

import csv
import html
import io
import itertools
import re
import shutil
import subprocess
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from classic.datasets import RandomState
from classic.evaluation import learning_curve, stratified_folds, train_test_split

Record = Sequence[str]
Layout = dict[str, dict[str, "Layout"]]

CRITERIA = ("entropy", "gain_ratio", "gini")
MISSING = ("branch", "value", "majority")
TOLERANCE = 1e-12

# Okabe–Ito colours (as in classic.plots) mixed 70 % with white: leaf fills that keep the
# labels readable.
LEAF_FILLS = ["#B3D5E8", "#F8E2B3", "#B3E2D5", "#F0D7E5", "#CCE9F9", "#F2CFB3", "#FBF8C6"]
PATH_COLOUR = "#D55E00"
FOCUS_COLOUR = "#0072B2"


# --------------------------------------------------------------------------------------------
# Impurity and gain, one feature at a time
# --------------------------------------------------------------------------------------------


def _impurity(counts: np.ndarray, kind: str = "entropy") -> np.ndarray:
    """Entropy (bits) or Gini impurity of each row of a class-count table (0 for empty rows)."""
    counts = np.asarray(counts, dtype=np.float64)
    totals = counts.sum(axis=-1, keepdims=True)
    p = np.divide(counts, totals, out=np.zeros_like(counts), where=totals > 0)
    if kind == "gini":
        return np.where(totals[..., 0] > 0, 1.0 - (p * p).sum(axis=-1), 0.0)
    logs = np.log2(p, out=np.zeros_like(p), where=p > 0)
    return np.abs(-(p * logs).sum(axis=-1))


def _contingency(values: Any, labels: Any) -> np.ndarray:
    """Counts ``T[v, c]`` of rows with feature value ``v`` and label ``c``."""
    values, labels = np.asarray(values), np.asarray(labels)
    if values.shape != labels.shape or values.ndim != 1:
        raise ValueError(
            f"values and labels must be 1-D of the same length, got {values.shape} and {labels.shape}"
        )
    _, v = np.unique(values, return_inverse=True)
    _, c = np.unique(labels, return_inverse=True)
    table = np.zeros((v.max(initial=-1) + 1, c.max(initial=-1) + 1))
    np.add.at(table, (v, c), 1)
    return table


def entropy(labels: Any) -> float:
    """Shannon entropy of the labels in bits: ``−Σ_c p_c log2 p_c`` (0 for no labels)."""
    _, counts = np.unique(np.asarray(labels), return_counts=True)
    return float(_impurity(counts))


def gini(labels: Any) -> float:
    """Gini impurity of the labels: ``1 − Σ_c p_c²``, the chance two random draws differ."""
    _, counts = np.unique(np.asarray(labels), return_counts=True)
    return float(_impurity(counts, "gini"))


def conditional_entropy(values: Any, labels: Any) -> float:
    """``H(y | A) = Σ_v |S_v|/|S| · H(S_v)``: the entropy left once the feature is known."""
    table = _contingency(values, labels)
    sizes = table.sum(axis=1)
    return float(sizes @ _impurity(table) / sizes.sum())


def subset_entropies(values: Any, labels: Any) -> list[tuple[str, int, float]]:
    """``(v, |S_v|, H(S_v))`` for each value ``v`` of a feature: the terms of ``H(y | A)``."""
    values, labels = np.asarray(values).astype(str), np.asarray(labels)
    return [(str(v), int((values == v).sum()), entropy(labels[values == v])) for v in np.unique(values)]


def information_gain(values: Any, labels: Any) -> float:
    """``Gain = H(S) − Σ_v |S_v|/|S| · H(S_v)``, each subset weighted by its share of rows."""
    return entropy(labels) - conditional_entropy(values, labels)


def unweighted_information_gain(values: Any, labels: Any) -> float:
    """The post's gain, ``H(S) − Σ_v H(S_v)``, with the weights |S_v|/|S| forgotten.

    Kept only to show what the post's code would have chosen; it is not a sound score (it
    can be negative, and it punishes features for every extra value).
    """
    return entropy(labels) - float(_impurity(_contingency(values, labels)).sum())


def split_information(values: Any) -> float:
    """``SplitInfo = −Σ_v |S_v|/|S| log2 |S_v|/|S|``: the entropy of the split itself."""
    _, counts = np.unique(np.asarray(values), return_counts=True)
    return float(_impurity(counts))


def gain_ratio(values: Any, labels: Any) -> float:
    """``Gain / SplitInfo`` (0 when the feature has a single value, so SplitInfo = 0)."""
    info = split_information(values)
    return information_gain(values, labels) / info if info > TOLERANCE else 0.0


def gini_gain(values: Any, labels: Any) -> float:
    """The drop in Gini impurity: ``G(S) − Σ_v |S_v|/|S| · G(S_v)``."""
    table = _contingency(values, labels)
    sizes = table.sum(axis=1)
    return gini(labels) - float(sizes @ _impurity(table, "gini") / sizes.sum())


def unweighted_choice(X: Any, y: Any, feature_names: Sequence[str]) -> tuple[str, dict[str, float]]:
    """The feature the post's unweighted gain picks on these rows, and every feature's score."""
    X = np.asarray(X, dtype=str)
    scores = {name: unweighted_information_gain(X[:, j], y) for j, name in enumerate(feature_names)}
    return max(scores, key=scores.get), scores


def rows_with_missing(X: Any, missing_value: str = "?") -> np.ndarray:
    """A boolean mask of the rows holding at least one missing value."""
    return (np.asarray(X, dtype=str) == missing_value).any(axis=1)


# --------------------------------------------------------------------------------------------
# The tree
# --------------------------------------------------------------------------------------------


@dataclass(eq=False)
class Node:
    """One node of the tree: the training rows that reached it and, unless a leaf, its test.

    ``counts`` maps every class to the number of training rows here; ``label`` is the
    majority (a node no training row reached takes its parent's majority); ``feature`` is
    the feature tested (None at a leaf); ``children`` maps each value to a child;
    ``shares`` is the fraction of the known-value training rows that went to each child.
    """

    id: int
    depth: int
    counts: dict[str, int]
    label: str
    proba: np.ndarray = field(repr=False)
    feature: str | None = None
    feature_index: int | None = None
    children: dict[str, Node] = field(default_factory=dict)
    shares: dict[str, float] = field(default_factory=dict)
    step: int | None = None
    pruned: bool = False

    @property
    def n_samples(self) -> int:
        return sum(self.counts.values())

    @property
    def entropy(self) -> float:
        """Entropy of the training labels here, in bits."""
        return float(_impurity(np.array(list(self.counts.values()))))

    @property
    def gini(self) -> float:
        """Gini impurity of the training labels here."""
        return float(_impurity(np.array(list(self.counts.values())), "gini"))

    @property
    def is_leaf(self) -> bool:
        return self.feature is None

    def __repr__(self) -> str:
        test = (
            f"feature={self.feature!r}, children={list(self.children)}"
            if self.feature
            else f"label={self.label!r}"
        )
        return f"Node(id={self.id}, {test}, counts={self.counts})"


@dataclass(frozen=True)
class Candidate:
    """One row of a split table: how good a feature would be at a node.

    ``before`` is the node's impurity (entropy, or Gini for ``criterion="gini"``), ``after``
    the children's weighted impurity, ``gain = before − after``, and ``score`` what the
    criterion compares (the gain, the gain ratio ``gain / split_information``, or the Gini gain).
    """

    feature: str
    before: float
    after: float
    gain: float
    split_information: float
    score: float
    chosen: bool


@dataclass(eq=False)
class SplitStep:
    """One split made while growing: the node, its training rows and every candidate's score.

    The arrays hold one entry per feature of the table; ``columns`` lists the candidates
    (the features not yet tested on the path), and ``candidates()`` reads the table.
    """

    node: Node
    rows: np.ndarray
    columns: list[int]
    chosen: str
    before: float
    gain: np.ndarray = field(repr=False)
    score: np.ndarray = field(repr=False)
    value_counts: np.ndarray = field(repr=False)
    tree: ID3 = field(repr=False)

    @property
    def features(self) -> list[str]:
        return [self.tree.feature_names_[j] for j in self.columns]

    @property
    def after(self) -> np.ndarray:
        """Each feature's weighted impurity after the split (``before − gain``)."""
        return self.before - self.gain

    @property
    def split_information(self) -> np.ndarray:
        """Each feature's split information, from the rows per value (known values only)."""
        return self.tree._split_information(self.value_counts)

    def candidates(self) -> list[Candidate]:
        """The split table, one row per candidate feature, in column order."""
        names, after, split_information = self.tree.feature_names_, self.after, self.split_information
        return [
            Candidate(
                names[j],
                self.before,
                float(after[j]),
                float(self.gain[j]),
                float(split_information[j]),
                float(self.score[j]),
                names[j] == self.chosen,
            )
            for j in self.columns
        ]


def _as_table(X: Any) -> np.ndarray:
    if not (isinstance(X, np.ndarray) and X.dtype.kind == "U"):
        X = np.asarray(X, dtype=object).astype(str)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (rows × features), got an array of shape {X.shape}")
    return X


def _encode_columns(X: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Each column's sorted values and the table of codes (one sort of the whole table)."""
    if X.size == 0:
        return [np.array([], dtype=str) for _ in range(X.shape[1])], np.zeros(X.shape, np.int64)
    X = X.astype(f"U{max(int(np.char.str_len(X).max()), 1)}")  # the narrowest type sorts fastest
    values, codes = np.unique(X, return_inverse=True)
    codes = codes.reshape(X.shape)
    features = np.arange(X.shape[1])
    present = np.zeros((X.shape[1], len(values)), dtype=bool)
    present[features[None, :], codes] = True
    local = np.cumsum(present, axis=1) - 1  # global code → the code among that column's values
    return [values[row] for row in present], local[features[None, :], codes].astype(np.int64)


class ID3:
    """A decision tree over categorical features, grown by information gain (Quinlan's ID3).

    Parameters
    ----------
    criterion : {"entropy", "gain_ratio", "gini"}, default="entropy"
        The split score: information gain, gain ratio (gain / split information, C4.5), or the
        drop in Gini impurity.
    max_depth : int or None, default=None
        The most tests on a path from the root; None grows until the other rules stop it.
    min_gain : float, default=0.0
        A node splits only when the best score exceeds this (0 means "any gain at all").
    missing : {"branch", "value", "majority"}, default="branch"
        What a ``missing_value`` means. "value": one more category. "branch": while growing,
        a feature's gain counts only the rows where it is known, times the fraction known, and
        rows with it missing go to the child most rows took; at prediction the record follows
        every child and the leaves' class distributions are added up, weighted by the share
        of training rows that went each way. "majority": like "branch" while growing; at
        prediction the record follows the child that most training rows took.
    missing_value : str, default="?"
        The marker of a missing value.

    Attributes
    ----------
    root_ : Node
        The root; every node has ``feature``, ``children``, ``counts`` and ``label``.
    classes_ : ndarray
        The labels, sorted.
    feature_names_ : list of str
    categories_ : list of ndarray
        The values seen for each feature during training, sorted.
    steps_ : list of SplitStep
        The splits in the order they were made (breadth first), with every candidate's score.
    n_nodes_, n_leaves_, depth_ : int
        Size of the tree (updated by ``prune``).

    Examples
    --------
    >>> from classic.datasets import load_play_tennis
    >>> X, y, names = load_play_tennis()
    >>> ID3().fit(X, y, names).root_.feature
    'Outlook'
    """

    def __init__(
        self,
        criterion: str = "entropy",
        max_depth: int | None = None,
        min_gain: float = 0.0,
        missing: str = "branch",
        missing_value: str = "?",
    ) -> None:
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_gain = min_gain
        self.missing = missing
        self.missing_value = missing_value

    def __repr__(self) -> str:
        params = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._param_names())
        return f"{type(self).__name__}({params})"

    @classmethod
    def _param_names(cls) -> list[str]:
        return ["criterion", "max_depth", "min_gain", "missing", "missing_value"]

    # -- fitting -------------------------------------------------------------------------

    def _check_params(self) -> None:
        if self.criterion not in CRITERIA:
            raise ValueError(f"criterion must be one of {CRITERIA}, got {self.criterion!r}")
        if self.missing not in MISSING:
            raise ValueError(f"missing must be one of {MISSING}, got {self.missing!r}")
        if self.max_depth is not None and (int(self.max_depth) != self.max_depth or self.max_depth < 1):
            raise ValueError(f"max_depth must be None or an integer >= 1, got {self.max_depth!r}")
        if not np.isfinite(self.min_gain) or self.min_gain < 0:
            raise ValueError(f"min_gain must be a finite number >= 0, got {self.min_gain!r}")
        if not isinstance(self.missing_value, str):
            raise ValueError(f"missing_value must be a string, got {self.missing_value!r}")

    def fit(self, X: Any, y: Any, feature_names: Sequence[str] | None = None) -> ID3:
        """Grow the tree on categorical rows ``X`` (strings) with labels ``y``; returns self."""
        return self._fit(X, y, feature_names, layout=None)

    def fit_layout(self, X: Any, y: Any, layout: Layout, feature_names: Sequence[str] | None = None) -> ID3:
        """Grow a tree of a given shape (a hand-drawn one) instead of choosing splits by score.

        ``layout`` names the test at the root and, per value, the layout below it:
        ``{"Wind": {"Low": {"Temperature": {}}}}`` tests Wind at the root and Temperature under
        Wind = Low; every other child is a leaf. Counts, labels and the split tables are filled
        from the data exactly as ``fit`` does, so the two trees can be compared.
        """
        return self._fit(X, y, feature_names, layout=layout)

    def _fit(self, X: Any, y: Any, feature_names: Sequence[str] | None, layout: Layout | None) -> ID3:
        self._check_params()
        X = _as_table(X)
        y = np.asarray(y).astype(str)
        if y.ndim != 1 or len(y) != len(X):
            raise ValueError(f"y must be 1-D with one label per row of X ({len(X)}), got shape {y.shape}")
        if len(y) == 0:
            raise ValueError("X and y are empty: ID3 needs at least one training row")
        names = (
            [f"x{j}" for j in range(X.shape[1])] if feature_names is None else [str(n) for n in feature_names]
        )
        if len(names) != X.shape[1] or len(set(names)) != len(names):
            raise ValueError(f"feature_names must be {X.shape[1]} distinct names, got {names!r}")
        self.feature_names_ = names
        self.n_features_in_ = X.shape[1]
        self.classes_, y_codes = np.unique(y, return_inverse=True)
        self._class_names = [str(c) for c in self.classes_]
        self.categories_, codes = _encode_columns(X)
        self._grow(codes, y_codes.astype(np.int64), layout)
        return self

    def _make_node(self, counts: list[int], depth: int, parent: Node | None) -> Node:
        """A node with these class counts (one no row reached takes its parent's majority)."""
        size = sum(counts)
        node = Node(
            id=len(self._nodes),
            depth=depth,
            counts=dict(zip(self._class_names, counts, strict=True)),
            # ties go to the first class in sorted order
            label=self._class_names[counts.index(max(counts))] if size else parent.label,
            proba=np.array(counts) / size if size else parent.proba,
        )
        self._nodes.append(node)
        return node

    def _split_information(self, value_counts: np.ndarray) -> np.ndarray:
        """Each feature's ``−Σ_v p_v log2 p_v`` from its rows per value, in ``n·H`` form."""
        known = np.add.reduceat(value_counts, self._starts)
        spread = self._xlogx[known] - np.add.reduceat(self._xlogx[value_counts], self._starts)
        info = spread / np.maximum(known, 1)
        info[info < TOLERANCE] = 0.0
        return info

    def _split_scores(self, rows: np.ndarray, y_rows: np.ndarray) -> tuple[float, np.ndarray, ...]:
        """At one node: impurity before, and every feature's gain, score and rows per value.

        Impurities are handled as ``n · impurity`` of integer counts: ``n·H = n log2 n −
        Σ_c n_c log2 n_c`` and ``n·G = n − Σ_c n_c² / n``, so with a lookup table of ``k log2 k``
        the whole table costs a few array operations.
        """
        n_classes, n = len(self.classes_), len(y_rows)
        # One bincount gives every feature's value × class table: cell (offset_j + value) · K + class.
        index = self._cells[rows] + y_rows[:, None]
        table = np.bincount(index.ravel(), minlength=self._n_values * n_classes)
        table = table.reshape(self._n_values, n_classes)
        if self._any_missing:
            table[self._is_missing] = 0
        sizes = table.sum(axis=1)
        parent = np.add.reduceat(table, self._starts, axis=0)  # known rows' classes, per feature
        known = parent.sum(axis=1)
        xlogx = self._xlogx
        if self.criterion == "gini":
            spread = sizes - np.divide(
                (table * table).sum(axis=1), sizes, out=np.zeros(len(sizes)), where=sizes > 0
            )
            parent_spread = known - np.divide(
                (parent * parent).sum(axis=1), known, out=np.zeros(len(known)), where=known > 0
            )
        else:
            spread = xlogx[sizes] - xlogx[table].sum(axis=1)
            parent_spread = xlogx[known] - xlogx[parent].sum(axis=1)
        # Gain = (known/n)·(H(S_known) − Σ_v |S_v|/|S_known| H(S_v)) = (spread lost) / n.
        gain = (parent_spread - np.add.reduceat(spread, self._starts)) / n
        gain[gain < TOLERANCE] = 0.0
        if self.criterion == "gain_ratio":
            split_info = self._split_information(sizes)
            score = np.divide(gain, split_info, out=np.zeros_like(gain), where=split_info > 0)
        else:
            score = gain
        if self._any_missing:
            counts = np.bincount(y_rows, minlength=n_classes)
            before = (
                float(xlogx[n] - xlogx[counts].sum())
                if self.criterion != "gini"
                else n - float(counts @ counts) / n
            )
            before /= n
        else:
            before = float(parent_spread[0]) / n
        return before, gain, score, sizes, table

    def _choose(
        self, score: np.ndarray, available: list[int], node: Node, layout: Layout | None
    ) -> int | None:
        if layout is not None:
            if not layout:
                return None
            (name,) = layout
            return self.feature_names_.index(name)
        if not available or len([n for n in node.counts.values() if n]) <= 1:
            return None
        if self.max_depth is not None and node.depth >= self.max_depth:
            return None
        if score is None:  # asked before scoring: could this node split at all?
            return -1
        scores = score[available]
        best = scores.max()
        if best <= self.min_gain + TOLERANCE:
            return None
        return available[int(np.argmax(scores >= best - 1e-9))]  # ties: the first column

    def _check_layout(self, layout: Layout, names: Sequence[str]) -> None:
        if not isinstance(layout, dict) or len(layout) > 1:
            raise ValueError(f"a layout is {{feature: {{value: layout}}}} with one feature, got {layout!r}")
        for name, below in layout.items():
            if name not in names:
                raise ValueError(f"layout names feature {name!r}; the features are {list(names)}")
            values = self.categories_[self.feature_names_.index(name)]
            for value, sub in below.items():
                if value not in values:
                    raise ValueError(f"layout gives {name} = {value!r}; its values are {list(values)}")
                self._check_layout(sub, [n for n in names if n != name])

    def _grow(self, codes: np.ndarray, y: np.ndarray, layout: Layout | None) -> None:
        sizes = np.array([len(values) for values in self.categories_], dtype=np.int64)
        self._offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self._starts = self._offsets
        self._n_values = int(sizes.sum())
        self._feature_of_value = np.repeat(np.arange(len(sizes)), sizes)
        all_values = np.concatenate(self.categories_) if len(sizes) else np.array([], dtype=str)
        self._is_missing = (all_values == self.missing_value) & (self.missing != "value")
        self._any_missing = bool(self._is_missing.any())
        self._cells = ((codes + self._offsets) * len(self.classes_)).astype(np.intp)
        self._known = [
            ~self._is_missing[start : start + size] for start, size in zip(self._offsets, sizes, strict=True)
        ]
        if layout is not None:
            self._check_layout(layout, self.feature_names_)
        k = np.arange(1, len(y) + 1, dtype=np.float64)
        self._xlogx = np.concatenate([[0.0], k * np.log2(k)])
        self._nodes: list[Node] = []
        self.steps_: list[SplitStep] = []
        self.root_ = self._make_node(np.bincount(y, minlength=len(self.classes_)).tolist(), 0, None)
        # A queue item holds the parent's rows and column; a child's rows are only picked out
        # when it may split (most children are pure leaves).
        root_rows = np.arange(len(y))
        queue = deque(
            [(self.root_, root_rows, np.zeros(len(y), np.int64), 0, list(range(codes.shape[1])), layout)]
        )
        while queue:
            node, parent_rows, parent_column, code, available, sub_layout = queue.popleft()
            if node.n_samples == 0 or (
                sub_layout is None and self._choose(None, available, node, None) is None
            ):
                continue
            rows = parent_rows[parent_column == code]
            y_rows = y[rows]
            before, gain, score, value_counts, table = self._split_scores(rows, y_rows)
            j = self._choose(score, available, node, sub_layout)
            if j is None:
                continue
            node.feature, node.feature_index, node.step = self.feature_names_[j], j, len(self.steps_)
            self.steps_.append(
                SplitStep(node, rows, available, node.feature, before, gain, score, value_counts, self)
            )
            rest = [a for a in available if a != j]
            column = codes[rows, j]
            values, known = self.categories_[j], self._known[j]
            codes_known = np.flatnonzero(known).tolist()
            child_counts = table[self._offsets[j] : self._offsets[j] + len(values)].tolist()
            sizes = [sum(child_counts[code]) for code in codes_known]
            total = sum(sizes)
            if total < len(rows):  # rows missing this value go with the majority: counts stay whole
                majority = codes_known[sizes.index(max(sizes))]
                lost = [
                    a - sum(c)
                    for a, c in zip(node.counts.values(), zip(*child_counts, strict=True), strict=True)
                ]
                child_counts[majority] = [a + b for a, b in zip(child_counts[majority], lost, strict=True)]
                column = np.where(known[column], column, majority)
            for code, size in zip(codes_known, sizes, strict=True):
                value = str(values[code])
                child = self._make_node(child_counts[code], node.depth + 1, node)
                node.children[value] = child
                node.shares[value] = size / max(total, 1)
                below = None if sub_layout is None else sub_layout[node.feature].get(value, {})
                queue.append((child, rows, column, code, rest, below))
        self._update_size()

    def _update_size(self) -> None:
        nodes = list(self._iter_nodes())
        self.n_nodes_ = len(nodes)
        self.n_leaves_ = sum(node.is_leaf for node in nodes)
        self.depth_ = max(node.depth for node in nodes)

    def _iter_nodes(self) -> Iterator[Node]:
        """Every node still in the tree, parents before children (depth first)."""
        stack = [self.root_]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(list(node.children.values())))

    # -- prediction ----------------------------------------------------------------------

    def _check_fitted(self) -> None:
        if not hasattr(self, "root_"):
            raise RuntimeError(f"this {type(self).__name__} is not fitted yet: call fit(X, y) first")

    def _records(self, X: Any) -> list[list[str]]:
        self._check_fitted()
        X = _as_table(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but the tree was fitted with {self.n_features_in_}"
            )
        return X.tolist()

    def _walk(self, node: Node, x: Record, weight: float = 1.0) -> Iterator[tuple[Node, float, bool]]:
        """The nodes a record visits as ``(node, weight, answers)``; ``answers`` marks where it stops."""
        while True:
            if node.is_leaf:
                yield node, weight, True
                return
            yield node, weight, False
            value = x[node.feature_index]
            if value == self.missing_value and self.missing != "value":
                if self.missing == "majority":
                    node = node.children[max(node.shares, key=node.shares.get)]
                    continue
                for child_value, share in node.shares.items():
                    if share > 0:
                        yield from self._walk(node.children[child_value], x, weight * share)
                return
            if value not in node.children:  # a value never seen here: this node's majority answers
                yield node, weight, True
                return
            node = node.children[value]

    def _distribution(self, x: Record) -> np.ndarray:
        total = np.zeros(len(self.classes_))
        for node, weight, answers in self._walk(self.root_, x):
            if answers:
                total += weight * node.proba
        return total

    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities, shape (n, n_classes), columns in ``classes_`` order.

        At a leaf, the training rows' class frequencies there; with a missing value under
        ``missing="branch"``, the share-weighted sum over every leaf reached.
        """
        records = self._records(X)
        return np.array([self._distribution(x) for x in records]).reshape(len(records), len(self.classes_))

    def predict(self, X: Any) -> np.ndarray:
        """The most probable class of each row."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def score(self, X: Any, y: Any) -> float:
        """Accuracy: the fraction of rows predicted correctly."""
        return float(np.mean(self.predict(X) == np.asarray(y).astype(str)))

    def decision_path(self, x: Record) -> list[Node]:
        """The nodes a record visits, root first (several branches when a value is missing)."""
        (record,) = self._records([list(x)])
        return [node for node, _, _ in self._walk(self.root_, record)]

    # -- pruning -------------------------------------------------------------------------

    def prune(self, X_val: Any, y_val: Any) -> ID3:
        """Reduced-error pruning on held-out rows; returns self.

        Repeatedly evaluate, for every internal node, the validation accuracy with that node
        turned into a leaf labelled by its majority; remove the one giving the highest
        accuracy (ties: the larger subtree), as long as accuracy does not drop (Mitchell,
        *Machine Learning*, 3.7.1: prune "until further pruning is harmful").
        """
        records = self._records(X_val)
        y_val = np.asarray(y_val).astype(str)
        if len(y_val) != len(records) or len(records) == 0:
            raise ValueError(
                f"X_val and y_val must be non-empty and of the same length, got {len(records)} and {len(y_val)}"
            )
        correct = self.predict(records) == y_val
        while True:
            reach: dict[int, list[int]] = {}
            for i, x in enumerate(records):
                for node in {id(n): n for n, _, _ in self._walk(self.root_, x)}.values():
                    reach.setdefault(node.id, []).append(i)
            best = None
            for node in self._iter_nodes():
                if node.is_leaf:
                    continue
                rows = reach.get(node.id, [])
                saved = node.feature, node.feature_index
                node.feature = node.feature_index = None
                now = self.predict([records[i] for i in rows]) == y_val[rows] if rows else np.array([], bool)
                node.feature, node.feature_index = saved
                change = int(now.sum()) - int(correct[rows].sum())
                size = sum(1 for _ in self._subtree(node))
                if change >= 0 and (best is None or (change, size) > best[:2]):
                    best = (change, size, node, rows, now)
            if best is None:
                break
            _, _, node, rows, now = best
            node.feature = node.feature_index = None
            node.children, node.shares, node.pruned = {}, {}, True
            correct[rows] = now
        self._update_size()
        return self

    @staticmethod
    def _subtree(node: Node) -> Iterator[Node]:
        stack = [node]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children.values())

    # -- reading the tree ----------------------------------------------------------------

    def conditions(self, node: Node) -> list[tuple[str, str]]:
        """The tests ``(feature, value)`` on the way from the root to ``node``."""
        self._check_fitted()
        stack = [(self.root_, [])]
        while stack:
            current, path = stack.pop()
            if current is node:
                return path
            stack.extend(
                (child, [*path, (current.feature, value)]) for value, child in current.children.items()
            )
        raise ValueError(f"{node!r} is not a node of this tree")

    def rules(self) -> list[str]:
        """One "IF feature = value AND … THEN label" per leaf, grouped by label (classes_ order)."""
        self._check_fitted()
        found: list[tuple[str, str]] = []

        def visit(node: Node, conditions: list[str]) -> None:
            if node.is_leaf:
                found.append((node.label, " AND ".join(conditions) or "TRUE"))
                return
            for value, child in node.children.items():
                visit(child, [*conditions, f"{node.feature} = {value}"])

        visit(self.root_, [])
        order = {str(c): i for i, c in enumerate(self.classes_)}
        found.sort(key=lambda rule: order[rule[0]])  # stable: depth-first order within a label
        return [f"IF {condition} THEN {label}" for label, condition in found]

    def to_dot(
        self,
        highlight: Record | None = None,
        splits: int | None = None,
        focus: int | None = None,
        rankdir: str = "TB",
        compact: bool = False,
    ) -> str:
        """The tree as graphviz DOT source.

        Internal nodes show the feature tested, the class counts and the entropy; edges the
        value; leaves the label (a dashed leaf: no training row had that value, so the
        parent's majority answers). ``highlight`` (a record) colours the nodes and edges it
        visits; ``splits`` draws the tree as it was after that many splits (step-by-step
        growth); ``focus`` (a node id) outlines one node, e.g. the node being split;
        ``rankdir`` "LR" lays the tree out from left to right (tall rather than wide);
        ``compact`` shows bare counts (in ``classes_`` order), no entropy, and wraps long names.
        """
        self._check_fitted()
        if rankdir not in ("TB", "LR"):
            raise ValueError(f"rankdir must be 'TB' or 'LR', got {rankdir!r}")
        visited = set()
        if highlight is not None:
            visited = {node.id for node in self.decision_path(highlight)}
        lines = [
            "digraph ID3 {",
            f'  graph [fontname="Helvetica", rankdir={rankdir}, nodesep=0.3, ranksep=0.45];',
            f'  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize={11 if compact else 14}, fillcolor=white];',
            f'  edge [fontname="Helvetica", fontsize={10 if compact else 13}];',
        ]
        colour = {str(c): LEAF_FILLS[i % len(LEAF_FILLS)] for i, c in enumerate(self.classes_)}

        def grown(node: Node) -> bool:
            return not node.is_leaf and (splits is None or (node.step is not None and node.step < splits))

        stack = [self.root_]
        while stack:
            node = stack.pop()
            if compact:
                counts = " / ".join(str(n) for n in node.counts.values())
            else:
                counts = " · ".join(f"{html.escape(c)} {n}" for c, n in node.counts.items())
                counts += f"<BR/>H = {node.entropy:.3f}"
            attributes = []
            if grown(node):
                head = f"<B>{_wrap(node.feature) if compact else html.escape(node.feature)}</B>"
                body = counts
            elif node.n_samples == 0:
                head = f"<B>{html.escape(node.label)}</B>"
                body = "no training rows:<BR/>parent's majority"
                attributes += ['style="rounded,filled,dashed"', f'fillcolor="{colour[node.label]}"']
            else:
                head = f"<B>{html.escape(node.label)}</B>" + (" (pruned)" if node.pruned else "")
                body = counts
                attributes.append(f'fillcolor="{colour[node.label]}"')
            if node.id in visited:
                attributes += [f'color="{PATH_COLOUR}"', "penwidth=3"]
            if node.id == focus:
                attributes += [f'color="{FOCUS_COLOUR}"', "penwidth=4"]
            label = f'<{head}<BR/><FONT POINT-SIZE="{10 if compact else 12}">{body}</FONT>>'
            lines.append(f"  n{node.id} [label={label}{''.join(', ' + a for a in attributes)}];")
            if not grown(node):
                continue
            for value, child in node.children.items():
                style = (
                    f', color="{PATH_COLOUR}", penwidth=3'
                    if child.id in visited and node.id in visited
                    else ""
                )
                lines.append(f'  n{node.id} -> n{child.id} [label="{_dot_string(value)}"{style}];')
            stack.extend(reversed(list(node.children.values())))
        lines.append("}")
        return "\n".join(lines)


def render_dot(dot: str, format: str = "svg", timeout: float = 20.0) -> bytes:
    """Lay out DOT source with graphviz's ``dot`` program (``format`` "svg" or "png").

    Raises ``FileNotFoundError`` when graphviz is not installed, ``ValueError`` on a bad format
    or when ``dot`` rejects the source.
    """
    if format not in ("svg", "png"):
        raise ValueError(f"format must be 'svg' or 'png', got {format!r}")
    program = shutil.which("dot")
    if program is None:
        raise FileNotFoundError("graphviz's dot program is not installed (apt-get install graphviz)")
    done = subprocess.run([program, f"-T{format}"], input=dot.encode(), capture_output=True, timeout=timeout)
    if done.returncode != 0:
        raise ValueError(f"dot could not draw the tree: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def _wrap(name: str, width: int = 14) -> str:
    """An HTML-escaped name broken into lines of about ``width`` characters after - _ or space."""
    lines, line = [], ""
    for piece in re.split(r"(?<=[-_ ])", name):
        if line and len(line) + len(piece) > width:
            lines.append(line)
            line = ""
        line += piece
    return "<BR/>".join(html.escape(part) for part in [*lines, line])


def _dot_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


class PrunedID3(ID3):
    """ID3 followed by reduced-error pruning on a stratified part of the training rows held out.

    Parameters are ID3's, plus ``validation_fraction`` (in (0, 1), default 0.25: the share of
    the rows kept for pruning) and ``random_state`` (which rows are held out).

    Attributes (besides ID3's): ``unpruned_n_nodes_``, ``validation_accuracy_before_``,
    ``validation_accuracy_`` (before and after pruning).
    """

    def __init__(
        self,
        criterion: str = "entropy",
        max_depth: int | None = None,
        min_gain: float = 0.0,
        missing: str = "branch",
        missing_value: str = "?",
        validation_fraction: float = 0.25,
        random_state: RandomState = None,
    ) -> None:
        super().__init__(criterion, max_depth, min_gain, missing, missing_value)
        self.validation_fraction = validation_fraction
        self.random_state = random_state

    @classmethod
    def _param_names(cls) -> list[str]:
        return [*super()._param_names(), "validation_fraction", "random_state"]

    def fit(self, X: Any, y: Any, feature_names: Sequence[str] | None = None) -> PrunedID3:
        """Grow on ``1 − validation_fraction`` of the rows, prune on the rest; returns self."""
        if not 0 < self.validation_fraction < 1:
            raise ValueError(f"validation_fraction must be in (0, 1), got {self.validation_fraction!r}")
        X, y = _as_table(X), np.asarray(y).astype(str)
        if len(y) < 2:
            raise ValueError(f"pruning needs at least 2 rows (one to grow, one to validate), got {len(y)}")
        X_grow, X_val, y_grow, y_val = train_test_split(
            X, y, self.validation_fraction, self.random_state, stratify=True
        )
        super().fit(X_grow, y_grow, feature_names)
        self.unpruned_n_nodes_ = self.n_nodes_
        self.validation_accuracy_before_ = self.score(X_val, y_val)
        self.prune(X_val, y_val)
        self.validation_accuracy_ = self.score(X_val, y_val)
        return self


# --------------------------------------------------------------------------------------------
# Reading a split, comparing trees
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SplitExplanation:
    """A split laid out for a reader.

    ``columns`` is the candidates table (feature; impurity before and weighted after; gain;
    split information and gain ratio under ``criterion="gain_ratio"``; the post's unweighted
    gain), ``post_choice`` the feature the post's unweighted gain would pick, and ``terms``
    maps each feature to its ``(value, rows, H(y | feature = value))`` list and ``H(y | feature)``.
    """

    columns: dict[str, list]
    chosen: str
    post_choice: str
    terms: dict[str, tuple[list[tuple[str, int, float]], float]]


def explain_split(step: SplitStep, X: Any, y: Any) -> SplitExplanation:
    """The table, the post's choice and the entropy terms of one split of a tree fitted on ``X, y``."""
    X, y = _as_table(X)[step.rows], np.asarray(y).astype(str)[step.rows]
    impurity = "Gini" if step.tree.criterion == "gini" else "entropy"
    candidates = step.candidates()
    post_choice, post_gains = unweighted_choice(X[:, step.columns], y, step.features)
    columns = {
        "feature": step.features,
        f"{impurity} before": [c.before for c in candidates],
        f"weighted {impurity} after": [c.after for c in candidates],
        "gain": [c.gain for c in candidates],
    }
    if step.tree.criterion == "gain_ratio":
        columns["split information"] = [c.split_information for c in candidates]
        columns["gain ratio"] = [c.score for c in candidates]
    columns["post's unweighted entropy gain"] = [post_gains[f] for f in step.features]
    terms = {
        feature: (subset_entropies(X[:, j], y), conditional_entropy(X[:, j], y))
        for j, feature in zip(step.columns, step.features, strict=True)
    }
    return SplitExplanation(columns, step.chosen, post_choice, terms)


def disagreement(first: ID3, second: ID3) -> tuple[int, int]:
    """On how many of all possible records (every combination of known values) two trees differ."""
    grid = np.array(list(itertools.product(*first.categories_)))
    return int((first.predict(grid) != second.predict(grid)).sum()), len(grid)


# --------------------------------------------------------------------------------------------
# Evaluation, as in the post
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Evaluation:
    """How well trees grown with one setting generalise (see ``evaluate``).

    ``protocol`` is the post's test: accuracy when trained on the complete rows and tested on
    the rows with a missing value (None when either part is empty), with the two row counts.
    ``cv_unpruned`` / ``cv_pruned`` hold each fold's accuracy, ``nodes_unpruned`` /
    ``nodes_pruned`` each fold's tree size; ``curve_*`` is the learning curve, one row per run.
    """

    protocol: float | None
    protocol_rows: tuple[int, int]
    cv_unpruned: np.ndarray
    cv_pruned: np.ndarray
    nodes_unpruned: np.ndarray
    nodes_pruned: np.ndarray
    curve_sizes: np.ndarray
    curve_train: np.ndarray
    curve_test: np.ndarray


def evaluate(
    X: Any,
    y: Any,
    feature_names: Sequence[str] | None = None,
    params: dict[str, Any] | None = None,
    validation_fraction: float = 0.25,
    random_state: int = 0,
    cv: int = 10,
    curve_runs: int = 5,
) -> Evaluation:
    """The post's protocol, cross-validation with and without pruning, and a learning curve.

    Cross-validation is stratified ``cv``-fold; pruning holds out ``validation_fraction`` of
    each training part; the learning curve is repeated over ``curve_runs`` shuffles.
    """
    X, y = _as_table(X), np.asarray(y).astype(str)
    params = dict(params or {})
    missing = rows_with_missing(X, params.get("missing_value", "?"))
    protocol = None
    if missing.any() and not missing.all():
        protocol = ID3(**params).fit(X[~missing], y[~missing], feature_names).score(X[missing], y[missing])
    scores: dict[str, list[float]] = {"plain": [], "pruned": []}
    nodes: dict[str, list[int]] = {"plain": [], "pruned": []}
    for test in stratified_folds(y, cv, random_state):
        train = np.setdiff1d(np.arange(len(y)), test)
        for name, model in (
            ("plain", ID3(**params)),
            (
                "pruned",
                PrunedID3(**params, validation_fraction=validation_fraction, random_state=random_state),
            ),
        ):
            model.fit(X[train], y[train], feature_names)
            scores[name].append(model.score(X[test], y[test]))
            nodes[name].append(model.n_nodes_)
    fractions = np.linspace(0.1, 1.0, 10)
    runs = [
        learning_curve(ID3(**params), X, y, list(fractions), random_state + run) for run in range(curve_runs)
    ]
    return Evaluation(
        protocol,
        (int((~missing).sum()), int(missing.sum())),
        np.array(scores["plain"]),
        np.array(scores["pruned"]),
        np.array(nodes["plain"]),
        np.array(nodes["pruned"]),
        runs[0][0],
        np.array([run[1] for run in runs]),
        np.array([run[2] for run in runs]),
    )


# --------------------------------------------------------------------------------------------
# Hand-drawn trees and uploaded tables
# --------------------------------------------------------------------------------------------

# The decision-tree post's hand-drawn tree for Arya's riding data: Wind at the root, then
# Temperature under Wind = Low (Wind = High is a "No" leaf; Temperature = Hot, never seen under
# Wind = Low, is the post's "None" leaf).
POST_ARYA_LAYOUT: Layout = {"Wind": {"Low": {"Temperature": {}}}}

MAX_BYTES = 1_000_000
MAX_ROWS = 5_000
MAX_COLUMNS = 40
MAX_CATEGORIES = 40


@dataclass(frozen=True)
class CategoricalTable:
    """A parsed CSV: column names and a 2-D array of string values (empty cells are "?")."""

    columns: list[str]
    values: np.ndarray

    def split(self, label: str, missing_value: str = "?") -> tuple[np.ndarray, np.ndarray, list[str]]:
        """``(X, y, feature_names)`` with ``label`` as the class column and the rest as features."""
        if label not in self.columns:
            raise ValueError(f"{label!r} is not a column; the columns are {self.columns}")
        j = self.columns.index(label)
        y = self.values[:, j]
        blank = np.flatnonzero(y == missing_value)
        if len(blank):
            where = ", ".join(str(i + 1) for i in blank[:5])
            raise ValueError(
                f"the label column {label!r} is empty in data row(s) {where}: every row needs a label"
            )
        X = np.delete(self.values, j, axis=1)
        names = [c for c in self.columns if c != label]
        for k, name in enumerate(names):
            n_values = len(np.unique(X[:, k]))
            if n_values > MAX_CATEGORIES:
                raise ValueError(
                    f"column {name!r} has {n_values} different values; every column is read as a "
                    f"category, and more than {MAX_CATEGORIES} make an unreadable tree. Group numbers "
                    "into a few ranges (e.g. low / medium / high) first, or choose it as the label."
                )
        return X, y, names


def parse_categorical_csv(
    data: bytes | str, max_bytes: int = MAX_BYTES, max_rows: int = MAX_ROWS, max_columns: int = MAX_COLUMNS
) -> CategoricalTable:
    """Read a CSV whose first row holds the column names and whose cells are categories.

    Commas, semicolons or tabs separate the fields; empty cells become the missing marker
    "?". Raises ``ValueError`` with a sentence saying what is wrong (too big, not text, a row
    of the wrong length, a nameless or repeated column, too few rows or columns).
    """
    size = len(data)
    if size > max_bytes:
        raise ValueError(f"the file has {size:,} bytes; the limit is {max_bytes:,} bytes")
    if isinstance(data, bytes):
        if b"\x00" in data:
            raise ValueError("the file is not text (it holds binary bytes): upload a CSV file")
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise ValueError(
                f"the file is not UTF-8 text ({error.reason} at byte {error.start}): save it as CSV UTF-8"
            ) from None
    try:
        dialect = csv.Sniffer().sniff(data[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(data), dialect)
    try:
        rows = [(reader.line_num, row) for row in reader if any(cell.strip() for cell in row)]
    except csv.Error as error:
        raise ValueError(f"the file is not valid CSV (line {reader.line_num}: {error})") from None
    if not rows:
        raise ValueError("the file is empty: it needs a header row of column names and data rows")
    header = [name.strip() for name in rows[0][1]]
    if len(header) < 2:
        raise ValueError(
            f"the header has {len(header)} column; at least two are needed (features and a label)"
        )
    if len(header) > max_columns:
        raise ValueError(f"the file has {len(header)} columns; the limit is {max_columns}")
    for k, name in enumerate(header, start=1):
        if not name:
            raise ValueError(f"column {k} of the header row has no name")
    repeated = sorted({name for name in header if header.count(name) > 1})
    if repeated:
        raise ValueError(f"column names must differ; {repeated} appear more than once")
    body = rows[1:]
    if len(body) < 2:
        raise ValueError(f"the file has {len(body)} data row(s) under the header; at least two are needed")
    if len(body) > max_rows:
        raise ValueError(f"the file has {len(body):,} data rows; the limit is {max_rows:,}")
    for number, row in body:
        if len(row) != len(header):
            raise ValueError(f"line {number} has {len(row)} fields, but the header has {len(header)}")
    values = np.array([[cell.strip() or "?" for cell in row] for _, row in body], dtype=str)
    return CategoricalTable(header, values)
