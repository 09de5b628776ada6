"""Tests for classic.knn: scikit-learn as the oracle, the tie rule, weights, errors, Semeion."""

import dataclasses

import numpy as np
import pytest
from sklearn.metrics import pairwise_distances as sk_pairwise
from sklearn.neighbors import KNeighborsClassifier

from classic import datasets, evaluation
from classic._search import sorted_smallest
from classic._validation import NotFittedError
from classic.distances import METRIC_REGISTRY
from classic.knn import (
    METRICS,
    TIE_RULE,
    WEIGHTS,
    KNNClassifier,
    TrainingSet,
    accuracy_by_k,
    hart_condense,
    knn_textbook,
    leave_one_out_accuracy,
    metric_suits,
    minkowski_p,
    nearest_neighbors,
    neighbour_table,
    pairwise_distances,
    region_grid,
    vote,
    wilson_edit,
)

# The registry's metrics of the Minkowski family (the k-d tree and the 2-D query tiles serve them
# alone), at p = 3 for one that takes the caller's exponent; scikit-learn measures each as
# "minkowski" at the exponent minkowski_p gives it. The others are measured by scikit-learn by name.
MINKOWSKI = [
    (m, 3.0 if METRIC_REGISTRY[m].minkowski == "p" else 2.0) for m in METRICS if minkowski_p(m) is not None
]
OTHER_METRICS = [m for m in METRICS if minkowski_p(m) is None]


def _sklearn_minkowski(metric: str, p: float) -> dict:
    return {"metric": "minkowski", "p": minkowski_p(metric, p)}


