"""Widget values mirrored into the URL, so that a link reproduces the view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

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
