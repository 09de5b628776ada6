"""Every page on a 1280×720 projector in presentation mode, and checked by axe-core.

For each page: open ``/<page>?present=1`` in a 1280×720 window, save a screenshot, assert that
the main figure and the first controls are inside the viewport without scrolling, that the
text is at least 18 px, and that the link keeps presentation mode on (``present=true``) after
reruns and in a fresh browser. For each view (every tab of every page, opened by its link, and a
few views that only some data show): every label of every Vega-Lite chart is at least 18 px on
screen, and axe-core, run in the page and in every frame inside it with "Try this" open, finds
no critical or serious violation.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest
from conftest import (
    SCREENSHOTS,
    app_pages,
    assert_no_exception_box,
    screenshot,
    wait_for_app,
    wait_for_layout,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # axe-core on every view


# A page hidden from the menu (the phones' /join) is not one a teacher projects.
PAGES = [page.path for page in app_pages(menu_only=True)]
WIDTH, HEIGHT = 1280, 720
MIN_FONT = 18
# What counts as a lesson's main figure: a player, a chart, an image or a drawn tree.
FIGURE = (
    '[data-testid="stMain"] iframe, [data-testid="stMain"] canvas, '
    '[data-testid="stMain"] [data-testid="stImage"] img, [data-testid="stMain"] .stVegaLiteChart, '
    '[data-testid="stMain"] [data-testid="stGraphVizChart"], [data-testid="stMain"] .stCustomComponentV1, '
    '[data-testid="stMain"] [data-testid^="stBidiComponent"]'
)
# Each page's tabs are bound to the link (``st.tabs(key=..., bind="query-params")``).
TABS = {
    "perceptron": (
        "pc_tab",
        ["Every update", "When no line will do", "Does it generalise?", "More points, more mistakes?"],
    ),
    "knn": ("knn_tab", ["Accuracy against k", "k-d tree"]),
    "decision-tree": ("tree_tab", ["Tree", "Regions", "Data & rules", "Evaluation", "AND vs parity"]),
    "digits": ("digits_tab", ["Draw", "Evaluation", "How far can k-NN go"]),
}
POINTS = "Two clusters (2-D points)"  # the tree's regions and a fast evaluation need 2-D points
VIEWS = [
    ("", {}),
    *((page, {key: label}) for page, (key, labels) in TABS.items() for label in labels),
    ("decision-tree", {"tree_tab": "Regions", "tree_data": POINTS}),
    ("decision-tree", {"tree_tab": "Evaluation", "tree_data": POINTS}),
    ("digits", {"digits_tab": "Draw", "draw": "7"}),  # the vote chart shows once there is a drawing
    ("compare", {}),
]
IMPACTS = ("critical", "serious", "moderate", "minor")

# Each Vega-Lite chart on the page: the spec Streamlit sent (from the React element that drew
# it) and, when Vega drew SVG, the on-screen size of every piece of text.
CHARTS_JS = """() => [...document.querySelectorAll('.vega-embed')].map(chart => {
  let fiber = chart[Object.keys(chart).find(k => k.startsWith('__reactFiber'))], spec = null;
  for (let i = 0; fiber && i < 12 && spec === null; i++, fiber = fiber.return) {
    const element = (fiber.memoizedProps || {}).element;
    if (element && typeof element.spec === 'string') spec = element.spec;
  }
  const texts = [...chart.querySelectorAll('svg text')].filter(t => t.textContent.trim() && t.getClientRects().length);
  return {
    canvas: chart.querySelector('canvas') !== null,
    spec,
    texts: texts.map(t => {
      const m = t.getScreenCTM();
      return [parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b), t.textContent.slice(0, 30)];
    }),
  };
})"""


def view_id(view: tuple[str, dict]) -> str:
    page, params = view
    return "-".join([page or "home", *(re.sub(r"\W+", "_", str(v)).strip("_") for v in params.values())])


@pytest.fixture(scope="module")
def projector(browser_context):
    page = browser_context.new_page()
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    yield page
    page.close()


def open_presenting(page, server: str, path: str, params: dict | None = None) -> None:
    """Open /<path> in presentation mode (``present=1`` and ``params`` in the link), ready."""
    page.goto(f"{server}/{path}?{urlencode({'present': '1', **(params or {})})}")
    wait_for_app(page, timeout=120_000)
    wait_for_layout(page)  # charts and players lay themselves out after the script ends
    assert_no_exception_box(page)


@pytest.mark.parametrize("path", PAGES)
def test_presentation_fits_a_projector(server, projector, path):
    page = projector
    open_presenting(page, server, path)
    screenshot(page, f"present-720-{path or 'home'}")
    assert page.get_by_role("switch", name="Presentation mode").is_checked()
    size = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('[data-testid=\"stMain\"] p')).fontSize)"
    )
    assert size >= 18, f"body text is {size}px on /{path}"
    if path:  # the home page has no figure, only its links
        figure = page.locator(FIGURE).first
        figure.wait_for(state="visible", timeout=30_000)
        box = figure.bounding_box()
        assert box is not None and box["y"] >= 0, f"/{path}: the main figure is not on screen"
        assert box["y"] + min(box["height"], 300) <= HEIGHT, (
            f"/{path}: the main figure starts at y = {box['y']:.0f}, below the fold"
        )
    controls = page.locator('[data-testid="stSidebarUserContent"] [data-testid="stWidgetLabel"]')
    for i in range(min(controls.count(), 3)):
        box = controls.nth(i).bounding_box()
        assert box is not None and box["y"] + box["height"] <= HEIGHT, f"/{path}: control {i} below the fold"


def test_present_1_stays_in_the_link(server, projector, browser_context):
    """``?present=1`` reads as on, and the address then says ``present=true``: after a rerun, a
    move to another page, and in a new tab opened on the copied address, it is still on."""
    page = projector
    switch = page.get_by_role("switch", name="Presentation mode")
    open_presenting(page, server, "perceptron")
    assert switch.is_checked() and "present=true" in page.url, page.url
    page.get_by_role("tab", name="Does it generalise?").click()  # a rerun (the tab is bound)
    page.wait_for_function("() => location.search.includes('pc_tab=')")
    wait_for_app(page)
    assert switch.is_checked() and "present=true" in page.url, page.url
    page.locator('[data-testid="stSidebarNav"] a', has_text="k-NN").click()
    page.wait_for_url(re.compile(r"/knn"))
    wait_for_app(page)
    assert switch.is_checked() and "present=true" in page.url, page.url
    copied = browser_context.new_page()
    try:
        copied.goto(page.url)
        wait_for_app(copied, timeout=120_000)
        assert copied.get_by_role("switch", name="Presentation mode").is_checked(), page.url
        assert "present=true" in copied.url, copied.url
    finally:
        copied.close()


def _small_fonts(spec: object, where: str = "spec") -> list[str]:
    """Every number-valued ``fontSize``/``…FontSize`` below ``MIN_FONT`` in a spec."""
    found = []
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key in ("data", "datasets"):
                continue
            if key.endswith(("fontSize", "FontSize")) and isinstance(value, (int, float)):
                if value < MIN_FONT:
                    found.append(f"{where}.{key} = {value}")
            else:
                found += _small_fonts(value, f"{where}.{key}")
    elif isinstance(spec, list):
        for i, item in enumerate(spec):
            found += _small_fonts(item, f"{where}[{i}]")
    return found


def _chart_problems(page) -> tuple[int, list[str], list[float]]:
    """The number of Vega-Lite charts, every label under 18 px, and all label sizes."""
    problems, sizes = [], []
    charts = page.evaluate(CHARTS_JS)
    for i, chart in enumerate(charts):
        sizes += [size for size, _ in chart["texts"]]
        problems += [
            f"chart {i}: {text!r} at {size:.1f}px" for size, text in chart["texts"] if size < MIN_FONT - 0.05
        ]
        if chart["canvas"]:  # drawn on a canvas: its text cannot be measured, the spec must say 18 px
            if chart["spec"] is None:
                problems.append(f"chart {i} is a canvas and its spec was not found")
                continue
            spec = json.loads(chart["spec"])
            config = spec.get("config", {})
            problems += [f"chart {i}: {p}" for p in _small_fonts(spec)]
            for part, key in (("axis", "labelFontSize"), ("legend", "labelFontSize"), ("title", "fontSize")):
                if config.get(part, {}).get(key, 0) < MIN_FONT:
                    problems.append(f"chart {i} (canvas): config.{part}.{key} is not set to ≥ {MIN_FONT}")
    return len(charts), problems, sizes


def draw_a_digit(page, digit: int) -> None:
    from test_digits_browser import draw

    before = page.locator(".vega-embed").count()
    draw(page, digit)
    page.wait_for_function(
        f"() => document.querySelectorAll('.vega-embed').length > {before}", timeout=30_000
    )
    wait_for_app(page)


def open_try_this(page) -> bool:
    """Open the "Try this" expander, if the page has one."""
    summary = page.locator('[data-testid="stExpander"] summary', has_text="Try this")
    if not summary.count():
        return False
    summary.first.scroll_into_view_if_needed()
    summary.first.click()
    page.locator('[data-testid="stExpander"]', has_text="Try this").get_by_role("radiogroup").first.wait_for()
    return True


def set_up_step(page, server: str, path: str, i: int) -> None:
    """Step ``i`` of /``path`` set up from its "Set up this view", presenting (the caller waits
    for what the step shows)."""
    open_presenting(page, server, path)
    assert open_try_this(page), f"/{path} has no Try this"
    expander = page.locator('[data-testid="stExpander"]', has_text="Try this")
    button = expander.get_by_role("button", name="Set up this view").nth(i - 1)
    button.scroll_into_view_if_needed()
    button.click()


def _axe_counts(page) -> tuple[dict[str, int], list[str]]:
    """axe-core in the page and in every frame inside it (players, components): the violating
    nodes by impact, and a line for each critical or serious violation."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    counts = dict.fromkeys(IMPACTS, 0)
    bad = []
    for frame in page.frames:
        if frame.is_detached():
            continue
        name = "page" if frame == page.main_frame else f"frame {frame.name or frame.url[:60]}"
        # Each frame is run on its own, so the page's run leaves its frames out.
        results = axe.run(frame, options={"resultTypes": ["violations"], "iframes": False})
        for v in results.response["violations"]:
            counts[v["impact"]] = counts.get(v["impact"], 0) + len(v["nodes"])
            if v["impact"] in ("critical", "serious"):
                targets = ", ".join(str(n["target"]) for n in v["nodes"][:3])
                bad.append(
                    f"{name}: {v['id']} ({v['impact']}, {len(v['nodes'])} nodes: {targets}): {v['help']}"
                )
    return counts, bad


