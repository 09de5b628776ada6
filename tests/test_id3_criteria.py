"""The split criteria (classic.criteria): hand-checkable entropy, Gini and gain numbers from the
slides, the registry, split_scores and the term-by-term SplitScore."""

import numpy as np
import pytest

from classic import datasets
from classic.criteria import (
    CRITERIA,
    conditional_entropy,
    entropy,
    gain_ratio,
    gini,
    gini_gain,
    information_gain,
    score_split,
    split_information,
    split_scores,
)
from classic.id3 import ID3


def _split(positives: int, negatives: int, value: str) -> tuple[list[str], list[str]]:
    return [value] * (positives + negatives), ["+"] * positives + ["-"] * negatives


def _two_way(left: tuple[int, int], right: tuple[int, int]) -> tuple[list[str], list[str]]:
    values_l, labels_l = _split(*left, "left")
    values_r, labels_r = _split(*right, "right")
    return values_l + values_r, labels_l + labels_r


# --------------------------------------------------------------------------------------------
# Impurity and gain
# --------------------------------------------------------------------------------------------


def test_entropy_by_hand():
    assert entropy([]) == 0.0
    assert entropy(["a", "a", "a"]) == 0.0  # 0 · log 0 = 0
    assert entropy(["a", "b"]) == pytest.approx(1.0)
    assert entropy(list("abcd")) == pytest.approx(2.0)
    assert entropy(["+"] * 30 + ["-"] * 10) == pytest.approx(0.8113, abs=1e-4)


def test_gini_by_hand():
    assert gini(["a"] * 5) == 0.0
    assert gini(["a", "b"]) == pytest.approx(0.5)
    assert gini(["+"] * 30 + ["-"] * 10) == pytest.approx(1 - 0.75**2 - 0.25**2)


def test_slides_30_positive_10_negative_test_1_beats_test_2():
    # CS 886 slides, "Which test is best?": 30+ and 10−; Test 1 splits them [20+, 10−] / [10+, 0−],
    # Test 2 [15+, 7−] / [15+, 3−]. Gain 1 = 0.8113 − (30/40 · 0.9183 + 10/40 · 0) = 0.1226.
    test_1, test_2 = _two_way((20, 10), (10, 0)), _two_way((15, 7), (15, 3))
    gain_1, gain_2 = information_gain(*test_1), information_gain(*test_2)
    assert gain_1 == pytest.approx(entropy(test_1[1]) - 30 / 40 * entropy(["+"] * 20 + ["-"] * 10))
    assert round(gain_1, 4) == 0.1226
    assert round(gain_2, 4) == 0.0225  # 0.8113 − (22/40 · 0.9024 + 18/40 · 0.6500)
    assert gain_1 > gain_2
    assert gain_ratio(*test_1) > gain_ratio(*test_2) and gini_gain(*test_1) > gini_gain(*test_2)
    # The page's "Test1 vs Test2 (the slides)" table holds exactly these splits.
    X, y, names = datasets.load_two_tests()
    assert names == ["Test1", "Test2"]
    for j, (values, labels) in enumerate((test_1, test_2)):
        page, slides = score_split(X[:, j], y), score_split(values, labels)
        assert sorted(page.counts.tolist()) == sorted(slides.counts.tolist())
        assert page.gain == pytest.approx(slides.gain)


