"""ID3 on numeric features: the fast path (presorted columns, a whole level's thresholds scored in
one ``split_scores`` call, rows partitioned a level at a time) against a plain reference that
sorts each node's values and scores one threshold at a time with the same criterion function."""

import numpy as np
import pytest

from classic._id3_engine import threshold_candidates
from classic.criteria import TOLERANCE, split_scores
from classic.id3 import ID3


def _candidates(x: np.ndarray, y: np.ndarray, n_classes: int) -> list[tuple[float, np.ndarray]]:
    """The slides' thresholds at one node, by hand: midpoints between consecutive distinct values,
    unless all rows at both values have one same label; with each ``[[left], [right]]`` table."""
    known = ~np.isnan(x)
    x, y = x[known], y[known]
    values = np.unique(x)
    found = []
    for low, high in zip(values[:-1], values[1:], strict=True):
        labels = set(y[(x == low) | (x == high)].tolist())
        if len(labels) == 1:
            continue
        left = np.bincount(y[x <= low], minlength=n_classes)
        right = np.bincount(y[x >= high], minlength=n_classes)
        found.append(((low + high) / 2, np.array([left, right])))
    return found


def _reference_tree(X, y, n_classes, criterion="entropy", max_depth=None, min_gain=0.0) -> list[tuple]:
    """Nodes breadth first as ``(depth, class counts, feature, τ)``: one node, one feature, one
    threshold at a time (no missing values)."""
    nodes, level = [], [(np.arange(len(y)), 0)]
    while level:
        following = []
        for rows, depth in level:
            counts = np.bincount(y[rows], minlength=n_classes).tolist()
            node = [depth, counts, None, None]
            nodes.append(node)
            if sum(1 for c in counts if c) < 2 or (max_depth is not None and depth >= max_depth):
                continue
            best_per_feature = []
            for j in range(X.shape[1]):
                scored = [
                    (float(split_scores(table, 0, criterion)[4]), tau)
                    for tau, table in _candidates(X[rows, j], y[rows], n_classes)
                ]
                if not scored:
                    best_per_feature.append((-np.inf, None))
                    continue
                top = max(score for score, _ in scored)
                best_per_feature.append(next((s, t) for s, t in scored if s >= top - TOLERANCE))
            top = max(score for score, _ in best_per_feature)
            if not top > min_gain + TOLERANCE:
                continue
            j = next(j for j, (score, _) in enumerate(best_per_feature) if score >= top - TOLERANCE)
            tau = best_per_feature[j][1]
            node[2:] = [j, tau]
            following += [(rows[X[rows, j] <= tau], depth + 1), (rows[X[rows, j] > tau], depth + 1)]
        level = following
    return [tuple(node) for node in nodes]


def _tree(tree: ID3) -> list[tuple]:
    nodes = sorted(tree._iter_nodes(), key=lambda node: node.id)
    return [(n.depth, list(n.counts.values()), n.feature_index, n.threshold) for n in nodes]


@pytest.mark.parametrize("seed", range(12))
def test_numeric_trees_equal_a_one_threshold_at_a_time_reference(seed):
    rng = np.random.default_rng(seed)
    n, n_features, n_classes = int(rng.integers(2, 160)), int(rng.integers(1, 4)), int(rng.integers(2, 4))
    X = rng.normal(size=(n, n_features))
    if seed % 2:
        X = np.round(X, 1)  # ties: runs of one value with several labels
    y = rng.integers(0, n_classes, n)
    criterion = ("entropy", "gain_ratio", "gini")[seed % 3]
    max_depth, min_gain = (None, 3, None, 5)[seed % 4], (0.0, 0.0, -1.0, 0.02)[seed % 4]
    tree = ID3(criterion=criterion, max_depth=max_depth, min_gain=min_gain).fit(X, y)
    classes = len(tree.classes_)
    labels = np.searchsorted(tree.classes_, y.astype(str))
    assert _tree(tree) == _reference_tree(X, labels, classes, criterion, max_depth, min_gain)
    for step in tree.steps_:  # the split table shows each feature's best threshold and its table
        for j, candidate in enumerate(step.candidates()):
            scored = _candidates(X[step.rows, j], labels[step.rows], classes)
            if candidate.threshold is not None:
                table = dict(scored)[candidate.threshold]
                np.testing.assert_array_equal(candidate.counts, table)


