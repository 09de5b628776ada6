"""Every access to Streamlit's private internals, in one place.

The app relies on a few things Streamlit 1.67 does not promise: where a bound widget's link values
wait before the widget is seeded, the switch of its legacy page mode, whether a run is a history
navigation, and two methods it patches to refuse what a browser must not do. Each function here is
one such access, and ``tests/test_streamlit_private.py`` holds a canary test for each that fails
when an upgrade changes what it relies on (requirements.txt pins Streamlit for this reason).
Nothing else in the app imports ``streamlit.runtime`` or names a private attribute (a test checks).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from streamlit.logger import get_logger
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import get_script_run_ctx

_LOG = get_logger(__name__)


@contextmanager
def link_seeds() -> Iterator[tuple[dict[str, list[str]], Any] | None]:
    """The link values bound widgets are about to be seeded from (``QueryParams.
    _initial_query_params``, key → values), with the query parameters, while they may be
    changed; None outside a script run."""
    ctx = get_script_run_ctx()
    if ctx is None:
        yield None
        return
    with ctx.session_state.query_params() as params:
        yield params._initial_query_params, params


def is_history_navigation() -> bool:
    """Whether this run is the browser's back or forward button (a URL the session had)."""
    return bool(getattr(get_script_run_ctx(), "is_history_navigation", False))


def in_legacy_pages_mode() -> bool:
    """Whether the server still runs pages found in ``pages/`` by file name (before any
    ``st.navigation``), as every server starts when a folder named ``pages/`` sits beside the
    main script."""
    return bool(PagesManager.uses_pages_directory)


def leave_legacy_pages_mode() -> None:
    """What Streamlit's first ``st.navigation`` call does: the server leaves its legacy mode."""
    PagesManager.uses_pages_directory = False


def unreadable_widget_states_are_absent() -> None:
    """A widget value the widget's own deserializer cannot read counts as no value (the default).

    Streamlit 1.67 deserializes what the browser sent before the script runs (runtime/state/
    session_state.py, ``WStates.__getitem__``), for the callbacks, without checking it: a data
    editor's state sent as ``[1, 2, 3]``, or as a ``json_value`` instead of a ``string_value``,
    raised in Streamlit itself, so no page could catch it. Here it is dropped, with a log line,
    and the widget shows its default, as if the browser had sent nothing.
    """
    from streamlit.runtime.state.session_state import Value, WStates

    read = WStates.__getitem__
    if getattr(read, "_classic_guard", False):
        return

    def checked(self: WStates, key: str) -> Any:
        try:
            return read(self, key)
        except KeyError:
            raise
        except Exception as error:  # noqa: BLE001 (any deserializer's error: the value is unreadable)
            if isinstance(self.states.get(key), Value):
                raise
            _LOG.warning("Ignored a widget value the browser sent that %s cannot read (%s)", key, error)
            raise KeyError(key) from None  # (left in place: callers may be iterating over the states)

    checked._classic_guard = True
    WStates.__getitem__ = checked


def refuse_cache_clear() -> None:
    """Make Streamlit's ``clear_cache`` message clear only the sender's session state.

    Streamlit 1.67 (runtime/app_session.py, ``_handle_clear_cache_request``) honours the message
    from any connection and empties ``st.cache_data`` and ``st.cache_resource`` for every session
    (there is no setting for it): one student's console, in a loop, would throw away what every
    session shares (the warm start) again and again. The caches are bounded and expire by
    themselves; nobody using this app needs to empty them from a browser.
    """
    from streamlit.runtime.app_session import AppSession

    if getattr(AppSession._handle_clear_cache_request, "_classic_guard", False):
        return

    def own_session_only(self: AppSession) -> None:
        _LOG.warning("Refused a clear_cache message from session %s: cleared its own state only", self.id)
        self._session_state.clear()

    own_session_only._classic_guard = True
    AppSession._handle_clear_cache_request = own_session_only
