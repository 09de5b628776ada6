"""Reading a table for :mod:`classic.id3`: which columns are numbers, and each value as a code.

- ``read_table``: which columns are numeric (every known value a finite number, or a numeric
  array: ±inf too), their values.
- ``Encoding``: a categorical value → its branch (−1 missing, −2 unseen), numbers as floats.

A table whose every value is one character (the 1984 votes: "y", "n", "?") is read through
the characters' code points: a lookup table turns them into branches in one step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from classic._validation import check_array


def as_table(X: Any, n_features: int | None = None, estimator: Any = None) -> np.ndarray:
    """X as a 2-D table of its own dtype (strings, objects or numbers; NaN marks a missing
    number), checked by :func:`classic._validation.check_array`."""
    return check_array(X, numeric=False, allow_nan=True, n_features=n_features, estimator=estimator)


def numbers(column: np.ndarray, missing_value: str) -> np.ndarray | None:
    """The column as floats (NaN where missing), or None when a known value is not a finite number."""
    if column.dtype.kind in "biuf":
        return column.astype(np.float64)
    text = column.astype(str)
    known = text != missing_value
    try:
        float(text[known][0]) if known.any() else None  # most text columns fail here, cheaply
        values = text[known].astype(np.float64)
    except ValueError:
        return None
    if not np.isfinite(values).all():
        return None
    out = np.full(len(text), np.nan)
    out[known] = values
    return out


def distinct(column: np.ndarray) -> np.ndarray:
    """``np.unique`` of a numeric column's known values (the same sort, without its overhead)."""
    missing = np.isnan(column)
    known = np.sort(column[~missing] if missing.any() else column)
    first = np.empty(len(known), dtype=bool)  # the first of each run of one value
    first[:1] = True
    np.not_equal(known[1:], known[:-1], out=first[1:])
    return known[first]


def char_codes(text: np.ndarray) -> np.ndarray | None:
    """Each value's code point when every value of a string table has at most one character
    ("" is 0), else None."""
    if text.dtype.kind != "U" or text.size == 0:
        return None
    chars = text.dtype.itemsize // 4
    flat = np.ascontiguousarray(text).view(np.uint32)  # (rows, columns · chars) code points
    first = flat[:, ::chars]
    if chars > 1 and np.count_nonzero(flat) != np.count_nonzero(first):  # a second character somewhere
        return None
    return first.astype(np.intp)


def read_table(X: np.ndarray, missing_value: str) -> tuple[np.ndarray, list[np.ndarray], np.ndarray | None]:
    """Which columns are numeric (an all-missing column is not), each column's sorted values, and
    the table's ``char_codes`` (for ``Encoding``)."""
    points = char_codes(X)
    if points is not None:  # one character a value: the values present, by one bincount
        size, m = int(points.max()) + 1, X.shape[1]
        present = np.bincount((points + np.arange(m) * size).ravel(), minlength=m * size).reshape(m, size)
        seen: list[list[str]] = [[] for _ in range(m)]
        for j, c in zip(*(a.tolist() for a in present.nonzero()), strict=True):  # by column, code point
            seen[j].append(chr(c))
        # numbers() decides wherever a value might be a number: a lone character is one only if
        # it is a decimal digit (what float() reads; alone, "." or "e" are not numbers).
        parsed = [
            numbers(X[:, j], missing_value)
            if any(v.isdecimal() for v in seen[j] if v != missing_value)
            else None
            for j in range(m)
        ]
    else:
        parsed = [numbers(X[:, j], missing_value) for j in range(X.shape[1])]
    parsed = [c if c is not None and not np.isnan(c).all() else None for c in parsed]
    numeric = np.array([c is not None for c in parsed], dtype=bool)
    # A set of the column's strings is much faster than sorting them all (few distinct values).
    values = [
        distinct(c)
        if c is not None
        else np.array(seen[j] if points is not None else sorted(set(X[:, j].astype(str).tolist())), dtype=str)
        for j, c in enumerate(parsed)
    ]
    return numeric, values, points


