"""Reading a table and counting (classic._id3_engine): numeric thresholds at the slides' midpoints,
infinite, huge and adjacent values, a table's columns read as numbers or codes."""

import multiprocessing
import queue

import numpy as np
import pytest

from classic import datasets
from classic._id3_engine import threshold_candidates, threshold_text
from classic.criteria import (
    entropy,
)
from classic.id3 import ID3
from classic.lessons.tree_sources import (
    as_textbook,
    between,
    textbook_id3,
)

# --------------------------------------------------------------------------------------------
# Numeric features: thresholds at the slides' midpoints
# --------------------------------------------------------------------------------------------


def test_a_numeric_feature_splits_at_the_midpoint_where_labels_change():
    # Sorted values 1 2 3 | 5 8 with labels a a a | b b: one candidate, τ = (3 + 5) / 2 = 4.
    tree = ID3().fit(np.array([[8.0], [1.0], [3.0], [5.0], [2.0]]), ["b", "a", "a", "b", "a"], ["x"])
    root = tree.root_
    assert root.threshold == 4.0 and list(root.children) == ["<= 4", "> 4"]
    assert root.children["<= 4"].counts == {"a": 3, "b": 0} and root.shares == {"<= 4": 0.6, "> 4": 0.4}
    (candidate,) = tree.steps_[0].candidates()
    assert candidate.threshold == 4.0 and candidate.gain == pytest.approx(entropy(list("aaabb")))
    assert tree.rules() == ["IF x <= 4 THEN a", "IF x > 4 THEN b"]
    assert tree.predict([[3.9], [4.0], [4.1], [-100]]).tolist() == ["a", "a", "b", "a"]
    assert tree.conditions(root.children["> 4"]) == [("x", "> 4")]


def test_candidates_are_only_between_values_whose_labels_differ():
    # 1:a 2:a 3:b 4:b 5:a. Candidates 2.5 and 4.5 (not 1.5 or 3.5); x ≤ 2.5 leaves (a a) pure.
    X, y = np.array([[1.0], [2.0], [3.0], [4.0], [5.0]]), ["a", "a", "b", "b", "a"]
    tree = ID3().fit(X, y, ["x"])
    assert tree.root_.threshold == 2.5
    inner = tree.root_.children["> 2.5"]
    assert inner.feature == "x" and inner.threshold == 4.5  # the same feature again, another τ
    assert tree.score(X, y) == 1.0 and tree.n_leaves_ == 3
    # A value held by rows of two labels gives a candidate on each side of it; the best is 1.5.
    X, y = np.array([[1.0], [2.0], [2.0], [3.0]]), np.array([0, 0, 1, 1])
    _, thresholds, gap, _, _ = threshold_candidates([np.argsort(X[:, 0])], X, y, np.zeros(4, np.int64), 1, 2)
    assert thresholds.tolist() == [1.5, 2.5] and gap.tolist() == [[1.0, 2.0], [2.0, 3.0]]
    tree = ID3().fit(X, ["a", "a", "b", "b"], ["x"])
    assert [c.threshold for c in tree.steps_[0].candidates()] == [1.5]


def test_a_printed_threshold_sorts_the_training_values_as_the_tree_does():
    # Values 1.00002 apart: 4 significant digits would print every τ as "1" (x > 1 AND x <= 1).
    X = np.array([[1.0], [1.00002], [1.00004], [1.00006]])
    tree = ID3().fit(X, ["a", "b", "a", "b"], ["x"])
    for rule in tree.rules():
        bounds = [float(test.split()[-1]) for test in rule.split(" THEN ")[0][3:].split(" AND ")]
        assert len(set(bounds)) == len(bounds), rule
    assert tree.score(X, ["a", "b", "a", "b"]) == 1.0
    # Large values print without an exponent, small ones with no more digits than they need.
    income = ID3().fit(np.array([[41000.0], [50000.0]]), ["low", "high"], ["income"])
    assert list(income.root_.children) == ["<= 45500", "> 45500"]
    assert threshold_text(0.15, 0.1, 0.2) == "0.15" and threshold_text(2.5, 2.0, 3.0) == "2.5"


