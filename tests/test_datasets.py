"""Tests for classic.datasets: generators and toy tables (the UCI loaders are in test_uci.py)."""

import numpy as np
import pytest

from classic import datasets

GENERATORS = [
    datasets.linearly_separable,
    datasets.xor,
    datasets.gaussian_clusters,
    datasets.concentric_circles,
    datasets.moons,
    datasets.spiral,
]


@pytest.mark.parametrize("generator", GENERATORS)
def test_generators_shapes_types_and_seed(generator):
    X, y = generator(random_state=3)
    assert X.dtype == np.float64 and X.ndim == 2 and X.shape[1] == 2
    assert y.dtype == np.int64 and y.shape == (len(X),)
    assert set(np.unique(y)) == set(range(y.max() + 1))
    X2, y2 = generator(random_state=3)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)


@pytest.mark.parametrize("generator", [g for g in GENERATORS if g is not datasets.xor])
def test_generators_differ_between_seeds(generator):
    assert not np.array_equal(generator(random_state=1)[0], generator(random_state=2)[0])


def test_linearly_separable_follows_the_line():
    X, y = datasets.linearly_separable(500, random_state=0)
    assert X.shape == (500, 2)
    assert X.min() >= 0 and X.max() <= 1
    np.testing.assert_array_equal(y, (X[:, 1] > 1 - X[:, 0]).astype(int))
    assert datasets.linearly_separable(random_state=0)[0].shape == (25, 2)


def test_xor_exact_points():
    X, y = datasets.xor()
    points = {tuple(p): label for p, label in zip(X.tolist(), y.tolist(), strict=True)}
    assert points == {(0.0, 0.0): 1, (1.0, 1.0): 1, (1.0, 0.0): 0, (0.0, 1.0): 0}


def test_xor_noisy_clusters_sit_around_the_corners():
    X, y = datasets.xor(400, noise=0.1, random_state=0)
    corner = np.round(X).clip(0, 1)
    expected = (corner[:, 0] == corner[:, 1]).astype(int)
    assert np.mean(expected == y) > 0.95
    assert np.bincount(y).tolist() == [200, 200]


def test_gaussian_clusters_any_number_of_centres():
    centers = ((0, 0), (10, 0), (0, 10))
    X, y = datasets.gaussian_clusters(30, centers, std=0.5, random_state=0)
    assert X.shape == (90, 2) and np.bincount(y).tolist() == [30, 30, 30]
    for c, centre in enumerate(centers):
        np.testing.assert_allclose(X[y == c].mean(axis=0), centre, atol=0.3)


def test_circles_radii_and_spiral_classes():
    X, y = datasets.concentric_circles(400, noise=0.0, random_state=0)
    radius = np.hypot(X[:, 0], X[:, 1])
    np.testing.assert_allclose(radius[y == 0], 1.0)
    np.testing.assert_allclose(radius[y == 1], 0.5)
    X, y = datasets.spiral(300, n_classes=3, random_state=0)
    assert np.bincount(y).tolist() == [100, 100, 100]


@pytest.mark.parametrize(
    "call",
    [
        lambda: datasets.linearly_separable(0),
        lambda: datasets.xor(3),
        lambda: datasets.moons(100, noise=-1),
        lambda: datasets.gaussian_clusters(10, centers=(1, 2, 3)),
        lambda: datasets.gaussian_clusters(10, std=0),
        lambda: datasets.spiral(10, n_classes=0),
        lambda: datasets.moons(random_state="seed"),
    ],
)
def test_generators_reject_bad_arguments(call):
    with pytest.raises(ValueError):
        call()


def test_toy_tables():
    X, y, features = datasets.load_arya()
    assert features == ["Sky", "Temperature", "Humidity", "Wind"]
    assert X.shape == (6, 4) and set(y) == {"Yes", "No"}
    assert X[0].tolist() == ["Cloudy", "Warm", "Low", "Low"] and y[0] == "Yes"
    X, y, features = datasets.load_play_tennis()
    assert X.shape == (14, 4) and features[0] == "Outlook"
    assert (y == "Yes").sum() == 9 and (y == "No").sum() == 5


def test_uci_loaders_stay_importable_from_datasets():
    """Pages and notebooks import the loaders from here; they live in classic.uci (tested there)."""
    from classic import uci

    assert datasets.load_semeion is uci.load_semeion
    assert datasets.load_house_votes is uci.load_house_votes
    assert datasets.DatasetUnavailable is uci.DatasetUnavailable
    assert datasets.data_dirs is uci.data_dirs


def test_download_command_keeps_its_old_name(data_home, capsys):
    assert datasets.main(["download"]) == 0
    assert "semeion.data: ready" in capsys.readouterr().out
    assert datasets.main([]) == 2
    assert "python -m classic.datasets download" in capsys.readouterr().err


def test_stretched_clusters_differ_only_in_the_small_feature():
    X, y = datasets.stretched_clusters(200, factor=100, random_state=0)
    assert X[:, 0].std() > 50 * X[:, 1].std()
    assert np.mean((X[:, 1] > 1.70) == (y == 1)) > 0.85
    with pytest.raises(ValueError, match="factor"):
        datasets.stretched_clusters(factor=0)
    with pytest.raises(ValueError, match="factor"):
        datasets.stretched_clusters(factor=1000)  # weights would go negative


@pytest.mark.parametrize("seed", range(20))
def test_stretched_clusters_are_plausible_weights_and_heights(seed):
    """Weights in kilograms and heights in metres an adult could have, for every seed and the
    most points a page asks for; the same seed gives the same points."""
    X, y = datasets.stretched_clusters(500, factor=100, random_state=seed)
    weight, height = X[:, 0], X[:, 1]
    assert 25 < weight.min() and weight.max() < 120, (weight.min(), weight.max())
    assert 1.3 < height.min() and height.max() < 2.1, (height.min(), height.max())
    assert abs(weight.mean() - 70) < 2 and abs(height.mean() - 1.70) < 0.02
    again = datasets.stretched_clusters(500, factor=100, random_state=seed)
    assert np.array_equal(X, again[0]) and np.array_equal(y, again[1])
    widest = datasets.stretched_clusters(500, factor=150, random_state=seed)[0]
    assert widest[:, 0].min() > 0
