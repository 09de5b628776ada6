"""Tests for classic.distances: scikit-learn/SciPy as oracles, huge values, when a metric suits."""

import warnings

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.metrics import pairwise_distances as sk_pairwise

from classic.distances import METRICS, metric_suits, minkowski_distance, minkowski_p, pairwise_distances


@pytest.fixture(scope="module")
def points():
    rng = np.random.default_rng(3)
    return rng.normal(size=(40, 3)), rng.normal(size=(25, 3))


@pytest.mark.parametrize(
    ("metric", "p", "scipy_name", "scipy_kwargs"),
    [
        ("euclidean", 2, "euclidean", {}),
        ("manhattan", 2, "cityblock", {}),
        ("chebyshev", 2, "chebyshev", {}),
        ("minkowski", 3, "minkowski", {"p": 3}),
        ("minkowski", 1.5, "minkowski", {"p": 1.5}),
        ("cosine", 2, "cosine", {}),
    ],
)
def test_pairwise_distances_equal_scipy(points, metric, p, scipy_name, scipy_kwargs):
    A, B = points
    np.testing.assert_allclose(
        pairwise_distances(A, B, metric, p), cdist(A, B, scipy_name, **scipy_kwargs), rtol=1e-12, atol=1e-14
    )


def test_hamming_equals_sklearn_on_binary_data():
    rng = np.random.default_rng(1)
    A, B = rng.integers(0, 2, size=(20, 12)), rng.integers(0, 2, size=(15, 12))
    np.testing.assert_allclose(pairwise_distances(A, B, "hamming"), sk_pairwise(A, B, metric="hamming"))


def test_minkowski_p_names_the_exponent():
    assert [minkowski_p(m, 3) for m in METRICS] == [2.0, 1.0, np.inf, 3.0, None, None]


@pytest.mark.parametrize("p", [1, 1.5, 2, 3, np.inf])
def test_huge_finite_coordinates_give_the_true_distance_without_overflow(p):
    """1e308 squared is inf in float64; the distance itself is representable and must be exact."""
    diff = np.array([[1e308, 1e308], [3e300, -4e300], [1e-300, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = minkowski_distance(diff, p)
    scale = np.array([1e308, 1e300, 1e-300])
    with np.errstate(over="ignore"):
        expected = minkowski_distance(diff / scale[:, None], p) * scale
    if p == 1:
        expected[0] = np.inf  # 2e308 is beyond the float64 range: inf, and no warning
    np.testing.assert_allclose(got, expected, rtol=1e-15)


def test_differences_beyond_the_range_are_inf_not_nan():
    got = pairwise_distances([[1.7e308, 0.0]], [[-1.7e308, 0.0], [0.0, 0.0]])
    assert got[0, 0] == np.inf and got[0, 1] == 1.7e308


def test_cosine_of_huge_vectors_is_their_angle():
    got = pairwise_distances([[1e308, 1e308]], [[1.0, 1.0], [1.0, 0.0], [0.0, 0.0]], "cosine")
    np.testing.assert_allclose(got, [[0.0, 1 - np.sqrt(0.5), 1.0]], atol=1e-15)


def test_hamming_does_not_suit_continuous_data_and_says_why():
    rng = np.random.default_rng(0)
    continuous = rng.normal(size=(200, 2))
    suits, reason = metric_suits("hamming", continuous)
    assert not suits and "categorical or binary" in reason and "nearly every distance is 1" in reason
    # The reason is true: on such data every Hamming distance between distinct points is 1.
    distances = pairwise_distances(continuous[:50], continuous[50:], "hamming")
    assert np.all(distances == 1.0)
    assert metric_suits("hamming", rng.integers(0, 2, size=(200, 30))) == (True, "")
    assert metric_suits("hamming", rng.integers(0, 5, size=(200, 3))) == (True, "")
    for metric in ("euclidean", "manhattan", "chebyshev", "minkowski", "cosine"):
        assert metric_suits(metric, continuous) == (True, "")


def test_chebyshev_does_not_suit_black_and_white_data_and_says_why():
    rng = np.random.default_rng(1)
    pixels = rng.integers(0, 2, size=(200, 256))
    suits, reason = metric_suits("chebyshev", pixels)
    assert not suits and "black-and-white" in reason and "exactly 1 apart" in reason
    # The reason is true: any two different black-and-white rows are exactly 1 apart.
    distances = pairwise_distances(pixels[:50], pixels[50:], "chebyshev")
    assert np.all(distances == 1.0)
    assert metric_suits("euclidean", pixels) == (True, "")
    assert metric_suits("chebyshev", pixels * 0.5 + rng.normal(0, 0.1, size=pixels.shape)) == (True, "")


def test_a_metric_is_one_registry_entry_that_every_path_reads(monkeypatch, points):
    """A metric added to METRIC_REGISTRY alone is measured by pairwise_distances and accepted by
    KNNClassifier (brute force for a metric without a Minkowski exponent)."""
    from classic.distances import METRIC_REGISTRY, Metric
    from classic.knn import KNNClassifier

    def doubled(A, B, p):
        return 2 * np.sqrt(((A - B) ** 2).sum(axis=-1))

    monkeypatch.setitem(METRIC_REGISTRY, "doubled euclidean", Metric(doubled))
    A, B = points
    np.testing.assert_allclose(pairwise_distances(A, B, "doubled euclidean"), 2 * cdist(A, B))
    assert minkowski_p("doubled euclidean") is None
    y = (A[:, 0] > 0).astype(int)
    model = KNNClassifier(k=4, metric="doubled euclidean").fit(A, y)
    euclidean = KNNClassifier(k=4, algorithm="brute").fit(A, y)
    distances, indices = model.kneighbors(B)
    np.testing.assert_array_equal(indices, euclidean.kneighbors(B)[1])
    np.testing.assert_allclose(distances, 2 * euclidean.kneighbors(B)[0])


def test_the_metric_table_lists_the_registry_for_a_player():
    """Names in the pages' order, each with its Minkowski exponent as JSON can carry it."""
    import json

    from classic.distances import metric_table

    table = json.loads(json.dumps(metric_table(), allow_nan=False))
    assert [row["name"] for row in table] == list(METRICS)
    assert [row["p"] for row in table] == [2.0, 1.0, "inf", "p", None, None]
