"""A deck printed: the students' handout and the teacher's answer key, as vector PDFs.

``handout(deck, resolved, paper)`` gives each slide a page (or more): its title, a figure of the
view's data and set-up, then each question with a box to tick per choice (or a line for a
number) and ruled lines to say why. ``answer_key(deck, resolved, paper)`` lists, slide by slide,
each question's right answer (the choice, the number ± its tolerance, or that it is an opinion)
with its why, and the teacher's notes. ``resolved`` holds, per slide, its questions as
``classic.lessons.decks.resolve`` gives them: a :class:`classic.lessons.Step` or the teacher's
own question.

The handout is read before any answer is revealed, so its figure is honest: it draws what the
page shows *before* it answers, the data rebuilt from the slide's link values by the lessons'
own functions (the points and their classes in the app's colours and shapes, the k-NN query,
the tree's table, a drawn digit's grid) and never a model's output (regions, lines, trees,
accuracies), which would answer the questions.

Matplotlib's PDF backend and a small layout of our own (wrapped text, boxes, rules) keep it to
the dependencies the lab already has; fonts are embedded as TrueType, so the text is text
(searchable, copyable, read by ``pdftotext``). Every text a teacher or a file typed is drawn as
plain text: mathtext is off for each (``parse_math=False``), so ``$x$`` prints as ``$x$``.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from classic.viz import common  # noqa: F401  (selects the Agg backend before any figure is made)
from classic.viz.theme import GRID, INK, MARKERS, MUTED, PAPER, TEXT, class_color

# Paper sizes in points (1/72 inch): A4 is 210 × 297 mm, US Letter 8.5 × 11 in.
PAPERS = {"A4": (210 / 25.4 * 72, 297 / 25.4 * 72), "Letter": (8.5 * 72, 11.0 * 72)}
MARGIN = 54.0  # 3/4 inch: inside every printer's unprintable edge
FONT = "DejaVu Sans"  # installed with matplotlib: covers x₁, ≤, →, ×, ± and the lessons' other signs
WHY_LINES = 4  # ruled lines under each question for the student's why
RULE_GAP = 22.0  # points between ruled lines: room for handwriting
FIGURE_HEIGHT = 216.0  # 3 inches for the view's figure
TABLE_ROWS = 16  # a table with more distinct rows is shown as its first rows
LETTERS = "ABCDEFGH"  # a question has at most 8 choices (classic.lessons.MAX_OPTIONS)


# ---------------------------------------------------------------------------------------------
# The questions, whatever their source: a Step ("Try this", made) or the teacher's own.


@dataclass(frozen=True)
class _Question:
    title: str
    text: str
    choices: tuple[str, ...]  # empty for a number
    answer: int | None  # the right choice's index; -1 an opinion; None for a number
    number: float | None
    tolerance: float
    why: str


def _get(thing: Any, name: str, default: Any = None) -> Any:
    """A field of a dataclass or of a plain dict (a deck loaded or built by hand)."""
    if isinstance(thing, Mapping):
        return thing.get(name, default)
    return getattr(thing, name, default)


def _question(q: Any) -> _Question:
    """A resolved question as what the handout prints: a Step has ``options`` and its answer
    among them; the teacher's own has ``text`` and either ``choices`` and an answer index (-1: an
    opinion) or a ``number`` with its ``tolerance``."""
    if _get(q, "options") is not None:
        options = tuple(str(o) for o in _get(q, "options"))
        answer = str(_get(q, "answer"))
        index = options.index(answer) if answer in options else None
        return _Question(
            str(_get(q, "title", "")),
            str(_get(q, "question")),
            options,
            index,
            None,
            0.0,
            str(_get(q, "why", "")),
        )
    choices = tuple(str(c) for c in (_get(q, "choices") or ()))
    number = _get(q, "number")
    if choices or number is None:
        answer = _get(q, "answer", -1)
        return _Question(
            "",
            str(_get(q, "text")),
            choices,
            -1 if answer is None else int(answer),
            None,
            0.0,
            str(_get(q, "why", "") or ""),
        )
    return _Question(
        "",
        str(_get(q, "text")),
        (),
        None,
        float(number),
        float(_get(q, "tolerance", 0) or 0),
        str(_get(q, "why", "") or ""),
    )


def _number(x: float) -> str:
    return f"{x:,.10g}".replace(",", " ") if abs(x) >= 1e4 else f"{x:.10g}"


def answer_text(q: Any) -> str:
    """The key's answer to a resolved question: "B. the choice", "12 ± 2" or the opinion's note."""
    q = q if isinstance(q, _Question) else _question(q)
    if q.number is not None:
        return f"{_number(q.number)} ± {_number(q.tolerance)}" if q.tolerance else _number(q.number)
    if q.answer is None or q.answer < 0 or q.answer >= len(q.choices):
        return "opinion: no right answer"
    return f"{LETTERS[q.answer]}. {q.choices[q.answer]}"


# ---------------------------------------------------------------------------------------------
# The layout: a cursor running down a page, a new page when the next block does not fit.


@functools.lru_cache(maxsize=4)
def _font(bold: bool):
    from matplotlib.font_manager import FontProperties, findfont, get_font

    return get_font(findfont(FontProperties(family=FONT, weight="bold" if bold else "normal")))


@functools.lru_cache(maxsize=4096)
def _advance(char: str, bold: bool) -> float:
    """The advance of one character at 1 point, in points: FreeType's 26.6 fixed point at 72 dpi
    (at 100 points, for precision)."""
    font = _font(bold)
    font.set_size(100, 72)
    font.set_text(char, 0.0)
    return font.get_width_height()[0] / 64 / 100


def _width(text: str, size: float, bold: bool = False) -> float:
    """The width in points of ``text`` set in the handout's font, as the sum of its characters'
    advances (kerning left out: ``wrap`` keeps a margin for it). Measuring a whole string with
    FreeType costs about a millisecond; a page has hundreds."""
    return size * sum(_advance(char, bold) for char in text)


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width`` points (its own line breaks kept; a
    word longer than a line is cut)."""
    lines: list[str] = []
    width *= 0.98  # room for the kerning the measure leaves out
    for paragraph in str(text).replace("\t", "    ").split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if _width(candidate, size, bold) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while _width(word, size, bold) > width:  # a URL, a long number: cut where it overflows
                cut = max(
                    1,
                    next((i for i in range(1, len(word) + 1) if _width(word[:i], size, bold) > width), 2) - 1,
                )
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def _choice_text(size: float, indent: float = 14.0) -> float:
    """Where a choice's text starts: after its box, a gap and its letter. One column for every
    choice, whatever its letter's width ("I." is narrower than "H.")."""
    return indent + size * 0.95 + 6.0 + max(_width(f"{x}.  ", size, True) for x in LETTERS)


