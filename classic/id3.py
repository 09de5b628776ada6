"""ID3: grow a decision tree by asking, at each node, the question that tells most about the label.

ID3 (Quinlan, 1986) grows a tree from the top down. At a node it scores each candidate test by
the drop in label impurity the answer brings: the information gain, C4.5's gain ratio, or the
drop in Gini impurity, all computed from the split's count table by
:func:`classic.criteria.split_scores` (the criteria are re-exported here: ``classic.id3.entropy``
is ``classic.criteria.entropy``). A categorical feature has one child per value and is used once
on a path; a numeric feature is tested as ``x ≤ τ`` with ``τ`` a midpoint between consecutive
sorted values whose labels differ (the CS 886 slides' candidates), or the lower one where the
midpoint rounds onto the upper (adjacent floats, ±inf: ``τ`` always parts the two values), and
may be tested again deeper. A node is a leaf, labelled by majority, when it is pure, no test is left, at the depth
limit, or when no score exceeds ``min_gain``.

Missing values: while growing, rows missing the tested value go with the child most rows took;
at prediction they follow every child (``"fractional"``: C4.5, weighted by the share of
training rows that went each way; ``"branch"``: the post's rule, the leaves' class counts added
up as they are) or only the majority child (``"majority"``); ``"value"`` makes "?" one more
category. Reduced-error pruning replaces subtrees by majority leaves while held-out accuracy
does not drop; ``rules`` reads the tree as IF … THEN rules. Reading a table and the counting
(count tables of a whole level at once, presorted numeric columns) are in
:mod:`classic._id3_engine`; the grown tree's arrays, its ``Node`` objects and prediction in
:mod:`classic._id3_tree`; drawing in :mod:`classic.viz.tree`; the lesson's extras in
:mod:`classic.lessons.tree_sources`.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from classic import _id3_engine as engine
from classic._id3_engine import Encoding, as_table, read_table
from classic._id3_tree import FlatTree, Node, Router, SplitStep, split_steps
from classic._validation import Estimator, RandomState, check_is_fitted, check_labels
from classic.criteria import CRITERIA, TOLERANCE, split_scores
from classic.criteria import SplitScore as SplitScore

# The criteria on labels are re-exported ("x as x"): classic.id3.entropy is classic.criteria.entropy.
from classic.criteria import conditional_entropy as conditional_entropy
from classic.criteria import entropy as entropy
from classic.criteria import gain_ratio as gain_ratio
from classic.criteria import gini as gini
from classic.criteria import gini_gain as gini_gain
from classic.criteria import impurity as impurity
from classic.criteria import information_gain as information_gain
from classic.criteria import score_split as score_split
from classic.criteria import split_information as split_information
from classic.evaluation import train_test_split

MISSING = ("fractional", "branch", "majority", "value")


def _score(counts: np.ndarray, missing: Any, criterion: str) -> np.ndarray:
    """What the criterion compares, from :func:`classic.criteria.split_scores` (the tree's one scorer)."""
    return split_scores(counts, missing, criterion).score


def rows_with_missing(X: Any, missing_value: str = "?") -> np.ndarray:
    """A boolean mask of the rows holding at least one missing value."""
    return (np.asarray(X, dtype=str) == missing_value).any(axis=1)


@dataclass
class _Pending:
    """A node waiting to be split and the features left to test (what ``_may_split`` is given)."""

    node: Node
    available: list[int]


class ID3(Estimator):
    """A decision tree over categorical and numeric features (Quinlan's ID3, with C4.5's options).

    Parameters
    ----------
    criterion : {"entropy", "gain_ratio", "gini"}, default="entropy"
        The score of a test: information gain, gain ratio (C4.5), or the drop in Gini impurity
        (the keys of the registry ``classic.criteria.CRITERIA``).
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
    classes_ : ndarray, the sorted labels, of y's own dtype (node labels are their strings)
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
    # Strings and categories as well as numbers; NaN is a missing number (see ``missing``).
    _input_tags = {"string": True, "categorical": True, "allow_nan": True}

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
            raise ValueError(f"criterion must be one of {tuple(CRITERIA)}, got {self.criterion!r}")
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
        X = as_table(X, estimator=self)
        _, self.classes_, y_codes = check_labels(y, len(X), self)
        names = (
            [f"x{j}" for j in range(X.shape[1])] if feature_names is None else list(map(str, feature_names))
        )
        if len(names) != X.shape[1] or len(set(names)) != len(names):
            raise ValueError(f"feature_names must be {X.shape[1]} distinct names, got {names!r}")
        self.feature_names_, self.n_features_in_ = names, X.shape[1]
        self.numeric_, self.categories_ = read_table(X, self.missing_value)
        # A categorical feature's branches: its values, the missing marker left out unless "value".
        keep = self.missing_value if self.missing != "value" else None
        branches = [
            v if numeric else [b for b in v.tolist() if b != keep]
            for v, numeric in zip(self.categories_, self.numeric_, strict=True)
        ]
        self._encoding = Encoding(self.numeric_, branches, names, self.missing_value)
        self._grow(*self._encoding(X, self.missing == "value"), y_codes.astype(np.int64))
        return self

    # -- growing -------------------------------------------------------------------------------

    # A subclass may decide node by node (DrawnTree does): _may_split(_Pending) -> bool and
    # _choose(node, available features, scores of all features) -> feature or None.
    _may_split: Any = None
    _choose: Any = None

    def _grow(self, codes: np.ndarray, values: np.ndarray, y: np.ndarray) -> None:
        """Breadth first, one level at a time: score all its nodes' candidates together, then split.

        A level is its nodes' ids, the features each may still test, and the rows with each
        row's node; all splitting nodes' rows go down their tests at once.
        """
        k = len(self.classes_)
        self._class_names = [str(c) for c in self.classes_]
        counts = np.bincount(y, minlength=k)[None]
        score = partial(_score, criterion=self.criterion)
        data = engine.Training(codes, values, y, self.numeric_, self._encoding.branches, k)
        self._tree = tree = FlatTree(k, max(data.width - 1, 2))
        self._levels = []  # what each level's splits recorded, for steps_
        ids = tree.add(np.array([-1]), np.array([0]), counts, 0)
        rows, node = np.arange(len(y)), np.zeros(len(y), np.int64)
        available, width = np.ones((1, codes.shape[1]), bool), tree.width
        for depth in itertools.count():
            may = self._splittable(ids, available, counts, depth)
            if not may.any():
                break
            # Every node of the level is scored (a pure node has no candidate: it costs nothing).
            scores, tables = data.score_level(rows, node, may, score, TOLERANCE)
            chosen = self._chosen(ids, available, scores, may)  # −1: the node stays a leaf
            split = chosen >= 0
            if not split.any():
                break
            self._levels.append((tables, rows, node, chosen, ids, available))
            going = split[node]
            rows, node = rows[going], node[going]  # the rows of the nodes that split
            tests = tables.thresholds(chosen) if data.order else None  # τ (NaN: categorical), low, high
            tau = None if tests is None else tests[:, 0]
            branch, lost = data.descend(rows, node, chosen, tau)
            cell = node * width + branch
            if lost is not None:  # rows missing the value go the way most known rows went
                known = np.bincount(cell[~lost], minlength=len(ids) * width).reshape(-1, width)
                at = node[lost]
                cell[lost] = at * width + known.argmax(axis=1)[at]
            counts = np.bincount(cell * k + y[rows], minlength=len(ids) * width * k).reshape(
                len(ids), width, k
            )
            made = np.logical_or.reduce(counts, axis=2)  # a value no row here has: the node answers
            if tau is not None:  # a numeric test that leaves a side empty (τ not in [a, b)): a leaf
                stuck = split & ~np.isnan(tau) & (np.add.reduce(made, axis=1) < 2)
                if stuck.any():  # (else the node would split the same way for ever)
                    chosen[stuck], split[stuck], made[stuck], going = -1, False, False, ~stuck[node]
                    rows, node, cell = rows[going], node[going], cell[going]
            known = np.add.reduce(counts, axis=2)[split] if lost is None else known[split]
            share = known / np.maximum(np.add.reduce(known, axis=1), 1)[:, None]
            tree.split(ids[split], chosen[split], None if tests is None else tests[split], share)
            if self._empty_children:
                made = split[:, None] & (np.arange(width) < data.n_branches[chosen][:, None])
            parent, slot = made.nonzero()
            up, counts = ids[parent], counts[parent, slot]
            children = tree.add(up, slot, counts, depth + 1)
            tree.link(up, slot, children)
            node, ids, available = (made.cumsum() - 1)[cell], children, available[parent]
            if len(data.categorical):  # a categorical feature is used up on its paths
                used = np.arange(len(parent)) if tau is None else np.isnan(tau[parent]).nonzero()[0]
                available[used, chosen[parent[used]]] = False
        self._compile()

    def _splittable(
        self, ids: np.ndarray, available: np.ndarray, counts: np.ndarray, depth: int
    ) -> np.ndarray:
        """Which nodes (with class ``counts``, at ``depth``) may split: impure, a feature left to
        test, above the depth limit."""
        if self._may_split is not None:
            nodes, here = self._view(), zip(ids.tolist(), available, strict=True)
            return np.array(
                [self._may_split(_Pending(nodes[i], np.flatnonzero(a).tolist())) for i, a in here], bool
            )
        if self.max_depth is not None and depth >= self.max_depth:
            return np.zeros(len(ids), dtype=bool)
        return np.logical_or.reduce(available, axis=1) & (
            np.maximum.reduce(counts, axis=1) < np.add.reduce(counts, axis=1)
        )

    def _chosen(
        self, ids: np.ndarray, available: np.ndarray, scores: np.ndarray, may: np.ndarray
    ) -> np.ndarray:
        """The feature each node that ``may`` split tests (−1: none): the best score above
        ``min_gain`` among the features left (ties: the first column)."""
        if self._choose is not None:
            nodes, at = self._view(), np.flatnonzero(may)
            here = zip(ids[at].tolist(), available[at], scores[at].tolist(), strict=True)
            picks = [self._choose(nodes[i], np.flatnonzero(a).tolist(), s) for i, a, s in here]
            chosen = np.full(len(ids), -1)
            chosen[at] = [-1 if j is None else j for j in picks]
            return chosen
        scores = np.where(available, scores, -np.inf)
        best = np.maximum.reduce(scores, axis=1)
        first = (scores >= (best - TOLERANCE)[:, None]).argmax(axis=1)
        return np.where(may & (best > self.min_gain + TOLERANCE), first, -1)

    # -- the tree as nodes -----------------------------------------------------------------------

    @property
    def root_(self) -> Node:
        """The root :class:`Node` (the nodes are built from the grown arrays when first asked for)."""
        return self._view()[0]

    @property
    def steps_(self) -> list[SplitStep]:
        """The splits in the order they were made (breadth first), with every candidate's table."""
        nodes = self._view()
        if getattr(self, "_steps", (None,))[0] is not self._tree:
            self._steps = (self._tree, split_steps(self, self._levels, nodes))
        return self._steps[1]

    def _view(self) -> list[Node]:
        """The nodes as :class:`Node` objects, by id (rebuilt when the tree has grown since)."""
        tree = self._tree.flush()
        version = (tree.size, len(self._levels))
        if getattr(self, "_nodes", (None,))[0] is not tree or self._nodes[1] != version:
            keys = [
                None if num else [str(v) for v in b]
                for b, num in zip(self._encoding.branches, self.numeric_, strict=True)
            ]
            self._nodes = (tree, version, tree.nodes(self._class_names, self.feature_names_, keys))
        return self._nodes[2]

    # -- prediction ----------------------------------------------------------------------------

    def _compile(self) -> None:
        tree = self._tree.flush()
        self._router = Router(tree, self.numeric_)
        reach = tree.reachable()
        self.n_nodes_ = int(reach.sum())
        self.n_leaves_ = int((reach & (tree.feature < 0)).sum())
        self.depth_ = int(tree.depth[reach].max())

    def _iter_nodes(self, start: Node | None = None) -> Iterator[Node]:
        """Every node of the (sub)tree, parents before children (depth first)."""
        stack = [self.root_ if start is None else start]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(list(node.children.values())))

    def _input(self, X: Any) -> tuple[np.ndarray, np.ndarray]:
        check_is_fitted(self, "_router")
        X = as_table(X, self.n_features_in_, self)
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
            self._tree.make_leaf(node.id)
            self._compile()

    # -- reading the tree ----------------------------------------------------------------------

    def conditions(self, node: Node) -> list[tuple[str, str]]:
        """The tests ``(feature, branch)`` on the way from the root to ``node``.

        Read from the node up to the root: as many steps as the node's depth, not the tree's size
        (the tree player asks it of every split it shows)."""
        check_is_fitted(self, "root_")
        path, at = [], node
        while at.parent is not None and at.parent.children.get(at.branch) is at:
            path.append((at.parent.feature, at.branch))
            at = at.parent
        if at is not self.root_:  # another tree's node, or one pruning cut off
            raise ValueError(f"{node!r} is not a node of this tree")
        return path[::-1]

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
        X = as_table(X, estimator=self)
        y, _, _ = check_labels(y, len(X), self)
        if len(y) < 2:
            raise ValueError(
                f"pruning needs at least 2 samples (one to grow, one to validate), got {len(y)} sample"
            )
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
