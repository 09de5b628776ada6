"""Uploaded CSV files: good ones become tables, bad ones one clear ValueError, and whatever
parses grows a tree and draws (the 2-second budget is timed in tests/benchmarks/bench_id3.py)."""

import threading

import numpy as np
import pytest

from classic.id3 import ID3
from classic.tables import MAX_BYTES, MAX_CATEGORIES, MAX_COLUMNS, MAX_ROWS, parse_csv, parse_points_csv
from classic.viz.tree import to_dot


def test_a_good_csv_becomes_a_table():
    text = "Outlook;Wind;Play\nSunny;Weak;No\nRain;;Yes\nOvercast;Strong;Yes\n\n"
    table = parse_csv(text.encode())
    assert table.columns == ["Outlook", "Wind", "Play"]
    X, y, names = table.split("Play")
    assert names == ["Outlook", "Wind"] and y.tolist() == ["No", "Yes", "Yes"]
    assert X[1].tolist() == ["Rain", "?"]  # an empty cell is missing
    assert ID3().fit(X, y, names).predict([["Sunny", "Weak"]]).tolist() == ["No"]


@pytest.mark.parametrize(
    "data",
    [
        b"a,b,label\r1,x,Y\r2,y,N\r",  # old Mac line ends
        b"a,b,label\r\n1,x,Y\r\n2,y,N\r\n",
        "a,b,label\n1,x,Y\n2,y,N\n".encode("utf-8-sig"),
        "a,b,label\n1,x,Y\n2,y,N\n".encode("utf-16"),  # with its byte-order mark
        "a,b,label\n1,x,Y\n2,y,N\n".encode("utf-16-be").join([b"\xfe\xff", b""]),
        "a,b,label\n1,é,Y\n2,ü,N\n".encode("latin-1"),
        b"a\tb\tlabel\n1\tx\tY\n2\ty\tN\n",
    ],
)
def test_encodings_and_line_ends_are_read(data):
    table = parse_csv(data)
    assert table.columns == ["a", "b", "label"] and len(table.values) == 2
    assert table.numeric() == [True, False, False]


def test_latin_1_text_keeps_its_letters():
    table = parse_csv("name,label\ncafé,Y\nnaïve,N\n".encode("latin-1"))
    assert table.values[:, 0].tolist() == ["café", "naïve"]


def test_markup_and_syntax_in_names_and_values_stay_data():
    data = (
        b'"<script>alert(1)</script>","![x](http://host/a.png)","say ""hi""",label\n'
        b'"{braces}","\\back\\slash","]; n0 [label=""x",Y\n'
        b"<b>bold</b>,**strong**,`code`,N\n"
    )
    table = parse_csv(data)
    assert table.columns == ["<script>alert(1)</script>", "![x](http://host/a.png)", 'say "hi"', "label"]
    assert table.values[0].tolist() == ["{braces}", "\\back\\slash", ']; n0 [label="x', "Y"]
    X, y, names = table.split("label")
    dot = to_dot(ID3().fit(X, y, names)).source
    assert "<script>" not in dot.split("tooltip")[0] and "&lt;script&gt;" in dot


def test_a_feature_named_like_the_label_is_never_overwritten():
    with pytest.raises(ValueError, match="must differ"):
        parse_csv(b"label,Label\nx,Y\ny,N\n")
    table = parse_csv(b"label,class\nx,Y\ny,N\nx,N\n")
    X, y, names = table.split("class")
    assert names == ["label"] and X[:, 0].tolist() == ["x", "y", "x"]


def test_numeric_columns_are_split_by_thresholds():
    table = parse_csv(b"height,colour,label\n1.5,red,a\n1.7,blue,a\n1.9,red,b\n2.1,blue,b\n?,red,a\n")
    assert table.numeric() == [True, False, False]
    X, y, names = table.split("label")
    tree = ID3().fit(X, y, names)
    assert tree.numeric_.tolist() == [True, False] and tree.root_.threshold == pytest.approx(1.8)


EDGE_NUMBERS = {  # numbers a CSV may hold whose midpoint overflows or rounds onto the upper one
    "1e308 and 1.7e308": b"x,label\n1e308,a\n1.7e308,b\n1e308,a\n1.7e308,b\n",
    "adjacent floats": b"x,label\n1.0000000000000002,a\n1.0000000000000004,b\n1.0000000000000004,b\n",
    "the largest floats": (
        b"x,label\n-1.7976931348623157e308,a\n1.7976931348623157e308,b\n1.7976931348623155e308,a\n"
    ),
    "beside a column of inf": b"inf,x,label\ninf,1e308,a\ninf,1.7e308,b\ninf,1.7e308,b\n",
}


