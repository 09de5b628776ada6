"""Uploaded CSV bytes → a table the lessons can use, or one ValueError saying what is wrong.

An uploaded file is untrusted data. Every limit below is checked before the work it bounds
(size before decoding, line and column counts before splitting rows), so a hostile file costs
at most a linear scan of ``MAX_BYTES``. Text is read as UTF-8 (with or without a BOM), UTF-16
(with a BOM), or, failing those, Windows-1252/Latin-1; CR, LF and CRLF line ends all work;
fields are separated by commas, semicolons or tabs (whichever the header uses most). Names
and values may hold any printable character, quotes and markup included: they are data, and
whoever shows them must escape them. Control characters (and Unicode's invisible format
characters) are refused, because they cannot be shown faithfully.

- :func:`parse_csv` → :class:`Table` (column names + a 2-D array of strings, empty cells
  ``"?"``); :meth:`Table.split` picks the label column and checks the class and category
  counts and the work a tree on it would take (``MAX_COUNT_CELLS``, ``MAX_NUMERIC_CELLS``: sized
  so that growing the tree stays under about a second; docs/measurements.md).
- :func:`parse_points_csv` → ``(X, y)`` for the 2-D lessons (perceptron, k-NN): two numeric
  columns and a label.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass

import numpy as np

MAX_BYTES = 1_000_000  # the whole file
MAX_ROWS = 5_000  # data rows under the header
MAX_COLUMNS = 40
MAX_CATEGORIES = 40  # distinct values in a categorical feature column (numeric columns: any)
MAX_CLASSES = 20  # distinct values in the label column
MAX_NAME_LENGTH = 60  # characters in a column name
MAX_VALUE_LENGTH = 60  # characters in a cell
MAX_NUMERIC_CELLS = 10_000  # rows × numeric feature columns: thresholds grow deep trees
MAX_COUNT_CELLS = 20_000_000  # rows × Σ (categories + 1) × classes: the count tables ID3 fills
MAX_POINTS = 1_000  # rows of a points file (as many as the pages' point sliders make)
# |x1|, |x2| in a points file: beyond it squared distances overflow to inf (1e308² in k-NN).
MAX_COORDINATE = 1e6
MISSING = "?"

# C0/C1 controls but tab and newline, zero-width and bidirectional marks, BOMs inside the text,
# lone surrogates: characters a page cannot show as they are.
CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ud800-\udfff]"
)


@dataclass(frozen=True)
class Table:
    """A parsed CSV: column names and a 2-D array of strings (empty cells are ``"?"``)."""

    columns: list[str]
    values: np.ndarray

    def numeric(self) -> list[bool]:
        """Which columns hold only numbers (besides missing cells): the tree splits them by thresholds."""
        return [_is_numeric(self.values[:, j]) for j in range(len(self.columns))]

    def split(self, label: str) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """``(X, y, feature_names)`` with ``label`` as the class column and the others as features."""
        if label not in self.columns:
            raise ValueError(f"{label!r} is not a column; the columns are {self.columns}")
        j = self.columns.index(label)
        y = self.values[:, j]
        blank = np.flatnonzero(y == MISSING)
        if len(blank):
            rows = ", ".join(str(i + 1) for i in blank[:5])
            raise ValueError(
                f"the label column {label!r} is empty in data row(s) {rows}: every row needs a label"
            )
        classes = len(np.unique(y))
        if classes > MAX_CLASSES:
            raise ValueError(
                f"the label column {label!r} has {classes} different values; the limit is {MAX_CLASSES} "
                "classes (choose a column of categories as the label)"
            )
        X = np.delete(self.values, j, axis=1)
        names = [c for k, c in enumerate(self.columns) if k != j]
        numeric = [n for k, n in enumerate(self.numeric()) if k != j]
        for k, name in enumerate(names):
            n_values = len(np.unique(X[:, k]))
            if not numeric[k] and n_values > MAX_CATEGORIES:
                raise ValueError(
                    f"column {name!r} has {n_values} different values that are not all numbers; a "
                    f"categorical column may have at most {MAX_CATEGORIES} (group them into a few ranges)"
                )
        counts = (
            len(y) * sum(len(np.unique(X[:, k])) + 1 for k in range(len(names)) if not numeric[k]) * classes
        )
        if counts > MAX_COUNT_CELLS:
            raise ValueError(
                f"{len(y):,} rows × their categories × {classes} classes = {counts:,} counts to keep; the "
                f"limit is {MAX_COUNT_CELLS:,} (fewer rows, columns, categories or classes)"
            )
        cells = len(y) * sum(numeric)
        if cells > MAX_NUMERIC_CELLS:
            raise ValueError(
                f"{sum(numeric)} numeric columns × {len(y):,} rows = {cells:,} numbers; the limit is "
                f"{MAX_NUMERIC_CELLS:,} (fewer rows or columns)"
            )
        return X, y, names


def _is_numeric(column: np.ndarray) -> bool:
    known = column[column != MISSING]
    if len(known) == 0:
        return False
    try:
        return bool(np.isfinite(known.astype(np.float64)).all())
    except ValueError:
        return False


def _decode(data: bytes) -> str:
    """The file's text: UTF-8 (BOM or not), UTF-16 with a BOM, else Windows-1252 / Latin-1."""
    if not isinstance(data, (bytes, bytearray)):
        raise ValueError(f"expected the file's bytes, got {type(data).__name__}")
    if len(data) > MAX_BYTES:
        raise ValueError(f"the file has {len(data):,} bytes; the limit is {MAX_BYTES:,} bytes")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise ValueError("the file starts like UTF-16 text but is not valid UTF-16") from None
    if b"\x00" in data:
        raise ValueError(
            "the file holds NUL bytes: it is binary, or UTF-16 without a byte-order mark "
            "(save it as CSV UTF-8)"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _check_controls(text: str, first_line: int = 1) -> None:
    """A ValueError naming the line of the first control character in ``text``, if any."""
    found = CONTROL.search(text)
    if found:
        char = found.group()
        name = unicodedata.name(char, f"U+{ord(char):04X}")
        line = first_line + text.count("\n", 0, found.start())
        raise ValueError(
            f"line {line}: the text contains a control character ({name}); only printable text is accepted"
        )


def _lines(data: bytes) -> tuple[list[str], str]:
    """The non-empty lines of the file (after decoding, any line end) and the field separator."""
    text = _decode(data).replace("\r\n", "\n").replace("\r", "\n")
    _check_controls(text)
    lines = text.split("\n")
    header = next((line for line in lines if line.strip()), None)
    if header is None:
        raise ValueError("the file is empty: it needs a header row of column names and data rows")
    separator = max(",;\t", key=header.count)
    return lines, separator


def _cell(text: str, line: int) -> str:
    """A cell stripped of spaces; a line break inside quotes is refused like other controls."""
    if "\n" in text:
        raise ValueError(f"line {line}: a quoted value spans several lines; values must fit on one line")
    return text.strip()


def parse_csv(data: bytes) -> Table:
    """Read a CSV whose first row holds the column names (any cells: categories or numbers).

    Empty cells become the missing marker ``"?"``. Raises ``ValueError`` with the line and the
    reason: too big, not text, a control character, a row of the wrong length, a nameless,
    repeated or too long column name, too few or too many rows or columns.
    """
    lines, separator = _lines(data)
    header_at = next(i for i, line in enumerate(lines) if line.strip())
    if sum(1 for line in lines if line.strip()) - 1 > MAX_ROWS:
        raise ValueError(f"the file has more than {MAX_ROWS:,} data rows; the limit is {MAX_ROWS:,}")
    if lines[header_at].count(separator) + 1 > MAX_COLUMNS * 2:
        raise ValueError(f"the header has more than {MAX_COLUMNS} columns; the limit is {MAX_COLUMNS}")
    reader = csv.reader(io.StringIO("\n".join(lines[header_at:])), delimiter=separator, strict=True)
    rows: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                rows.append((header_at + reader.line_num, row))
    except csv.Error as error:
        raise ValueError(f"line {header_at + reader.line_num}: the CSV is malformed ({error})") from None
    number, raw = rows[0]
    header = [_cell(name, number) for name in raw]
    if len(header) < 2:
        raise ValueError(
            f"the header has {len(header)} column; at least two are needed (features and a label)"
        )
    if len(header) > MAX_COLUMNS:
        raise ValueError(f"the file has {len(header)} columns; the limit is {MAX_COLUMNS}")
    for k, name in enumerate(header, start=1):
        if not name:
            raise ValueError(f"line {number}: column {k} of the header has no name")
        if len(name) > MAX_NAME_LENGTH:
            raise ValueError(
                f"line {number}: column {k}'s name has {len(name)} characters; the limit is {MAX_NAME_LENGTH}"
            )
    folded = [name.casefold() for name in header]
    repeated = sorted({name for name, key in zip(header, folded, strict=True) if folded.count(key) > 1})
    if repeated:
        raise ValueError(f"line {number}: column names must differ (ignoring case); {repeated} repeat")
    body = rows[1:]
    if len(body) < 2:
        raise ValueError(f"the file has {len(body)} data row(s) under the header; at least two are needed")
    if len(body) > MAX_ROWS:
        raise ValueError(f"the file has {len(body):,} data rows; the limit is {MAX_ROWS:,}")
    values = []
    for number, row in body:
        if len(row) != len(header):
            raise ValueError(f"line {number} has {len(row)} fields, but the header has {len(header)}")
        cells = [_cell(cell, number) or MISSING for cell in row]
        long = next((cell for cell in cells if len(cell) > MAX_VALUE_LENGTH), None)
        if long is not None:
            raise ValueError(
                f"line {number}: a value has {len(long)} characters; the limit is {MAX_VALUE_LENGTH}"
            )
        values.append(cells)
    return Table(header, np.array(values, dtype=str))


COORDINATES = f"coordinates must be numbers from {-MAX_COORDINATE:,.0f} to {MAX_COORDINATE:,.0f}"


def unusable_coordinates(X: np.ndarray) -> int | None:
    """The index of the first point whose coordinates are not finite numbers within ±MAX_COORDINATE."""
    X = np.asarray(X, dtype=np.float64)
    X = X.reshape(len(X), -1) if X.size else X.reshape(0, 0)
    with np.errstate(invalid="ignore"):
        usable = np.isfinite(X).all(axis=1) & (np.abs(X) <= MAX_COORDINATE).all(axis=1)
    return None if usable.all() else int(np.argmin(usable))


def points_problem(X: np.ndarray, y: np.ndarray, n_classes: int, what: str = "table") -> str | None:
    """Why labelled 2-D points that did not come from a file (a table, clicks) break a points file's
    limits, in :func:`parse_points_csv`'s words (rows numbered from 1), or None when they do not."""
    if len(X) > MAX_POINTS:
        return f"the {what} has {len(X):,} points; the limit is {MAX_POINTS:,}"
    bad = unusable_coordinates(X)
    if bad is not None:
        return f"row {bad + 1}: {COORDINATES}"
    labels = np.asarray(y, dtype=np.float64)
    wrong = ~np.isin(labels, np.arange(n_classes))
    if wrong.any():
        return f"row {int(np.argmax(wrong)) + 1}: the class must be a whole number from 0 to {n_classes - 1}"
    return None


def parse_points_csv(data: bytes, max_classes: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """Read 2-D labelled points: ``X`` float64 of shape (n, 2) and ``y`` int labels ``0..C-1``.

    Columns ``x1, x2, label`` by name (any order, any case), or any three columns of which two
    hold only numbers (then the third is the label; with three numeric columns, the last).
    A first row of numbers is data, not a header. Labels are numbered in sorted order.
    """
    lines, separator = _lines(data)
    if sum(1 for line in lines if line.strip()) > MAX_POINTS + 1:
        raise ValueError(f"the file has more than {MAX_POINTS:,} points; the limit is {MAX_POINTS:,}")
    reader = csv.reader(io.StringIO("\n".join(lines)), delimiter=separator)
    try:
        rows = [(reader.line_num, row) for row in reader if any(cell.strip() for cell in row)]
    except csv.Error as error:
        raise ValueError(f"line {reader.line_num}: the CSV is malformed ({error})") from None
    rows = [(n, [_cell(cell, n) for cell in row]) for n, row in rows]
    if any(len(row) != 3 for _, row in rows):
        n, row = next((n, row) for n, row in rows if len(row) != 3)
        raise ValueError(f"line {n} has {len(row)} fields; a points file has three: x1, x2 and a label")
    header = None
    if rows and sum(_is_numeric(np.array([cell])) for cell in rows[0][1]) < 2:  # names, not numbers
        header = [cell.casefold() for cell in rows[0][1]]
        rows = rows[1:]
    if len(rows) < 2:
        raise ValueError(f"the file has {len(rows)} point(s); at least two are needed")
    table = np.array([row for _, row in rows], dtype=str)
    if header is not None and {"x1", "x2", "label"} <= set(header):
        x_columns, label = [header.index("x1"), header.index("x2")], header.index("label")
    else:
        numeric = [j for j in range(3) if _is_numeric(table[:, j]) and MISSING not in table[:, j]]
        if len(numeric) < 2:
            raise ValueError(
                "two columns must hold only numbers (the coordinates x1 and x2) and one the label; "
                f"{len(numeric)} column(s) do"
            )
        label = next(j for j in (2, 1, 0) if j not in numeric[:2]) if len(numeric) == 2 else 2
        x_columns = [j for j in range(3) if j != label]
    try:
        X = table[:, x_columns].astype(np.float64)
    except ValueError:
        bad = next(i for i, row in enumerate(table[:, x_columns]) if not _is_numeric(row))
        raise ValueError(
            f"line {rows[bad][0]}: x1 and x2 must be numbers, got {table[bad, x_columns].tolist()}"
        ) from None
    bad = unusable_coordinates(X)
    if bad is not None:
        raise ValueError(f"line {rows[bad][0]}: {COORDINATES}")
    classes, y = np.unique(table[:, label], return_inverse=True)
    if len(classes) > max_classes:
        raise ValueError(
            f"the label column has {len(classes)} different values; the limit is {max_classes} classes"
        )
    return X, y.astype(np.int64)
