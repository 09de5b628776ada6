"""The user's own 2-D points: an editable table and clicks on an Altair chart."""

from __future__ import annotations

import numpy as np
import streamlit as st


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
