"""What the projector shows of a class (pages/classroom/class_view.py) and how a "Try this" step becomes
a class's question (pages/classroom/class_panel.py): links, the QR code, the bars, escaping."""

from __future__ import annotations

import base64
import re
from urllib.parse import unquote

import pytest

from pages.classroom import class_panel, class_view, kinds, rooms
from pages.classroom.rooms import Question, Round
from pages.widgets.lesson import Step


@pytest.mark.parametrize(
    ("page_url", "path", "base"),
    [
        ("http://10.0.0.5:8501/knn", "knn", "http://10.0.0.5:8501"),
        ("https://lab.example.org/classic/decision-tree", "decision-tree", "https://lab.example.org/classic"),
        ("http://10.0.0.5:8501/", "", "http://10.0.0.5:8501"),
    ],
)
def test_the_join_link_is_the_server_s_join_page_with_the_room_only(page_url, path, base):
    assert class_view.base_url(page_url, path) == base
    assert class_view.join_link(base, "AB3CD") == f"{base}/join?room=AB3CD"


def test_a_local_address_is_one_a_phone_cannot_open():
    assert class_view.is_local("http://127.0.0.1:8501/join?room=AB3CD")
    assert class_view.is_local("http://localhost:8501")
    assert not class_view.is_local("http://192.168.1.20:8501/join?room=AB3CD")


def test_the_card_shows_the_code_and_link_and_the_qr_code_inline():
    link = "http://192.168.1.20:8501/join?room=AB3CD"
    card = class_view.join_card("AB3CD", link)
    assert ">AB3CD<" in card and f">{link}<" in card
    uri = re.search(r'src="(data:image/svg\+xml[^"]*)"', card).group(1)
    svg = (
        unquote(uri.split(",", 1)[1])
        if ";base64" not in uri
        else base64.b64decode(uri.split(",", 1)[1]).decode()
    )
    assert svg.lstrip().startswith(("<?xml", "<svg")) and "http" not in svg.replace("http://www.w3.org", "")


def test_bars_count_share_mark_the_right_choice_and_escape_text():
    html = class_view.bars("Vote 1", ["<b>k = 1</b>", "k & 5"], (1, 3), right=1)
    assert "<b>k" not in html and "&lt;b&gt;k = 1&lt;/b&gt;" in html and "k &amp; 5" in html
    assert "1 (25%)" in html and "3 (75%)" in html and "Vote 1 · 4 answers" in html
    assert html.count("✓") == 1 and "✓ k &amp; 5" in html
    assert "✓" not in class_view.bars("Vote 1", ["a", "b"], (0, 0), right=None)
    assert "0 (0%)" in class_view.bars("Vote 1", ["a", "b"], (0, 0), right=None)


def test_the_count_says_how_many_answered_never_who():
    line = class_view.count_line("Vote 2", 1, 30)
    assert "1 answer" in line and "30 phones joined" in line and "Vote 2" in line


def test_a_step_becomes_a_question_the_store_accepts():
    step = Step("A line exists", {"k": 1}, "Will it converge?", ["Yes", "No"], "No", "It cycles.")
    q = class_panel.question_of("perceptron", 3, step)
    assert q == Question("perceptron.3", "Will it converge?", ("Yes", "No"), 1, "It cycles.")
    assert rooms.check_question(q) is q
    numbers = Step("t", {}, "How many?", [1, 2, 3], 2, "Two.")  # options that are not text
    assert class_panel.question_of("knn", 1, numbers).answer == 1
    lost = Step("t", {}, "?", ["a", "b"], "c", "")  # an answer not among the options is refused
    with pytest.raises(rooms.RoomError):
        kinds.checked(class_panel.question_of("knn", 1, lost))


def test_ask_again_chains_the_rounds_of_one_question_up_to_the_current_one():
    a, b = (Question(qid, "?", ("x", "y"), 0) for qid in ("knn.1", "knn.2"))
    rounds = [Round(1, a, 1, 0.0), Round(2, b, 1, 1.0), Round(3, a, 2, 2.0), Round(4, a, 3, 3.0)]
    assert [r.number for r in class_panel._chain(rounds, "knn.1")] == [3, 4]
    assert class_panel._chain(rounds, "knn.2") == []


@pytest.mark.parametrize(
    "counts",
    [
        (5, 2, 1),
        (1, 1, 1),
        (2, 2, 2, 1),
        (1,) * 7,
        (0, 3),
        (7, 0, 0, 0),
        (333, 333, 334),
        (1, 2, 3, 4, 5, 6, 7, 8),
    ],
)
def test_the_shares_shown_add_up_to_100_and_each_is_within_a_point_of_its_exact_share(counts):
    shown = class_view.shares(counts)
    assert sum(shown) == 100
    total = sum(counts)
    assert all(abs(share - 100 * count / total) < 1 for share, count in zip(shown, counts, strict=True))
    html = class_view.bars("Vote 1", [str(i) for i in range(len(counts))], counts, right=None)
    assert sum(int(p) for p in re.findall(r"\((\d+)%\)", html)) == 100


def test_five_two_one_of_eight_reads_63_25_12():
    """5/2/1 of 8 is 62.5/25/12.5: rounded alone, 62 + 25 + 12 = 99."""
    assert class_view.shares((5, 2, 1)) == [63, 25, 12]
    assert class_view.shares((0, 0)) == [0, 0]
