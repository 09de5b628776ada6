"""classic.compare and classic.viz.compare: the /compare page's numbers, checked by hand and
against scikit-learn on the same split."""

import io

import numpy as np
import pytest
from PIL import Image
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from classic import compare, datasets
from classic.lessons import compare as lesson
from classic.perceptron import Perceptron
from classic.viz import compare as draw
from classic.viz.theme import rgb


@pytest.mark.parametrize("name", lesson.DATASETS)
def test_every_data_set_has_two_classes_and_the_asked_size(name):
    X, y = lesson.make_data(name, 200, 3)
    assert X.shape == (200, 2) and set(np.unique(y)) == {0, 1}
    assert compare.comparison_problem(X, y) is None


def test_flip_labels_swaps_the_asked_share_and_leaves_the_points():
    X, y = lesson.make_data("Moons", 200, 7)
    X10, y10 = lesson.make_data("Moons", 200, 7, flip=10)
    assert np.array_equal(X, X10)
    assert np.sum(y != y10) == 20
    assert np.array_equal(y10, lesson.make_data("Moons", 200, 7, flip=10)[1])
    with pytest.raises(ValueError, match="percent"):
        compare.flip_labels(y, 120, 0)


def test_comparison_problem_explains_what_is_missing():
    assert "two classes" in compare.comparison_problem(np.zeros((3, 2)), [0, 0, 0])
    assert "two classes" in compare.comparison_problem(np.zeros((3, 2)), [0, 0, 1])  # one point of class 1
    assert "finite" in compare.comparison_problem(
        np.array([[0, 0], [1, np.nan], [2, 2], [3, 3]]), [0, 0, 1, 1]
    )
    assert "two coordinates" in compare.comparison_problem(np.zeros((4, 3)), [0, 0, 1, 1])


def test_split_is_seeded_stratified_and_seventy_thirty():
    X, y = lesson.make_data("XOR", 200, 0)
    a, b = compare.split(X, y, 5), compare.split(X, y, 5)
    assert np.array_equal(a.X_train, b.X_train)
    assert len(a.y_test) == 60 and np.bincount(a.y_test).tolist() == [30, 30]


def test_rbf_gamma_is_sklearns_scale():
    X, y = lesson.make_data("Concentric circles", 100, 0)
    assert compare.rbf_gamma(X) == pytest.approx(SVC(gamma="scale").fit(X, y)._gamma)


@pytest.mark.parametrize("name", lesson.DATASETS)
@pytest.mark.parametrize("k", [1, 7, 15])
def test_knn_scores_match_sklearn_on_the_same_split(name, k):
    X, y = lesson.make_data(name, 200, 1, flip=10)
    data = compare.split(X, y, 1)
    ours = compare.fit(compare.make_model("knn", data, k=k), data)
    theirs = KNeighborsClassifier(n_neighbors=k).fit(data.X_train, data.y_train)
    assert ours.train_accuracy == pytest.approx(theirs.score(data.X_train, data.y_train))
    assert ours.test_accuracy == pytest.approx(theirs.score(data.X_test, data.y_test))


@pytest.mark.parametrize("name", lesson.DATASETS)
def test_a_one_split_tree_scores_as_sklearns_stump(name):
    X, y = lesson.make_data(name, 200, 2)
    data = compare.split(X, y, 2)
    ours = compare.fit(compare.make_model("tree", data, max_depth=1), data)
    stump = DecisionTreeClassifier(criterion="entropy", max_depth=1).fit(data.X_train, data.y_train)
    assert ours.model.root_.threshold == pytest.approx(stump.tree_.threshold[0])
    assert ours.test_accuracy == pytest.approx(stump.score(data.X_test, data.y_test))


def test_a_line_gets_three_of_the_four_xor_corners():
    """The sentence under the XOR panels: a line classifies at most three corners."""
    X, y = datasets.xor(4)
    assert compare.make_perceptron("line", X).fit(X, y).score(X, y) == 0.75


