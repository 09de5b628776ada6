"""Split criteria for decision trees: the impurity of a node and the score of a test.

At a node holding the rows ``S``, with ``p_c`` the share of class ``c``,

    H(S) = −Σ_c p_c log2 p_c            (entropy; 0 · log 0 = 0)
    G(S) = 1 − Σ_c p_c²                  (Gini impurity: the chance two random draws differ)

A test on the feature ``A`` sends the rows whose value is known, ``K`` (all of them unless
values are missing), to the branches ``K_v``; the rows missing the value count only through
the share ``|K|/|S|``:

    Gain(S, A) = |K|/|S| · (H(K) − Σ_v |K_v|/|K| · H(K_v))
    SplitInfo(S, A) = −Σ_v |K_v|/|K| log2 |K_v|/|K|
    GainRatio(S, A) = Gain(S, A) / SplitInfo(S, A)      (C4.5; 0 when SplitInfo = 0)

and the Gini criterion is the same gain with G in place of H. The criteria are a registry,
``CRITERIA`` (name → :class:`Criterion`: its impurity, whether it compares a ratio, its names
on the page), as scikit-learn keeps ``CRITERIA_CLF``: a new criterion is one entry. Every number comes from one
function, :func:`split_scores`, which works on count tables ``counts[..., branch, class]`` (so
a whole level of a tree is scored in one call); the functions on labels (:func:`entropy`,
:func:`information_gain`, …) build the table and call it, and :class:`SplitScore` gives a
reader the same numbers term by term. :class:`classic.id3.ID3` grows its trees with
:func:`split_scores`, and :mod:`classic.id3` re-exports these names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

TOLERANCE = 1e-12  # scores closer than this are ties (the first column wins)


# Sums run through einsum: numpy's sum over a short axis (2 classes, 3 values) costs several times
# more (tests/benchmarks/bench_id3.py --only choices times both).
def _total(a: np.ndarray) -> np.ndarray:
    return np.einsum("...k->...", a)


def _entropy(p: np.ndarray, base: float) -> np.ndarray:
    """``H = −Σ_c p_c log p_c`` of each row of class shares (0 · log 0 = 0)."""
    logs = np.log2(np.where(p > 0, p, 1.0))  # 0 · log 0 = 0 · log 1 = 0
    if base != 2:
        logs /= np.log2(base)
    return np.abs(np.einsum("...k,...k->...", p, logs))  # abs: a pure node is 0, not −0


def _gini(p: np.ndarray, base: float) -> np.ndarray:
    """``G = 1 − Σ_c p_c²`` of each row of class shares (``base`` unused: no logarithm)."""
    return 1.0 - np.einsum("...k,...k->...", p, p)


class Criterion(NamedTuple):
    """A split criterion: how impure a node is, and what the tree compares between tests."""

    title: str  # as the page names it
    symbol: str  # the impurity's name in the score tables ("H", "Gini")
    impurity: Callable[[np.ndarray, float], np.ndarray]  # (class shares p[..., c], log base) → impurity
    ratio: bool = False  # compare gain / split information (C4.5's gain ratio), not the gain
    logarithm: bool = True  # its numbers depend on the logarithm's base (bits, nats)


# The split criteria, by the name ``ID3(criterion=...)`` takes (as scikit-learn's CRITERIA_CLF):
# a new criterion is one entry here, and the tree, its tables and the page's menu follow.
CRITERIA: dict[str, Criterion] = {
    "entropy": Criterion("Information gain", "H", _entropy),
    "gain_ratio": Criterion("Gain ratio (C4.5)", "H", _entropy, ratio=True),
    "gini": Criterion("Gini impurity", "Gini", _gini, logarithm=False),
}


def impurity(counts: Any, criterion: str = "entropy", base: float = 2.0) -> np.ndarray:
    """The impurity (``CRITERIA[criterion]``'s: entropy in ``base``, or Gini) of each row of a
    class-count table (0 if empty)."""
    counts = np.asarray(counts, dtype=np.float64)
    totals = _total(counts)[..., None]
    p = counts / np.where(totals > 0, totals, 1.0)  # an empty row: 0 / 1 = 0
    return np.where(totals[..., 0] > 0, CRITERIA[criterion].impurity(p, base), 0.0)


class Scores(NamedTuple):
    """What :func:`split_scores` returns, each an array over the tables' leading axes."""

    before: np.ndarray  # the impurity of the rows whose value is known, H(K)
    after: np.ndarray  # the branches' impurity weighted by |K_v|/|K|
    gain: np.ndarray  # |K|/|S| · (before − after)
    split_information: np.ndarray  # the entropy of the branch sizes
    score: np.ndarray  # what the criterion compares: the gain, or gain / split_information


def split_scores(counts: Any, missing: Any = 0, criterion: str = "entropy", base: float = 2.0) -> Scores:
    """The score of splits given their count tables ``counts[..., branch, class]``.

    ``missing`` is the number of rows whose value is unknown (not in the table). Returns
    :class:`Scores`: the impurity of the known rows (before), the branches' impurity weighted by
    ``|K_v|/|K|`` (after), the gain ``|K|/|S| · (before − after)``, the entropy of the branch
    sizes (split information), and what the criterion compares (the score: the gain, or
    ``gain / split_information`` for a ratio criterion such as "gain_ratio").
    """
    counts = np.asarray(counts, dtype=np.float64)
    rule = CRITERIA[criterion]
    *lead, v, k = counts.shape
    sizes = _total(counts)  # |K_v|
    known = _total(sizes)  # |K|
    # The impurities in one call, each a row of one table: the known rows' class totals, each
    # branch's classes and, when it is an entropy of as many numbers (v = k), the branch sizes.
    same = rule.impurity is _entropy and v == k
    rows = np.empty((*lead, v + 1 + same, k))
    rows[..., 0, :], rows[..., 1 : v + 1, :] = np.einsum("...vk->...k", counts), counts
    if same:
        rows[..., -1, :] = sizes
    terms = impurity(rows, criterion, base)
    before = terms[..., 0]
    spread = np.einsum("...v,...v->...", sizes, terms[..., 1 : v + 1])  # Σ_v |K_v| · H(K_v)
    after = spread / np.where(known > 0, known, 1.0)  # no known row: 0 / 1 = 0
    total = known + missing
    gain = known / np.where(total > 0, total, 1.0) * (before - after)
    gain = np.where(np.abs(gain) < TOLERANCE, 0.0, gain)
    information = terms[..., -1] if same else impurity(sizes, "entropy", base)
    score = gain
    if rule.ratio:  # C4.5: a test with many small branches pays for them
        score = np.divide(gain, information, out=np.zeros_like(gain), where=information > TOLERANCE)
    return Scores(before, after, gain, information, score)


def _count_table(values: Any, labels: Any, classes: Sequence | None = None) -> tuple:
    values, labels = np.asarray(values).astype(str), np.asarray(labels).astype(str)
    if values.shape != labels.shape or values.ndim != 1:
        raise ValueError(f"values and labels must be 1-D of one length, got {values.shape}, {labels.shape}")
    branches, v = np.unique(values, return_inverse=True)
    classes = np.unique(labels) if classes is None else np.asarray(classes).astype(str)
    c = np.searchsorted(classes, labels)
    table = np.zeros((len(branches), len(classes)), dtype=np.int64)
    np.add.at(table, (v, c), 1)
    return [str(b) for b in branches], table


def entropy(labels: Any, base: float = 2.0) -> float:
    """Shannon entropy of the labels, ``−Σ_c p_c log p_c`` in ``base`` (2: bits; e: nats)."""
    _, counts = np.unique(np.asarray(labels), return_counts=True)
    return float(impurity(counts, "entropy", base))


def gini(labels: Any) -> float:
    """Gini impurity of the labels: ``1 − Σ_c p_c²``, the chance two random draws differ."""
    _, counts = np.unique(np.asarray(labels), return_counts=True)
    return float(impurity(counts, "gini"))


def conditional_entropy(values: Any, labels: Any, base: float = 2.0) -> float:
    """``H(y | A) = Σ_v |S_v|/|S| · H(S_v)``: the entropy left once the feature is known."""
    return float(split_scores(_count_table(values, labels)[1], base=base).after)


def information_gain(values: Any, labels: Any, base: float = 2.0) -> float:
    """``Gain = H(S) − Σ_v |S_v|/|S| · H(S_v)``, each subset weighted by its share of rows."""
    return float(split_scores(_count_table(values, labels)[1], base=base).gain)


def split_information(values: Any) -> float:
    """``SplitInfo = −Σ_v |S_v|/|S| log2 |S_v|/|S|``: the entropy of the split itself."""
    _, counts = np.unique(np.asarray(values), return_counts=True)
    return float(impurity(counts))


def gain_ratio(values: Any, labels: Any) -> float:
    """``Gain / SplitInfo`` (0 when the feature has a single value, so SplitInfo = 0)."""
    return float(split_scores(_count_table(values, labels)[1], criterion="gain_ratio").score)


def gini_gain(values: Any, labels: Any) -> float:
    """The drop in Gini impurity: ``G(S) − Σ_v |S_v|/|S| · G(S_v)``."""
    return float(split_scores(_count_table(values, labels)[1], criterion="gini").gain)


@dataclass(frozen=True)
class SplitScore:
    """One test at one node, term by term: every number a student needs to redo its score.

    ``counts[v, c]`` holds the rows with a known value in branch ``branches[v]`` and class
    ``classes[c]``; ``missing`` rows have no value. ``terms`` is each branch's impurity and
    ``weights`` its share ``|K_v|/|K|``, so ``after = Σ weights · terms`` and ``gain =
    known_fraction · (before − after)``; ``score`` is what the criterion compares. All of them
    come from :func:`split_scores`, the function the tree is grown with.
    """

    feature: str
    branches: list[str]
    classes: list[str]
    counts: np.ndarray
    missing: int = 0
    criterion: str = "entropy"
    base: float = 2.0
    threshold: float | None = None
    chosen: bool = False

    @cached_property
    def _scores(self) -> Scores:
        return Scores(*map(float, split_scores(self.counts, self.missing, self.criterion, self.base)))

    before = property(lambda self: self._scores.before, doc="Impurity of the known rows.")
    after = property(lambda self: self._scores.after, doc="Branches' impurity weighted by |K_v|/|K|.")
    gain = property(lambda self: self._scores.gain, doc="known_fraction · (before − after).")
    split_information = property(
        lambda self: self._scores.split_information, doc="Entropy of the branch sizes."
    )
    score = property(lambda self: self._scores.score, doc="What the criterion compares.")

    @property
    def terms(self) -> np.ndarray:
        return impurity(self.counts, self.criterion, self.base)

    @property
    def weights(self) -> np.ndarray:
        sizes = self.counts.sum(axis=1)
        return sizes / max(int(sizes.sum()), 1)

    @property
    def known_fraction(self) -> float:
        known = int(self.counts.sum())
        return known / max(known + self.missing, 1)


def score_split(
    values: Any,
    labels: Any,
    criterion: str = "entropy",
    missing_value: str | None = "?",
    base: float = 2.0,
    feature: str = "A",
) -> SplitScore:
    """The score of splitting ``labels`` by a categorical feature's ``values``, term by term.

    Values equal to ``missing_value`` count as missing (None: every value is a branch);
    ``base`` is the logarithm's (2 for bits, ``numpy.e`` for the natural log some slides use).
    """
    values, labels = np.asarray(values).astype(str), np.asarray(labels).astype(str)
    known = values != missing_value if missing_value is not None else np.ones(len(values), bool)
    branches, counts = _count_table(values[known], labels[known], np.unique(labels))
    return SplitScore(
        feature, branches, list(np.unique(labels)), counts, int((~known).sum()), criterion, base
    )
