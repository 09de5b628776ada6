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


def download_table(
    columns: dict[str, Sequence[Any]], filename: str, key: str, label: str = "Download data (CSV)"
) -> None:
    """A download button for named columns as CSV."""
    import pandas as pd

    csv = pd.DataFrame(columns).to_csv(index=False).encode()
    st.download_button(label, csv, file_name=filename, mime="text/csv", key=key)


def download_points(X: np.ndarray, y: np.ndarray, filename: str, key: str) -> None:
    """A download button for a 2-D labelled data set (x1, x2, label) as CSV."""
    download_table({"x1": X[:, 0], "x2": X[:, 1], "label": y}, filename, key)