@pytest.fixture(scope="module")
def blobs():
    """Two classes, odd k: a uniform vote can never tie, so sklearn's tie rule never matters."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] + 0.5 * rng.normal(size=300) > 0).astype(int)
    return X, y, rng.normal(size=(150, 4))


@pytest.mark.parametrize(("metric", "p"), MINKOWSKI)
@pytest.mark.parametrize("weights", ["uniform", "distance"])  # the weightings scikit-learn has
@pytest.mark.parametrize("algorithm", ["brute", "kdtree"])
def test_neighbours_and_predictions_equal_sklearn(blobs, metric, p, weights, algorithm):
    X, y, Q = blobs
    ours = KNNClassifier(k=7, metric=metric, p=p, weights=weights, algorithm=algorithm).fit(X, y)
    oracle = KNeighborsClassifier(7, weights=weights, **_sklearn_minkowski(metric, p), algorithm="brute").fit(
        X, y
    )
    distances, indices = ours.kneighbors(Q)
    sk_distances, sk_indices = oracle.kneighbors(Q)
    np.testing.assert_array_equal(indices, sk_indices)
    np.testing.assert_allclose(distances, sk_distances, rtol=1e-10)
    np.testing.assert_array_equal(ours.predict(Q), oracle.predict(Q))
    np.testing.assert_allclose(ours.predict_proba(Q), oracle.predict_proba(Q), atol=1e-9)


@pytest.mark.parametrize("metric", OTHER_METRICS)
def test_the_other_metrics_equal_sklearn(blobs, metric):
    """Cosine, Hamming (on 0/1 data: the data it suits) and any other metric scikit-learn knows by
    our name for it."""
    X, y, Q = blobs
    if not metric_suits(metric, X)[0]:
        X, Q = (X > 0).astype(float), (Q > 0.3).astype(float)
    ours = KNNClassifier(k=5, metric=metric).fit(X, y)
    try:
        oracle = KNeighborsClassifier(5, metric=metric, algorithm="brute").fit(X, y)
    except ValueError as error:
        pytest.skip(f"scikit-learn has no metric {metric!r} ({error}): no oracle")
    np.testing.assert_allclose(ours.kneighbors(Q)[0], oracle.kneighbors(Q)[0], atol=1e-12)
    np.testing.assert_allclose(pairwise_distances(Q, X, metric), sk_pairwise(Q, X, metric=metric), atol=1e-12)


def test_brute_and_kdtree_agree_on_every_k(blobs):
    X, y, Q = blobs
    for k in range(1, 11):
        brute = KNNClassifier(k=k, algorithm="brute").fit(X, y).kneighbors(Q)
        tree = KNNClassifier(k=k, algorithm="kdtree").fit(X, y).kneighbors(Q)
        np.testing.assert_array_equal(brute[1], tree[1])
        np.testing.assert_allclose(brute[0], tree[0], rtol=1e-10)


def test_neighbours_are_sorted_and_chunking_changes_nothing(blobs, monkeypatch):
    X, _, Q = blobs
    distances, indices = nearest_neighbors(Q, X, 9)
    assert np.all(np.diff(distances, axis=1) >= 0)
    from classic import _search

    monkeypatch.setattr(_search, "CACHE_BYTES", 4096)  # a few rows per chunk
    monkeypatch.setattr(_search, "MIN_CHUNK_ROWS", 3)
    monkeypatch.setattr(_search, "MAX_CHUNK_BYTES", 4096)
    again = nearest_neighbors(Q, X, 9)
    np.testing.assert_array_equal(again[1], indices)


def test_tie_goes_to_the_class_of_the_nearest_tied_neighbour():
    # One point of class "b" at distance 1, one of class "a" at distance 2: with k = 2 the
    # uniform vote is 1–1, and the nearest neighbour's class (b) wins, as with k = 1.
    X = np.array([[1.0, 0.0], [-2.0, 0.0], [0.0, 5.0]])
    y = np.array(["b", "a", "a"])
    model = KNNClassifier(k=2).fit(X, y)
    assert model.predict([[0.0, 0.0]])[0] == "b"
    assert KNNClassifier(k=1).fit(X, y).predict([[0.0, 0.0]])[0] == "b"
    winner, shares, tied = vote(np.array([[1, 0]]), np.array([[1.0, 2.0]]), 2)
    assert winner.tolist() == [1] and tied.tolist() == [True]
    np.testing.assert_allclose(shares, [[0.5, 0.5]])


def test_weights():
    labels = np.array([[0, 1, 1]])
    distances = np.array([[1.0, 2.0, 2.0]])
    assert vote(labels, distances, 2, "uniform")[0][0] == 1
    # 1/1 against 1/2 + 1/2: a tie, which the nearest neighbour's class (0) wins.
    assert vote(labels, distances, 2, "distance")[0][0] == 0
    np.testing.assert_allclose(vote(labels, distances, 2, "distance2")[1], [[0.5 / 0.75, 0.25 / 0.75]])
    gauss = vote(labels, distances, 2, "gaussian", bandwidth=1.0)[1]
    np.testing.assert_allclose(gauss[0, 0], np.exp(-1) / (np.exp(-1) + 2 * np.exp(-4)))
    # An exact match wins outright under inverse weights, however many others disagree.
    winner, shares, _ = vote(np.array([[0, 1, 1, 1]]), np.array([[0.0, 0.1, 0.1, 0.1]]), 2, "distance")
    assert winner[0] == 0 and shares[0, 0] == 1.0


@pytest.mark.parametrize(
    ("kwargs", "fit_args", "message"),
    [
        ({"k": 0}, None, "k must be a positive integer"),
        ({"k": 2.5}, None, "k must be a positive integer"),
        ({"k": float("inf")}, None, "k must be a positive integer"),
        ({"k": float("nan")}, None, "k must be a positive integer"),
        ({"k": "3"}, None, "k must be a positive integer"),
        ({"bandwidth": "wide"}, None, "bandwidth"),
        ({"metric": "minkowski", "p": float("nan")}, None, "p must be >= 1"),
        ({"k": 10}, None, "larger than the training set"),
        ({"metric": "euclidian"}, None, "metric must be one of"),
        ({"weights": "unifrom"}, None, "weights must be one of"),
        ({"algorithm": "ball"}, None, "algorithm must be"),
        ({"metric": "minkowski", "p": 0.5}, None, "p must be >= 1"),
        ({"algorithm": "kdtree", "metric": "cosine"}, None, "Minkowski metrics only"),
        ({"bandwidth": 0}, None, "bandwidth"),
        ({}, ([[np.nan, 1.0]] * 5, [0] * 5), "NaN"),
        ({}, ([1.0, 2.0, 3.0, 4.0, 5.0], [0] * 5), "2-D"),
        ({}, (np.zeros((5, 2)), [0] * 4), "one label per row"),
        ({}, (np.zeros((0, 2)), []), "empty"),
        ({}, ([["a", "b"]] * 5, [0] * 5), "numeric"),
    ],
)
def test_bad_inputs_give_clear_errors(kwargs, fit_args, message):
    X, y = fit_args if fit_args is not None else (np.zeros((5, 2)), [0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match=message):
        KNNClassifier(**kwargs).fit(X, y)


def test_predict_errors():
    model = KNNClassifier(k=1)
    with pytest.raises(ValueError, match="not fitted"):
        model.predict([[0.0, 0.0]])
    model.fit(np.eye(3), [0, 1, 2])
    with pytest.raises(ValueError, match="features"):
        model.predict([[0.0, 0.0]])
    with pytest.raises(ValueError, match="k must be an integer"):
        model.kneighbors([[0.0, 0.0, 0.0]], k=4)


def test_leave_one_out_equals_a_loop(blobs):
    X, y, _ = blobs
    X, y = X[:60], y[:60]
    expected = []
    for k in (1, 3, 5):
        hits = [
            KNNClassifier(k=k).fit(np.delete(X, i, 0), np.delete(y, i)).predict(X[i : i + 1])[0] == y[i]
            for i in range(len(X))
        ]
        expected.append(np.mean(hits))
    np.testing.assert_allclose(leave_one_out_accuracy(X, y, [1, 3, 5]), expected)


def test_semeion_one_nearest_neighbour_accuracy(data_home):
    """The post's protocol: shuffle, train on 800, test on 793; the post reports about 89%."""
    X, y = datasets.load_semeion(data_home)
    scores = []
    for seed in range(5):
        X_train, X_test, y_train, y_test = evaluation.train_test_split(X, y, test_size=793, random_state=seed)
        scores.append(KNNClassifier(k=1).fit(X_train, y_train).score(X_test, y_test))
    assert np.mean(scores) >= 0.885, scores


