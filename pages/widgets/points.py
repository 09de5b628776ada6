"""The user's own 2-D labelled points: click to place, edit as a table, CSV in and out, in the link.

``user_points(page, n_classes, default, class_names, least)`` is the whole widget, for every
page that lets students bring their own points (the perceptron, k-NN, the decision tree and
/compare):

- a chart to click on: each click adds a point of the class chosen beside it; "Undo last" and
  "Clear" buttons;
- an expander with the points as an editable table, a CSV upload (columns x1, x2, label; read
  by ``classic.tables.parse_points_csv``, errors shown as text) and a CSV download;
- the points live in ``st.session_state[f"{page}_points"]`` (a DataFrame: x1, x2, class) and
  travel in the link as one query parameter ``{page}_points``: ``class_x1_x2`` per point
  joined by ``~`` (for example ``0_0.12_-1.5~1_0.9_0.4``), coordinates rounded to 2 decimals,
  so up to ``MAX_URL_POINTS`` points fit in an ordinary URL. Points are rounded the same way as they come in, so the
  session and the link hold the very same numbers. A link whose points cannot be read shows
  a warning saying why and the default points.

``chart_click`` and ``points_editor`` are the two parts other pages may use alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from classic.lessons.points import YOURS as YOURS  # the data menus' name for the user's own points
from classic.tables import COORDINATES, MAX_COORDINATE, parse_points_csv, points_problem
from classic.viz import theme
from pages.server import guard, url
from pages.server.url import code_span, escape_markdown
from pages.widgets.downloads import table_csv

Points = tuple[np.ndarray, np.ndarray]
MAX_URL_POINTS = 300
DECIMALS = 2


def encode_points(X: np.ndarray, y: np.ndarray) -> str:
    """The compact URL text of labelled 2-D points (coordinates to 2 decimals)."""

    def number(v: float) -> str:
        return np.format_float_positional(round(float(v), DECIMALS) + 0.0, trim="-")

    return "~".join(f"{int(c)}_{number(a)}_{number(b)}" for (a, b), c in zip(X, y, strict=True))


def decode_points(text: str, n_classes: int) -> Points:
    """Points from ``encode_points``' text; ValueError saying what is wrong otherwise."""
    items = [item for item in text.split("~") if item]
    if len(items) > MAX_URL_POINTS:
        raise ValueError(f"{len(items)} points; a link holds at most {MAX_URL_POINTS}")
    X, y = np.zeros((len(items), 2)), np.zeros(len(items), dtype=np.int64)
    for k, item in enumerate(items):
        parts = item.split("_")
        try:
            c, a, b = int(parts[0]), float(parts[1]), float(parts[2])
        except (ValueError, IndexError):
            raise ValueError(f"point {k + 1} is not class_x1_x2") from None
        if len(parts) != 3 or not 0 <= c < n_classes:
            raise ValueError(f"point {k + 1} is not class_x1_x2 with a class from 0 to {n_classes - 1}")
        if not (np.isfinite([a, b]).all() and max(abs(a), abs(b)) <= MAX_COORDINATE):
            raise ValueError(f"point {k + 1}: {COORDINATES}")  # a points file's words
        X[k], y[k] = (a, b), c
    return X.round(DECIMALS), y


def _frame(X: np.ndarray, y: np.ndarray) -> pd.DataFrame:
    X = np.asarray(X, dtype=float).reshape(-1, 2).round(DECIMALS)
    return pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1], "class": np.asarray(y, dtype=np.int64)})


def picked(chart: str, selection: str, fields: Sequence[str]) -> tuple[float, ...] | None:
    """The ``fields`` of the first item of point selection ``selection`` on the chart with key
    ``chart``, each a finite number; None when there is no such item.

    What a chart sends is untrusted: a click beside every point (on a region drawn under them)
    selects an item without the fields, and a value may be anything. None, never an exception.
    """
    try:
        first = st.session_state[chart]["selection"][selection][0]
        values = tuple(float(first[name]) for name in fields)
    except (KeyError, IndexError, TypeError, ValueError, OverflowError):
        return None
    return values if all(math.isfinite(v) for v in values) else None


def chart_click(chart: str, selection: str) -> tuple[float, float] | None:
    """The (x1, x2) point clicked on the Altair chart with key ``chart`` since the last rerun.

    ``selection`` is the chart's point selection. None when nothing new was clicked (a
    selection persists across reruns, so the last one seen is remembered) or the click
    carries no point (see ``picked``).
    """
    point = picked(chart, selection, ("x1", "x2"))
    memory = f"_{chart}_last_click"
    if point is None or point == st.session_state.get(memory) or max(map(abs, point)) > MAX_COORDINATE:
        return None
    st.session_state[memory] = point
    return point


