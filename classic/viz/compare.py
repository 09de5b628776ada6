"""Figures of the /compare page: three classifiers' regions on one data set, on one scale.

In the browser each panel is a Vega-Lite chart: the regions are a small PNG built straight from
the grid of predicted classes (``regions_png``: numpy and zlib, no drawing library) laid under
the points and, for the perceptron, its line. Every panel gets the same axis domains, so the
three pictures can be compared point for point. The download (``figure``) draws the same three
panels with matplotlib, only when a user asks for it.
"""

from __future__ import annotations

import base64
import struct
import zlib
from collections.abc import Sequence

import numpy as np

from classic.viz.theme import INK, MARKERS, class_color, light, rgb

KEY = "● class 0 · ■ class 1 · filled: trained on · open: held out · x₁ across, x₂ up · shade: the class predicted"
REGION_WHITE = 0.55  # share of white in a region's colour: points stay readable on it
VEGA_SHAPES = ["circle", "square", "triangle-up", "diamond", "triangle-down", "cross"]


def region_colors(n_classes: int) -> list[str]:
    """The light shade of each class's colour, used for its region."""
    return [light(class_color(c), REGION_WHITE) for c in range(n_classes)]


BOUNDARY_SCALE = 4  # pixels a grid cell, so that the boundary is a thin line, not a cell wide


def regions_png(regions: np.ndarray, n_classes: int, boundary: bool = False) -> bytes:
    """A (rows × columns) grid of class indices, row 0 at the lowest x₂, as PNG bytes.

    The image's top row is the grid's last (highest x₂), as on a plot. ``boundary``: each cell
    drawn ``BOUNDARY_SCALE`` pixels a side, with an ink line where the class changes (the
    regions' light shades alone differ too little to tell them apart: WCAG 1.4.1, 1.4.11). An
    8-bit RGB PNG: signature, IHDR, one zlib-compressed IDAT (each row prefixed by filter type
    0), IEND.
    """
    palette = np.array([[round(255 * v) for v in rgb(c)] for c in region_colors(n_classes)], dtype=np.uint8)
    grid = np.asarray(regions, dtype=np.intp)[::-1]
    if boundary:
        grid = np.repeat(np.repeat(grid, BOUNDARY_SCALE, axis=0), BOUNDARY_SCALE, axis=1)
    pixels = palette[grid]
    if boundary:
        edge = np.zeros(grid.shape, dtype=bool)
        edge[:, 1:] |= grid[:, 1:] != grid[:, :-1]
        edge[1:, :] |= grid[1:, :] != grid[:-1, :]
        pixels[edge] = [round(255 * v) for v in rgb(INK)]
    height, width = pixels.shape[:2]
    raw = np.concatenate([np.zeros((height, 1), np.uint8), pixels.reshape(height, -1)], axis=1).tobytes()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 6))
        + chunk(b"IEND", b"")
    )


def point_values(data, class_names: Sequence[str]) -> tuple[list[dict], list[dict]]:
    """The training and held-out points of a ``classic.compare.Split`` as Vega-Lite data values.

    Built once per view and shared by the three panels (the same points in each). Coordinates
    to 3 decimals, finer than a pixel of the panels: the spec stays small.
    """
    parts = []
    for X, y in _indexed(data):
        names = [class_names[int(c)] for c in y]
        parts.append(
            [{"x1": a, "x2": b, "class": c} for (a, b), c in zip(np.round(X, 3).tolist(), names, strict=True)]
        )
    return parts[0], parts[1]


def _indexed(data) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """(X, class index) of a ``classic.compare.Split``'s training and held-out parts."""
    classes = np.unique(data.y_train)
    return (
        (data.X_train, np.searchsorted(classes, data.y_train)),
        (data.X_test, np.searchsorted(classes, data.y_test)),
    )


