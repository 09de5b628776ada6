"""The tree player opens with the whole tree in its frame: no node and no label cut off.

The 1984 votes (31 nodes as in the post, 61 on all rows) are wider than the frame at a readable
scale: at rest the player folds the deep levels (a "+N" stub under a folded split) instead of
opening on a slice of the tree that has to be panned to. Checked at 1440×900 and on a projector
(1280×720, presentation mode), opened from a plain link and from a link to a step.
"""

from urllib.parse import urlencode

import pytest
from conftest import assert_no_exception_box, screenshot, wait_for_app

pytestmark = pytest.mark.browser

VOTES = "1984 congressional votes"
ALL_ROWS = "on all rows (C4.5)"

# Every drawn box and label of the tree against the player's frame (#stage), in page pixels.
OUTSIDE = """(root) => {
    const frame = root.querySelector('#stage').getBoundingClientRect();
    const drawn = [...root.querySelectorAll('#view rect, #view text')];
    const cut = drawn.filter((e) => {
        const b = e.getBoundingClientRect();
        return b.left < frame.left - 0.5 || b.right > frame.right + 0.5 || b.top < frame.top - 0.5 || b.bottom > frame.bottom + 0.5;
    });
    return { drawn: drawn.length, cut: cut.map((e) => e.textContent || e.tagName),
             smallest: Math.min(...drawn.filter((e) => e.tagName === 'text').map((e) => e.getBoundingClientRect().height)) };
}"""


@pytest.mark.parametrize(
    ("params", "size", "readable"),
    [
        ({"tree_data": VOTES}, (1440, 900), 14 * 0.8),
        ({"tree_data": VOTES, "tree_votes_rows": ALL_ROWS}, (1440, 900), 14 * 0.8),
        ({"tree_data": VOTES, "tree_votes_rows": ALL_ROWS, "tree_step": 10}, (1440, 900), 14 * 0.8),
        ({"tree_data": VOTES, "present": 1}, (1280, 720), 18),
        ({"tree_data": VOTES, "tree_votes_rows": ALL_ROWS, "present": 1}, (1280, 720), 18),
    ],
    ids=["post-1440", "all-rows-1440", "all-rows-step-10-1440", "post-present-720", "all-rows-present-720"],
)
def test_the_votes_tree_opens_with_nothing_cut(server, browser_page, params, size, readable):
    page = browser_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{server}/decision-tree?{urlencode(params)}")
    wait_for_app(page)
    assert_no_exception_box(page)
    page.locator(".tree-player[data-drawn]").first.wait_for()
    root = page.locator(".tree-player").first
    assert root.get_attribute("data-frame") == str(params.get("tree_step", root.get_attribute("data-frame")))
    seen = root.evaluate(OUTSIDE)
    name = "-".join(str(v) for v in params.values()).replace(" ", "_")
    page.screenshot(path=str(screenshot(page, f"tree-fit-{name}-{size[0]}")), full_page=False)
    assert seen["drawn"] > 0 and seen["cut"] == [], seen["cut"]
    assert seen["smallest"] >= readable * 0.95  # fitted by folding, not by shrinking the labels