@pytest.mark.parametrize("seed", range(6))
def test_threshold_candidates_of_many_nodes_equal_one_node_at_a_time(seed):
    rng = np.random.default_rng(100 + seed)
    n, n_nodes = 80, 5
    X = np.round(rng.normal(size=(n, 2)), 1)
    X[rng.random(X.shape) < 0.1] = np.nan
    y = rng.integers(0, 3, n)
    node_of_row = rng.integers(0, n_nodes + 1, n)  # n_nodes: a row in no node
    orders = [np.argsort(X[:, f], kind="stable") for f in range(2)]
    group, threshold, gap, tables, missing = threshold_candidates(orders, X, y, node_of_row, n_nodes, 3)
    assert (np.diff(group) >= 0).all()
    for f in range(2):
        for i in range(n_nodes):
            here = node_of_row == i
            expected = _candidates(X[here, f], y[here], 3)
            mine = group == i * 2 + f
            assert threshold[mine].tolist() == [tau for tau, _ in expected]
            np.testing.assert_array_equal(
                tables[mine].reshape(-1, 2, 3), np.array([t for _, t in expected]).reshape(-1, 2, 3)
            )
            assert ((gap[mine, 0] < threshold[mine]) & (threshold[mine] < gap[mine, 1])).all()
            assert missing[i * 2 + f] == np.isnan(X[here, f]).sum()


def test_a_numeric_column_missing_at_every_row_of_a_node_has_no_candidate():
    # "size" is missing wherever colour = red: below that branch it has no threshold to offer.
    colour = ["red"] * 8 + ["blue"] * 4
    size = ["?"] * 8 + ["1", "2", "3", "4"]
    X = np.array(list(zip(colour, size, strict=True)), dtype=object)
    y = ["a"] * 7 + ["b"] + ["b", "b", "b", "a"]
    tree = ID3().fit(X, y, ["colour", "size"])
    assert tree.root_.feature == "colour"
    assert tree.root_.children["blue"].threshold == 3.5 and tree.root_.children["red"].is_leaf
    X = np.array([[np.nan], [np.nan], [1.0]])
    group, *_, missing = threshold_candidates(
        [np.argsort(X[:, 0])], X, np.array([0, 1, 0]), np.zeros(3, int), 1, 2
    )
    assert len(group) == 0 and missing.tolist() == [2]


class _Unfused(ID3):
    """ID3 grown by the general loop (categorical features, missing values, DrawnTree's hooks)."""

    _fuse_numbers = False


def _everything(tree: ID3, X: np.ndarray) -> dict:
    """Every fitted attribute, the flat arrays, the nodes, the split tables and the predictions
    (each as its repr: floats compared to the last bit)."""
    flat = tree._tree.flush()
    names = "parent slot depth feature step threshold low high counts child share pruned".split()
    found = {name: getattr(flat, name)[: flat.size].tolist() for name in names}
    found["fitted"] = (
        tree.n_nodes_,
        tree.n_leaves_,
        tree.depth_,
        tree.classes_.tolist(),
        tree.numeric_.tolist(),
    )
    found["categories"] = [c.tolist() for c in tree.categories_]
    found["nodes"] = [
        (n.id, n.depth, n.counts, n.label, n.feature, n.threshold, n.children, n.shares, n.step)
        for n in tree._iter_nodes()
    ]
    found["steps"] = [
        (
            s.node.id,
            s.rows.tolist(),
            s.columns,
            s.chosen,
            [vars(c) | {"score": c.score} for c in s.candidates()],
        )
        for s in tree.steps_
    ]
    found["predictions"] = (tree.predict(X).tolist(), tree.predict_proba(X).tolist(), tree.apply(X).tolist())
    found["rules"] = tree.rules()
    return {key: repr(value) for key, value in found.items()}


