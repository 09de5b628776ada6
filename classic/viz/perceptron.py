"""The perceptron lesson's pictures: the player's JSON, Vega-Lite views, download figures.

- ``player_data``: everything ``assets/perceptron_player.html`` draws (points, every update,
  the verdict, the theme's colours), as plain JSON; the player renders each frame and exports
  its own PNG in the browser, so there is one renderer of that picture.
- ``*_spec``: Vega-Lite specifications (plain dicts, no drawing library) for the interactive
  views: decision regions of any classifier, the dual view (α), the generalisation test and
  the spread over seeds. The browser draws them, so a rerun renders nothing on the server.
- ``regions_figure`` and ``spread_figure``: the same views in matplotlib, for downloads only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from classic.viz import theme

POST_ACCURACY = 0.922  # the post's single run: 25 training points, 1000 test points


def view_limits(X: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
    """The (xlim, ylim) that frame a perceptron's points with room for the line and arrows."""
    X = np.asarray(X, dtype=float)
    low, high = X.min(axis=0), X.max(axis=0)
    pad = 0.25 * np.maximum(high - low, 0.5)
    low, high = low - pad, high + pad
    return (float(low[0]), float(high[0])), (float(low[1]), float(high[1]))


def updates_csv(model) -> bytes:
    """Every update of a fitted Perceptron as CSV: update, pass, point, w1, w2, …, b. With k ≥ 3
    classes: update, pass, point, the class that gained it, the class that lost it, then
    w1, w2, …, b of each class in turn (columns suffixed _0, _1, …)."""
    weights = model.weights_history_
    d = weights.shape[-1] - 1
    names = [*(f"w{k + 1}" for k in range(d)), "b"]
    moved: list[list[str]] = [[] for _ in range(len(weights))]
    if weights.ndim == 3:
        names = [f"{name}_{c}" for c in range(weights.shape[1]) for name in names]
        names = ["gained", "lost", *names]
        moved = [[str(t), str(p)] for t, p in zip(model.update_true_, model.update_predicted_, strict=True)]
    lines = [",".join(["update", "pass", "point", *names])] + [
        ",".join([str(u + 1), str(e + 1), str(i), *extra, *(repr(float(v)) for v in np.ravel(row))])
        for u, (e, i, row, extra) in enumerate(
            zip(model.update_epochs_, model.update_points_, weights, moved, strict=True)
        )
    ]
    return ("\n".join(lines) + "\n").encode()


def _updates(model) -> list[dict]:
    """Each update for the player. Two classes: the pass, the point and (w, b) after it. k ≥ 3
    classes: the pass, the point, every class's row (w_c, b_c) after it as ``W``, and the two
    classes it moved: ``t`` gained the point, ``p`` (the class wrongly scored highest) lost it."""
    weights = model.weights_history_
    if weights.ndim == 2:
        return [
            {"e": int(e), "i": int(i), "w": [float(v) for v in row[:-1]], "b": float(row[-1])}
            for e, i, row in zip(model.update_epochs_, model.update_points_, weights, strict=True)
        ]
    return [
        {"e": int(e), "i": int(i), "W": W.tolist(), "t": int(t), "p": int(p)}
        for e, i, W, t, p in zip(
            model.update_epochs_,
            model.update_points_,
            weights,
            model.update_true_,
            model.update_predicted_,
            strict=True,
        )
    ]


def first_pass(model) -> int:
    """The number of updates a fitted Perceptron made in its first pass."""
    return int(np.count_nonzero(np.asarray(model.update_epochs_) == 0))


