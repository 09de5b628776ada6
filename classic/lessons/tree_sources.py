"""What the ID3 lesson shows beside the tree: the sources' versions, the experiments, the claims.

- ``textbook_id3``: the short recursive ID3 the page prints ("How it works"), built on the same
  :func:`classic.criteria.split_scores` as the fast tree, with its numeric thresholds and its
  handling of missing values, and tested to grow the identical tree (information gain, no limits).
- The decision-tree post's own choices: its unweighted gain ``H(S) − Σ_v H(S_v)`` (a reader's
  comment on the post points out the missing weights ``|S_v|/|S|``), its hand-drawn tree for
  Arya's data, its protocol on the 1984 votes (train on the 232 complete rows, test on the 203
  with a "?") and its two claims about it ("around 90%"; the budget resolution splits first).
- ``evaluate``: cross-validation with and without pruning and a learning curve, through
  :mod:`classic.evaluation`.
- ``representation_sizes``: the CS 886 slides' AND (O(n) tests) against parity (O(2ⁿ)).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from classic import datasets
from classic.criteria import TOLERANCE, impurity, information_gain
from classic.evaluation import learning_curve, stratified_folds
from classic.id3 import ID3, PrunedID3, rows_with_missing

Layout = dict[str, dict[str, "Layout"]]

# The post's hand-drawn tree for Arya's data: Wind at the root, Temperature under Wind = Low
# (Wind = High is a "No" leaf; Wind = Low, Temperature = Hot, never seen, is its "None" leaf).
POST_ARYA_LAYOUT: Layout = {"Wind": {"Low": {"Temperature": {}}}}


class DrawnTree(ID3):
    """A tree of a given shape (a hand-drawn one): the tests come from ``layout``, not from scores.

    ``{"Wind": {"Low": {"Temperature": {}}}}`` tests Wind at the root and Temperature under
    Wind = Low; every other child is a leaf. Counts and split tables are filled as by ID3's
    ``fit``, so the two trees can be compared. Set ``layout_`` before ``fit`` (see ``fit_layout``).
    """

    layout_: Layout = {}
    _empty_children = True  # the post's tree has a leaf for Wind = Low, Temperature = Hot: no such day

    def _choose(self, node: Any, available: list[int], score: list[float]) -> int | None:
        here = self.layout_
        for feature, value in self.conditions(node):
            here = here[feature].get(value, {})
        return self.feature_names_.index(next(iter(here))) if here else None

    def _may_split(self, item: Any) -> bool:
        return item.node.n_samples > 0 and bool(item.available)


def fit_layout(
    X: Any, y: Any, layout: Layout, feature_names: Sequence[str] | None = None, **params: Any
) -> ID3:
    """A :class:`DrawnTree` of shape ``layout`` fitted on ``X, y`` (``params``: ID3's)."""
    names = list(feature_names) if feature_names is not None else [f"x{j}" for j in range(np.shape(X)[1])]
    values = {name: set(np.asarray(X, dtype=str)[:, j].tolist()) for j, name in enumerate(names)}

    def check(layout: Layout, left: list[str]) -> None:
        if not isinstance(layout, dict) or len(layout) > 1:
            raise ValueError(f"a layout is {{feature: {{value: layout}}}} with one feature, got {layout!r}")
        for name, below in layout.items():
            if name not in left:
                raise ValueError(f"layout names feature {name!r}; the features left are {left}")
            for value, sub in below.items():
                if value not in values[name]:
                    raise ValueError(
                        f"layout gives {name} = {value!r}; its values are {sorted(values[name])}"
                    )
                check(sub, [n for n in left if n != name])

    check(layout, names)
    tree = DrawnTree(**params)
    tree.layout_ = layout
    return tree.fit(X, y, names)


def unweighted_information_gain(values: Any, labels: Any) -> float:
    """The post's gain, ``H(S) − Σ_v H(S_v)``, with the weights |S_v|/|S| forgotten.

    Not a sound score (it can be negative and punishes every extra value); kept to show what
    the post's code chooses.
    """
    values, labels = np.asarray(values).astype(str), np.asarray(labels).astype(str)
    subsets = sum(float(impurity(np.unique(labels[values == v], return_counts=True)[1])) for v in set(values))
    return float(impurity(np.unique(labels, return_counts=True)[1])) - subsets


def unweighted_choice(X: Any, y: Any, feature_names: Sequence[str]) -> tuple[str, dict[str, float]]:
    """The feature the post's unweighted gain picks on these rows, and every feature's score."""
    X = np.asarray(X, dtype=str)
    scores = {name: unweighted_information_gain(X[:, j], y) for j, name in enumerate(feature_names)}
    return max(scores, key=scores.get), scores


# --------------------------------------------------------------------------------------------
# The textbook version
# --------------------------------------------------------------------------------------------


@dataclass
class Tree:
    """A node of the textbook tree: a leaf's class counts, or a test and one child per branch.

    A categorical test has a child per value; a numeric one (``threshold`` τ) a child "<=" and ">".
    """

    counts: dict[str, int]
    feature: int | None = None
    children: dict[str, Tree] = field(default_factory=dict)
    threshold: float | None = None


def between(a: float, b: float) -> float:
    """τ for neighbouring values a < b, as ``classic.id3`` picks it: the midpoint, halved first where
    a + b overflows, or a itself where the midpoint rounds onto b (so that a ≤ τ < b)."""
    tau = (a + b) / 2
    if not a <= tau < b:
        tau = a / 2 + b / 2
    return tau if a <= tau < b else a


def textbook_id3(rows: list, labels: list, features: set[int], gain: Callable = information_gain) -> Tree:
    """ID3 as the post writes it: stop when pure or out of tests, else split on the best gain.

    ``rows`` are lists of values ("?" or NaN: missing; numbers are tested as x ≤ τ);
    ``gain(values, labels)`` scores a test on the rows whose value is known, times their share
    (ties: the first test; a best gain of 0 makes a leaf). Rows missing the value go down the
    branch most rows took, as in ``classic.id3.ID3``: the two grow the same tree.
    """
    counts = {c: labels.count(c) for c in sorted(set(labels))}

    def known(j: int) -> list[int]:  # the rows whose value of feature j is neither "?" nor NaN
        return [i for i, row in enumerate(rows) if row[j] != "?" and row[j] == row[j]]

    def branch(value: Any, threshold: float | None) -> Any:  # its own value, or a number's side of τ
        return value if threshold is None else ("<=" if value <= threshold else ">")

    def tests(j: int) -> list[tuple[int, float | None]]:  # a number: τ between values whose labels differ
        seen: dict[Any, set] = {}
        for i in known(j):
            seen.setdefault(rows[i][j], set()).add(labels[i])
        if not seen or not isinstance(next(iter(seen)), int | float):
            return [(j, None)]
        xs = sorted(seen)
        return [
            (j, between(a, b)) for a, b in zip(xs[:-1], xs[1:], strict=True) if len(seen[a] | seen[b]) > 1
        ]

    def score(j: int, threshold: float | None) -> float:  # the gain on the known rows, times their share
        part = known(j)
        values = [branch(rows[i][j], threshold) for i in part]
        return len(part) / len(rows) * gain(values, [labels[i] for i in part]) if part else 0.0

    candidates = [test for j in sorted(features) for test in tests(j)] if len(counts) > 1 else []
    scores = [score(*test) for test in candidates]
    if not candidates or abs(max(scores)) <= TOLERANCE:  # the post's "gain == 0" (its own gain can be < 0)
        return Tree(counts)
    j, threshold = candidates[next(k for k, s in enumerate(scores) if s >= max(scores) - TOLERANCE)]
    where = {i: branch(rows[i][j], threshold) for i in known(j)}
    sizes = {b: list(where.values()).count(b) for b in sorted(set(where.values()))}
    majority = max(sizes, key=sizes.get)  # the rows missing the value go the way most went (first largest)
    node, left = Tree(counts, j, threshold=threshold), features - {j} if threshold is None else features
    for value in sizes:
        part = [i for i in range(len(rows)) if where.get(i, majority) == value]
        node.children[value] = textbook_id3([rows[i] for i in part], [labels[i] for i in part], left, gain)
    return node


def textbook_classify(tree: Tree, row: Sequence[Any]) -> dict[str, int]:
    """The post's rule: class counts of the leaf reached, summed over every branch where a value is missing."""
    if tree.feature is None:
        return tree.counts
    value = row[tree.feature]
    if value == "?" or value != value:
        total: dict[str, int] = {}
        for child in tree.children.values():
            for c, n in textbook_classify(child, row).items():
                total[c] = total.get(c, 0) + n
        return total
    key = value if tree.threshold is None else ("<=" if value <= tree.threshold else ">")
    child = tree.children.get(key)
    return tree.counts if child is None else textbook_classify(child, row)


def as_textbook(model: ID3) -> Tree:
    """A fitted ID3 in the textbook's shape (children no training row reached left out)."""

    def convert(node: Any) -> Tree:
        counts = {c: n for c, n in node.counts.items() if n}
        numeric = node.threshold is not None
        children = {
            v.split()[0] if numeric else v: convert(c) for v, c in node.children.items() if c.n_samples
        }
        return Tree(
            counts, node.feature_index if children else None, children, node.threshold if children else None
        )

    return convert(model.root_)


def disagreement(first: ID3, second: ID3) -> tuple[int, int]:
    """On how many of all possible records (every combination of known values) two trees differ."""
    grid = np.array(list(itertools.product(*first.categories_)))
    return int((first.predict(grid) != second.predict(grid)).sum()), len(grid)


# --------------------------------------------------------------------------------------------
# The post's protocol and claims, the slides' representational power
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ProtocolResult:
    """The post's test under one setting.

    ``correct`` rows are predicted right (a tied vote goes to the first class in sorted order);
    ``ties`` rows had a tied vote, ``tied_right`` of them counted right by that rule; ``tied_rows``
    are their row numbers in the whole table (from 1) and ``tied_labels`` their true classes. The
    post's Python 2 code broke ties by its dict order instead (on the votes: republican first).
    """

    gain: str
    missing: str
    correct: int
    ties: int
    tied_right: int
    total: int
    tied_rows: tuple[int, ...] = ()
    tied_labels: tuple[str, ...] = ()

    @property
    def accuracy(self) -> float:
        return self.correct / self.total

    @property
    def correct_other_tie_order(self) -> int:
        """Rows right when every tie goes the other way (two classes: the post's order, republican first)."""
        return self.correct - self.tied_right + (self.ties - self.tied_right)


def posts_protocol(X: Any, y: Any) -> list[ProtocolResult]:
    """Train on the complete rows, test on the rows with a "?": both gains, both missing-value rules.

    "weighted" is the definition's gain, "unweighted" the post's code; "branch" sums the class
    counts of every leaf reached (the post's rule; a tie goes to the first class in sorted
    order), "fractional" weights each leaf by the share of training rows that went its way.
    """
    X, y = np.asarray(X, dtype=str), np.asarray(y).astype(str)
    missing = rows_with_missing(X)
    train, test = X[~missing].tolist(), X[missing].tolist()
    classes = sorted(set(y.tolist()))
    results = []
    for name, gain in (("weighted", information_gain), ("unweighted", unweighted_information_gain)):
        tree = textbook_id3(train, y[~missing].tolist(), set(range(X.shape[1])), gain)
        for rule in ("branch", "fractional"):
            votes = [
                _fractional(tree, row) if rule == "fractional" else textbook_classify(tree, row)
                for row in test
            ]
            totals = np.array([[v.get(c, 0) for c in classes] for v in votes], dtype=float)
            guess = np.array(classes)[totals.argmax(axis=1)]
            tied = (totals == totals.max(axis=1, keepdims=True)).sum(axis=1) > 1
            right = guess == y[missing]
            counts = (int(right.sum()), int(tied.sum()), int((right & tied).sum()), len(test))
            rows = tuple(int(i) + 1 for i in np.flatnonzero(missing)[tied])
            results.append(ProtocolResult(name, rule, *counts, rows, tuple(y[missing][tied].tolist())))
    return results


def _fractional(tree: Tree, row: Sequence[str], weight: float = 1.0) -> dict[str, float]:
    """C4.5's rule on the textbook tree: a "?" follows each child, weighted by its share of rows."""
    if tree.feature is None or (row[tree.feature] != "?" and row[tree.feature] not in tree.children):
        n = sum(tree.counts.values())
        return {c: weight * k / n for c, k in tree.counts.items()}
    if row[tree.feature] != "?":
        return _fractional(tree.children[row[tree.feature]], row, weight)
    total: dict[str, float] = {}
    n = sum(sum(child.counts.values()) for child in tree.children.values())
    for child in tree.children.values():
        for c, p in _fractional(child, row, weight * sum(child.counts.values()) / n).items():
            total[c] = total.get(c, 0.0) + p
    return total


def votes_for(
    X: Any, y: Any, feature_names: Sequence[str], feature: str, vote: str = "y"
) -> dict[str, tuple]:
    """Per class, how many rows cast ``vote`` on ``feature`` and of how many rows (a "?" counts in neither)."""
    X, y = np.asarray(X, dtype=str), np.asarray(y).astype(str)
    column = X[:, list(feature_names).index(feature)]
    return {
        c: (int((column[y == c] == vote).sum()), int((column[y == c] != "?").sum())) for c in sorted(set(y))
    }


def complete_rows_root(X: Any, y: Any, feature_names: Sequence[str]) -> dict[str, str]:
    """The feature each gain puts at the root when grown on the complete rows (the post's claim)."""
    X, y = np.asarray(X, dtype=str), np.asarray(y).astype(str)
    keep = ~rows_with_missing(X)
    rows, labels = X[keep].tolist(), y[keep].tolist()
    return {
        name: feature_names[textbook_id3(rows, labels, set(range(X.shape[1])), gain).feature]
        for name, gain in (("weighted", information_gain), ("unweighted", unweighted_information_gain))
    }


def representation_sizes(ns: Sequence[int] = range(2, 9)) -> dict[str, list[int]]:
    """Nodes of ID3's tree for AND and parity of n binary features (the slides' O(n) vs O(2ⁿ)).

    Parity gains nothing at any node until one feature is left, so ID3 with ``min_gain=0``
    stops at the root ("parity, as ID3 grows it"); splitting anyway (``min_gain=-1``) gives the
    full tree of ``2ⁿ⁺¹ − 1`` nodes, against ``2n + 1`` for AND.
    """
    return {
        "n": list(ns),
        "AND": [ID3().fit(*datasets.load_and(n)).n_nodes_ for n in ns],
        "parity": [ID3(min_gain=-1.0).fit(*datasets.load_parity(n)).n_nodes_ for n in ns],
        "parity, as ID3 grows it": [ID3().fit(*datasets.load_parity(n)).n_nodes_ for n in ns],
    }


# --------------------------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Evaluation:
    """How well trees grown with one setting generalise (see ``evaluate``).

    ``protocol`` is the post's test (None when no row, or every row, has a missing value) with
    its two row counts; ``cv_*`` each fold's accuracy and ``nodes_*`` each fold's tree size,
    without and with pruning; ``curve_*`` the learning curve, one row per shuffle.
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
    """The post's protocol, stratified ``cv``-fold cross-validation with and without pruning
    (``validation_fraction`` of each training part held out), and a learning curve repeated
    over ``curve_runs`` shuffles."""
    X, y = np.asarray(X, dtype=object), np.asarray(y).astype(str)
    params = dict(params or {})
    missing = rows_with_missing(X, params.get("missing_value", "?"))
    protocol = None
    if missing.any() and not missing.all():
        protocol = ID3(**params).fit(X[~missing], y[~missing], feature_names).score(X[missing], y[missing])
    models = {
        "plain": ID3(**params),
        "pruned": PrunedID3(**params, validation_fraction=validation_fraction, random_state=random_state),
    }
    scores: dict[str, list[float]] = {name: [] for name in models}
    nodes: dict[str, list[int]] = {name: [] for name in models}
    for test in stratified_folds(y, cv, random_state):
        train = np.setdiff1d(np.arange(len(y)), test)
        for name, model in models.items():
            model.fit(X[train], y[train], feature_names)
            scores[name].append(model.score(X[test], y[test]))
            nodes[name].append(model.n_nodes_)
    fractions = list(np.linspace(0.1, 1.0, 10))
    runs = [learning_curve(ID3(**params), X, y, fractions, random_state + run) for run in range(curve_runs)]
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
