"""The digits page in a real browser: draw with the mouse, read the prediction, clear, redraw;
a dot is refused; a link restores the settings and the drawing; a 1280×720 projector shows the
canvas whole."""

import statistics
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from conftest import SCREENSHOTS, assert_no_exception_box, screenshot, wait_for_app

pytestmark = pytest.mark.browser

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from strokes import PATHS  # noqa: E402

PREDICTION = ".digit-prediction"


def draw(page, digit: int, box=(60, 30, 150, 220)) -> None:
    """Replay a pen path for ``digit`` with the mouse: down, many moves, up (per stroke)."""
    for path in PATHS[digit]:
        mouse_stroke(page, path, box)


def mouse_stroke(page, path, box=(60, 30, 150, 220)) -> None:
    """One mouse stroke along ``path`` (tests/strokes.py's unit box) inside ``box`` of the canvas."""
    canvas = page.locator("canvas.upper-canvas").first.bounding_box()
    left, top, width, height = box
    points = [(canvas["x"] + left + x * width, canvas["y"] + top + y * height) for x, y in path]
    page.mouse.move(*points[0])
    page.mouse.down()
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        for t in (0.25, 0.5, 0.75, 1.0):
            page.mouse.move(x0 + t * (x1 - x0), y0 + t * (y1 - y0))
    page.mouse.up()


def prediction_after(page, previous: str | None, timeout: float = 20) -> tuple[str, float]:
    """Wait for the shown digit to appear or change; return it and the seconds it took."""
    start = time.perf_counter()
    deadline = start + timeout
    while time.perf_counter() < deadline:
        shown = page.locator(PREDICTION)
        if shown.count() and shown.first.inner_text().strip() != previous:
            elapsed = time.perf_counter() - start
            wait_for_app(page)
            return page.locator(PREDICTION).first.inner_text().strip(), elapsed
        page.wait_for_timeout(20)
    pytest.fail(f"no new prediction within {timeout} s")


def assert_canvas_inside_its_column(page) -> None:
    """The drawing canvas is not clipped: it ends inside the column that holds it."""
    canvas = page.locator("canvas.upper-canvas").bounding_box()
    column = page.locator('[data-testid="stColumn"]', has=page.locator("canvas.upper-canvas")).last
    inside = column.bounding_box()
    assert canvas["x"] + canvas["width"] <= inside["x"] + inside["width"] + 1, (canvas, inside)


def clear(page) -> None:
    """Clear (a button under the canvas): the server gives the canvas a new key, so the next
    stroke waits for the empty canvas the rerun brings."""
    page.get_by_role("button", name="Clear", exact=True).click()
    page.locator(PREDICTION).wait_for(state="detached", timeout=20_000)
    page.get_by_text("Draw a digit on the canvas").wait_for(timeout=20_000)
    wait_for_app(page)


GRID_IMAGE = 'img[alt^="Your drawing as the 16×16"]'


def linked_grid(page) -> str | None:
    """The drawing's grid in the page's URL (None without one)."""
    return parse_qs(urlparse(page.url).query).get("digits_grid", [None])[-1]


def wait_for_link(page, changed_from: str | None, timeout: float = 20) -> str | None:
    """Wait until the URL's drawing differs from ``changed_from``; return it."""
    deadline = time.monotonic() + timeout
    while linked_grid(page) == changed_from and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    return linked_grid(page)