class _Sheet:
    """Pages of one PDF, laid out top to bottom in points from the top-left corner."""

    def __init__(self, pdf, paper: str, running: str):
        if paper not in PAPERS:
            raise ValueError(f"paper must be one of {', '.join(PAPERS)}; got {paper!r}")
        self.pdf, (self.W, self.H), self.running = pdf, PAPERS[paper], running
        self.fig, self.y, self.pages, self.heading = None, 0.0, 0, ""
        self.left, self.right = MARGIN, self.W - MARGIN
        self.bottom = self.H - MARGIN

    @property
    def width(self) -> float:
        return self.right - self.left

    def new_page(self, heading: str = "") -> None:
        """A new page; ``heading`` (the slide's) is repeated on the pages it runs on to."""
        from matplotlib.figure import Figure

        self.finish_page()
        self.fig = Figure(figsize=(self.W / 72, self.H / 72), dpi=72, facecolor=PAPER)
        self.pages += 1
        self.heading = heading
        foot = self.H - MARGIN / 2
        self._text(self.left, foot, self.running, 8, color=MUTED)
        self._text(self.right, foot, f"page {self.pages}", 8, color=MUTED, ha="right")
        self.y = MARGIN

    def finish_page(self) -> None:
        if self.fig is not None:
            self.pdf.savefig(self.fig)
            self.fig = None

    def need(self, height: float) -> None:
        """Room for ``height`` points, on a new page (the heading repeated, "continued") if not here."""
        if self.fig is None:
            self.new_page()
        elif self.y + height > self.bottom:
            heading = self.heading
            self.new_page(heading)
            if heading:
                self.line(f"{heading} (continued)", 9, color=MUTED)
                self.space(6)

    def space(self, height: float) -> None:
        self.y += height

    def _text(
        self, x: float, baseline: float, text: str, size: float, bold=False, color=TEXT, ha="left"
    ) -> None:
        # parse_math=False: a "$" or a backslash in a teacher's text is printed, never typeset.
        self.fig.text(
            x / self.W,
            1 - baseline / self.H,
            text,
            fontsize=size,
            fontweight="bold" if bold else "normal",
            color=color,
            ha=ha,
            va="baseline",
            parse_math=False,
            family=FONT,
        )

    def line(self, text: str, size: float, bold=False, color=TEXT, indent: float = 0.0) -> None:
        """One line of text, not wrapped (the caller measured it)."""
        height = size * 1.3
        self.need(height)
        self._text(self.left + indent, self.y + size * 0.95, text, size, bold, color)
        self.y += height

    def paragraph(self, text: str, size: float = 10, bold=False, color=TEXT, indent: float = 0.0) -> None:
        lines = wrap(text, self.width - indent, size, bold)
        if len(lines) <= 8:  # a short paragraph is read whole: never split across a page
            self.need(len(lines) * size * 1.3)
        for line in lines:
            self.line(line, size, bold, color, indent)

    def height(self, text: str, size: float, indent: float = 0.0) -> float:
        """The height ``paragraph`` gives ``text``."""
        return len(wrap(text, self.width - indent, size)) * size * 1.3

    def choice(self, letter: str, text: str, size: float = 10, indent: float = 14.0) -> None:
        """A box to tick, the choice's letter and its text (wrapped beside the box)."""
        box, gap = size * 0.95, 6.0
        label = f"{letter}.  "
        text_left = _choice_text(size, indent)
        lines = wrap(text, self.width - text_left, size)
        self.need(size * 1.3 * min(len(lines), 2) + 4)
        from matplotlib.patches import Rectangle

        top = self.y + size * 0.1
        self.fig.add_artist(
            Rectangle(
                ((self.left + indent) / self.W, 1 - (top + box) / self.H),
                box / self.W,
                box / self.H,
                transform=self.fig.transFigure,
                fill=False,
                edgecolor=INK,
                linewidth=0.8,
            )
        )
        self._text(self.left + indent + box + gap, self.y + size * 0.95, label, size, True)
        for line in lines:
            self.line(line, size, indent=text_left)
        self.y += 4

    def rules(self, n: int, indent: float = 14.0, label: str = "") -> None:
        """``n`` ruled lines to write on (the first after ``label``, if any)."""
        for i in range(n):
            self.need(RULE_GAP)
            self.y += RULE_GAP
            start = self.left + indent
            if i == 0 and label:
                self._text(start, self.y - 3, label, 9, color=MUTED)
                start += _width(label, 9) + 6
            self.hline(start, self.right, self.y, GRID if i else MUTED)

    def hline(self, x0: float, x1: float, y: float, color: str = MUTED, width: float = 0.6) -> None:
        from matplotlib.lines import Line2D

        self.fig.add_artist(
            Line2D(
                [x0 / self.W, x1 / self.W],
                [1 - y / self.H] * 2,
                transform=self.fig.transFigure,
                color=color,
                linewidth=width,
            )
        )

    def axes(self, left: float, width: float, height: float):
        """An axes of ``width`` × ``height`` points at the cursor (the caller made room)."""
        return self.fig.add_axes(
            ((self.left + left) / self.W, 1 - (self.y + height) / self.H, width / self.W, height / self.H)
        )

    def table(self, columns: Sequence[str], rows: Sequence[Sequence[str]], size: float = 8.0) -> None:
        """A plain table: a bold header, one line a row, a rule under the header; columns as
        wide as their widest cell (cells cut to fit the page), rows continuing on a new page."""
        cells = [list(map(str, columns)), *[list(map(str, row)) for row in rows]]
        pad = 10.0
        widths = [
            max(_width(row[j], size, i == 0) for i, row in enumerate(cells)) + pad
            for j in range(len(columns))
        ]
        if sum(widths) > self.width:  # narrow columns keep their width; the wide share what is left
            remaining, order = self.width, sorted(range(len(widths)), key=widths.__getitem__)
            for done, j in enumerate(order):
                widths[j] = min(widths[j], remaining / (len(order) - done))
                remaining -= widths[j]
        height = size * 1.45

        def show(row: Sequence[str], bold: bool) -> None:
            self.need(height)
            x = self.left
            for cell, w in zip(row, widths, strict=True):
                while cell and _width(cell, size, bold) > w - pad + 0.01:  # 0.01: a sum's rounding
                    cell = cell[:-2] + "…"
                self._text(x, self.y + size * 1.05, cell, size, bold)
                x += w
            self.y += height

        show(cells[0], True)
        self.hline(self.left, self.left + sum(widths), self.y + 1, INK, 0.5)
        self.y += 2
        for row in cells[1:]:
            show(row, False)


