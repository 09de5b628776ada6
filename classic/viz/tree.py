"""A fitted ID3 tree as graphviz DOT source, and DOT laid out by graphviz's ``dot`` program.

Modelled on scikit-learn's ``export_graphviz``: a function of the fitted estimator, outside
the class. Every text that came from the data (feature names, values, class names) goes
into HTML-like labels escaped (``& < > " '``), with control characters replaced and long
names cut to ``MAX_TEXT`` characters (the full text stays in the tooltip), so a file's
content is always drawn as text and never breaks the DOT syntax. A tree with more than
``MAX_NODES`` nodes is drawn down to the deepest level that fits, and the nodes cut there
say how much is hidden: ``dot`` needs seconds for a few hundred nodes and minutes for
thousands. Colours come from :mod:`classic.viz.theme`.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from classic.viz import theme

MAX_NODES = 120  # nodes drawn; deeper levels are cut
MAX_TEXT = 24  # characters of a name or value in a box (the tooltip holds up to MAX_TOOLTIP)
MAX_TOOLTIP = 200
MAX_CLASSES_SHOWN = 6  # class counts listed in a box; the rest are summed as "+k more"
MAX_DOT_BYTES = 400_000  # what render_dot accepts
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class TreeDrawing:
    """DOT source and how much of the tree it shows: levels ``0..depth`` of ``0..full_depth``."""

    source: str
    depth: int
    full_depth: int
    hidden_nodes: int

    @property
    def complete(self) -> bool:
        return self.hidden_nodes == 0

    def __str__(self) -> str:
        return self.source


def _plain(text: Any, limit: int) -> str:
    text = _CONTROL.sub("�", str(text))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def html_text(text: Any, limit: int = MAX_TEXT) -> str:
    """``text`` cut to ``limit`` characters and escaped for a graphviz HTML-like label."""
    text = _plain(text, limit)
    for char, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"), ("'", "&#39;")):
        text = text.replace(char, entity)
    return text


def quoted(text: Any, limit: int = MAX_TOOLTIP) -> str:
    """``text`` as a double-quoted DOT string (backslashes and quotes escaped)."""
    return '"' + _plain(text, limit).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _wrapped(name: str, width: int = 14) -> str:
    """An escaped name broken into lines of about ``width`` characters after - _ or space."""
    lines, line = [], ""
    for piece in re.split(r"(?<=[-_ ])", _plain(name, MAX_TEXT)):
        if line and len(line) + len(piece) > width:
            lines.append(line)
            line = ""
        line += piece
    return "<BR/>".join(html_text(part) for part in [*lines, line])


def _counts(counts: dict[str, int], compact: bool) -> str:
    items = list(counts.items())
    shown, rest = items[:MAX_CLASSES_SHOWN], sum(n for _, n in items[MAX_CLASSES_SHOWN:])
    text = (
        " / ".join(str(n) for _, n in shown)
        if compact
        else " · ".join(f"{html_text(c)} {n}" for c, n in shown)
    )
    return text + (f" (+{rest} in {len(items) - len(shown)} more classes)" if len(items) > len(shown) else "")


def _depth_that_fits(sizes: Counter, max_nodes: int) -> int:
    total, depth = 0, -1
    for level in sorted(sizes):
        total += sizes[level]
        if total > max_nodes and depth >= 0:
            break
        depth = level
    return depth


def to_dot(
    model: Any,
    *,
    highlight: Sequence | None = None,
    splits: int | None = None,
    focus: int | None = None,
    rankdir: str = "TB",
    compact: bool = False,
    max_nodes: int = MAX_NODES,
) -> TreeDrawing:
    """Draw a fitted :class:`classic.id3.ID3` as DOT.

    Internal nodes show the feature tested, the class counts and (unless ``compact``) the
    entropy; edges the value or the threshold test; leaves the label (dashed: no training row
    got there, so the parent's majority answers). ``highlight`` (a record) colours the path it
    takes; ``splits`` draws the tree as it was after that many splits; ``focus`` (a node id)
    outlines one node; ``rankdir`` "LR" lays the tree out left to right; ``compact`` shows bare
    counts (in ``classes_`` order) and wraps long names.
    """
    if rankdir not in ("TB", "LR"):
        raise ValueError(f"rankdir must be 'TB' or 'LR', got {rankdir!r}")
    if int(max_nodes) != max_nodes or max_nodes < 1:
        raise ValueError(f"max_nodes must be an integer >= 1, got {max_nodes!r}")
    visited = {node.id for node in model.decision_path(highlight)} if highlight is not None else set()

    def grown(node: Any) -> bool:
        return not node.is_leaf and (splits is None or (node.step is not None and node.step < splits))

    shown, stack = [], [model.root_]
    while stack:
        node = stack.pop()
        shown.append(node)
        if grown(node):
            stack.extend(reversed(list(node.children.values())))
    sizes = Counter(node.depth for node in shown)
    depth, full_depth = _depth_that_fits(sizes, max_nodes), max(sizes)
    hidden = sum(n for level, n in sizes.items() if level > depth)
    fills = {str(c): theme.light(theme.class_color(i), 0.7) for i, c in enumerate(model.classes_)}
    size = 11 if compact else 14
    lines = [
        "digraph ID3 {",
        f'  graph [fontname="Helvetica", rankdir={rankdir}, nodesep=0.3, ranksep=0.45];',
        f'  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize={size}, fillcolor="white"];',
        f'  edge [fontname="Helvetica", fontsize={size - 1}];',
    ]
    for node in shown:
        if node.depth > depth:
            continue
        counts = _counts(node.counts, compact) + ("" if compact else f"<BR/>H = {node.entropy:.3f}")
        attributes, tooltip = [], node.label
        if grown(node) and node.depth == depth:
            below = sum(1 for n in _subtree(node, grown)) - 1
            head = f"<B>{html_text(node.feature)}</B> …"
            counts += f"<BR/>{below} nodes below not drawn"
            attributes += ['style="rounded,filled,dashed"', f'fillcolor="{theme.light(theme.GRID, 0.5)}"']
            tooltip = node.feature
        elif grown(node):
            head = f"<B>{_wrapped(node.feature) if compact else html_text(node.feature)}</B>"
            tooltip = node.feature
        elif node.n_samples == 0:
            head = f"<B>{html_text(node.label)}</B>"
            counts = "no training rows:<BR/>parent's majority"
            attributes += ['style="rounded,filled,dashed"', f'fillcolor="{fills[node.label]}"']
        else:
            head = f"<B>{html_text(node.label)}</B>" + (" (pruned)" if node.pruned else "")
            attributes.append(f'fillcolor="{fills[node.label]}"')
        if node.id in visited:
            attributes += [f'color="{theme.ACCENT}"', "penwidth=3"]
        if node.id == focus:
            attributes += [f'color="{theme.FOCUS}"', "penwidth=4"]
        label = f'<{head}<BR/><FONT POINT-SIZE="{size - 3 if compact else size - 2}">{counts}</FONT>>'
        attributes.append(f"tooltip={quoted(tooltip)}")
        lines.append(f"  n{node.id} [label={label}, {', '.join(attributes)}];")
        if not grown(node) or node.depth == depth:
            continue
        for value, child in node.children.items():
            style = (
                f', color="{theme.ACCENT}", penwidth=3' if child.id in visited and node.id in visited else ""
            )
            edge = f"<{html_text(value)}>"
            lines.append(
                f"  n{node.id} -> n{child.id} [label={edge}, tooltip={quoted(node.condition(value))}{style}];"
            )
    lines.append("}")
    return TreeDrawing("\n".join(lines), depth, full_depth, hidden)


def _subtree(node: Any, grown: Any) -> Any:
    """The nodes of ``node``'s drawn subtree, ``node`` included."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        if grown(node):
            stack.extend(node.children.values())


def render_dot(dot: str | TreeDrawing, format: str = "svg", timeout: float = 10.0) -> bytes:
    """Lay out DOT source with graphviz's ``dot`` program (``format`` "svg" or "png").

    Raises ``FileNotFoundError`` when graphviz is not installed, ``ValueError`` on a bad
    format, a source over ``MAX_DOT_BYTES``, a layout slower than ``timeout`` seconds, or
    when ``dot`` rejects the source.
    """
    source = str(dot)
    if format not in ("svg", "png"):
        raise ValueError(f"format must be 'svg' or 'png', got {format!r}")
    if len(source.encode()) > MAX_DOT_BYTES:
        raise ValueError(
            f"the drawing has {len(source.encode()):,} bytes of DOT; the limit is {MAX_DOT_BYTES:,}"
        )
    program = shutil.which("dot")
    if program is None:
        raise FileNotFoundError("graphviz's dot program is not installed (apt-get install graphviz)")
    try:
        done = subprocess.run(
            [program, f"-T{format}"], input=source.encode(), capture_output=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        raise ValueError(f"graphviz needed more than {timeout:g} s to lay the tree out") from None
    if done.returncode != 0:
        raise ValueError(f"dot could not draw the tree: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout
