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


def learning_curve_figure(
    sizes: np.ndarray, train_scores: np.ndarray, test_scores: np.ndarray, title: str = ""
) -> Figure:
    """Accuracy against training-set size, on the training rows and on held-out rows.

    Scores may be 1-D (one run) or 2-D (runs × sizes): then the mean is drawn with a band
    from the lowest to the highest run.
    """
    fig, ax = new_figure(6.5, 4.0)
    for scores, name, colour, marker in (
        (train_scores, "training rows", PALETTE[0], "o"),
        (test_scores, "held-out rows", PALETTE[5], "s"),
    ):
        scores = np.atleast_2d(scores)
        ax.plot(sizes, scores.mean(axis=0), marker=marker, color=colour, label=name)
        if len(scores) > 1:
            ax.fill_between(sizes, scores.min(axis=0), scores.max(axis=0), color=colour, alpha=0.15, lw=0)
    ax.set_xlabel("training rows")
    ax.set_ylabel("accuracy")
    lowest = min(float(np.min(train_scores)), float(np.min(test_scores)))
    ax.set_ylim(max(0.0, np.floor((lowest - 0.02) * 20) / 20), 1.01)  # down to a multiple of 0.05
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", framealpha=0.9)
    return fig


def fold_scores_figure(scores: dict[str, np.ndarray], title: str = "") -> Figure:
    """One row per model: each fold's accuracy as a dot, the mean as a black bar (value in the label)."""
    fig, ax = new_figure(6.5, 1.2 + 0.8 * len(scores))
    for i, values in enumerate(scores.values()):
        colour = PALETTE[i % len(PALETTE)]
        jitter = np.linspace(-0.15, 0.15, len(values))
        ax.scatter(values, i + jitter, color=colour, edgecolors="black", linewidths=0.5, zorder=3)
        mean = float(np.mean(values))
        ax.plot([mean, mean], [i - 0.3, i + 0.3], color="black", lw=2, zorder=4)
    labels = [f"{name}\nmean {np.mean(values):.3f}" for name, values in scores.items()]
    ax.set_yticks(range(len(scores)), labels)
    ax.set_ylim(-0.6, len(scores) - 0.2)
    ax.invert_yaxis()
    ax.set_xlabel("accuracy on each held-out fold")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return fig


# --------------------------------------------------------------------------------------------
# Digits figures
# --------------------------------------------------------------------------------------------