def test_high_dimensional_binary_distances_are_exact():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, size=(200, 256))
    Q = np.vstack([X[:5], rng.integers(0, 2, size=(20, 256))])
    distances, indices = nearest_neighbors(Q, X, 6)
    exact = pairwise_distances(Q, X)
    np.testing.assert_array_equal(distances, np.take_along_axis(exact, indices, axis=1))
    assert np.all(distances[:5, 0] == 0) and indices[:5, 0].tolist() == [0, 1, 2, 3, 4]


def _reference_neighbours(Q, X, k):
    """Exact float64 distances, sorted by (distance, index): the order every path must give."""
    exact = pairwise_distances(Q, X)
    order = np.lexsort((np.broadcast_to(np.arange(len(X)), exact.shape), exact), axis=1)[:, :k]
    return np.take_along_axis(exact, order, axis=1), order


@pytest.mark.parametrize("k", [1, 2, 7, 40])
@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.float64])
def test_packed_integer_keys_give_exact_neighbours_and_ties_by_index(k, dtype):
    """Small-integer data take the packed-key path; ties (many, with binary pixels) go to the
    lower index, exactly as the general path orders them."""
    rng = np.random.default_rng(k)
    X = rng.integers(0, 2, size=(300, 64))
    Q = np.vstack([X[:3], rng.integers(0, 2, size=(40, 64))]).astype(dtype)
    prepared = TrainingSet.prepare(X)
    assert prepared.keyed is not None
    distances, indices = nearest_neighbors(Q, prepared, k)
    expected = _reference_neighbours(Q.astype(float), X, k)
    np.testing.assert_array_equal(indices, expected[1])
    np.testing.assert_array_equal(distances, expected[0])
    # The general path (argpartition) keeps an arbitrary subset of the points tied at the
    # k-th distance, so only its distances must agree.
    general = nearest_neighbors(Q, dataclasses.replace(prepared, keyed=None), k)
    np.testing.assert_array_equal(general[0], distances)


def test_packed_keys_fall_back_when_the_query_is_not_integer_or_too_large():
    rng = np.random.default_rng(1)
    X = rng.integers(-3, 4, size=(200, 16))
    prepared = TrainingSet.prepare(X)
    assert prepared.keyed is not None
    for Q in (X[:10] + 0.25, X[:10] * 1000.0):
        distances, indices = nearest_neighbors(Q, prepared, 5)
        expected = _reference_neighbours(Q, X, 5)
        np.testing.assert_array_equal(indices, expected[1])
        np.testing.assert_allclose(distances, expected[0], rtol=1e-6)