def _fit_within(X, y, seconds: float = 20.0, **params) -> ID3:
    """``ID3(**params).fit(X, y)`` in a forked process: a fit still running after ``seconds`` fails
    the test (a guard against a growth loop that never ends, not a timing)."""
    context = multiprocessing.get_context("fork")
    found = context.Queue()
    worker = context.Process(target=lambda: found.put(ID3(**params).fit(X, y)))
    worker.start()
    try:
        return found.get(timeout=seconds)
    except queue.Empty:
        pytest.fail(f"ID3({params}).fit did not end within {seconds} s on {np.asarray(X).tolist()!r}")
    finally:
        worker.kill()
        worker.join()


def _sorts_as_printed(tree: ID3, X: np.ndarray) -> None:
    """Each training row ends in the leaf whose printed rule it meets (the rules' τ parsed back)."""
    leaves = tree.apply(X)
    for node in tree._iter_nodes():
        if node.is_leaf and node.n_samples:
            tests = [(tree.feature_names_.index(f), b.split()) for f, b in tree.conditions(node)]
            meets = np.ones(len(X), bool)
            for j, (op, text) in tests:
                meets &= X[:, j] <= float(text) if op == "<=" else X[:, j] > float(text)
            assert (meets == (leaves == node.id)).all(), (node, tests)


A, B = 1 + 2.0**-52, 1 + 2.0**-51  # adjacent floats: (A + B) / 2 rounds onto B


BIG = np.finfo(float).max


EDGES = {  # a column, its labels, and the values the root's τ lies between (τ = the lower or in between)
    "inf": ([1.0, 2.0, np.inf, np.inf], [0, 0, 1, 1]),
    "-inf": ([-np.inf, -np.inf, 1.0, 2.0], [0, 0, 1, 1]),
    "-inf next to inf": ([np.inf, -np.inf, np.inf], [1, 0, 1]),
    "adjacent floats": ([A, B, A, B, B], [0, 1, 0, 1, 1]),
    "1e308 and 1.7e308 (the sum overflows)": ([1e308, 1.7e308, 1.7e308], [0, 1, 1]),
    "-1.7e308 and -1e308": ([-1e308, -1.7e308], [1, 0]),
    "the two largest floats": ([np.nextafter(BIG, 0), BIG], [0, 1]),
    "the largest float and inf": ([BIG, np.inf, -BIG, -np.inf], [0, 1, 2, 3]),
    "subnormals": ([5e-324, 1e-323, 0.0, 5e-324], [1, 2, 0, 1]),
    "a mix": ([-np.inf, 1.0, 2.0, np.inf, A, B, 1.7e308, -1.7e308], [0, 1, 0, 1, 0, 1, 0, 1]),
}


@pytest.mark.parametrize("criterion", ["entropy", "gini"])
@pytest.mark.parametrize("name", list(EDGES))
def test_infinite_huge_and_adjacent_values_split_and_the_fit_ends(name, criterion):
    # τ separates the values it lies between: their midpoint, or the lower one where the midpoint
    # rounds onto the upper (adjacent floats, inf) or is not a number (-inf + inf); no overflow.
    x, y = EDGES[name]
    X = np.array(x)[:, None]
    tree = _fit_within(X, y, criterion=criterion)
    assert tree.score(X, y) == 1.0  # every value its own label: the tree separates them all
    flat = tree._tree.flush()
    inner = flat.feature[: flat.size] >= 0
    low, tau, high = flat.low[inner], flat.threshold[inner], flat.high[inner]
    assert ((low <= tau) & (tau < high)).all(), (low, tau, high)
    assert np.isfinite(tau[np.isfinite(low) & np.isfinite(high)]).all()
    _sorts_as_printed(tree, X)
    assert all(len(rule) < 120 for rule in tree.rules()), tree.rules()  # no 309-digit numbers


