"""Tree → DOT: paths, growth, escaping of any text the data brings, the size cap, and graphviz."""

import re
import shutil

import numpy as np
import pytest

from classic import datasets
from classic.id3 import ID3
from classic.lessons.tree_sources import POST_ARYA_LAYOUT, fit_layout
from classic.viz import theme
from classic.viz.tree import MAX_NODES, html_text, quoted, render_dot, to_dot

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot is not installed")


def test_to_dot_highlights_the_path_and_draws_growth_step_by_step():
    X, y, names = datasets.load_play_tennis()
    tree = ID3().fit(X, y, names)
    drawing = to_dot(tree, highlight=["Sunny", "Hot", "High", "Weak"])
    dot = drawing.source
    assert dot.startswith("digraph") and dot.count("->") == 7
    assert drawing.complete and drawing.depth == drawing.full_depth == 2
    assert dot.count("penwidth=3") == 3 + 2  # three nodes and two edges on the path
    assert f'n0 -> n3 [label=<Sunny>, tooltip="Outlook = Sunny", color="{theme.ACCENT}", penwidth=3]' in dot
    assert "H = 0.940" in dot
    first = to_dot(tree, splits=1, focus=0).source
    assert first.count("->") == 3 and "Humidity" not in first and "penwidth=4" in first
    assert to_dot(tree, splits=0).source.count("->") == 0


def test_every_colour_comes_from_the_theme():
    X, y, names = datasets.load_play_tennis()
    dot = to_dot(ID3().fit(X, y, names), highlight=X[0], focus=0).source
    allowed = {theme.ACCENT, theme.FOCUS, *(theme.light(c, 0.7) for c in theme.class_colors(2))}
    assert set(re.findall(r"#[0-9A-Fa-f]{6}", dot)) <= allowed


def test_compact_left_to_right_drawing_for_bushy_trees(data_home):
    X, y, names = datasets.load_house_votes(data_home)
    dot = to_dot(ID3().fit(X, y, names), rankdir="LR", compact=True).source
    assert "rankdir=LR" in dot and "H = " not in dot
    assert "physician-fee-<BR/>freeze" in dot  # long names wrap after a hyphen
    assert "267 / 168" in dot  # democrats / republicans at the root
    with pytest.raises(ValueError, match="rankdir"):
        to_dot(ID3().fit(X, y, names), rankdir="BT")


def test_numeric_tests_are_drawn_with_their_thresholds():
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    tree = ID3().fit(X, ["a", "a", "b", "b"], ["size<x>"])
    dot = to_dot(tree).source
    assert "<B>size&lt;x&gt;</B>" in dot and "label=<&lt;= 2.5>" in dot and "label=<&gt; 2.5>" in dot
    assert 'tooltip="size<x> <= 2.5"' in dot


HOSTILE = [
    '<img src="http://host/x.png">',
    "![x](http://host/label.png)",
    "<script>alert(1)</script>",
    '"]; n9 [label="owned',
    "a\\lb\\Nc",
    "{braces} [brackets] |pipes|",
    "line\nbreak\tand\x07bell",
    "x" * 20_000,
    "&amp; &#60; ]]>",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_names_and_values_are_escaped_text(text):
    X = np.array([[text, "p"], [text, "q"], ["plain", "p"], ["plain", "q"]])
    y = np.array([text, text, "other", "other"])
    dot = to_dot(ID3().fit(X, y, [text, "g"]), highlight=X[0]).source
    labels = re.sub(r'tooltip="(?:[^"\\]|\\.)*"', "", dot)  # quoted strings are DOT text, not markup
    assert "<script" not in labels and "<img" not in labels
    assert "\x07" not in dot and len(max(dot.splitlines(), key=len)) < 2_000
    assert html_text(text).count("<") == 0 and html_text(text).count('"') == 0


@needs_dot
@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_renders_as_text_in_graphviz(text):
    X = np.array([[text], [text], ["plain"], ["plain"]])
    svg = render_dot(to_dot(ID3().fit(X, [text, text, "b", "b"], [text]))).decode()
    assert "<script" not in svg and "<img" not in svg


def test_quoted_strings_cannot_close_the_attribute():
    assert quoted('a"b\\c') == '"a\\"b\\\\c"'
    assert quoted("x" * 1000).endswith('…"') and len(quoted("x" * 1000)) < 210


@needs_dot
def test_a_tree_too_big_to_draw_is_cut_to_a_depth_that_fits():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 40, size=(1300, 40)).astype(str)  # the audit's 1300 rows × 40 columns of 40 values
    y = rng.integers(0, 5, size=1300).astype(str)
    tree = ID3().fit(X, y)
    assert tree.n_nodes_ > 5 * MAX_NODES
    drawing = to_dot(tree)
    svg = render_dot(drawing)
    assert not drawing.complete and drawing.depth < drawing.full_depth
    assert len(re.findall(r"^  n\d+ \[label=", drawing.source, re.M)) <= MAX_NODES and b"not drawn" in svg


@needs_dot
def test_five_thousand_classes_draw_without_a_syntax_error():
    X = np.array([[f"v{i % 3}"] for i in range(5000)])
    y = np.array([f"class {i}" for i in range(5000)])
    drawing = to_dot(ID3().fit(X, y))
    assert "more classes" in drawing.source
    assert render_dot(drawing).lstrip().startswith(b"<?xml")


@needs_dot
def test_render_dot_makes_svg_and_png_and_explains_failures():
    X, y, names = datasets.load_arya()
    drawing = to_dot(fit_layout(X, y, POST_ARYA_LAYOUT, names), highlight=["Sunny", "Hot", "Low", "Low"])
    svg = render_dot(drawing, "svg")
    assert svg.lstrip().startswith(b"<?xml") and b"Temperature" in svg and b"no training rows" in svg
    assert render_dot(drawing, "png").startswith(b"\x89PNG")
    with pytest.raises(ValueError, match="format"):
        render_dot(drawing, "pdf")
    with pytest.raises(ValueError, match="could not draw"):
        render_dot("digraph { a -> }")
    with pytest.raises(ValueError, match="limit"):
        render_dot("digraph { " + "a -> b; " * 100_000 + "}")