def player_data(
    X: np.ndarray,
    y: np.ndarray,
    model,
    class_names: Sequence[str],
    verdict: tuple[str, str, str],
    speed: int = 8,
    autoplay: bool = False,
    present: bool = False,
    start: int = 0,
    held: str | None = None,
) -> dict:
    """The JSON the browser player draws from (``present``: larger text, a shorter plot).

    ``start`` is the frame shown first (the number of updates shown, 0 … all of them).

    ``held``: the rest of the run is held back (a question about it is asked). The player then
    plays the first pass only, and says neither how many updates there are, nor the cycle, nor
    the verdict; at the first pass's end it shows ``held``, a note saying so.

    ``model`` is a fitted :class:`~classic.perceptron.Perceptron`; ``y`` holds class indices
    0 … k − 1; ``verdict`` is (kind, title, text) with kind "good", "bad" or "stop" (the player
    shows the texts as text, never as markup). With k ≥ 3 classes (``k`` in the JSON) each
    update carries every class's weights and the two classes it moved (``_updates``); the
    player draws a region per class and both vectors' moves.
    """
    xlim, ylim = view_limits(X)
    k = len(class_names)
    updates = _updates(model)
    if held is not None:
        updates = updates[: first_pass(model)]
    return {
        "points": np.asarray(X, dtype=float).round(6).tolist(),
        "labels": np.asarray(y, dtype=int).tolist(),
        "classNames": list(class_names),
        "k": k,
        # The plane before the first update, when there is no line yet: a faint grey.
        "theme": theme.player_theme(k),
        "updates": updates,
        "xlim": xlim,
        "ylim": ylim,
        "cycle": list(model.cycle_) if model.cycle_ is not None and held is None else None,
        "verdict": {"kind": verdict[0], "title": verdict[1], "text": verdict[2]} if held is None else None,
        "held": held,
        "speed": int(speed),
        "autoplay": bool(autoplay),
        "present": bool(present),
        "start": int(min(max(start, 0), len(updates))),
    }


def _chart(height: int, **spec) -> dict:
    """A Vega-Lite specification as wide as its container."""
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "width": "container",
        "height": height,
        **spec,
    }


def _points_values(X: np.ndarray, y: np.ndarray, class_names: Sequence[str], **extra) -> list[dict]:
    rows = []
    for k, (point, label) in enumerate(zip(np.asarray(X, float), np.asarray(y, int), strict=True)):
        row = {"x1": float(point[0]), "x2": float(point[1]), "class": class_names[label]}
        row.update({name: values[k] for name, values in extra.items()})
        rows.append(row)
    return rows


def _class_scale(class_names: Sequence[str]) -> dict:
    return {"domain": list(class_names), "range": theme.class_colors(len(class_names))}


def _shape_scale(class_names: Sequence[str]) -> dict:
    shapes = ["circle", "square", "triangle-up", "diamond"]
    return {"domain": list(class_names), "range": shapes[: len(class_names)]}


def _axis(field: str, title: str, limits: tuple[float, float]) -> dict:
    return {
        "field": field,
        "type": "quantitative",
        "title": title,
        "scale": {"domain": list(limits), "nice": False, "zero": False},
    }


def _points_layer(X, y, class_names, limits, size: dict | float = 90, tooltip_extra=()) -> dict:
    xlim, ylim = limits
    return {
        "mark": {"type": "point", "filled": True, "stroke": theme.INK, "strokeWidth": 0.7, "opacity": 1},
        "encoding": {
            "x": _axis("x1", "x₁", xlim),
            "y": _axis("x2", "x₂", ylim),
            "color": {"field": "class", "type": "nominal", "scale": _class_scale(class_names), "title": None},
            "shape": {"field": "class", "type": "nominal", "scale": _shape_scale(class_names), "title": None},
            "size": size if isinstance(size, dict) else {"value": size},
            "tooltip": [
                {"field": "x1", "format": ".2f", "title": "x₁"},
                {"field": "x2", "format": ".2f", "title": "x₂"},
                {"field": "class"},
                *tooltip_extra,
            ],
        },
    }


def _sides(scores: np.ndarray) -> np.ndarray:
    """The class index each row of a decision function gives: two classes, 1 where it is
    positive; k ≥ 3 classes (a column each), the column scoring highest."""
    return scores.argmax(axis=1) if scores.ndim == 2 else (scores > 0).astype(int)