# ---------------------------------------------------------------------------------------------
# The view's figure: the data and the set-up the page shows before any answer, per lesson page.


@dataclass
class Picture:
    """What a slide's figure draws: ``points`` (X, y, class names, filled mask or None for all),
    an optional ``query``; or a ``table`` (columns, rows, note); or a ``grid`` (16×16 cells);
    ``note`` says what is shown or why nothing is."""

    points: tuple | None = None
    query: tuple[float, float] | None = None
    axes: tuple[str, str] = ("x₁", "x₂")
    table: tuple | None = None
    grid: np.ndarray | None = None
    note: str = ""


def _decode_points(text: Any) -> tuple[np.ndarray, np.ndarray]:
    """A link's ``class_x1_x2~…`` points (as ``pages/widgets/points.encode_points`` writes them)."""
    X, y = [], []
    for item in str(text).split("~"):
        if item:
            c, a, b = item.split("_")
            X.append((float(a), float(b)))
            y.append(int(c))
    return np.array(X, dtype=float).reshape(-1, 2), np.array(y, dtype=np.int64)


def _your_points(view: Mapping[str, Any], key: str, page: str):
    from classic.lessons import points

    if key in view:
        return _decode_points(view[key])
    return points.your_points(page)[1]  # the points the page starts from


def _scatter(X, y, note: str, **extra) -> Picture:
    y = np.asarray(y)
    classes, codes = np.unique(y, return_inverse=True)
    names = [c if isinstance(c, str) else f"class {c}" for c in classes.tolist()]
    return Picture(points=(np.asarray(X, dtype=float), codes, names, None), note=note, **extra)


