"""Tests for classic.distances: scikit-learn/SciPy as oracles, huge values, when a metric suits."""

import warnings

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.metrics import pairwise_distances as sk_pairwise

from classic.distances import (
    METRIC_REGISTRY,
    METRICS,
    metric_suits,
    minkowski_distance,
    minkowski_p,
    pairwise_distances,
)

# SciPy's name for a metric, where it is not ours; a metric SciPy does not know has no oracle here.
SCIPY_NAMES = {"manhattan": "cityblock"}
# Hand-checked: each metric's Minkowski exponent when the caller gives p = 3 (None: not one).
EXPONENTS_AT_3 = {
    "euclidean": 2.0,
    "manhattan": 1.0,
    "chebyshev": np.inf,
    "minkowski": 3.0,
    "cosine": None,
    "hamming": None,
}


def _takes_p(metric: str) -> bool:
    return METRIC_REGISTRY[metric].minkowski == "p"


@pytest.fixture(scope="module")
def points():
    rng = np.random.default_rng(3)
    return rng.normal(size=(40, 3)), rng.normal(size=(25, 3))


@pytest.mark.parametrize(
    ("metric", "p"), [(m, p) for m in METRICS for p in ((1.5, 3) if _takes_p(m) else (2,))]
)
def test_pairwise_distances_equal_scipy(points, metric, p):
    """Every metric of the registry that SciPy knows, as SciPy measures it."""
    A, B = points
    name = SCIPY_NAMES.get(metric, metric)
    try:
        expected = cdist(A, B, name, **({"p": p} if _takes_p(metric) else {}))
    except ValueError as error:
        pytest.skip(f"SciPy has no {name!r} metric ({error}): no oracle for {metric!r}")
    np.testing.assert_allclose(pairwise_distances(A, B, metric, p), expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("metric", METRICS)
def test_every_metric_of_the_registry_is_a_distance(points, metric):
    """Whatever the registry holds: finite on finite points, d(a, b) = d(b, a) ≥ 0, d(a, a) = 0."""
    A, B = points
    d = pairwise_distances(A, B, metric, 3)
    assert d.shape == (len(A), len(B)) and d.dtype == np.float64
    assert np.all(np.isfinite(d)) and np.all(d >= 0)
    np.testing.assert_allclose(d, pairwise_distances(B, A, metric, 3).T, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(np.diag(pairwise_distances(A, A, metric, 3)), 0.0, atol=1e-12)


@pytest.mark.parametrize("metric", METRICS)
def test_a_metrics_exponent_is_the_minkowski_distance_it_measures(points, metric):
    """The exponent minkowski_p gives a metric (the k-d tree and the query tiles prune and rank
    with it) is the Minkowski distance the metric measures, as SciPy measures it."""
    A, B = points
    for p in (1.5, 3):
        exponent = minkowski_p(metric, p)
        if exponent is None:
            continue
        expected = cdist(A, B, "chebyshev") if exponent == np.inf else cdist(A, B, "minkowski", p=exponent)
        np.testing.assert_allclose(pairwise_distances(A, B, metric, p), expected, rtol=1e-12, atol=1e-14)


def test_hamming_equals_sklearn_on_binary_data():
    rng = np.random.default_rng(1)
    A, B = rng.integers(0, 2, size=(20, 12)), rng.integers(0, 2, size=(15, 12))
    np.testing.assert_allclose(pairwise_distances(A, B, "hamming"), sk_pairwise(A, B, metric="hamming"))


def test_minkowski_p_names_the_exponent():
    assert {metric: minkowski_p(metric, 3) for metric in EXPONENTS_AT_3} == EXPONENTS_AT_3
    assert minkowski_p("no such metric", 3) is None


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
    for metric in METRICS:  # a metric without its own check suits any numeric data
        if METRIC_REGISTRY[metric].unsuited is None:
            assert metric_suits(metric, continuous) == (True, ""), metric


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
    exponents = {row["name"]: row["p"] for row in table}
    assert {metric: exponents[metric] for metric in EXPONENTS_AT_3} == {
        "euclidean": 2.0,
        "manhattan": 1.0,
        "chebyshev": "inf",
        "minkowski": "p",
        "cosine": None,
        "hamming": None,
    }
    for metric, p in exponents.items():  # every entry's exponent as minkowski_p reads it
        exponent = minkowski_p(metric, 3)
        takes_p = exponent == 3 and minkowski_p(metric, 5) == 5
        assert p == ("p" if takes_p else "inf" if exponent == np.inf else exponent), metric
