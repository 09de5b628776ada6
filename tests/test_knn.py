"""Tests for classic.knn: scikit-learn as the oracle, the tie rule, weights, errors, Semeion."""

import dataclasses

import numpy as np
import pytest
from sklearn.metrics import pairwise_distances as sk_pairwise
from sklearn.neighbors import KNeighborsClassifier

from classic import datasets, evaluation
from classic.knn import (
    KNNClassifier,
    TrainingSet,
    accuracy_by_k,
    leave_one_out_accuracy,
    nearest_neighbors,
    pairwise_distances,
    region_grid,
    vote,
)


@pytest.fixture(scope="module")
def blobs():
    """Two classes, odd k: a uniform vote can never tie, so sklearn's tie rule never matters."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] + 0.5 * rng.normal(size=300) > 0).astype(int)
    return X, y, rng.normal(size=(150, 4))


@pytest.mark.parametrize(
    ("metric", "p"), [("euclidean", 2), ("manhattan", 2), ("chebyshev", 2), ("minkowski", 3)]
)
@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize("algorithm", ["brute", "kdtree"])
def test_neighbours_and_predictions_equal_sklearn(blobs, metric, p, weights, algorithm):
    X, y, Q = blobs
    ours = KNNClassifier(k=7, metric=metric, p=p, weights=weights, algorithm=algorithm).fit(X, y)
    oracle = KNeighborsClassifier(7, weights=weights, metric=metric, p=p, algorithm="brute").fit(X, y)
    distances, indices = ours.kneighbors(Q)
    sk_distances, sk_indices = oracle.kneighbors(Q)
    np.testing.assert_array_equal(indices, sk_indices)
    np.testing.assert_allclose(distances, sk_distances, rtol=1e-10)
    np.testing.assert_array_equal(ours.predict(Q), oracle.predict(Q))
    np.testing.assert_allclose(ours.predict_proba(Q), oracle.predict_proba(Q), atol=1e-9)


@pytest.mark.parametrize("metric", ["cosine", "hamming"])
def test_cosine_and_hamming_equal_sklearn(blobs, metric):
    X, y, Q = blobs
    if metric == "hamming":
        X, Q = (X > 0).astype(float), (Q > 0.3).astype(float)
    ours = KNNClassifier(k=5, metric=metric).fit(X, y)
    oracle = KNeighborsClassifier(5, metric=metric, algorithm="brute").fit(X, y)
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