def add_point(points: pd.DataFrame, click: tuple[float, float], c: int) -> pd.DataFrame:
    """``points`` (x1, x2, class) with the clicked point (rounded as the link holds it) of class
    ``c`` added, if it fits within a points file's limit (a note when it does not)."""
    if not guard.room_for(len(points), "a click"):
        return points
    return pd.concat([points, _frame([click], [c])], ignore_index=True)


def _refuse(key: str, why: str) -> None:
    """Drop the table's edits (a new editor, keyed afresh, shows the points before them) and say why."""
    st.session_state[f"_{key}_version"] = st.session_state.get(f"_{key}_version", 0) + 1
    st.session_state[f"_{key}_refused"] = why
    st.rerun()


def points_editor(points_key: str, key: str, n_classes: int) -> Points:
    """The user's points (``st.session_state[points_key]``: x1, x2, class) as an editable table.

    Rows can be added, edited and deleted; incomplete rows are ignored. Returns (X, y).

    The column limits bind only the browser: the server checks the edits too, the same limits as
    a points file (``classic.tables.points_problem``), their count before Streamlit applies them.
    Edits beyond a limit are dropped whole (the table shows the points before them), with a note.
    """
    base, refused = st.session_state[points_key], st.session_state.pop(f"_{key}_refused", None)
    if refused:
        st.warning(f"Your edits to the table were not used: {escape_markdown(refused)}.")
    version = st.session_state.get(f"_{key}_version", 0)
    widget = f"{key}_{version}" if version else key
    if why := guard.table_edits(st.session_state.get(widget), len(base)):
        _refuse(key, why)
    table = guard.guarded_component(
        lambda: st.data_editor(
            base,
            num_rows="dynamic",
            key=widget,
            column_config={
                "x1": st.column_config.NumberColumn(min_value=-MAX_COORDINATE, max_value=MAX_COORDINATE),
                "x2": st.column_config.NumberColumn(min_value=-MAX_COORDINATE, max_value=MAX_COORDINATE),
                "class": st.column_config.NumberColumn(min_value=0, max_value=n_classes - 1, step=1),
            },
        ),
        "the table",
    )
    try:
        table = table[["x1", "x2", "class"]].dropna()
        X, labels = table[["x1", "x2"]].to_numpy(float), table["class"].to_numpy(float)
    except (TypeError, ValueError, KeyError):
        _refuse(key, "the table's edits from the browser are not numbers")
    if why := points_problem(X, labels, n_classes):
        _refuse(key, why)
    return X, labels.astype(np.int64)


def _placing_chart(points: pd.DataFrame, names: Sequence[str], key: str) -> None:
    """The points over a fine grid of faint spots: a click selects the nearest spot."""
    xy = points[["x1", "x2"]].to_numpy(float)
    low = np.minimum(xy.min(axis=0) - 0.2, -0.5) if len(xy) else np.array([-0.5, -0.5])
    high = np.maximum(xy.max(axis=0) + 0.2, 1.5) if len(xy) else np.array([1.5, 1.5])
    gx, gy = np.meshgrid(np.linspace(low[0], high[0], 41), np.linspace(low[1], high[1], 41))
    spots = pd.DataFrame({"x1": gx.ravel().round(DECIMALS), "x2": gy.ravel().round(DECIMALS)})
    spot = alt.selection_point(name="spot", on="click", nearest=True, fields=["x1", "x2"], clear=False)
    x = alt.X("x1", title="x₁", scale=alt.Scale(domain=[float(low[0]), float(high[0])], nice=False))
    y = alt.Y("x2", title="x₂", scale=alt.Scale(domain=[float(low[1]), float(high[1])], nice=False))
    tip = [alt.Tooltip("x1", title="x₁", format=".2f"), alt.Tooltip("x2", title="x₂", format=".2f")]
    grid = (
        alt.Chart(spots)
        .mark_square(size=60, opacity=0.04, color=theme.TIE)
        .encode(x=x, y=y, tooltip=tip)
        .add_params(spot)
    )
    shown = points.assign(label=[names[int(c)] for c in points["class"]])
    dots = (
        alt.Chart(shown)
        .mark_point(size=90, filled=True, stroke=theme.INK, strokeWidth=0.7, opacity=1)
        .encode(
            x="x1:Q",
            y="x2:Q",
            color=alt.Color(
                "label:N",
                title=None,
                scale=alt.Scale(domain=list(names), range=theme.class_colors(len(names))),
                legend=alt.Legend(orient="bottom"),
            ),
            shape=alt.Shape("label:N", scale=alt.Scale(domain=list(names)), legend=None),
            tooltip=[*tip, alt.Tooltip("label", title="class")],
        )
    )
    st.altair_chart(
        (grid + dots).properties(width=420, height=380),
        on_select="rerun",
        selection_mode="spot",
        key=key,
        width="content",
        alt=f"Your {len(points)} points on a plane; click to add a point of the chosen class.",
    )


