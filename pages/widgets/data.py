"""The UCI data sets, cached per server, with a clear message when they cannot be had.

Only the page that needs a file shows the message; the others never load it. Every way of not
having it is caught: ``DatasetUnavailable`` (no copy, no network, a bad ``$CLASSIC_DATA_HOME``),
``ValueError`` (a damaged file) and any ``OSError`` the loader did not foresee (a permission
or I/O error), so none reaches the user as a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import streamlit as st

from classic import datasets


@st.cache_data(show_spinner="Loading the Semeion digits…")
def _semeion() -> tuple[np.ndarray, np.ndarray]:
    return datasets.load_semeion()


@st.cache_data(show_spinner="Loading the 1984 congressional votes…")
def _house_votes() -> tuple[np.ndarray, np.ndarray, list[str]]:
    return datasets.load_house_votes()


# A failure is remembered this long: offline, a load tries two addresses with a 30 s timeout
# each, which must not happen again on every rerun of every session.
RETRY_SECONDS = 60


@st.cache_data(ttl=RETRY_SECONDS, show_spinner=False)
def _failure(what: str, _loader: Callable[[], Any]) -> str | None:
    """Why ``_loader`` failed (remembered ``RETRY_SECONDS``), or None once it has loaded (and its
    own cache then keeps the data)."""
    try:
        _loader()
    except (datasets.DatasetUnavailable, ValueError, OSError) as error:
        return str(error)
    return None


def _or_explain(loader: Callable[[], Any], what: str) -> Any | None:
    why = _failure(what, loader)
    if why is None:
        return loader()
    # The message quotes file paths, which may hold Markdown characters: show it as text.
    st.error(f"The {what} data set could not be loaded.")
    st.text(why)
    return None


def load_semeion() -> tuple[np.ndarray, np.ndarray] | None:
    """Semeion digits (cached), or None after showing a clear error when they cannot be had."""
    return _or_explain(_semeion, "Semeion handwritten digits")


def load_house_votes() -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    """1984 votes (cached), or None after showing a clear error when they cannot be had."""
    return _or_explain(_house_votes, "1984 congressional votes")
