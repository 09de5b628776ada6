"""The k-NN page in a real browser: the k player re-votes in the page, the map moves the query,
a link restores the view, presentation mode fits a 1280×720 projector, and an asked "Try this"
step keeps the map's answer (its colouring, its grey tied cells, the rings round the query's
nearest) out of the player until it is revealed."""

import time

import pytest
from conftest import (
    assert_no_exception_box,
    evaluate_with_timeout,
    player,
    screenshot,
    wait_for_app,
    wait_for_layout,
)
from test_classroom import set_up_step

from classic.lessons import knn as lesson
from classic.viz.knn import RESOLUTION

pytestmark = pytest.mark.browser

PLAYER = ".knn"  # the player's root (Playwright's CSS locators reach into the component's shadow root)


def open_knn(page, server: str, query: str = "") -> None:
    page.goto(f"{server}/knn{query}")
    wait_for_app(page)
    player(page, PLAYER)
    assert_no_exception_box(page)


def player_state(page) -> dict:
    return page.locator(PLAYER).evaluate("(root) => ({...root.dataset})")


def sidebar_k(page) -> str:
    slider = page.locator('[data-testid="stSlider"]', has_text="k (neighbours)")
    return slider.get_by_test_id("stSliderThumbValue").inner_text()


def test_the_k_player_revotes_as_its_slider_moves(server, browser_page):
    page = browser_page
    open_knn(page, server, "?knn_data=Moons&knn_points=300")
    header = page.locator('[data-testid="stTable"] thead')  # the query's neighbours, under their names
    assert header.inner_text().split() == ["neighbour", "class", "distance"]
    screenshot(page, "knn-player")
    # Move the player's slider once per animation frame for 1.5 s and count the maps drawn.
    frames = evaluate_with_timeout(
        page.locator(f"{PLAYER} input.k"),
        """(slider) => new Promise((done) => {
            const root = slider.closest('.knn'), start = performance.now(), first = +root.dataset.drawn;
            let i = 0;
            const step = () => {
                slider.value = 1 + (i++ % 300);
                slider.dispatchEvent(new Event('input', { bubbles: true }));
                if (performance.now() - start < 1500) requestAnimationFrame(step);
                else done({ drawn: +root.dataset.drawn - first, seconds: (performance.now() - start) / 1000 });
            };
            requestAnimationFrame(step);
        })""",
        ms=30_000,
        what="1.5 s of animation frames",
    )
    fps = frames["drawn"] / frames["seconds"]
    print(
        f"k player: {frames['drawn']} maps re-voted in {frames['seconds']:.2f} s = {fps:.0f} frames/s (n = 300)"
    )
    assert fps >= 8
    # Play runs k upwards in the browser, without a rerun per frame.
    page.locator(f"{PLAYER} .k").fill("1")
    page.locator(f"{PLAYER} button.play").click()
    evaluate_with_timeout(
        page.locator(PLAYER),
        "(root) => new Promise((done) => { const t = setInterval(() => { if (+root.dataset.k > 3)"
        " { clearInterval(t); done(); } }, 50); })",
        what="the playing player to pass k = 3",
    )
    page.locator(f"{PLAYER} button.play").click()
    assert int(player_state(page)["k"]) > 3


def test_at_n_1000_the_map_comes_first_and_the_full_table_follows_unasked(server, browser_page):
    """New data at n = 1000 send 64 neighbours a cell; the player then asks for all 291 itself."""
    page = browser_page
    open_knn(page, server, "?knn_points=1000")
    page.wait_for_function(
        "() => [...document.querySelectorAll('*')].some(e => e.shadowRoot &&"
        " e.shadowRoot.querySelector('.knn[data-neighbours=\"291\"]'))"
    )
    wait_for_app(page)
    page.locator(f"{PLAYER} input.k").evaluate(
        "(slider) => { slider.value = 250; slider.dispatchEvent(new Event('input', { bubbles: true })); }"
    )
    status = page.locator(f"{PLAYER} .status").inner_text()
    assert player_state(page)["k"] == "250"
    assert "on their way" not in status and "release the slider" not in status  # voted in the browser
    screenshot(page, "knn-player-1000")
    assert_no_exception_box(page)


def test_releasing_the_player_slider_sets_k_on_the_page(server, browser_page):
    page = browser_page
    open_knn(page, server)
    page.locator(f"{PLAYER} .k").fill("23")  # fill sets the value and fires input and change
    page.wait_for_function("() => new URL(location).searchParams.get('knn_k') === '23'")
    wait_for_app(page)
    assert sidebar_k(page) == "23"
    assert player_state(page)["k"] == "23"
    assert_no_exception_box(page)


