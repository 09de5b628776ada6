"""Matplotlib helpers every lesson's figures share: a figure, class scatter, legend, export.

Figures here are for downloads (slides, handouts), built only when a user asks for one:
interactive views are drawn in the browser. Nothing is registered with pyplot, so figures
are freed with the last reference; the Agg backend renders without a display.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from classic.viz.theme import MARKERS, class_color  # noqa: E402

DPI = 100


def new_figure(width: float = 6.0, height: float = 5.0) -> tuple[Figure, Axes]:
    """A figure with one axes, at the app's dpi, not registered with pyplot's global state."""
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    return fig, fig.add_subplot()


def scatter_classes(
    ax: Axes,
    X: np.ndarray,
    y: np.ndarray,
    class_names: Sequence[str] | None = None,
    size: float | np.ndarray = 40,
    edgecolor: str = "black",
) -> None:
    """Draw 2-D points, one colour and one marker shape per class, labelled for a legend."""
    y = np.asarray(y)
    n_classes = int(y.max()) + 1 if len(y) else 0
    names = list(class_names) if class_names is not None else [f"class {c}" for c in range(n_classes)]
    sizes = np.broadcast_to(np.asarray(size, dtype=float), (len(y),))
    for c in range(n_classes):
        mask = y == c
        if mask.any():
            ax.scatter(
                X[mask, 0],
                X[mask, 1],
                s=sizes[mask],
                c=class_color(c),
                marker=MARKERS[c % len(MARKERS)],
                edgecolors=edgecolor,
                linewidths=0.6,
                label=names[c],
                zorder=3,
            )


def legend_outside(ax: Axes) -> None:
    """The legend to the right of the axes, where it hides no point."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), framealpha=0.95, fontsize=9)


def to_bytes(fig: Figure, format: str = "png", dpi: int = 150) -> bytes:
    """The figure as PNG or SVG bytes (for a download button)."""
    if format not in ("png", "svg"):
        raise ValueError(f"format must be 'png' or 'svg', got {format!r}")
    buffer = io.BytesIO()
    fig.savefig(buffer, format=format, dpi=dpi, bbox_inches="tight")
    return buffer.getvalue()
