"""A digit given without a mouse (issue 35, barrier 1): on /digits, with the keyboard only (Tab,
Space, arrows, Enter; no click anywhere), switch to the 16×16 grid, draw a 7 of cells, send it,
and read the model's answer from the grid's live region; the grid is named, axe-core's WCAG 2.2
AA rules find nothing in it, its cells are 24 CSS px at least, and it fits a phone."""

import re
import time

import pytest
from conftest import assert_no_exception_box, new_context, screenshot, wait_for_app

pytestmark = pytest.mark.browser

GRID_NAME = re.compile(r"Draw a digit on a 16×16 grid: arrow keys move, Space toggles a cell")
# A 7 of cells (row, column), 1-based as the live region says them: the bar, then the stroke down.
SEVEN = [(3, c) for c in range(5, 13)] + [(4, 12), (5, 12), (6, 11), (7, 11), (8, 10), (9, 9), (10, 9)]
SEVEN += [(11, 8), (12, 8), (13, 7)]
WCAG22AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

# What has the keyboard's focus, through the components' shadow roots: its role, its name (its
# aria-label, its label's text or its own text) and its tag.
FOCUSED_JS = """() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === document.body) return null;
  const label = a.closest('label');
  const name = a.getAttribute('aria-label') || (label ? label.innerText : '') || a.innerText || '';
  return {role: a.getAttribute('role') || '', name: name.trim().slice(0, 80), tag: a.tagName};
}"""


def focused(page) -> dict | None:
    return page.evaluate(FOCUSED_JS)


def tab_to(page, wanted, limit: int = 120) -> dict:
    """Press Tab until ``wanted(focused)`` holds, at most ``limit`` times (then fail)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = focused(page)
        if now and wanted(now):
            return now
    pytest.fail(f"Tab never reached the element wanted in {limit} presses (last: {focused(page)})")


def live(page, cls: str) -> str:
    return page.locator(f".{cls}[role=status][aria-live=polite]").text_content().strip()


def wait_for_live(page, cls: str, pattern: str, timeout: float = 30) -> str:
    """The live region's text once it matches ``pattern``; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = live(page, cls)
        if re.search(pattern, text):
            return text
        page.wait_for_timeout(100)
    pytest.fail(f"the live region .{cls} never said /{pattern}/ in {timeout} s (it says {live(page, cls)!r})")


def draw_cells(page, cells) -> None:
    """From row 1, column 1 (where the grid's focus starts), move with the arrows to each cell
    and press Space there, reading the live region after each."""
    row, col = 1, 1
    for r, c in cells:
        for _ in range(abs(r - row)):
            page.keyboard.press("ArrowDown" if r > row else "ArrowUp")
        for _ in range(abs(c - col)):
            page.keyboard.press("ArrowRight" if c > col else "ArrowLeft")
        row, col = r, c
        page.keyboard.press("Space")
        wait_for_live(page, "gi-where", rf"^row {r}, column {c}: ink$", timeout=5)


def assert_axe_clean_inside(page, host: str, inner: str, what: str) -> None:
    """axe-core's WCAG 2.2 A/AA rules inside one element of a component's shadow root: no
    violation of any impact."""
    from axe_playwright_python.sync_playwright import Axe

    options = {
        "runOnly": {"type": "tag", "values": WCAG22AA},
        "resultTypes": ["violations"],
        "iframes": False,
    }
    results = Axe().run(page, context={"include": [{"fromShadowDom": [host, inner]}]}, options=options)
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
    ]
    assert not bad, f"{what}: {bad}"
    # The rules must have looked at the grid itself, not at an empty context.
    checked = [
        rule
        for rule in results.response["passes"]
        if rule["id"] in ("aria-required-children", "aria-allowed-attr")
    ]
    assert checked, "axe checked nothing inside the grid"


def open_keyboard_grid(page, server: str) -> None:
    """/digits, then the keyboard only: Tab to the switch, Space to turn it on, Tab to the grid."""
    page.goto(f"{server}/digits")
    wait_for_app(page)
    page.locator("canvas.upper-canvas").wait_for(timeout=30_000)
    tab_to(page, lambda f: "Draw with the keyboard" in f["name"])
    page.keyboard.press("Space")
    page.get_by_role("grid", name=GRID_NAME).wait_for(timeout=30_000)
    wait_for_app(page)
    assert "Draw with the keyboard" in (focused(page) or {}).get("name", "")  # the rerun kept the focus
    cell = tab_to(page, lambda f: f["role"] == "gridcell")
    assert cell["name"] == "row 1, column 1"  # the roving tabindex: the grid is one Tab stop