def test_a_drawing_travels_in_the_link_to_a_fresh_browser(server, browser):
    """Draw, take the URL, open it in a fresh context: same prediction and grid; Clear clears it."""
    seen = []
    for url in (f"{server}/digits", None):
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.goto(url or seen[0][0])
        wait_for_app(page, timeout=120_000)
        page.locator("canvas.upper-canvas").wait_for()
        if url is not None:
            draw(page, 5)
            prediction_after(page, None)
            wait_for_link(page, None)
        shown = page.locator(PREDICTION).first.inner_text().strip()
        seen.append((page.url, linked_grid(page), shown, page.locator(GRID_IMAGE).get_attribute("src")))
        if url is None:
            screenshot(page, "digits-from-a-link")
            assert_no_exception_box(page)
            assert page.get_by_text("Draw a digit on the canvas").count() == 0
            clear(page)  # the canvas's Clear: the link's drawing goes
            assert wait_for_link(page, seen[0][1]) is None
            page.get_by_text("Draw a digit on the canvas").wait_for()
        context.close()
    (_, grid, digit, image), (_, grid_again, digit_again, image_again) = seen
    assert grid is not None and len(grid) == 64
    assert (grid_again, digit_again, image_again) == (grid, digit, image) and digit == "5"


TOOLBAR_AT = """([x, y]) => {
  const host = [...document.querySelectorAll('[data-testid="stMain"] *')].find(
    el => el.shadowRoot && el.shadowRoot.querySelector('.dc-toolbar'));
  const hit = host.shadowRoot.elementFromPoint(x, y);
  return hit ? hit.className || hit.tagName : null;
}"""


def toolbar_on_canvas(page, timeout: float = 10) -> list[str]:
    """Points of the canvas's top strip (where its toolbar sits when it overlaps) that something
    other than the drawing surface takes: the toolbar's buttons, visible or not. Looked at until
    there are none, for at most ``timeout`` seconds (the page settles after it is drawn)."""
    deadline = time.monotonic() + timeout
    while True:
        canvas = page.locator("canvas.upper-canvas").bounding_box()
        right, top = canvas["x"] + canvas["width"], canvas["y"]
        taken = []
        for dx in range(4, 200, 12):
            for dy in (2, 10, 20, 35):
                hit = page.evaluate(TOOLBAR_AT, [right - dx, top + dy])
                if hit is None or "upper-canvas" not in str(hit):
                    taken.append(f"({dx} px from the right, {dy} px down): {hit}")
        if not taken or time.monotonic() > deadline:
            return taken
        page.wait_for_timeout(250)


@pytest.mark.parametrize(
    "viewport", [(1440, 900, ""), (1280, 720, "?present=1")], ids=["1440", "present-720p"]
)
def test_the_toolbar_is_never_on_the_drawing_area(browser, server, viewport):
    """Before the pointer comes (a touch screen has no hover) and while it is on the canvas, no
    toolbar is on the canvas (the component's is hidden: its functions are buttons under the
    canvas, tests/browser/test_canvas_toolbar.py): a touch on the canvas draws, never presses a button."""
    width, height, query = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{server}/digits{query}")
    wait_for_app(page, timeout=120_000)
    canvas = page.locator("canvas.upper-canvas")
    canvas.wait_for()
    page.wait_for_timeout(500)
    assert toolbar_on_canvas(page) == []  # at rest
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(600)  # the toolbar's transition, when it showed on hover
    assert page.locator(".dc-toolbar-card").bounding_box() is None  # not shown anywhere
    assert toolbar_on_canvas(page) == []
    screenshot(page, f"digits-toolbar-{width}")
    context.close()


