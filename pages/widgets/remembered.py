"""What a browser remembers, in the browser itself (``localStorage``), never in a link: a phone's
identity, the teacher's key once the teacher link has been opened, the lesson (deck) a teacher
prepares.

A link is forwarded, photographed on a projector, pasted into a chat; a browser's own storage is
not. So a forwarded /join link joins as a new phone while a reload keeps the phone's answers, and
the teacher's key leaves the address bar as soon as the teacher link has been read.

``remembered(name, key)`` mounts a tiny component (``st.components.v2``, no frame, nothing
drawn) that reads the browser's value under ``name`` and sends it back once: None until the
browser has answered (its answer reruns the page), then the text kept ("" for none). ``write``
stores a value first; ``forget`` removes it. Whatever comes back is checked by the caller, like
every value a browser sends.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

_JS = """
export default function (component) {
  const { data, setStateValue } = component;
  const store = (() => { try { return window.localStorage; } catch (e) { return null; } })();
  if (store && data.forget) store.removeItem(data.name);
  else if (store && typeof data.write === "string") store.setItem(data.name, data.write);
  const kept = store ? store.getItem(data.name) || "" : "";
  if (kept !== data.heard && !(data.quiet && kept === "")) setStateValue("value", kept.slice(0, data.limit));
}
"""


@st.cache_resource
def _component():
    return st.components.v2.component("classic_remembered", html="", js=_JS)


def remembered(
    name: str, key: str, write: str | None = None, forget: bool = False, quiet: bool = False, limit: int = 200
) -> str | None:
    """The text this browser keeps under ``name`` ("" for none), or None until it has said;
    ``quiet``: a browser that keeps nothing says nothing (no rerun for the many who have none);
    ``limit``: the most characters it sends back (an id or a key is short; a deck is not)."""
    heard = _value(key)
    _component()(
        data={"name": name, "write": write, "forget": forget, "heard": heard, "quiet": quiet, "limit": limit},
        key=key,
        default={"value": None},
        on_value_change=lambda: None,
    )
    return _value(key)


def _value(key: str) -> str | None:
    state: Any = st.session_state.get(key)
    value = state.get("value") if isinstance(state, dict) else getattr(state, "value", None)
    return value if isinstance(value, str) else None