def test_regions_grid_and_times():
    X, y = lesson.make_data("Gaussian clusters", 100, 0)
    data = compare.split(X, y, 0)
    grid, low, high = compare.box(X, 20)
    fitted = compare.fit(compare.make_model("perceptron", data), data, grid)
    assert fitted.regions.shape == (400,) and set(np.unique(fitted.regions)) == {0, 1}
    assert fitted.fit_seconds > 0 and fitted.predict_seconds > 0
    # The region of each grid point is what the model predicts there.
    assert np.array_equal(fitted.regions, fitted.model.predict(grid))
    assert np.all(grid.min(axis=0) == low) and np.all(grid.max(axis=0) == high)


def test_line_ends_lie_on_the_line_and_the_box():
    model = Perceptron(max_epochs=10).fit(*datasets.linearly_separable(25, 0))
    low, high = np.array([0.0, 0.0]), np.array([1.0, 1.0])
    ends = compare.line_ends(model, low, high)
    assert ends.shape == (2, 2)
    assert np.allclose(ends @ model.coef_ + model.intercept_, 0)
    on_edge = np.isclose(ends, low) | np.isclose(ends, high)
    assert on_edge.any(axis=1).all()
    assert compare.line_ends(model, np.array([5.0, 5.0]), np.array([6.0, 6.0])) is None
    kernel = compare.make_perceptron("RBF kernel", np.zeros((2, 2)))
    assert compare.line_ends(kernel, low, high) is None


def test_regions_png_puts_the_highest_row_on_top_in_the_theme_colours():
    regions = np.zeros((4, 5), dtype=np.uint8)
    regions[-1] = 1  # highest x₂ row is class 1
    image = np.asarray(Image.open(io.BytesIO(draw.regions_png(regions, 2))).convert("RGB"))
    assert image.shape == (4, 5, 3)
    colours = [np.round(255 * np.array(rgb(c))) for c in draw.region_colors(2)]
    assert np.array_equal(image[0, 0], colours[1]) and np.array_equal(image[-1, 0], colours[0])


def test_describe_states_computed_numbers():
    fitted = lesson.run(data="XOR")
    said = " ".join(lesson.describe("XOR", fitted, 15))
    assert f"gets {fitted['perceptron'].train_accuracy:.0%} of the training points" in said
    noisy = lesson.run(data="Moons", k=1, flip=10)
    said = " ".join(lesson.describe("Moons", noisy, 1))
    assert "memorises" in said and f"against {noisy['knn'].test_accuracy:.0%} held out" in said
    assert noisy["knn"].train_accuracy == 1.0 > noisy["knn"].test_accuracy


def test_every_question_offers_its_answer():
    questions = lesson.questions()
    assert 4 <= len(questions) <= 6
    for question in questions:
        assert question.answer in question.options
        assert set(question.settings) == set(lesson.DEFAULTS)


def test_download_figure_draws_three_panels():
    X, y = lesson.make_data("Moons", 60, 0)
    data = compare.split(X, y, 0)
    grid, low, high = compare.box(X, 10)
    panels = [(n, compare.fit(compare.make_model(n, data), data, grid).regions, None) for n in compare.NAMES]
    png = draw.figure_bytes(panels, data, low, high, ["class 0", "class 1"], "png")
    assert png.startswith(b"\x89PNG")
    assert (
        draw.figure_bytes(panels, data, low, high, ["class 0", "class 1"], "svg")
        .lstrip()
        .startswith(b"<?xml")
    )


@pytest.mark.parametrize("k", [1, 2, 15, 100])
def test_knn_regions_voted_from_the_table_are_the_classifiers_predictions(k):
    X, y = lesson.make_data("Moons", 200, 4, flip=20)
    data = compare.split(X, y, 4)
    grid, _, _ = compare.box(X, 40)
    table = compare.grid_neighbours(data, grid)
    fitted = compare.with_knn_regions(compare.fit(compare.make_model("knn", data, k=k), data), table, data)
    assert np.array_equal(fitted.regions, fitted.model.predict(grid))


