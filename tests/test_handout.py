"""The deck's handout and answer key (classic/viz/handout.py, issue #34): rendered by poppler
(pdftoppm) at the paper's size, their text (pdftotext) holding every question and choice, the
key's answers the app's own, a teacher's markup printed as typed, and the time a 10-slide deck
takes (printed, not asserted: machines differ).

A page of each is saved under tests/artifacts/handout/ for the issue's closing note.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from classic.lessons import LESSONS, Step, decks
from classic.viz import handout as ho

ARTIFACTS = Path(__file__).resolve().parent / "artifacts" / "handout"
# The papers in points (A4 is 210 × 297 mm), and a page rendered at 72 dpi in pixels: pdftoppm
# rounds a fraction of a point up.
POINTS = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0)}
PIXELS = {"A4": (596, 842), "Letter": (612, 792)}

pytestmark = pytest.mark.skipif(
    shutil.which("pdftoppm") is None or shutil.which("pdftotext") is None,
    reason="poppler-utils (pdftoppm, pdftotext) is not installed: apt-get install poppler-utils",
)


def slide(page: str, n: int) -> decks.Slide:
    """A slide of ``page`` set up as its step ``n``'s view (its link values), asking that step."""
    step = decks.page_steps(page)[n - 1]
    return decks.Slide(step.title, page, decks.View(step.setup), f"Step {n} of /{page}.", (decks.StepRef(n),))


def every_step_deck() -> decks.Deck:
    """A deck of every lesson page's every "Try this" step, a slide each (the registry's order)."""
    slides = [
        slide(lesson.url_path, n)
        for lesson in LESSONS
        for n in range(1, len(decks.page_steps(lesson.url_path)) + 1)
    ]
    # Checked as a loaded deck is: the handout is made of decks the app accepts.
    return decks.check(
        decks.Deck(
            "Every step of every lesson", "All the lessons' steps, in the menu's order.", tuple(slides)
        )
    )


def resolved(deck: decks.Deck) -> list[list]:
    return [decks.resolve(s) for s in deck.slides]


def text(pdf: bytes, tmp_path: Path, name: str) -> str:
    """The PDF's text (pdftotext), its whitespace collapsed: a wrapped line reads as one."""
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True)
    return flat(out.stdout.decode("utf-8"))


def flat(s: str) -> str:
    """``s`` without its whitespace: pdftotext breaks lines where the layout wrapped them and
    reads a gap before a closing quote as a space."""
    return re.sub(r"\s+", "", s)


def first_page_png(pdf: bytes, tmp_path: Path, name: str, dpi: int = 72, page: int = 1) -> Path:
    """Page ``page`` rendered by pdftoppm as a PNG."""
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    stem = tmp_path / f"{name}-{dpi}"
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            str(dpi),
            "-f",
            str(page),
            "-l",
            str(page),
            "-singlefile",
            str(path),
            str(stem),
        ],
        check=True,
        capture_output=True,
    )
    return stem.with_suffix(".png")


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk (no imaging library needed)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def inked(path: Path) -> bool:
    """Whether the rendered page has ink: pdftoppm's PNG of a blank page compresses to almost
    nothing, a page of text and a figure to kilobytes."""
    return path.stat().st_size > 5_000


def pdf_info(pdf: bytes, tmp_path: Path, field: str) -> str:
    """One field of pdfinfo's report ("Title", "Page size")."""
    path = tmp_path / "info.pdf"
    path.write_bytes(pdf)
    info = subprocess.run(["pdfinfo", "-enc", "UTF-8", str(path)], capture_output=True, check=True)
    lines = info.stdout.decode("utf-8").splitlines()
    return next(line.split(":", 1)[1].strip() for line in lines if line.startswith(f"{field}:"))


def pdf_title(pdf: bytes, tmp_path: Path) -> str:
    return pdf_info(pdf, tmp_path, "Title")


def raster_images(pdf: bytes, tmp_path: Path) -> int:
    """How many bitmaps the PDF embeds (pdfimages): none, its figures are vector."""
    path = tmp_path / "images.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, check=True)
    return len(out.stdout.decode().splitlines()) - 2  # two lines of header