def _numeric_tables():
    from classic import compare, datasets

    yield datasets.moons(1000, 0.3, 0)
    for name in ("Spiral", "Gaussian clusters", "XOR"):
        yield compare.DATASETS[name](300, 1)
    for seed in range(16):
        rng = np.random.default_rng(seed)
        n, m = int(rng.integers(1, 200)), int(rng.integers(1, 4))
        X = np.round(rng.normal(size=(n, m)), seed % 3)  # ties: few distinct values
        if seed % 4 == 0:
            X = np.concatenate([X, X])  # every row twice
        y = rng.integers(0, 1 + seed % 4, len(X))  # one class when seed % 4 == 0
        yield X, y


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"criterion": "gini"},
        {"criterion": "gain_ratio"},
        {"max_depth": 3},
        {"min_gain": 0.05},
        {"min_gain": -1},
    ],
)
def test_the_fused_numeric_growth_grows_the_general_loops_tree_bit_for_bit(params):
    from classic._id3_engine import NumericLevel

    for X, y in _numeric_tables():
        fused, general = ID3(**params).fit(X, y), _Unfused(**params).fit(X, y)
        assert all(isinstance(level[0], NumericLevel) for level in fused._levels)
        assert not any(isinstance(level[0], NumericLevel) for level in general._levels)
        mine, theirs = _everything(fused, X), _everything(general, X)
        assert [key for key in theirs if mine[key] != theirs[key]] == []


def test_integer_labels_read_without_sorting_equal_np_unique():
    from classic._validation import check_labels

    rng = np.random.default_rng(0)
    for y in [
        rng.integers(0, 12, 50),
        np.array([5, 9, 10, 100, 9], np.int32),
        rng.integers(-3, 3, 20),
        [7] * 4,
        np.array(["b", "a", "c", "a"]),
    ]:
        y = np.asarray(y)
        values, codes = np.unique(y, return_inverse=True)
        _, classes, found = check_labels(y, len(y))  # the classes keep y's dtype (issue 24)
        assert classes.tobytes() == values.tobytes() and classes.dtype == values.dtype
        assert (found == codes).all() and found.dtype == codes.dtype


def test_a_numeric_columns_categories_are_np_unique_of_its_known_values():
    from classic._id3_encode import distinct

    rng = np.random.default_rng(1)
    for _ in range(100):
        column = np.round(rng.normal(size=int(rng.integers(1, 40))), int(rng.integers(0, 3)))
        column[rng.random(len(column)) < 0.2] = np.nan
        column[rng.random(len(column)) < 0.1] = -0.0
        column[rng.random(len(column)) < 0.1] = 0.0
        expected = np.unique(column[~np.isnan(column)])
        assert distinct(column).tobytes() == expected.tobytes() and distinct(column).dtype == expected.dtype


def test_infinite_huge_and_adjacent_values_grow_the_same_tree_in_both_loops():
    # τ = (a + b) / 2, or a where that is not below b (adjacent floats, inf) and a/2 + b/2 where
    # a + b overflows: both loops send x > τ right and grow the same tree, now in the fused one.
    from classic._id3_engine import NumericLevel

    a, b = 1 + 2.0**-52, 1 + 2.0**-51
    assert (a + b) / 2 == b
    pool = np.array([-np.inf, np.inf, a, b, 1e308, 1.7e308, -1.7e308, np.finfo(float).max, 0.5])
    tables = [(np.array([[a, 0.0], [b, 1.0], [a, 2.0], [b, 3.0], [b, 4.0]]), np.array([0, 1, 0, 1, 0]))]
    for seed in range(6):
        rng = np.random.default_rng(seed)
        X = rng.choice(pool, size=(int(rng.integers(2, 80)), 2))
        tables.append((X, rng.integers(0, 3, len(X))))
    for X, y in tables:
        for params in ({}, {"criterion": "gini"}, {"max_depth": 2}):
            fused, general = ID3(**params).fit(X, y), _Unfused(**params).fit(X, y)
            assert all(isinstance(level[0], NumericLevel) for level in fused._levels)
            mine, theirs = _everything(fused, X), _everything(general, X)
            assert [key for key in theirs if mine[key] != theirs[key]] == []
            flat = fused._tree.flush()
            inner = flat.feature[: flat.size] >= 0
            assert (flat.low[inner] <= flat.threshold[inner]).all()
            assert (flat.threshold[inner] < flat.high[inner]).all()