def test_slides_has_kids_numbers_in_bits_and_in_nats():
    X, y, names = datasets.load_has_kids()
    assert names == ["HasKids"] and len(y) == 8
    assert entropy(y) == pytest.approx(1.0)
    assert entropy(y[X[:, 0] == "Yes"]) == pytest.approx(0.9183, abs=1e-4)
    assert conditional_entropy(X[:, 0], y) == pytest.approx(0.6887, abs=1e-4)
    assert information_gain(X[:, 0], y) == pytest.approx(0.3113, abs=1e-4)
    bits = score_split(X[:, 0], y, feature="HasKids")
    assert bits.branches == ["No", "Yes"] and bits.counts.tolist() == [[2, 0], [2, 4]]
    assert np.round(bits.terms, 4).tolist() == [0.0, 0.9183]
    assert bits.weights.tolist() == [0.25, 0.75]
    assert (round(bits.before, 4), round(bits.after, 4), round(bits.gain, 4)) == (1.0, 0.6887, 0.3113)
    # The slides redo the example with natural logarithms: 0.6365 and 0.4774.
    nats = score_split(X[:, 0], y, base=np.e)
    assert round(float(nats.terms[1]), 4) == 0.6365 and round(nats.after, 4) == 0.4774
    assert conditional_entropy(X[:, 0], y, base=np.e) == pytest.approx(0.4774, abs=1e-4)
    assert entropy(y, base=np.e) == pytest.approx(np.log(2))
    candidate = ID3().fit(X, y, names).steps_[0].candidates()[0]
    assert (candidate.before, round(candidate.after, 4), round(candidate.gain, 4)) == (1.0, 0.6887, 0.3113)


def test_slides_test1_beats_test2_on_their_table():
    X, y, names = datasets.load_two_tests()
    assert (y == "+").sum() == 30 and (y == "-").sum() == 10
    first, second = (score_split(X[:, j], y) for j in range(2))
    assert first.counts.tolist() == [[10, 0], [20, 10]]  # F: [10+, 0-], T: [20+, 10-]
    assert second.counts.tolist() == [[15, 3], [15, 7]]
    assert first.gain == pytest.approx(0.1226, abs=1e-4) and second.gain == pytest.approx(0.0225, abs=1e-4)
    assert ID3().fit(X, y, names).root_.feature == "Test1"


def test_split_scores_is_the_one_definition_with_missing_rows():
    # 3 rows a (Yes), 1 row b (No), 2 rows with no value: gain = 4/6 · (H(3,1) − 0).
    before, after, gain, information, score = split_scores(np.array([[0, 3], [1, 0]]), missing=2)
    assert before == pytest.approx(0.8113, abs=1e-4) and after == 0.0
    assert gain == pytest.approx(4 / 6 * 0.8113, abs=1e-4) and score == gain
    assert information == pytest.approx(0.8113, abs=1e-4)
    explained = score_split(["a", "a", "a", "b", "?", "?"], ["Y", "Y", "Y", "N", "Y", "N"])
    assert (explained.missing, explained.known_fraction) == (2, pytest.approx(4 / 6))
    assert explained.gain == pytest.approx(explained.known_fraction * (explained.before - explained.after))


def test_split_scores_names_its_numbers():
    found = split_scores(np.array([[[0, 3], [1, 0]], [[2, 2], [0, 0]]]), missing=2, criterion="gain_ratio")
    assert found._fields == ("before", "after", "gain", "split_information", "score")
    assert found.score[0] == pytest.approx(found.gain[0] / found.split_information[0])
    assert found.score[1] == 0.0  # one branch: no split information, no ratio


def test_a_new_split_criterion_is_one_entry_in_the_registry(monkeypatch):
    # Misclassification error, 1 − max_c p_c: registered once, grown by ID3 and tabled for the player.
    from classic import criteria
    from classic.viz import tree_figures

    error = criteria.Criterion(
        "Misclassification error", "E", lambda p, base: 1 - p.max(axis=-1), logarithm=False
    )
    monkeypatch.setitem(criteria.CRITERIA, "error", error)
    X, y, names = datasets.load_play_tennis()
    tree = ID3(criterion="error").fit(X, y, names)
    by_hand = {}  # each feature's drop in error at the root, from the counts
    for j, name in enumerate(names):
        before = 1 - max(np.mean(y == c) for c in np.unique(y))
        after = sum(
            np.mean(X[:, j] == v) * (1 - max(np.mean(y[X[:, j] == v] == c) for c in np.unique(y)))
            for v in np.unique(X[:, j])
        )
        by_hand[name] = before - after
    best = max(by_hand.values())
    assert tree.root_.feature == next(name for name in names if by_hand[name] >= best - 1e-12)
    table = tree_figures.split_table(tree.steps_[0])
    assert "E before" in table and "gain ratio" not in table
    assert table["gain"] == pytest.approx([by_hand[name] for name in table["test"]])


