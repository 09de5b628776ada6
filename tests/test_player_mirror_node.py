"""The k-NN player's JavaScript against the Python it mirrors, under node (no browser).

The player re-votes every map cell in the browser (``voteOne`` with its ``WEIGHTS`` table) and ranks
the training points around a dragged query (``distance`` with its ``METRICS`` table). Here the
player's module, built as the page mounts it (``pages/widgets/players.py``: the shared toolkit in
front), is imported by node (Debian's ``nodejs``), which runs ``tests/knn_mirror.mjs``'s jobs on
fixtures that ``classic.distances.pairwise_distances`` and ``classic.knn.vote`` answered, and must
give the same answers: every metric of the registry (a metric whose exponent the caller gives at
several p), every weighting, ties, exact matches, k = 1 … n. A metric or a weighting added to the
library without its JavaScript entry fails here, in the quick loop.
``tests/browser/test_player_knn_mirror.py`` runs the same checks in Chromium.

Without node these tests are skipped, unless ``REQUIRE_BROWSER=1`` (as in CI), where a missing
node is a failure.
"""

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from classic import knn
from classic.distances import METRIC_REGISTRY, METRICS, pairwise_distances
from classic.viz.knn import player_metric
from pages.widgets.players import player_source

HARNESS = Path(__file__).resolve().parent / "knn_mirror.mjs"
BANDWIDTHS = (0.5, 1.0, 3.0)
EXPONENTS = (1.0, 1.5, 2.0, 3.0, 7.0)  # for a metric whose Minkowski exponent the caller gives
# Each metric at p = 2, and a metric that takes the caller's p at each of EXPONENTS.
METRIC_CASES = [
    (metric, p)
    for metric, entry in METRIC_REGISTRY.items()
    for p in (EXPONENTS if entry.minkowski == "p" else (2.0,))
]

Run = Callable[..., Any]  # run(job, *args): a job of tests/knn_mirror.mjs on the player's module


