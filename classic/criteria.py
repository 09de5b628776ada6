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

and the Gini criterion is the same gain with G in place of H. Every number comes from one
function, :func:`split_scores`, which works on count tables ``counts[..., branch, class]`` (so
a whole level of a tree is scored in one call); the functions on labels (:func:`entropy`,
:func:`information_gain`, …) build the table and call it, and :class:`SplitScore` gives a
reader the same numbers term by term. :class:`classic.id3.ID3` grows its trees with
:func:`split_scores`, and :mod:`classic.id3` re-exports these names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

CRITERIA = ("entropy", "gain_ratio", "gini")
TOLERANCE = 1e-12  # scores closer than this are ties (the first column wins)


# Sums run through einsum: numpy's sum over a short axis (2 classes, 3 values) costs 5–10× more.
def _total(a: np.ndarray) -> np.ndarray:
    return np.einsum("...k->...", a)


def impurity(counts: Any, criterion: str = "entropy", base: float = 2.0) -> np.ndarray:
    """Entropy (in ``base``) or Gini impurity of each row of a class-count table (0 if empty)."""
    counts = np.asarray(counts, dtype=np.float64)
    totals = _total(counts)[..., None]
    p = counts / np.where(totals > 0, totals, 1.0)  # an empty row: 0 / 1 = 0
    if criterion == "gini":
        return np.where(totals[..., 0] > 0, 1.0 - np.einsum("...k,...k->...", p, p), 0.0)
    logs = np.log2(np.where(p > 0, p, 1.0))  # 0 · log 0 = 0 · log 1 = 0
    if base != 2:
        logs /= np.log2(base)
    return np.abs(np.einsum("...k,...k->...", p, logs))  # abs: a pure node is 0, not −0


def split_scores(counts: Any, missing: Any = 0, criterion: str = "entropy", base: float = 2.0) -> tuple:
    """The score of splits given their count tables ``counts[..., branch, class]``.

    ``missing`` is the number of rows whose value is unknown (not in the table). Returns
    ``(before, after, gain, split_information, score)`` arrays over the leading axes: the
    impurity of the known rows, the branches' impurity weighted by ``|K_v|/|K|``, the gain
    ``|K|/|S| · (before − after)``, the entropy of the branch sizes, and what the criterion
    compares (the gain, or ``gain / split_information`` for "gain_ratio").
    """
    counts = np.asarray(counts, dtype=np.float64)
    kind = "gini" if criterion == "gini" else "entropy"
    *lead, v, k = counts.shape
    sizes = _total(counts)  # |K_v|
    known = _total(sizes)  # |K|
    # The impurities in one call, each a row of one table: the known rows' class totals, each
    # branch's classes and, when it is an entropy of as many numbers (v = k), the branch sizes.
    same = kind == "entropy" and v == k
    rows = np.empty((*lead, v + 1 + same, k))
    rows[..., 0, :], rows[..., 1 : v + 1, :] = np.einsum("...vk->...k", counts), counts
    if same:
        rows[..., -1, :] = sizes
    terms = impurity(rows, kind, base)
    before = terms[..., 0]
    spread = np.einsum("...v,...v->...", sizes, terms[..., 1 : v + 1])  # Σ_v |K_v| · H(K_v)
    after = spread / np.where(known > 0, known, 1.0)  # no known row: 0 / 1 = 0
    total = known + missing
    gain = known / np.where(total > 0, total, 1.0) * (before - after)
    gain = np.where(np.abs(gain) < TOLERANCE, 0.0, gain)
    information = terms[..., -1] if same else impurity(sizes, "entropy", base)
    score = gain
    if criterion == "gain_ratio":
        score = np.divide(gain, information, out=np.zeros_like(gain), where=information > TOLERANCE)
    return before, after, gain, information, score


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
    return float(split_scores(_count_table(values, labels)[1], base=base)[1])


def information_gain(values: Any, labels: Any, base: float = 2.0) -> float:
    """``Gain = H(S) − Σ_v |S_v|/|S| · H(S_v)``, each subset weighted by its share of rows."""
    return float(split_scores(_count_table(values, labels)[1], base=base)[2])


def split_information(values: Any) -> float:
    """``SplitInfo = −Σ_v |S_v|/|S| log2 |S_v|/|S|``: the entropy of the split itself."""
    _, counts = np.unique(np.asarray(values), return_counts=True)
    return float(impurity(counts))


def gain_ratio(values: Any, labels: Any) -> float:
    """``Gain / SplitInfo`` (0 when the feature has a single value, so SplitInfo = 0)."""
    return float(split_scores(_count_table(values, labels)[1], criterion="gain_ratio")[4])


def gini_gain(values: Any, labels: Any) -> float:
    """The drop in Gini impurity: ``G(S) − Σ_v |S_v|/|S| · G(S_v)``."""
    return float(split_scores(_count_table(values, labels)[1], criterion="gini")[2])


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
    def _scores(self) -> tuple:
        return tuple(map(float, split_scores(self.counts, self.missing, self.criterion, self.base)))

    before = property(lambda self: self._scores[0], doc="Impurity of the known rows.")
    after = property(lambda self: self._scores[1], doc="Branches' impurity weighted by |K_v|/|K|.")
    gain = property(lambda self: self._scores[2], doc="known_fraction · (before − after).")
    split_information = property(lambda self: self._scores[3], doc="Entropy of the branch sizes.")
    score = property(lambda self: self._scores[4], doc="What the criterion compares.")

    @property
    def terms(self) -> np.ndarray:
        return impurity(self.counts, "gini" if self.criterion == "gini" else "entropy", self.base)

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