def test_axis_aligned_boxes_are_labelled_by_their_rectangles_and_the_tree_finds_the_edges():
    X, y = datasets.axis_aligned_boxes(1000, 0)
    assert y[np.flatnonzero((X[:, 0] > 0.35) & (X[:, 1] > 0.5))].all()
    assert y[np.flatnonzero((X[:, 0] > 0.7) & (X[:, 1] < 0.25))].all()
    assert not y[np.flatnonzero(X[:, 0] < 0.35)].any()
    data = compare.split(X, y, 0)
    tree = compare.fit(compare.make_model("tree", data, max_depth=20), data).model
    thresholds, stack = [], [tree.root_]
    while stack:
        node = stack.pop()
        if node.threshold is not None:
            thresholds.append((node.feature_index, node.threshold))
        stack.extend(node.children.values())
    for edge in ((0, 0.35), (1, 0.5), (0, 0.7), (1, 0.25)):
        assert any(j == edge[0] and abs(t - edge[1]) < 0.02 for j, t in thresholds), edge
    assert tree.n_leaves_ == 5  # the two rectangles and the three pieces around them


def test_points_all_in_one_place_still_compare_and_read_well():
    """A hostile table: every point at the origin, two of each class (nothing can be learned)."""
    X, y = np.zeros((4, 2)), np.array([0, 0, 1, 1])
    assert compare.comparison_problem(X, y) is None
    data = compare.split(X, y, 0)
    grid, low, high = compare.box(X, 10)
    fitted = {n: compare.fit(compare.make_model(n, data, k=15), data, grid) for n in compare.NAMES}
    assert compare.title("tree", fitted["tree"]) == "ID3 tree: 1 leaf"
    said = " ".join(lesson.describe("Your points", fitted, 15))
    assert (
        "from 1 box (its leaf) the tree draws one class over the whole box" in said
        and "the perceptron, k-NN and the tree" in said
    )
    compare.line_ends(fitted["perceptron"].model, low, high)  # w may be 0: no line, no error


def grid_of(rows: list[str]) -> np.ndarray:
    """A picture typed as rows of 0/1 from the top (the highest x₂) down, as ``Fitted.regions``."""
    return np.array([[int(c) for c in row] for row in reversed(rows)]).ravel()


def test_picture_counts_what_the_eye_sees():
    """An L, a staircase, a checkerboard and an island, counted by hand."""
    ell = compare.picture(grid_of(["1111", "1111", "0011", "0011"]))
    assert ell == compare.Picture(areas=2, corners=1, pieces=2, staircase=True)
    assert lesson.shape_words(ell) == "an L of 2 straight pieces with 1 corner"
    stairs = compare.picture(grid_of(["1111", "0111", "0011", "0001"]))
    assert stairs == compare.Picture(areas=2, corners=5, pieces=6, staircase=True)
    assert lesson.shape_words(stairs).startswith("a staircase of 6 straight pieces")
    checker = compare.picture(grid_of(["0011", "0011", "1100", "1100"]))
    assert checker.areas == 4 and checker.corners == 2 and checker.pieces == 4 and not checker.staircase
    island = compare.picture(grid_of(["0000", "0110", "0110", "0000"]))
    assert island == compare.Picture(areas=2, corners=4, pieces=4, staircase=False)
    assert lesson.shape_words(island) == "a boundary of 4 straight pieces with 4 corners"
    cut = compare.picture(grid_of(["0011", "0011", "0011", "0011"]))
    assert lesson.shape_words(cut) == "one straight cut"
    assert lesson.shape_words(compare.picture(np.zeros(16, dtype=int))) == "one class over the whole box"


def page_view(**settings):
    """The three fits of a /compare view with their regions on the page's grid, as the page draws them."""
    s = {**lesson.DEFAULTS, **settings}
    X, y = lesson.make_data(s["data"], s["points"], s["seed"], s["flip"])
    data = compare.split(X, y, s["seed"])
    grid = compare.box(X, 100)[0]  # pages/widgets/shared.py's COMPARE_RESOLUTION
    params = {"perceptron": s["perceptron"], "k": s["k"], "max_depth": s["depth"]}
    return {name: compare.fit(compare.make_model(name, data, **params), data, grid) for name in compare.NAMES}


