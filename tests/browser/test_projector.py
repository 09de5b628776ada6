"""Every page in presentation mode on a 1280×720 projector, measured (issue 26, items 11, 12, 14).

For each page of ``app.py`` at ``?present=1``: the font size on screen of the headline number
(≥ 32 px), of the smallest table cell (≥ 18 px) and of the smallest axis label (≥ 18 px), and
nothing that scrolls sideways or is cut off. Text drawn inside the players' shadow roots counts
like the page's own. Each page's screenshot is saved (``projector-<page>.png``) and its numbers
printed, for the closing note. Every tab of every page is held to the same tables, labels and
sideways rule. Then: a collapsed sidebar gives its width to the page, and "Set up this view" in
"Try this" shows the figure it changes with its question above it. Two AppTest tests without a
browser: present.table, and where a step set up is asked.
"""

from __future__ import annotations

import re

import pytest
import test_classroom
from conftest import SCREENSHOTS, screenshot, wait_for_app
from test_classroom import draw_a_digit, open_presenting

WIDTH, HEIGHT = 1280, 720
HEADLINE, LABEL = 32, 18


PAGES = test_classroom.PAGES

# Every element of the page, the players' shadow roots included, and what the brief measures:
# - headline: the page's key number on the first screen: an st.metric's value, else the largest
#   text with a digit in it (headings, tabs and the Vega-Lite charts' ticks aside);
# - cells: every cell of an HTML table (st.table, markdown, a player's), and each st.dataframe,
#   whose canvas Streamlit draws at its own size whatever the page's CSS says;
# - axes: every SVG text of a chart or a player (axis labels and titles, legends);
# - sideways: the page scrolling sideways, an element that scrolls or clips its content
#   sideways, a table wider than the block that holds it.
MEASURE_JS = """() => {
  const all = [];
  const walk = root => root.querySelectorAll('*').forEach(el => { all.push(el); if (el.shadowRoot) walk(el.shadowRoot); });
  walk(document);
  const main = document.querySelector('[data-testid="stMain"]');
  const up = el => el.parentNode instanceof ShadowRoot ? el.parentNode.host : el.parentElement;
  const within = (el, test) => { for (let n = el; n; n = up(n)) if (test(n)) return n; return null; };
  const shown = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const ownText = el => [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim();
  const size = el => {
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) { const m = el.getScreenCTM(); return m ? px * Math.hypot(m.a, m.b) : px; }
    return px;
  };
  const onFirstScreen = el => { const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };
  const texts = all.filter(el => within(el, n => n === main) && ownText(el) && shown(el));
  const item = el => ({size: Math.round(size(el) * 10) / 10, text: ownText(el).slice(0, 40)});
  const smallest = els => els.length ? els.map(item).reduce((a, b) => b.size < a.size ? b : a) : null;
  const largest = els => els.length ? els.map(item).reduce((a, b) => b.size > a.size ? b : a) : null;

  const metrics = texts.filter(el => within(el, n => n.dataset && n.dataset.testid === 'stMetricValue') && onFirstScreen(el));
  const numbers = texts.filter(el => /\\d/.test(ownText(el)) && onFirstScreen(el)
    && !within(el, n => /^H[1-6]$/.test(n.tagName) || n.getAttribute && (n.getAttribute('role') === 'tab'
      || n.classList.contains('vega-embed') || (n.dataset && n.dataset.testid === 'stSidebar'))));
  const cells = texts.filter(el => within(el, n => n.tagName === 'TD' || n.tagName === 'TH'));
  const axes = texts.filter(el => el.tagName.toLowerCase() === 'text');

  const sideways = [];
  const page = document.scrollingElement;
  if (page.scrollWidth > page.clientWidth) sideways.push(`the page is ${page.scrollWidth} px wide in ${page.clientWidth} px`);
  for (const el of all) {
    if (!within(el, n => n === main) || !shown(el)) continue;
    const overflow = getComputedStyle(el).overflowX, name = el.dataset && el.dataset.testid || el.tagName.toLowerCase();
    const clips = overflow === 'hidden' || overflow === 'clip';
    // What is cut is text; a visually hidden input (1 px) is hidden on purpose.
    const text = el.textContent.trim(), hidden = clips && (!text || el.clientWidth <= 2);
    if (overflow !== 'visible' && !hidden && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
      sideways.push(`${name} (${text.slice(0, 30)}) ${clips ? 'clips' : 'scrolls'} ${el.scrollWidth} px in ${el.clientWidth} px`);
    if (el.tagName === 'TABLE') {
      const box = within(up(el), n => n.dataset && /^st(Table|Markdown|VerticalBlock|Column)/.test(n.dataset.testid || '')) || up(el);
      const over = el.getBoundingClientRect().right - box.getBoundingClientRect().right;
      if (over > 1) sideways.push(`a table (${el.textContent.trim().slice(0, 30)}) is ${Math.round(over)} px wider than its block`);
    }
  }
  // Streamlit's own text on the first screen (the page's and the sidebar's, fields included;
  // the players' and the charts' are theirs): the smallest.
  const own = [...document.querySelectorAll('[data-testid="stMain"] *, [data-testid="stSidebar"] *')].filter(el =>
    !(el instanceof SVGElement) && !el.closest('.vega-embed, [data-testid="stIconMaterial"]') && shown(el) && onFirstScreen(el)
    && (el.tagName === 'INPUT' ? ['text', 'number'].includes(el.type) && el.value : ownText(el)));
  const text = own.length ? own.map(el => ({size: parseFloat(getComputedStyle(el).fontSize),
    text: (el.tagName === 'INPUT' ? el.value : ownText(el)).slice(0, 40)})).reduce((a, b) => b.size < a.size ? b : a) : null;
  const frames = document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"]').length;
  return {
    headline: largest(metrics) || largest(numbers), metric: metrics.length > 0,
    cell: smallest(cells), dataframes: frames, axis: smallest(axes), sideways, text,
  };
}"""


