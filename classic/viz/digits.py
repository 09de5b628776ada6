"""The digits lesson's pictures: images straight from numpy, charts as Vega-Lite specs.

The interactive views are cheap to build on every rerun: a 16×16 grid or a row of digits is
an upscaled uint8 RGB array (no plotting library), and the charts are Vega-Lite
specifications drawn by the browser. Matplotlib (through ``classic.viz.common``, imported
only when called) renders the accuracy figure for a download, when a user asks for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from classic.viz.theme import ACCENT, FOCUS, GRID, INK, MARKERS, PALETTE, PLAYER_MARKERS, TEXT, light, rgb

WHITE = (1.0, 1.0, 1.0)
# The drawing canvas: ink in its alpha channel on a transparent background, sent on every stroke.
CANVAS = {
    "stroke_color": INK,
    "background_color": "",
    "drawing_mode": "freedraw",
    "update_streamlit": True,
    "return_image_data": True,
}


def grid_drawing(grid: Any, size: int) -> dict:
    """A 16×16 grid as the canvas's ``initial_drawing``: fabric.js JSON, one ink rectangle per run
    of inked cells in a row, on a ``size`` × ``size`` canvas (read back, it gives the grid again
    when the grid's ink spans the whole box, as a drawing's does once stretched)."""
    cell = size / 16
    objects = []
    for row, cells in enumerate(np.asarray(grid).reshape(16, 16) > 0):
        edges = np.flatnonzero(np.diff(np.concatenate([[0], cells.astype(np.int8), [0]])))
        objects += [
            {
                "type": "Rect",
                "originX": "left",
                "originY": "top",
                # Whole pixels: squares at fractional edges would leave faint seams between rows.
                "left": round(start * cell),
                "top": round(row * cell),
                "width": round(stop * cell) - round(start * cell),
                "height": round((row + 1) * cell) - round(row * cell),
                "fill": INK,
                "stroke": None,
                "strokeWidth": 0,
                "selectable": False,
                "evented": False,
            }
            for start, stop in zip(edges[::2], edges[1::2], strict=True)
        ]
    return {"objects": objects}


def _rgb8(color: str | tuple[float, float, float]) -> np.ndarray:
    return np.round(np.array(rgb(color) if isinstance(color, str) else color) * 255).astype(np.uint8)


def grid_image(grid: Any, cell: int = 10) -> np.ndarray:
    """A 16×16 grid as an RGB image, ``cell`` pixels a cell, ink on white, with its lattice."""
    cells = np.asarray(grid, dtype=np.float64).reshape(16, 16)
    size = 16 * cell + 1
    ink = np.kron(np.clip(cells, 0, 1), np.ones((cell, cell)))
    image = _rgb8(WHITE) * (1 - ink[..., None]) + _rgb8(INK) * ink[..., None]
    out = np.empty((size, size, 3), dtype=np.uint8)
    out[:] = _rgb8(GRID)
    out[1:, 1:] = image.astype(np.uint8)
    lines = np.arange(0, size, cell)
    out[lines, :] = _rgb8(GRID)
    out[:, lines] = _rgb8(GRID)
    return out


def grid_description(grid: Any) -> str:
    """What a 16×16 grid shows, in words: its inked cells, and the columns and rows they span."""
    cells = np.asarray(grid).reshape(16, 16) > 0
    columns, rows = cells.any(axis=0).sum(), cells.any(axis=1).sum()
    return f"{cells.sum()} of 256 cells inked, in {columns} of 16 columns and {rows} of 16 rows"


def seen_grid(grid: Any, cell: int = 10) -> dict:
    """``st.image`` arguments for the drawing's grid as the classifier sees it, described in its alt."""
    alt = f"Your drawing as the 16×16 black-and-white grid the classifier sees: {grid_description(grid)}"
    return {"image": grid_image(grid, cell), "caption": "What it sees", "alt": alt}