def _perceptron(view: Mapping[str, Any]) -> Picture:
    from classic import datasets
    from classic.lessons import perceptron as lesson
    from classic.lessons import points

    tab = view.get("pc_tab", lesson.TABS[0])
    name, seed = view.get("pc_data", points.menu("perceptron")[0]), int(view.get("pc_seed", 0))
    if tab == lesson.TABS[2]:  # "Does it generalise?": the post's 25 training points
        X, y = datasets.linearly_separable(25, random_state=seed)
        return _scatter(X, y, f"The 25 training points (seed {seed}).")
    if tab == lesson.TABS[3]:  # the sizes and the bound, the set-up of "More points, more mistakes?"
        R, gamma = lesson.band_radius_and_margin(0.05)
        sizes = lesson.updates_against_size.__defaults__[0]
        rows = [(f"{n:,}", f"{(R / gamma) ** 2:,.0f}") for n in sizes]
        return Picture(table=(["points", "Novikoff's bound on the updates"], rows), note="The runs' sizes.")
    if name == points.yours("perceptron"):
        X, y = _your_points(view, "pc_points", "perceptron")
    else:
        X, y = points.load("perceptron", name, seed)
    return _scatter(X, y, f"{name}: {len(X)} points.")


def _knn(view: Mapping[str, Any]) -> Picture:
    from classic.lessons import knn as lesson

    name = view.get("knn_data", lesson.DATA_NAMES[0])
    if name == lesson.YOURS:
        X, y = _your_points(view, "knn_user_points", "knn")
    else:
        n = int(view.get("knn_points", lesson.DEFAULTS["points"]))
        classes = (
            int(view.get("knn_classes", lesson.DEFAULTS["classes"])) if name in lesson.MANY_CLASSES else 2
        )
        X, y = lesson.lesson_data(name, n, classes, int(view.get("knn_seed", lesson.DEFAULTS["seed"])))
    start = lesson.start_query(name)
    query, _ = lesson.clip_query(
        float(view.get("knn_qx", start["knn_qx"])), float(view.get("knn_qy", start["knn_qy"]))
    )
    q = (float(query[0]), float(query[1]))
    note = f"{name}: {len(X)} points; the query at ({q[0]:g}, {q[1]:g})."
    return _scatter(X, y, note, query=q, axes=lesson.axis_titles(name))


