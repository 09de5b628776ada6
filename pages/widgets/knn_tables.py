"""The k player's neighbour tables: which one the browser gets on this run, if any.

A table is sent once per browser tab (the player keeps the last four by id). A full table is
slow to find and to send at n = 1000 (docs/measurements.md), so new data first get a preview of 64 neighbours a cell, enough for the map at the current k;
the player asks for the full table (its ``need`` trigger) once it has painted and the page's
run is over (it watches the run's state Streamlit marks on the app's root element; without
that mark it asks at once, which restarts the run: slower, never wrong).
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from classic.viz import knn as view
from pages.widgets import shared

SENT = "knn_sent"  # the ids of the tables this session sent, newest last


def table_for(
    X, y, scale, offset, metric: str, p: float, weighted: bool, box, k: int
) -> tuple[dict, bytes | None]:
    """The header's table fields (``tableId``, ``K``, ``fullId``, ``fullK``) and the table to send
    with them (None when the browser holds it)."""
    args = (X, y, scale, offset, metric, p, weighted, np.asarray(box))
    now, full = view.table_sizes(len(X), weighted, k)
    ids = {K: view.table_id(*args, K) for K in {now, full}}
    sent, need = st.session_state.setdefault(SENT, []), (st.session_state.get("knn_player") or {}).get("need")
    if ids[full] in sent or need == ids[full]:
        now = full  # the browser has the full table, or asks for it
    fields = {"tableId": ids[now], "K": now, "fullId": ids[full], "fullK": full}
    if ids[now] in sent and need != ids[now]:
        return fields, None
    sent[:] = [i for i in sent if i != ids[now]][-3:] + [ids[now]]  # the player keeps four
    return fields, shared.knn_table(*args, now)