@pytest.fixture(scope="module")
def node(tmp_path_factory) -> Run:
    """``run(job, *args)`` under node, on the k-NN player's module as the page mounts it."""
    program = shutil.which("node")
    if program is None:
        why = "node is missing (apt-get install nodejs): only the browser tests check the k player's mirror"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)
    module = tmp_path_factory.mktemp("knn_player") / "player.mjs"
    module.write_text(player_source("knn_player.html")["js"], encoding="utf-8")

    def run(job: str, *args: Any) -> Any:
        done = subprocess.run(
            [program, str(HARNESS), module.as_uri()],
            input=json.dumps([job, *args], allow_nan=False),
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0:
            pytest.fail(f"node failed on the job {job!r}:\n{done.stderr}", pytrace=False)
        return json.loads(done.stdout)

    return run


# --------------------------------------------------------------------------------------------
# The checks, for any runner (here node; Chromium in tests/browser/test_player_knn_mirror.py)
# --------------------------------------------------------------------------------------------


def points() -> np.ndarray:
    """Points of the plane with the cases each metric has to get right: random ones at several
    scales, repeats (distance 0), the origin (cosine's zero vector), opposite and parallel
    directions, shared coordinates and −0 (Hamming)."""
    rng = np.random.default_rng(23)
    special = [
        [0.0, 0.0],
        [-0.0, 0.0],
        [1.0, 2.0],
        [1.0, 2.0],
        [-2.0, -4.0],
        [3.0, 6.0],
        [1.0, -7.0],
        [5.0, 2.0],
        [1e-8, -3e-8],
        [2.5e6, -1e6],
    ]
    return np.vstack([special, rng.normal(size=(10, 2)), rng.integers(-2, 3, size=(8, 2)).astype(float)])


def neighbour_rows(n_classes: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """Rows of labels with their distances, nearest first (as the player's table holds them):
    random rows, and rows built to tie, to hold exact matches and equal distances."""
    rng = np.random.default_rng(26)
    width = 9
    labels = rng.integers(0, n_classes, size=(60, width))
    distances = np.sort(rng.gamma(2.0, 0.6, size=(60, width)), axis=1)
    built = [
        ([0, 1, 0, 1, 2, 2, 0, 1, 2], [1, 1, 2, 2, 3, 3, 4, 4, 5]),  # equal distances: ties at every even k
        ([1, 0, 0, 0, 2, 1, 1, 2, 0], [0, 0, 1, 2, 2, 3, 3, 4, 5]),  # exact matches of two classes
        ([2, 2, 0, 1, 0, 1, 0, 1, 2], [0, 0.5, 0.5, 1, 1, 1, 2, 2, 2]),  # one exact match
        ([0, 1, 1, 0, 0, 1, 2, 2, 2], [40, 41, 42, 43, 44, 45, 46, 47, 50]),  # far: exp(−d²/h²) underflows
        ([0, 1, 2, 0, 1, 2, 0, 1, 2], [1, 2, 3, 4, 5, 6, 7, 8, 9]),  # uniform ties at k = 3, 6, 9
        ([1, 0, 1, 0, 1, 0, 1, 0, 1], [0.1] * 9),  # every neighbour at the same distance
    ]
    labels = np.vstack([labels, [row for row, _ in built]])
    distances = np.vstack([distances, [d for _, d in built]]).astype(np.float64)
    return labels, distances


def check_tables(run: Run) -> None:
    """The player's METRICS and WEIGHTS name exactly the library's metrics and weightings."""
    for (table, registry), names in zip(
        (("METRICS", METRICS), ("WEIGHTS", knn.WEIGHTS)), run("tables"), strict=True
    ):
        missing, extra = sorted(set(registry) - set(names)), sorted(set(names) - set(registry))
        assert not missing, f"the player's {table} (assets/knn_player.html) lacks {missing}"
        assert not extra, (
            f"the player's {table} (assets/knn_player.html) has {extra}, which the library lacks"
        )


def check_distance(run: Run, metric: str, p: float) -> None:
    """The player's distance between every two points is the library's, bit for bit near enough."""
    X = points()
    expected = pairwise_distances(X, X, metric, p)
    got = np.array(run("distances", X.tolist(), player_metric(metric, p)), dtype=np.float64)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15, err_msg=f"{metric}, p = {p}")
    assert (got == 0).sum() == (expected == 0).sum()  # exact matches stay exact


def check_vote(run: Run, weights: str, float32: bool) -> None:
    """The player's vote (winner, tie, shares) for every row and every k is the library's."""
    labels, distances = neighbour_rows()
    if float32:
        distances = distances.astype(np.float32).astype(np.float64)
    n_classes, width = 3, labels.shape[1]
    weighted = knn.WEIGHT_REGISTRY[weights].relative is not None
    cases = 0
    for bandwidth in BANDWIDTHS if weighted else (1.0,):
        got = run(
            "votes",
            labels.ravel().tolist(),
            distances.ravel().tolist(),
            width,
            {"weights": weights, "bandwidth": bandwidth},
            float32,
            n_classes,
        )
        rows = len(labels)
        js_winner = np.array([answer[0] for answer in got]).reshape(rows, width)
        js_tied = np.array([answer[1] for answer in got]).reshape(rows, width)
        js_shares = np.array([answer[2] for answer in got], dtype=np.float64).reshape(rows, width, n_classes)
        for k in range(1, width + 1):  # k = width is every neighbour the rows hold: k = n
            winner, shares, tied = knn.vote(labels[:, :k], distances[:, :k], n_classes, weights, bandwidth)
            where = f"{weights}, h = {bandwidth}, k = {k}"
            np.testing.assert_array_equal(js_winner[:, k - 1], winner, err_msg=f"the winners, {where}")
            np.testing.assert_array_equal(js_tied[:, k - 1], tied, err_msg=f"the ties, {where}")
            np.testing.assert_allclose(js_shares[:, k - 1], shares, rtol=1e-12, atol=1e-15, err_msg=where)
            cases += rows
    assert cases >= 66 * 9
    if not weighted or not float32:
        _, _, tied = knn.vote(labels, distances, n_classes, weights)
        assert tied.any()  # the fixtures hold ties the rule has to break


# --------------------------------------------------------------------------------------------
# Under node
# --------------------------------------------------------------------------------------------


def test_the_players_tables_name_every_metric_and_weighting_of_the_library(node):
    check_tables(node)


@pytest.mark.parametrize(("metric", "p"), METRIC_CASES)
def test_distance_is_the_librarys_pairwise_distance(node, metric, p):
    check_distance(node, metric, p)


@pytest.mark.parametrize("weights", knn.WEIGHTS)
@pytest.mark.parametrize("float32", [False, True], ids=["float64", "float32 as the table sends"])
def test_the_vote_is_the_librarys_vote(node, weights, float32):
    check_vote(node, weights, float32)