def panel_spec(
    regions: np.ndarray | None,
    points: tuple[list[dict], list[dict]],
    low: np.ndarray,
    high: np.ndarray,
    class_names: Sequence[str],
    title: str,
    line: np.ndarray | None = None,
    height: int = 300,
    font_size: int = 12,
) -> dict:
    """A Vega-Lite spec of one panel: regions image, training points (filled), held-out points (open).

    ``regions`` is the square grid of class indices (row 0 at the lowest x₂), ``points`` the
    training and held-out values from ``point_values``; ``low``/``high`` fix both axes'
    domains (the same for every panel); ``line`` is two (x₁, x₂) ends of the perceptron's line.
    The axes have no titles (x₁ across, x₂ up, as the page says once above the three panels):
    in a third of a projector's width a title each took a quarter of the panel's height.
    """
    n = len(class_names)
    x = {"field": "x1", "type": "quantitative", "title": None}
    y = {"field": "x2", "type": "quantitative", "title": None}
    x["scale"] = {"domain": [float(low[0]), float(high[0])], "nice": False, "zero": False}
    y["scale"] = {"domain": [float(low[1]), float(high[1])], "nice": False, "zero": False}
    colors = {"field": "class", "type": "nominal", "legend": None}
    colors["scale"] = {"domain": list(class_names), "range": [class_color(c) for c in range(n)]}
    shapes = {"field": "class", "type": "nominal", "legend": None}
    shapes["scale"] = {
        "domain": list(class_names),
        "range": [VEGA_SHAPES[c % len(VEGA_SHAPES)] for c in range(n)],
    }
    tooltip = [
        {"field": "x1", "type": "quantitative", "title": "x₁", "format": ".2f"},
        {"field": "x2", "type": "quantitative", "title": "x₂", "format": ".2f"},
        {"field": "class", "type": "nominal"},
    ]
    layers = []
    if regions is not None:
        side = int(round(np.sqrt(np.size(regions))))
        png = regions_png(np.reshape(regions, (side, side)), n, boundary=True)
        url = "data:image/png;base64," + base64.b64encode(png).decode()
        layers.append(
            {
                "data": {"values": [{}]},
                # The regions are described by the chart's description: the image itself is
                # hidden from screen readers (an unlabelled image mark fails axe-core).
                "mark": {"type": "image", "url": url, "aspect": False, "smooth": False, "aria": False},
                "encoding": {
                    "x": {"datum": float(low[0]), "type": "quantitative", "scale": x["scale"], "title": None},
                    "x2": {"datum": float(high[0])},
                    "y": {
                        "datum": float(high[1]),
                        "type": "quantitative",
                        "scale": y["scale"],
                        "title": None,
                    },
                    "y2": {"datum": float(low[1])},
                },
            }
        )
    size = 40  # marker area in px², the same on a projector: larger markers would hide the regions
    for values, filled, part in zip(points, (True, False), ("training", "held out"), strict=True):
        layers.append(
            {
                "data": {"values": values},
                "transform": [{"calculate": f"'{part}'", "as": "part"}],
                "mark": {
                    "type": "point",
                    "filled": filled,
                    "size": size,
                    "opacity": 1,
                    "strokeWidth": 0.7 if filled else 1.8,
                    **({"stroke": INK} if filled else {}),
                },
                "encoding": {
                    "x": x,
                    "y": y,
                    "color": colors,
                    "shape": shapes,
                    "tooltip": [*tooltip, {"field": "part", "type": "nominal"}],
                },
            }
        )
    if line is not None:
        layers.append(
            {
                "data": {"values": [{"x1": float(a), "x2": float(b)} for a, b in line]},
                "mark": {"type": "line", "color": INK, "strokeWidth": 2.5, "clip": True},
                "encoding": {"x": x, "y": y},
            }
        )
    return {
        "title": {"text": title, "fontSize": font_size + 2},
        "description": f"{title}: coloured regions of each predicted class, with the points on top",
        "width": "container",
        "height": height,
        "autosize": {"type": "fit", "contains": "padding"},
        "layer": layers,
        "config": {
            "axis": {"labelFontSize": font_size, "titleFontSize": font_size, "grid": False, "tickCount": 5},
            "view": {"stroke": INK},
        },
    }


def figure(
    panels: Sequence[tuple[str, np.ndarray, np.ndarray | None]],
    data,
    low: np.ndarray,
    high: np.ndarray,
    class_names: Sequence[str],
):
    """The three panels side by side as one matplotlib figure (for the PNG/SVG download).

    ``panels`` holds (title, regions, line ends or None) per classifier; ``data`` is the
    ``classic.compare.Split``.
    """
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure

    from classic.viz.common import DPI, legend_outside, scatter_classes

    n = len(class_names)
    train, test = _indexed(data)
    fig = Figure(figsize=(5.0 * len(panels) + 1.5, 5.0), dpi=DPI, layout="constrained")
    axes = fig.subplots(1, len(panels), sharex=True, sharey=True)
    for ax, (title, regions, line) in zip(np.atleast_1d(axes), panels, strict=True):
        if regions is not None:
            side = int(round(np.sqrt(np.size(regions))))
            ax.imshow(
                np.reshape(regions, (side, side)),
                origin="lower",
                extent=(low[0], high[0], low[1], high[1]),
                cmap=ListedColormap(region_colors(n)),
                vmin=-0.5,
                vmax=n - 0.5,
                interpolation="nearest",
                aspect="auto",
            )
        scatter_classes(ax, *train, [f"{name} (training)" for name in class_names])
        X_test, y_test = test
        for c in range(n):
            mask = y_test == c
            ax.scatter(
                X_test[mask, 0],
                X_test[mask, 1],
                s=40,
                facecolors="none",
                edgecolors=class_color(c),
                marker=MARKERS[c % len(MARKERS)],
                linewidths=1.6,
                label=f"{class_names[c]} (held out)",
                zorder=3,
            )
        if line is not None:
            ax.plot(line[:, 0], line[:, 1], color=INK, linewidth=2)
        ax.set(xlim=(low[0], high[0]), ylim=(low[1], high[1]), title=title, xlabel="x₁")
    np.atleast_1d(axes)[0].set_ylabel("x₂")
    legend_outside(np.atleast_1d(axes)[-1])
    return fig


def figure_bytes(
    panels: Sequence[tuple[str, np.ndarray, np.ndarray | None]],
    data,
    low: np.ndarray,
    high: np.ndarray,
    class_names: Sequence[str],
    format: str = "png",
) -> bytes:
    """``figure`` as PNG or SVG bytes (for a download button)."""
    from classic.viz.common import to_bytes

    return to_bytes(figure(panels, data, low, high, class_names), format=format)
