"""The k-NN lesson's figures: the browser player's payload, its Vega-Lite charts, the downloads.

The decision map is played in the browser (``assets/knn_player.html``): for every cell of a
``RESOLUTION`` × ``RESOLUTION`` grid the server sends the labels of its ``K`` nearest training
points, nearest first (uint8), and, for weighted votes, their distances (float32). The player
then re-votes every cell for any k ≤ K as its slider moves, with the library's rule:

    ŷ = argmax_c Σ_{i ≤ k} w_i [y_i = c],   a tie going to the class of the nearest tied neighbour,

so scrubbing k costs no server round trip. K is as large as the payload budget allows (all n
for the usual sizes); a larger k is voted on the server and sent as a finished map. The
accuracy-against-k and k-d tree charts are Vega-Lite specifications; matplotlib figures here
are built only when a download is clicked. The lesson's words, data menu and "Try this" steps
are in :mod:`classic.lessons.knn`.
"""

from __future__ import annotations

import copy
import hashlib
import json
import struct
from dataclasses import dataclass
from typing import Any

import numpy as np

from classic import evaluation, knn
from classic.kdtree import KDTree
from classic.knn import KNNClassifier, accuracy_by_k, leave_one_out_accuracy, minkowski_p, region_grid, vote
from classic.viz.theme import player_theme

RESOLUTION = 120
SERVER_RESOLUTION = 60  # the map for a k beyond the player's K, voted on the server
ASPECT = 0.75  # the map's height over its width, on screen
# The grid's neighbour table sent to the browser, at most: a larger K is slow to search at n = 1000.
PAYLOAD_BYTES = 4 * 2**20
PREVIEW = 64  # neighbours per cell in the table sent first when the full one is large
K_CURVES = 100  # the accuracy curves run to this k where the points allow