@pytest.mark.parametrize("n", [700, 1030])
def test_packed_keys_sorted_in_pieces_with_padding(n):
    """Rows wider than one sorting piece are cut in pieces (1030 = 3 × 344 − 2: two padding
    columns); the k nearest may come from any piece, ties still by index."""
    rng = np.random.default_rng(n)
    X = rng.integers(0, 2, size=(n, 32))
    Q = np.vstack([X[-3:], rng.integers(0, 2, size=(30, 32))])
    prepared = TrainingSet.prepare(X)
    assert prepared.keyed is not None and len(prepared.keyed) % -(-n // 512) == 0
    for k in (1, 15, 400, n):
        distances, indices = nearest_neighbors(Q, prepared, k)
        expected = _reference_neighbours(Q.astype(float), X, k)
        np.testing.assert_array_equal(indices, expected[1])
        np.testing.assert_array_equal(distances, expected[0])


def test_searches_in_threads_at_once_keep_their_own_work_arrays():
    """Each thread reuses its own work arrays: concurrent searches answer as alone."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(8)
    pixels, grid = rng.integers(0, 2, size=(600, 64)), region_grid(rng.normal(size=(50, 2)), 60)[2]
    planar = rng.normal(size=(400, 2))
    jobs = [(grid, planar, 9), (pixels[:200], pixels, 5)] * 4
    alone = [nearest_neighbors(Q, X, k) for Q, X, k in jobs]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda job: nearest_neighbors(*job), jobs))
    for (d1, i1), (d2, i2) in zip(alone, together, strict=True):
        np.testing.assert_array_equal(i1, i2)
        np.testing.assert_array_equal(d1, d2)


def test_packed_keys_add_large_query_norms_exactly():
    """A query of large integers (|b|² beyond float32's 2²⁴) still gets exact distances."""
    X = np.array([[1.0], [3.0], [7.0]])
    Q = np.array([[55001.0], [-4999.0], [3.0]])
    assert TrainingSet.prepare(X).keyed is not None
    distances, indices = nearest_neighbors(Q, X, 2, algorithm="brute")
    np.testing.assert_array_equal(distances, [[54994.0, 54998.0], [5000.0, 5002.0], [0.0, 2.0]])
    np.testing.assert_array_equal(indices, [[2, 1], [0, 1], [1, 0]])


def test_integer_queries_are_not_copied_to_float_but_answer_the_same():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 2, size=(100, 32))
    y = rng.integers(0, 3, size=100)
    model = KNNClassifier(k=5).fit(X, y)
    Q = rng.integers(0, 2, size=(30, 32), dtype=np.uint8)
    np.testing.assert_array_equal(model.predict(Q), model.predict(Q.astype(float)))
    assert model.kneighbors(Q)[0].dtype == np.float64


def test_accuracy_by_k_equals_fitting_each_k(blobs):
    X, y, _ = blobs
    X_train, X_test, y_train, y_test = X[:200], X[200:], y[:200], y[200:]
    ks = [1, 4, 9, 25]
    expected = [
        KNNClassifier(k=k, weights="distance").fit(X_train, y_train).score(X_test, y_test) for k in ks
    ]
    np.testing.assert_allclose(
        accuracy_by_k(X_train, y_train, X_test, y_test, ks, weights="distance"), expected
    )


def test_region_grid_covers_the_data():
    X = np.array([[0.0, 0.0], [2.0, 1.0]])
    xs, ys, points = region_grid(X, resolution=5, margin=0.5)
    assert xs[0] == -1.0 and xs[-1] == 3.0 and ys[0] == -0.5 and ys[-1] == 1.5
    assert points.shape == (25, 2) and points[1].tolist() == [0.0, -0.5]


# --- The search paths agree exactly -------------------------------------------------------


@pytest.mark.parametrize(("metric", "p"), MINKOWSKI)
@pytest.mark.parametrize("k", [1, 2, 15, 60])
def test_2d_query_tiles_equal_sklearn_on_the_pages_data(metric, p, k):
    """algorithm="auto" takes the query-tile search in 2-D: same neighbours and distances as
    scikit-learn's brute force, on clustered data and far outside it."""
    X, y = datasets.gaussian_clusters(150, [(-4, 0), (4, 0), (0, 5)], 1.0, random_state=k)
    Q = region_grid(X, resolution=40, margin=0.5)[2]
    ours = KNNClassifier(k=k, metric=metric, p=p).fit(X, y)
    oracle = KNeighborsClassifier(n_neighbors=k, **_sklearn_minkowski(metric, p), algorithm="brute").fit(X, y)
    distances, indices = ours.kneighbors(Q)
    sk_distances, sk_indices = oracle.kneighbors(Q)
    # sklearn's Euclidean distances come from |a|² + |b|² − 2a·b (errors ~1e-13 near 0); ours are direct.
    np.testing.assert_allclose(distances, sk_distances, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(indices, sk_indices)
    decision = ours.decide(Q)
    np.testing.assert_allclose(decision.shares, oracle.predict_proba(Q), atol=1e-12)
    # Tied votes follow TIE_RULE here and sklearn's lowest class there; all others agree.
    np.testing.assert_array_equal(decision.label[~decision.tied], oracle.predict(Q)[~decision.tied])


def test_2d_ties_go_to_the_lowest_index_in_every_path():
    """Integer points on a lattice: many exact ties, which every path breaks by index."""
    rng = np.random.default_rng(5)
    X = rng.integers(0, 6, size=(400, 2)).astype(float)
    Q = np.vstack([rng.integers(-2, 8, size=(300, 2)) + 0.5, rng.integers(0, 6, size=(100, 2))])
    for k in (1, 3, 15, 90):
        expected = _reference_neighbours(Q, X, k)
        for algorithm in ("auto", "brute", "kdtree"):
            model = KNNClassifier(k=k, algorithm=algorithm).fit(X, np.zeros(len(X)))
            distances, indices = model.kneighbors(Q)
            np.testing.assert_array_equal(indices, expected[1], err_msg=f"{algorithm}, k={k}")
            np.testing.assert_array_equal(distances, expected[0])


@pytest.mark.parametrize("p", [1, 1.5, 2, 3, np.inf])
def test_2d_query_tiles_equal_brute_force_exactly_at_every_scale(p):
    """Lattice data scaled by 1e-6 or 1e8 (ties, and sums Σ|Δ|^p an ulp apart whose roots are
    equal), values far from the origin, one query repeated, k up to n: the tiles give brute
    force's indices and distances bit for bit."""
    rng = np.random.default_rng(int(10 * p) if np.isfinite(p) else 99)
    metric, exponent = ("minkowski", p) if np.isfinite(p) else ("chebyshev", 2)
    lattice = rng.integers(0, 5, size=(300, 2)).astype(float)
    cases = [
        (lattice * 1e-6, (rng.integers(-1, 6, size=(700, 2)) + 0.5) * 1e-6),
        (lattice * 1e8, region_grid(lattice, 30)[2] * 1e8),
        (rng.normal(size=(60, 2)) + 1e9, np.repeat(rng.normal(size=(1, 2)) + 1e9, 200, axis=0)),
        (np.round(rng.normal(size=(500, 1)), 1), np.linspace(-4, 4, 400)[:, None]),
    ]
    for X, Q in cases:
        prepared = TrainingSet.prepare(X, metric, exponent)
        for k in (1, 15, len(X) // 3, len(X)):
            tiles = nearest_neighbors(Q, prepared, k)
            brute = nearest_neighbors(Q, prepared, k, algorithm="brute")
            np.testing.assert_array_equal(tiles[1], brute[1])
            np.testing.assert_array_equal(tiles[0], brute[0])


def test_sorted_smallest_is_exact_whatever_the_cap():
    """The packed keys round the values: a cap far too small (every key the same) or far too
    large (values in one rounding step) only costs an exact re-sort, never a wrong order."""
    rng = np.random.default_rng(3)
    ranking = np.round(rng.uniform(1, 2, size=(50, 300)), 2)  # many ties
    ranking[:, 5] = np.inf
    ranking[:, 7] = 1 + 2.0**-50 * rng.integers(0, 3, size=50)  # distinct by an ulp or two
    order = np.lexsort((np.broadcast_to(np.arange(300), ranking.shape), ranking), axis=1)
    for k in (1, 9, 299, 300):
        for cap in (None, np.full((50, 1), 1e-3), np.full((50, 1), 1e200)):
            columns, values = sorted_smallest(ranking, k, cap)
            np.testing.assert_array_equal(columns, order[:, :k])
            np.testing.assert_array_equal(values, np.take_along_axis(ranking, order[:, :k], axis=1))
    wide = np.round(rng.uniform(size=(5, 3000)), 3)  # 64-bit keys beyond 1024 columns
    expected = np.lexsort((np.broadcast_to(np.arange(3000), wide.shape), wide), axis=1)[:, :40]
    np.testing.assert_array_equal(sorted_smallest(wide, 40)[0], expected)


def test_1d_data_and_duplicates():
    rng = np.random.default_rng(6)
    X = np.round(rng.normal(size=(200, 1)), 1)
    Q = np.linspace(-4, 4, 333)[:, None]
    for k in (1, 7, 50):
        expected = _reference_neighbours(Q, X, k)
        distances, indices = KNNClassifier(k=k).fit(X, np.zeros(200)).kneighbors(Q)
        np.testing.assert_array_equal(indices, expected[1])
        np.testing.assert_array_equal(distances, expected[0])


# --- Faithful: weights, ties, metrics (issue 13) --------------------------------------------


def test_gaussian_weights_with_a_small_bandwidth_far_away_still_vote_for_the_neighbours():
    """exp(−d²/h²) underflows to 0 for d = 10, h = 0.01: the vote must still be all class 0."""
    X = np.array([[0.0, 0.0], [0.1, 0.0], [0.0, 0.1], [0.1, 0.1], [0.05, 0.05], [5.0, 5.0], [5.1, 5.0]])
    y = np.array([0, 0, 0, 0, 0, 1, 2])
    model = KNNClassifier(k=5, weights="gaussian", bandwidth=0.01).fit(X, y)
    decision = model.decide([[-10.0, -10.0]])
    assert decision.label[0] == 0 and not decision.tied[0]
    np.testing.assert_allclose(decision.shares[0], [1.0, 0.0, 0.0])
    # And where the weights do not underflow they are exp(−d²/h²), normalised.
    labels, distances = np.array([[0, 1, 1]]), np.array([[1.0, 1.5, 2.0]])
    raw = np.exp(-(distances[0] ** 2) / 0.7**2)
    np.testing.assert_allclose(
        vote(labels, distances, 2, "gaussian", 0.7)[1][0], [raw[0], raw[1] + raw[2]] / raw.sum(), rtol=1e-12
    )


def test_gaussian_weights_equal_sklearn_with_the_same_weight_function(blobs):
    X, y, Q = blobs
    h = 0.8
    ours = KNNClassifier(k=9, weights="gaussian", bandwidth=h).fit(X, y)
    oracle = KNeighborsClassifier(9, weights=lambda d: np.exp(-(d**2) / h**2), algorithm="brute").fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(Q), oracle.predict_proba(Q), atol=1e-12)


def test_k_equal_2_agrees_with_k_equal_1_and_says_it_was_a_tie():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(120, 2))
    y = (X[:, 0] > 0).astype(int)
    Q = rng.normal(size=(400, 2))
    one = KNNClassifier(k=1).fit(X, y).predict(Q)
    two = KNNClassifier(k=2).fit(X, y).decide(Q)
    np.testing.assert_array_equal(two.label, one)
    _, indices = KNNClassifier(k=2).fit(X, y).kneighbors(Q)
    np.testing.assert_array_equal(two.tied, y[indices[:, 0]] != y[indices[:, 1]])
    for row in np.flatnonzero(two.tied):
        np.testing.assert_allclose(two.shares[row], [0.5, 0.5])


def test_k_equal_n_on_balanced_classes_is_a_tie_everywhere_decided_by_the_nearest():
    """Map, caption and prediction come from the same vote: every query is a tie, each point is
    its own nearest neighbour, so the training accuracy is 100% and a query takes 1-NN's label."""
    X, y = datasets.gaussian_clusters(20, random_state=1)
    model = KNNClassifier(k=len(X)).fit(X, y)
    decision = model.decide(X)
    assert decision.tied.all()
    np.testing.assert_allclose(decision.shares, 0.5)
    assert model.score(X, y) == 1.0
    Q = region_grid(X, resolution=30)[2]
    np.testing.assert_array_equal(model.predict(Q), KNNClassifier(k=1).fit(X, y).predict(Q))
    assert "nearest neighbour" in TIE_RULE


@pytest.mark.parametrize("k", [1, 2, 3, 4, 7, 10, 25])
def test_textbook_version_equals_the_classifier(k):
    X, y = datasets.gaussian_clusters(30, [(-1, 0), (1, 0), (0, 1.5)], 1.0, random_state=k)
    Q = np.random.default_rng(k).normal(size=(60, 2)) * 2
    fast = KNNClassifier(k=k).fit(X, y).predict(Q)
    readable = [knn_textbook(X.tolist(), y.tolist(), x, k) for x in Q.tolist()]
    np.testing.assert_array_equal(fast, readable)


def test_hamming_on_the_pages_continuous_data_does_not_raise():
    X, y = datasets.gaussian_clusters(100, random_state=0)
    model = KNNClassifier(k=15, metric="hamming").fit(X, y)
    grid = region_grid(X, resolution=20)[2]
    assert model.predict_proba(grid).shape == (400, 2)
    assert not metric_suits("hamming", X)[0]


# --- Reliability (issue 16) --------------------------------------------------------------


@pytest.mark.parametrize(
    ("algorithm", "metric"),
    [(a, m) for a in ("auto", "brute") for m in METRICS] + [("kdtree", m) for m, _ in MINKOWSKI],
)
@pytest.mark.parametrize("weights", WEIGHTS)
def test_huge_finite_queries_give_neighbours_not_errors(algorithm, metric, weights):
    X, y = datasets.gaussian_clusters(50, random_state=2)
    model = KNNClassifier(k=5, metric=metric, p=3, weights=weights, algorithm=algorithm).fit(X, y)
    Q = np.array([[1e308, 1e308], [-1.7e308, 1.7e308], [1e308, 0.0], [3.0, -1e200]])
    distances, indices = model.kneighbors(Q)
    assert not np.isnan(distances).any() and indices.min() >= 0
    decision = model.decide(Q)
    assert np.all(np.isfinite(decision.shares)) and np.allclose(decision.shares.sum(axis=1), 1.0)
    if minkowski_p(metric, 3) is not None:
        # At (1e308, 0) every distance rounds to 1e308 (the data are within ±10): a tie of all the
        # points, broken by index, and the same whatever the path.
        np.testing.assert_array_equal(distances[2], 1e308)
        np.testing.assert_array_equal(indices[2], np.arange(5))


def test_k_up_to_n_on_a_thousand_points():
    X, y = datasets.gaussian_clusters(500, random_state=3)
    model = KNNClassifier(k=1000).fit(X, y)
    distances, indices = model.kneighbors(X[:50])
    assert np.all(np.sort(indices, axis=1) == np.arange(1000))
    assert np.all(np.diff(distances, axis=1) >= 0)


def test_neighbour_table_is_lean_and_revotes_like_the_classifier():
    X, y = datasets.gaussian_clusters(100, random_state=4)
    grid = region_grid(X, resolution=25)[2]
    table = neighbour_table(grid, X, 40)
    assert table.indices.dtype == np.int32 and table.distances.dtype == np.float32
    assert table.indices.shape == (625, 40)
    for k in (1, 6, 40):
        expected = KNNClassifier(k=k).fit(X, y).kneighbors(grid)
        np.testing.assert_array_equal(table.indices[:, :k], expected[1])
        np.testing.assert_allclose(table.distances[:, :k], expected[0], rtol=1e-6)
        winner = table.vote(y, k)[0]
        np.testing.assert_array_equal(winner, KNNClassifier(k=k).fit(X, y).predict(grid))


# --- Edited k-NN --------------------------------------------------------------------------


def test_wilson_drops_the_points_their_neighbours_outvote():
    # Class 0 on 0..4 with one class-1 intruder at 2.1; class 1 on 10..14.
    X = np.array([[0.0], [1], [2], [3], [4], [2.1], [10], [11], [12], [13], [14]])
    y = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
    kept = wilson_edit(X, y, k=3)
    assert 5 not in kept
    np.testing.assert_array_equal(kept, [0, 1, 2, 3, 4, 6, 7, 8, 9, 10])


def test_wilson_equals_leave_one_out_misclassification(blobs):
    X, y, _ = blobs
    kept = wilson_edit(X, y, k=5)
    wrong = [
        i
        for i in range(len(X))
        if KNNClassifier(k=5).fit(np.delete(X, i, 0), np.delete(y, i)).predict(X[i : i + 1])[0] != y[i]
    ]
    np.testing.assert_array_equal(np.setdiff1d(np.arange(len(X)), kept), wrong)


def test_hart_keeps_a_consistent_subset():
    X = np.array([[0.0], [1], [2], [10], [11], [12]])
    y = np.array([0, 0, 0, 1, 1, 1])
    np.testing.assert_array_equal(hart_condense(X, y), [0, 3])
    rng = np.random.default_rng(9)
    X = rng.normal(size=(150, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    kept = hart_condense(X, y)
    assert 0 < len(kept) < len(X)
    # Consistent: 1-NN on the kept points classifies every training point correctly.
    assert KNNClassifier(k=1).fit(X[kept], y[kept]).score(X, y) == 1.0


# --- The estimator contract ---------------------------------------------------------------


def test_estimator_contract_with_sklearn_tools(blobs):
    from sklearn.base import clone
    from sklearn.model_selection import GridSearchCV, cross_val_score

    X, y, _ = blobs
    model = KNNClassifier(k=3, weights="distance")
    assert repr(model) == "KNNClassifier(k=3, weights='distance')"
    assert clone(model).get_params() == model.get_params()
    assert cross_val_score(model, X, y, cv=3).mean() > 0.7
    search = GridSearchCV(KNNClassifier(), {"k": [1, 5, 15]}, cv=3).fit(X, y)
    assert search.best_params_["k"] in (1, 5, 15)
    fitted = KNNClassifier(k=3).fit(X, y)
    assert fitted.n_features_in_ == 4 and fitted.classes_.tolist() == [0, 1]
    with pytest.raises(TypeError):
        KNNClassifier(3)
    with pytest.raises(NotFittedError):
        KNNClassifier().predict(X)


# --- When the page says a vote can tie (classic.lessons.knn.ties_possible) ----------------


def _tied_cells(X, y, k, weights="uniform"):
    """How many cells of the page's map grid the library's vote calls tied."""
    from classic.viz.knn import view_grid

    return int(KNNClassifier(k=k, weights=weights).fit(X, y).decide(view_grid(X)[2]).tied.sum())


def test_ties_possible_on_three_clusters_and_two_classes_at_odd_k():
    from classic.lessons import knn as lesson

    X, y = lesson.lesson_data(lesson.CLUSTERS, 100, 3, 0)
    assert np.bincount(y).tolist() == [34, 33, 33]
    for k in (5, 7):  # the old rule said no: 3 does not divide k and the classes differ in size
        assert lesson.ties_possible(X, y, k) and _tied_cells(X, y, k) > 0
    X, y = lesson.lesson_data("Moons", 200, 2, 0)
    for k in (1, 3, 5, 51):  # the old rule said yes: 100 + 100 points
        assert not lesson.ties_possible(X, y, k) and _tied_cells(X, y, k) == 0
    assert lesson.ties_possible(X, y, 2) and _tied_cells(X, y, 2) > 0


def test_ties_possible_is_never_false_where_the_map_has_a_tie():
    """Over data sets, class counts and k: a tied cell on the map implies the note, and the
    count rule equals an enumeration of every vote k neighbours can cast."""
    import itertools

    from classic.lessons import knn as lesson

    for name, n, n_classes in [
        (lesson.POST, 100, 2),
        (lesson.CLUSTERS, 100, 3),
        ("Spiral", 60, 4),
        ("XOR", 40, 2),
    ]:
        X, y = lesson.lesson_data(name, n, n_classes, 1)
        for k in (1, 2, 3, 4, 5, 6, 9, len(X) - 1, len(X)):
            if _tied_cells(X, y, k):
                assert lesson.ties_possible(X, y, k), (name, k)
    for counts in ([3, 3], [5, 2], [2, 2, 1], [4, 1, 1], [6, 4], [3, 3, 3]):
        y = np.repeat(np.arange(len(counts)), counts)
        for k in range(1, len(y) + 1):
            votes = [v for v in itertools.product(*(range(c + 1) for c in counts)) if sum(v) == k]
            can_tie = any(sorted(v)[-1] == sorted(v)[-2] for v in votes)
            assert lesson.ties_possible(np.zeros((len(y), 2)), y, k) == can_tie, (counts, k)


def test_weighted_votes_tie_over_areas_only_with_points_at_distance_zero():
    from classic.lessons import knn as lesson

    X, y = lesson.lesson_data(lesson.POST, 100, 2, 0)
    for weights in ("distance", "distance2", "gaussian"):
        assert not lesson.ties_possible(X, y, 8, weights) and _tied_cells(X, y, 8, weights) == 0
        assert lesson.ties_possible(X, y, 8, weights, "hamming")
    # The same point twice, once in each class: it is always as near as itself.
    X2, y2 = np.vstack([X, X[:1]]), np.append(y, 1 - y[0])
    assert lesson.ties_possible(X2, y2, 2, "distance") and _tied_cells(X2, y2, 2, "distance") > 0
    for k in (1, 3):  # one against one, plus a third neighbour's weight (> 0) at k = 3
        assert not lesson.ties_possible(X2, y2, k, "distance") and _tied_cells(X2, y2, k, "distance") == 0


def test_a_weighting_is_one_registry_entry(monkeypatch, blobs):
    """A weighting added to WEIGHT_REGISTRY alone is accepted by KNNClassifier and votes with its
    weights relative to the nearest neighbour's (here w = 1/d³)."""
    from classic.knn import WEIGHT_REGISTRY, Weighting

    monkeypatch.setitem(
        WEIGHT_REGISTRY, "distance3", Weighting("1/d³", lambda d, nearest, h: (nearest / d) ** 3)
    )
    X, y, _ = blobs
    model = KNNClassifier(k=7, weights="distance3").fit(X, y)
    distances, indices = model.kneighbors(X[:30] + 0.05)
    w = 1 / distances**3
    expected = np.stack([(w * (model.y_[indices] == c)).sum(axis=1) for c in range(len(model.classes_))], 1)
    np.testing.assert_allclose(
        model.predict_proba(X[:30] + 0.05), expected / expected.sum(axis=1, keepdims=True)
    )


@pytest.mark.parametrize("weights", WEIGHTS)
def test_accuracy_curves_are_the_vote_for_each_k_bit_for_bit(weights):
    """leave_one_out_accuracy and accuracy_by_k keep running totals, one neighbour per k: the
    same accuracies as calling vote for each k, on integer points full of ties."""
    from classic.knn import _neighbours_of_each_other

    rng = np.random.default_rng(5)
    X, y = rng.integers(-3, 4, (80, 2)).astype(float), rng.integers(0, 3, 80)
    ks = [1, 2, 3, 4, 7, 10, 30, 79]
    distances, indices = _neighbours_of_each_other(X, 79, "euclidean", 2)
    expected = [np.mean(vote(y[indices[:, :k]], distances[:, :k], 3, weights, 0.5)[0] == y) for k in ks]
    assert leave_one_out_accuracy(X, y, ks, weights=weights, bandwidth=0.5).tolist() == expected
    Q, truth = rng.integers(-3, 4, (40, 2)).astype(float), rng.integers(0, 4, 40)  # class 3: never seen
    distances, indices = nearest_neighbors(Q, X, 79)
    truth_index = np.where(truth < 3, truth, -1)
    expected = [
        np.mean(vote(y[indices[:, :k]], distances[:, :k], 3, weights, 0.5)[0] == truth_index) for k in ks
    ]
    assert accuracy_by_k(X, y, Q, truth, ks, weights=weights, bandwidth=0.5).tolist() == expected
