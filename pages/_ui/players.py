"""Self-contained browser players from ``assets/`` (HTML/JavaScript, nothing fetched)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import streamlit as st

ASSETS = Path(__file__).resolve().parents[2] / "assets"


def html_player(template: str, data: dict, label: str) -> None:
    """A self-contained HTML/JavaScript player from ``assets/``, its JSON data filled in.

    It runs in the browser (no server round trip per frame) and loads nothing from the
    network. ``label`` names the frame for screen readers.
    """
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    html = (ASSETS / template).read_text(encoding="utf-8").replace("__PLAYER_DATA__", payload)
    st.iframe(html, height="content", alt=label)


@st.cache_resource
def component_player(template: str):
    """A two-way player (``st.components.v2``) from ``assets/<template>``, registered once per server.

    The file is an ordinary page (so it can be opened and read alone): its ``<style>``, the
    body's markup and its ``<script type="module">`` become the component's CSS, HTML and JS.
    """
    page = (ASSETS / template).read_text(encoding="utf-8")
    css = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    js = re.search(r'<script type="module">(.*?)</script>', page, re.S).group(1)
    html = re.search(r"<body>(.*?)<script", page, re.S).group(1)
    name = template.removesuffix(".html")
    return st.components.v2.component(name, html=html.strip(), css=css.strip(), js=js.strip())
