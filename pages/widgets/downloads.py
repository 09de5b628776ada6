"""Download buttons: tables as CSV, figures as PNG/SVG built only when clicked."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np
import streamlit as st
from matplotlib.figure import Figure


def figure_png(fig: Figure) -> bytes:
    """The figure as PNG bytes (for download buttons)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=150, bbox_inches="tight")
    return buffer.getvalue()


def download_figure(fig: Figure, filename: str, key: str, label: str = "Download figure (PNG)") -> None:
    """A download button for a matplotlib figure."""
    st.download_button(label, figure_png(fig), file_name=filename, mime="image/png", key=key)


# A spreadsheet runs a cell that starts with one of these as a formula (OWASP, "CSV injection").
_FORMULA = ("=", "+", "-", "@", "\t")


def _neutral(cell: Any) -> Any:
    """A text cell a spreadsheet would run as a formula, prefixed with ``'`` (shown as text); numbers
    (a negative one too) and other text as they are."""
    if not isinstance(cell, str):
        return cell
    cell = cell.replace("\r", " ").replace("\n", " ")  # one row a line, whatever the reader
    if not cell.startswith(_FORMULA):
        return cell
    try:
        float(cell)
    except ValueError:
        return "'" + cell
    return cell


def table_csv(columns: dict[str, Sequence[Any]] | Any) -> bytes:
    """Named columns (or a DataFrame) as CSV bytes, every text cell and name that a spreadsheet would
    run as a formula neutralised (every CSV the app writes goes through here)."""
    import pandas as pd

    frame = pd.DataFrame(columns)
    frame = frame.rename(columns=_neutral)
    for name in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[name]):
            frame[name] = frame[name].map(_neutral)
    return frame.to_csv(index=False).encode()


def download_table(
    columns: dict[str, Sequence[Any]], filename: str, key: str, label: str = "Download data (CSV)"
) -> None:
    """A download button for named columns as CSV."""
    st.download_button(label, table_csv(columns), file_name=filename, mime="text/csv", key=key)


def download_points(X: np.ndarray, y: np.ndarray, filename: str, key: str) -> None:
    """A download button for a 2-D labelled data set (x1, x2, label) as CSV."""
    download_table({"x1": X[:, 0], "x2": X[:, 1], "label": y}, filename, key)