def regions_spec(
    X: np.ndarray,
    y: np.ndarray,
    decision: Callable[[np.ndarray], np.ndarray] | None,
    class_names: Sequence[str],
    title: str,
    resolution: int = 48,
) -> dict:
    """Vega-Lite: the regions a decision function gives each class (two classes: positive → the
    second; k ≥ 3: the highest column), with the points; ``decision`` None: the points alone.

    The regions are a ``resolution``² grid of cells, computed here once; the browser draws them.
    """
    xlim, ylim = view_limits(X)
    points = {
        "data": {"values": _points_values(X, y, class_names)},
        **_points_layer(X, y, class_names, (xlim, ylim)),
    }
    if decision is None:
        return _chart(320, title=title, layer=[points])
    xs = np.linspace(*xlim, resolution + 1)
    ys = np.linspace(*ylim, resolution + 1)
    cx, cy = np.meshgrid((xs[:-1] + xs[1:]) / 2, (ys[:-1] + ys[1:]) / 2)
    side = _sides(decision(np.column_stack([cx.ravel(), cy.ravel()])))
    i, j = np.meshgrid(np.arange(resolution), np.arange(resolution))
    cells = [
        {
            "a": float(xs[a]),
            "a2": float(xs[a + 1]),
            "c": float(ys[c]),
            "c2": float(ys[c + 1]),
            "side": class_names[s],
        }
        for a, c, s in zip(i.ravel(), j.ravel(), side, strict=True)
    ]
    colours = theme.class_colors(len(class_names))
    shades = {"domain": list(class_names), "range": [theme.light(c, 0.6) for c in colours]}
    return _chart(
        320,
        title=title,
        resolve={"scale": {"color": "independent", "shape": "independent"}},
        layer=[
            {
                "data": {"values": cells},
                "mark": {"type": "rect", "strokeWidth": 0},
                "encoding": {
                    "x": _axis("a", "x₁", xlim),
                    "x2": {"field": "a2"},
                    "y": _axis("c", "x₂", ylim),
                    "y2": {"field": "c2"},
                    "color": {"field": "side", "type": "nominal", "scale": shades, "legend": None},
                },
            },
            points,
        ],
    )


# The dual view's plot area in pixels (presenting: half the page's width, with 18 px labels);
# fixed, so that its labels can be placed.
ALPHA_PLOT = {False: (300, 240), True: (260, 240)}


def label_places(
    centres: np.ndarray, radii: np.ndarray, texts: Sequence[str], font: float, area: tuple[float, float]
) -> list[tuple[float, float] | None]:
    """Where each text goes beside its marker (pixel centres), or None where no place is free.

    Greedy, in the order given (the most important first): each label tries eight places around
    its marker and takes the first that stays inside ``area`` and touches no marker and no label
    already placed. A label that finds no place is left out (its value stays in the tooltip).
    """
    centres = np.asarray(centres, dtype=float).reshape(-1, 2)
    radii = np.asarray(radii, dtype=float)
    markers = np.column_stack([centres - radii[:, None], centres + radii[:, None]])
    directions = np.array([(1, -1), (-1, -1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1), (0, 1)], dtype=float)
    taken = np.empty((0, 4))
    places: list[tuple[float, float] | None] = []
    for k, text in enumerate(texts):
        half = np.array([0.38 * font * len(text) + 2.0, 0.68 * font])  # as a browser measures it
        middles = centres[k] + directions * (radii[k] + 2.0 + half)
        boxes = np.column_stack([middles - half, middles + half])
        free = (boxes[:, :2] >= 0).all(axis=1) & (boxes[:, 2] <= area[0]) & (boxes[:, 3] <= area[1])
        free &= ~_overlaps(boxes, markers).any(axis=1) & ~_overlaps(boxes, taken).any(axis=1)
        if free.any():
            first = int(np.argmax(free))
            places.append((float(middles[first, 0]), float(middles[first, 1])))
            taken = np.vstack([taken, boxes[first]])
        else:
            places.append(None)
    return places


