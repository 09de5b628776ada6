"""The ID3 page in a real browser: the step player grows the tree split by split in the browser
(keys and buttons drive it, playing sends nothing per frame), the split it rests on is in the link
(tree_step) and a fresh browser opens on it, a link restores a pruned tree exactly, presentation
mode fits 1280×720 and takes the keyboard, an uploaded CSV full of markup makes the browser
fetch nothing, and a question on the tree is asked over the root alone, its reveal opening the
first split."""

import json
from urllib.parse import urlencode, urlsplit

import pytest
from conftest import assert_no_exception_box, new_context, player, screenshot, wait_for_app

pytestmark = pytest.mark.browser

PLAYER = (
    ".tree-player"  # the player's root (Playwright's CSS locators reach into the component's shadow root)
)
HOSTILE = "![x](http://example.invalid/a.png)"


def shown(root) -> int:
    return int(root.get_attribute("data-frame"))


def data(root) -> dict:
    """The JSON the page sent the player."""
    return root.evaluate("(root) => root.playerData")


def link_step(page) -> str | None:
    return page.evaluate("() => new URL(location).searchParams.get('tree_step')")


def open_link(page, server: str, params: dict) -> None:
    page.goto(f"{server}/decision-tree?{urlencode(params)}")
    wait_for_app(page)
    assert_no_exception_box(page)


def test_the_step_is_in_the_link_and_a_fresh_browser_opens_on_it(server, browser):
    with new_context(browser) as first:
        page = first.new_page()
        open_link(page, server, {"tree_data": "Play Tennis"})
        root = player(page, PLAYER)
        assert shown(root) == 3 and link_step(page) is None  # the whole tree, the default
        assert page.get_by_test_id("stSlider").filter(has_text="Splits shown").count() == 0  # one control
        root.get_by_role("button", name="Start").click()
        root.get_by_role("button", name="Step forward").click()
        root.get_by_role("button", name="Step forward").click()
        assert shown(root) == 2
        page.wait_for_function("() => new URL(location).searchParams.get('tree_step') === '2'")
        page.get_by_text("Split 2 worked by hand").wait_for()  # the page follows the player
        wait_for_app(page)
        assert shown(root) == 2
        link = page.url
    with new_context(browser) as fresh:  # a new profile: nothing shared but the link
        other = fresh.new_page()
        other.goto(link)
        wait_for_app(other)
        root = player(other, PLAYER)
        assert shown(root) == 2 and data(root)["start"] == 2
        assert root.locator("#status").inner_text().startswith("Split 2 of 3")
        other.get_by_text("Split 2 worked by hand").wait_for()
        assert_no_exception_box(other)


def test_the_player_grows_the_tree_split_by_split_and_plays_without_a_rerun_per_split(server, browser_page):
    page = browser_page
    sent: list[int] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(len(payload))))
    open_link(page, server, {"tree_data": "Play Tennis", "tree_step": 0})
    root = player(page, PLAYER)
    assert shown(root) == 0 and len(data(root)["steps"]) == 3
    root.locator("#status").click()
    page.keyboard.press("ArrowRight")
    assert shown(root) == 1
    assert root.locator("tr.chosen td").first.inner_text() == "Outlook"  # the winner's row is highlighted
    assert "Outlook" in root.locator("#tree").text_content()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert shown(root) == 1
    page.wait_for_function("() => new URL(location).searchParams.get('tree_step') === '1'")
    wait_for_app(page)
    assert shown(root) == 1  # the echoes of the reports left it where it was
    root.locator("#speed").select_option("4")
    root.locator("#status").click()
    before = len(sent)
    page.keyboard.press(" ")  # play
    page.locator(f'{PLAYER}[data-frame="3"][data-playing="no"]').wait_for(timeout=10_000)
    assert "The tree is complete" in root.locator("#status").inner_text()
    page.wait_for_function("() => new URL(location).searchParams.get('tree_step') === null")  # whole tree
    assert len(sent) - before == 1  # one report, at the end: no message per split played
    wait_for_app(page)
    root.locator("#scrub").fill("2")
    assert shown(root) == 2
    root.locator("#first").click()
    assert shown(root) == 0
    page.wait_for_function("() => new URL(location).searchParams.get('tree_step') === '0'")
    root.locator("#last").click()
    root.locator("#zoomIn").click()
    root.locator("#fit").click()
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
    nodes = json.dumps(data(player(page, PLAYER))["nodes"])
    assert "tree_min_gain=0.05" in link and "tree_prune=true" in link
    other = page.context.new_page()  # a new tab is a new Streamlit session: only the link carries the view
    try:
        other.goto(link)
        wait_for_app(other)
        assert json.dumps(data(player(other, PLAYER))["nodes"]) == nodes
        assert len(json.loads(nodes)) < 61  # pruned, not the full 61-node tree
    finally:
        other.close()


