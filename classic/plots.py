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
# k-NN figures
# --------------------------------------------------------------------------------------------

TIE_COLOR = "#7f7f7f"


def _light(color: str, amount: float = 0.55) -> np.ndarray:
    """A colour mixed with white, for region backgrounds that let the points stand out."""
    rgb = np.array(matplotlib.colors.to_rgb(color))
    return rgb + (1.0 - rgb) * amount


def draw_regions(
    ax: Axes, xs: np.ndarray, ys: np.ndarray, winner: np.ndarray, tied: np.ndarray, n_classes: int
) -> None:
    """Colour each grid cell by its predicted class (lightened); tied votes in grey."""
    image = np.array([_light(c) for c in class_colors(n_classes)])[winner]
    image[tied] = _light(TIE_COLOR, 0.35)
    extent = (xs[0], xs[-1], ys[0], ys[-1])
    ax.imshow(image, origin="lower", extent=extent, aspect="auto", interpolation="nearest", zorder=0)


def draw_cell_edges(ax: Axes, xs: np.ndarray, ys: np.ndarray, owner: np.ndarray) -> None:
    """Thin lines where the nearest training point changes: the Voronoi cells on the grid."""
    edge = np.zeros(owner.shape, dtype=bool)
    edge[:, 1:] |= owner[:, 1:] != owner[:, :-1]
    edge[1:, :] |= owner[1:, :] != owner[:-1, :]
    overlay = np.zeros((*owner.shape, 4))
    overlay[edge] = (0, 0, 0, 0.55)
    ax.imshow(
        overlay,
        origin="lower",
        extent=(xs[0], xs[-1], ys[0], ys[-1]),
        aspect="auto",
        interpolation="nearest",
        zorder=1,
    )


def ball_outline(center: np.ndarray, radius: float, p: float, n: int = 400) -> np.ndarray:
    """Points on the Minkowski sphere {x : ‖x − center‖_p = radius} in 2-D (p = inf: a square)."""
    t = np.linspace(0, 2 * np.pi, n)
    c, s = np.cos(t), np.sin(t)
    if p == np.inf:
        scale = np.maximum(np.abs(c), np.abs(s))
    else:
        scale = (np.abs(c) ** p + np.abs(s) ** p) ** (1.0 / p)
    return center + radius * np.column_stack([c / scale, s / scale])


def draw_query(
    ax: Axes,
    query: np.ndarray,
    neighbours: np.ndarray,
    ball: np.ndarray | None = None,
) -> None:
    """The query point, lines to its neighbours, and the ball through the k-th (if given)."""
    for point in neighbours:
        ax.plot([query[0], point[0]], [query[1], point[1]], color="black", lw=1, alpha=0.7, zorder=4)
    if ball is not None:
        ax.plot(
            ball[:, 0], ball[:, 1], color="black", lw=1.2, ls="--", zorder=4, label="ball through the k-th"
        )
    ax.scatter(
        *query, marker="*", s=260, c="white", edgecolors="black", linewidths=1.2, zorder=5, label="query"
    )


def draw_kd_splits(ax: Axes, splits: Sequence, max_depth: int = 12) -> None:
    """The k-d tree's splitting lines, thicker near the root."""
    for split in splits:
        if split.depth > max_depth:
            continue
        width = max(0.4, 2.2 - 0.3 * split.depth)
        other = split.bounds[1 - split.axis]
        if split.axis == 0:
            ax.plot([split.value, split.value], other, color="#333333", lw=width, zorder=2)
        else:
            ax.plot(other, [split.value, split.value], color="#333333", lw=width, zorder=2)


