"""Tests for classic.kdtree: equal to brute force, fewer distance computations, the splits."""

import numpy as np
import pytest

from classic.kdtree import KDTree
from classic.knn import nearest_neighbors


@pytest.mark.parametrize("p", [1, 2, np.inf])
@pytest.mark.parametrize("leaf_size", [1, 5])
def test_query_equals_brute_force_for_k_1_to_10(p, leaf_size):
    rng = np.random.default_rng(1)
    X = rng.uniform(size=(400, 2))
    tree = KDTree(X, leaf_size=leaf_size)
    metric = {1: "manhattan", 2: "euclidean", np.inf: "chebyshev"}[p]
    for x in rng.uniform(size=(30, 2)):
        for k in range(1, 11):
            distances, indices, _ = tree.query(x, k, p=p)
            expected = nearest_neighbors(x[None], X, k, metric)
            np.testing.assert_array_equal(indices, expected[1][0])
            np.testing.assert_allclose(distances, expected[0][0], rtol=1e-10)


def test_duplicates_and_ties_are_ordered_by_index():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0], [-1.0, 0.0], [0.0, 1.0]])
    distances, indices, _ = KDTree(X).query([0.0, 0.0], k=5)
    assert indices.tolist() == [0, 2, 1, 3, 4]
    np.testing.assert_allclose(distances, [0, 0, 1, 1, 1])


def test_a_query_visits_far_fewer_points_than_brute_force():
    X = np.random.default_rng(2).uniform(size=(10_000, 2))
    tree = KDTree(X)
    counts = [tree.query(x, 1)[2] for x in np.random.default_rng(3).uniform(size=(50, 2))]
    assert np.median(counts) < 100  # against 10 000 for brute force
    assert tree.n_nodes_ == 10_000 and tree.depth_ == 13


def test_splits_cycle_through_the_axes_at_medians():
    X = np.array([[float(i), float(j)] for i in range(4) for j in range(4)])
    splits = KDTree(X).splits()
    root = splits[0]
    assert root.axis == 0 and root.value == 2.0 and root.depth == 0
    assert {s.axis for s in splits if s.depth == 1} == {1}
    for s in splits:  # each line lies inside its box
        low, high = s.bounds[s.axis]
        assert low <= s.value <= high


@pytest.mark.parametrize(
    ("X", "message"),
    [(np.zeros((0, 2)), "non-empty"), ([1.0, 2.0], "2-D"), ([[np.nan, 0.0]], "NaN")],
)
def test_bad_inputs(X, message):
    with pytest.raises(ValueError, match=message):
        KDTree(X)


def test_bad_queries():
    tree = KDTree(np.eye(3))
    with pytest.raises(ValueError, match="features"):
        tree.query([0.0, 1.0])
    with pytest.raises(ValueError, match="k must be"):
        tree.query([0.0, 1.0, 0.0], k=4)
    with pytest.raises(ValueError, match="leaf_size"):
        KDTree(np.eye(3), leaf_size=0)


def test_splits_map_back_to_original_units():
    from classic.preprocessing import StandardScaler

    X = np.random.default_rng(5).normal(size=(50, 2)) * [100, 1]
    scaler = StandardScaler().fit(X)
    scaled = KDTree(scaler.transform(X)).splits()[0].rescaled(scaler.scale_, scaler.offset_)
    assert scaled.value == pytest.approx(np.median(X[:, 0]) if len(X) % 2 else np.sort(X[:, 0])[25])


@pytest.mark.parametrize("d", [1, 2, 3, 8, 20])
@pytest.mark.parametrize(("n", "leaf_size"), [(1, 1), (2, 1), (100, 1), (1000, 1), (1000, 10), (4097, 3)])
def test_depth_is_logarithmic_whatever_the_dimension(n, d, leaf_size):
    """The notes say O(d lg n); median splits give at most ⌈log₂(n / leaf_size)⌉ + 1 in any d."""
    X = np.random.default_rng(n + d).normal(size=(n, d))
    tree = KDTree(X, leaf_size=leaf_size)
    assert tree.depth_ <= np.ceil(np.log2(max(n / leaf_size, 1))) + 1


def test_leaf_size_is_keyword_only_and_many_queries_equal_single_ones():
    X = np.random.default_rng(2).normal(size=(60, 2))
    with pytest.raises(TypeError):
        KDTree(X, 4)
    tree = KDTree(X, leaf_size=4)
    Q = np.random.default_rng(3).normal(size=(7, 2))
    distances, indices = tree.query_many(Q, 3)
    for row, x in enumerate(Q):
        single = tree.query(x, 3)
        np.testing.assert_array_equal(indices[row], single[1])
        np.testing.assert_array_equal(distances[row], single[0])


def _inside(X: np.ndarray, box) -> np.ndarray:
    """The points strictly inside a cell (a point on its edge is a split's median, stored above it)."""
    return np.all([(X[:, a] > lo) & (X[:, a] < hi) for a, (lo, hi) in enumerate(box)], axis=0)


@pytest.mark.parametrize("p", [1, 2, np.inf])
@pytest.mark.parametrize("k", [1, 3, 8])
def test_search_records_the_notes_test_at_every_split(p, k):
    """The course notes: beyond the plane x_a = t every point is at least |t − x_a| away, so the far
    side is searched when the best distance so far is ≥ |t − x_a| and pruned when it is smaller.
    Each recorded decision follows that rule, its cell holds only points never measured and all
    farther than the answer's k-th distance, and measured + pruned points are all the points."""
    rng = np.random.default_rng(k)
    X = rng.normal(size=(300, 2))
    tree = KDTree(X)
    for x in rng.normal(size=(10, 2)) * 1.5:
        found = tree.search(x, k, p=p)
        distances, indices, count = tree.query(x, k, p=p)
        np.testing.assert_array_equal(found.indices, indices)
        assert len(found.measured) == count == len(set(found.measured.tolist()))
        assert found.decisions and any(not d.searched for d in found.decisions)
        measured = np.zeros(len(X), dtype=bool)
        measured[found.measured] = True
        in_pruned = np.zeros(len(X), dtype=bool)
        for d in found.decisions:
            assert d.searched == (d.gap <= d.best)
            assert d.gap == pytest.approx(abs(x[d.axis] - d.value))
            side = d.far[d.axis]
            assert d.value in side  # the far cell starts or ends on the splitting line
            if not d.searched:
                inside = _inside(X, d.far)
                assert not (inside & measured).any()
                gaps = np.abs(X[inside, d.axis] - x[d.axis])
                assert (gaps >= d.gap - 1e-12).all()  # the notes' lower bound
                assert d.gap > distances[-1]  # so none of them can be among the k nearest
                in_pruned |= inside
        assert (measured | in_pruned).all()


def test_search_on_a_hand_checked_line_of_points():
    """Five points on the x₁ axis, query at 0.9, k = 1: the median split at 2 is met on the way
    back with best distance 0.1 (the point at 1) and |t − x| = 1.1, so the right side is pruned."""
    X = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0], [4.0, 0.0]])
    found = KDTree(X).search([0.9, 0.0], 1)
    assert found.indices.tolist() == [1]
    root = next(d for d in found.decisions if d.depth == 0)
    assert (root.axis, root.value) == (0, 2.0)
    assert root.gap == pytest.approx(1.1) and root.best == pytest.approx(0.1) and not root.searched
    assert sorted(found.measured.tolist()) == [0, 1, 2]  # never 3 or 4