@functools.lru_cache(maxsize=1)
def _votes():
    from classic import uci

    return uci.load_house_votes()


def _table_picture(X, y, names: Sequence[str], label: str, title: str) -> Picture:
    """A table of examples: each distinct row once with its count when rows repeat (a toy table
    of 40 rows is 4 kinds of row); a long table shown as its first rows, transposed when it
    has more columns than fit across."""
    X, y = np.asarray(X, dtype=object), np.asarray(y, dtype=object)
    rows = [(*map(str, x), str(label_)) for x, label_ in zip(X.tolist(), y.tolist(), strict=True)]
    columns = [*names, label]
    distinct: dict[tuple, int] = {}
    for row in rows:
        distinct[row] = distinct.get(row, 0) + 1
    if len(rows) <= TABLE_ROWS:
        return Picture(table=(columns, rows), note=f"{title}: {len(rows)} rows.")
    if len(distinct) <= TABLE_ROWS:
        counted = [(*row, str(n)) for row, n in distinct.items()]
        return Picture(
            table=([*columns, "rows"], counted),
            note=f"{title}: {len(rows)} rows, each kind once with its count.",
        )
    shown = rows[:10]
    if len(columns) > 6:  # e.g. the votes' 16 issues: an issue a line, a record a column
        shown = rows[:7]  # as many as fit across beside the issues' names
        transposed = [[column, *(row[j] for row in shown)] for j, column in enumerate(columns)]
        return Picture(
            table=(["", *(f"row {i + 1}" for i in range(len(shown)))], transposed),
            note=f"{title}: the first {len(shown)} of {len(rows)} rows.",
        )
    return Picture(table=(columns, shown), note=f"{title}: the first {len(shown)} of {len(rows)} rows.")


def _tree(view: Mapping[str, Any]) -> Picture:
    from classic.lessons import tree as lesson

    tables = lesson.data_sets(lambda: _votes())
    name = view.get("tree_data", next(iter(tables)))
    if view.get("tree_tab") == "AND vs parity":
        return Picture(note="The AND and parity tables of n bits (no data set).")
    if name == lesson.UPLOAD:
        return Picture(note="An uploaded CSV: a link does not carry it, so it is not printed.")
    if name == lesson.YOURS:
        X, y = _your_points(view, "tree_user_points", "tree")
        return _scatter(X, y, f"Your points: {len(X)}.")
    seed = int(view.get("tree_seed", 0))
    if name in lesson.POINT_TABLES:
        X, y, _ = lesson.POINT_TABLES[name](seed)
        return _scatter(X, y, f"{name}: {len(X)} points.")
    X, y, names = tables[name]()
    if name == lesson.VOTES and view.get("tree_votes_rows", lesson.AS_IN_THE_POST) == lesson.AS_IN_THE_POST:
        X, y = lesson.complete_rows(X, y)
    return _table_picture(X, y, names, "class", name)


