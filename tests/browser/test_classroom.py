"""Every page on a 1280×720 projector in presentation mode, and checked by axe-core.

For each page: open ``/<page>?present=1`` in a 1280×720 window, save a screenshot, assert that
the main figure and the first controls are inside the viewport without scrolling, that the
text is at least 18 px, and that axe-core finds no critical or serious violation.
"""

from __future__ import annotations

import pytest
from conftest import assert_no_exception_box, screenshot, wait_for_app

PAGES = ["", "perceptron", "knn", "decision-tree", "digits", "compare"]
WIDTH, HEIGHT = 1280, 720
# What counts as a lesson's main figure: a player, a chart, an image or a drawn tree.
FIGURE = (
    '[data-testid="stMain"] iframe, [data-testid="stMain"] canvas, '
    '[data-testid="stMain"] [data-testid="stImage"] img, [data-testid="stMain"] .stVegaLiteChart, '
    '[data-testid="stMain"] [data-testid="stGraphVizChart"], [data-testid="stMain"] .stCustomComponentV1'
)


@pytest.fixture(scope="module")
def projector(browser_context):
    page = browser_context.new_page()
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    yield page
    page.close()


def _open(page, server: str, path: str) -> None:
    page.goto(f"{server}/{path}?present=1")
    wait_for_app(page, timeout=120_000)
    page.wait_for_timeout(1500)  # charts and players lay themselves out after the script ends
    assert_no_exception_box(page)


@pytest.mark.parametrize("path", PAGES)
def test_presentation_fits_a_projector(server, projector, path):
    page = projector
    _open(page, server, path)
    screenshot(page, f"present-720-{path or 'home'}")
    assert page.get_by_role("switch", name="Presentation mode").is_checked()
    size = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('[data-testid=\"stMain\"] p')).fontSize)"
    )
    assert size >= 18, f"body text is {size}px on /{path}"
    if path:  # the home page has no figure, only its links
        figure = page.locator(FIGURE).first
        figure.wait_for(state="visible", timeout=30_000)
        box = figure.bounding_box()
        assert box is not None and box["y"] >= 0, f"/{path}: the main figure is not on screen"
        assert box["y"] + min(box["height"], 300) <= HEIGHT, (
            f"/{path}: the main figure starts at y = {box['y']:.0f}, below the fold"
        )
    controls = page.locator('[data-testid="stSidebarUserContent"] [data-testid="stWidgetLabel"]')
    for i in range(min(controls.count(), 3)):
        box = controls.nth(i).bounding_box()
        assert box is not None and box["y"] + box["height"] <= HEIGHT, f"/{path}: control {i} below the fold"


@pytest.mark.parametrize("path", PAGES)
def test_no_serious_accessibility_violations(server, projector, path):
    from axe_playwright_python.sync_playwright import Axe

    page = projector
    _open(page, server, path)
    results = Axe().run(page)
    bad = [
        f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in ("critical", "serious")
    ]
    counts = {}
    for v in results.response["violations"]:
        counts[v["impact"]] = counts.get(v["impact"], 0) + len(v["nodes"])
    print(f"/{path} axe: {counts}")
    assert not bad, f"/{path}: {bad}"
