"""The k-NN page in a real browser: moving the k slider redraws the regions."""

import time

from conftest import assert_no_exception_box, screenshot, wait_for_app

REGIONS = '[data-testid="stTabPanel"]:visible [data-testid="stImage"] img'


def regions_src(page) -> str:
    return page.locator(REGIONS).first.get_attribute("src")


def test_moving_k_redraws_the_regions(server, browser_page):
    page = browser_page
    page.goto(f"{server}/knn")  # the first request of this fresh server
    wait_for_app(page)
    page.get_by_role("heading", name="k-nearest neighbours").wait_for()
    assert_no_exception_box(page)
    before = regions_src(page)
    screenshot(page, "knn-k5")

    slider = page.get_by_role("slider", name="k (neighbours)")
    slider.focus()
    start = time.perf_counter()
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "([sel, old]) => { const i = document.querySelector(sel.replace(':visible', '')); return i && i.src !== old; }",
        arg=[REGIONS, before],
        timeout=30_000,
    )
    wait_for_app(page)
    elapsed = time.perf_counter() - start
    thumb = page.locator('[data-testid="stSlider"]', has_text="k (neighbours)").get_by_test_id(
        "stSliderThumbValue"
    )
    assert thumb.inner_text() == "15"
    assert regions_src(page) != before
    assert_no_exception_box(page)
    screenshot(page, "knn-k15")
    print(f"k 5 → 15 redrawn in {elapsed:.2f} s")


def test_accuracy_and_tree_tabs(server, browser_page):
    page = browser_page
    page.goto(f"{server}/knn")
    wait_for_app(page)
    page.get_by_role("tab", name="Accuracy against k").click()
    page.get_by_text("Leave-one-out accuracy is highest").wait_for()
    screenshot(page, "knn-accuracy")
    page.get_by_role("tab", name="k-d tree").click()
    page.get_by_text("Distances computed for this query").wait_for()
    assert_no_exception_box(page)
    screenshot(page, "knn-kdtree")


def test_a_shared_link_reproduces_the_view(server, browser_page):
    page = browser_page
    page.goto(f"{server}/knn?knn_data=Moons&knn_metric=manhattan&knn_seed=7&knn_points=9999")
    wait_for_app(page)
    assert page.get_by_role("spinbutton", name="Random seed").input_value() == "7"
    # The page writes the widgets' values back into the URL: they hold the linked view.
    assert "knn_data=Moons" in page.url and "knn_seed=7" in page.url
    # An out-of-range value is ignored, not an error; the URL now holds the valid view.
    assert_no_exception_box(page)
    assert "knn_points=200" in page.url and "knn_metric=manhattan" in page.url


def test_clicking_the_map_moves_the_query(server, browser_page):
    page = browser_page
    page.goto(f"{server}/knn")
    wait_for_app(page)
    qx = page.get_by_role("spinbutton", name="x₁", exact=True)
    before = qx.input_value()
    chart = page.locator('[data-testid="stVegaLiteChart"] svg').last  # the map (the first is the vote bars)
    chart.wait_for()
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.3)
    deadline = time.time() + 30
    while qx.input_value() == before and time.time() < deadline:
        page.wait_for_timeout(250)
    wait_for_app(page)
    assert qx.input_value() != before
    assert_no_exception_box(page)
    screenshot(page, "knn-clicked-query")