# One 1280×720 window for the module, as test_classroom opens it.
projector = test_classroom.projector


def _px(found: dict | None) -> str:
    return f"{found['size']:.1f} px ({found['text']!r})" if found else "-"


@pytest.mark.browser
@pytest.mark.parametrize("path", PAGES, ids=lambda path: path or "home")
def test_every_page_reads_from_the_back_of_the_room(server, projector, path):
    """Headline number ≥ 32 px, table cells and axis labels ≥ 18 px, nothing sideways."""
    page, name = projector, path or "home"
    open_presenting(page, server, path)
    if path == "digits":  # its key number, the digit read, shows once something is drawn
        draw_a_digit(page, 7)
        page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, f"projector-{name}")  # the whole page, and the first screen as projected
    page.screenshot(path=str(SCREENSHOTS / f"projector-{name}-720p.png"))
    found = page.evaluate(MEASURE_JS)
    frames = f" + {found['dataframes']} st.dataframe" if found["dataframes"] else ""
    print(
        f"\n/{path} at {WIDTH}×{HEIGHT}: headline {_px(found['headline'])}"
        f"{'' if found['metric'] else ' (no st.metric)'} · table cell {_px(found['cell'])}{frames}"
        f" · axis label {_px(found['axis'])} · sideways: {'; '.join(found['sideways']) or 'none'}"
        f" · smallest Streamlit text {_px(found['text'])}"
    )
    problems = []
    if found["text"] and found["text"]["size"] < LABEL:
        problems.append(f"Streamlit's text {_px(found['text'])} < {LABEL} px")
    if path and (found["headline"] is None or found["headline"]["size"] < HEADLINE):
        problems.append(f"headline number {_px(found['headline'])} < {HEADLINE} px")
    if found["cell"] and found["cell"]["size"] < LABEL:
        problems.append(f"table cell {_px(found['cell'])} < {LABEL} px")
    if found["dataframes"]:
        problems.append(
            f"{found['dataframes']} st.dataframe: a canvas at Streamlit's size; use present.table"
        )
    if found["axis"] and found["axis"]["size"] < LABEL:
        problems.append(f"axis label {_px(found['axis'])} < {LABEL} px")
    problems += found["sideways"]
    assert not problems, f"/{path}: {problems}"


# Every tab of every page (test_classroom's views) and the 1984 votes' evaluation, whose claims
# table cut its answers short. A data set's own table may stay an st.dataframe (hundreds of rows
# scrolled in place): "Data & rules".
VIEWS = [view for view in test_classroom.VIEWS if view[0]] + [
    ("decision-tree", {"tree_tab": "Evaluation", "tree_data": "1984 congressional votes"})
]
DATA_TABLES = {"decision-tree-Data_rules"}


