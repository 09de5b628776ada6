"""Issue 22 in a real browser: what a hostile link shows (the values a console sends are in
tests/pages/test_hostile.py, through the server's WebSocket)."""

import pytest
from conftest import assert_no_exception_box, screenshot, wait_for_app

pytestmark = pytest.mark.browser

NO_POINTS = "/decision-tree?tree_data=Your+points+%282-D%2C+click+to+place%29&tree_user_points="
SPOOF = "/knn?knn_k=%E2%80%AE8=k+gnisu+%3B%E2%80%AC"


@pytest.mark.parametrize("size", [(1280, 720), (1440, 900)])
def test_a_tree_link_with_no_points_asks_for_some(server, browser_page, size):
    browser_page.set_viewport_size({"width": size[0], "height": size[1]})
    browser_page.goto(server + NO_POINTS + ("&present=1" if size[0] == 1280 else ""))
    wait_for_app(browser_page)
    browser_page.get_by_text("At least 2 points are needed").wait_for(timeout=30_000)
    assert_no_exception_box(browser_page)
    screenshot(browser_page, f"tree-no-points-{size[0]}")


def test_a_right_to_left_override_in_a_link_is_shown_as_its_code(server, browser_page):
    browser_page.set_viewport_size({"width": 1440, "height": 900})
    browser_page.goto(server + SPOOF)
    wait_for_app(browser_page)
    note = browser_page.get_by_text("from the link").first
    note.wait_for(timeout=30_000)
    text = note.inner_text()
    assert "⟨U+202E⟩8=k gnisu ;⟨U+202C⟩" in text, text
    assert "\u202e" not in text and "\u202c" not in text
    screenshot(browser_page, "knn-bidi-note")