def test_a_click_on_the_map_moves_the_query_and_a_drag_carries_it(server, browser_page):
    page = browser_page
    open_knn(page, server)
    qx = page.get_by_role("spinbutton", name="Query x₁")
    assert qx.input_value() == "-3.00"
    box = page.locator(f"{PLAYER} canvas").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.75, box["y"] + box["height"] * 0.5)
    page.wait_for_function("() => new URL(location).searchParams.has('knn_qx')")
    wait_for_app(page)
    moved = float(qx.input_value())
    assert moved > 0  # the right half of the post's data
    assert float(player_state(page)["query"].split(",")[0]) == moved
    # Drag the query left: the player follows while dragging; the page gets the drop.
    start = (box["x"] + box["width"] * 0.75, box["y"] + box["height"] * 0.5)
    page.mouse.move(*start)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(start[0] - step * box["width"] * 0.04, start[1])
    dragged = float(player_state(page)["query"].split(",")[0])
    assert dragged < moved
    page.mouse.up()
    page.wait_for_function(f"() => parseFloat(new URL(location).searchParams.get('knn_qx')) < {moved}")
    wait_for_app(page)
    assert abs(float(qx.input_value()) - dragged) < 0.01
    assert_no_exception_box(page)
    screenshot(page, "knn-dragged-query")


def test_a_click_on_the_map_adds_one_of_your_points(server, browser_page):
    page = browser_page
    open_knn(page, server, "?knn_data=Your+points&knn_add=true")
    page.get_by_text("· 12 points").wait_for()
    box = page.locator(f"{PLAYER} canvas").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.3)
    page.get_by_text("· 13 points").wait_for()  # before the fix, a TypeError replaced the page
    wait_for_app(page)
    assert_no_exception_box(page)
    screenshot(page, "knn-added-point")


def test_a_link_opened_in_a_new_session_shows_the_same_view(server, browser_context, browser_page):
    page = browser_page
    open_knn(page, server, "?knn_data=Moons&knn_points=300&knn_seed=4&knn_metric=manhattan&knn_tab=k-d+tree")
    page.locator(f"{PLAYER} .k").fill("17")
    page.wait_for_function("() => new URL(location).searchParams.get('knn_k') === '17'")
    box = page.locator(f"{PLAYER} canvas").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.4, box["y"] + box["height"] * 0.6)
    page.wait_for_function("() => new URL(location).searchParams.has('knn_qx')")
    wait_for_app(page)
    link, view = page.url, player_state(page)
    seed = page.get_by_role("spinbutton", name="Random seed").input_value()
    # A new tab is a new Streamlit session: nothing is shared with the first but the link.
    browser_context.clear_cookies()
    other = browser_context.new_page()
    open_knn(other, server, link[len(server) + len("/knn") :])
    # The full table may follow the first paint; "described" counts the map's descriptions so far.
    same = {"drawn": "", "neighbours": "", "described": "", "boundary": ""}
    assert player_state(other) | same == view | same  # k, query and the points
    assert sidebar_k(other) == "17"
    assert other.get_by_role("spinbutton", name="Random seed").input_value() == seed
    assert other.get_by_role("tab", name="k-d tree").get_attribute("aria-selected") == "true"
    screenshot(other, "knn-link-reopened")
    other.close()


def test_presentation_mode_fits_the_map_and_its_controls_in_720p(server, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 720})
    open_knn(page, server, "?present=true")
    time.sleep(0.5)
    page.screenshot(path=str(screenshot(page, "knn-present-720p")), full_page=False)
    for part in ("canvas", "input.k", "button.play"):
        box = page.locator(f"{PLAYER} {part}").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 720, (part, box)
    assert page.get_by_role("heading", name="k-nearest neighbours").bounding_box()["y"] >= 0