def test_presentation_mode_draws_large_for_a_hall(browser, server):
    """At 1280×720 presenting: a canvas of 400 px or more filling its column, a pen as wide for
    it as on the normal canvas, and the answer in words at 32 px or more, all on the first screen."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{server}/digits?present=1")
    wait_for_app(page, timeout=120_000)
    page.locator("canvas.upper-canvas").wait_for()
    canvas = page.locator("canvas.upper-canvas").bounding_box()
    column = page.locator('[data-testid="stColumn"]', has=page.locator("canvas.upper-canvas")).last
    assert canvas["width"] >= 400 and canvas["width"] >= 0.9 * column.bounding_box()["width"], canvas
    assert_canvas_inside_its_column(page)
    scale = canvas["width"] / 280
    draw(page, 7, box=tuple(v * scale for v in (60, 30, 150, 220)))
    shown, _ = prediction_after(page, None)
    assert shown == "7"
    answer = page.locator(".digit-answer")
    assert answer.inner_text().startswith("Read as 7 with")
    assert float(answer.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")) >= 32
    for element in (page.locator("canvas.upper-canvas"), answer):
        box = element.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 720 and box["x"] + box["width"] <= 1280, box
    page.screenshot(path=str(SCREENSHOTS / "digits-present-large-720p.png"))
    context.close()


AXIS_TEXTS = """(title) => {
  const axis = [...document.querySelectorAll('[data-testid="stMain"] g[aria-label]')].find(
    g => g.getAttribute('aria-label').includes(title));
  return axis ? [...axis.querySelectorAll('text')].map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, top: r.top, size: parseFloat(getComputedStyle(t).fontSize)};
  }) : null;
}"""


def axis_texts(page, title: str, timeout: float = 60) -> list[dict]:
    """The texts (tick labels and title) of the chart axis whose description names ``title``."""
    deadline = time.monotonic() + timeout
    while (found := page.evaluate(AXIS_TEXTS, title)) is None and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert found is not None, f"no axis {title!r}"
    return found


def test_presenting_the_figures_are_readable_and_whole(browser, server):
    """1280×720 presenting: the vote labels every digit, the accuracy plot is tall enough to tell the
    lines apart, the confusion matrix is as wide as its text; labels ≥ 18 px; nothing sideways."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{server}/digits?present=1")
    wait_for_app(page, timeout=120_000)
    page.locator("canvas.upper-canvas").wait_for()
    draw(page, 7, box=(130, 60, 230, 340))
    assert prediction_after(page, None)[0] == "7"
    digits_shown = {t["text"] for t in axis_texts(page, "X-axis titled 'digit'")}
    assert {str(d) for d in range(10)} <= digits_shown, digits_shown
    page.goto(f"{server}/digits?present=1&digits_tab=Evaluation")
    wait_for_app(page, timeout=120_000)
    ticks = [t for t in axis_texts(page, "Y-axis titled 'test accuracy'", 180) if t["text"].endswith("%")]
    assert max(t["top"] for t in ticks) - min(t["top"] for t in ticks) >= 180, ticks  # was 64 px
    assert min(t["size"] for t in ticks) >= 18
    matrix = page.locator('[data-testid="stVegaLiteChart"]').last.bounding_box()
    assert matrix["width"] >= 500, matrix  # was 390 px: 10 cells of 34 px
    sideways = page.evaluate(
        "() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth"
    )
    assert sideways <= 0
    page.screenshot(path=str(SCREENSHOTS / "digits-present-evaluation-720p.png"))
    context.close()


@pytest.fixture(scope="module")
def digits_page(server, browser_context):
    page = browser_context.new_page()
    page.goto(f"{server}/digits")  # the first request of this fresh server
    wait_for_app(page)
    page.locator("canvas.upper-canvas").wait_for()
    yield page
    page.close()


def test_draw_a_seven_then_clear_and_draw_a_zero(digits_page):
    page = digits_page
    assert page.get_by_text("Draw a digit on the canvas").count() == 1
    draw(page, 7)
    shown, _ = prediction_after(page, None)
    assert shown == "7"
    assert wait_for_link(page, None) is not None  # the drawing is in the link
    assert_no_exception_box(page)
    screenshot(page, "digits-drew-7")
    images = page.locator('[data-testid="stMain"] img')
    assert images.count() >= 2  # the 16×16 grid and the nearest digits
    assert all((images.nth(i).get_attribute("alt") or "").strip() for i in range(images.count()))
    assert_canvas_inside_its_column(page)
    clear(page)
    assert page.get_by_text("Draw a digit on the canvas").count() == 1
    assert wait_for_link(page, linked_grid(page)) is None  # and out of it once cleared
    draw(page, 0)
    shown, _ = prediction_after(page, None)
    assert shown == "0"
    screenshot(page, "digits-drew-0")
    clear(page)


