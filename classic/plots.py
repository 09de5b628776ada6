"""Matplotlib figures shared by the pages (and usable from a notebook).

Every function returns a ``matplotlib.figure.Figure`` (or draws on an ``ax`` it is given) and
never shows it; the pages hand figures to Streamlit. Colours come from the Okabe–Ito palette,
which stays distinguishable for the common forms of colour blindness. The Agg backend is used
so figures render without a display.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

# Okabe & Ito (2008): colour-blind-safe qualitative palette (black left out, kept for ink).
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X"]
DPI = 100


def class_colors(n_classes: int) -> list[str]:
    """The first ``n_classes`` palette colours (cycled if more are asked for)."""
    return [PALETTE[i % len(PALETTE)] for i in range(n_classes)]


def class_cmap(n_classes: int) -> ListedColormap:
    """A discrete colormap with one palette colour per class, for region plots."""
    return ListedColormap(class_colors(n_classes))


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
    """Draw 2-D points, one colour and marker per class, labelled for a legend."""
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
                c=PALETTE[c % len(PALETTE)],
                marker=MARKERS[c % len(MARKERS)],
                edgecolors=edgecolor,
                linewidths=0.6,
                label=names[c],
                zorder=3,
            )


def points_figure(
    X: np.ndarray,
    y: np.ndarray,
    title: str = "",
    class_names: Sequence[str] | None = None,
    xlabel: str = "$x_1$",
    ylabel: str = "$x_2$",
) -> Figure:
    """A scatter plot of a 2-D labelled data set with axes labels and a legend."""
    fig, ax = new_figure()
    scatter_classes(ax, X, y, class_names)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_aspect("equal", adjustable="datalim")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", framealpha=0.9)
    return fig


def digits_figure(
    images: np.ndarray, labels: Sequence, columns: int = 10, titles: Sequence[str] | None = None
) -> Figure:
    """A grid of 16×16 digit images with their labels (or the given titles) above each."""
    images = np.asarray(images).reshape(-1, 16, 16)
    rows = max(1, int(np.ceil(len(images) / columns)))
    fig = Figure(figsize=(columns * 0.9, rows * 1.05), dpi=DPI, layout="constrained")
    axes = fig.subplots(rows, columns, squeeze=False)
    for i, ax in enumerate(axes.flat):
        ax.set_axis_off()
        if i < len(images):
            ax.imshow(images[i], cmap="gray_r", vmin=0, vmax=1, interpolation="nearest")
            ax.set_title(titles[i] if titles is not None else str(labels[i]), fontsize=10)
    return fig


def close(fig: Figure) -> None:
    """Release a figure's memory (figures made here are not tracked by pyplot)."""
    fig.clear()
    plt.close(fig)


# --------------------------------------------------------------------------------------------
# Perceptron figures
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# k-NN figures
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# ID3 figures
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# Digits figures
# --------------------------------------------------------------------------------------------
