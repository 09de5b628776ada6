"""The tree page's views beside its player: small tables, a split worked by hand, the post's
hand-drawn tree beside ID3's. Streamlit glue over ``classic.lessons.tree`` and friends."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import streamlit as st

from classic.lessons import tree as lesson
from classic.viz import tree as tree_export
from classic.viz import tree_figures as figures
from pages.widgets import present


def show_table(rows: Any) -> None:
    """A small table: HTML in presentation mode (the projector's font, long cells wrapped, never cut or
    scrolled sideways), else Streamlit's data grid."""
    (st.table if present.is_on() else st.dataframe)(rows, hide_index=True)


def worked_by_hand(model: Any, step: int, base: float, slides: tuple | None) -> None:
    """Split ``step`` (from 1) in an expander: every candidate's branch terms, in log ``base``;
    ``slides`` (the HasKids table X, y) adds the CS 886 slides' unit slip beside the right gain."""
    worked = figures.kept_steps(model)[step - 1]
    with st.expander(f"Split {step} worked by hand: every branch's term", expanded=len(worked.columns) <= 4):
        show_table(figures.split_terms(worked, base))
        if slides is not None:
            st.markdown(lesson.slides_slip(*slides))


@st.cache_data(max_entries=16, show_spinner=False)
def natural_width(source: str) -> float:
    """The width graphviz lays a DOT drawing out at (points), or 1 when it cannot be laid out here."""
    try:
        svg = tree_export.render_dot(source).decode()
    except (FileNotFoundError, ValueError):
        return 1.0
    found = re.search(r'<svg width="([0-9.]+)pt"', svg)
    return float(found.group(1)) if found else 1.0


# Streamlit draws a graphviz chart's text at 0.6 rem (12 px when presenting) whatever the DOT says,
# scaled with the drawing: drawn at 1.5 × its layout width (or more), it reads at 18 px.
PROJECTOR_SCALE = 1.6  # a margin over 1.5: the browser lays out a little narrower than dot
PROJECTOR_WIDTH = 920  # px: the main column at 1280×720 with the presenting sidebar


def post_beside_id3(X: Any, y: Any, names: Sequence[str], record: Any) -> None:
    """Arya's data: the post's hand-drawn tree and ID3's, ``record``'s path outlined in both, at one scale:
    side by side, or one above the other when presenting (large enough to read at the back)."""
    with st.container(border=True):
        st.markdown(lesson.ARYA_HEADING)
        trees = lesson.arya_trees(X, y, names)
        dots = [tree_export.to_dot(tree, highlight=record).source for _, tree in trees]
        widths = [natural_width(dot) for dot in dots]
        if present.is_on():
            places = [
                st.columns([PROJECTOR_SCALE * w, max(PROJECTOR_WIDTH - PROJECTOR_SCALE * w, 1)])[0]
                for w in widths
            ]
        else:  # columns as wide as the drawings: both are drawn at one scale
            places = st.columns(widths)
        for place, (title, tree), dot in zip(places, trees, dots, strict=True):
            place.markdown(f"{title}: {lesson.tree_caption(tree, X, y)}")
            place.graphviz_chart(dot, width="stretch")
        st.caption(lesson.arya_note(*(tree for _, tree in trees)))


def data_and_rules(model: Any, X: Any, y: Any, names: Sequence[str]) -> None:
    """The training table, the tree as rules (one per leaf) and its DOT source to download."""
    st.dataframe(lesson.data_frame(X, y, names), hide_index=True, height=240)
    rules, dot = model.rules(), tree_export.to_dot(model)
    st.write(lesson.rules_heading(len(rules)))
    st.code("\n".join(rules[: lesson.MAX_RULES]), language=None)
    note = lesson.dot_note(dot)
    st.download_button("Tree (DOT)", dot.source, "tree.dot", key="tree_dot", help=note, on_click="ignore")