def strip_image(grids: Sequence[Any], cell: int = 4, per_row: int = 10, gap: int = 4) -> np.ndarray:
    """Digits side by side (``per_row`` a row) as one RGB image: ink on white, each framed.

    One image, not one per digit, so a rerun encodes a single PNG however many digits it shows.
    """
    cells = np.clip(np.asarray(grids, dtype=np.float64).reshape(-1, 16, 16), 0, 1)
    n, side = len(cells), 16 * cell + 2
    rows, columns = -(-n // per_row), min(n, per_row)
    ink = np.zeros((rows * (side + gap) - gap, columns * (side + gap) - gap))
    frame = np.full_like(ink, np.nan)
    for i, image in enumerate(cells):
        top, left = (i // per_row) * (side + gap), (i % per_row) * (side + gap)
        frame[top : top + side, left : left + side] = 1.0
        ink[top + 1 : top + side - 1, left + 1 : left + side - 1] = image.repeat(cell, 0).repeat(cell, 1)
        frame[top + 1 : top + side - 1, left + 1 : left + side - 1] = 0.0
    colour = _rgb8(WHITE) + (_rgb8(INK).astype(np.float64) - _rgb8(WHITE)) * ink[..., None]
    colour[frame == 1.0] = _rgb8(GRID)
    return colour.astype(np.uint8)


def vote_chart(share: Sequence[float], winner: int, height: int = 240) -> dict:
    """Vega-Lite bars: each digit's share of the vote, the winner in the accent colour."""
    rows = [{"digit": str(d), "share": float(s), "won": d == winner} for d, s in enumerate(share)]
    return {
        "data": {"values": rows},
        "height": height,
        "padding": {"left": 14, "top": 5, "right": 5, "bottom": 5},  # the axis title at 18 px
        "mark": {"type": "bar"},
        "encoding": {
            # Every digit labelled, however narrow the column (Vega drops overlapping labels).
            "x": {
                "field": "digit",
                "type": "ordinal",
                "axis": {"labelAngle": 0, "labelOverlap": False},
                "sort": None,
            },
            "y": {
                "field": "share",
                "type": "quantitative",
                "title": "vote",
                "scale": {"domain": [0, 1]},
                "axis": {"format": "%"},
            },
            "color": {
                "field": "won",
                "type": "nominal",
                "scale": {"domain": [False, True], "range": [FOCUS, ACCENT]},
                "legend": None,
            },
            "tooltip": [{"field": "digit"}, {"field": "share", "format": ".0%"}],
        },
    }


# The theme's marker shapes as Vega symbols: Vega's "cross" is a plus; the theme's X has no Vega
# name, so it is drawn as an SVG path (a filled X in Vega's unit square, as matplotlib's "X").
X_SYMBOL = "M-1,-0.6L-0.6,-1L0,-0.4L0.6,-1L1,-0.6L0.4,0L1,0.6L0.6,1L0,0.4L-0.6,1L-1,0.6L-0.4,0Z"
SHAPES = [{"plus": "cross", "cross": X_SYMBOL}.get(m, m) for m in PLAYER_MARKERS]


def _line_colors(names: Sequence[str]) -> dict:
    return {
        "domain": list(names),
        "range": [PALETTE[i % len(PALETTE)] for i in range(len(names) - 1)] + [INK],
    }


def _line_shapes(names: Sequence[str], shapes: Sequence[str] = SHAPES) -> dict:
    """Each line its own point shape, so colour is never the only cue (the last: the user's)."""
    return {"domain": list(names), "range": [shapes[i % len(shapes)] for i in range(len(names))]}


def accuracy_chart(
    ks: Sequence[int], curves: dict[str, np.ndarray], k: int, height: int = 320, lines: bool = True
) -> dict:
    """Vega-Lite lines: mean accuracy against k, one line a setting, and a rule at the chosen k.

    ``curves`` maps a setting's name to its accuracies (seeds × k); the last one is drawn
    in ink (the user's own settings), the others in the palette's colours. Without ``lines``
    (while a question asks what they show), only the frame: the axes, from 0 to 100% (a range
    fitted to the lines would hint at them), the legend and the rule.
    """
    rows = [
        {"k": int(kk), "accuracy": float(a), "setting": name}
        for name, scores in curves.items()
        for kk, a in zip(ks, np.asarray(scores).mean(axis=0), strict=True)
        if lines
    ]
    low = min((r["accuracy"] for r in rows), default=0.0)
    names = list(curves)
    legend = {"orient": "bottom", "columns": 3, "title": None, "labelLimit": 400}
    color = {
        "field": "setting",
        "type": "nominal",
        "scale": _line_colors(names),
        "sort": names,
        "legend": legend,
    }
    x = {"field": "k", "type": "quantitative", "scale": {"domain": [1, max(ks)]}}
    y = {
        "field": "accuracy",
        "type": "quantitative",
        "title": "test accuracy",
        "scale": {"domain": [float(np.floor(low * 20) / 20), 1.0]},
        "axis": {"format": "%"},
    }
    lines = {
        "mark": {"type": "line", "strokeWidth": 2},
        "encoding": {
            # The user's line is dashed: it often lies on a rung's line, which must stay visible.
            "strokeDash": {
                "condition": {"test": f"datum.setting === {names[-1]!r}", "value": [6, 4]},
                "value": [1, 0],
            },
            "x": x,
            "y": y,
            "color": color,
        },
    }
    shape = {**color, "scale": _line_shapes(names)}  # one legend: colour and shape together
    points = {
        "mark": {"type": "point", "filled": True, "size": 36, "opacity": 1},
        "encoding": {
            "x": x,
            "y": y,
            "color": color,
            "shape": shape,
            "tooltip": [{"field": "setting"}, {"field": "k"}, {"field": "accuracy", "format": ".1%"}],
        },
    }
    rule = {
        "data": {"values": [{"k": int(k)}]},
        "mark": {"type": "rule", "color": ACCENT, "strokeDash": [4, 3]},
        "encoding": {"x": {"field": "k", "type": "quantitative"}},
    }
    return {"data": {"values": rows}, "height": height, "layer": [lines, points, rule]}


def rung_gains(rungs: Sequence[tuple[str, float]]) -> list[str]:
    """Each rung's gain over the rung below, in words; one smaller than ``NO_GAIN`` is called none."""
    from classic.digits import NO_GAIN

    words = ["the post's k-NN"]
    for (_, below), (_, accuracy) in zip(rungs, rungs[1:], strict=False):
        gain = accuracy - below
        words.append(
            f"{100 * gain:+.2f} points: no real gain" if abs(gain) < NO_GAIN else f"{100 * gain:+.1f} points"
        )
    return words


def ladder_chart(rungs: Sequence[tuple[str, float]]) -> dict:
    """Vega-Lite horizontal bars: each rung's accuracy, labelled with its gain over the rung below.

    The bars start at 0, so their lengths compare honestly; the gains, a point or a few, are read
    off the labels, written inside each bar's end (light bars, dark text).
    """
    rows = [
        {"rung": name, "accuracy": accuracy, "label": f"{accuracy:.1%} ({gain})"}
        for (name, accuracy), gain in zip(rungs, rung_gains(rungs), strict=True)
    ]
    names = [name for name, _ in rungs]
    y = {"field": "rung", "type": "nominal", "sort": names, "title": None, "axis": {"labelLimit": 240}}
    x = {
        "field": "accuracy",
        "type": "quantitative",
        "scale": {"domain": [0.0, 1.0]},
        "axis": {"format": "%", "values": [0.0, 0.25, 0.5, 0.75, 1.0]},
        "title": "mean test accuracy (5 shuffles of 800/793)",
    }
    shades = [light(PALETTE[i % len(PALETTE)], 0.6) for i in range(len(names))]
    colors = {"domain": names, "range": shades}
    return {
        "data": {"values": rows},
        "height": {"step": 44},
        "encoding": {"y": y, "x": x},
        "layer": [
            {
                "mark": {"type": "bar"},
                "encoding": {"color": {"field": "rung", "type": "nominal", "scale": colors, "legend": None}},
            },
            {
                "mark": {"type": "text", "align": "right", "dx": -8, "color": TEXT, "fontSize": 14},
                "encoding": {"text": {"field": "label"}},
            },
        ],
    }


def confusion_chart(matrix: np.ndarray, cell: int = 34) -> dict:
    """Vega-Lite heat map of a 10 × 10 confusion matrix (rows: true digit), counts in the cells,
    each ``cell`` pixels wide."""
    matrix = np.asarray(matrix)
    rows = [
        {"true": str(i), "predicted": str(j), "count": int(c)} for (i, j), c in np.ndenumerate(matrix) if c
    ]
    dark = {"test": f"datum.count > {matrix.max() / 3}", "value": light(INK, 1.0)}
    return {
        "data": {"values": rows},
        "width": {"step": cell},
        "height": {"step": round(cell * 0.88)},
        "encoding": {
            "x": {"field": "predicted", "type": "ordinal", "title": "read as", "axis": {"labelAngle": 0}},
            "y": {"field": "true", "type": "ordinal", "title": "true digit"},
        },
        "layer": [
            {
                "mark": "rect",
                "encoding": {
                    "color": {
                        "field": "count",
                        "type": "quantitative",
                        "scale": {"scheme": "blues", "type": "log"},
                        "legend": None,
                    }
                },
            },
            {
                "mark": {"type": "text", "fontSize": 13},
                "encoding": {"text": {"field": "count"}, "color": {"condition": dark, "value": TEXT}},
            },
        ],
    }


def accuracy_png(ks: Sequence[int], curves: dict[str, np.ndarray]) -> bytes:
    """The accuracy-against-k figure as PNG bytes, for a download (matplotlib, on demand)."""
    from classic.viz.common import new_figure, to_bytes

    fig, ax = new_figure(7.0, 4.2)
    colors = _line_colors(list(curves))["range"]
    shapes = _line_shapes(list(curves), MARKERS)["range"]
    for (name, scores), color, marker in zip(curves.items(), colors, shapes, strict=True):
        ax.plot(ks, np.asarray(scores).mean(axis=0), marker=marker, markersize=3.5, color=color, label=name)
    ax.set_xlabel("k")
    ax.set_ylabel("test accuracy (mean of 5 shuffles of 800/793)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    return to_bytes(fig)


def digit_strip(X: np.ndarray, titles: Sequence[str], alts: Sequence[str]) -> dict:
    """Keyword arguments for ``st.image``: a strip of small digits with their titles in order."""
    if len(X) == 0:
        return {"image": strip_image(np.zeros((1, 256))), "caption": "(none)", "alt": "no digits"}
    caption = "Left to right: " + ", ".join(titles)
    return {"image": strip_image(X), "caption": caption, "alt": "; ".join(alts)}


def neighbour_strip(
    X: np.ndarray, y: np.ndarray, distances: np.ndarray, indices: np.ndarray, n_base: int
) -> dict:
    """``st.image`` arguments for the nearest training digits: label (distance), yours marked."""
    titles = [
        f"{y[i]} ({d:.2f}{', yours' if i >= n_base else ''})" for i, d in zip(indices, distances, strict=True)
    ]
    return digit_strip(X[indices], titles, [f"a training {y[i]}" for i in indices])


def mistake_strip(X: np.ndarray, truth: np.ndarray, guess: np.ndarray, limit: int = 20) -> dict:
    """``st.image`` arguments for the first ``limit`` misread test digits: true → read as."""
    wrong = np.flatnonzero(guess != truth)[:limit]
    titles = [f"{truth[i]} → {guess[i]}" for i in wrong]
    return digit_strip(X[wrong], titles, [f"a {truth[i]} read as {guess[i]}" for i in wrong])


def prediction_html(digit: int, share: float, answer_rem: float = 2.0) -> str:
    """The predicted digit, large (the element browser tests read), and its share of the vote in
    words, ``answer_rem`` high (2rem, 32 px or more: readable from the back of a hall)."""
    return (
        f"<div class='digit-prediction' style='font-size:6rem;line-height:1;text-align:center'>{digit}</div>"
        f"<div class='digit-answer' style='font-size:{answer_rem}rem;line-height:1.25;text-align:center'>"
        f"Read as {digit} with {share:.0%} of the vote</div>"
    )
