"""WCAG 2.2 AA at 200 % zoom and at 320 px wide.

- At 200 % zoom the sidebar collapses off-screen: its controls leave the Tab order (2.4.7, 2.4.11)
  and come back when it is opened. Playwright has no browser zoom: a 1280×720 window at 200 % lays
  out in 640×360 CSS px at 2 device pixels each, which is what the context emulates.
- No Tab stop is an invisible 0×0 element (a table's hidden cell), and every st.dataframe is
  reachable by Tab.
- Every page reflows at 320 CSS px (1.4.10): no tab of it scrolls sideways (the perceptron's
  dual view was 367 px wide).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import (
    app_pages,
    assert_no_exception_box,
    new_context,
    screenshot,
    wait_for_app,
    wait_for_layout,
)

pytestmark = pytest.mark.browser

ZOOM_200 = {"viewport": {"width": 640, "height": 360}, "device_scale_factor": 2}
PROJECTOR = {"viewport": {"width": 1280, "height": 720}}
NARROW = {"viewport": {"width": 320, "height": 640}}
MAX_TABS = 150
# The pages that draw tables (st.dataframe, st.table): their every tab is walked at full size.
TABLE_PAGES = ("knn", "decision-tree", "compare")

# The focused element (through shadow roots) and its box; ``again``: it was focused before in
# this walk (window.__walk, reset by passing true), so a walk that comes round again can stop.
FOCUS_JS = """(reset) => {
  if (reset || !window.__walk) window.__walk = new Map();
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el || el === document.body) return null;
  const r = el.getBoundingClientRect();
  const again = window.__walk.has(el), first = window.__walk.size === 0 ? true : window.__walk.get(el) === 0;
  if (!again) window.__walk.set(el, window.__walk.size);
  const sidebar = el.closest('[data-testid="stSidebar"]');
  return {
    what: el.tagName.toLowerCase() + (el.getAttribute('aria-label') ? `[${el.getAttribute('aria-label')}]` : '')
      + ' "' + (el.innerText || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 40) + '"',
    box: [r.x, r.y, r.width, r.height].map(Math.round),
    flat: r.width < 1 || r.height < 1,
    offscreen: r.right <= 0 || r.left >= innerWidth,
    sidebar: !!sidebar, collapsed: !!sidebar && sidebar.dataset.collapsed === 'true',
    dataframe: !!el.closest('[data-testid="stDataFrame"]'),
    again, backAtStart: again && first,
  };
}"""


def tab_walk(page, limit: int = MAX_TABS) -> list[dict]:
    """Press Tab from the top of the document until focus comes back to its first stop, at most
    ``limit`` times; every stop, repeats left out."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.__walk = null; }")
    page.evaluate(FOCUS_JS, True)
    stops: list[dict] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        page.wait_for_timeout(50)
        stop = page.evaluate(FOCUS_JS, False)
        if stop is None:
            continue
        if stop["backAtStart"]:
            break
        if not stop["again"]:
            stops.append(stop)
    return stops


def _open(page, url: str) -> None:
    page.goto(url)
    wait_for_app(page)
    wait_for_layout(page, limit_ms=8_000)
    assert_no_exception_box(page)


def _tabs(page) -> list[str]:
    tabs = page.locator('[data-testid="stMain"] [role="tablist"] [role="tab"]')
    return [tabs.nth(i).inner_text().strip() for i in range(tabs.count())] or [""]


def _show_tab(page, name: str) -> None:
    if name:
        tab = page.locator('[data-testid="stMain"] [role="tablist"] [role="tab"]', has_text=name).first
        tab.scroll_into_view_if_needed()
        tab.click()
        wait_for_app(page)
        wait_for_layout(page, limit_ms=8_000)


def _hidden(stops: list[dict]) -> list[str]:
    return [
        f"{s['what']} at {s['box']}" + (" (collapsed sidebar)" if s["collapsed"] else "")
        for s in stops
        if s["flat"] or s["offscreen"] or s["collapsed"]
    ]


@pytest.fixture(scope="module")
def zoomed(browser, server) -> Iterator:
    with new_context(browser, **ZOOM_200) as context:
        yield context


@pytest.mark.slow
@pytest.mark.parametrize("path", [page.path for page in app_pages()], ids=lambda p: p or "home")
def test_no_hidden_tab_stop_at_200_percent_zoom(server, zoomed, path):
    """640×360 CSS px: the sidebar starts collapsed, and no Tab stop is off-screen (its controls
    were), flat (0×0) or in the collapsed sidebar."""
    page = zoomed.new_page()
    try:
        _open(page, f"{server}/{path}")
        assert page.locator('[data-testid="stSidebar"]').get_attribute("data-collapsed") == "true"
        stops = tab_walk(page)
        hidden = _hidden(stops)
        if hidden:
            screenshot(page, f"reflow-zoom-hidden-{path or 'home'}")
        print(f"\n/{path}: {len(stops)} Tab stops, {len(hidden)} hidden")
        assert len(stops) >= 3, [s["what"] for s in stops]
        assert not hidden, f"/{path} at 200 %: {len(hidden)} hidden Tab stops:\n" + "\n".join(hidden)
    finally:
        page.close()