def test_mouse_drawn_digits_are_recognised(digits_page):
    page = digits_page
    hits, latencies = 0, []
    for digit in range(10):
        draw(page, digit)
        shown, seconds = prediction_after(page, None)
        hits += shown == str(digit)
        latencies.append(seconds)
        clear(page)
    print(
        f"mouse-drawn digits: {hits}/10 right; stroke end → prediction median {statistics.median(latencies):.2f} s"
    )
    assert hits >= 9


def test_a_dot_is_refused(digits_page):
    page = digits_page
    canvas = page.locator("canvas.upper-canvas").bounding_box()
    page.mouse.click(canvas["x"] + 140, canvas["y"] + 140)
    page.get_by_text("draw a digit.").wait_for()
    assert page.locator(PREDICTION).count() == 0
    assert page.get_by_role("button", name="This was a 0").is_disabled()
    clear(page)


def test_a_small_drawing_gets_the_draw_bigger_hint(digits_page):
    page = digits_page
    draw(page, 2, box=(20, 20, 35, 55))  # a 2 a fifth of the canvas tall
    page.get_by_text("Draw bigger: your digit fills").wait_for()
    assert page.locator(PREDICTION).count() == 0
    screenshot(page, "digits-small-drawing")
    clear(page)


def test_a_link_restores_the_settings(browser_context, server):
    page = browser_context.new_page()
    page.goto(f"{server}/digits?digits_k=7&digits_invariance=shifts&digits_blur=false")
    wait_for_app(page)
    thumb = page.locator('[data-testid="stSlider"]', has_text="k (neighbours)").get_by_test_id(
        "stSliderThumbValue"
    )
    assert thumb.inner_text() == "7"
    draw(page, 2)
    shown, _ = prediction_after(page, None)
    assert shown == "2"
    assert page.get_by_text("The 7 nearest training digits").count() == 1
    page.close()


def test_presentation_mode_at_720p_shows_canvas_prediction_and_controls(browser_context, server):
    page = browser_context.new_page()
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{server}/digits?present=true")
    wait_for_app(page)
    page.locator("canvas.upper-canvas").wait_for()
    assert page.get_by_role("switch", name="Presentation mode").is_checked()
    draw(page, 3, box=(50, 25, 130, 190))
    shown, _ = prediction_after(page, None)
    assert shown == "3"
    page.wait_for_timeout(500)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "digits-present-720p.png"))
    assert_canvas_inside_its_column(page)
    for element in (
        page.locator("canvas.upper-canvas"),
        page.locator(PREDICTION),
        page.get_by_role("slider", name="k (neighbours)"),
    ):
        box = element.bounding_box()
        assert (
            box and 0 <= box["y"] and box["y"] + box["height"] <= 720 and box["x"] + box["width"] <= 1280
        ), box
    page.close()


def test_teach_mode_adds_an_example(digits_page):
    page = digits_page
    draw(page, 4)
    prediction_after(page, None)
    page.get_by_role("button", name="This was a 0").click()
    page.get_by_text("1 example of yours in the training set.").wait_for()
    page.get_by_role("button", name="Forget my examples").click()
    page.get_by_text("No examples of yours yet").wait_for()
    assert_no_exception_box(page)


def test_evaluation_and_ladder_tabs(browser_context, server):
    """Each tab opened by its link: the accuracy chart and the ladder's bars are drawn."""
    page = browser_context.new_page()
    for tab, name in (("Evaluation", "digits-evaluation"), ("How far can k-NN go", "digits-ladder")):
        page.goto(f"{server}/digits?digits_tab={tab.replace(' ', '+')}")
        wait_for_app(page)
        page.locator(
            '[data-testid="stVegaLiteChart"] canvas, [data-testid="stVegaLiteChart"] svg'
        ).first.wait_for(timeout=120_000)
        wait_for_app(page)
        assert_no_exception_box(page)
        screenshot(page, name)
    assert page.get_by_text("tangent distance").count() >= 1
    page.close()
