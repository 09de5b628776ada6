"""What the ID3 page draws, as plain data: the step player's JSON and Vega-Lite specifications.

The tree page shows a fitted :class:`classic.id3.ID3` in three ways, all drawn in the browser:
the step player (``assets/tree_player.html``) replays the splits in the order they were made,
each with its score table; for two real features the leaves are axis-aligned boxes, drawn as
Vega-Lite rectangles under the points; the representational-power and evaluation charts are
Vega-Lite line charts. Everything here is pure Python over the fitted tree (no Streamlit, no
matplotlib); colours come from :mod:`classic.viz.theme`. Text that came from a user's file
travels as data (JSON strings, Vega-Lite fields), never as markup.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from classic.criteria import CRITERIA
from classic.viz import theme

DIGITS = 4  # the slides print entropies to four places (0.9183, 0.6887, 0.3113)


def number(value: float) -> str:
    """A score as the step table and the player print it (four decimals, no negative zero)."""
    return f"{abs(value) if abs(value) < 0.5 * 10**-DIGITS else value:.{DIGITS}f}"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and the noun agreeing with it: "1 row", "2 rows", "1 leaf", "5 leaves" (thousands with commas)."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"


# --------------------------------------------------------------------------------------------
# The tree as nodes and edges
# --------------------------------------------------------------------------------------------


def _nodes(root: Any, max_depth: int | None = None) -> Iterator[tuple[Any, Any, str | None]]:
    """``(node, parent, edge label)`` for every node down to ``max_depth``, parents first (depth first)."""
    stack = [(root, None, None)]
    while stack:
        node, parent, edge = stack.pop()
        yield node, parent, edge
        if max_depth is None or node.depth < max_depth:
            stack.extend((child, node, str(value)) for value, child in reversed(node.children.items()))


def _test(node: Any) -> str:
    """The question a node asks: its feature (children carry the values or thresholds)."""
    return str(node.feature)


MAX_DRAWN_NODES = 300  # the player lays out and draws this many nodes at most
MAX_TERMS = 12  # candidate tests per split whose terms the player carries


def drawn_depth(model: Any, max_nodes: int = MAX_DRAWN_NODES) -> int:
    """The deepest level down to which the tree has at most ``max_nodes`` nodes (at least 0).

    Levels are counted from the root down and the count stops at the first level that does not
    fit, so a huge tree costs no more than its drawn part and one level below it.
    """
    level, depth, total = [model.root_], 0, 1
    while True:
        below = [child for node in level for child in node.children.values()]
        if not below or total + len(below) > max_nodes:
            return depth
        level, depth, total = below, depth + 1, total + len(below)


def kept_steps(model: Any) -> list[Any]:
    """The splits the player shows, in the order they were made: those still in the tree (pruning
    removes some) whose children are drawn (``drawn_depth`` cuts a tree too big to draw)."""
    depth = drawn_depth(model)
    split = {id(node) for node, _, _ in _nodes(model.root_, depth) if not node.is_leaf and node.depth < depth}
    return [step for step in model.steps_ if id(step.node) in split]


def tree_nodes(model: Any) -> list[dict]:
    """The fitted tree as JSON nodes: id, parent, edge label, test, label, counts, split step.

    ``split`` is the index of the split among ``kept_steps`` (None for a leaf or a node whose
    children are not drawn), so a player can show the tree as it was after any number of splits.
    """
    order = {id(step.node): k for k, step in enumerate(kept_steps(model))}
    return [
        {
            "id": int(node.id),
            "parent": None if parent is None else int(parent.id),
            "edge": edge,
            "test": None if node.is_leaf else _test(node),
            "label": str(node.label),
            "counts": [int(n) for n in node.counts.values()],
            "split": order.get(id(node)),
        }
        for node, parent, edge in _nodes(model.root_, drawn_depth(model))
    ]


def size_note(model: Any) -> str:
    """ "" when the player draws the whole tree, else which levels it draws and what is left out."""
    depth = drawn_depth(model)
    if depth >= model.depth_:
        return ""
    hidden = model.n_nodes_ - sum(1 for _ in _nodes(model.root_, depth))
    return (
        f"The tree is too big to draw whole: levels 0–{depth} of 0–{model.depth_} are drawn, "
        f"{hidden:,} deeper nodes are left out (the rules list every leaf)."
    )


def where(model: Any, node: Any) -> str:
    """The path to ``node`` in words ("the root" or "Outlook = Sunny, Humidity = High")."""
    tests = [
        f"{feature} {branch}" if branch.startswith(("<= ", "> ")) else f"{feature} = {branch}"
        for feature, branch in model.conditions(node)
    ]
    return ", ".join(tests) if tests else "the root"


# --------------------------------------------------------------------------------------------
# One split, as a table a student can redo by hand
# --------------------------------------------------------------------------------------------


UNITS = {2.0: "bits", math.e: "nats"}


def _name(score: Any) -> str:
    """A candidate test as the tables print it: the feature, with its threshold if numeric."""
    return score.feature if score.threshold is None else f"{score.feature} {score.branches[0]}"


def _impurity_name(criterion: str, base: float) -> str:
    rule = CRITERIA[criterion]
    return f"{rule.symbol} ({UNITS.get(base, f'log base {base:g}')})" if rule.logarithm else rule.symbol


def scored(step: Any, base: float = 2.0) -> list[Any]:
    """The step's candidate tests (:class:`classic.criteria.SplitScore`), entropies in ``base``.

    The tree scores in bits; another base (the slides' natural log) rescores the same count
    tables, so every number still comes from the counts.
    """
    return [dataclasses.replace(c, base=base) for c in step.candidates()]


def split_table(step: Any, base: float = 2.0, scores: list[Any] | None = None) -> dict[str, list]:
    """The score table of one split: one row per candidate test, the chosen one marked.

    Columns: the test, the impurity of the rows whose value is known (before), the branches'
    impurity weighted by their share (after) and the gain ``before − after``; when values are
    missing, the known share and C4.5's known-share gain ``known share × (before − after)``
    instead; for the gain ratio, the split information and the
    ratio. ``base`` is the logarithm's (2: bits, e: nats); Gini has no logarithm. ``scores``
    are the step's ``scored`` candidates, when already at hand.
    """
    criterion = step.tree.criterion
    scores = scored(step, base) if scores is None else scores
    h = _impurity_name(criterion, base)
    table: dict[str, list] = {
        "test": [_name(c) for c in scores],
        f"{h} before": [c.before for c in scores],
        f"{h} after": [c.after for c in scores],
    }
    missing = any(c.missing for c in scores)  # then C4.5's known-share gain: known share × (before − after)
    if missing:
        table["known share"] = [c.known_fraction for c in scores]
    table["known-share gain" if missing else "gain"] = [c.gain for c in scores]
    if CRITERIA[criterion].ratio:
        table["split information"] = [c.split_information for c in scores]
        table["gain ratio"] = [c.score for c in scores]
    table["chosen"] = [c.chosen for c in scores]
    return table


def split_terms(step: Any, base: float = 2.0, scores: list[Any] | None = None) -> dict[str, list]:
    """The terms of every candidate's weighted sum: one row per (test, branch), as printed.

    Each row holds the branch's rows, their class counts, its impurity and its weight
    ``|K_v| / |K|`` as a fraction, so that multiplying and adding a test's rows gives its
    "after"; rows with the value missing are listed as no branch.
    """
    classes = [str(c) for c in step.tree.classes_]
    h = _impurity_name(step.tree.criterion, base)
    rows: dict[str, list] = {
        "test": [],
        "branch": [],
        "rows": [],
        **{c: [] for c in classes},
        h: [],
        "weight": [],
    }
    for c in scored(step, base) if scores is None else scores:
        known = int(c.counts.sum())
        branches = [
            (b, n.tolist(), number(float(t)), f"{int(n.sum())}/{known}")
            for b, n, t in zip(c.branches, c.counts, c.terms, strict=True)
        ]
        if c.missing:
            branches.append((step.tree.missing_value, [""] * len(classes), "", "no branch"))
        for branch, counts, term, weight in branches:
            rows["test"].append(_name(c))
            rows["branch"].append(str(branch))
            rows["rows"].append(c.missing if weight == "no branch" else sum(counts))
            for name, n in zip(classes, counts, strict=True):
                rows[name].append(str(n))
            rows[h].append(term)
            rows["weight"].append(weight)
    return rows


# --------------------------------------------------------------------------------------------
# The step player (assets/tree_player.html)
# --------------------------------------------------------------------------------------------


def _cells(table: dict[str, list]) -> tuple[list[str], list[list[str]]]:
    """A table's header and rows as printed text (numbers to four decimals)."""
    header = [name for name in table if name != "chosen"]
    rows = [
        [number(v) if isinstance(v, float) else str(v) for v in row]
        for row in zip(*(table[name] for name in header), strict=True)
    ]
    return header, rows


def _terms_text(terms: dict[str, list], classes: Sequence[str]) -> dict[str, list[str]]:
    """Each test's weighted-sum terms as lines: branch, rows, class counts, impurity, weight."""
    h = list(terms)[-2]
    lines: dict[str, list[str]] = {}
    for i, test in enumerate(terms["test"]):
        if terms["weight"][i] == "no branch":
            text = (
                f"{terms['branch'][i]}: {plural(terms['rows'][i], 'row')} with the value missing (no branch)"
            )
        else:
            counts = " · ".join(f"{c} {terms[c][i]}" for c in classes)
            text = (
                f"{terms['branch'][i]}: {plural(terms['rows'][i], 'row')} ({counts}), "
                f"{h} = {terms[h][i]}, weight {terms['weight'][i]}"
            )
        lines.setdefault(test, []).append(text)
    return lines


def player_steps(model: Any, base: float = 2.0) -> list[dict]:
    """The splits of a fitted tree as the step player shows them (the costly part of its JSON).

    Each step carries its node, a sentence, its score table (cells as printed, the chosen
    row's index) and, per candidate test, the terms of its weighted sum; entropies are in log
    ``base`` (2: bits, e: nats; the tree chooses the same tests in either).
    """
    classes = [str(c) for c in model.classes_]
    kept = kept_steps(model)
    steps = []
    for k, step in enumerate(kept, start=1):
        scores = scored(step, base)
        table = split_table(step, base, scores)
        header, rows = _cells(table)
        chosen = table["chosen"].index(True)
        best = sorted(scores, key=lambda c: (not c.chosen, -c.score))[:MAX_TERMS]
        steps.append(
            {
                "node": int(step.node.id),
                "text": f"Split {k} of {len(kept)}: {where(model, step.node)} "
                f"({step.node.n_samples} rows) asks about {rows[chosen][0]}.",
                "header": header,
                "rows": rows,
                "chosen": chosen,
                "terms": _terms_text(split_terms(step, base, best), classes),
            }
        )
    return steps


ROOT_HEIGHT = 150  # px: the player's frame for the root alone, leaving the data in view below it


def player_data(
    model: Any,
    start: int = 0,
    present: bool = False,
    path: Sequence[Any] | None = None,
    steps: list[dict] | None = None,
    tables: bool = True,
    withheld: bool = False,
) -> dict:
    """Everything the step player draws, as JSON: the tree's nodes, every split, the theme.

    ``start`` is the frame shown first (the number of splits made); ``present`` enlarges the
    text for a projector; ``path`` is a record whose path through the tree is outlined;
    ``steps`` is ``player_steps(model)`` when already at hand (it is the costly part);
    ``tables=False`` leaves out the score tables (a view of the tree beside another figure);
    ``withheld`` sends the root alone, its counts without its test, and no split (a question on
    what the tree will do is asked: nothing of its answer reaches the browser before the reveal).
    """
    steps = player_steps(model) if steps is None else steps
    classes = [str(c) for c in model.classes_]
    nodes = tree_nodes(model)
    shown = [node.id for node in model.decision_path(path)] if path is not None else []
    if withheld:
        nodes, steps, start = [{**nodes[0], "test": None, "split": None}], [], 0
        shown = shown[:1]
    return {
        "classes": classes,
        "nodes": nodes,
        "steps": steps,
        "start": int(min(max(start, 0), len(steps))),
        "note": "" if withheld else size_note(model),
        "path": [int(node) for node in shown],
        "withheld": bool(withheld),
        "present": bool(present),
        "tables": bool(tables),
        "font": 18 if present else 14,
        "height": ROOT_HEIGHT if withheld else 330 if present else 420,
        "theme": {
            **theme.player_theme(len(classes)),
            "highlight": theme.HIGHLIGHT,
            "grid": theme.GRID,
        },
    }


# --------------------------------------------------------------------------------------------
# Vega-Lite: the regions of a tree on two real features, the evaluation charts
# --------------------------------------------------------------------------------------------

VEGA_SHAPES = ["circle", "square", "triangle-up", "diamond", "triangle-down", "cross"]


def on_a_plane(model: Any, X: Any) -> bool:
    """Whether the tree's leaves are boxes on a plane: two numeric features, no value missing."""
    if model.n_features_in_ != 2 or not np.all(model.numeric_):
        return False
    try:
        return bool(np.isfinite(np.asarray(X, dtype=float)).all())
    except ValueError:  # a missing-value marker
        return False


def leaf_boxes(model: Any, low: Sequence[float], high: Sequence[float]) -> list[dict]:
    """The leaves of a tree on two numeric features as boxes inside ``[low, high]``.

    Each box is ``{"leaf", "label", "x", "x2", "y", "y2"}``: a threshold test ``x_j <= τ``
    cuts its node's box in two along axis ``j``, so every leaf owns an axis-aligned box.
    """
    boxes, stack = [], [(model.root_, list(low), list(high))]
    while stack:
        node, lo, hi = stack.pop()
        if node.is_leaf:
            boxes.append(
                {
                    "leaf": int(node.id),
                    "label": str(node.label),
                    "x": lo[0],
                    "x2": hi[0],
                    "y": lo[1],
                    "y2": hi[1],
                }
            )
            continue
        j, tau = node.feature_index, node.threshold
        left, right = node.children.values()
        stack.append((left, lo, [tau if k == j else h for k, h in enumerate(hi)]))
        stack.append((right, [tau if k == j else v for k, v in enumerate(lo)], hi))
    return boxes


def regions_spec(model: Any, X: np.ndarray, y: np.ndarray, row: int, present: bool = False) -> dict:
    """A Vega-Lite chart: the tree's leaf boxes in their class's light colour, the points on top.

    The leaf and the point of ``row`` are outlined in the accent colour; a click on a point
    selects it (the selection ``pick`` carries the point's ``row``).
    """
    X = np.asarray(X, dtype=float)
    pad = 0.05 * (X.max(axis=0) - X.min(axis=0) + 1e-9)
    low, high = X.min(axis=0) - pad, X.max(axis=0) + pad
    classes = [str(c) for c in model.classes_]
    leaf = int(model.apply(X[row : row + 1])[0])
    colors = theme.class_colors(len(classes))
    color = {"domain": classes, "range": colors}
    points = [
        {"row": i, "x1": round(float(a), 4), "x2": round(float(b), 4), "label": str(c), "picked": i == row}
        for i, (a, b, c) in enumerate(zip(X[:, 0], X[:, 1], y, strict=True))
    ]
    size = 22 if present else 14
    legend = {"orient": "top", "title": None}  # above the plot: the plot keeps the column's width
    x = {
        "field": "x",
        "type": "quantitative",
        "title": "x1",
        "scale": {"domain": [low[0], high[0]], "nice": False},
    }
    y_ = {
        "field": "y",
        "type": "quantitative",
        "title": "x2",
        "scale": {"domain": [low[1], high[1]], "nice": False},
    }
    return {
        "height": 330 if present else 420,
        "config": {
            "axis": {"labelFontSize": size * 0.8, "titleFontSize": size},
            "legend": {"labelFontSize": size * 0.8, "titleFontSize": size * 0.8},
        },
        # The boxes' light fills and the points' colours are two scales: shared, the boxes' (no legend) won.
        "resolve": {"scale": {"fill": "independent"}},
        "layer": [
            {
                "data": {
                    "values": [{**b, "on_path": b["leaf"] == leaf} for b in leaf_boxes(model, low, high)]
                },
                "mark": {"type": "rect", "opacity": 0.9},
                "encoding": {
                    "x": x,
                    "x2": {"field": "x2"},
                    "y": y_,
                    "y2": {"field": "y2"},
                    "fill": {
                        "field": "label",
                        "type": "nominal",
                        "scale": {"domain": classes, "range": [theme.light(c, 0.6) for c in colors]},
                        "legend": None,
                    },
                    "stroke": {
                        "condition": {"test": "datum.on_path", "value": theme.ACCENT},
                        "value": theme.GRID,
                    },
                    "strokeWidth": {"condition": {"test": "datum.on_path", "value": 3}, "value": 0.5},
                    "tooltip": [{"field": "label", "title": "leaf predicts"}],
                },
            },
            {
                "data": {"values": points},
                "params": [
                    {
                        "name": "pick",
                        "select": {"type": "point", "fields": ["row"], "on": "click", "nearest": True},
                    }
                ],
                "mark": {"type": "point", "filled": True, "size": 70 if present else 45, "cursor": "pointer"},
                "encoding": {
                    "x": {"field": "x1", "type": "quantitative"},
                    "y": {"field": "x2", "type": "quantitative"},
                    "color": {"field": "label", "type": "nominal", "scale": color, "legend": legend},
                    "shape": {
                        "field": "label",
                        "type": "nominal",
                        "scale": {"domain": classes, "range": VEGA_SHAPES[: len(classes)]},
                        "legend": legend,
                    },
                    "stroke": {
                        "condition": {"test": "datum.picked", "value": theme.ACCENT},
                        "value": theme.INK,
                    },
                    "strokeWidth": {"condition": {"test": "datum.picked", "value": 3}, "value": 0.4},
                    "tooltip": [
                        {"field": "row"},
                        {"field": "x1", "format": ".2f"},
                        {"field": "x2", "format": ".2f"},
                        {"field": "label"},
                    ],
                },
            },
        ],
    }


def line_spec(rows: list[dict], x: str, y: str, series: str, title: str, x_scale: str = "linear") -> dict:
    """A Vega-Lite line chart with points, one line per ``series`` (class colours in order)."""
    names = list(dict.fromkeys(r[series] for r in rows))
    return {
        "title": title,
        "data": {"values": rows},
        "mark": {"type": "line", "point": True},
        "encoding": {
            "x": {"field": x, "type": "quantitative", "scale": {"type": x_scale}},
            "y": {"field": y, "type": "quantitative"},
            "color": {
                "field": series,
                "type": "nominal",
                "scale": {"domain": names, "range": theme.class_colors(len(names))},
            },
            "shape": {"field": series, "type": "nominal"},
        },
    }


def learning_curve_spec(result: Any) -> dict:
    """Training and held-out accuracy against training rows (means over the shuffles)."""
    rows = [
        {"training rows": int(n), "accuracy": float(a), "measured on": part}
        for part, scores in (("training rows", result.curve_train), ("held-out rows", result.curve_test))
        for n, a in zip(result.curve_sizes, scores.mean(axis=0), strict=True)
    ]
    spec = line_spec(
        rows, "training rows", "accuracy", "measured on", "Learning curve (mean of the shuffles)"
    )
    spec["encoding"]["y"]["axis"] = {"format": "%"}
    return spec


def representation_spec(sizes: dict[str, list[int]], parity: bool = True) -> dict:
    """Nodes against n for AND and parity on a log scale: a line against an exponential
    (``parity=False``: AND's line alone, while a question on parity's count is asked)."""
    functions = ("AND", "parity") if parity else ("AND",)
    rows = [
        {"n": n, "nodes": nodes, "function": name}
        for name in functions
        for n, nodes in zip(sizes["n"], sizes[name], strict=True)
    ]
    spec = line_spec(rows, "n", "nodes", "function", "Nodes ID3 needs for n binary features")
    spec["encoding"]["y"]["scale"] = {"type": "log", "base": 2}
    spec["encoding"]["x"]["axis"] = {"tickMinStep": 1, "format": "d"}  # n counts features: whole numbers
    return spec
