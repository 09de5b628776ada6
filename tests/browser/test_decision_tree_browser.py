"""The ID3 page in a real browser: the step player grows the tree split by split with no server
round trip, keys and buttons drive it, a link restores a pruned tree exactly, presentation mode
fits 1280×720, and an uploaded CSV full of markup makes the browser fetch nothing."""

import json
from urllib.parse import urlencode, urlsplit

import pytest
from conftest import assert_no_exception_box, screenshot, wait_for_app

pytestmark = pytest.mark.browser

PLAYER = 'iframe[title^="The tree"]'
HOSTILE = "![x](http://example.invalid/a.png)"


def player(page, index: int = 0):
    """The step player's Frame, once it has drawn."""
    frame = page.locator(PLAYER).nth(index).element_handle().content_frame()
    frame.wait_for_function("Number(document.body.dataset.drawn) >= 1")
    return frame


def shown(frame) -> int:
    return int(frame.evaluate("document.body.dataset.frame"))


def open_link(page, server: str, params: dict) -> None:
    page.goto(f"{server}/decision-tree?{urlencode(params)}")
    wait_for_app(page)
    assert_no_exception_box(page)


def test_the_player_grows_the_tree_split_by_split_without_a_rerun(server, browser_page):
    page = browser_page
    sent: list[int] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(len(payload))))
    open_link(page, server, {"tree_data": "Play Tennis", "tree_step": 0})
    frame = player(page)
    assert shown(frame) == 0 and frame.evaluate("DATA.steps.length") == 3
    before = len(sent)
    frame.locator("body").click(position={"x": 5, "y": 5})
    frame.locator("body").press("ArrowRight")
    assert shown(frame) == 1
    assert frame.locator("tr.chosen td").first.inner_text() == "Outlook"  # the winner's row is highlighted
    assert "Outlook" in frame.locator("#tree").text_content()
    frame.locator("body").press("ArrowRight")
    frame.locator("body").press("ArrowLeft")
    assert shown(frame) == 1
    frame.locator("#speed").select_option("4")
    frame.locator("body").press(" ")  # play
    frame.wait_for_function("Number(document.body.dataset.frame) === 3", timeout=10_000)
    assert frame.evaluate("document.body.dataset.playing") == "no"  # stops at the end
    assert "The tree is complete" in frame.locator("#status").inner_text()
    frame.locator("#scrub").fill("2")
    assert shown(frame) == 2
    frame.locator("#first").click()
    assert shown(frame) == 0
    assert len(sent) == before  # no message to the server: every step ran in the browser
    frame.locator("#last").click()
    frame.locator("#zoomIn").click()
    frame.locator("#fit").click()
    assert_no_exception_box(page)
    screenshot(page, "decision-tree-player")


def test_a_pruned_tree_with_a_minimum_gain_comes_back_from_its_link(server, browser_page):
    page = browser_page
    open_link(page, server, {"tree_data": "1984 congressional votes"})
    page.get_by_text("Reduced-error pruning").click()
    wait_for_app(page)
    page.wait_for_function("() => location.search.includes('tree_prune')")
    page.goto(page.url.replace("tree_prune", "tree_min_gain=0.05&tree_prune"))
    wait_for_app(page)
    link = page.url
    nodes = player(page).evaluate("JSON.stringify(DATA.nodes)")
    assert "tree_min_gain=0.05" in link and "tree_prune=true" in link
    other = page.context.new_page()  # a new tab is a new Streamlit session: only the link carries the view
    try:
        other.goto(link)
        wait_for_app(other)
        assert player(other).evaluate("JSON.stringify(DATA.nodes)") == nodes
        assert len(json.loads(nodes)) < 61  # pruned, not the full 61-node tree
    finally:
        other.close()


def test_presentation_mode_fits_the_tree_and_controls_in_1280x720(server, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 720})
    open_link(page, server, {"present": "true", "tree_data": "1984 congressional votes", "tree_step": 10})
    frame = player(page)
    tree = frame.locator("#stage").bounding_box()  # in the page's viewport coordinates
    play = frame.locator("#play").bounding_box()
    assert tree["y"] + tree["height"] <= 720 and play["y"] + play["height"] <= 720
    assert page.get_by_role("combobox", name="Data").bounding_box()["y"] < 720
    sizes = frame.evaluate(
        "[...document.querySelectorAll('#view text')].map(t => t.getBoundingClientRect().height)"
    )
    assert sizes and min(sizes) >= 18 * 0.95  # labels readable from the back of the room
    page.screenshot(path=str(screenshot(page, "decision-tree-present-720p")), full_page=False)


def test_2d_regions_click_a_point_to_follow_its_path(server, browser_page):
    page = browser_page
    open_link(page, server, {"tree_data": "XOR (2-D points)", "tree_tab": "Regions"})
    page.locator('[data-testid="stVegaLiteChart"]').first.wait_for()
    first_path = player(page).evaluate("DATA.path")
    points = page.locator('[data-testid="stVegaLiteChart"] .mark-symbol path')
    points.nth(0).wait_for()
    for i in range(1, 40):  # the first point, in row order, whose path differs from row 1's
        points.nth(i).click(force=True)
        page.wait_for_function("() => new URLSearchParams(location.search).get('tree_row') !== null")
        wait_for_app(page)
        row = int(page.evaluate("new URLSearchParams(location.search).get('tree_row')"))
        if player(page).evaluate("DATA.path") != first_path:
            break
    assert row > 1 and f"Row {row} " in page.locator('[data-testid="stCaptionContainer"]').first.inner_text()
    assert_no_exception_box(page)
    screenshot(page, "decision-tree-regions")


def test_an_upload_full_of_markup_makes_no_request_outside_the_app(server, browser_context):
    own = urlsplit(server).netloc
    outside: list[str] = []

    def guard(route):
        parts = urlsplit(route.request.url)
        if parts.scheme in ("data", "blob", "about") or parts.netloc == own:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    browser_context.route("**/*", guard)
    page = browser_context.new_page()
    try:
        open_link(page, server, {"tree_data": "Upload a CSV"})
        csv = (
            f'"{HOSTILE}",<img src=http://example.invalid/b.png>,label\n'
            f"{HOSTILE},x,[y](http://example.invalid/c)\nno,<b>z</b>,b\n{HOSTILE},x,[y](http://example.invalid/c)\n"
        )
        page.locator('input[type="file"]').set_input_files(
            files=[{"name": f"{HOSTILE}.csv", "mimeType": "text/csv", "buffer": csv.encode()}]
        )
        frame = player(page)
        assert HOSTILE in frame.locator("#tree").text_content()  # shown as text
        for tab in ("Data & rules", "Evaluation", "Regions", "Tree"):
            page.get_by_role("tab", name=tab, exact=True).click()
            wait_for_app(page)
        page.locator('input[type="file"]').set_input_files(
            files=[{"name": f"{HOSTILE}.csv", "mimeType": "text/csv", "buffer": b"a,a\n1,2\n"}]
        )
        page.locator('[data-testid="stAlertContentError"]').wait_for()
        assert HOSTILE in page.locator('[data-testid="stAlertContentError"]').inner_text()
        assert_no_exception_box(page)
        screenshot(page, "decision-tree-upload-markup")
        assert outside == []
    finally:
        page.close()
        browser_context.unroute("**/*", guard)