def knn_figure(
    X: np.ndarray,
    y: np.ndarray,
    xs: np.ndarray,
    ys: np.ndarray,
    winner: np.ndarray,
    tied: np.ndarray,
    class_names: Sequence[str],
    title: str = "",
) -> tuple[Figure, Axes]:
    """Decision regions with the training points and a legend (ties marked if present)."""
    fig, ax = new_figure(7.0, 6.0)
    draw_regions(ax, xs, ys, winner, tied, len(class_names))
    scatter_classes(ax, X, y, class_names)
    if tied.any():
        ax.scatter([], [], marker="s", s=80, c=[_light(TIE_COLOR, 0.35)], label="tied vote")
    ax.set_xlim(xs[0], xs[-1])
    ax.set_ylim(ys[0], ys[-1])
    width, height = xs[-1] - xs[0], ys[-1] - ys[0]
    if 0.2 < width / height < 5:  # same units on both axes, so a Euclidean ball looks round
        ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_title(title)
    return fig, ax


def finish_legend(ax: Axes) -> None:
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), framealpha=0.95, fontsize=9)


def accuracy_by_k_figure(ks: np.ndarray, curves: dict[str, np.ndarray], best_k: int) -> Figure:
    """Accuracy against k for each named curve, with a dotted line at ``best_k``."""
    fig, ax = new_figure(7.0, 3.6)
    for i, (name, values) in enumerate(curves.items()):
        ax.plot(ks, values, marker=MARKERS[i], ms=3, lw=1.5, color=PALETTE[i], label=name)
    lowest = min(float(np.nanmin(v)) for v in curves.values())
    ax.set_ylim(max(0.0, min(0.8, lowest - 0.05)), 1.01)  # a fixed scale: small wiggles look small
    ax.axvline(best_k, color="black", ls=":", lw=1)
    ax.annotate(  # above the frame, where no curve runs
        f"best k = {best_k}",
        (best_k, 1.0),
        xycoords=("data", "axes fraction"),
        xytext=(0, 3),
        textcoords="offset points",
        ha="center",
        va="bottom",
    )
    ax.set_xlabel("k (number of neighbours)")
    ax.set_ylabel("accuracy")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=9)
    return fig


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


def grid_figure(grid: np.ndarray, title: str = "What the classifier sees (16×16)") -> Figure:
    """One 16×16 binary grid with its pixel lattice, sharp (no interpolation)."""
    fig, ax = new_figure(3.2, 3.4)
    ax.imshow(np.asarray(grid).reshape(16, 16), cmap="gray_r", vmin=0, vmax=1, interpolation="nearest")
    ax.set_xticks(np.arange(-0.5, 16, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, 16, 1), minor=True)
    ax.grid(which="minor", color="#cccccc", lw=0.4)
    ax.tick_params(which="both", length=0, labelbottom=False, labelleft=False)
    ax.set_title(title, fontsize=10)
    return fig


def confusion_figure(matrix: np.ndarray, labels: Sequence) -> Figure:
    """A confusion matrix with counts in the cells (rows: truth, columns: prediction)."""
    fig, ax = new_figure(5.2, 4.6)
    ax.imshow(matrix, cmap="Blues")
    for (i, j), count in np.ndenumerate(matrix):
        if count:
            ax.text(
                j,
                i,
                str(count),
                ha="center",
                va="center",
                fontsize=8,
                color="white" if count > matrix.max() / 2 else "black",
            )
    ax.set_xticks(range(len(labels)), labels)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("predicted digit")
    ax.set_ylabel("true digit")
    return fig


def accuracy_spread_figure(ks: Sequence[int], scores: np.ndarray, label: str) -> Figure:
    """Mean accuracy against k over seeds (rows of ``scores``), with the min–max band."""
    fig, ax = new_figure(6.0, 3.4)
    ks = np.asarray(ks)
    ax.fill_between(
        ks, scores.min(axis=0), scores.max(axis=0), color=PALETTE[0], alpha=0.2, label="range over seeds"
    )
    ax.plot(ks, scores.mean(axis=0), marker="o", color=PALETTE[0], label=label)
    ax.set_xlabel("k")
    ax.set_ylabel("test accuracy")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left")
    return fig