def _digits(view: Mapping[str, Any]) -> Picture:
    from classic import digits

    if "digits_grid" in view:
        return Picture(grid=digits.grid_from_hex(view["digits_grid"]), note="The drawing, as its 16×16 grid.")
    return Picture()


def _compare(view: Mapping[str, Any]) -> Picture:
    from classic import compare
    from classic.lessons import compare as lesson

    d = lesson.DEFAULTS
    name, seed = view.get("cmp_data", d["data"]), int(view.get("cmp_seed", d["seed"]))
    if name == lesson.YOURS:
        X, y = _your_points(view, "cmp_user_points", "compare")
    else:
        X, y = lesson.make_data(
            name, int(view.get("cmp_points", d["points"])), seed, int(view.get("cmp_flip", d["flip"]))
        )
    data = compare.split(X, y, seed)
    X_all = np.concatenate([data.X_train, data.X_test])
    y_all = np.concatenate([data.y_train, data.y_test])
    filled = np.arange(len(X_all)) < len(data.X_train)
    note = f"{name}: {len(X_all)} points, {filled.sum()} to train on (filled) and {(~filled).sum()} held out (open)."
    return Picture(points=(X_all, y_all, ["class 0", "class 1"], filled), note=note)


VIEWS: dict[str, Callable[[Mapping[str, Any]], Picture]] = {
    "perceptron": _perceptron,
    "knn": _knn,
    "decision-tree": _tree,
    "digits": _digits,
    "compare": _compare,
}


def picture(page: str, view: Mapping[str, Any]) -> Picture:
    """What the handout draws for a slide of ``page`` (a lesson's url_path) with link values
    ``view``; a note instead when the data cannot be had (a missing UCI file, a bad value)."""
    make = VIEWS.get(page)
    if make is None:
        return Picture()
    try:
        return make(view)
    except Exception as error:  # a handout is still printed, saying what is missing
        return Picture(
            note=f"The view's data could not be drawn ({type(error).__name__}: {str(error)[:120]})."
        )


def _draw_points(ax, shown: Picture) -> None:
    X, y, names, filled = shown.points
    for c, name in enumerate(names):
        mine = y == c
        solid = mine if filled is None else mine & filled
        ax.scatter(
            X[solid, 0],
            X[solid, 1],
            s=22,
            c=class_color(c),
            marker=MARKERS[c % len(MARKERS)],
            edgecolors=INK,
            linewidths=0.5,
            label=name if filled is None else f"{name} (training)",
            zorder=3,
        )
        if filled is not None:  # held out: open markers, as /compare draws them
            held = mine & ~filled
            ax.scatter(
                X[held, 0],
                X[held, 1],
                s=22,
                facecolors="none",
                edgecolors=class_color(c),
                marker=MARKERS[c % len(MARKERS)],
                linewidths=1.2,
                label=f"{name} (held out)",
                zorder=3,
            )
    if shown.query is not None:
        ax.scatter(
            *shown.query, s=140, marker="*", c=INK, edgecolors=PAPER, linewidths=0.8, label="query", zorder=4
        )
    ax.set_xlabel(shown.axes[0], fontsize=8, parse_math=False)
    ax.set_ylabel(shown.axes[1], fontsize=8, parse_math=False)
    ax.tick_params(labelsize=7)
    ax.grid(True, color=GRID, linewidth=0.4, zorder=0)
    ax.margins(0.08)  # the corners of XOR inside the frame, not on it
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=7.5, frameon=False)