def test_an_opened_sidebar_is_back_in_the_tab_order(server, zoomed):
    """At 200 % zoom, opening the sidebar brings its controls back to Tab, on screen; closing it
    takes them out again."""
    page = zoomed.new_page()
    sidebar = page.locator('[data-testid="stSidebar"]')
    try:
        _open(page, f"{server}/perceptron")
        screenshot(page, "reflow-zoom-sidebar-collapsed")
        page.locator('[data-testid="stExpandSidebarButton"]').click()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=\"stSidebar\"]').dataset.collapsed === 'false'",
            timeout=10_000,
        )
        page.wait_for_timeout(800)  # it slides in
        screenshot(page, "reflow-zoom-sidebar-open")
        inside = [s for s in tab_walk(page) if s["sidebar"]]
        names = " | ".join(s["what"] for s in inside)
        assert "Random seed" in names and "Perceptron" in names, names
        assert not _hidden(inside), _hidden(inside)
        sidebar.hover()
        page.locator('[data-testid="stSidebarCollapseButton"] button').click()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=\"stSidebar\"]').dataset.collapsed === 'true'",
            timeout=10_000,
        )
        page.wait_for_timeout(1000)  # it slides out, then its content hides
        inside = [s for s in tab_walk(page) if s["sidebar"]]
        assert not inside, [s["what"] for s in inside]
    finally:
        page.close()


@pytest.mark.slow
@pytest.mark.parametrize("path", TABLE_PAGES)
def test_tables_take_no_hidden_tab_stops_and_each_dataframe_one(browser, server, path):
    """1280×720, every tab of a page with tables: no Tab stop is flat (0×0) or off-screen, and
    each st.dataframe shown is reached by Tab (its grid then takes the arrow keys)."""
    with new_context(browser, **PROJECTOR) as context:
        page = context.new_page()
        _open(page, f"{server}/{path}")
        problems = []
        for name in _tabs(page):
            _show_tab(page, name)
            frames = page.locator('[data-testid="stMain"] [data-testid="stDataFrame"]')
            shown = sum(frames.nth(i).is_visible() for i in range(frames.count()))
            stops = tab_walk(page)
            reached = sum(s["dataframe"] and s["what"].startswith("canvas") for s in stops)
            print(
                f"\n/{path} tab {name or '-'}: {len(stops)} stops, {shown} dataframes, {reached} grids reached"
            )
            problems += [f"tab {name or '-'}: {line}" for line in _hidden(stops)]
            if reached < shown:
                problems.append(f"tab {name or '-'}: {shown} dataframes but {reached} reached by Tab")
        assert not problems, f"/{path}:\n" + "\n".join(problems)


def _sideways(page) -> dict:
    """What scrolls sideways: the document and Streamlit's own scrolling main area."""
    return page.evaluate("""() => {
      const found = {};
      const boxes = {document: document.scrollingElement,
                     main: document.querySelector('[data-testid="stMain"]'),
                     view: document.querySelector('[data-testid="stAppViewContainer"]')};
      for (const [name, el] of Object.entries(boxes))
        if (el && el.scrollWidth > el.clientWidth) found[name] = [el.scrollWidth, el.clientWidth];
      return found;
    }""")


def test_the_perceptron_page_reflows_at_320_px(browser, server):
    """320×640: no tab of /perceptron scrolls sideways (the dual view's αᵢ chart was 367 px wide)."""
    with new_context(browser, **NARROW) as context:
        page = context.new_page()
        _open(page, f"{server}/perceptron")
        wide = {}
        for index, name in enumerate(_tabs(page)):
            _show_tab(page, name)
            screenshot(page, f"reflow-320-perceptron-{index}")
            if found := _sideways(page):
                wide[name] = found
        assert not wide, f"scrolls sideways at 320 px (scrollWidth, clientWidth): {wide}"
        # Every chart, the αᵢ one too, fits the window: shrunk whole, its SVG scaled by its viewBox.
        _show_tab(page, _tabs(page)[0])
        charts = page.locator('[data-testid="stMain"] [data-testid="stVegaLiteChart"]')
        boxes = [charts.nth(i).bounding_box() for i in range(charts.count())]
        charts.last.scroll_into_view_if_needed()
        screenshot(page, "reflow-320-perceptron-alpha")
        assert boxes and all(b["x"] >= 0 and b["x"] + b["width"] <= 320 for b in boxes), boxes


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", [page.path for page in app_pages() if page.path != "perceptron"], ids=lambda p: p or "home"
)
def test_every_other_page_reflows_at_320_px(browser, server, path):
    """320×640: no tab of any other page scrolls sideways either."""
    with new_context(browser, **NARROW) as context:
        page = context.new_page()
        _open(page, f"{server}/{path}")
        wide = {}
        for name in _tabs(page):
            _show_tab(page, name)
            if found := _sideways(page):
                wide[name or "-"] = found
                screenshot(page, f"reflow-320-wide-{path or 'home'}")
        assert not wide, f"/{path} scrolls sideways at 320 px (scrollWidth, clientWidth): {wide}"
