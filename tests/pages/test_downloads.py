"""Every CSV the app writes is safe to open in a spreadsheet (issue 22): a text cell that starts
like a formula (= + - @, tab, carriage return) is written with a leading ``'`` (OWASP's advice on
CSV injection); numbers, a negative one too, are written as they are."""

import csv
import io

import numpy as np
import pytest

from pages.server import url
from pages.widgets import downloads

HOSTILE = ['=HYPERLINK("http://evil.example","x")', "+1+2", "-2+3", "@SUM(A1:A9)", "\t=1", "-1+x"]


def read(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode(), newline="")))


def test_formula_cells_are_neutralised_and_numbers_kept():
    rows = read(downloads.table_csv({"=name": HOSTILE + ["plain"], "n": [1, -2, 3.5, -4, 5, 6, -7]}))
    assert rows[0] == ["'=name", "n"]
    assert [row[0] for row in rows[1:]] == ["'" + cell for cell in HOSTILE] + ["plain"]
    assert [row[1] for row in rows[1:]] == ["1.0", "-2.0", "3.5", "-4.0", "5.0", "6.0", "-7.0"]
    negative = read(downloads.table_csv({"label": ["-1.5", "-2e3", "a\r\n=b"]}))
    assert [row[0] for row in negative[1:]] == ["-1.5", "-2e3", "a  =b"]  # numbers stay, a line stays one


@pytest.mark.parametrize("text", ["\u202e8=k gnisu ;\u202c", "a\u2066b\u2069", "x\x1by", "\u200bz"])
def test_bidi_and_control_characters_are_echoed_as_codes(text):
    for shown in (url.escape_markdown(text), url.code_span(text)):
        assert not any(ch in shown for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2069\x1b\u200b")
        assert "U+" in shown.replace("\\", "")
    assert np.all([len(url.visible(ch)) == len("⟨U+202E⟩") for ch in "\u202e\u2066"])
