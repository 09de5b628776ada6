"""Small Streamlit helpers shared by the pages (not a page itself; app.py does not list it).

Keep only UI glue here: anything with maths belongs in ``classic``.
"""

from __future__ import annotations

import inspect
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import streamlit as st
from matplotlib.figure import Figure
from streamlit.runtime.pages_manager import PagesManager

from classic import datasets


def ensure_app_shell() -> None:
    """Make a deep link that is a fresh server's very first request run through ``app.py``.

    Streamlit starts every server in its legacy multipage mode when a folder named ``pages/``
    sits beside the main script, and leaves it only once ``st.navigation`` has been called.
    So the first request to ``/knn`` after a start runs ``pages/knn.py`` directly, without
    ``app.py``'s page config and navigation. Each page calls this first: in legacy mode it
    switches the server to ``st.navigation`` mode and reruns, which now goes through
    ``app.py`` and lands on the same page (the page hash is its URL path in both modes).
    For this to work each page file must be named after its URL path (``decision-tree.py``
    for ``/decision-tree``): the legacy mode finds pages by file name and answers any other
    URL with a "Page not found" dialog.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


Allowed = Sequence[Any] | tuple[float, float]


def _from_url(text: str, allowed: Allowed) -> Any | None:
    """The URL text as a value the widget accepts, or None when it is not one."""
    if isinstance(allowed, tuple) and len(allowed) == 2 and all(isinstance(v, (int, float)) for v in allowed):
        low, high = allowed
        try:
            value = type(low)(float(text)) if isinstance(low, float) else int(text)
        except ValueError:
            return None
        return value if low <= value <= high else None
    by_text = {str(option): option for option in allowed}
    return by_text.get(text)


def share_in_url(allowed: dict[str, Allowed]) -> None:
    """Mirror widget values into the URL so that a link reproduces the view.

    ``allowed`` maps widget keys to their options (a list) or to a numeric ``(low, high)``
    range. On the first run of the page in a session, valid values found in the URL are put
    into ``st.session_state`` before the widgets are drawn (invalid ones are ignored); call
    ``write_url`` after the widgets to copy the current values back into the URL.
    """
    flag = "_url_restored_" + "_".join(sorted(allowed))
    if st.session_state.get(flag):
        return
    st.session_state[flag] = True
    for key, options in allowed.items():
        if key in st.query_params:
            value = _from_url(st.query_params[key], options)
            if value is not None:
                st.session_state[key] = value


def write_url(*keys: str) -> None:
    """Copy the named widget values into the URL's query parameters."""
    for key in keys:
        if key in st.session_state:
            st.query_params[key] = str(st.session_state[key])


def figure_png(fig: Figure) -> bytes:
    """The figure as PNG bytes (for download buttons)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=150, bbox_inches="tight")
    return buffer.getvalue()


def download_figure(fig: Figure, filename: str, key: str, label: str = "Download figure (PNG)") -> None:
    """A download button for a matplotlib figure."""
    st.download_button(label, figure_png(fig), file_name=filename, mime="image/png", key=key)


def download_table(
    columns: dict[str, Sequence[Any]], filename: str, key: str, label: str = "Download data (CSV)"
) -> None:
    """A download button for named columns as CSV."""
    import pandas as pd

    csv = pd.DataFrame(columns).to_csv(index=False).encode()
    st.download_button(label, csv, file_name=filename, mime="text/csv", key=key)


def download_points(X: np.ndarray, y: np.ndarray, filename: str, key: str) -> None:
    """A download button for a 2-D labelled data set (x1, x2, label) as CSV."""
    download_table({"x1": X[:, 0], "x2": X[:, 1], "label": y}, filename, key)


def chart_click(chart: str, selection: str) -> tuple[float, float] | None:
    """The (x1, x2) point clicked on the Altair chart with key ``chart`` since the last rerun.

    ``selection`` is the chart's point selection. None when nothing new was clicked (a
    selection persists across reruns, so the last one seen is remembered).
    """
    picked = (st.session_state.get(chart) or {}).get("selection", {}).get(selection) or []
    memory = f"_{chart}_last_click"
    if not picked or picked == st.session_state.get(memory):
        return None
    st.session_state[memory] = picked
    return float(picked[0]["x1"]), float(picked[0]["x2"])


def points_editor(points_key: str, key: str, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """The user's points (``st.session_state[points_key]``: x1, x2, class) as an editable table.

    Rows can be added, edited and deleted; incomplete rows are ignored. Returns (X, y).
    """
    table = st.data_editor(
        st.session_state[points_key],
        num_rows="dynamic",
        key=key,
        column_config={"class": st.column_config.NumberColumn(min_value=0, max_value=n_classes - 1, step=1)},
    ).dropna()
    return table[["x1", "x2"]].to_numpy(float), table["class"].to_numpy(int)


ASSETS = Path(__file__).resolve().parents[1] / "assets"


def html_player(template: str, data: dict, label: str) -> None:
    """A self-contained HTML/JavaScript player from ``assets/``, its JSON data filled in.

    It runs in the browser (no server round trip per frame) and loads nothing from the
    network. ``label`` names the frame for screen readers.
    """
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    html = (ASSETS / template).read_text(encoding="utf-8").replace("__PLAYER_DATA__", payload)
    st.iframe(html, height="content", alt=label)


def seed_input(key: str, default: int = 0, label: str = "Random seed") -> int:
    """A seed widget: the same seed always gives the same data and results."""
    return int(
        st.number_input(
            label,
            min_value=0,
            max_value=2**31 - 1,
            value=default,
            step=1,
            key=key,
            help="The same seed gives the same data and results, so a view can be reproduced.",
        )
    )


def how_it_works(
    *code: Callable | type, formulas: Sequence[str] = (), text: str = "", expanded: bool = False
) -> None:
    """The "How it works" expander: the explanation, the formulae, and the code that ran."""
    with st.expander("How it works", expanded=expanded):
        if text:
            st.markdown(text)
        for formula in formulas:
            st.latex(formula)
        for obj in code:
            st.caption(f"`{obj.__module__}.{obj.__qualname__}`")
            st.code(inspect.getsource(obj), language="python")


@st.cache_data(show_spinner="Loading the Semeion digits…")
def _semeion() -> tuple[np.ndarray, np.ndarray]:
    return datasets.load_semeion()


@st.cache_data(show_spinner="Loading the 1984 congressional votes…")
def _house_votes() -> tuple[np.ndarray, np.ndarray, list[str]]:
    return datasets.load_house_votes()


def _or_explain(loader: Callable[[], Any], what: str) -> Any | None:
    try:
        return loader()
    except (datasets.DatasetUnavailable, ValueError) as error:
        st.error(f"The {what} data set could not be loaded.\n\n{error}")
        return None


def load_semeion() -> tuple[np.ndarray, np.ndarray] | None:
    """Semeion digits (cached), or None after showing a clear error when they cannot be had."""
    return _or_explain(_semeion, "Semeion handwritten digits")


def load_house_votes() -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    """1984 votes (cached), or None after showing a clear error when they cannot be had."""
    return _or_explain(_house_votes, "1984 congressional votes")
