"""Self-contained browser players from ``assets/`` (HTML/JavaScript, nothing fetched)."""

from __future__ import annotations

import hashlib
import math
import re
from pathlib import Path

import streamlit as st

from pages.server import guard

ASSETS = Path(__file__).resolve().parents[2] / "assets"


COMMON = "player_common.js"  # the toolkit every player shares, put in front of its own script


def player_source(template: str) -> dict[str, str]:
    """The parts of ``assets/<template>`` a component is made of: its ``html``, ``css`` and ``js``.

    The file is an ordinary page (so it can be opened and read alone): its ``<style>``, the
    body's markup and its ``<script type="module">`` become the component's CSS, HTML and JS. The
    shared toolkit (``assets/player_common.js``, which the page names in a ``<script src>``) goes
    in front of the module's script: nothing is fetched at run time.
    """
    page = (ASSETS / template).read_text(encoding="utf-8")
    css = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    js = re.search(r'<script type="module">(.*?)</script>', page, re.S).group(1)
    html = re.search(r"<body>(.*?)<script", page, re.S).group(1)
    common = (ASSETS / COMMON).read_text(encoding="utf-8")
    return {"html": html.strip(), "css": css.strip(), "js": common.strip() + "\n\n" + js.strip()}


@st.cache_resource
def component_player(template: str):
    """A two-way player (``st.components.v2``) from ``assets/<template>``, registered once per server."""
    name = template.removesuffix(".html")
    return st.components.v2.component(name, **player_source(template))


def _integer(text: str | None, default: int) -> int:
    """A link's text as a whole number, or ``default`` when it is none."""
    try:
        number = float(text)
    except (TypeError, ValueError):
        return default
    return int(number) if math.isfinite(number) and number == int(number) else default


def linked_frame(key: str, player: str, last: int, default: int, fit: bytes = b"") -> int:
    """The frame the player ``player`` shows (0 … ``last``), kept in the link as ``?key=``.

    No widget holds it, so this does what ``bind="query-params"`` does for one. When the player
    is not on the page yet (a link opened, the page or its tab just shown) the link's value is
    used (unless the session holds a frame already), clamped to 0 … ``last`` (a value that is no
    whole number is dropped); the URL then shows the value used, so ``url.note_ignored_params``
    notes a value not taken. After that
    the session's value wins (the player reported a frame, a Try-this setup chose one: a URL
    sent with a quick second report may be a run behind), and a different ``fit`` (the data
    the player plays) starts again at ``default``, as a new player did. The default is left
    out of the URL.
    """
    ss, text, mark = st.session_state, st.query_params.get(key), f"_{key}_fit"
    fit = hashlib.sha256(fit).hexdigest()
    # The player's state goes when a run does not show it; a frame the session already holds
    # (its tab shown again, a Try-this setup) wins over the link, which may still hold an old one.
    if player not in ss and key not in ss:
        ss[key] = _integer(text, default)
    elif ss.get(mark, fit) != fit:
        ss[key] = default
    value = min(max(_integer(str(ss.get(key, default)), default), 0), last)
    ss[key], ss[mark] = value, fit
    if value == default:
        st.query_params.pop(key, None)
    elif text != str(value):
        st.query_params[key] = str(value)
    return value


def _heard(player: str, key: str) -> None:
    """A player reported the frame it rests on: keep it as ``key`` (the next run clamps it)."""
    sent = (st.session_state.get(player) or {}).get("frame")
    if not isinstance(sent, dict):
        return
    # The browser's values, checked (a console can send "abc", -5 or Infinity): linked_frame
    # clamps the frame to the player's last one at the next run.
    frame = guard.number(sent.get("at"), 0, 1e9, None, "the player's frame", whole=True)
    count = guard.number(sent.get("n"), 0, 2**53, None, "the player's count", whole=True)
    if frame is not None and count is not None:
        st.session_state[key] = frame
        st.session_state[f"_{key}_heard"] = count


def frame_player(template: str, key: str, frame_key: str, data: dict, report: bool = True) -> None:
    """A player (``assets/<template>``) started at ``data["start"]`` that reports its frame into ``frame_key``.

    The player sends ``{"at": frame, "n": count}`` when it pauses, steps, is scrubbed or ends;
    ``heard`` (the last count the page heard) tells it whether ``start`` is the page's own
    choice or an echo of an older report. ``report=False`` shows a view that reports nothing.
    """
    heard = st.session_state.get(f"_{frame_key}_heard", 0)
    on = {"on_frame_change": lambda: _heard(key, frame_key)} if report else {}
    component_player(template)(data={**data, "heard": heard, "report": report}, key=key, **on)
