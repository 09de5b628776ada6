"""The tree page's views beside its player: small tables, a split worked by hand, the post's
hand-drawn tree beside ID3's, each with its hidden version for a question asked. Streamlit glue
over ``classic.lessons.tree`` and friends."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from classic.lessons import tree as lesson
from classic.viz import tree as tree_export
from classic.viz import tree_figures as figures
from pages.server import url
from pages.widgets import present
from pages.widgets.lesson import withheld


def show_table(rows: Any) -> None:
    """A small table: HTML in presentation mode (the projector's font, long cells wrapped, never cut or
    scrolled sideways), else Streamlit's data grid.

    st.table reads every header and cell as Markdown: its texts (a file's names and values among
    them) are escaped, so that each is shown as typed ("-" is no bullet, a link no link).
    """
    if not present.is_on():
        st.dataframe(rows, hide_index=True)
        return
    frame = pd.DataFrame(rows).rename(columns=lambda name: url.escape_markdown(str(name)))
    st.table(frame.map(lambda v: url.escape_markdown(v) if isinstance(v, str) else v), hide_index=True)


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


def post_beside_id3(X: Any, y: Any, names: Sequence[str], record: Any, id3_hidden: bool = False) -> None:
    """Arya's data: the post's hand-drawn tree and ID3's, ``record``'s path outlined in both, at one scale:
    side by side, or one above the other when presenting (large enough to read at the back).

    ``id3_hidden``: the post's tree alone, while a question on ID3's tree is asked.
    """
    with st.container(border=True):
        st.markdown(lesson.ARYA_HEADING_ALONE if id3_hidden else lesson.ARYA_HEADING)
        trees = lesson.arya_trees(X, y, names)[: 1 if id3_hidden else None]
        dots = [tree_export.to_dot(tree, highlight=record).source for _, tree in trees]
        widths = [natural_width(dot) for dot in dots]
        if present.is_on() or id3_hidden:  # one drawing: at the projector's scale, never stretched
            places = [
                st.columns([PROJECTOR_SCALE * w, max(PROJECTOR_WIDTH - PROJECTOR_SCALE * w, 1)])[0]
                for w in widths
            ]
        else:  # columns as wide as the drawings: both are drawn at one scale
            places = st.columns(widths)
        for place, (title, tree), dot in zip(places, trees, dots, strict=True):
            place.markdown(f"{title}: {lesson.tree_caption(tree, X, y)}")
            place.graphviz_chart(dot, width="stretch")
        if id3_hidden:
            withheld(st, "ID3's own tree")
        else:
            st.caption(lesson.arya_note(*(tree for _, tree in trees)))


SMALL_TABLE = 40  # rows a table may have to be drawn whole on a projector (the sources' have 6 to 40)


def data_table(X: Any, y: Any, names: Sequence[str]) -> None:
    """The training table, the question's set-up while the tree grown from it is hidden: whole when
    small, else in a scrolling grid."""
    frame = lesson.data_frame(X, y, names)
    if len(frame) <= SMALL_TABLE:
        show_table(frame)
    else:
        st.dataframe(frame, hide_index=True, height=240)


def data_and_rules(model: Any, X: Any, y: Any, names: Sequence[str], rules_hidden: bool = False) -> None:
    """The training table, the tree as rules (one per leaf) and its DOT source to download
    (``rules_hidden``: the table alone, while a question on the tree is asked)."""
    st.dataframe(lesson.data_frame(X, y, names), hide_index=True, height=240)
    if rules_hidden:
        withheld(st, "The tree, as rules and as DOT,")
        return
    rules, dot = model.rules(), tree_export.to_dot(model)
    st.write(lesson.rules_heading(len(rules)))
    st.code("\n".join(rules[: lesson.MAX_RULES]), language=None)
    note = lesson.dot_note(dot)
    st.download_button("Tree (DOT)", dot.source, "tree.dot", key="tree_dot", help=note, on_click="ignore")