class Encoding:
    """Turns rows into branch codes (categorical features) and floats (numeric features)."""

    FEW = 16  # up to this many distinct values over all categorical columns, compare whole tables

    def __init__(
        self, numeric: np.ndarray, branches: Sequence[np.ndarray], names: Sequence[str], missing_value: str
    ):
        self.numeric, self.branches, self.names, self.missing_value = numeric, branches, names, missing_value
        self.categorical = np.flatnonzero(~numeric)
        self.numeric_columns = np.flatnonzero(numeric).tolist()
        self.lookup = [
            {} if num else {str(v): b for b, v in enumerate(values)}
            for values, num in zip(branches, numeric, strict=True)
        ]
        known = sorted({v for j in self.categorical for v in self.lookup[j]} | {missing_value})
        self.values = known if len(known) <= self.FEW else None
        self._tables: dict[bool, np.ndarray] = {}

    def _code(self, j: int, value: str, missing: int) -> int:
        return self.lookup[j].get(value, missing if value == self.missing_value else -2)

    def _by_code_point(self, points: np.ndarray, missing_is_value: bool) -> np.ndarray:
        """Branch codes of one-character values: ``table[feature, code point]``."""
        if missing_is_value not in self._tables:
            missing = -2 if missing_is_value else -1
            known = {v for j in self.categorical for v in self.lookup[j]} | {self.missing_value}
            chars = sorted(v for v in known if len(v) <= 1)
            where = [ord(v) if v else 0 for v in chars]  # "" is 0, as in char_codes
            table = np.full((len(self.categorical), max(where + [0]) + 1), -2, dtype=np.int64)
            for f, j in enumerate(self.categorical.tolist()):
                table[f, where] = [self._code(j, v, missing) for v in chars]
            self._tables[missing_is_value] = table
        table = self._tables[missing_is_value]
        if table.shape[1] <= points.max(initial=0):  # characters no training value has: unseen
            wider = np.full((len(table), int(points.max()) + 1), -2, dtype=np.int64)
            wider[:, : table.shape[1]] = table
            self._tables[missing_is_value] = table = wider
        return np.take(table, points + np.arange(0, table.size, table.shape[1]))

    def __call__(
        self, X: np.ndarray, missing_is_value: bool, points: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(codes, values)``: branch codes (0 in a numeric column) and numbers (NaN in a categorical
        column; None when no feature is numeric). ``points``: the table's ``char_codes`` if read."""
        values = np.full(X.shape, np.nan) if self.numeric_columns else None
        for j in self.numeric_columns:
            column = numbers(X[:, j], self.missing_value)
            if column is None:
                raise ValueError(f"feature {self.names[j]!r} is numeric: every value must be a number")
            values[:, j] = column
        if not len(self.categorical):
            return np.zeros(X.shape, dtype=np.int64), values
        every = len(self.categorical) == X.shape[1]
        text = X if every else X[:, self.categorical]
        text = text if text.dtype.kind == "U" else text.astype(str)
        if points is None:
            points = char_codes(text)
        elif not every:
            points = points[:, self.categorical]
        if points is not None and every:  # one character a value: a lookup gives every code at once
            return self._by_code_point(points, missing_is_value), values
        codes, missing = np.zeros(X.shape, dtype=np.int64), -2 if missing_is_value else -1
        if points is not None:
            codes[:, self.categorical] = self._by_code_point(points, missing_is_value)
            return codes, values
        if self.values is not None:  # few values: one comparison of the table per value
            found = np.full(text.shape, -2, dtype=np.int64)
            for value in self.values:
                code = [self._code(j, value, missing) for j in self.categorical]
                found = np.where(text == value, np.array(code)[None, :], found)
            codes[:, self.categorical] = found
            return codes, values
        for k, j in enumerate(self.categorical.tolist()):
            seen, inverse = np.unique(text[:, k], return_inverse=True)
            mapped = [self._code(j, v, missing) for v in seen.tolist()]
            codes[:, j] = np.asarray(mapped, dtype=np.int64)[inverse]
        return codes, values