def test_the_keyboard_plays_pauses_and_steps_k(server, browser_page):
    """The player's keys (assets/knn_player.html): space plays and pauses, ← and → step k by one.
    They act when the player has the focus: a click inside it (or Tab) gives it."""
    page = browser_page
    open_knn(page, server, "?present=true")
    page.keyboard.press("ArrowRight")  # before any click: does presentation mode focus the player?
    page.wait_for_timeout(300)
    focused = page.locator(PLAYER).evaluate("(root) => root.getRootNode().activeElement === root")
    print(f"presentation mode: player focused on load = {focused}, k after → = {player_state(page)['k']}")
    wait_for_app(page)
    page.locator(f"{PLAYER} .ktext").click()  # text, not the map (a click there moves the query)
    start = int(player_state(page)["k"])
    for key, k in (("ArrowRight", start + 1), ("ArrowRight", start + 2), ("ArrowLeft", start + 1)):
        page.keyboard.press(key)
        assert player_state(page)["k"] == str(k), key
        page.wait_for_function(f"() => new URL(location).searchParams.get('knn_k') === '{k}'")
        wait_for_app(page)
    assert sidebar_k(page) == str(start + 1)  # each step reached the page's k too
    play = page.locator(f"{PLAYER} button.play")
    page.keyboard.press(" ")
    assert "Pause" in play.inner_text()
    evaluate_with_timeout(
        page.locator(PLAYER),
        f"(root) => new Promise((done) => {{ const t = setInterval(() => {{ if (+root.dataset.k > {start + 4})"
        " { clearInterval(t); done(); } }, 20); })",
        what=f"the playing player to pass k = {start + 4}",
    )
    page.keyboard.press(" ")
    assert "Play" in play.inner_text()
    paused = player_state(page)["k"]
    page.wait_for_timeout(400)  # 12 values of k a second while playing: none now
    assert player_state(page)["k"] == paused and int(paused) > start + 4
    page.wait_for_function(f"() => new URL(location).searchParams.get('knn_k') === '{paused}'")
    wait_for_app(page)
    assert sidebar_k(page) == paused
    assert_no_exception_box(page)


def test_how_it_works_opens_with_the_code_and_formulae(server, browser_page):
    page = browser_page
    open_knn(page, server)
    assert page.locator('[data-testid="stCode"]').count() == 0  # nothing to load until it is opened
    page.get_by_text("How it works", exact=True).click()
    page.locator('[data-testid="stCode"]', has_text="def knn_textbook").wait_for()
    page.locator(".katex").first.wait_for()
    wait_for_app(page)
    assert_no_exception_box(page)


# Every figure's text (Vega-Lite draws SVG here), every table cell, and the sizes a projector needs.
READABLE = """(root) => {
  const px = (e) => parseFloat(getComputedStyle(e).fontSize);
  const texts = [...root.querySelectorAll('[data-testid="stVegaLiteChart"] svg text')].filter((t) => t.textContent.trim());
  const cells = [...root.querySelectorAll('[data-testid="stTable"] td, [data-testid="stTable"] th')];
  const metrics = [...root.querySelectorAll('[data-testid="stMetricValue"]')];
  const wide = [...root.querySelectorAll('[data-testid="stVegaLiteChart"], [data-testid="stTable"]')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1).length;
  return {
    texts: texts.length, smallestText: Math.min(...texts.map(px)),
    cells: cells.length, smallestCell: Math.min(...cells.map(px)),
    metrics: metrics.map(px), arrows: root.querySelectorAll('[data-testid="stMetricDelta"] svg').length,
    wide, sideways: document.documentElement.scrollWidth > window.innerWidth,
  };
}"""


def readable(page) -> dict:
    return page.locator('[data-testid="stMain"]').evaluate(READABLE)


def open_tab(page, name: str) -> None:
    """Open a tab of the page's lower half and wait for its chart."""
    page.get_by_role("tab", name=name).click()
    wait_for_app(page)
    tab = page.locator('[data-testid="stTabPanel"]:not([data-st-inactive])')
    tab.locator('[data-testid="stVegaLiteChart"] svg').first.wait_for(timeout=60_000)
    tab.scroll_into_view_if_needed()
    page.wait_for_timeout(500)


def test_presentation_mode_at_720p_is_readable_in_both_tabs(server, browser_page):
    """Issue 26, items 11 and 12 on /knn at 1280×720 with ?present=1: the headline numbers at
    least 32 px, every chart label and table cell at least 18 px (axis labels followed presentation
    mode only if the page drew through present.chart), nothing wider than its place, and the
    player's status and legend above the fold."""
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 720})
    open_knn(page, server, "?present=1&knn_data=Moons&knn_points=200")
    for part in ("canvas", ".status", ".legend"):
        box = page.locator(f"{PLAYER} {part}").bounding_box()
        assert box["y"] + box["height"] <= 720, (part, box)
    column = page.locator(PLAYER).evaluate("(root) => root.getRootNode().host.getBoundingClientRect().width")
    assert (
        page.locator(f"{PLAYER} canvas").bounding_box()["width"] >= 0.9 * column
    )  # the map takes its column
    page.screenshot(path=str(screenshot(page, "knn-present-720p-map")), full_page=False)
    for tab, shot in (
        ("Accuracy against k", "knn-present-720p-accuracy"),
        ("k-d tree", "knn-present-720p-kdtree"),
    ):
        open_tab(page, tab)
        seen = readable(page)
        print(tab, seen)
        assert seen["texts"] > 10 and seen["smallestText"] >= 18, seen
        assert seen["cells"] > 3 and seen["smallestCell"] >= 18, seen
        assert min(seen["metrics"]) >= 32, seen
        assert seen["arrows"] == 0 and seen["wide"] == 0 and not seen["sideways"], seen
        page.screenshot(path=str(screenshot(page, shot)), full_page=False)
    assert_no_exception_box(page)