@pytest.mark.parametrize("name", list(EDGE_NUMBERS))
def test_an_upload_of_huge_or_adjacent_numbers_fits_and_ends(name):
    # A threshold parts each pair of neighbouring values; "inf", "-inf" and "1e309" (inf too) are
    # not finite numbers: a column of them is categorical.
    assert parse_csv(b"x,label\n1e309,a\n-inf,b\ninf,b\n").numeric() == [False, False]
    table = parse_csv(EDGE_NUMBERS[name])
    X, y, names = table.split("label")
    found: list[ID3] = []
    worker = threading.Thread(target=lambda: found.append(ID3().fit(X, y, names)), daemon=True)
    worker.start()
    worker.join(20)  # a guard against a growth loop that never ends, not a timing
    assert found, "the fit did not end within 20 s"
    (tree,) = found
    assert tree.numeric_[-1] and tree.score(X, y) == 1.0 and tree.root_.feature == "x"
    assert to_dot(tree).source.startswith("digraph")
    assert all(len(rule) < 120 for rule in tree.rules()), tree.rules()  # no 309-digit thresholds


def _many(rows: int, columns: int, values: int, classes: int | None = None) -> bytes:
    """A random table of ``values`` categories per column (the last column: ``classes``)."""
    rng = np.random.default_rng(0)
    header = ",".join(f"c{j}" for j in range(columns))
    body = rng.integers(0, values, size=(rows, columns))
    if classes is not None:
        body[:, -1] %= classes
    return (header + "\n" + "\n".join(",".join(f"v{v}" for v in row) for row in body) + "\n").encode()