def _start(page: str, n_classes: int, default: Points) -> None:
    """The session's points: from the link if it has readable ones, else the default."""
    state = f"{page}_points"
    # Read here, not by a widget: url.note_ignored_params must not judge the link's points
    # against the DataFrame in the session (it would call every changed set "ignored").
    (st.session_state.get(url._AT_START) or {}).pop(state, None)
    if state in st.session_state:
        return
    st.session_state[state] = _frame(*default)
    text = st.query_params.get(state)
    if text is None:
        return
    try:
        st.session_state[state] = _frame(*decode_points(text, n_classes))
    except ValueError as error:
        st.warning(
            f"The points in this link could not be read ({escape_markdown(error)}): "
            "showing the default points instead."
        )


def _upload(page: str, n_classes: int) -> None:
    """A CSV file of points replaces the current ones (a new file once, not at every rerun)."""
    file = st.file_uploader(
        "Upload points (CSV: x1, x2, label)", type=["csv", "txt"], key=f"{page}_upload", max_upload_size=1
    )
    if file is None or st.session_state.get(f"_{page}_upload_id") == file.file_id:
        return
    st.session_state[f"_{page}_upload_id"] = file.file_id
    try:
        X, y = parse_points_csv(file.getvalue(), max_classes=n_classes)
    except ValueError as error:
        st.error(f"{code_span(file.name)} could not be read: {escape_markdown(error)}")
        return
    st.session_state[f"{page}_points"] = _frame(X, y)
    st.rerun()  # so that the chart above shows the new points too


def user_points(
    page: str, n_classes: int, default: Points, class_names: Sequence[str] | None = None, least: int = 0
) -> Points:
    """Render the your-own-points widget and return the points (X float (n, 2), y int 0..n_classes−1).

    ``page`` prefixes every key (``{page}_points`` in the session and the link,
    ``{page}_place`` the chart, ``{page}_click_class`` the class chooser, ``{page}_undo``,
    ``{page}_clear``, ``{page}_editor``, ``{page}_upload``); ``default`` is shown on a first
    visit without points in the link. With fewer than ``least`` points the page stops after the
    widget, with a note asking for more.
    """
    names = list(class_names) if class_names is not None else [f"class {c}" for c in range(n_classes)]
    state = f"{page}_points"
    _start(page, n_classes, default)
    click = chart_click(f"{page}_place", "spot")
    if click is not None:
        st.session_state[state] = add_point(
            st.session_state[state], click, st.session_state.get(f"{page}_click_class", 0)
        )
    with st.container(border=True):
        chart_column, tools = st.columns([3, 2], vertical_alignment="center")
        with tools:
            st.markdown(
                "**Place your points**: choose a class, then click on the chart to add a point there."
            )
            st.segmented_control(
                "Clicking adds",
                list(range(n_classes)),
                format_func=lambda c: names[c],
                key=f"{page}_click_class",
                default=0,
                required=True,
                bind="query-params",
            )
            st.button(
                "Undo last",
                icon=":material/undo:",
                key=f"{page}_undo",
                disabled=st.session_state[state].empty,
                on_click=lambda: st.session_state.update({state: st.session_state[state].iloc[:-1]}),
            )
            st.button(
                "Clear",
                icon=":material/delete:",
                key=f"{page}_clear",
                on_click=lambda: st.session_state.update({state: st.session_state[state].iloc[:0]}),
            )
        with chart_column:
            _placing_chart(st.session_state[state], names, f"{page}_place")
        with st.expander("Edit the points as a table, upload or download them (CSV)"):
            _upload(page, n_classes)
            X, y = points_editor(state, f"{page}_editor", n_classes)
            X, y = X.round(DECIMALS), y
            st.download_button(
                "Download these points (CSV)",
                table_csv(_frame(X, y).rename(columns={"class": "label"})),
                file_name=f"{page}-points.csv",
                mime="text/csv",
                key=f"{page}_points_download",
            )
    if len(X) <= MAX_URL_POINTS:
        st.query_params[state] = encode_points(X, y)
    else:
        st.query_params.pop(state, None)
        st.caption(f"More than {MAX_URL_POINTS} points: the link does not carry them (download the CSV).")
    if len(X) < least:
        st.warning(f"At least {least} points are needed: click on the chart to add some.")
        url.stop()
    return X, y