def test_at_1440x900_the_map_fills_its_column_and_the_k_d_tree_shows_its_search(server, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 1440, "height": 900})
    open_knn(page, server)
    column = page.locator(PLAYER).evaluate("(root) => root.getRootNode().host.getBoundingClientRect().width")
    assert page.locator(f"{PLAYER} canvas").bounding_box()["width"] >= 0.9 * column
    legend = page.locator(f"{PLAYER} .legend").bounding_box()
    assert legend["y"] + legend["height"] <= 900
    page.screenshot(path=str(screenshot(page, "knn-1440x900")), full_page=False)
    open_tab(page, "k-d tree")
    tab = page.locator('[data-testid="stTabPanel"]:not([data-st-inactive])')
    assert tab.get_by_text("never entered").count() == 1
    assert tab.locator('[data-testid="stMetricDelta"]').count() == 0  # was "↑ brute force: 100"
    rows = tab.locator('[data-testid="stTable"] tbody tr')
    assert rows.count() > 5 and tab.locator("td", has_text="pruned").count() >= 1
    page.screenshot(path=str(screenshot(page, "knn-1440x900-kdtree")), full_page=False)
    open_tab(page, "Accuracy against k")
    assert page.get_by_text("the accuracy axis starts at").count() == 1
    page.screenshot(path=str(screenshot(page, "knn-1440x900-accuracy")), full_page=False)
    assert_no_exception_box(page)


# The share of the map's area the player left transparent (its colouring not drawn), sampled on
# a grid of the canvas's pixels inside the axes.
BLANK_JS = """(canvas) => {
  const ctx = canvas.getContext('2d'), w = canvas.width, h = canvas.height;
  let blank = 0, seen = 0;
  for (let i = 1; i < 20; i++) for (let j = 1; j < 20; j++) {
    const x = Math.round(w * (0.1 + 0.85 * i / 20)), y = Math.round(h * (0.05 + 0.8 * j / 20));
    blank += ctx.getImageData(x, y, 1, 1).data[3] === 0;
    seen += 1;
  }
  return blank / seen;
}"""
# Each step whose answer the map shows: what the player keeps back while it is asked.
ASKED = {2: "ties", 4: "regions,neighbours", 5: "regions,ties", 6: "regions,neighbours"}


def ask_presenting(page, server: str, i: int) -> None:
    """Step ``i`` set up from "Try this", presenting at 1280×720, its player drawn."""
    set_up_step(page, server, "knn", i)
    page.locator(f'{PLAYER}[data-hidden="{ASKED[i]}"]').wait_for(timeout=60_000)
    wait_for_app(page)
    wait_for_layout(page)


@pytest.mark.parametrize("i", sorted(ASKED))
def test_an_asked_step_keeps_the_maps_answer_out_of_the_player_until_it_is_revealed(server, browser_page, i):
    """Issue 31: k = 2 showed its grey tie cells, the scaling step its stripes, k = n its grey map
    and the Hamming step the rings round arbitrary neighbours while the class voted."""
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 720})
    answer = lesson.try_this_steps()[i - 1]["answer"]
    ask_presenting(page, server, i)
    root, canvas = page.locator(PLAYER), page.locator(f"{PLAYER} canvas")
    said = root.locator(".status").inner_text() + root.locator(".legend").inner_text()
    page.screenshot(path=str(screenshot(page, f"knn-step-{i}-asked")), full_page=False)
    assert player_state(page)["greyed"] == "0" and "tie" not in said.lower()
    assert ("its k nearest" in said) == ("neighbours" not in ASKED[i])
    blank = canvas.evaluate(BLANK_JS)
    assert (blank > 0.8) == ("regions" in ASKED[i]), blank
    page.locator(".st-key-try_step").get_by_role("radio", name=answer, exact=True).check(force=True)
    page.locator(f'{PLAYER}[data-hidden=""]').wait_for(timeout=60_000)
    wait_for_app(page)
    wait_for_layout(page)
    page.screenshot(path=str(screenshot(page, f"knn-step-{i}-revealed")), full_page=False)
    said = root.locator(".status").inner_text() + root.locator(".legend").inner_text()
    assert canvas.evaluate(BLANK_JS) < 0.05 and "its k nearest" in said
    greyed = int(player_state(page)["greyed"])
    if "ties" in ASKED[i]:
        assert greyed > 0 and "tied vote (greyed)" in said and "Greyed cells" in said
    if i == 5:  # k = n on 50 + 50: every vote ties
        assert greyed == RESOLUTION**2
    assert_no_exception_box(page)