def test_a_midpoint_that_would_overflow_is_halved_first():
    tree = _fit_within(np.array([[1e308], [1.7e308]]), [0, 1])
    assert tree.root_.threshold == 1e308 / 2 + 1.7e308 / 2  # a midpoint, not the lower value
    tree = _fit_within(np.array([[A], [B]]), [0, 1])
    assert tree.root_.threshold == A and tree.rules() == [f"IF x0 <= {A!r} THEN 0", f"IF x0 > {A!r} THEN 1"]
    tree = _fit_within(np.array([[-np.inf], [1.0]]), [0, 1])
    assert tree.root_.threshold == -np.inf and list(tree.root_.children) == ["<= -inf", "> -inf"]


@pytest.mark.parametrize("seed", range(8))
def test_random_tables_of_edge_values_fit_every_training_row(seed):
    # Labels a function of the first column's value (separable): a full tree fits every row; with
    # NaN in the other columns the general loop grows it, without them the fused numeric loop.
    rng = np.random.default_rng(seed)
    pool = np.array([-np.inf, np.inf, A, B, 1.0, 0.0, -0.0, 1e308, 1.7e308, -BIG, BIG, 5e-324, 2.5, -3.0])
    n = int(rng.integers(2, 60))
    X = rng.choice(pool, size=(n, 3))
    labels = rng.integers(0, 3, len(pool))
    y = labels[np.searchsorted(np.unique(pool), X[:, 0])]  # (0.0 and -0.0 are one value)
    if seed % 2:
        X[rng.random((n, 3)) < 0.2] = np.nan
        X[:, 0] = np.where(np.isnan(X[:, 0]), 2.5, X[:, 0])
        y = labels[np.searchsorted(np.unique(pool), X[:, 0])]
    tree = _fit_within(X, y, criterion=("entropy", "gain_ratio", "gini")[seed % 3])
    assert tree.score(X, y) == 1.0
    if not seed % 2:
        _sorts_as_printed(tree, X)


def test_a_split_that_leaves_a_side_empty_makes_a_leaf(monkeypatch):
    # A broken midpoint (τ = the value above) puts both values on one side. The node becomes a
    # leaf rather than repeating the split for ever: every split left has rows on both sides.
    from classic import _id3_engine

    def upper(value, at, *_):
        gap = value[at[:, None] + np.array([0, 1])]
        return gap[:, 1].copy(), gap

    monkeypatch.setattr(_id3_engine, "midpoints", upper)
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    for tree in (_fit_within(X, [0, 1, 1, 0]), _fit_within(np.c_[X, [np.nan, 1, 2, 3]], [0, 1, 1, 0])):
        assert tree.n_nodes_ >= 1
        for node in tree._iter_nodes():
            assert node.is_leaf or sum(1 for c in node.children.values() if c.n_samples) == 2, node


def test_string_columns_of_numbers_are_numeric_and_mixed_tables_work():
    X = np.array(
        [["1.5", "red"], ["1.7", "blue"], ["1.9", "red"], ["2.1", "blue"], ["?", "red"], ["2.3", "?"]],
        dtype=object,
    )
    y = ["s", "s", "t", "t", "s", "t"]
    tree = ID3().fit(X, y, ["height", "colour"])
    assert tree.numeric_.tolist() == [True, False]
    assert tree.root_.feature == "height" and tree.root_.threshold == pytest.approx(1.8)
    (height, colour) = tree.steps_[0].candidates()
    assert height.missing == 1 and height.known_fraction == pytest.approx(5 / 6)
    assert colour.branches == ["blue", "red"] and colour.missing == 1
    proba = tree.predict_proba([["?", "red"]])
    np.testing.assert_allclose(proba, [[3 / 5, 2 / 5]])  # weighted by the 2 : 3 known rows each way
    with pytest.raises(ValueError, match="numeric"):
        tree.predict([["tall", "red"]])


def test_numeric_arrays_with_nan_as_missing():
    X = np.array([[0.0, 1.0], [1.0, np.nan], [2.0, 0.0], [3.0, 1.0]])
    tree = ID3().fit(X, ["a", "a", "b", "b"])
    assert tree.numeric_.tolist() == [True, True] and tree.root_.threshold == 1.5
    assert tree.predict(np.array([[np.nan, 0.0]])).shape == (1,)