@pytest.mark.parametrize("view", VIEWS, ids=view_id)
def test_every_view_reads_from_the_back_and_passes_axe(server, projector, view):
    """Labels of Vega-Lite charts at least 18 px (presentation mode), and axe-core clean."""
    page, name = projector, view_id(view)
    path, params = view
    params = dict(params)
    digit = params.pop("draw", None)
    open_presenting(page, server, path, params)
    for key, label in params.items():
        if key.endswith("_tab"):
            assert page.get_by_role("tab", name=label, exact=True).get_attribute("aria-selected") == "true", (
                f"{name}: the link did not open the tab {label!r}"
            )
    if digit is not None:
        draw_a_digit(page, int(digit))
    screenshot(page, f"present-view-{name}")
    count, fonts, sizes = _chart_problems(page)
    smallest = f"{min(sizes):.1f}px" if sizes else "-"
    print(f"\n/{name}: {count} Vega-Lite chart(s), {len(sizes)} labels, smallest {smallest}")
    for i in range(count):  # each chart on its own, to look at
        page.locator(".vega-embed").nth(i).screenshot(
            path=str(SCREENSHOTS / f"present-view-{name}-chart{i}.png")
        )

    opened = open_try_this(page)
    counts, bad = _axe_counts(page)
    frames = len(page.frames) - 1
    summary = " ".join(f"{impact}={counts[impact]}" for impact in IMPACTS)
    print(f"\n/{name} axe (page + {frames} frames, Try this {'open' if opened else 'absent'}): {summary}")
    assert not fonts, f"{name}: labels under {MIN_FONT}px in presentation mode: {fonts[:10]}"
    assert not bad, f"{name}: {bad}"
