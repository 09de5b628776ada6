"""ID3: grow a decision tree by asking, at each node, the question that tells most about the label.

ID3 (Quinlan, 1986) grows a tree from the top down. At a node it scores each candidate test by
the drop in label impurity the answer brings: the information gain, C4.5's gain ratio, or the
drop in Gini impurity, all computed from the split's count table by
:func:`classic.criteria.split_scores` (the criteria are re-exported here: ``classic.id3.entropy``
is ``classic.criteria.entropy``). A categorical feature has one child per value and is used once
on a path; a numeric feature is tested as ``x ≤ τ`` with ``τ`` a midpoint between consecutive
sorted values whose labels differ (the CS 886 slides' candidates), and may be tested again
deeper. A node is a leaf, labelled by majority, when it is pure, no test is left, at the depth
limit, or when no score exceeds ``min_gain``.

Missing values: while growing, rows missing the tested value go with the child most rows took;
at prediction they follow every child (``"fractional"``: C4.5, weighted by the share of
training rows that went each way; ``"branch"``: the post's rule, the leaves' class counts added
up as they are) or only the majority child (``"majority"``); ``"value"`` makes "?" one more
category. Reduced-error pruning replaces subtrees by majority leaves while held-out accuracy
does not drop; ``rules`` reads the tree as IF … THEN rules. The counting (count tables of a
whole level at once, presorted numeric columns, routing rows) is in :mod:`classic._id3_engine`;
drawing in :mod:`classic.viz.tree`; the lesson's extras in :mod:`classic.id3_lessons`.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from classic import _id3_engine as engine
from classic._validation import Estimator, RandomState, check_is_fitted
from classic.criteria import CRITERIA, TOLERANCE, SplitScore, impurity, split_scores

# The criteria on labels are re-exported ("x as x"): classic.id3.entropy is classic.criteria.entropy.
from classic.criteria import conditional_entropy as conditional_entropy
from classic.criteria import entropy as entropy
from classic.criteria import gain_ratio as gain_ratio
from classic.criteria import gini as gini
from classic.criteria import gini_gain as gini_gain
from classic.criteria import information_gain as information_gain
from classic.criteria import score_split as score_split
from classic.criteria import split_information as split_information
from classic.evaluation import train_test_split

MISSING = ("fractional", "branch", "majority", "value")


def rows_with_missing(X: Any, missing_value: str = "?") -> np.ndarray:
    """A boolean mask of the rows holding at least one missing value."""
    return (np.asarray(X, dtype=str) == missing_value).any(axis=1)


@dataclass(eq=False)
class Node:
    """One node: the training rows that reached it and, unless a leaf, its test.

    ``counts`` maps every class to its training rows here; ``label`` is the majority (a node
    no row reached takes its parent's); ``feature`` is the feature tested (None at a leaf) and
    ``threshold`` its τ for a numeric test (None for a categorical one); ``children`` maps each
    branch (a value, or ``"<= τ"`` / ``"> τ"``) to a child; ``shares`` is the fraction of the
    known-value training rows that went each way; ``step`` indexes the tree's ``steps_``.
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
    tree: ID3 = field(repr=False)

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


@dataclass
class _Pending:
    """A node waiting to be split: its training rows and the features left to test."""

    node: Node
    rows: np.ndarray
    available: list[int]


class ID3(Estimator):
    """A decision tree over categorical and numeric features (Quinlan's ID3, with C4.5's options).

    Parameters
    ----------
    criterion : {"entropy", "gain_ratio", "gini"}, default="entropy"
        The score of a test: information gain, gain ratio (C4.5), or the drop in Gini impurity.
    max_depth : int or None, default=None
        The most tests on a path from the root; None grows until the other rules stop it.
    min_gain : float, default=0.0
        A node splits only when the best score exceeds this. 0 means "any gain at all"; a
        negative value splits impure nodes even when nothing gains (parity needs that).
    missing : {"fractional", "branch", "majority", "value"}, default="fractional"
        What a missing value does at prediction (see the module docstring); "value" makes it
        one more category (a missing number, which has none, follows the majority branch).
    missing_value : str, default="?"
        The marker of a missing value (numeric arrays use NaN).

    Attributes
    ----------
    root_ : Node
    classes_ : ndarray of str
    feature_names_ : list of str
    n_features_in_ : int
    numeric_ : ndarray of bool
        Which features were read as numbers (a numeric array, or every value parses as one).
    categories_ : list of ndarray
        The values of each feature seen in training, sorted (floats for numeric features).
    steps_ : list of SplitStep
        The splits in the order they were made (breadth first), with every candidate's table.
    n_nodes_, n_leaves_, depth_ : int

    Examples
    --------
    >>> from classic.datasets import load_play_tennis
    >>> X, y, names = load_play_tennis()
    >>> ID3().fit(X, y, names).root_.feature
    'Outlook'
    """

    _empty_children = False  # a child for a value no training row at the node has (see DrawnTree)

    def __init__(
        self,
        *,
        criterion: str = "entropy",
        max_depth: int | None = None,
        min_gain: float = 0.0,
        missing: str = "fractional",
        missing_value: str = "?",
    ) -> None:
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_gain = min_gain
        self.missing = missing
        self.missing_value = missing_value

    # -- reading the data --------------------------------------------------------------------

    def _check_params(self) -> None:
        if self.criterion not in CRITERIA:
            raise ValueError(f"criterion must be one of {CRITERIA}, got {self.criterion!r}")
        if self.missing not in MISSING:
            raise ValueError(f"missing must be one of {MISSING}, got {self.missing!r}")
        if self.max_depth is not None and (int(self.max_depth) != self.max_depth or self.max_depth < 1):
            raise ValueError(f"max_depth must be None or an integer >= 1, got {self.max_depth!r}")
        if not np.isfinite(self.min_gain):
            raise ValueError(f"min_gain must be a finite number, got {self.min_gain!r}")
        if not isinstance(self.missing_value, str):
            raise ValueError(f"missing_value must be a string, got {self.missing_value!r}")

    def fit(self, X: Any, y: Any, feature_names: Sequence[str] | None = None) -> ID3:
        """Grow the tree on rows ``X`` (strings and/or numbers) with labels ``y``; returns self."""
        return self._fit(X, y, feature_names)

    def _fit(self, X: Any, y: Any, feature_names: Sequence[str] | None) -> ID3:
        self._check_params()
        X = engine.as_table(X)
        y = np.asarray(y).astype(str)
        if y.ndim != 1 or len(y) != len(X):
            raise ValueError(f"y must be 1-D with one label per row of X ({len(X)}), got shape {y.shape}")
        if len(y) == 0:
            raise ValueError("X and y are empty: ID3 needs at least one training row")
        names = (
            [f"x{j}" for j in range(X.shape[1])] if feature_names is None else list(map(str, feature_names))
        )
        if len(names) != X.shape[1] or len(set(names)) != len(names):
            raise ValueError(f"feature_names must be {X.shape[1]} distinct names, got {names!r}")
        self.feature_names_, self.n_features_in_ = names, X.shape[1]
        self.classes_, y_codes = np.unique(y, return_inverse=True)
        self.numeric_, self.categories_ = engine.read_table(X, self.missing_value)
        # A categorical feature's branches: its values, the missing marker left out unless "value".
        branches = [
            v[v != self.missing_value] if not numeric and self.missing != "value" else v
            for v, numeric in zip(self.categories_, self.numeric_, strict=True)
        ]
        self._encoding = engine.Encoding(self.numeric_, branches, names, self.missing_value)
        self._grow(*self._encoding(X, self.missing == "value"), y_codes.astype(np.int64))
        return self

    # -- growing -------------------------------------------------------------------------------

    def _make_node(self, counts: list[int], depth: int, parent: Node | None) -> Node:
        size = sum(counts)
        node = Node(
            id=len(self._nodes),
            depth=depth,
            counts=dict(zip(self._class_names, counts, strict=True)),
            label=self._class_names[counts.index(max(counts))] if size else parent.label,  # ties: first class
            source=None if size else parent.source or parent,
        )
        self._nodes.append(node)
        return node

    def _may_split(self, item: _Pending) -> bool:
        node = item.node
        return (
            bool(item.available)
            and sum(1 for n in node.counts.values() if n) > 1
            and (self.max_depth is None or node.depth < self.max_depth)
        )

    def _grow(self, codes: np.ndarray, values: np.ndarray, y: np.ndarray) -> None:
        """Breadth first, one level at a time: score all its nodes' candidates together, then split."""
        n_classes = len(self.classes_)
        self._class_names = [str(c) for c in self.classes_]
        data = engine.Training(codes, values, y, self.numeric_, self._encoding.branches, n_classes)
        self._nodes: list[Node] = []
        self.steps_: list[SplitStep] = []
        self.root_ = self._make_node(np.bincount(y, minlength=n_classes).tolist(), 0, None)
        level = [_Pending(self.root_, np.arange(len(y)), list(range(codes.shape[1])))]
        while level := [item for item in level if self._may_split(item)]:
            # A feature with one value at a node is no candidate (so min_gain < 0 never picks it).
            scores, tables = data.score_level(
                [item.rows for item in level], lambda c, m: split_scores(c, m, self.criterion)[4], TOLERANCE
            )
            split = []
            for i, (item, score) in enumerate(zip(level, scores.tolist(), strict=True)):
                if test := self._test(item, score, partial(tables, i)):
                    split.append((item, test))
            # All splitting nodes' rows go down their tests at once: the rows of each branch.
            parts = data.partition([(item.rows, *test[:3]) for item, test in split])
            level = [c for (i, t), r in zip(split, parts, strict=True) for c in self._split(i, t, r, data)]
        self._compile()

    def _choose(self, node: Node, available: list[int], score: list[float]) -> int | None:
        """The feature to test at ``node``: the best score above ``min_gain`` (ties: the first column)."""
        best = max(score[j] for j in available)
        if not best > self.min_gain + TOLERANCE:
            return None
        return next(j for j in available if score[j] >= best - TOLERANCE)

    def _test(self, item: _Pending, score: list[float], table: Any) -> tuple | None:
        """The test ``_choose`` picks, made the node's: ``(feature, τ, majority branch, branches, counts)``."""
        node = item.node
        j = self._choose(node, item.available, score)
        if j is None:
            return None
        branches, counts, _, threshold = table(j)
        node.feature, node.feature_index, node.threshold = self.feature_names_[j], j, threshold
        node.step = len(self.steps_)
        self.steps_.append(SplitStep(node, item.rows, list(item.available), node.feature, table, self))
        counts = counts.tolist()
        sizes = [sum(c) for c in counts]
        return j, threshold, sizes.index(max(sizes)), branches, counts

    def _split(self, item: _Pending, test: tuple, parts: list[np.ndarray], data) -> list[_Pending]:
        """The children of a node split on ``test``, waiting their turn; ``parts``: each branch's rows."""
        node, rows, (j, threshold, majority, branches, counts) = item.node, item.rows, test
        sizes = [sum(c) for c in counts]
        if sum(sizes) < len(rows):  # the rows missing the value went the way most rows went
            lost = data.codes[rows, j] < 0 if threshold is None else np.isnan(data.values[rows, j])
            extra = np.bincount(data.y[rows[lost]], minlength=len(self.classes_)).tolist()
            counts[majority] = [a + b for a, b in zip(counts[majority], extra, strict=True)]
        rest = item.available if threshold is not None else [a for a in item.available if a != j]
        children, known = [], max(sum(sizes), 1)
        for b, key in enumerate(branches):
            if not (size := sum(counts[b])) and not self._empty_children:
                continue  # a value no row here has: the node itself answers for it
            child = self._make_node(counts[b], node.depth + 1, node)
            node.children[key], node.shares[key] = child, sizes[b] / known
            children.append(_Pending(child, parts[b][:size], rest))  # size < len: a test with no table
        return children

    # -- prediction ----------------------------------------------------------------------------

    def _compile(self) -> None:
        nodes = list(self._iter_nodes())
        self._router = engine.Router(nodes, self.numeric_, len(self.classes_), self._encoding.branches)
        self.n_nodes_ = len(nodes)
        self.n_leaves_ = sum(node.is_leaf for node in nodes)
        self.depth_ = max(node.depth for node in nodes)

    def _iter_nodes(self, start: Node | None = None) -> Iterator[Node]:
        """Every node of the (sub)tree, parents before children (depth first)."""
        stack = [self.root_ if start is None else start]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(list(node.children.values())))

    def _input(self, X: Any) -> tuple[np.ndarray, np.ndarray]:
        check_is_fitted(self, "root_")
        X = engine.as_table(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but the tree was fitted with {self.n_features_in_}"
            )
        return self._encoding(X, self.missing == "value")

    def _totals(self, X: Any, rule: str | None = None, visits: list | None = None) -> np.ndarray:
        codes, values = self._input(X)
        return self._router.route(codes, values, rule or self.missing, visits)

    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities, shape (n, n_classes), columns in ``classes_`` order.

        A leaf's training class frequencies; with a missing value, the leaves reached are
        combined as ``missing`` says.
        """
        total = self._totals(X)
        return total / np.maximum(total.sum(axis=1, keepdims=True), 1e-300)

    def predict(self, X: Any) -> np.ndarray:
        """The most probable class of each row (ties: the first class)."""
        total = self._totals(X)
        return self.classes_[np.argmax(total, axis=1)]

    def score(self, X: Any, y: Any) -> float:
        """Accuracy: the fraction of rows predicted correctly."""
        return float(np.mean(self.predict(X) == np.asarray(y).astype(str)))

    def apply(self, X: Any) -> np.ndarray:
        """The leaf each row ends in (the majority child where a value is missing)."""
        visits: list = []
        leaf = np.zeros(len(self._totals(X, "majority", visits)), dtype=np.int64)
        for rows, nodes in visits:
            leaf[rows] = nodes
        return leaf

    def decision_path(self, x: Sequence) -> list[Node]:
        """The nodes a record visits, root first (several branches when a value is missing)."""
        visits: list = []
        self._totals([list(x)], visits=visits)
        by_id = {node.id: node for node in self._iter_nodes()}
        return [by_id[int(n)] for _, nodes in visits for n in nodes]

    # -- pruning -------------------------------------------------------------------------------

    def prune(self, X_val: Any, y_val: Any) -> ID3:
        """Reduced-error pruning on held-out rows; returns self.

        Repeatedly find the internal node whose replacement by a majority leaf gives the best
        validation accuracy (ties: the larger subtree) and replace it, as long as accuracy does
        not drop (Mitchell, *Machine Learning*, 3.7.1: prune "until further pruning is harmful").
        """
        codes, values = self._input(X_val)
        y_val = np.asarray(y_val).astype(str)
        if len(y_val) != len(codes) or len(codes) == 0:
            raise ValueError(
                f"X_val and y_val must be non-empty and of one length, got {len(codes)}, {len(y_val)}"
            )
        index = {str(c): i for i, c in enumerate(self.classes_)}
        truth = np.array([index.get(v, -1) for v in y_val.tolist()])
        while True:
            changes = self._router.changes_as_leaf(codes, values, truth, self.missing)
            nodes, size, best = list(self._iter_nodes()), {}, None
            for node in reversed(nodes):  # children before parents: every subtree's size in one pass
                size[node.id] = 1 + sum(size[child.id] for child in node.children.values())
            for node in nodes:
                if node.id in changes and changes[node.id] >= 0:
                    if best is None or (changes[node.id], size[node.id]) > best[:2]:
                        best = (changes[node.id], size[node.id], node)
            if best is None:
                return self
            node = best[2]
            node.feature = node.feature_index = node.threshold = None
            node.children, node.shares, node.pruned = {}, {}, True
            self._compile()

    # -- reading the tree ----------------------------------------------------------------------

    def conditions(self, node: Node) -> list[tuple[str, str]]:
        """The tests ``(feature, branch)`` on the way from the root to ``node``."""
        check_is_fitted(self, "root_")
        stack: list[tuple[Node, list]] = [(self.root_, [])]
        while stack:
            current, path = stack.pop()
            if current is node:
                return path
            stack.extend((child, [*path, (current.feature, key)]) for key, child in current.children.items())
        raise ValueError(f"{node!r} is not a node of this tree")

    def rules(self) -> list[str]:
        """One "IF test AND … THEN label" per leaf, grouped by label (in ``classes_`` order)."""
        check_is_fitted(self, "root_")
        found: list[tuple[str, str]] = []
        stack: list[tuple[Node, list[str]]] = [(self.root_, [])]
        while stack:
            node, tests = stack.pop()
            if node.is_leaf:
                found.append((node.label, " AND ".join(tests) or "TRUE"))
            stack.extend((c, [*tests, node.condition(k)]) for k, c in reversed(list(node.children.items())))
        order = {str(c): i for i, c in enumerate(self.classes_)}
        found.sort(key=lambda rule: order[rule[0]])  # stable: depth-first order within a label
        return [f"IF {condition} THEN {label}" for label, condition in found]


class PrunedID3(ID3):
    """ID3 followed by reduced-error pruning on a stratified share of the training rows.

    Parameters: ID3's, plus ``validation_fraction`` (in (0, 1), default 0.25: the share of the
    rows kept for pruning) and ``random_state`` (which rows are held out).

    Attributes (besides ID3's): ``unpruned_n_nodes_``, ``validation_accuracy_before_`` and
    ``validation_accuracy_`` (before and after pruning).
    """

    def __init__(self, *, validation_fraction: float = 0.25, random_state: RandomState = None, **params: Any):
        super().__init__(**params)
        self.validation_fraction = validation_fraction
        self.random_state = random_state

    def fit(self, X: Any, y: Any, feature_names: Sequence[str] | None = None) -> PrunedID3:
        """Grow on ``1 − validation_fraction`` of the rows, prune on the rest; returns self."""
        if not 0 < self.validation_fraction < 1:
            raise ValueError(f"validation_fraction must be in (0, 1), got {self.validation_fraction!r}")
        X, y = engine.as_table(X), np.asarray(y).astype(str)
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


def _signature_with_tree_parameters() -> None:
    """PrunedID3's signature lists ID3's keyword parameters too (for get_params and repr)."""
    own, tree = (inspect.signature(c.__init__).parameters for c in (PrunedID3, ID3))
    listed = [own["self"], *(p for n, p in tree.items() if n != "self"), own["validation_fraction"]]
    PrunedID3.__init__.__signature__ = inspect.Signature([*listed, own["random_state"]])  # type: ignore[attr-defined]


_signature_with_tree_parameters()