@pytest.mark.browser
@pytest.mark.parametrize("view", VIEWS, ids=test_classroom.view_id)
def test_every_view_has_readable_tables_and_labels_and_nothing_sideways(server, projector, view):
    """Table cells and axis labels ≥ 18 px, no small table on a canvas, nothing sideways."""
    page, name = projector, test_classroom.view_id(view)
    path, params = view
    params = dict(params)
    digit = params.pop("draw", None)
    open_presenting(page, server, path, params)
    if digit is not None:
        draw_a_digit(page, int(digit))
    found = page.evaluate(MEASURE_JS)
    frames = f" + {found['dataframes']} st.dataframe" if found["dataframes"] else ""
    print(
        f"\n/{name}: table cell {_px(found['cell'])}{frames} · axis label {_px(found['axis'])}"
        f" · sideways: {'; '.join(found['sideways']) or 'none'}"
    )
    problems = []
    if found["cell"] and found["cell"]["size"] < LABEL:
        problems.append(f"table cell {_px(found['cell'])} < {LABEL} px")
    if found["dataframes"] and name not in DATA_TABLES:
        problems.append(
            f"{found['dataframes']} st.dataframe: a canvas at Streamlit's size; use present.table"
        )
    if found["axis"] and found["axis"]["size"] < LABEL:
        problems.append(f"axis label {_px(found['axis'])} < {LABEL} px")
    problems += found["sideways"]
    if problems:
        screenshot(page, f"projector-view-{name}")
    assert not problems, f"/{name}: {problems}"


@pytest.mark.browser
def test_metric_value_is_not_smaller_than_in_normal_mode(server, projector):
    """st.metric's value in presentation mode: at least 32 px, and never smaller than without it."""
    page = projector
    value = '[data-testid="stMetricValue"] p'
    sizes = {}
    for mode, query in (("normal", ""), ("present", "present=1&")):
        page.goto(f"{server}/knn?{query}knn_data=Moons")
        wait_for_app(page, timeout=120_000)
        sizes[mode] = page.locator(value).first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    print(f"\nst.metric value: {sizes['normal']} px normal, {sizes['present']} px presenting")
    assert sizes["present"] >= max(HEADLINE, sizes["normal"]), sizes


@pytest.mark.browser
def test_a_collapsed_sidebar_gives_its_width_to_the_page(server, projector):
    """Collapsed, the sidebar leaves no blank column: the main block starts at the window's edge,
    and the button that brings it back is on screen."""
    page = projector
    open_presenting(page, server, "perceptron")
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.hover()
    page.locator('[data-testid="stSidebarCollapseButton"] button').click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stSidebar\"]').dataset.collapsed === 'true'"
    )
    page.wait_for_timeout(800)  # the sidebar slides out
    main = page.locator('[data-testid="stMain"]').bounding_box()
    screenshot(page, "projector-sidebar-collapsed")
    print(f"\ncollapsed sidebar: the main area is {main['width']:.0f} px wide from x = {main['x']:.0f}")
    assert main["x"] <= 1 and main["width"] >= WIDTH - 20, main
    # The button that opens it again is whole on screen, clear of the title, and opens it.
    reopen = page.locator('[data-testid="stExpandSidebarButton"]').bounding_box()
    title = page.locator('[data-testid="stMain"] h1').bounding_box()
    print(f"the button to open it: {reopen}; the title starts at x = {title['x']:.0f}")
    assert reopen["y"] >= 0 and reopen["x"] + reopen["width"] <= title["x"], (reopen, title)
    page.locator('[data-testid="stExpandSidebarButton"]').click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stSidebar\"]').dataset.collapsed === 'false'"
    )


def test_pages_are_derived_from_the_app():
    assert PAGES[0] == "" and len(PAGES) == len(set(PAGES)) >= 6, PAGES
    assert all(re.fullmatch(r"[a-z-]*", page) for page in PAGES), PAGES


def _small_table() -> None:
    import pandas as pd
    import streamlit as st

    from pages.widgets import present

    present.table(
        st, pd.DataFrame({"claim": ["a long answer " * 8], "holds": ["yes"]}), hide_index=True, key="t"
    )


