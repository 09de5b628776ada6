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

import math
import re
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from classic.viz import theme

DIGITS = 4  # the slides print entropies to four places (0.9183, 0.6887, 0.3113)

# Markdown's and Streamlit's special characters, backslash-escaped by ``markdown_text``.
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~:$^=&\"'])")


def markdown_text(text: Any) -> str:
    """``text`` escaped for ``st.markdown`` and widget labels: it shows as typed, never as markup.

    Every Markdown and LaTeX character is backslash-escaped and line breaks become spaces,
    so a value such as ``![x](http://host/a.png)`` is shown as those characters and the
    browser fetches nothing.
    """
    flat = " ".join(str(text).split())
    return _MARKDOWN.sub(r"\\\1", flat)


def number(value: float) -> str:
    """A score as the step table and the player print it (four decimals, no negative zero)."""
    return f"{abs(value) if abs(value) < 0.5 * 10**-DIGITS else value:.{DIGITS}f}"


# --------------------------------------------------------------------------------------------
# The tree as nodes and edges
# --------------------------------------------------------------------------------------------


def _nodes(root: Any) -> Iterator[tuple[Any, Any, str | None]]:
    """``(node, parent, edge label)`` for every node, parents first (depth first, drawn order)."""
    stack = [(root, None, None)]
    while stack:
        node, parent, edge = stack.pop()
        yield node, parent, edge
        stack.extend((child, node, str(value)) for value, child in reversed(node.children.items()))


def _test(node: Any) -> str:
    """The question a node asks: its feature (children carry the values or thresholds)."""
    return str(node.feature)


def tree_nodes(model: Any) -> list[dict]:
    """The fitted tree as JSON nodes: id, parent, edge label, test, label, counts, split step.

    ``split`` is the index of the step that split the node (None for a leaf), so a player can
    show the tree as it was after any number of splits.
    """
    return [
        {
            "id": int(node.id),
            "parent": None if parent is None else int(parent.id),
            "edge": edge,
            "test": None if node.is_leaf else _test(node),
            "label": str(node.label),
            "counts": [int(n) for n in node.counts.values()],
            "split": None if node.is_leaf or node.step is None else int(node.step),
        }
        for node, parent, edge in _nodes(model.root_)
    ]


def where(model: Any, node: Any) -> str:
    """The path to ``node`` in words ("the root" or "Outlook = Sunny, Humidity = High")."""
    tests = model.conditions(node)
    return ", ".join(f"{feature} = {value}" for feature, value in tests) if tests else "the root"


# --------------------------------------------------------------------------------------------
# One split, as a table a student can redo by hand
# --------------------------------------------------------------------------------------------


def split_table(step: Any, X: Any, y: Any) -> dict[str, list]:
    """The score table of one split: one row per candidate feature, the chosen one marked.

    Columns: the feature, the node's impurity before, the children's weighted impurity after,
    the gain (before − after) and, for the gain ratio, the split information and the ratio.
    """
    tree = step.tree
    impurity = "Gini" if tree.criterion == "gini" else "H"
    candidates = step.candidates()
    table: dict[str, list] = {
        "feature": [c.feature for c in candidates],
        f"{impurity} before": [c.before for c in candidates],
        f"{impurity} after (weighted)": [c.after for c in candidates],
        "gain": [c.gain for c in candidates],
    }
    if tree.criterion == "gain_ratio":
        table["split information"] = [c.split_information for c in candidates]
        table["gain ratio"] = [c.score for c in candidates]
    table["chosen"] = [c.chosen for c in candidates]
    return table


def split_terms(step: Any, X: Any, y: Any) -> dict[str, list]:
    """The terms of every candidate's weighted sum: one row per (feature, value) at the node.

    Each row holds the rows with that value, their class counts, the subset's impurity and
    its weight ``|S_v| / |S|`` written as a fraction: multiplying and adding a feature's rows
    gives its "after".
    """
    tree = step.tree
    X, y = np.asarray(X, dtype=str)[step.rows], np.asarray(y).astype(str)[step.rows]
    classes = [str(c) for c in tree.classes_]
    gini = tree.criterion == "gini"
    rows: dict[str, list] = {"feature": [], "value": [], "rows": [], **{c: [] for c in classes}}
    rows.update({"Gini" if gini else "H": [], "weight": []})
    for j, feature in zip(step.columns, step.features, strict=True):
        known = X[:, j] != tree.missing_value if tree.missing != "value" else np.ones(len(X), bool)
        for value in np.unique(X[known, j]):
            counts = np.array([np.sum((X[:, j] == value) & (y == c)) for c in classes])
            p = counts / counts.sum()
            h = 1.0 - float(p @ p) if gini else float(-sum(q * math.log2(q) for q in p if q > 0))
            rows["feature"].append(feature)
            rows["value"].append(str(value))
            rows["rows"].append(int(counts.sum()))
            for c, n in zip(classes, counts, strict=True):
                rows[c].append(int(n))
            rows["Gini" if gini else "H"].append(h)
            rows["weight"].append(f"{int(counts.sum())}/{int(known.sum())}")
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
    """Each feature's weighted-sum terms as lines: value, rows, class counts, impurity, weight."""
    impurity = "Gini" if "Gini" in terms else "H"
    lines: dict[str, list[str]] = {}
    for i, feature in enumerate(terms["feature"]):
        counts = " · ".join(f"{c} {terms[c][i]}" for c in classes)
        lines.setdefault(feature, []).append(
            f"{terms['value'][i]}: {terms['rows'][i]} rows ({counts}), "
            f"{impurity} = {number(terms[impurity][i])}, weight {terms['weight'][i]}"
        )
    return lines


def player_data(model: Any, X: Any, y: Any, start: int = 0, present: bool = False) -> dict:
    """Everything the step player draws, as JSON: the tree's nodes, every split, the theme.

    ``start`` is the frame shown first (the number of splits made); ``present`` enlarges the
    text for a projector. Each step carries its score table (cells as printed, the chosen row's
    index) and, per candidate feature, the terms of its weighted sum.
    """
    classes = [str(c) for c in model.classes_]
    steps = []
    for k, step in enumerate(model.steps_, start=1):
        table = split_table(step, X, y)
        header, rows = _cells(table)
        steps.append(
            {
                "node": int(step.node.id),
                "text": f"Split {k} of {len(model.steps_)}: {where(model, step.node)} "
                f"({step.node.n_samples} rows) asks about {step.chosen}.",
                "header": header,
                "rows": rows,
                "chosen": table["chosen"].index(True),
                "terms": _terms_text(split_terms(step, X, y), classes),
            }
        )
    palette = theme.player_theme(len(classes))
    return {
        "classes": classes,
        "nodes": tree_nodes(model),
        "steps": steps,
        "start": int(min(max(start, 0), len(steps))),
        "font": 18 if present else 14,
        "height": 330 if present else 420,
        "theme": {
            **palette,
            "highlight": theme.HIGHLIGHT,
            "grid": theme.GRID,
            "paper": theme.light(theme.INK, 1.0),
        },
    }