BAD = {
    "empty": (b"", "empty"),
    "blank lines only": (b"\n\n  \n", "empty"),
    "header only": (b"a,b,label\n", "0 data row"),
    "one data row": (b"a,label\nx,Y\n", "1 data row"),
    "one column": (b"only\nx\ny\nz\n", "at least two are needed"),
    "binary (PNG)": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "NUL bytes"),
    "binary noise": (bytes(range(256)) * 4, "NUL bytes|control character"),
    "UTF-16 without a BOM": ("a,b\n1,2\n3,4\n".encode("utf-16-le"), "UTF-16 without"),
    "broken UTF-16": (b"\xff\xfea\x00,\x00\x00\xd8", "UTF-16"),
    "10 MB": (b"a,b\n" + b"x,y\n" * 2_500_000, f"limit is {MAX_BYTES:,} bytes"),
    "50 000 rows": (b"a,b\n" + b"x,y\n" * 50_000, f"limit is {MAX_ROWS:,}"),
    "2 000 columns": (_many(3, 2_000, 2), f"limit is {MAX_COLUMNS}"),
    "41 columns": (_many(3, 41, 2), f"limit is {MAX_COLUMNS}"),
    "duplicate headers": (b"a,a\nx,y\nz,w\n", "must differ"),
    "headers differing in case": (b"Name,name\nx,y\nz,w\n", "must differ"),
    "nameless column": (b"a,,c\nx,y,z\nz,w,q\n", "column 2 of the header has no name"),
    "ragged row": (b"a,b,c\nx,y,z\np,q\nr,s,t\n", "line 3 has 2 fields"),
    "ragged row after blank lines": (b"a,b\n\nx,y\n\np,q,r\n", "line 5 has 3 fields"),
    "long name": (("n" * 500 + ",label\nx,Y\ny,N\n").encode(), "500 characters"),
    "20 000-character value": (
        ("a,label\n" + "v" * 20_000 + ",Y\nw,N\n").encode(),
        "20,000 characters|20000 characters",
    ),
    "control character in a name": (b"na\x07me,label\nx,Y\ny,N\n", "line 1: .*control character"),
    "control character in a value": (b"a,label\nx,Y\nx\x1by,N\n", "line 3: .*control character"),
    "escape sequence": (b"a,label\n\x1b[31mred,Y\nx,N\n", "control character"),
    "bidirectional override": ("a,label\nab\u202ecd,Y\nx,N\n".encode(), "RIGHT-TO-LEFT OVERRIDE"),
    "zero-width space": ("a\u200b,label\nx,Y\ny,N\n".encode(), "ZERO WIDTH SPACE"),
    "newline inside quotes": (b'a,label\n"two\nlines",Y\nx,N\n', "several lines"),
    "unclosed quote": (b'a,label\n"open,Y\nx,N\n', "malformed|several lines"),
    "not bytes": ("a,b\nx,y\n", "bytes"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_files_give_one_clear_error(name):
    data, message = BAD[name]
    with pytest.raises(ValueError, match=message):
        parse_csv(data)


SPLIT_BAD = {
    "wide categorical table": (_many(5000, 40, 40, classes=20), "c39", "limit is 20,000,000"),
    "10 000 distinct values": (_many(10_000 // 2, 2, 10_000), "c0", "limit is 20 classes"),
    "41 categories in a feature": (_many(300, 2, 41, classes=2), "c1", f"at most {MAX_CATEGORIES}"),
    "all-missing label": (b"a,label\nx,\ny,\n", "label", "empty in data row"),
    "label not a column": (b"a,label\nx,Y\ny,N\n", "nope", "is not a column"),
    "5000 classes": (b"a,label\n" + b"".join(b"x,c%d\n" % i for i in range(5000)), "label", "5000 different"),
    "too many numbers": (
        (
            "a,b,c,d,e,f,g,h,i,j,k,label\n"
            + "".join(f"{','.join(str(i + j) for j in range(11))},{i % 2}\n" for i in range(5000))
        ).encode(),
        "label",
        "limit is 10,000",
    ),
}


@pytest.mark.parametrize("name", list(SPLIT_BAD))
def test_bad_label_choices_give_one_clear_error(name):
    data, label, message = SPLIT_BAD[name]
    with pytest.raises(ValueError, match=message):
        parse_csv(data).split(label)


GOOD_BUT_ODD = {
    "constant label": b"a,label\nx,Y\ny,Y\nz,Y\n",
    "all-missing column": b"a,b,label\n,x,Y\n,y,N\n,x,N\n",
    "numeric columns": b"a,b,label\n1,2.5,Y\n2,-3e2,N\n3,4,Y\n",
    "audit's 1300 x 40 x 40": _many(1300, 40, 40, classes=5),
    "largest categorical table": _many(5000, 6, 40, classes=10),
    "5000 rows of 2 numbers": (
        "x1,x2,label\n" + "".join(f"{i % 97},{i % 89},{i % 3}\n" for i in range(5000))
    ).encode(),
    "DOT syntax everywhere": b'"a -> b","digraph { }",label\n"}{",";",x\n"\\\\",\'\',y\n',
}


@pytest.mark.parametrize("name", list(GOOD_BUT_ODD))
def test_odd_but_valid_files_grow_and_draw_a_tree(name):
    table = parse_csv(GOOD_BUT_ODD[name])
    X, y, names = table.split(table.columns[-1])
    tree = ID3().fit(X, y, names)
    drawing = to_dot(tree)
    assert drawing.source.startswith("digraph")


# --------------------------------------------------------------------------------------------
# Points for the 2-D lessons
# --------------------------------------------------------------------------------------------


def test_points_with_a_header_in_any_order():
    X, y = parse_points_csv(b"label,X2,x1\nred,1,2\nblue,3,4.5\nred,-1,0\n")
    np.testing.assert_array_equal(X, [[2, 1], [4.5, 3], [0, -1]])
    assert y.tolist() == [1, 0, 1] and X.dtype == np.float64


def test_points_without_a_header_take_the_non_numeric_column_as_label():
    X, y = parse_points_csv(b"a,0.5,1\nb,1.5,2\n")
    np.testing.assert_array_equal(X, [[0.5, 1], [1.5, 2]])
    assert y.tolist() == [0, 1]
    X, y = parse_points_csv(b"0.5;1;0\n1.5;2;1\n2;3;1\n")  # three numbers: the last is the label
    assert X.shape == (3, 2) and y.tolist() == [0, 1, 1]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"x1,x2,label\n", "0 point"),
        (b"x1,x2\n1,2\n3,4\n", "three"),
        (b"x1,x2,label\n1,2,a\nfoo,4,b\n", "must be numbers|two columns"),
        (b"x1,x2,label\n1,inf,a\n2,4,b\n", "line 2: coordinates must be numbers from|two columns"),
        (
            b"x1,x2,label\n1,2,a\n1e308,4,b\n",
            "line 3: coordinates must be numbers from -1,000,000 to 1,000,000",
        ),
        (b"x1,x2,label\n" + b"".join(b"%d,%d,c%d\n" % (i, i, i) for i in range(6)), "limit is 5 classes"),
        (b"x1,x2,label\n" + b"1,2,a\n" * 1001, "limit is 1,000"),
        (b"x1,x2,label\n1,2,a\x07\n3,4,b\n", "control character"),
    ],
)
def test_bad_points_files(data, message):
    with pytest.raises(ValueError, match=message):
        parse_points_csv(data)