@pytest.mark.parametrize("viewport", [(1280, 720), (390, 844)], ids=["1280x720", "390x844"])
def test_a_digit_drawn_and_sent_with_the_keyboard_only_is_read_and_announced(browser, server, viewport):
    width, height = viewport
    with new_context(browser, viewport={"width": width, "height": height}) as context:
        page = context.new_page()
        open_keyboard_grid(page, server)
        grid = page.get_by_role("grid", name=GRID_NAME)
        assert grid.locator("[role=row]").count() == 16 and grid.locator("[role=gridcell]").count() == 256
        assert grid.locator("[role=gridcell][tabindex='0']").count() == 1
        # Each cell is a 24×24 CSS px target at least (WCAG 2.5.8), at either size.
        box = grid.locator("[role=gridcell]").first.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, box
        # At 1280 px the whole grid shows; a 390 px phone (358 px of column) scrolls it sideways in
        # its own box, two-dimensional content (WCAG 1.4.10's exception), its cells kept at 24 px.
        hidden = page.locator(".gi-scroll").evaluate("e => e.scrollWidth - e.clientWidth")
        assert hidden <= 0 if width >= 1280 else hidden < 40, hidden
        # The arrows move and the live region says where; Space puts ink down and says so.
        page.keyboard.press("ArrowRight")
        assert wait_for_live(page, "gi-where", "row 1, column 2") == "row 1, column 2: empty"
        page.keyboard.press("ArrowLeft")
        draw_cells(page, SEVEN)
        assert grid.locator("[role=gridcell][aria-selected=true]").count() == len(SEVEN)
        # The focus ring: 3 px of the theme's focus colour around the cell (3:1 against ink and paper).
        ring = page.evaluate(
            """() => { let a = document.activeElement; while (a.shadowRoot && a.shadowRoot.activeElement)
                 a = a.shadowRoot.activeElement; const s = getComputedStyle(a);
                 return [s.outlineStyle, s.outlineWidth]; }"""
        )
        assert ring == ["solid", "3px"], ring
        screenshot(page, f"digits-keyboard-drawn-{width}x{height}")
        # Send: Tab past "Clear" to "Send to the model", Enter. No click anywhere.
        tab_to(page, lambda f: f["name"] == "Send to the model", limit=5)
        page.keyboard.press("Enter")
        said = wait_for_live(page, "gi-answer", r"^Read as \d with \d+% of the vote$")
        assert said.startswith("Read as 7"), said
        wait_for_app(page)
        assert page.locator(".digit-prediction").first.inner_text().strip() == "7"  # the page shows it too
        assert_no_exception_box(page)
        # The grid and the answer in one view: scrolled (not focused) to the switch above the grid.
        page.get_by_text("Draw with the keyboard (16×16 grid)").first.evaluate("e => e.scrollIntoView()")
        screenshot(page, f"digits-keyboard-read-{width}x{height}")
        # Clear (Shift+Tab back to it, Space): the grid empties and the answer goes.
        page.keyboard.press("Shift+Tab")
        assert focused(page)["name"] == "Clear"
        page.keyboard.press("Space")
        wait_for_live(page, "gi-answer", "^Draw a digit on the grid")
        assert grid.locator("[role=gridcell][aria-selected=true]").count() == 0
        assert page.locator(".digit-prediction").count() == 0


def test_the_grid_passes_axe_wcag22_aa(browser, server):
    with new_context(browser, viewport={"width": 1280, "height": 720}) as context:
        page = context.new_page()
        open_keyboard_grid(page, server)
        draw_cells(page, SEVEN[:3])  # ink and focus, as a student leaves it
        host = ".st-key-digits_keys_grid [data-testid='stBidiComponentIsolated']"
        assert page.locator(host).count() == 1
        assert_axe_clean_inside(page, host, ".gi", "the keyboard grid")


def test_presenting_the_grid_is_reached_and_read_by_keyboard(browser, server):
    """Presenting, the switch sits beside the canvas (the canvas stays on a 720p screen): Space
    on it, Shift+Tab back to the grid, a 1 of cells, Enter on "Send to the model"."""
    with new_context(browser, viewport={"width": 1280, "height": 720}) as context:
        page = context.new_page()
        page.goto(f"{server}/digits?present=1")
        wait_for_app(page, timeout=120_000)
        page.locator("canvas.upper-canvas").wait_for(timeout=30_000)
        tab_to(page, lambda f: "Draw with the keyboard" in f["name"], limit=200)
        page.keyboard.press("Space")
        grid = page.get_by_role("grid", name=GRID_NAME)
        grid.wait_for(timeout=30_000)
        wait_for_app(page)
        assert "Draw with the keyboard" in (focused(page) or {}).get("name", "")
        for _ in range(8):  # back over "Send to the model" and "Clear" to the grid's one Tab stop
            page.keyboard.press("Shift+Tab")
            if (focused(page) or {}).get("role") == "gridcell":
                break
        assert focused(page)["name"] == "row 1, column 1", focused(page)
        assert grid.locator("[role=gridcell]").first.bounding_box()["width"] >= 24
        draw_cells(page, [(r, 8) for r in range(3, 15)])
        tab_to(page, lambda f: f["name"] == "Send to the model", limit=5)
        page.keyboard.press("Enter")
        assert wait_for_live(page, "gi-answer", r"^Read as \d").startswith("Read as 1"), live(
            page, "gi-answer"
        )
        wait_for_app(page)
        assert_no_exception_box(page)
        page.get_by_text("Draw with the keyboard (16×16 grid)").first.evaluate("e => e.scrollIntoView()")
        screenshot(page, "digits-keyboard-presenting-1280x720")
