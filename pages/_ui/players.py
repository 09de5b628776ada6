"""Self-contained browser players from ``assets/`` (HTML/JavaScript, nothing fetched)."""

from __future__ import annotations

import json
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