def test_the_tree_sentence_describes_the_picture_drawn():
    """Gaussian clusters at seed 0: 5 leaves draw an L with a notch (3 corners), which the old text
    called "a staircase of 5 boxes"; the sentence now counts what is drawn."""
    fitted = page_view(data="Gaussian clusters", depth=6)
    drawn = compare.picture(fitted["tree"].regions)
    said = " ".join(lesson.describe("Gaussian clusters", fitted, 15))
    assert not drawn.staircase or drawn.corners < 3
    assert "staircase" not in said
    assert f"{drawn.pieces} straight pieces with {drawn.corners} corner" in said
    assert f"from {fitted['tree'].model.n_leaves_} boxes" in said


def test_the_default_view_shows_the_lesson_its_text_states():
    """/compare's first view: the perceptron's one line gets every training point, the tree's
    boxes draw a staircase (several steps, one area a class), and the text says both."""
    fitted = page_view()
    drawn = compare.picture(fitted["tree"].regions)
    assert fitted["perceptron"].train_accuracy == 1.0
    assert drawn.staircase and drawn.corners >= 6 and drawn.areas == 2
    assert fitted["perceptron"].test_accuracy >= max(fitted[n].test_accuracy for n in ("knn", "tree"))
    said = lesson.describe(lesson.DEFAULTS["data"], fitted, lesson.DEFAULTS["k"])
    assert said[0] == "A line separates the training points: the perceptron gets them all right."
    assert f"a staircase of {drawn.pieces} straight pieces with {drawn.corners} corners" in said[2]
    question = next(q for q in lesson.questions() if q.title == "The tree's staircase")
    deep = page_view(**question.settings)["tree"]
    assert compare.picture(deep.regions).staircase  # the question's "staircase" is one too


def test_each_question_hides_parts_of_the_page_and_names_what_gives_it_away():
    """Issue 31: each question names parts the page can hide and the texts it must not show."""
    for question in lesson.questions():
        assert question.hides and set(question.hides) <= set(lesson.PARTS), question.title
        assert question.tells, question.title
        assert not any(tell in question.question or tell in question.options for tell in question.tells)


def test_the_tells_are_what_the_page_view_shows():
    """A question's tells are the texts the page draws on its view: each panel's accuracies (its
    description) and the sentence naming the best, or the tree's leaves in its title and its
    sentence, so hiding those parts hides the answer and the reveal shows it."""
    for question in lesson.questions():
        s = {**lesson.DEFAULTS, **question.settings}
        fitted = page_view(**s)
        said = " ".join(lesson.describe(s["data"], fitted, fitted["knn"].model.k, s["perceptron"]))
        if lesson.SCORES in question.hides:
            assert question.tells == lesson.score_tells(fitted)
            assert question.tells[-1] in said
        else:
            tree = fitted["tree"]
            assert question.tells == (compare.title("tree", tree), f"{tree.model.n_leaves_} boxes")
            assert question.tells[1] in said and question.tells[1] in question.why


def test_a_panel_hides_the_trees_leaves_and_scores_in_words():
    fitted = lesson.run(data="Diagonal boundary", depth=20)["tree"]
    assert compare.title("tree", fitted) == f"ID3 tree: {fitted.model.n_leaves_} leaves"
    assert compare.title("tree", fitted, leaves=False) == "ID3 tree: ? leaves"
    assert (
        compare.scores(fitted) == f"{fitted.train_accuracy:.0%} training, {fitted.test_accuracy:.0%} held out"
    )


def test_regions_png_draws_the_boundary_as_a_thin_ink_line():
    """Issue 35: /compare's region shades alone told the classes apart; with ``boundary`` each
    cell is BOUNDARY_SCALE pixels and an ink line runs where the class changes, nowhere else."""
    from classic.viz.theme import INK

    regions = np.zeros((6, 6), dtype=np.uint8)
    regions[:, 3:] = 1  # class 1 on the right half: one vertical boundary
    image = np.asarray(Image.open(io.BytesIO(draw.regions_png(regions, 2, boundary=True))).convert("RGB"))
    s = draw.BOUNDARY_SCALE
    assert image.shape == (6 * s, 6 * s, 3)
    ink = np.all(image == np.round(255 * np.array(rgb(INK))), axis=2)
    assert ink[:, 3 * s].all() and ink.sum() == 6 * s  # the one column where the class changes