@pytest.fixture(scope="module")
def full_deck(data_home):  # /digits' steps are computed on the Semeion digits
    deck = every_step_deck()
    return deck, resolved(deck)


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_every_lesson_deck_renders_with_every_question_and_the_apps_answers(full_deck, paper, tmp_path):
    deck, asked = full_deck
    assert {s.page for s in deck.slides} == {lesson.url_path for lesson in LESSONS}
    started = time.perf_counter()
    sheet, key = ho.handout(deck, asked, paper), ho.answer_key(deck, asked, paper)
    print(f"\n{paper}: {len(deck.slides)} slides, handout + key in {time.perf_counter() - started:.2f} s")

    for pdf, name in ((sheet, "handout"), (key, "key")):
        png = first_page_png(pdf, tmp_path, f"{name}-{paper}")
        assert png_size(png) == PIXELS[paper], f"the {name}'s page 1 is not {paper}"
        width, height = map(float, re.findall(r"[\d.]+", pdf_info(pdf, tmp_path, "Page size"))[:2])
        assert (width, height) == pytest.approx(POINTS[paper], abs=0.01)
        assert inked(png), f"the {name}'s page 1 is blank"
        assert raster_images(pdf, tmp_path) == 0, f"the {name} holds a bitmap: its figures must be vector"

    said, keyed = text(sheet, tmp_path, "handout"), text(key, tmp_path, "key")
    for n, (s, questions) in enumerate(zip(deck.slides, asked, strict=True), 1):
        assert flat(s.title) in said
        for q in questions:
            assert isinstance(q, Step)
            assert flat(q.question) in said, f"slide {n}: the question is missing from the handout"
            for letter, option in zip(ho.LETTERS, q.options, strict=False):
                assert flat(f"{letter}. {option}") in said, f"slide {n}: choice {option!r} is missing"
            # The app's answer (the step's, computed by the library) is the key's, with its why.
            right = ho.LETTERS[list(q.options).index(q.answer)]
            assert flat(f"Answer: {right}. {q.answer}") in keyed, (
                f"slide {n}: the key's answer is not the app's"
            )
            assert flat(q.why) in keyed
            assert flat(q.question) in keyed


def own_deck() -> tuple[decks.Deck, list[list]]:
    """A slide a page with the teacher's own questions: choices, an opinion, a number; markup
    and mathtext in every text a teacher types."""
    owns = (
        decks.Own(
            "Is $x$ larger than <b>y</b>? \\alpha & 50%", ("$x$", "<b>y</b>"), 1, "Because $5 < $7 <i>."
        ),
        decks.Own("Which did you like?", ("the line", "the vote", "the boxes"), decks.OPINION, ""),
        decks.Own("How many updates ($n$)?", number=12, tolerance=2, why="Count the $ signs."),
    )
    view = decks.View({"knn_data": "Moons", "knn_k": 3})
    deck = decks.Deck(
        "Markup: $\\frac{1}{2}$ <script>alert(1)</script>",
        "",
        (decks.Slide("Own $q$ <em>here</em>", "knn", view, "Ask <b>who</b> $first$.", owns),),
    )
    return decks.check(deck), resolved(deck)


def test_own_questions_and_markup_print_as_typed(tmp_path):
    deck, asked = own_deck()
    sheet, key = ho.handout(deck, asked, "Letter"), ho.answer_key(deck, asked, "A4")
    said, keyed = text(sheet, tmp_path, "own-handout"), text(key, tmp_path, "own-key")
    for literal in (
        "Is $x$ larger than <b>y</b>? \\alpha & 50%",
        "A. $x$",
        "B. <b>y</b>",
        "Own $q$ <em>here</em>",
    ):
        assert flat(literal) in said
    assert flat("Markup: $\\frac{1}{2}$ <script>alert(1)</script>") in said
    assert flat("How many updates ($n$)?") in said and flat("Your number") in said
    assert flat("Answer: B. <b>y</b>") in keyed
    assert flat("Answer: opinion: no right answer") in keyed
    assert flat("Answer: 12 ± 2") in keyed
    assert flat("Because $5 < $7 <i>.") in keyed and flat("Count the $ signs.") in keyed
    assert flat("Notes: Ask <b>who</b> $first$.") in keyed
    assert flat("Ask <b>who</b>") not in said  # the teacher's notes stay off the students' sheet
    assert pdf_title(sheet, tmp_path) == "Markup: $\\frac{1}{2}$ <script>alert(1)</script>: handout"
    assert pdf_title(key, tmp_path).endswith(": answer key")


