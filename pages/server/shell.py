"""The app shell: deep links that work as a fresh server's first request."""

from __future__ import annotations

import streamlit as st

from pages.server import streamlit_private, url


def ensure_app_shell() -> None:
    """Make a deep link that is a fresh server's very first request run through ``app.py``, and
    record the link's query parameters for ``url.note_ignored_params`` (see pages/server/url.py).

    Streamlit starts every server in its legacy multipage mode when a folder named ``pages/``
    sits beside the main script, and leaves it only once ``st.navigation`` has been called.
    So the first request to ``/knn`` after a start runs ``pages/knn.py`` directly, without
    ``app.py``'s page config and navigation. Each page calls this first: in legacy mode it
    switches the server to ``st.navigation`` mode and reruns, which now goes through
    ``app.py`` and lands on the same page (the page hash is its URL path in both modes).
    For this to work each page file must be named after its URL path (``decision-tree.py``
    for ``/decision-tree``): the legacy mode finds pages by file name and answers any other
    URL with a "Page not found" dialog.

    The switch is private Streamlit state (``streamlit_private``, with its canary test).
    """
    if streamlit_private.in_legacy_pages_mode():
        leave_legacy_mode()
        st.rerun()
    url.start_page()


def leave_legacy_mode() -> None:
    """What Streamlit's first ``st.navigation`` call does: the server leaves its legacy mode.

    The server's lifespan (pages/server/warm.py) calls this before the first connection, so a deep
    link runs ``app.py`` at once; ``ensure_app_shell`` still covers a script run without it
    (AppTest resets the mode for every test).
    """
    streamlit_private.leave_legacy_pages_mode()