def view_grid(X: np.ndarray, resolution: int = RESOLUTION) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The map's grid: ``region_grid``'s box, widened to the player's shape when both axes are
    in comparable units, so that one unit is as long across as up (a Euclidean ball looks round).
    """
    xs, ys, grid = region_grid(X, resolution)
    width, height = xs[-1] - xs[0], ys[-1] - ys[0]
    if not 0.2 < width / height < 5:
        return xs, ys, grid
    width, height = max(width, height / ASPECT), max(height, width * ASPECT)
    xs = np.linspace(-width / 2, width / 2, resolution) + (xs[0] + xs[-1]) / 2
    ys = np.linspace(-height / 2, height / 2, resolution) + (ys[0] + ys[-1]) / 2
    grid_x, grid_y = np.meshgrid(xs, ys)
    return xs, ys, np.column_stack([grid_x.ravel(), grid_y.ravel()])


def accuracy_view(Xs, y, seed: int, metric: str, p: float, weights: str, bandwidth: float):
    """Accuracy against k = 1…``K_CURVES``, or up to the size of the 70% training part when it is
    smaller (training and held out on that 70/30 split, and leave-one-out), as a Vega-Lite spec,
    with the best k by leave-one-out and its accuracy.

    One range of k for the three curves: leave-one-out could go to n − 1, but there balanced
    classes out-vote every point (0% at k = 99 on the post's 50 + 50), an end that says nothing.
    """
    X_train, X_test, y_train, y_test = evaluation.train_test_split(Xs, y, 0.3, seed, stratify=len(Xs) >= 20)
    ks = np.arange(1, min(len(X_train), K_CURVES) + 1)
    args = (metric, p, weights, bandwidth)
    curves = {
        "training": accuracy_by_k(X_train, y_train, X_train, y_train, ks, *args),
        "held-out (30%)": accuracy_by_k(X_train, y_train, X_test, y_test, ks, *args),
        "leave-one-out": leave_one_out_accuracy(Xs, y, ks, *args),
    }
    best = int(np.argmax(curves["leave-one-out"]))
    return accuracy_chart(ks, curves, int(ks[best])), int(ks[best]), float(curves["leave-one-out"][best])


def accuracy_domain(curves: dict[str, np.ndarray]) -> tuple[float, float]:
    """The accuracy axis, zoomed to the curves: from 2 points under the lowest value, down to a
    multiple of 5%, to 2 points over the highest (so a curve at 100% stays off the frame).

    On a fixed 0–100% axis curves between 85% and 100% are flat lines at the top.
    """
    values = np.concatenate([np.asarray(v, dtype=float) for v in curves.values()])
    values = values[~np.isnan(values)]
    low = max(0.0, np.floor((values.min() - 0.02) * 20) / 20)
    return float(round(low, 2)), float(values.max() + 0.02)


def player_size(n: int, weighted: bool) -> int:
    """K, the number of neighbours per grid cell the player receives (within the byte budget)."""
    per_neighbour = RESOLUTION**2 * (5 if weighted else 1)
    return int(max(1, min(n, PAYLOAD_BYTES // per_neighbour)))


def table_sizes(n: int, weighted: bool, k: int) -> tuple[int, int]:
    """(K of the table to send now, K of the full table).

    A full table of over 2 × ``PREVIEW`` neighbours per cell takes a while to find and to send
    (docs/measurements.md), so while k ≤ ``PREVIEW`` a preview of the first
    ``PREVIEW`` neighbours goes first: the map for this k at once, the full table (scrubbing up
    to K) when the player asks for it after painting.
    """
    full = player_size(n, weighted)
    return (PREVIEW if full > 2 * PREVIEW and k <= PREVIEW else full), full


def table_id(X, y, scale, offset, metric: str, p: float, weighted: bool, box, K: int) -> str:
    """The id of ``neighbour_table(X, y, scale, offset, metric, p, weighted, box, K)``, from its
    inputs: known before the table is built, so the page can name a table the browser may hold."""
    digest = hashlib.sha256(repr((metric, float(p), bool(weighted), int(K), np.shape(X))).encode())
    for part in (X, scale, offset, box):
        digest.update(np.ascontiguousarray(part, dtype=np.float64).tobytes())
    digest.update(np.ascontiguousarray(y, dtype=np.int64).tobytes())
    return digest.hexdigest()[:24]  # SHA-256 has CPU instructions: faster than blake2b here


def neighbour_table(
    X: np.ndarray,
    y: np.ndarray,
    scale: np.ndarray,
    offset: np.ndarray,
    metric: str,
    p: float,
    weighted: bool,
    box: np.ndarray,
    K: int,
) -> bytes:
    """The grid's neighbour table: K labels per cell (uint8), then K float32 distances if
    weighted, for every cell of ``view_grid(box)`` row by row from the bottom-left corner.

    ``X`` in original units; distances are measured after x' = (x − offset) / scale, as the
    classifier does; the grid covers ``box`` (all the points, also those an editing dropped).
    """
    _, _, grid = view_grid(box)
    found = knn.neighbour_table((grid - offset) / scale, (X - offset) / scale, K, metric, p)
    table = np.take(np.asarray(y).astype(np.uint8), found.indices).tobytes()  # faster than y[...]
    if weighted:
        table += b"\0" * (-len(table) % 4) + found.distances.tobytes()
    return table


def region_map(X: np.ndarray, y: np.ndarray, scale, offset, params: dict, box: np.ndarray) -> bytes:
    """The winning class of every cell of a coarser grid (``SERVER_RESOLUTION``², uint8), voted
    on the server for a k beyond what the player holds (each cell then ranks all n points).

    ``params`` are :class:`KNNClassifier`'s; the classifier is fitted on (X − offset) / scale.
    """
    _, _, grid = view_grid(box, SERVER_RESOLUTION)
    model = KNNClassifier(**params).fit((X - offset) / scale, y)
    return model.predict((grid - offset) / scale).astype(np.uint8).tobytes()


def player_payload(header: dict, **parts: bytes | None) -> bytes:
    """The player's data: a little-endian uint32 length, the JSON header, then the binary parts.

    The parts (``table``, ``winners``; None ones are left out) follow the header from the next
    4-byte boundary, each starting on a 4-byte boundary so the browser can read float32 in
    place; ``header["parts"]`` gives each one's offset from there and its length.
    """
    blobs, places, at = [], {}, 0
    for name, blob in parts.items():
        if blob:
            places[name] = [at, len(blob)]
            blobs.append(blob + b"\0" * (-len(blob) % 4))
            at += len(blobs[-1])
    text = json.dumps(dict(header, resolution=RESOLUTION, parts=places), separators=(",", ":")).encode()
    head = struct.pack("<I", len(text)) + text
    return b"".join([head + b"\0" * (-len(head) % 4), *blobs])


def player_metric(metric: str, p: float = 2) -> dict:
    """The metric as the player's METRICS table takes it: its name, and ``pNorm``, the Minkowski
    exponent (None for Chebyshev's ∞ and for metrics outside the family)."""
    exponent = minkowski_p(metric, p)
    return {"metric": metric, "pNorm": None if exponent is None or np.isinf(exponent) else exponent}


def player_header(
    X: np.ndarray,
    y: np.ndarray,
    class_names: list[str],
    model: KNNClassifier,
    scaling: tuple[np.ndarray, np.ndarray],
    query: np.ndarray,
    dropped: tuple[np.ndarray, np.ndarray],
    **settings,
) -> dict:
    """The player's JSON header: the view, the points, the model's settings, the theme.

    ``X``, ``y`` are the classifier's points, measured after x' = (x − offset) / scale with
    ``scaling`` = (scale, offset); ``dropped`` the points an editing removed (drawn hollow; the
    map's box covers them too). ``settings`` (``mode``: "query" or "add", ``present``, ``hide``:
    the parts the player leaves out while a question about them is asked — "regions", "ties",
    "neighbours" — and the table's ``tableId`` and ``K`` with the full table's ``fullId`` and
    ``fullK``) are passed on as they are.
    """
    scale, offset = scaling
    xs, ys, _ = view_grid(np.vstack([X, dropped[0]]))
    weighted = model.weights != "uniform"
    return {
        "k": int(model.k),
        "K": player_size(len(X), weighted),  # the table's (the page sets it for a preview)
        "n": len(X),
        "weighted": weighted,
        "weights": model.weights,
        "bandwidth": float(model.bandwidth),
        **player_metric(model.metric, model.p),
        "query": [float(v) for v in query],
        "winnersK": int(model.k),
        "winnersResolution": SERVER_RESOLUTION,
        "maxHeight": 470 if settings.get("present") else 560,  # 1280×720: its legend above the fold
        "xlim": [float(xs[0]), float(xs[-1])],
        "ylim": [float(ys[0]), float(ys[-1])],
        "points": np.round(X, 6).ravel().tolist(),
        "dropped": np.round(dropped[0], 6).ravel().tolist(),
        "droppedLabels": dropped[1].astype(int).tolist(),
        "labels": y.astype(int).tolist(),
        "classNames": class_names,
        "scale": scale.tolist(),
        "offset": offset.tolist(),
        "theme": player_theme(len(class_names)),
        "aspect": ASPECT,
        **settings,
    }


def regions_png(
    X, y, model: KNNClassifier, scale, offset, class_names: list[str], title: str, axes=("x₁", "x₂")
) -> bytes:
    """The decision regions as a PNG for slides (matplotlib: called only when a download is clicked)."""
    from classic.viz.common import legend_outside, new_figure, scatter_classes, to_bytes
    from classic.viz.theme import TIE, class_colors, light, rgb

    xs, ys, grid = view_grid(X)
    distances, indices = model.kneighbors((grid - offset) / scale)
    winner, _, tied = vote(model.y_[indices], distances, len(class_names), model.weights, model.bandwidth)
    image = np.array([rgb(light(c, 0.6)) for c in class_colors(len(class_names))])[winner]
    image[tied] = (image[tied] + np.array(rgb(light(TIE, 0.35)))) / 2
    fig, ax = new_figure(7.0, 5.6)
    ax.imshow(
        image.reshape(RESOLUTION, RESOLUTION, 3),
        origin="lower",
        extent=(xs[0], xs[-1], ys[0], ys[-1]),
        aspect="auto",
        interpolation="nearest",
    )
    scatter_classes(ax, X, y, class_names)
    if tied.any():  # greyed: a tied vote, won by the nearest tied neighbour's class
        ax.scatter([], [], marker="s", s=80, c=[light(TIE, 0.35)], label="tied vote (greyed)")
    ax.set(xlabel=axes[0], ylabel=axes[1], title=title)
    legend_outside(ax)
    return to_bytes(fig)


def accuracy_chart(ks: np.ndarray, curves: dict[str, np.ndarray], best_k: int) -> dict:
    """Accuracy against k, one line per curve, the accuracy axis zoomed to the curves (its title
    says where it starts when that is not 0): a Vega-Lite spec.

    Written out as altair writes it (but for the data sets' names), without its schema
    validation, which slowed every new data set's rerun.
    """
    from classic.viz.theme import PALETTE, TEXT

    rows = [
        {"k": int(k), "accuracy": float(v), "curve": name}
        for name, vs in curves.items()
        for k, v in zip(ks, vs, strict=True)
        if not np.isnan(v)
    ]
    curve, domain = {"field": "curve", "type": "nominal"}, list(curves)
    low, high = accuracy_domain(curves)
    step = 0.05 if high - low <= 0.3 else 0.1 if high - low <= 0.6 else 0.2
    first = np.ceil(low / step - 1e-9) * step  # ticks at multiples of the step, never past 100%
    ticks = [round(float(v), 2) for v in np.arange(first, min(high, 1.0) + 1e-9, step)]
    zoom = "" if low == 0 else f": the accuracy axis starts at {low:.0%}, not 0"
    color = {**curve, "legend": {"orient": "top", "title": None}}
    lines = {
        "data": {"name": "curves"},
        "mark": {"type": "line", "point": True},
        "encoding": {
            "color": {**color, "scale": {"domain": domain, "range": list(PALETTE[: len(curves)])}},
            "strokeDash": {**curve, "scale": {"domain": domain}},
            "tooltip": [
                curve,
                {"field": "k", "type": "quantitative"},
                {"field": "accuracy", "format": ".1%", "type": "quantitative"},
            ],
            "x": {
                "field": "k",
                "title": "k (neighbours)",
                "type": "quantitative",
                "scale": {"domain": [0, int(ks[-1])], "nice": False},
            },
            "y": {
                "axis": {"format": "%", "values": ticks},
                "field": "accuracy",
                "title": "accuracy",
                "scale": {"domain": [low, high], "nice": False, "zero": False},
                "type": "quantitative",
            },
        },
    }
    best = {
        "data": {"name": "best"},
        "mark": {"type": "rule", "color": TEXT, "strokeDash": [3, 3]},
        "encoding": {"x": {"field": "k", "type": "quantitative"}},
    }
    return {
        "title": {"text": f"Accuracy against k{zoom}", "anchor": "start"},
        "config": {"view": {"continuousWidth": 300, "continuousHeight": 300}},
        "layer": [lines, best],
        "height": 380,
        "datasets": {"curves": rows, "best": [{"k": int(best_k)}]},
    }


def training_only(spec: dict) -> dict:
    """The accuracy chart (``accuracy_chart``'s spec) with its training curve alone: no held-out
    or leave-one-out curve and no line at the best k, for a question about where they peak."""
    spec = copy.deepcopy(spec)
    lines, training = spec["layer"][0], ["training"]
    colour = lines["encoding"]["color"]["scale"]
    colour.update(domain=training, range=colour["range"][:1])
    lines["encoding"]["strokeDash"]["scale"] = {"domain": training}
    spec["layer"] = [lines]
    spec["datasets"] = {"curves": [row for row in spec["datasets"]["curves"] if row["curve"] in training]}
    return spec


@dataclass(frozen=True)
class KDTreeView:
    """The k-d tree tab: its chart, the query's search in numbers, and each decision as a row."""

    spec: dict
    measured: int  # distances the search computed (brute force: n)
    pruned: int  # cells it never entered
    depth: int
    decisions: Any  # a pandas DataFrame, one row per split met on the way back


def kdtree_view(
    X, y, scale, offset, query, k: int, p: float, class_names: list[str], axes=("x₁", "x₂")
) -> KDTreeView:
    """The k-d tree on the scaled points and the query's search through it: its drawing (Vega-Lite
    spec) with the cells searched and pruned, and the notes' test at every split as a table."""
    tree = KDTree((X - offset) / scale)
    found = tree.search((query - offset) / scale, k, p=p)
    splits = [split.rescaled(scale, offset) for split in tree.splits()]
    frame = _rescaled_box(tree.box(), scale, offset)
    pruned = [_rescaled_box(box, scale, offset) for box in found.pruned]
    ball = _ball((query - offset) / scale, float(found.distances[-1]), p) * scale + offset
    parts = (splits, pruned, found.measured, ball)
    spec = kdtree_chart(X, y, parts, query, found.indices, class_names, frame, axes=axes)
    return KDTreeView(
        spec, len(found.measured), len(pruned), tree.depth_, decision_table(found.decisions, scale, offset)
    )


def _rescaled_box(box, scale, offset) -> tuple[tuple[float, float], ...]:
    """A cell of the tree (scaled units) in the data's units."""
    return tuple((lo * scale[a] + offset[a], hi * scale[a] + offset[a]) for a, (lo, hi) in enumerate(box))


def _ball(centre: np.ndarray, radius: float, p: float, n: int = 96) -> np.ndarray:
    """n + 1 points around the Minkowski ball ‖z − centre‖_p = radius (closed: the first repeated)."""
    angle = np.linspace(0, 2 * np.pi, n + 1)
    c, s = np.cos(angle), np.sin(angle)
    if np.isinf(p):  # the square: scale each direction to its largest coordinate
        edge = np.maximum(np.abs(c), np.abs(s))
        return centre + radius * np.column_stack([c / edge, s / edge])
    norm = (np.abs(c) ** p + np.abs(s) ** p) ** (1 / p)
    return centre + radius * np.column_stack([c / norm, s / norm])


def decision_table(decisions, scale, offset):
    """The decisions of a search as rows: the split (in the data's units), the query's distance to
    it |t − xₐ| and the k-th best distance so far (in the classifier's units), and what was done."""
    import pandas as pd

    rows = [
        {
            "depth": d.depth,
            "split": f"x{'₁₂'[d.axis]} = {d.value * scale[d.axis] + offset[d.axis]:.3g}".replace("-", "−"),
            "|t − x|": f"{d.gap:.3f}",
            "best so far": "∞ (not k yet)" if np.isinf(d.best) else f"{d.best:.3f}",
            "far side": "searched: |t − x| ≤ best" if d.searched else "pruned: |t − x| > best",
        }
        for d in decisions
    ]
    return pd.DataFrame(rows, columns=["depth", "split", "|t − x|", "best so far", "far side"])


def kdtree_chart(
    X, y, parts, query, neighbours, class_names: list[str], box, max_depth: int = 12, axes=("x₁", "x₂")
) -> dict:
    """The k-d tree's cells and the query's search over ``box`` ((x₁ range), (x₂ range)): a
    Vega-Lite spec, as wide as the page (a ball is round only where the axes' units are).

    ``parts`` = (splitting lines, pruned cells, indices of the points measured, the final ball):
    the cells the search never entered are shaded and their points faded; the ball of radius the
    k-th distance around the query touches every cell it had to search.
    """
    import altair as alt
    import pandas as pd

    from classic.viz.theme import ACCENT, INK, PAPER, SPLIT, TIE, class_colors, light

    splits, pruned, measured, ball = parts
    lines = pd.DataFrame(
        [
            {"x": s.value, "x2": s.value, "y": s.bounds[1][0], "y2": s.bounds[1][1], "depth": s.depth}
            if s.axis == 0
            else {"x": s.bounds[0][0], "x2": s.bounds[0][1], "y": s.value, "y2": s.value, "depth": s.depth}
            for s in splits
            if s.depth <= max_depth
        ],
        columns=["x", "x2", "y", "y2", "depth"],
    )
    searched, cut = "searched", "pruned (never entered)"
    cells = pd.DataFrame(
        [{"x": box[0][0], "x2": box[0][1], "y": box[1][0], "y2": box[1][1], "cell": searched}]
        + [{"x": b[0][0], "x2": b[0][1], "y": b[1][0], "y2": b[1][1], "cell": cut} for b in pruned]
    )
    seen = np.zeros(len(X), dtype=bool)
    seen[measured] = True
    points = pd.DataFrame(
        {
            "x": X[:, 0],
            "y": X[:, 1],
            "class": [class_names[c] for c in y],
            "distance": np.where(seen, "measured", "not measured"),
        }
    )
    near = pd.DataFrame({"x": X[neighbours, 0], "y": X[neighbours, 1]})
    colours = alt.Scale(domain=class_names, range=class_colors(len(class_names)))
    x = alt.X(
        "x:Q", title=axes[0], scale=alt.Scale(zero=False, nice=False, domain=[float(v) for v in box[0]])
    )
    y_ = alt.Y(
        "y:Q", title=axes[1], scale=alt.Scale(zero=False, nice=False, domain=[float(v) for v in box[1]])
    )
    background = (
        alt.Chart(cells)
        .mark_rect(stroke=None)
        .encode(
            x=x,
            y=y_,
            x2="x2",
            y2="y2",
            fill=alt.Fill(
                "cell:N",
                scale=alt.Scale(domain=[searched, cut], range=[PAPER, light(TIE, 0.55)]),
                legend=None,  # said in the title: Vega's legend symbols are small on a projector
                sort=[searched, cut],
            ),
        )
    )
    split_marks = (
        alt.Chart(lines)
        .mark_rule(color=SPLIT)
        .encode(
            x="x:Q",
            y="y:Q",
            x2="x2",
            y2="y2",
            strokeWidth=alt.StrokeWidth(
                "depth:Q", scale=alt.Scale(domain=[0, 8], range=[2.4, 0.5]), legend=None
            ),
        )
    )
    dots = (
        alt.Chart(points)
        .mark_point(filled=True, size=40, stroke=INK, strokeWidth=0.5)
        .encode(
            x="x:Q",
            y="y:Q",
            color=alt.Color("class:N", scale=colours, legend=None),
            shape=alt.Shape("class:N", legend=None),
            opacity=alt.Opacity(
                "distance:N",
                scale=alt.Scale(domain=["measured", "not measured"], range=[1, 0.3]),
                legend=None,
            ),
        )
    )
    circle = (
        alt.Chart(pd.DataFrame({"x": ball[:, 0], "y": ball[:, 1], "order": np.arange(len(ball))}))
        .mark_line(color=ACCENT, strokeDash=[5, 3], strokeWidth=1.5, clip=True)
        .encode(x="x:Q", y="y:Q", order="order:Q")
    )
    rings = (
        alt.Chart(near)
        .mark_circle(size=160, fillOpacity=0, stroke=ACCENT, strokeWidth=2)
        .encode(x="x:Q", y="y:Q")
    )
    star = (
        alt.Chart(pd.DataFrame({"x": [query[0]], "y": [query[1]]}))
        .mark_point(shape="diamond", size=180, filled=True, color=INK)
        .encode(x="x:Q", y="y:Q")
    )
    chart = background + split_marks + dots + circle + rings + star
    key = "white: cells searched · grey: cells pruned (points faded) · dashed: the k-th distance's ball"
    return chart.properties(
        height=420, title={"text": key, "anchor": "start", "fontWeight": "normal"}
    ).to_dict()


def points_csv(X: np.ndarray, y: np.ndarray) -> bytes:
    """The points as CSV (x1, x2, label) for a download."""
    rows = [f"{a!r},{b!r},{label}" for (a, b), label in zip(X.tolist(), np.asarray(y).tolist(), strict=True)]
    return ("x1,x2,label\n" + "\n".join(rows) + "\n").encode()
