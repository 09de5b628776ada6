"""The drawing canvases' Undo, Redo and Clear in a real browser (WCAG 2.2 AA, 2.5.8 Target Size):
the component's own toolbar (22×22 CSS px buttons a few pixels apart, shown on hover over a
canvas's corner) is gone; its functions are Streamlit buttons under the canvas, at least 24×24 px,
on the digits page (mouse, 1440×900) and on a phone's drawing in class mode (touch, 390×844).

Every visible interactive target is measured, in the page, in every component's shadow root
(the canvas is a components-v2 component: a shadow root, not an iframe) and in every frame: each
is at least 24×24 or has the spacing exception (a 24 px circle on its centre meets no other
target nor another small target's circle).
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
import test_join
from conftest import assert_no_exception_box, new_context, screenshot, wait_for_app
from playwright.sync_api import Error as PlaywrightError
from test_digits_browser import mouse_stroke
from test_phone_draw import ink, join, touch_stroke

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from strokes import PATHS, STYLES  # noqa: E402

from pages.classroom import class_draw  # noqa: E402

pytestmark = pytest.mark.browser
# One server for both: the phone page's (a class store this test opens), which serves /digits too.
class_dir, store, until = test_join.class_dir, test_join.store, test_join.until
phone_server, phone = test_join.phone_server, test_join.phone  # the phone: 390×844, touch

MIN = 24  # CSS px (WCAG 2.5.8)
UNDO, REDO, CLEAR = "Undo the last stroke", "Redo", "Clear"
PREDICTION = ".digit-prediction"
INTERACTIVE = (
    "button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab],"
    " [role=switch], [role=checkbox], [role=slider], [role=radio], [role=link], [role=combobox],"
    " [role=menuitem], [tabindex]:not([tabindex='-1'])"
)
# Every target a pointer can hit, with its box: in the document and in every open shadow root. A
# target at opacity 0 counts (a touch presses it all the same); one not displayed, hidden or of
# 1×1 px at most (the skip link, clipped until it has the keyboard's focus) does not.
TARGETS = """(selector) => {
  const found = [];
  const visit = (root, where) => {
    root.querySelectorAll(selector).forEach((el) => {
      const box = el.getBoundingClientRect(), style = getComputedStyle(el);
      if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden' || style.display === 'none') return;
      const name = el.getAttribute('aria-label') || el.title || el.innerText || el.tagName;
      found.push({where, name: name.trim().slice(0, 50), x: box.x + scrollX, y: box.y + scrollY,
                  w: box.width, h: box.height, cls: String(el.className).slice(0, 40)});
    });
    root.querySelectorAll('*').forEach((el) => { if (el.shadowRoot) visit(el.shadowRoot, 'shadow root'); });
  };
  visit(document, 'page');
  return found;
}"""


def targets(page) -> list[dict]:
    """Every visible interactive target of the page and of each of its frames."""
    found = []
    for frame in page.frames:
        try:
            found += [{**t, "frame": frame.url[-40:]} for t in frame.evaluate(TARGETS, INTERACTIVE)]
        except Exception:  # a frame going away as it is read  # noqa: BLE001
            continue
    return found


def contains(outer: dict, inner: dict) -> bool:
    """Whether ``outer``'s box holds ``inner``'s (a button's own parts, a row of buttons)."""
    return (
        outer["x"] <= inner["x"]
        and outer["y"] <= inner["y"]
        and outer["x"] + outer["w"] >= inner["x"] + inner["w"]
        and outer["y"] + outer["h"] >= inner["y"] + inner["h"]
    )


def centre(target: dict) -> tuple[float, float]:
    return target["x"] + target["w"] / 2, target["y"] + target["h"] / 2


def meets_box(point: tuple[float, float], target: dict) -> bool:
    """Whether a 24 px circle on ``point`` meets ``target``'s box."""
    nearest = (
        min(max(point[0], target["x"]), target["x"] + target["w"]),
        min(max(point[1], target["y"]), target["y"] + target["h"]),
    )
    return math.dist(point, nearest) < MIN / 2


def too_small(found: list[dict]) -> list[str]:
    """The targets under 24×24 px without the spacing exception: a 24 px circle on the target's
    centre must meet no other target's box and no other small target's circle (a target inside
    another, or holding it, is one target)."""
    small = [t for t in found if t["w"] < MIN - 0.5 or t["h"] < MIN - 0.5]
    failing = []
    for t in small:
        others = [o for o in found if o is not t and not contains(o, t) and not contains(t, o)]
        near = [
            o
            for o in others
            if meets_box(centre(t), o) or (o in small and math.dist(centre(t), centre(o)) < MIN)
        ]
        if near:
            size = f"{t['w']:.0f}×{t['h']:.0f} px"
            failing.append(f"{t['name']!r} ({t['where']}, {t['cls']}) {size}, near {near[0]['name']!r}")
    return failing


def canvas_targets(page) -> list[dict]:
    """The targets inside the canvas's component (its shadow root): none, now its toolbar is hidden."""
    return [t for t in targets(page) if t["where"] == "shadow root"]


def ink_now(page) -> int | None:
    """The canvas's inked pixels, or None while it is being replaced (its element detached)."""
    try:
        return ink(page)
    except PlaywrightError:
        return None


def ink_settles(page, what: str, test, seconds: float = 20) -> int:
    """Wait until the canvas's ink passes ``test``; return it."""
    deadline = time.monotonic() + seconds
    while (now := ink_now(page)) is None or not test(now):
        if time.monotonic() > deadline:
            raise AssertionError(
                f"timed out after {seconds} s waiting for {what}: the canvas has {now} inked pixels"
            )
        page.wait_for_timeout(100)
    return now


def draw(page, path, box=(60, 30, 150, 220)) -> None:
    mouse_stroke(page, path, box)


def shown_digit(page, seconds: float = 20) -> str:
    page.locator(PREDICTION).first.wait_for(timeout=seconds * 1000)
    return page.locator(PREDICTION).first.inner_text().strip()


def linked_grid(page) -> str | None:
    return parse_qs(urlparse(page.url).query).get("digits_grid", [None])[-1]


def wait_for(page, condition, what: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        page.wait_for_timeout(100)


def button(page, name: str):
    """The visible button ``name`` (exactly), after waiting for it at most 10 s."""
    found = page.get_by_role("button", name=name, exact=True)
    found.first.wait_for(state="visible", timeout=10_000)
    assert found.count() == 1, f"{found.count()} buttons {name!r}"
    return found.first


@pytest.fixture(scope="module")
def digits_page(browser, phone_server):
    with new_context(browser, viewport={"width": 1440, "height": 900}) as context:
        page = context.new_page()
        page.goto(f"{phone_server}/digits")
        wait_for_app(page, timeout=120_000)
        page.locator("canvas.upper-canvas").wait_for(timeout=60_000)
        yield page


def test_the_digits_page_has_no_target_under_24_px(digits_page):
    """No 22 px toolbar buttons in the canvas's component, at rest or with the pointer on the
    canvas (they showed on hover); Undo, Redo and Clear at least 24×24 px; and every target of the
    page at least 24×24 px or spaced (WCAG 2.5.8)."""
    page = digits_page
    page.wait_for_timeout(600)  # the canvas's styles, put into its shadow root twice a second
    at_rest = canvas_targets(page)
    box = page.locator("canvas.upper-canvas").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] - 20, box["y"] + 20)  # where the toolbar showed on hover
    page.wait_for_timeout(600)  # its transition
    hovered = canvas_targets(page)
    assert at_rest == [] and hovered == [], f"targets inside the canvas: {at_rest or hovered}"
    for name in (UNDO, REDO, CLEAR):
        size = button(page, name).bounding_box()
        assert size["width"] >= MIN and size["height"] >= MIN, (name, size)
    found = targets(page)
    assert len(found) >= 20, found  # the scan sees the page's targets (tabs, sliders, buttons)
    assert too_small(found) == []
    screenshot(page, "canvas-toolbar-digits-1440")