def test_the_figure_is_honest_data_and_set_up_never_a_model():
    """The view's data rebuilt as the page builds it; nothing a fitted model draws."""
    from classic.lessons import knn, tree

    shown = ho.picture(
        "knn", {"knn_data": "Moons", "knn_points": 200, "knn_seed": 0, "knn_qx": 0.5, "knn_qy": 0.25}
    )
    X, y, _, _ = shown.points
    X_app, y_app = knn.lesson_data("Moons", 200, 2, 0)
    assert (X == X_app).all() and (y == y_app).all() and shown.query == (0.5, 0.25)
    assert ho.picture("knn", {}).points[0].shape == (knn.DEFAULTS["points"], 2)  # the widgets' defaults
    table = ho.picture("decision-tree", {"tree_data": "Play Tennis"}).table
    assert table[0][-1] == "class" and len(table[1]) == 14
    counted = ho.picture("decision-tree", {"tree_data": "Test1 vs Test2 (the slides)"}).table
    assert counted[0][-1] == "rows" and sum(int(row[-1]) for row in counted[1]) == 40
    assert ho.picture("decision-tree", {"tree_data": tree.UPLOAD}).note  # says why nothing is drawn
    split = ho.picture("compare", {"cmp_data": "XOR", "cmp_points": 200, "cmp_seed": 0}).points
    assert split[3].sum() == 140  # filled: the 70% trained on; open: the held out
    grid = ho.picture("digits", {"digits_grid": "0f" * 32}).grid
    assert grid.shape == (16, 16)
    assert ho.picture("digits", {"digits_tab": "Evaluation"}).points is None  # accuracies would answer
    assert "could not be drawn" in ho.picture("knn", {"knn_data": "No such data"}).note
    for page in ho.VIEWS:  # a Picture has fields for data only: no regions, lines, trees, scores
        assert set(vars(ho.picture(page, {}))) == {"points", "query", "axes", "table", "grid", "note"}


@pytest.mark.slow
def test_a_ten_slide_deck_is_made_in_seconds_and_saved_for_the_note(tmp_path):
    pages = ("perceptron", "knn", "decision-tree", "compare")  # no UCI file needed
    slides = [slide(page, n) for page in pages for n in (1, 2, 3)][:10]
    deck = decks.Deck("What k does, and more", "Ten slides, a question each.", tuple(slides))
    asked = resolved(deck)  # the steps are computed before the clock starts: the app has them cached
    times = {}
    for paper in ("A4", "Letter"):
        started = time.perf_counter()
        sheet = ho.handout(deck, asked, paper)
        times[f"handout {paper}"] = time.perf_counter() - started
        started = time.perf_counter()
        key = ho.answer_key(deck, asked, paper)
        times[f"key {paper}"] = time.perf_counter() - started
    print("\n10 slides: " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in times.items()))
    print(
        f"pages: handout {ho.pages(sheet)}, key {ho.pages(key)}; sizes {len(sheet):,} and {len(key):,} bytes"
    )
    assert ho.pages(sheet) >= 10
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for pdf, name, page in ((sheet, "handout", 4), (key, "key", 1)):  # slide 4: the moons and a k-NN query
        png = first_page_png(pdf, tmp_path, name, dpi=110, page=page)
        shutil.copy(png, ARTIFACTS / f"{name}-page.png")
        (ARTIFACTS / f"{name}-letter.pdf").write_bytes(pdf)


def test_bad_arguments_are_refused():
    deck, asked = own_deck()
    with pytest.raises(ValueError, match="paper"):
        ho.handout(deck, asked, "A3")
    with pytest.raises(ValueError, match="slides"):
        ho.answer_key(deck, [], "A4")


def test_wrap_fits_the_width_and_keeps_every_character():
    text = "A line exists: w ← w + η·y·x, then " + "x" * 300 + " and\nits own line."
    lines = ho.wrap(text, 200, 10)
    assert all(ho._width(line, 10) <= 200 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "").replace("\n", "")