def _draw_grid(ax, grid: np.ndarray) -> None:
    """The 16×16 grid as squares (vector, where imshow would embed a bitmap), top row first."""
    from matplotlib.colors import ListedColormap

    cells = (np.asarray(grid) > 0).astype(float)
    ax.pcolormesh(cells, cmap=ListedColormap([PAPER, INK]), vmin=0, vmax=1, edgecolors=GRID, linewidth=0.4)
    ax.set(xlim=(0, 16), ylim=(16, 0), aspect="equal")
    ax.tick_params(which="both", length=0, labelbottom=False, labelleft=False)


def _figure(sheet: _Sheet, shown: Picture) -> None:
    if shown.points is not None:
        side = FIGURE_HEIGHT
        sheet.need(side + 28)
        sheet.y += 4
        _draw_points(sheet.axes(34, side, side), shown)
        sheet.y += side + 32  # under the axes: their tick labels and x label
    elif shown.grid is not None:
        side = 150.0
        sheet.need(side + 12)
        sheet.y += 4
        _draw_grid(sheet.axes(0, side, side), shown.grid)
        sheet.y += side + 8
    elif shown.table is not None:
        columns, rows = shown.table
        sheet.table(columns, rows)
        sheet.space(6)
    if shown.note:
        sheet.paragraph(shown.note, 8.5, color=MUTED)


# ---------------------------------------------------------------------------------------------
# The two documents.


def _settings(view: Mapping[str, Any], page: str) -> str:
    """The slide's link values as a line ("k 8 · metric euclidean"): the set-up, never an answer
    (a view holds settings; the points and the drawing are in the figure)."""
    from classic.lessons import lesson_of

    lesson = lesson_of(page)
    prefix = lesson.prefix if lesson else ""
    drawn = ("_points", "digits_grid", "_frame", "_step", "_row")
    said = []
    for key, value in view.items():
        if any(key.endswith(end) for end in drawn):
            continue
        shown = {True: "on", False: "off"}.get(value, value) if isinstance(value, bool) else value
        # A no-break space between a setting and its value: "k 1" is never wrapped apart.
        said.append(f"{key.removeprefix(prefix).replace('_', ' ')}\u00a0{shown}")
    return " · ".join(said)


def _pdf(build: Callable[[_Sheet], None], title: str, subject: str, paper: str) -> bytes:
    import matplotlib
    from matplotlib.backends.backend_pdf import PdfPages

    buffer = io.BytesIO()
    # TrueType fonts (42), not Type 3: the text stays text for a reader, a search and pdftotext.
    with matplotlib.rc_context({"pdf.fonttype": 42, "font.family": FONT, "axes.unicode_minus": False}):
        with PdfPages(buffer, metadata={"Title": title, "Subject": subject, "Creator": "classic"}) as pdf:
            sheet = _Sheet(pdf, paper, title)
            build(sheet)
            if sheet.fig is None and sheet.pages == 0:
                sheet.new_page()
            sheet.finish_page()
    return buffer.getvalue()


def _slides(deck: Any, resolved: Sequence[Sequence[Any]]) -> list[tuple[Any, list[_Question]]]:
    slides = list(_get(deck, "slides"))
    if len(resolved) != len(slides):
        raise ValueError(f"resolved holds {len(resolved)} lists of questions for {len(slides)} slides")
    return [
        (slide, [_question(q) for q in questions]) for slide, questions in zip(slides, resolved, strict=True)
    ]