def test_undo_removes_the_last_stroke_redo_puts_it_back_clear_empties(digits_page):
    """A 7, then a bar across it: Undo takes the bar away (the same ink and the same 16×16 grid in
    the link as the 7 alone), Redo puts it back, Clear empties the canvas and the link."""
    page = digits_page
    seven, bar = STYLES["7 with a bar"][1]
    draw(page, seven)
    assert shown_digit(page) == "7"
    wait_for(page, lambda: linked_grid(page) is not None, "the 7 in the link")
    alone, grid_alone = ink_settles(page, "the 7", lambda n: n > 0), linked_grid(page)
    wait_for_app(page)
    draw(page, bar)
    wait_for(page, lambda: linked_grid(page) not in (None, grid_alone), "the barred 7 in the link")
    both = ink_settles(page, "the bar", lambda n: n > alone * 1.05)
    grid_both = linked_grid(page)
    wait_for_app(page)
    screenshot(page, "canvas-toolbar-digits-two-strokes")

    button(page, UNDO).click()
    ink_settles(page, "the bar undone", lambda n: abs(n - alone) <= 0.03 * alone)
    wait_for(page, lambda: linked_grid(page) == grid_alone, "the 7's grid back in the link")
    assert shown_digit(page) == "7"
    wait_for_app(page)
    screenshot(page, "canvas-toolbar-digits-undone")

    button(page, REDO).click()
    ink_settles(page, "the bar redone", lambda n: abs(n - both) <= 0.03 * both)
    wait_for(page, lambda: linked_grid(page) == grid_both, "the barred 7's grid back in the link")
    wait_for_app(page)

    button(page, CLEAR).click()
    ink_settles(page, "an empty canvas", lambda n: n == 0)
    page.get_by_text("Draw a digit on the canvas").wait_for(timeout=20_000)
    wait_for(page, lambda: linked_grid(page) is None, "the drawing out of the link")
    assert page.locator(PREDICTION).count() == 0
    wait_for_app(page)
    assert button(page, UNDO).is_disabled() and button(page, REDO).is_disabled()

    draw(page, PATHS[1][0], box=(90, 30, 100, 220))  # the canvas after Clear draws, and undoes
    assert shown_digit(page) == "1"
    wait_for_app(page)
    button(page, UNDO).click()
    ink_settles(page, "the 1 undone", lambda n: n == 0)
    page.get_by_text("Draw a digit on the canvas").wait_for(timeout=20_000)
    assert_no_exception_box(page)
    screenshot(page, "canvas-toolbar-digits-cleared")