@pytest.mark.parametrize("presenting", [False, True])
def test_present_table_is_html_on_a_projector(presenting):
    """present.table: an st.dataframe normally, an st.table (HTML that the CSS sizes) presenting;
    st.dataframe's own arguments that st.table lacks are dropped, not raised on."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_small_table)
    at.session_state["present"] = presenting
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert (len(at.table), len(at.dataframe)) == ((1, 0) if presenting else (0, 1))


# Where the question and the figure are: the step's question (a radio group's label, wherever
# it is drawn) and the first figure of the page outside the step's box.
PLACES_JS = """(question) => {
  const figures = [...document.querySelectorAll(arguments_figure)].filter(f => f.getClientRects().length
    && !f.closest('.st-key-try_slot') && !f.closest('[data-testid="stExpander"]'));
  const labels = [...document.querySelectorAll('[data-testid="stRadio"] [data-testid="stWidgetLabel"]')]
    .filter(l => l.getClientRects().length && l.textContent.trim() === question);
  const box = el => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height}; };
  return {figure: figures.length ? box(figures[0]) : null, questions: labels.map(box)};
}""".replace("arguments_figure", repr(test_classroom.FIGURE))


def _in_view(places: dict) -> bool:
    """The question whole on screen, and the figure from just below it, 300 px of it (or all)."""
    figure, questions = places["figure"], places["questions"]
    if figure is None or not questions:
        return False
    question = questions[0]
    shown = min(figure["bottom"], HEIGHT) - max(figure["top"], 0)
    return (
        0 <= question["top"]
        and question["bottom"] <= figure["top"] + 1
        and figure["top"] < HEIGHT
        and shown >= min(figure["height"], 300) - 1
    )


@pytest.mark.browser
@pytest.mark.parametrize("path", [path for path in PAGES if path])
def test_set_up_this_view_shows_the_figure_with_its_question(server, projector, path):
    """Item 14: "Set up this view" (at the page's foot) leaves the figure it changed in view with
    the step's question above it; so does "Next step"."""
    page = projector
    open_presenting(page, server, path)
    assert test_classroom.open_try_this(page), f"/{path} has no Try this"
    expander = page.locator('[data-testid="stExpander"]', has_text="Try this")
    labels = expander.locator('[data-testid="stRadio"] [data-testid="stWidgetLabel"]')
    questions = [labels.nth(i).inner_text().strip() for i in range(labels.count())]
    presses = [
        (2, expander.get_by_role("button", name="Set up this view").nth(1)),
        (3, page.get_by_role("button", name="Next step")),
    ]
    for step, button in presses:
        button.scroll_into_view_if_needed()
        button.click()
        # The step's question comes up outside the expander (this waits out the rerun, which on
        # /digits computes the evaluation), then the script has ended.
        asked = page.locator(".st-key-try_step").get_by_text(questions[step - 1], exact=True)
        asked.wait_for(timeout=120_000)
        wait_for_app(page, timeout=120_000)
        for _ in range(40):  # the page settles (figures lay out, the scroll runs): at most 10 s
            places = page.evaluate(PLACES_JS, questions[step - 1])
            if _in_view(places):
                break
            page.wait_for_timeout(250)
        page.screenshot(path=str(SCREENSHOTS / f"projector-try-{path}-{step}.png"))
        print(f"\n/{path} step {step}: {places}")
        assert _in_view(places), f"/{path} step {step}: question or figure out of view: {places}"
        sideways = page.evaluate(MEASURE_JS)["sideways"]
        assert not sideways, f"/{path} step {step}: {sideways}"


def _radios_above_the_title(at) -> list[str]:
    """The keys of the radios drawn before the page's title, in order."""

    def walk(node):
        for child in getattr(node, "children", {}).values():
            yield child
            yield from walk(child)

    keys = []
    for element in walk(at.main):
        if element.type == "title":
            return keys
        if element.type == "radio":
            keys.append(element.key)
    raise AssertionError("the page has no title")


def test_a_step_set_up_is_asked_above_the_page_until_closed():
    """AppTest: after "Set up this view" the step's question is drawn before the page's title
    (in app.py's slot), once; "Next step" asks the next; "Close" puts it back in the expander,
    and the answer chosen is kept."""
    from conftest import open_page

    at = open_page("knn")
    assert _radios_above_the_title(at) == []
    at.button(key="knn_try_2_setup").click().run()
    assert _radios_above_the_title(at) == ["knn_try_2"]
    assert [r.key for r in at.radio].count("knn_try_2") == 1
    answer = at.radio(key="knn_try_2").options[0]
    at.radio(key="knn_try_2").set_value(answer).run()
    at.button(key="knn_try_next").click().run()
    assert _radios_above_the_title(at) == ["knn_try_3"]
    at.button(key="knn_try_close").click().run()
    assert _radios_above_the_title(at) == [] and not [b for b in at.button if b.key == "knn_try_close"]
    assert at.radio(key="knn_try_2").value == answer