def test_presentation_mode_fits_the_tree_and_controls_in_1280x720(server, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 720})
    open_link(page, server, {"present": "true", "tree_data": "1984 congressional votes", "tree_step": 10})
    root = player(page, PLAYER)
    tree = root.locator("#stage").bounding_box()  # in the page's viewport coordinates
    play = root.locator("#play").bounding_box()
    assert tree["y"] + tree["height"] <= 720 and play["y"] + play["height"] <= 720
    assert page.get_by_role("combobox", name="Data").bounding_box()["y"] < 720
    sizes = root.evaluate(
        "(root) => [...root.querySelectorAll('#view text')].map(t => t.getBoundingClientRect().height)"
    )
    assert sizes and min(sizes) >= 18 * 0.95  # labels readable from the back of the room
    assert shown(root) == 10
    made = data(root)["steps"][9]  # the split the view rests on, its score large enough for the back row
    headline = root.locator("#headline")
    assert (
        headline.inner_text() == f"{made['rows'][made['chosen']][0]}: gain {made['rows'][made['chosen']][-1]}"
    )
    assert headline.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)") >= 32
    page.keyboard.press("ArrowRight")  # the player has the keyboard on load: no click first
    assert shown(root) == 11
    page.screenshot(path=str(screenshot(page, "decision-tree-present-720p")), full_page=False)


def page_caption(page) -> str:
    """The page's first caption (the sidebar's class mode has captions of its own)."""
    return page.locator('[data-testid="stMain"] [data-testid="stCaptionContainer"]').first.inner_text()


def root_box_is_in_view(root) -> bool:
    """Whether the tree's root node is drawn wholly inside the player's visible frame."""
    stage = root.locator("#stage").bounding_box()
    box = root.locator(
        "#view > g:nth-child(2) > g:first-child > rect"
    ).bounding_box()  # the root is drawn first
    return (
        stage["x"] <= box["x"]
        and box["x"] + box["width"] <= stage["x"] + stage["width"]
        and stage["y"] <= box["y"]
        and box["y"] + box["height"] <= stage["y"] + stage["height"]
    )


@pytest.mark.parametrize(
    ("params", "size"),
    [
        ({"present": "true", "tree_data": "Play Tennis"}, (1280, 720)),
        ({"present": "true", "tree_data": "1984 congressional votes"}, (1280, 720)),
        (
            {
                "tree_data": "1984 congressional votes",
                "tree_votes_rows": "on all rows (C4.5)",
            },
            (1440, 900),
        ),
        ({"tree_data": "Moons (2-D points)", "tree_tab": "Regions"}, (1440, 900)),
    ],
)
def test_the_player_opens_on_the_whole_tree_with_its_root_in_view(server, browser_page, params, size):
    """It opened zoomed on the last split, the root cut off (even Play Tennis at 1280×720)."""
    page = browser_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_link(page, server, params)
    root = player(page, PLAYER)
    assert root_box_is_in_view(root)
    sizes = root.evaluate(
        "(root) => [...root.querySelectorAll('#view text')].map(t => t.getBoundingClientRect().height)"
    )
    assert min(sizes) >= (18 if "present" in params else 14 * 0.8) * 0.95  # readable, not shrunk to fit
    folds = root.locator("#view text", has_text="+")
    if len(data(root)["nodes"]) > 30:  # the 61-node votes tree: folded below a readable level
        assert folds.count() > 0 and "click one to open it" in root.locator("#status").inner_text()
        before = root.locator("#view [data-node]").count()
        folds.first.click()
        assert root.locator("#view [data-node]").count() > before  # a click opens a fold
    name = "-".join(str(v) for v in params.values()).replace(" ", "_")
    page.screenshot(path=str(screenshot(page, f"decision-tree-open-{name}-{size[0]}")), full_page=False)


