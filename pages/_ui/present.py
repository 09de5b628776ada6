"""Presentation mode: a projector at 1280×720 shows the controls and the main figure whole.

A sidebar toggle, bound to ``?present=1`` so a teacher can open the lecture straight in it.
It enlarges the text (≥ 18 px), trims Streamlit's paddings and header, and tells each page
(``is_on``) to draw its figures for a projector.
"""

from __future__ import annotations

import streamlit as st

from classic.viz.theme import MUTED

KEY = "present"

# Always on: Streamlit's faded grey for captions and disabled labels fails WCAG's 4.5:1 contrast.
BASE_CSS = f"""
<style>
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] p,
label[data-testid="stWidgetLabel"][disabled], label[data-testid="stWidgetLabel"][disabled] p {{
  color: {MUTED}; opacity: 1;
}}
</style>
"""

CSS = """
<style>
html { font-size: 20px; }
[data-testid="stAppViewContainer"] .block-container,
[data-testid="stMainBlockContainer"] { padding-top: 0.6rem; padding-bottom: 1rem; max-width: 100%; }
[data-testid="stHeader"] { height: 0; min-height: 0; }
[data-testid="stMarkdownContainer"] p, [data-testid="stCaptionContainer"], label, .stMarkdown { font-size: 1rem; }
h1 { font-size: 1.6rem !important; padding-top: 0 !important; padding-bottom: 0.2rem !important; }
h2, h3 { font-size: 1.25rem !important; }
[data-testid="stSidebar"] { min-width: 300px; max-width: 300px; }
</style>
"""


def toggle() -> bool:
    """The sidebar's presentation-mode toggle (in the URL as ``present``); applies the CSS.

    The readable-contrast rules apply to every page, presenting or not.
    """
    st.html(BASE_CSS)
    if KEY not in st.session_state and st.query_params.get(KEY) in ("1", "yes", "on"):
        # A teacher types ?present=1; Streamlit's boolean binding reads only true/false.
        st.session_state[KEY] = True
    on = st.sidebar.toggle(
        "Presentation mode",
        key=KEY,
        bind="query-params",
        help="Large text and figures that fit a 1280×720 projector; the link keeps it on.",
    )
    if on:
        st.html(CSS)
    return on


def is_on() -> bool:
    """Whether the page is being presented (pages draw larger labels and smaller figures)."""
    return bool(st.session_state.get(KEY, False))
