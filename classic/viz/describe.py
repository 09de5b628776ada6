"""The figures described in words, for a reader who cannot see them (WCAG 1.1.1).

``map_description`` describes a k-NN decision map from the winners of its cells: each class's
share of the map, where the boundary runs (by ninths: the top left … the bottom right) and how
much of the map changed since an earlier k. The k player (``assets/knn_player.html``,
``mapDescription``) computes the same text in the browser from the cells it draws, for every k;
``tests/test_describe.py`` runs both on the same maps and asks for the same words.
"""

from collections.abc import Sequence

import numpy as np

# The map's ninths by (row third from the bottom, column third from the left).
NINTHS = (
    ("bottom left", "bottom", "bottom right"),
    ("left", "centre", "right"),
    ("top left", "top", "top right"),
)


def _listed(items: Sequence[str]) -> str:
    return "".join(items) if len(items) < 2 else ", ".join(items[:-1]) + " and " + items[-1]


def _the(items: Sequence[str]) -> str:
    return _listed([f"the {name}" for name in items])


def _rim(R: int) -> list[int]:
    """The cells of the map's edge clockwise from the top left corner (cell = row · R + column)."""
    rim = [(R - 1) * R + col for col in range(R)]
    rim += [row * R + R - 1 for row in range(R - 2, -1, -1)]
    rim += list(range(R - 2, -1, -1))
    rim += [row * R for row in range(1, R - 1)]
    return rim


def boundary_cells(winners: np.ndarray) -> np.ndarray:
    """The cells of a square map (rows × columns) beside a cell of another winner."""
    w = np.asarray(winners)
    edge = np.zeros(w.shape, dtype=bool)
    across = w[:, 1:] != w[:, :-1]
    edge[:, 1:] |= across
    edge[:, :-1] |= across
    down = w[1:, :] != w[:-1, :]
    edge[1:, :] |= down
    edge[:-1, :] |= down
    return edge


def _boundary_sentence(winners: np.ndarray) -> str:
    R = winners.shape[0]
    edge = boundary_cells(winners)
    if not edge.any():
        return "There is no boundary: one colour covers the whole map."
    thirds = (3 * np.arange(R)) // R
    through = np.zeros((3, 3), dtype=bool)
    rows, cols = np.nonzero(edge)
    through[thirds[rows], thirds[cols]] = True
    flat = edge.ravel()
    rim = _rim(R)
    L = len(rim)
    on = [bool(flat[c]) for c in rim]
    ends: list[tuple[str, int]] = []
    if all(on):
        ends.append(("all", 0))
    else:
        off = on.index(False)
        i = 1
        while i <= L:  # runs of boundary cells along the edge, each named by its middle cell's ninth
            if on[(off + i) % L]:
                j = i
                while j + 1 <= L and on[(off + j + 1) % L]:
                    j += 1
                middle, start, end = (off + i + (j - i) // 2) % L, (off + i) % L, (off + j) % L
                cell = rim[middle]
                # In the edge's order from the top left corner: a run through the corner comes first.
                ends.append(
                    (NINTHS[thirds[cell // R]][thirds[cell % R]], start - L if start > end else start)
                )
                i = j
            i += 1
    ends.sort(key=lambda end: end[1])
    names: list[str] = []
    for name, _ in ends:
        if name not in names:
            names.append(name)
    where = [NINTHS[y][x] for y in (2, 1, 0) for x in range(3) if through[y, x]]
    passing = "every part of the map" if len(where) == 9 else _the(where)
    if names and names[0] == "all":
        return f"The boundary runs all round the map's edge, through {passing}."
    if not names:
        return f"The boundary closes on itself inside the map, round {passing}."
    if len(names) == 1:
        return f"The boundary meets the map's edge at the {names[0]} and passes through {passing}."
    if len(names) == 2:
        return f"The boundary runs from the {names[0]} to the {names[1]}, through {passing}."
    return f"The boundaries meet the map's edge at {_the(names)}, and pass through {passing}."


def map_description(
    winners: np.ndarray,
    tied: np.ndarray | None,
    class_names: Sequence[str],
    previous: np.ndarray | None = None,
    *,
    k: int | None = None,
    previous_k: int | None = None,
    tell_classes: bool = True,
) -> str:
    """A k-NN decision map in words, as the k player says it.

    ``winners`` is the square map of winning class indices, rows from the bottom (as the player's
    cells: cell = row · R + column; a flat array of R² cells is read so), −1 where a cell is not
    voted; ``tied`` marks the cells shown grey as tied votes (None: none). ``previous`` is the map at
    ``previous_k``, to say how much changed. ``tell_classes=False`` (a question on the prediction
    or the regions is asked) leaves out which class covers what.
    """
    w = np.asarray(winners, dtype=np.int64)
    if w.ndim == 1:
        side = round(np.sqrt(w.size))
        w = w.reshape(side, side)
    cells = w.size

    def share(n: int) -> str:  # a percentage that never says 0 or 100 of a part that is not
        p = int(np.floor(100 * n / cells + 0.5))
        return "under 1%" if n > 0 and p == 0 else "over 99%" if n < cells and p == 100 else f"{p}%"

    out = [] if k is None else [f"k = {k}."]
    voted = w[w >= 0]
    counts = np.bincount(voted, minlength=len(class_names))[: len(class_names)]
    unvoted = int((w < 0).sum())
    grey = 0 if tied is None else int(np.count_nonzero(tied))
    if not tell_classes:
        out.append("The regions' classes are not told while the question is asked.")
    else:
        order = sorted((c for c in range(len(class_names)) if counts[c] > 0), key=lambda c: (-counts[c], c))
        if order:
            rest = "".join(f", {class_names[c]} {share(int(counts[c]))}" for c in order[1:])
            out.append(f"{class_names[order[0]]} covers {share(int(counts[order[0]]))} of the map{rest}.")
            none = [class_names[c] for c in range(len(class_names)) if counts[c] == 0]
            if none:
                out.append(f"No cell goes to {_listed(none)}.")
    if grey:
        out.append(f"Tied votes (greyed) cover {share(grey)}.")
    if unvoted:
        out.append(f"{share(unvoted)} of the map is not voted yet.")
    out.append(_boundary_sentence(w))
    if previous is not None:
        before = np.asarray(previous, dtype=np.int64).reshape(w.shape)
        changed = int(((w >= 0) & (before >= 0) & (w != before)).sum())
        since = "Since the last description" if previous_k is None else f"From k = {previous_k}"
        out.append(
            f"{since}: {share(changed)} of the map changed class."
            if changed
            else f"{since}: no cell changed class."
        )
    return " ".join(out)
