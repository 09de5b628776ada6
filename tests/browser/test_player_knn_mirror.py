"""The k-NN player's JavaScript against the Python it mirrors, in Chromium.

The checks of ``tests/test_player_mirror_node.py`` (the player's ``METRICS`` and ``WEIGHTS`` name
the library's metrics and weightings; ``distance`` and ``voteOne`` give the answers that
``classic.distances.pairwise_distances`` and ``classic.knn.vote`` gave), which the quick loop runs
under node, run here in the browser the players run in: the player's module, built as the page
mounts it (``pages/widgets/players.py``: the shared toolkit in front), loaded by a page as a
module, with ``tests/knn_mirror.mjs``'s jobs beside it.
"""

import pytest
from conftest import ROOT, new_context, require_browser, serve_alone
from test_player_mirror_node import METRIC_CASES, check_distance, check_tables, check_vote

from classic import knn
from pages.widgets.players import player_source

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def chromium(browser):
    """``run(job, *args)`` in a Chromium page holding the k-NN player's module."""
    require_browser()
    page_html = (
        '<!doctype html><script type="module">import * as m from "./player.js";'
        ' import { jobs } from "./knn_mirror.mjs";'
        " window.run = ([name, ...args]) => jobs[name](m, ...args);</script>"
    )
    files = {
        "/": ("text/html", page_html),
        "/player.js": ("text/javascript", player_source("knn_player.html")["js"]),
        "/knn_mirror.mjs": (
            "text/javascript",
            (ROOT / "tests" / "knn_mirror.mjs").read_text(encoding="utf-8"),
        ),
    }
    with new_context(browser) as context:
        page = context.new_page()

        serve_alone(page, files, "run")

        def run(job, *args):
            return page.evaluate("(call) => window.run(call)", [job, *args])

        yield run


def test_the_players_tables_name_every_metric_and_weighting_of_the_library(chromium):
    check_tables(chromium)


@pytest.mark.parametrize(("metric", "p"), METRIC_CASES)
def test_distance_is_the_librarys_pairwise_distance(chromium, metric, p):
    check_distance(chromium, metric, p)


@pytest.mark.parametrize("weights", knn.WEIGHTS)
@pytest.mark.parametrize("float32", [False, True], ids=["float64", "float32 as the table sends"])
def test_the_vote_is_the_librarys_vote(chromium, weights, float32):
    check_vote(chromium, weights, float32)