def test_2d_regions_click_a_point_to_follow_its_path(server, browser_page):
    page = browser_page
    open_link(page, server, {"tree_data": "XOR (2-D points)", "tree_tab": "Regions"})
    page.locator('[data-testid="stVegaLiteChart"]').first.wait_for()
    first_path = data(player(page, PLAYER))["path"]
    points = page.locator('[data-testid="stVegaLiteChart"] .mark-symbol path')
    points.nth(0).wait_for()
    for i in range(1, 40):  # the first point, in row order, whose path differs from row 1's
        points.nth(i).click(force=True)
        page.wait_for_function("() => new URLSearchParams(location.search).get('tree_row') !== null")
        wait_for_app(page)
        row = int(page.evaluate("new URLSearchParams(location.search).get('tree_row')"))
        if data(player(page, PLAYER))["path"] != first_path:
            break
    assert row > 1 and f"Row {row} " in page_caption(page)
    assert_no_exception_box(page)
    screenshot(page, "decision-tree-regions")


def _centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_2d_regions_a_click_on_a_cell_beside_the_points_picks_the_nearest_point(server, browser_page):
    """A click on a coloured cell away from every point sent a selection without "row": KeyError."""
    page = browser_page
    open_link(page, server, {"tree_data": "Moons (2-D points)", "tree_tab": "Regions"})
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    chart.locator(".mark-symbol path").first.wait_for()
    centres = [
        _centre(box)
        for box in chart.locator(".mark-symbol path").evaluate_all(
            "(paths) => paths.map(p => { const r = p.getBoundingClientRect();"
            " return {x: r.x, y: r.y, width: r.width, height: r.height}; })"
        )
    ]
    cells = chart.locator(".mark-rect path").evaluate_all(
        "(paths) => paths.map(p => { const r = p.getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; })"
    )
    x0, y0 = min(c["x"] for c in cells), min(c["y"] for c in cells)
    x1, y1 = max(c["x"] + c["width"] for c in cells), max(c["y"] + c["height"] for c in cells)
    best = None  # a spot well away from every point whose nearest point is clearly the nearest
    for gx in range(int(x0) + 8, int(x1) - 8, 5):
        for gy in range(int(y0) + 8, int(y1) - 8, 5):
            d = sorted((((gx - a) ** 2 + (gy - b) ** 2) ** 0.5, i) for i, (a, b) in enumerate(centres))
            if (
                d[0][0] >= 15
                and d[1][0] - d[0][0] >= 10
                and d[0][1] > 0
                and (best is None or d[0][0] > best[0])
            ):
                best = (d[0][0], gx, gy, d[0][1])
    assert best is not None, "no spot away from the points"
    _, gx, gy, nearest = best
    page.mouse.click(gx, gy)
    page.wait_for_function(
        f"() => new URLSearchParams(location.search).get('tree_row') === '{nearest + 1}'", timeout=30_000
    )
    wait_for_app(page)
    assert_no_exception_box(page)
    assert f"Row {nearest + 1} " in page_caption(page)
    page.mouse.click(gx, gy)  # the same spot again: nothing new, still no error
    wait_for_app(page)
    assert_no_exception_box(page)
    screenshot(page, "decision-tree-regions-cell-click")


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
        assert HOSTILE in player(page, PLAYER).locator("#tree").text_content()  # shown as text
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


def test_presentation_mode_shows_the_votes_claims_whole_at_18px(server, browser_page):
    """At 1280×720 the claims table (a data grid) cut its answers and scrolled sideways at 14 px."""
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 720})
    open_link(
        page, server, {"present": "true", "tree_data": "1984 congressional votes", "tree_tab": "Evaluation"}
    )
    claims = page.locator('[data-testid="stTable"]', has_text="around 90%")
    claims.wait_for(timeout=120_000)
    claims.scroll_into_view_if_needed()
    cells = claims.evaluate(
        """(t) => [...t.querySelectorAll('th, td')].map(c => ({
            text: c.innerText, font: parseFloat(getComputedStyle(c).fontSize),
            cut: c.scrollWidth > c.clientWidth + 1, right: c.getBoundingClientRect().right}))"""
    )
    assert any(c["text"] == "195/203 = 96.1%" for c in cells)
    assert min(c["font"] for c in cells) >= 18
    assert not [c["text"] for c in cells if c["cut"]]
    assert max(c["right"] for c in cells) <= 1280
    assert claims.evaluate("(t) => t.scrollWidth <= t.clientWidth + 1")  # no sideways scrolling
    assert_no_exception_box(page)
    page.screenshot(path=str(screenshot(page, "decision-tree-claims-present-720p")), full_page=False)


