"""The k-NN player's JavaScript against the Python it mirrors.

The player re-votes every map cell in the browser (``voteOne`` with its ``WEIGHTS`` table) and ranks
the training points around a dragged query (``distance`` with its ``METRICS`` table). Here the
player's module, built as the page mounts it (``pages/widgets/players.py``: the shared toolkit in
front), runs in Chromium on fixtures that ``classic.distances.pairwise_distances`` and
``classic.knn.vote`` answered, and must give the same answers: every metric of the library (the
Minkowski family at several p), every weighting, ties, exact matches, k = 1 … n. A metric or a
weighting the library gains without its JavaScript entry fails here.
"""

import numpy as np
import pytest
from conftest import evaluate_with_timeout, new_context, require_browser

from classic import knn
from classic.distances import METRICS, pairwise_distances
from classic.viz.knn import player_metric
from pages.widgets.players import player_source

pytestmark = pytest.mark.browser

ORIGIN = "http://player.invalid"  # served by the test itself: nothing leaves the machine
BANDWIDTHS = (0.5, 1.0, 3.0)


@pytest.fixture(scope="module")
def mirror(browser):
    """A Chromium page holding the k-NN player's module as ``window.mirror``."""
    require_browser()
    module = player_source("knn_player.html")["js"]
    page_html = (
        '<!doctype html><script type="module">import * as m from "./player.js"; window.mirror = m;</script>'
    )
    with new_context(browser) as context:
        page = context.new_page()
        files = {"/": ("text/html", page_html), "/player.js": ("text/javascript", module)}

        def serve(route):
            kind, body = files[route.request.url.removeprefix(ORIGIN)]
            route.fulfill(status=200, content_type=kind, body=body)

        page.route(f"{ORIGIN}/**", serve)
        page.goto(f"{ORIGIN}/")
        evaluate_with_timeout(
            page,
            "() => new Promise((done) => { const t = setInterval(() => { if (window.mirror) { clearInterval(t); done(); } }, 20); })",
            what="the player's module to load",
        )
        yield page


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


def test_the_players_tables_name_every_metric_and_weighting_of_the_library(mirror):
    names = mirror.evaluate("() => [Object.keys(window.mirror.METRICS), Object.keys(window.mirror.WEIGHTS)]")
    assert sorted(names[0]) == sorted(METRICS)
    assert sorted(names[1]) == sorted(knn.WEIGHTS)


@pytest.mark.parametrize(
    ("metric", "p"),
    [(m, 2.0) for m in METRICS if m != "minkowski"] + [("minkowski", p) for p in (1.0, 1.5, 2.0, 3.0, 7.0)],
)
def test_distance_is_the_librarys_pairwise_distance(mirror, metric, p):
    X = points()
    expected = pairwise_distances(X, X, metric, p)
    got = np.array(
        mirror.evaluate(
            "([X, D]) => X.map((a) => X.map((b) => window.mirror.distance(a, b, D)))",
            [X.tolist(), player_metric(metric, p)],
        )
    )
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15, err_msg=f"{metric}, p = {p}")
    assert (got == 0).sum() == (expected == 0).sum()  # exact matches stay exact


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


@pytest.mark.parametrize("weights", knn.WEIGHTS)
@pytest.mark.parametrize("float32", [False, True], ids=["float64", "float32 as the table sends"])
def test_the_vote_is_the_librarys_vote(mirror, weights, float32):
    labels, distances = neighbour_rows()
    if float32:
        distances = distances.astype(np.float32).astype(np.float64)
    n_classes, width = 3, labels.shape[1]
    cases = 0
    for bandwidth in BANDWIDTHS if weights == "gaussian" else (1.0,):
        got = mirror.evaluate(
            """([labels, dists, width, D, float32, classes]) => {
                const table = float32 ? new Float32Array(dists) : dists, scores = new Float64Array(classes);
                const out = [];
                for (let row = 0; row < labels.length / width; row++) for (let k = 1; k <= width; k++) {
                    const { winner, tied } = window.mirror.voteOne(labels, table, row * width, k, D, scores);
                    const total = scores.reduce((a, b) => a + b, 0);
                    out.push([winner, tied, [...scores].map((s) => s / total)]);
                }
                return out;
            }""",
            [
                labels.ravel().tolist(),
                distances.ravel().tolist(),
                width,
                {"weights": weights, "bandwidth": bandwidth},
                float32,
                n_classes,
            ],
        )
        for k in range(1, width + 1):  # k = width is every neighbour the rows hold: k = n
            winner, shares, tied = knn.vote(labels[:, :k], distances[:, :k], n_classes, weights, bandwidth)
            for row in range(len(labels)):
                js_winner, js_tied, js_shares = got[row * width + k - 1]
                where = f"{weights}, h = {bandwidth}, row {row}, k = {k}"
                assert (js_winner, js_tied) == (winner[row], tied[row]), where
                np.testing.assert_allclose(js_shares, shares[row], rtol=1e-12, atol=1e-15, err_msg=where)
                cases += 1
    assert cases >= 66 * 9
    if weights == "uniform" or not float32:
        _, _, tied = knn.vote(labels, distances, n_classes, weights)
        assert tied.any()  # the fixtures hold ties the rule has to break