def _overlaps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether each box of ``a`` overlaps each of ``b`` (boxes as x0, y0, x1, y1): (len(a), len(b))."""
    return (
        (a[:, None, 0] < b[None, :, 2])
        & (b[None, :, 0] < a[:, None, 2])
        & (a[:, None, 1] < b[None, :, 3])
        & (b[None, :, 1] < a[:, None, 3])
    )


def alpha_spec(
    X: np.ndarray,
    y: np.ndarray,
    alpha: np.ndarray,
    class_names: Sequence[str],
    present: bool = False,
    held: bool = False,
) -> dict:
    """Vega-Lite: the dual view, each point sized by α_i (the updates it caused) and labelled with
    it where the label has room (``label_places``; the larger α first). The plot has a fixed size
    (``ALPHA_PLOT``) so that labels are placed in pixels; the legends sit above and below it.
    ``held``: α counts the first pass's updates only (the rest of the run is held back)."""
    (x0, x1), (y0, y1) = limits = view_limits(X)
    X = np.asarray(X, dtype=float)
    alpha = np.asarray(alpha, dtype=int)
    largest = max(int(alpha.max()), 1)
    sizes = (30.0, 420.0)  # marker areas in px² for α = 0 and the largest α
    area = sizes[0] + (sizes[1] - sizes[0]) * alpha / largest
    width, height = ALPHA_PLOT[present]
    pixels = np.column_stack([(X[:, 0] - x0) / (x1 - x0) * width, (1 - (X[:, 1] - y0) / (y1 - y0)) * height])
    order = [int(i) for i in np.argsort(-alpha, kind="stable") if alpha[i] > 0]
    font = 18 if present else 13
    places = label_places(
        pixels[order], np.sqrt(area[order] / np.pi), [str(alpha[i]) for i in order], font, (width, height)
    )
    labels = [
        {"x1": x0 + p[0] / width * (x1 - x0), "x2": y1 - p[1] / height * (y1 - y0), "label": str(alpha[i])}
        for i, p in zip(order, places, strict=True)
        if p is not None
    ]
    size = {
        "field": "alpha",
        "type": "quantitative",
        "title": "αᵢ",
        "scale": {"domain": [0, largest], "range": list(sizes)},
        "legend": {
            "values": sorted({0, largest // 2, largest}),
            "orient": "bottom",
            "direction": "horizontal",
        },
    }
    points = _points_layer(X, y, class_names, limits, size, ({"field": "alpha", "title": "αᵢ"},))
    for channel in ("color", "shape"):
        points["encoding"][channel]["legend"] = {"orient": "top", "direction": "horizontal"}
    return {
        **_chart(
            height, title="αᵢ: the updates in the first pass" if held else "αᵢ: the updates each point caused"
        ),
        "width": width,
        "autosize": {"type": "pad"},  # width and height are the plot's, as the labels were placed in
        "data": {"values": _points_values(X, y, class_names, alpha=alpha.tolist())},
        "layer": [
            points,
            {
                "data": {"values": labels},
                "mark": {
                    "type": "text",
                    "fontSize": font,
                    "color": theme.TEXT,
                    "align": "center",
                    "baseline": "middle",
                },
                "encoding": {
                    "x": {"field": "x1", "type": "quantitative"},
                    "y": {"field": "x2", "type": "quantitative"},
                    "text": {"field": "label"},
                },
            },
        ],
    }


def size_table(bound: float, rows: Sequence[tuple[int, float, int]], updates: bool = True) -> dict[str, list]:
    """``updates_against_size``'s result as table columns, the bound beside every row
    (``updates`` False: the sizes and the bound only, without the updates made)."""
    table = {
        "points": [r[0] for r in rows],
        "median updates": [f"{r[1]:g}" for r in rows],
        "most updates": [r[2] for r in rows],
        "Novikoff's bound": [f"{bound:,.0f}"] * len(rows),
    }
    if not updates:
        del table["median updates"], table["most updates"]
    return table


def mistakes_spec(mistakes_per_epoch: Sequence[int], present: bool = False) -> dict:
    """Vega-Lite: the mistakes made in each pass, a bar per pass (taller when ``present``ing,
    so that the 18 px axis title fits beside the bars)."""
    values = [{"pass": k + 1, "mistakes": int(m)} for k, m in enumerate(mistakes_per_epoch)]
    return _chart(
        240 if present else 150,
        padding={"left": 6, "top": 4, "right": 4, "bottom": 4},  # Vega's fit let the y title stick out
        data={"values": values},
        mark={"type": "bar", "color": theme.class_color(0)},
        encoding={
            "x": {
                "field": "pass",
                "type": "ordinal",
                "title": "pass (epoch)",
                "axis": {"labelOverlap": True},
            },
            "y": {"field": "mistakes", "type": "quantitative", "title": "mistakes"},
            "tooltip": [{"field": "pass"}, {"field": "mistakes"}],
        },
    )


# A legend of lines drawn as lines (Vega-Lite draws a filled square by default).
LINE_LEGEND = {
    "orient": "bottom",
    "direction": "vertical",
    "labelLimit": 0,
    "symbolType": "stroke",
    "symbolStrokeWidth": 2.5,
    "symbolStrokeColor": theme.INK,
    "symbolSize": 400,
}


def line_through(w: Sequence[float], b: float, reach: float = 10.0) -> list[dict]:
    """Two points of the line w·x + b = 0, ``reach`` either side of its point nearest the origin
    (a chart clips it to its view); none when w = 0, which is no line."""
    w = np.asarray(w, dtype=float)
    norm2 = float(w @ w)
    if norm2 == 0:
        return []
    foot, along = -b * w / norm2, np.array([-w[1], w[0]]) / np.sqrt(norm2)
    return [{"x1": float(a), "x2": float(c)} for a, c in (foot - reach * along, foot + reach * along)]


def generalisation_spec(
    X_test: np.ndarray,
    truth: np.ndarray,
    model,
    X_train: np.ndarray,
    y_train: np.ndarray,
    class_names: Sequence[str],
    present: bool = False,
) -> dict:
    """Vega-Lite: the post's test picture (taller when ``present``ing, for its 18 px legends). The 1000 test points, faint, by whether the learned
    line and the true line x₂ = 1 − x₁ agree (crosses where they do not); both lines; the
    training points the line was learned from, in their classes' colours and shapes."""
    learned = model.predict(X_test)
    agree = np.asarray(truth) == np.asarray(learned)
    kinds = ["both say above", "both say below", "disagree"]
    kind = np.where(~agree, 2, np.where(np.asarray(truth) == 1, 0, 1))
    values = [
        {"x1": float(a), "x2": float(b), "kind": kinds[k]} for (a, b), k in zip(X_test, kind, strict=True)
    ]
    colours = [theme.light(theme.class_color(1), 0.2), theme.light(theme.class_color(0), 0.2), theme.ACCENT]
    square = (0.0, 1.0)
    lines = ["true line x₂ = 1 − x₁", "learned line"]
    ends = [{**p, "line": lines[0]} for p in line_through((1.0, 1.0), -1.0)]
    ends += [
        {**p, "line": lines[1]}
        for p in line_through(np.ravel(model.coef_), float(np.ravel(model.intercept_)[0]))
    ]
    train = _points_layer(X_train, y_train, class_names, (square, square))
    train["encoding"]["color"]["title"] = train["encoding"]["shape"]["title"] = "training points"
    return _chart(
        400 if present else 300,
        resolve={"scale": {"color": "independent", "shape": "independent", "size": "independent"}},
        layer=[
            {
                "data": {"values": values},
                "mark": {"type": "point", "filled": True},
                "encoding": {
                    "x": _axis("x1", "x₁", square),
                    "y": _axis("x2", "x₂", square),
                    "color": {
                        "field": "kind",
                        "type": "nominal",
                        "scale": {"domain": kinds, "range": colours},
                        "title": "1000 test points",
                    },
                    "shape": {
                        "field": "kind",
                        "type": "nominal",
                        "scale": {"domain": kinds, "range": ["circle", "circle", "cross"]},
                        "title": "1000 test points",
                    },
                    "size": {"condition": {"test": "datum.kind === 'disagree'", "value": 60}, "value": 14},
                },
            },
            {
                "data": {"values": ends},
                "mark": {"type": "line", "clip": True, "strokeWidth": 2.5, "color": theme.INK},
                "encoding": {
                    "x": {"field": "x1", "type": "quantitative"},
                    "y": {"field": "x2", "type": "quantitative"},
                    "detail": {"field": "line"},
                    "strokeDash": {
                        "field": "line",
                        "type": "nominal",
                        "scale": {"domain": lines, "range": [[6, 4], [1, 0]]},
                        "title": None,
                        "legend": LINE_LEGEND,
                    },
                },
            },
            {"data": {"values": _points_values(X_train, y_train, class_names)}, **train},
        ],
    )


def spread_spec(scores: np.ndarray, post: float = POST_ACCURACY) -> dict:
    """Vega-Lite: test accuracy over many seeds, with the median and the post's single run marked."""
    median = float(np.median(scores))
    marks = [
        {"at": median, "what": f"median over {len(scores)} seeds: {median:.2%}", "dash": []},
        {"at": post, "what": f"the post's one run: {post:.1%}", "dash": [6, 4]},
    ]
    return _chart(
        240,
        layer=[
            {
                "data": {"values": [{"accuracy": float(s)} for s in scores]},
                "mark": {"type": "bar", "color": theme.class_color(0)},
                "encoding": {
                    "x": {
                        "field": "accuracy",
                        "bin": {"maxbins": 20},
                        "title": "test accuracy on 1000 points",
                        "axis": {"format": ".0%"},
                    },
                    "y": {"aggregate": "count", "title": "seeds"},
                },
            },
            {
                "data": {"values": marks},
                "mark": {"type": "rule", "strokeWidth": 2},
                "encoding": {
                    "x": {"field": "at", "type": "quantitative"},
                    "color": {
                        "field": "what",
                        "type": "nominal",
                        "scale": {"range": [theme.INK, theme.ACCENT]},
                        "title": None,
                        "legend": {"orient": "bottom", "direction": "vertical", "labelLimit": 0},
                    },
                    "strokeDash": {
                        "field": "what",
                        "type": "nominal",
                        "scale": {"range": [[1, 0], [6, 4]]},
                        "legend": None,
                    },
                },
            },
        ],
    )


def regions_figure(X: np.ndarray, y: np.ndarray, decision: Callable, class_names: Sequence[str], title: str):
    """The regions of a decision function with the points, as a matplotlib figure (for downloads)."""
    from classic.viz.common import legend_outside, new_figure, scatter_classes

    fig, ax = new_figure(5.6, 4.4)
    xlim, ylim = view_limits(X)
    gx, gy = np.meshgrid(np.linspace(*xlim, 300), np.linspace(*ylim, 300))
    values = decision(np.column_stack([gx.ravel(), gy.ravel()]))
    sides, k = _sides(values).reshape(gx.shape), len(class_names)
    shades = [theme.light(c, 0.6) for c in theme.class_colors(k)]
    ax.contourf(gx, gy, sides, levels=np.arange(k + 1) - 0.5, colors=shades, zorder=0)
    if values.ndim == 1:  # two classes: the line itself, where the decision function is 0
        ax.contour(gx, gy, values.reshape(gx.shape), levels=[0], colors=theme.INK, linewidths=2)
    else:
        ax.contour(gx, gy, sides, levels=np.arange(k - 1) + 0.5, colors=theme.INK, linewidths=2)
    scatter_classes(ax, np.asarray(X, float), np.asarray(y, int), class_names, edgecolor=theme.INK)
    ax.set(title=title, xlabel="$x_1$", ylabel="$x_2$", xlim=xlim, ylim=ylim)
    ax.set_aspect("equal", adjustable="box")
    legend_outside(ax)
    return fig


def png(draw: Callable, *args) -> bytes:
    """The figure ``draw(*args)`` as PNG bytes: a download button's data, drawn only when clicked."""
    from classic.viz.common import to_bytes

    return to_bytes(draw(*args))


def spread_figure(scores: np.ndarray, post: float = POST_ACCURACY):
    """The spread of test accuracy over seeds, median and the post's run marked (for downloads)."""
    from classic.viz.common import new_figure

    fig, ax = new_figure(5.6, 3.4)
    ax.hist(scores, bins=20, color=theme.class_color(0), rwidth=0.9)
    median = float(np.median(scores))
    ax.axvline(median, color=theme.INK, lw=2, label=f"median over {len(scores)} seeds: {median:.2%}")
    ax.axvline(post, color=theme.ACCENT, ls="--", lw=1.5, label=f"the post's one run: {post:.1%}")
    ax.set(xlabel="test accuracy on 1000 points", ylabel="seeds")
    ax.legend(loc="upper left", fontsize=8)
    return fig