@pytest.mark.parametrize("seed", range(3))
def test_the_root_threshold_agrees_with_scikit_learn(seed):
    DecisionTreeClassifier = pytest.importorskip("sklearn.tree").DecisionTreeClassifier
    X, y = datasets.gaussian_clusters(60, ((-1.0, 0.0), (1.5, 0.5)), 1.0, seed)
    ours = ID3(max_depth=1).fit(X, y)
    theirs = DecisionTreeClassifier(criterion="entropy", max_depth=1, random_state=0).fit(X, y)
    assert ours.root_.feature_index == theirs.tree_.feature[0]
    assert ours.root_.threshold == pytest.approx(theirs.tree_.threshold[0])
    gain = theirs.tree_.impurity[0] - sum(
        theirs.tree_.weighted_n_node_samples[c] / len(y) * theirs.tree_.impurity[c] for c in (1, 2)
    )
    assert ours.steps_[0].candidates()[ours.root_.feature_index].gain == pytest.approx(gain)


def test_a_full_numeric_tree_agrees_with_scikit_learn_on_predictions():
    DecisionTreeClassifier = pytest.importorskip("sklearn.tree").DecisionTreeClassifier
    X, y = datasets.moons(400, 0.2, 0)
    ours = ID3().fit(X, y)
    theirs = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
    assert ours.score(X, y) == theirs.score(X, y) == 1.0
    X_test, _ = datasets.moons(2000, 0.2, 1)
    agree = np.mean(ours.predict(X_test).astype(int) == theirs.predict(X_test))
    assert agree > 0.9


def test_one_character_tables_encode_as_a_lookup_would():
    """A table of single characters is coded through code points; every code must be the one the
    branch lookup gives: the value's branch, −1 for the missing marker, −2 for a value never seen."""
    rng = np.random.default_rng(4)
    table = rng.choice(["a", "b", "", "?", "é", "中"], size=(60, 3)).astype("U4")
    table[:, 2] = rng.choice(list("01?"), 60)  # a column of digits is numeric
    y = rng.choice(["p", "q"], 60)
    for missing in ("fractional", "value"):
        tree = ID3(missing=missing).fit(table, y)
        assert tree.numeric_.tolist() == [False, False, True]
        queries = rng.choice(["a", "b", "", "?", "z", "中"], size=(40, 3)).astype(object)
        queries[:, 2] = rng.choice(list("01?"), 40)
        codes, values = tree._input(queries)
        for j in (0, 1):
            lookup = {v: b for b, v in enumerate(tree._encoding.branches[j])}
            lost = -2 if missing == "value" else -1
            expected = [lookup.get(v, lost if v == "?" else -2) for v in queries[:, j].tolist()]
            assert codes[:, j].tolist() == expected
        assert np.array_equal(np.isnan(values[:, 2]), queries[:, 2] == "?")


@pytest.mark.parametrize("name", list(EDGES))
def test_the_printed_textbook_id3_picks_the_same_thresholds_on_edge_values(name):
    """How it works' ID3 (the page prints it) uses ID3's τ: it ends on these columns and grows the same tree."""
    x, y = EDGES[name]
    X, labels = np.array(x)[:, None], np.asarray(y).astype(str)
    context = multiprocessing.get_context("fork")
    found = context.Queue()
    worker = context.Process(target=lambda: found.put(textbook_id3(X.tolist(), labels.tolist(), {0})))
    worker.start()
    try:
        slow = found.get(timeout=20)
    except queue.Empty:
        pytest.fail(f"textbook_id3 did not end within 20 s on {x!r}")
    finally:
        worker.kill()
        worker.join()
    assert as_textbook(ID3().fit(X, labels)) == slow
    assert (
        between(A, B) == A and between(1e308, 1.7e308) == 1e308 / 2 + 1.7e308 / 2 and between(1.0, 2.0) == 1.5
    )