def test_a_phone_undoes_a_stroke_with_a_big_button(phone, phone_server, store):
    """390×844, touch: the phone's drawing has Undo and Redo at least 24×24 px, no toolbar inside
    the canvas, every target 24 px or spaced; Undo takes the last stroke away, Redo puts it back."""
    code, key = store.open_room()
    join(phone, phone_server, code)
    store.ask(code, key, class_draw.question(4))
    phone.locator("canvas.upper-canvas").first.wait_for(timeout=20_000)
    send = phone.get_by_role("button", name="Send my drawing")
    bar, stem = PATHS[4]
    touch_stroke(phone, bar)
    until(lambda: button(phone, UNDO).is_enabled(), "the bar on the server", 20)
    alone = ink(phone)
    assert alone > 0
    touch_stroke(phone, stem)
    until(send.is_enabled, "the 4 to be read", 20)
    # The finished stroke reaches the lower canvas a frame or more after the finger lifts.
    both = ink_settles(phone, "the stem drawn", lambda n: n > alone)
    phone.wait_for_timeout(300)
    assert ink(phone) == both  # settled: nothing more to come
    phone.wait_for_timeout(600)
    assert canvas_targets(phone) == []
    for name in (UNDO, REDO, "Clear", "Send my drawing"):
        size = button(phone, name).bounding_box()
        assert size["width"] >= MIN and size["height"] >= MIN, (name, size)
    assert too_small(targets(phone)) == []
    screenshot(phone, "canvas-toolbar-phone-two-strokes")

    button(phone, UNDO).tap()
    ink_settles(phone, "the stem undone", lambda n: abs(n - alone) <= 0.03 * alone)
    until(lambda: button(phone, REDO).is_enabled(), "Redo to be offered", 20)
    screenshot(phone, "canvas-toolbar-phone-undone")
    button(phone, REDO).tap()
    ink_settles(phone, "the stem redone", lambda n: abs(n - both) <= 0.03 * both)
    until(send.is_enabled, "the 4 to be read again", 20)
    button(phone, "Clear").tap()
    ink_settles(phone, "a clean canvas after Clear", lambda n: n == 0)
    until(send.is_disabled, "nothing to send after Clear", 20)
    assert_no_exception_box(phone)


