"""The server's warm start (pages/server/warm.py): what it computes, no page computes again."""

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOT, assert_no_exception, open_page
from streamlit.runtime.pages_manager import PagesManager
from streamlit.web.server.app_discovery import discover_asgi_app

from classic import compare, datasets, digits, knn
from classic.lessons import compare as compare_lesson
from classic.lessons import knn as knn_lesson
from classic.viz import knn as knn_view
from pages.server import warm
from pages.widgets import shared


def test_streamlit_run_finds_the_server_with_its_lifespan_in_app_py():
    found = discover_asgi_app(Path(ROOT / "app.py"))
    assert found.is_asgi_app and found.app_name == "app"
    source = (ROOT / "app.py").read_text()
    assert "st.App(__file__, lifespan=warm.warm_start)" in source


def _refuse(*args, **kwargs):
    raise AssertionError("computed again after the warm start")


@pytest.mark.parametrize(
    "page, owner, name",
    [
        ("knn", knn_lesson, "_grid_votes"),  # the Try-this answers' maps
        ("knn", knn, "neighbour_table"),  # the default view's table for the k player
        ("knn", knn_view, "leave_one_out_accuracy"),  # the default view's accuracy against k
        ("decision-tree", datasets, "load_two_tests"),  # only the Try-this steps call it by name
        ("perceptron", datasets, "xor"),  # the page's default data are separable
        ("compare", compare_lesson, "run"),  # the questions' fits
        ("compare", compare, "fit"),  # the default view's three classifiers
        ("compare", compare, "grid_neighbours"),  # and its k-NN table
        ("digits", digits, "protocol_neighbours"),  # the Try-this curves
    ],
)
def test_after_the_warm_start_a_first_visit_computes_none_of_the_shared_content(
    monkeypatch, page, owner, name
):
    for cache in (shared.knn_table, shared.knn_accuracy, shared.compare_fitted, shared.compare_neighbours):
        cache.clear()  # else filled by any earlier visit in this process
    warm.warm()
    monkeypatch.setattr(owner, name, _refuse)
    at = open_page(page)
    assert_no_exception(at)
    assert any("Try this" in e.label for e in at.expander)


def test_the_warm_start_computes_the_ladder_at_each_rung(monkeypatch):
    """And any weights and blur at a rung's search: the evaluation of such settings is a re-vote."""
    warm.warm()
    monkeypatch.setattr(digits, "protocol_neighbours", _refuse)
    at = open_page("digits", params={"digits_tab": "How far can k-NN go"})
    assert_no_exception(at)
    assert any(name in " ".join(m.value for m in at.markdown) for name, _ in digits.RUNGS[2:])
    for blur, weights in [(False, "uniform"), (True, "uniform"), (False, "distance")]:
        settings = {"digits_invariance": "tangent", "digits_blur": blur, "digits_weights": weights}
        at = open_page("digits", params={"digits_tab": "Evaluation", **settings})
        assert_no_exception(at)
        assert "Your settings" in " ".join(m.label for m in at.metric)


def test_the_lifespan_leaves_the_legacy_page_mode_and_can_skip_the_warm_start(monkeypatch):
    monkeypatch.setenv("CLASSIC_WARM_START", "0")
    monkeypatch.setattr(warm, "warm", _refuse)
    monkeypatch.setattr(PagesManager, "uses_pages_directory", True)

    async def serve():
        async with warm.warm_start(None):
            return PagesManager.uses_pages_directory

    # On a thread of its own: in a process whose browser tests ran first (pytest -n 2 puts any
    # test on any worker), Playwright's sync API keeps an event loop running on the main thread,
    # and asyncio.run refuses to start a second one there.
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, serve()).result(timeout=60) is False