def test_classic_id3_still_exports_the_criteria_it_moved_to_classic_criteria():
    from classic import criteria, id3

    names = ["entropy", "gini", "conditional_entropy", "information_gain", "split_information"]
    names += ["gain_ratio", "gini_gain", "score_split", "split_scores", "impurity", "SplitScore"]
    for name in names:
        assert getattr(id3, name) is getattr(criteria, name)
    X, y, _ = datasets.load_has_kids()
    assert id3.information_gain(X[:, 0], y) == pytest.approx(0.3113, abs=5e-5)  # the slides' number


def test_split_information_and_gain_ratio_by_hand():
    assert split_information(["a", "a", "b", "b"]) == pytest.approx(1.0)
    assert split_information(["a"] * 4) == 0.0
    assert gain_ratio(["a"] * 4, ["x", "y", "x", "y"]) == 0.0  # nothing to split
    values, labels = _two_way((20, 0), (10, 10))
    assert gain_ratio(values, labels) == pytest.approx(information_gain(values, labels) / 1.0)


@pytest.mark.parametrize("criterion", CRITERIA)
def test_every_criterion_scores_the_trees_candidates_as_the_textbook_does(criterion):
    """For each criterion of the registry, each candidate of every step of a grown tree scores what
    the textbook formula gives from its counts with the criterion's own impurity: the gain
    I(S) − Σ_v |S_v|/|S| · I(S_v), divided by the split information for a ratio criterion."""
    rule = CRITERIA[criterion]

    def impurity(labels):
        _, counts = np.unique(labels, return_counts=True)
        return float(rule.impurity(counts / counts.sum(), 2.0)) if len(labels) else 0.0

    assert impurity(["a"] * 5) == pytest.approx(0.0)  # a pure node is not impure
    X, y, names = datasets.load_play_tennis()
    tree = ID3(criterion=criterion).fit(X, y, names)
    scored = 0
    for step in tree.steps_:
        rows = y[step.rows]
        for j, candidate in zip(step.columns, step.candidates(), strict=True):
            values = X[step.rows, j]
            branches = [rows[values == v] for v in np.unique(values)]
            gain = impurity(rows) - sum(len(b) / len(rows) * impurity(b) for b in branches)
            information = -sum(len(b) / len(rows) * np.log2(len(b) / len(rows)) for b in branches)
            score = (gain / information if information > 1e-12 else 0.0) if rule.ratio else gain
            assert candidate.gain == pytest.approx(gain, abs=1e-12), (step, names[j])
            assert candidate.score == pytest.approx(score, abs=1e-12), (step, names[j])
            scored += 1
    assert scored >= len(names)


def test_candidate_tables_agree_with_the_module_functions():
    X, y, names = datasets.load_play_tennis()
    for criterion, score in (("entropy", information_gain), ("gain_ratio", gain_ratio), ("gini", gini_gain)):
        tree = ID3(criterion=criterion).fit(X, y, names)
        for step in tree.steps_:
            for j, candidate in zip(step.columns, step.candidates(), strict=True):
                assert candidate.score == pytest.approx(score(X[step.rows, j], y[step.rows]), abs=1e-12)
                assert candidate.gain == pytest.approx(candidate.before - candidate.after)


def test_split_scores_do_not_depend_on_the_tables_memory_layout():
    counts = np.random.default_rng(5).integers(0, 40, (30, 4, 4))
    transposed = np.ascontiguousarray(counts.transpose(0, 2, 1)).transpose(0, 2, 1)  # same values
    for criterion in CRITERIA:
        for a, b in zip(
            split_scores(counts, 1, criterion), split_scores(transposed, 1, criterion), strict=True
        ):
            assert a.tobytes() == b.tobytes()