HONEST_STROKE = {
    "type": "Path",
    "version": "6.0.0",
    "left": 80.5,
    "top": 40,
    "stroke": "rgb(0, 0, 0)",
    "strokeWidth": 18,
    "strokeDashArray": None,
    "shadow": None,
    "path": [["M", 81, 41], ["Q", 82, 42, 90.5, 60], ["L", 100, 200]],
}
HOSTILE_DRAWINGS = {
    "an image": {"objects": [{"type": "Image", "src": "https://example.com/track.png"}]},
    "a group": {"objects": [{"type": "Group", "objects": [HONEST_STROKE]}]},
    "a nested clip path": {"objects": [{**HONEST_STROKE, "clipPath": {"type": "Image", "src": "x"}}]},
    "a long text": {"objects": [{**HONEST_STROKE, "stroke": "x" * 10_000}]},
    "an infinite number": {"objects": [{**HONEST_STROKE, "left": float("inf")}]},
    "a path of objects": {"objects": [{**HONEST_STROKE, "path": [{"M": 1}]}]},
    "too many strokes": {"objects": [HONEST_STROKE] * 401},
    "too many points": {"objects": [{**HONEST_STROKE, "path": [["L", 1, 1]] * 50_001}]},
    "objects not a list": {"objects": "no"},
    "not a dict": ["objects"],
}


@pytest.mark.parametrize("drawing", HOSTILE_DRAWINGS.values(), ids=HOSTILE_DRAWINGS.keys())
def test_a_drawing_the_canvas_does_not_make_never_goes_back_to_it(drawing):
    """What the browser sent goes back to its canvas (Undo, Redo) only if it is strokes and
    squares of plain values within bounds: nothing else turns Undo on."""
    from pages.widgets import canvas

    assert canvas.reusable(drawing) is None
    sheet = canvas.Pad("k")
    sheet.see(drawing)
    assert not sheet.can_undo and sheet.drawing is None
    sheet.undo()
    assert sheet.drawing is None


def test_undo_and_redo_give_the_canvas_its_own_strokes_back():
    """Undo gives the canvas its checked objects less the last stroke, Redo puts it back; each
    drawing given differs (the canvas reloads it); a new stroke ends what Redo can do."""
    from pages.widgets import canvas

    first, second = HONEST_STROKE, {**HONEST_STROKE, "left": 120}
    sheet = canvas.Pad("k")
    sheet.see({"objects": [first, second]})
    sheet.undo()
    assert sheet.drawing["objects"] == [first] and sheet.undone == [second]
    sheet.see({"objects": [first, second]})  # the run of the click: the canvas's old value
    assert sheet.undone == [second]
    sheet.see({"objects": [first]})  # the canvas loaded the new drawing
    sheet.redo()
    assert sheet.drawing["objects"] == [first, second] and not sheet.undone
    sheet.see({"objects": [first, second]})
    sheet.undo()
    sheet.see({"objects": [first]})
    loads = sheet.drawing["classicLoad"]
    sheet.see({"objects": [first, {**second, "top": 9}]})  # a new stroke
    assert not sheet.undone
    sheet.undo()
    assert sheet.drawing["objects"] == [first] and sheet.drawing["classicLoad"] == loads + 1
    squares = {"objects": [{"type": "Rect", "left": 0, "top": 0, "width": 17.5, "height": 17.5}]}
    sheet.see(squares)
    assert not sheet.can_undo  # the link's squares are the drawing's start, not strokes to undo