@pytest.mark.parametrize("size", [(1280, 720), (1440, 900)])
def test_2d_regions_take_their_column_with_the_legend_above_the_fold(server, browser_page, size):
    """The regions' legend sat right of the plot, beyond its column: cut off, never seen."""
    page = browser_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    params = {"tree_data": "Moons (2-D points)", "tree_tab": "Regions"}
    open_link(page, server, {**params, "present": "true"} if size[0] == 1280 else params)
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    chart.locator(".role-legend").first.wait_for()
    column = page.locator('[data-testid="stColumn"]', has=chart).first.bounding_box()
    legend = chart.locator(".role-legend").first.bounding_box()
    drawn = chart.locator("svg").first.bounding_box()
    assert legend["y"] + legend["height"] <= size[1] and legend["width"] > 0  # above the fold
    assert column["x"] <= legend["x"] and legend["x"] + legend["width"] <= column["x"] + column["width"] + 1
    assert drawn["width"] >= 0.9 * column["width"]  # the figure takes the free width
    assert chart.locator(".role-legend").first.text_content().count("class") == 2
    table = player(page, PLAYER).locator("#tables")
    assert not table.is_visible()  # beside the regions the player shows the tree, not its score tables
    assert_no_exception_box(page)
    page.screenshot(path=str(screenshot(page, f"decision-tree-regions-legend-{size[0]}")), full_page=False)


def ask_step(page, server: str, i: int) -> None:
    """Step ``i`` set up from "Set up this view" on the projector (1280×720, presentation mode)."""
    from test_classroom import set_up_step

    page.set_viewport_size({"width": 1280, "height": 720})
    set_up_step(page, server, "decision-tree", i)
    page.locator(".st-key-try_step").wait_for()
    wait_for_app(page)


def test_a_question_on_the_tree_shows_the_root_alone_and_the_reveal_opens_the_first_split(
    server, browser_page
):
    """Asked which attribute ID3 splits Play Tennis on first, the player held every split: one
    press of → (or its JSON) read the answer before the vote. Asked, it draws the root alone with
    nothing to play; the reveal opens it on the first split, the answer's own figure."""
    from classic.lessons import tree as lesson

    page, step = browser_page, lesson.try_this_steps()[0]
    ask_step(page, server, 1)
    root = player(page, PLAYER)
    assert data(root)["withheld"] is True and shown(root) == 0
    assert root.locator("#status").inner_text() == "The root holds all 14 rows."
    assert (
        "Every split ID3 makes, with its scores, is hidden"
        in page.locator('[data-testid="stMain"]').inner_text()
    )
    assert not root.locator(".bar").is_visible() and not root.locator("#headline").is_visible()
    drawn = root.evaluate("(root) => [...root.querySelectorAll('#view text')].map(t => t.textContent)")
    assert drawn[0] == "Yes" and not [t for t in drawn if t in step["options"]]  # the root: a leaf's label
    asked = page.locator('[data-testid="stMain"]').inner_text() + root.inner_text()
    assert not [token for token in step["tells"] if token in asked]
    page.screenshot(path=str(screenshot(page, "decision-tree-step-1-asked")), full_page=False)
    page.locator(".st-key-try_step").get_by_role("radio", name=step["answer"], exact=True).check(force=True)
    root.locator("#status", has_text="Split 1 of").wait_for(timeout=60_000)
    wait_for_app(page)
    assert shown(root) == 1 and root.locator(".bar").is_visible()
    assert "asks about Outlook" in root.locator("#status").inner_text()
    assert root.locator("#headline").inner_text().startswith("Outlook: gain 0.2467")
    page.screenshot(path=str(screenshot(page, "decision-tree-step-1-revealed")), full_page=False)