def handout(deck: Any, resolved: Sequence[Sequence[Any]], paper: str = "A4") -> bytes:
    """The students' handout as PDF bytes: a page (or more) a slide, its figure and questions.

    ``deck`` has a ``title``, an optional ``about`` and ``slides`` (each a ``title``, a ``page``,
    its ``view`` of link values); ``resolved`` holds each slide's questions (a Step or the
    teacher's own), in order. ``paper`` is "A4" or "Letter".
    """
    slides, title = _slides(deck, resolved), str(_get(deck, "title"))

    def build(sheet: _Sheet) -> None:
        for n, (slide, questions) in enumerate(slides, 1):
            heading = f"{n}. {_get(slide, 'title')}"
            sheet.new_page(heading)
            if n == 1:
                sheet.paragraph(title, 16, bold=True)
                if _get(deck, "about"):
                    sheet.paragraph(str(_get(deck, "about")), 9.5, color=MUTED)
                sheet.rules(1, 0, "Name")
                sheet.space(14)
            sheet.paragraph(heading, 13, bold=True)
            page, view = str(_get(slide, "page")), dict(_get(slide, "view") or {})
            if settings := _settings(view, page):
                sheet.paragraph(f"Page /{page}: {settings}", 8.5, color=MUTED)
            sheet.space(4)
            _figure(sheet, picture(page, view))
            for i, q in enumerate(questions, 1):
                sheet.space(10)
                # The question, its choices and the first line to write on stay on one page.
                block = sheet.height(q.text, 10.5) + 20 + RULE_GAP * 2
                block += sum(sheet.height(choice, 10, _choice_text(10)) + 4 for choice in q.choices)
                sheet.need(min(block, sheet.bottom - MARGIN - 40))
                named = q.title and q.title != _get(slide, "title")  # a step's title, unless the slide's
                label = f"Question {n}.{i}" + (f" · {q.title}" if named else "")
                sheet.paragraph(label, 9, bold=True, color=MUTED)
                sheet.paragraph(q.text, 10.5)
                sheet.space(3)
                if q.number is not None:
                    sheet.rules(1, 14, "Your number")
                else:
                    for letter, choice in zip(LETTERS, q.choices, strict=False):
                        sheet.choice(letter, choice)
                sheet.rules(WHY_LINES, 14, "Why?")
            if not questions:
                sheet.space(8)
                sheet.paragraph("What do you see? Notes:", 9, color=MUTED)
                sheet.rules(WHY_LINES)

    return _pdf(build, f"{title}: handout", "Handout", paper)


def answer_key(deck: Any, resolved: Sequence[Sequence[Any]], paper: str = "A4") -> bytes:
    """The teacher's answer key as PDF bytes: per slide and question, the right answer (the
    choice, the number ± its tolerance, or "opinion: no right answer"), its why, and the slide's
    notes. Same arguments as :func:`handout`."""
    slides, title = _slides(deck, resolved), str(_get(deck, "title"))

    def build(sheet: _Sheet) -> None:
        sheet.new_page()
        sheet.paragraph(f"Answer key: {title}", 16, bold=True)
        sheet.paragraph("For the teacher: the answers as the app computes them, and why.", 9.5, color=MUTED)
        for n, (slide, questions) in enumerate(slides, 1):
            sheet.space(12)
            sheet.need(60)
            heading = f"{n}. {_get(slide, 'title')}"
            sheet.heading = heading
            sheet.paragraph(heading, 12, bold=True)
            sheet.hline(sheet.left, sheet.right, sheet.y, GRID)
            sheet.space(3)
            if _get(slide, "notes"):
                sheet.paragraph(f"Notes: {_get(slide, 'notes')}", 9, color=MUTED)
            if not questions:
                sheet.paragraph("No questions on this slide.", 9.5, color=MUTED)
            for i, q in enumerate(questions, 1):
                sheet.space(5)
                sheet.need(
                    sheet.height(q.text, 9.5) + 14 + sheet.height(f"Answer: {answer_text(q)}", 10.5, 14)
                )
                sheet.paragraph(f"{n}.{i}  {q.text}", 9.5)
                sheet.paragraph(f"Answer: {answer_text(q)}", 10.5, bold=True, indent=14)
                if q.why:
                    sheet.paragraph(f"Why: {q.why}", 9.5, indent=14)

    return _pdf(build, f"{title}: answer key", "Answer key", paper)


def pages(pdf: bytes) -> int:
    """How many pages a PDF made here has (its page objects counted; for tests and notes)."""
    return len([m for m in pdf.split(b"/Type /Page")[1:] if not m.startswith(b"s")])


__all__ = ["PAPERS", "Picture", "answer_key", "answer_text", "handout", "pages", "picture", "wrap"]
