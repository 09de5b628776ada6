"""Tests for classic.datasets: generators, toy tables, UCI loaders and their validation."""

import shutil

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


def test_load_semeion(data_home):
    X, y = datasets.load_semeion(data_home)
    assert X.shape == (1593, 256) and X.dtype == np.uint8
    assert y.shape == (1593,) and y.dtype == np.int64
    assert set(np.unique(X)) == {0, 1}
    assert np.bincount(y).tolist() == [161, 162, 159, 159, 161, 159, 161, 158, 155, 158]


def test_load_house_votes(data_home):
    X, y, features = datasets.load_house_votes(data_home)
    assert X.shape == (435, 16)
    assert set(np.unique(X)) == {"y", "n", "?"}
    assert (y == "democrat").sum() == 267 and (y == "republican").sum() == 168
    assert features[0] == "handicapped-infants"
    assert features[-1] == "export-administration-act-south-africa"
    assert len(features) == 16


def test_semeion_accepts_uci_float_format(tmp_path, data_home):
    lines = (data_home / "semeion.data").read_text().splitlines()
    floats = [" ".join(f"{float(v):.4f}" for v in line.split()) for line in lines]
    (tmp_path / "semeion.data").write_text("\n".join(floats) + "\n")
    X, y = datasets.load_semeion(tmp_path)
    np.testing.assert_array_equal(X, datasets.load_semeion(data_home)[0])


def _corrupt(tmp_path, data_home, filename, line_number, transform):
    lines = (data_home / filename).read_text().splitlines()
    lines[line_number - 1] = transform(lines[line_number - 1])
    (tmp_path / filename).write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("transform", "message"),
    [
        (lambda line: line.rsplit(" ", 3)[0], "expected 266"),
        (lambda line: "2" + line[1:], "0 or 1"),
        (lambda line: line.replace("0", "x", 1), "not a number"),
    ],
)
def test_corrupted_semeion_names_file_and_line(tmp_path, data_home, monkeypatch, transform, message):
    monkeypatch.delenv("CLASSIC_DATA_HOME")
    _corrupt(tmp_path, data_home, "semeion.data", 7, transform)
    with pytest.raises(ValueError, match=rf"semeion\.data, line 7: .*{message}"):
        datasets.load_semeion(tmp_path)


def test_truncated_semeion_reports_row_count(tmp_path, data_home, monkeypatch):
    monkeypatch.delenv("CLASSIC_DATA_HOME")
    lines = (data_home / "semeion.data").read_text().splitlines()[:1000]
    (tmp_path / "semeion.data").write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match="expected 1593 rows, found 1000"):
        datasets.load_semeion(tmp_path)


@pytest.mark.parametrize(
    ("transform", "message"),
    [
        (lambda line: line + ",y", "expected 17"),
        (
            lambda line: line.replace("democrat", "whig").replace("republican", "whig"),
            "democrat or republican",
        ),
        (lambda line: line[:-1] + "maybe", "y, n or \\?"),
    ],
)
def test_corrupted_house_votes_names_file_and_line(tmp_path, data_home, monkeypatch, transform, message):
    monkeypatch.delenv("CLASSIC_DATA_HOME")
    _corrupt(tmp_path, data_home, "house-votes-84.data", 12, transform)
    with pytest.raises(ValueError, match=rf"house-votes-84\.data, line 12: .*{message}"):
        datasets.load_house_votes(tmp_path)


def test_lookup_order_argument_then_environment(tmp_path, data_home, monkeypatch):
    shutil.copy(data_home / "house-votes-84.data", tmp_path / "house-votes-84.data")
    monkeypatch.setenv("CLASSIC_DATA_HOME", str(tmp_path))
    assert datasets.data_dirs()[0] == tmp_path
    assert datasets.data_dirs("/somewhere")[:2] == [datasets.Path("/somewhere"), tmp_path]
    assert datasets.data_dirs()[-1] == datasets.DATA_DIR
    X, _, _ = datasets.load_house_votes()
    assert X.shape == (435, 16)


def test_missing_file_downloads_validates_and_caches(tmp_path, data_home, monkeypatch):
    monkeypatch.delenv("CLASSIC_DATA_HOME")
    monkeypatch.setattr(datasets, "DATA_DIR", tmp_path / "cache")
    text = (data_home / "house-votes-84.data").read_text()
    monkeypatch.setattr(datasets, "_download", lambda source: text)
    X, y, _ = datasets.load_house_votes(tmp_path / "empty")
    assert X.shape == (435, 16)
    assert (tmp_path / "cache" / "house-votes-84.data").read_text() == text


def test_no_network_gives_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.delenv("CLASSIC_DATA_HOME")
    monkeypatch.setattr(datasets, "DATA_DIR", tmp_path / "cache")

    def refuse(*args, **kwargs):
        raise OSError("network is unreachable")

    monkeypatch.setattr(datasets.urllib.request, "urlopen", refuse)
    with pytest.raises(datasets.DatasetUnavailable, match="could not be downloaded.*put it"):
        datasets.load_house_votes(tmp_path / "empty")


def test_download_command(monkeypatch, capsys, data_home):
    assert datasets.main(["download"]) == 0
    assert "semeion.data: ready" in capsys.readouterr().out
    assert datasets.main([]) == 2


def test_stretched_clusters_differ_only_in_the_small_feature():
    X, y = datasets.stretched_clusters(200, factor=100, random_state=0)
    assert X[:, 0].std() > 50 * X[:, 1].std()
    assert np.mean((X[:, 1] > 0) == (y == 1)) > 0.85
    with pytest.raises(ValueError, match="factor"):
        datasets.stretched_clusters(factor=0)
