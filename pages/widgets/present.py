"""Presentation mode: a projector at 1280×720 shows the controls and the main figure whole.

A sidebar toggle, bound to ``?present=1`` so a teacher can open the lecture straight in it.
It enlarges the text (≥ 18 px), trims Streamlit's paddings and header, and tells each page
(``is_on``) to draw its figures for a projector; ``chart`` draws Vega-Lite charts with 18 px labels,
``table`` small tables whose cells are 18 px and wrap.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from classic.viz.theme import FOCUS, MUTED, SELECTED
from pages.server import streamlit_private

KEY = "present"
# What a teacher may type for "on"; Streamlit's boolean binding reads only true/false.
TYPED_ON = ("1", "yes", "on")
# Labels a projector shows readably from the back of a room.
MIN_FONT = 18
_FONTS = {
    "axis": ("labelFontSize", "titleFontSize"),
    "legend": ("labelFontSize", "titleFontSize"),
    "header": ("labelFontSize", "titleFontSize"),
    "title": ("fontSize", "subtitleFontSize"),
    "text": ("fontSize",),
}

# Always on, WCAG 2.2 AA (tests/browser/test_accessibility.py):
# - Streamlit's faded grey for captions and disabled labels fails 4.5:1 contrast (1.4.3), and so
#   does a selected segmented control's red on its pink (4.2:1).
# - A keyboard focus draws a 2 px ring in FOCUS, ≥ 4.8:1 on the paper and on the sidebar (1.4.11,
#   2.4.7): Streamlit's own is a 2.2:1 shadow, and the menu's a 1.1:1 grey fill. Radios, checkboxes
#   and toggles hide their input: their label takes the ring (react-aria marks the part it draws
#   as data-focus-visible, and also a tab bar's wrapper round a focused control: not that one); a
#   text field's ring (and a number's ±) is drawn inside it, clear of
#   its box's clipping.
# - A radio's options are at least 24 px tall (2.5.8: the Try-this answers were 22 px).
# - Code and display formulas wrap rather than scroll sideways: a scrolling box must take focus
#   to be read by keyboard (2.1.1), and CSS cannot give it a tabindex. A formula wraps between
#   its terms; a term wider than the column (none at 1280 px) overflows visibly, never hidden.
# - A collapsed sidebar (Streamlit 1.67 marks it data-collapsed; narrow windows start so) slides
#   off-screen but keeps its controls focusable: hidden, they leave the Tab order (2.4.7, 2.4.11);
#   every descendant too, as a help icon sets its own visibility.
#   Hiding waits for the 0.3 s slide-out to end; opening shows them at once.
# - A chart of fixed width (the dual view's αᵢ) shrinks to its column in a narrow window instead
#   of scrolling the page sideways (1.4.10 at 320 px): Vega's SVG scales whole by its viewBox,
#   labels with their points, and its pointer targets stay the browser's own.
BASE_CSS = f"""
<style>
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] p,
label[data-testid="stWidgetLabel"][disabled], label[data-testid="stWidgetLabel"][disabled] p {{
  color: {MUTED}; opacity: 1;
}}
button[data-variant][data-selected="true"], button[data-variant][data-selected="true"] p {{ color: {SELECTED}; }}
a:focus-visible, button:focus-visible, summary:focus-visible, select:focus-visible, textarea:focus-visible,
input:not([type="checkbox"], [type="radio"]):focus-visible, [role="tab"]:focus-visible,
[role="button"]:focus-visible, [role="slider"]:focus-visible, [tabindex]:focus-visible,
[data-focus-visible="true"]:not(:has(:focus)), label:has(input:is([type="radio"], [type="checkbox"]):focus-visible) {{
  outline: 2px solid {FOCUS} !important; outline-offset: 2px; box-shadow: none;
}}
input:focus-visible, textarea:focus-visible,
[data-testid="stNumberInputContainer"] button:focus-visible {{ outline-offset: -2px; }}
[data-testid="stRadio"] label:has(input[type="radio"]) {{ min-height: 24px; align-items: center; }}
.stCode pre, .stCode code {{
  white-space: pre-wrap !important; overflow-wrap: anywhere;
}}
.katex-display > .katex, .katex-display > .katex > .katex-html {{ white-space: normal; }}
.katex-display .base {{ margin: 0.15em 0; }}
.katex-display {{ overflow: visible !important; }}
[data-testid="stSidebar"][data-collapsed="true"] [data-testid="stSidebarContent"],
[data-testid="stSidebar"][data-collapsed="true"] [data-testid="stSidebarContent"] * {{
  visibility: hidden !important; transition: visibility 0s linear 0.5s;
}}
[data-testid="stVegaLiteChart"] {{ max-width: 100%; }}
[data-testid="stVegaLiteChart"] > svg.marks {{ max-width: 100%; height: auto; }}
</style>
"""

# Presentation mode, at 1280×720. The root font is 20 px, so 1rem = 20 px and 0.9rem = 18 px.
# - Paragraph text is 1rem, except a metric's value: Streamlit draws it as markdown, and a rule
#   for every paragraph would shrink the headline number to body size (45 px → 20 px).
# - Text fields (select boxes, numbers) and inline code are 18 px (Streamlit's 0.875rem and
#   0.75em would be 17.5 px and 15 px).
# - Tables (st.table, markdown tables) wrap their cells rather than scroll sideways, and so do
#   a metric's label, value and note (Streamlit cuts them short with "…").
# - The sidebar is 300 px only while open: a fixed width on the collapsed one kept its
#   300 px as a blank column beside the page.
# - The main block loses Streamlit's 5rem side padding (100 px a side here): figures get it.
# - The header folds to no height; its buttons (open the sidebar, the menu) hang from the top of
#   the window instead of half above it, and the page keeps clear of the sidebar's button.
CSS = """
<style>
html { font-size: 20px; }
[data-testid="stAppViewContainer"] .block-container,
[data-testid="stMainBlockContainer"] {
  padding: 0.6rem 1.5rem 1rem; max-width: 100%;
}
[data-testid="stHeader"] { height: 0; min-height: 0; }
[data-testid="stMarkdownContainer"] p, [data-testid="stCaptionContainer"], label, .stMarkdown { font-size: 1rem; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p {
  font-size: 2.25rem; line-height: 1.2;
}
[data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"] p { font-size: 1rem; }
[data-testid="stMetric"] .stMarkdownEllipsis, [data-testid="stMetric"] .stMarkdownEllipsis p {
  white-space: normal; overflow: visible; text-overflow: clip;
}
[data-testid="stTable"] table, [data-testid="stMarkdownContainer"] table { font-size: 0.9rem; }
[data-testid="stTable"] th, [data-testid="stTable"] td,
[data-testid="stMarkdownContainer"] th, [data-testid="stMarkdownContainer"] td {
  font-size: 0.9rem; white-space: normal; overflow-wrap: anywhere; padding: 0.2rem 0.4rem;
}
[data-testid="stTable"] th p, [data-testid="stTable"] td p,
[data-testid="stMarkdownContainer"] th p, [data-testid="stMarkdownContainer"] td p { font-size: 0.9rem; }
[data-testid="stSidebar"] input, [data-testid="stMain"] input, [data-testid="stMain"] textarea,
[data-testid="stMarkdownContainer"] code, [data-testid="stCaptionContainer"] code {
  font-size: 0.9rem;
}
h1 { font-size: 1.6rem !important; padding-top: 0 !important; padding-bottom: 0.2rem !important; }
h2, h3 { font-size: 1.25rem !important; }
[data-testid="stSidebar"]:not([data-collapsed="true"]) { min-width: 300px; max-width: 300px; }
[data-testid="stToolbar"] { align-items: flex-start; }
[data-testid="stSidebar"][data-collapsed="true"] ~ * [data-testid="stMainBlockContainer"],
[data-testid="stSidebar"][data-collapsed="true"] ~ [data-testid="stMain"] [data-testid="stMainBlockContainer"] {
  padding-left: 3.5rem;
}
</style>
"""


def toggle() -> bool:
    """The sidebar's presentation-mode toggle (in the URL as ``present``); applies the CSS.

    The readable-contrast rules apply to every page, presenting or not.
    """
    st.html(BASE_CSS)
    _typed_on_as_true()
    on = st.sidebar.toggle(
        "Presentation mode",
        key=KEY,
        bind="query-params",
        help="Large text and figures that fit a 1280×720 projector; the link keeps it on.",
    )
    if on:
        st.html(CSS)
    return on


def _typed_on_as_true() -> None:
    """``?present=1`` (or yes/on) becomes ``?present=true`` before the toggle is seeded from it.

    Streamlit 1.67 seeds a bound widget from the link's first values (private:
    ``streamlit_private.link_seeds``) and drops a value its boolean binding cannot read, so ``1`` would leave the toggle off
    and the link without ``present``. Rewritten to ``true``, the toggle is on and the address bar
    says ``present=true``: a copied link keeps presentation mode.
    """
    with streamlit_private.link_seeds() as found:
        if found is None:
            return
        seeds, params = found
        initial = seeds.get(KEY)
        if initial and initial[-1].lower() in TYPED_ON:
            seeds[KEY] = ["true"]
            params.set_corrected_value(KEY, True, "bool_value")


def _raised(node: Any, key: str = "") -> Any:
    """A copy of a spec with every number-valued ``fontSize``/``…FontSize`` below ``MIN_FONT``
    raised to it; the data (``data``, ``datasets``) is shared, not copied or searched."""
    if key in ("data", "datasets"):
        return node
    if key.endswith(("fontSize", "FontSize")) and isinstance(node, (int, float)):
        return max(node, MIN_FONT)
    if isinstance(node, dict):
        return {name: _raised(value, name) for name, value in node.items()}
    if isinstance(node, list):
        return [_raised(item) for item in node]
    return node


def projector_spec(spec: dict) -> dict:
    """A copy of ``spec`` whose every label is at least 18 px (for ``chart``).

    Axis, legend, facet-header and chart titles and labels and text marks default to 18 px
    (Vega's own are 10–13 px, Streamlit's theme 0.75 rem) and any smaller font the spec sets
    is raised; a larger one is kept.
    """
    spec = _raised(spec)
    config = spec.setdefault("config", {})
    for part, keys in _FONTS.items():
        section = config.setdefault(part, {})
        for key in keys:
            section.setdefault(key, MIN_FONT)
    return spec


def chart(where: Any, spec: dict, **kwargs: Any) -> Any:
    """``where.vega_lite_chart(spec, **kwargs)`` (``where``: ``st``, a column, a tab, …), with
    labels a projector shows readably (``projector_spec``) in presentation mode.

    Every page draws its Vega-Lite charts through this, so no chart keeps Vega's small fonts in
    front of a class. An ``alt`` replaces the spec's own description (Streamlit would log a
    warning with a stack trace on every rerun).
    """
    if kwargs.get("alt") and "description" in spec:
        spec = {key: value for key, value in spec.items() if key != "description"}
    return where.vega_lite_chart(projector_spec(spec) if is_on() else spec, **kwargs)


# What st.table takes of st.dataframe's arguments.
_TABLE_ARGS = ("hide_index", "width", "height", "alt")


def table(where: Any, data: Any, **kwargs: Any) -> Any:
    """``where.dataframe(data, **kwargs)``, or in presentation mode ``where.table``: HTML whose
    cells the CSS sets at 18 px and wraps, so nothing is cut off.

    st.dataframe draws its cells on a canvas at Streamlit's own size, which no CSS reaches, and
    cuts a long cell short. For the small tables of a lesson (a split worked by hand, claims and
    their answers); a data set of hundreds of rows stays an st.dataframe.
    """
    if not is_on():
        return where.dataframe(data, **kwargs)
    return where.table(data, **{key: value for key, value in kwargs.items() if key in _TABLE_ARGS})


def is_on() -> bool:
    """Whether the page is being presented (pages draw larger labels and smaller figures)."""
    return bool(st.session_state.get(KEY, False))
