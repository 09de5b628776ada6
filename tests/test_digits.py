"""Tests for classic.digits: canvas → Semeion grid, the drawing checks, the distances, the ladder."""

import numpy as np
import pytest
from strokes import STYLES, drawings, render_squares, styled

from classic import _digits_search, datasets, digits
from classic._validation import NotFittedError
from classic.knn import KNNClassifier
from classic.lessons import digits as lesson
from classic.viz import digits as view
from classic.viz import theme


def blank(height=280, width=280):
    return np.zeros((height, width, 4), dtype=np.uint8)


def test_no_image_or_no_ink_gives_none():
    assert digits.canvas_to_grid(None) is None
    assert digits.canvas_to_grid(blank()) is None  # the canvas after a reset: all zeros


def test_a_single_dot_fills_the_box():
    image = blank()
    image[100:104, 50:54, 3] = 255
    grid = digits.canvas_to_grid(image)
    assert grid.shape == (16, 16) and grid.dtype == np.uint8
    assert grid.all()  # stretched in both directions, as Semeion did


def test_a_slanted_stroke_is_stretched_to_the_full_width():
    image = blank()
    for row in range(20, 260):  # a "1" leaning right, as Semeion's writers drew it
        column = 200 - (row - 20) // 2
        image[row, column - 12 : column + 12, 3] = 255
    grid = digits.canvas_to_grid(image)
    assert grid[0, -1] and grid[-1, 0] and not grid[0, 0] and not grid[-1, -1]


def test_a_bare_vertical_stroke_stays_a_bar_and_reads_as_one(data_home):
    image = blank()
    image[20:260, 130:150, 3] = 255
    grid = digits.canvas_to_grid(image)
    assert grid[:, 7:9].all() and not grid[:, :4].any() and not grid[:, -4:].any()
    X, y = datasets.load_semeion(data_home)
    assert digits.default_model(X, y).predict(grid.reshape(1, -1))[0] == 1


def test_an_l_shape_touching_the_border_keeps_its_shape():
    image = blank(200, 300)
    image[:, :20, 3] = 255  # the left edge, full height
    image[-20:, :, 3] = 255  # the bottom edge, full width
    grid = digits.canvas_to_grid(image)
    assert grid[:, 0].all() and grid[-1, :].all()
    assert grid[:12, 4:].sum() == 0


@pytest.mark.parametrize("size", [(64, 64), (280, 280), (400, 150), (17, 500)])
def test_any_canvas_size(size):
    image = blank(*size)
    h, w = size
    image[h // 4 : 3 * h // 4, w // 4 : w // 4 + max(1, w // 20), 3] = 255
    image[h // 4 : h // 4 + max(1, h // 20), w // 4 : 3 * w // 4, 3] = 255
    grid = digits.canvas_to_grid(image)
    assert grid.shape == (16, 16)
    assert grid[0].all() and grid[:, 0].all() and not grid[8:, 8:].any()


def test_ink_only_in_alpha_and_dark_ink_on_an_opaque_background():
    transparent = blank()
    transparent[50:200, 100:120, 3] = 255  # black RGB everywhere: only alpha tells ink
    transparent[50:70, 60:160, 3] = 255
    opaque = np.full((280, 280, 4), 255, dtype=np.uint8)
    opaque[50:200, 100:120, :3] = 0
    opaque[50:70, 60:160, :3] = 0
    np.testing.assert_array_equal(digits.canvas_to_grid(transparent), digits.canvas_to_grid(opaque))


def test_faint_anti_aliased_ink_is_seen():
    image = blank()
    image[50:200, 100:110, 3] = 90  # a light stroke
    assert digits.canvas_to_grid(image).sum() > 0


def test_area_stretch_preserves_the_mean():
    coverage = np.random.default_rng(0).uniform(size=(37, 53))
    assert digits.stretch(coverage).mean() == pytest.approx(coverage.mean())


def test_blur_keeps_a_flat_image_flat_and_sigma_zero_leaves_it():
    flat = np.full((16, 16), 0.5)
    np.testing.assert_allclose(digits.blur(flat, 1.0), 0.5)
    grid = np.random.default_rng(0).integers(0, 2, (16, 16))
    np.testing.assert_array_equal(digits.blur(grid, 0.0)[0], grid.ravel())


def test_blur_spreads_a_centre_pixel_as_a_gaussian():
    grid = np.zeros((16, 16))
    grid[8, 8] = 1
    smooth = digits.blur(grid, 1.0).reshape(16, 16)
    assert smooth.sum() == pytest.approx(1.0)
    one_d = np.exp(-(np.arange(-8, 8) ** 2) / 2) / np.exp(-(np.arange(-8, 8) ** 2) / 2).sum()
    assert smooth[8, 8] == pytest.approx(one_d[8] ** 2) and smooth[7, 8] == pytest.approx(one_d[7] * one_d[8])


def test_shifted_moves_the_image_and_fills_with_zeros():
    image = np.arange(256.0).reshape(1, 16, 16)
    moved = digits.shifted(image, 1, -1)[0]
    assert moved[1, 0] == image[0, 0, 1] and moved[0].sum() == 0 and moved[:, -1].sum() == 0


def test_shift_distance_is_the_smallest_over_the_nine_shifts():
    rng = np.random.default_rng(1)
    queries, train = rng.uniform(size=(3, 256)), rng.uniform(size=(5, 256))
    got = digits.shift_distances(queries, train, (train**2).sum(axis=1))
    for q, query in enumerate(queries):
        for t, row in enumerate(train):
            by_hand = min(
                ((digits.shifted(query.reshape(1, 16, 16), dy, dx).ravel() - row) ** 2).sum()
                for dy, dx in digits.SHIFTS
            )
            assert got[q, t] == pytest.approx(by_hand)


def test_the_shift_distance_of_chosen_rows_is_the_readable_one():
    """Blurred digits' candidates are chosen by float32 products, then measured in float64 alone."""
    rng = np.random.default_rng(6)
    queries, train = (
        digits.blur(rng.integers(0, 2, (5, 256)), 1.0),
        digits.blur(rng.integers(0, 2, (40, 256)), 1.0),
    )
    norms, near = (train**2).sum(axis=1), rng.integers(0, 40, (5, 7))
    readable = np.take_along_axis(digits.shift_distances(queries, train, norms), near, axis=1)
    fast = _digits_search.shift_distances_of(digits.all_shifts(queries), train, norms, near)
    np.testing.assert_allclose(fast, readable, rtol=1e-12, atol=1e-12)


def test_blurred_queries_against_0_1_training_digits_are_measured_exactly():
    """A model fitted on 0/1 pixels keeps them as float32 only (``pixels32_``); a query with other
    values (blurred) is ranked by those and then measured exactly, not refused."""
    rng = np.random.default_rng(8)
    train, labels = rng.integers(0, 2, (40, 256)), np.arange(40) % 10
    queries = digits.blur(rng.integers(0, 2, (3, 256)), 1.0)
    model = digits.DigitClassifier(k=3, invariance="shifts").fit(train, labels)
    distances, indices = model.kneighbors(queries)
    readable = digits.shift_distances(queries, train.astype(float), (train**2).sum(axis=1))
    np.testing.assert_allclose(distances**2, np.take_along_axis(readable, indices, axis=1), rtol=1e-9)
    np.testing.assert_allclose(np.sort(distances**2, axis=1), np.sort(readable, axis=1)[:, :3], rtol=1e-9)


def test_two_sided_tangent_distance_is_the_least_squares_residual():
    """The Gram-matrix formula against the textbook: solve min |d + [Tx, −Tt] (a, b)| directly."""
    rng = np.random.default_rng(2)
    smooth = digits.blur(rng.integers(0, 2, (4, 256)), 1.0)
    planes = digits.tangent_vectors(smooth)
    got = digits.two_sided_tangent_distances(smooth[0], planes[0], smooth[1:], planes[1:])
    for j in range(1, 4):
        d = smooth[0] - smooth[j]
        A = np.hstack([planes[0], -planes[j]]).astype(np.float64)
        coef = np.linalg.lstsq(A, -d, rcond=None)[0]
        assert got[j - 1] == pytest.approx(((d + A @ coef) ** 2).sum(), rel=1e-4, abs=1e-6)
        assert got[j - 1] <= (d**2).sum()


def test_the_fast_tangent_distance_is_the_readable_one(data_home):
    """The protocol's batched version (inner products, a 7 × 7 Schur complement) against the 14 × 14
    Gram system the page shows, on Semeion digits and their candidates."""
    X, _ = datasets.load_semeion(data_home)
    smooth = digits.blur(X[:120], 1.0)
    planes = digits.tangent_vectors(smooth)
    rows = np.ascontiguousarray(np.swapaxes(planes, 1, 2))
    near = np.random.default_rng(3).integers(20, 120, (20, 30))
    readable = digits.two_sided_tangent_distances(smooth[:20], planes[:20], smooth[near], planes[near])
    fast = _digits_search.tangent_distances(
        smooth[:20],
        planes[:20],
        smooth[near],
        np.einsum("ij,ij->i", smooth, smooth)[near],
        rows[near],
        np.einsum("nrd,nd->nr", rows, smooth)[near],
    )
    np.testing.assert_allclose(fast, readable, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("blur", [0.0, 1.0])
@pytest.mark.parametrize("metric", ["cosine", "manhattan", "hamming", "chebyshev"])
def test_the_fast_search_is_brute_force_bit_for_bit(semeion, metric, blur):
    """The digits' search by one matrix product (where one gives the metric) finds what measuring
    every pair finds: the same distances and indices, ties to the lower index."""
    X, y = semeion
    train, queries = digits.blur(X[:400], blur), digits.blur(X[1000:1080], blur)
    brute = KNNClassifier(k=50, metric=metric).fit(train, y[:400]).kneighbors(queries)
    fast = _digits_search.nearest(queries, train, 50, metric)
    np.testing.assert_array_equal(fast[0], brute[0])
    np.testing.assert_array_equal(fast[1], brute[1])


@pytest.mark.parametrize("metric", ["cosine", "manhattan", "chebyshev", "hamming"])
def test_the_fast_search_bounds_its_rounding_on_large_and_tied_values(metric):
    """Far from the origin, a float32 difference keeps few digits: the screen's error bound grows
    with the values, and exact ties (repeated rows) still go to the lower index."""
    rng = np.random.default_rng(5)
    train = 1e4 + rng.uniform(size=(300, 256))
    train[100:110] = train[0]  # ten copies of row 0
    queries = np.vstack([train[0], train[0] + 1e-3, 1e4 + rng.uniform(size=(20, 256))])
    brute = KNNClassifier(k=15, metric=metric).fit(train, np.zeros(300)).kneighbors(queries)
    fast = _digits_search.nearest(queries, train, 15, metric)
    np.testing.assert_array_equal(fast[0], brute[0])
    np.testing.assert_array_equal(fast[1], brute[1])


@pytest.mark.parametrize("blur", [0.0, 1.0])
def test_a_model_restricted_to_some_digits_is_the_model_fitted_on_them(semeion, blur):
    """The protocol prepares every digit once (copies, blur, tangent planes) and keeps each split's."""
    X, y = semeion
    params = {"k": 3, "blur": blur, "invariance": "tangent", "shear": digits.SHEAR}
    everything = digits.DigitClassifier(**params)._fit_once(X[:300], y[:300])
    rows = np.random.default_rng(4).permutation(300)[:120]
    fitted, restricted = digits.DigitClassifier(**params).fit(X[rows], y[rows]), everything._restricted(rows)
    names = (
        "features_",
        "norms_",
        "pixels32_",
        "features32_",
        "tangents_",
        "plane_dots_",
        "y_",
        "origin_",
        "classes_",
    )
    for name in names:
        np.testing.assert_array_equal(getattr(restricted, name), getattr(fitted, name), err_msg=name)
    for got, expected in zip(restricted.kneighbors(X[300:340]), fitted.kneighbors(X[300:340]), strict=True):
        np.testing.assert_array_equal(got, expected)


def test_tangent_planes_are_orthonormal():
    planes = digits.tangent_vectors(digits.blur(np.eye(16), 1.0))
    np.testing.assert_allclose(planes[0].T @ planes[0], np.eye(7), atol=1e-5)


def test_tangent_distance_forgives_a_small_translation():
    image = np.zeros((16, 16))
    image[3:13, 6:9] = 1
    x, t = digits.blur(image, 1.0), digits.blur(np.roll(image, 1, axis=1), 1.0)
    planes = digits.tangent_vectors(np.vstack([x, t]))
    tangent = digits.two_sided_tangent_distances(x[0], planes[0], t, planes[1:2])[0]
    assert tangent < 0.1 * ((x - t) ** 2).sum()


def test_a_dot_a_black_canvas_and_a_small_drawing_are_not_read_as_digits():
    dot = blank()
    dot[100:104, 50:54, 3] = 255
    assert digits.read_drawing(dot).status == "dot" and "draw a digit" in digits.read_drawing(dot).message
    black = np.zeros((280, 280, 4), dtype=np.uint8)
    black[..., 3] = 255  # opaque black: ink everywhere
    assert digits.read_drawing(black).status == "filled"
    assert "draw a digit" in digits.read_drawing(black).message
    small = blank()
    small[100:150, 100:108, 3] = 255  # a "1" 50 px tall on 280
    small[100:108, 100:130, 3] = 255
    reading = digits.read_drawing(small)
    assert reading.status == "small" and "Draw bigger" in reading.message and not reading.ok
    assert digits.read_drawing(blank()).status == "empty"


def test_a_drawing_of_normal_size_is_ok():
    images, _ = drawings(per_digit=3, seed=3)
    assert all(digits.read_drawing(image).ok for image in images)


def test_the_estimator_contract():
    model = digits.DigitClassifier(k=3, blur=1.0)
    assert model.get_params()["k"] == 3 and "blur=1.0" in repr(model)
    with pytest.raises(NotFittedError):
        model.predict(np.zeros((1, 256)))
    with pytest.raises(TypeError):
        digits.DigitClassifier(3)  # keyword-only, as scikit-learn's
    for bad in ({"invariance": "rotations"}, {"invariance": "tangent", "metric": "cosine"}, {"blur": -1}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            digits.DigitClassifier(**bad).fit(np.zeros((2, 256)), [0, 1])


@pytest.fixture(scope="module")
def semeion(data_home):
    return datasets.load_semeion(data_home)


def test_plain_model_agrees_with_scikit_learn(semeion):
    from sklearn.neighbors import KNeighborsClassifier

    X, y = semeion
    features = digits.blur(X, 1.0)
    ours = digits.DigitClassifier(k=5, blur=1.0, weights="distance").fit(X[:800], y[:800])
    theirs = KNeighborsClassifier(n_neighbors=5, weights="distance", algorithm="brute").fit(
        features[:800], y[:800]
    )
    assert np.mean(ours.predict(X[800:]) == theirs.predict(features[800:])) >= 0.995


def test_vote_returns_the_neighbours_nearest_first(semeion):
    X, y = semeion
    model = digits.default_model(X, y)
    labels, share, distances, indices = model.vote(X[:5], 3)
    assert share.shape == (5, 10) and np.allclose(share.sum(axis=1), 1.0)
    assert np.all(np.diff(distances, axis=1) >= 0) and indices.shape == (5, 3)
    assert model.vote(X[:5])[3].shape == (5, digits.DEFAULT["k"])
    np.testing.assert_array_equal(labels, y[:5])  # a training digit is its own nearest neighbour


def test_the_posts_protocol_plain_is_the_posts_89_percent(semeion):
    """Shuffle, 800 train, 793 test, k = 1, Euclidean: the post reports 89%."""
    X, y = semeion
    plain = digits.protocol_curve(X, y, [1], seeds=range(5))
    assert plain.shape == (5, 1)
    assert 0.885 <= plain.mean() <= 0.905


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_protocol_votes_from_shared_neighbours_are_each_fitted_models_predictions(semeion, weights):
    """The page searches once per blur and invariance and re-votes for the weights: the same digits
    as a classifier fitted with those weights on each split."""
    X, y = semeion
    test, distances, indices = digits.protocol_neighbours(X, y, 5, range(2), blur=1.0)
    predicted = digits.protocol_votes(y, distances, indices, [1, 3, 5], weights)
    for seed, (train, split_test) in enumerate(digits.protocol_splits(len(y), range(2))):
        assert np.array_equal(test[seed], split_test)
        for i, k in enumerate([1, 3, 5]):
            model = digits.DigitClassifier(k=k, blur=1.0, weights=weights).fit(X[train], y[train])
            assert np.array_equal(predicted[seed, i], model.predict(X[split_test]))


@pytest.mark.slow  # the whole ladder on Semeion: CI runs it, the quick loop does not
def test_the_ladder_climbs_to_96_percent(semeion):
    X, y = semeion
    rungs = digits.ladder(X, y, seeds=range(5))
    assert [name for name, _ in rungs] == [
        "plain",
        "blur",
        "distance weights",
        "small shifts",
        "tangent distance",
        "sheared copies",
    ]
    scores = [score for _, score in rungs]
    assert all(b >= a for a, b in zip(scores, scores[1:], strict=False))
    assert rungs[0][1] == pytest.approx(0.8963, abs=0.002) and rungs[-1][1] >= 0.96


@pytest.mark.slow  # the whole ladder on Semeion: CI runs it, the quick loop does not
def test_the_top_rung_beats_an_svm_on_the_same_splits(semeion):
    from sklearn.svm import SVC

    X, y = semeion
    features = digits.blur(X, 1.0)
    splits = digits.protocol_splits(len(y), range(5))
    svc = np.mean([SVC(C=3).fit(features[a], y[a]).score(features[b], y[b]) for a, b in splits])
    assert svc == pytest.approx(digits.SVC_REFERENCE, abs=0.0005)  # the figure the page quotes
    top = digits.protocol_curve(X, y, [digits.DEFAULT["k"]], **digits.DEFAULT).mean()
    assert top > svc


def test_a_shear_leans_the_digit_and_reads_it_again_like_a_drawing():
    bar = np.zeros((16, 16), dtype=np.uint8)
    bar[:, 7:9] = 1
    leaning = digits.sheared(bar, 0.3).reshape(16, 16)
    columns = [np.flatnonzero(row).mean() for row in leaning]
    assert (
        columns[0] < 4 and columns[-1] > 11
    )  # the top to the left, the foot to the right: cropped, stretched
    assert np.all(np.diff(columns) >= -0.01)
    ring = np.ones((16, 16), dtype=np.uint8)
    ring[3:-3, 3:-3] = 0  # a digit filling its box, as Semeion's do: no shear, the same grid
    assert np.array_equal(digits.sheared(ring, 0.0), ring.reshape(1, -1))


def test_sheared_copies_triple_the_training_digits_and_neighbours_name_the_original(semeion):
    X, y = semeion
    model = digits.DigitClassifier(k=5, shear=0.3).fit(X[:300], y[:300])
    assert len(model.features_) == 900 and np.array_equal(model.y_, np.tile(y[:300], 3))
    _, indices = model.kneighbors(X[:20])
    assert indices.max() < 300 and np.array_equal(indices[:, 0], np.arange(20))
    with pytest.raises(ValueError, match="shear"):
        digits.DigitClassifier(shear=2.0).fit(X[:10], y[:10])
    with pytest.raises(ValueError, match="16×16"):
        digits.DigitClassifier(shear=0.3).fit(np.ones((4, 64)), [0, 1, 0, 1])


@pytest.mark.slow  # the whole ladder on Semeion: CI runs it, the quick loop does not
def test_the_default_model_reads_every_drawn_digit(semeion):
    """Eighty replayed pen drawings per digit, as the canvas renders them: each digit ≥ 85%."""
    X, y = semeion
    images, labels = drawings(per_digit=80, seed=0)
    readings = [digits.read_drawing(image) for image in images]
    assert all(reading.ok for reading in readings)
    predicted = digits.default_model(X, y).predict(np.array([r.grid.ravel() for r in readings]))
    recognised = [np.mean(predicted[labels == digit] == digit) for digit in range(10)]
    assert min(recognised) >= 0.85, recognised


def test_a_grid_travels_as_64_hex_digits_row_by_row(semeion):
    X, _ = semeion
    grid = np.zeros((16, 16), dtype=np.uint8)
    grid[0, 0] = grid[0, 7] = grid[15, 15] = 1  # top-left cell: the first digit's highest bit
    assert digits.grid_to_hex(grid) == "81" + "0" * 61 + "1"
    for row in X:
        text = digits.grid_to_hex(row)
        assert len(text) == 64 and text == text.lower()
        np.testing.assert_array_equal(digits.grid_from_hex(text), row.reshape(16, 16))
        np.testing.assert_array_equal(digits.grid_from_hex(text.upper()), row.reshape(16, 16))


@pytest.mark.parametrize(
    "text, why",
    [
        ("abc", "not 3 characters"),
        ("0" * 100_000, "not 100,000 characters"),
        ("g" * 64, "0–9 and the letters a–f"),
        (" " + "1" * 63, "0–9 and the letters a–f"),
        ("1" * 63 + "\n", "0–9 and the letters a–f"),
        ("<b>hi</b>" + "0" * 55, "0–9 and the letters a–f"),
        ("0" * 64, "no ink"),
        ("f" * 64, "mostly solid ink"),
    ],
)
def test_a_link_grid_that_is_not_a_drawing_is_refused_with_the_reason(text, why):
    with pytest.raises(ValueError, match=why):
        digits.grid_from_hex(text)


@pytest.mark.parametrize("size", [280, 240])
def test_the_grid_drawn_on_the_canvas_reads_back_as_the_same_grid(semeion, size):
    """The link's grid drawn as ink squares (the canvas's initial drawing) is read back unchanged."""
    X, _ = semeion
    full = [row.reshape(16, 16) for row in X[:200] if row.reshape(16, 16).any(0).all()]
    assert len(full) > 150  # Semeion's digits are stretched to fill the box
    for grid in full:
        drawing = view.grid_drawing(grid, size)
        assert len(drawing["objects"]) <= grid.sum()  # a rectangle per run of inked cells in a row
        np.testing.assert_array_equal(digits.canvas_to_grid(render_squares(drawing, size)), grid)


@pytest.mark.slow  # the whole ladder on Semeion: CI runs it, the quick loop does not
def test_the_ladders_rungs_and_their_gains(semeion):
    """The rungs as measured (mean of the five 800/793 splits); distance weights add nothing real."""
    X, y = semeion
    scores = dict(digits.ladder(X, y, seeds=range(5)))
    measured = {"plain": 0.8963, "blur": 0.9400, "distance weights": 0.9405, "small shifts": 0.9544}
    for name, accuracy in {**measured, "tangent distance": 0.9617, "sheared copies": 0.9723}.items():
        assert scores[name] == pytest.approx(accuracy, abs=0.0001), name
    gains = np.diff(list(scores.values()))
    assert [abs(g) < digits.NO_GAIN for g in gains] == [False, True, False, False, False]


def test_the_gain_words_say_when_a_rung_adds_nothing():
    rungs = [("a", 0.9), ("b", 0.9004), ("c", 0.92), ("d", 0.91)]
    assert view.rung_gains(rungs) == [
        "the post's k-NN",
        "+0.04 points: no real gain",
        "+2.0 points",
        "-1.0 points",
    ]
    notes = lesson.rung_notes(rungs, {"a": "A.", "b": "B.", "c": "C.", "d": "D."}).splitlines()
    assert notes[1] == "- **b** (+0.04 points: no real gain): B."
    label = [row["label"] for row in view.ladder_chart(rungs)["data"]["values"]]
    assert label[1] == "90.0% (+0.04 points: no real gain)" and label[2] == "92.0% (+2.0 points)"


def test_the_ladders_notes_without_gains_name_each_rung_and_what_it_adds():
    rungs = [("a", 0.9), ("b", 0.93)]
    notes = lesson.rung_notes(rungs, {"a": "A.", "b": "B."}, gains=False).splitlines()
    assert notes == ["- **a**: A.", "- **b**: B."]


def test_a_grid_is_described_by_its_inked_cells_columns_and_rows():
    image = blank()
    image[20:260, 130:150, 3] = 255  # one straight vertical stroke: a bar 4 cells wide
    assert view.grid_description(digits.canvas_to_grid(image)) == (
        "64 of 256 cells inked, in 4 of 16 columns and 16 of 16 rows"
    )
    assert view.grid_description(np.eye(16)) == "16 of 256 cells inked, in 16 of 16 columns and 16 of 16 rows"
    assert view.grid_description(np.eye(16)) in view.seen_grid(np.eye(16))["alt"]


def hand_checkable_protocol() -> tuple[np.ndarray, np.ndarray]:
    """Accuracies (5 shuffles × k = 1 … 50): plain k-NN 88–92% at k = 1 falling to 80% at k = 50,
    blurred 93% at k = 1."""
    plain = np.tile(np.linspace(0.9, 0.8, 50), (5, 1))
    plain[:, 0] = [0.88, 0.89, 0.90, 0.91, 0.92]
    return plain, np.full((5, 50), 0.93)


def test_each_step_hides_what_gives_its_answer_away_and_tells_it_in_the_pages_words():
    """A step's tells are the page's own texts for its answer (the tile's accuracy and spread,
    the count of misread digits, the ladder's gain, the grid's description, the page's note),
    computed from the protocol and the library; none is in the question or its options."""
    plain, blurred = hand_checkable_protocol()
    steps = lesson.try_this_steps(plain, blurred, tested=793)
    bar = blank()
    bar[20:260, 130:150, 3] = 255
    assert [step["tells"] for step in steps] == [
        ("90.0%", "range 88.0% – 92.0%", "95 of 793"),  # (1 − 0.88) × 793 = 95.2 misread
        ("80.0%", "range 80.0% – 80.0%", "159 of 793"),
        ("93.0%", "range 93.0% – 93.0%", "56 of 793", "+3.0 points"),
        (view.grid_description(digits.canvas_to_grid(bar)),),
        ("Draw bigger",),
    ]
    evaluation = ("your_tile", "curves", "confusion")
    assert [step["hides"] for step in steps] == [
        ("plain_tile", *evaluation, "ladder"),
        evaluation,
        (*evaluation, "ladder"),
        ("seen_grid",),
        ("reading",),
    ]
    for step in steps:
        asked = " ".join([step["question"], *step["options"]])
        assert not [tell for tell in step["tells"] if tell in asked], step["title"]
        assert all(tell in step["why"] for tell in step["tells"][:1]), step["title"]  # said once revealed
    assert "of the 793 test digits" in steps[0]["question"]


def test_each_accuracy_line_has_its_own_colour_and_point_shape():
    names = [name for name, _ in digits.RUNGS] + ["your settings"]
    curves = {name: np.full((5, 50), 0.9 + 0.01 * i) for i, name in enumerate(names)}
    layers = view.accuracy_chart(range(1, 51), curves, 3)["layer"]
    encoded = [layer["encoding"] for layer in layers if "shape" in layer.get("encoding", {})]
    assert len(encoded) == 1 and encoded[0]["color"]["field"] == encoded[0]["shape"]["field"] == "setting"
    shapes, colours = encoded[0]["shape"]["scale"], encoded[0]["color"]["scale"]
    assert shapes["domain"] == colours["domain"] == names
    assert len(set(shapes["range"])) == len(set(colours["range"])) == len(names)
    vega_symbols = {"circle", "square", "cross", "diamond", "triangle", "triangle-up", "triangle-down"}
    assert set(shapes["range"]) <= (vega_symbols & {*theme.PLAYER_MARKERS, "cross"}) | {view.X_SYMBOL}


def test_the_accuracy_charts_frame_without_its_lines_tells_nothing_of_them():
    """While a question asks what the lines show: the settings, the rule at k, axes from 0 to 100%."""
    curves = {"plain": np.full((5, 50), 0.9), "your settings": np.full((5, 50), 0.8)}
    full, frame = (view.accuracy_chart(range(1, 51), curves, 3, lines=lines) for lines in (True, False))
    assert len(full["data"]["values"]) == 100 and frame["data"]["values"] == []
    y = [layer["encoding"]["y"]["scale"]["domain"] for layer in (full["layer"][0], frame["layer"][0])]
    assert y == [[0.8, 1.0], [0.0, 1.0]]
    assert frame["layer"][0]["encoding"]["color"]["scale"]["domain"] == list(curves)
    assert frame["layer"][2] == full["layer"][2]  # the rule at k = 3


def test_the_ladders_bars_start_at_zero_and_their_labels_stay_inside():
    """A bar's length is its accuracy: the axis starts at 0 (it started at 80%, tripling the gains)."""
    rungs = [("plain", 0.8963), ("blur", 0.94), ("tangent distance", 0.9617)]
    spec = view.ladder_chart(rungs)
    x = spec["encoding"]["x"]
    assert x["scale"]["domain"][0] == 0 and min(x["axis"]["values"]) == 0
    assert x["scale"]["domain"][1] == 1.0  # 100% is the end: the labels sit inside the bars
    bars, labels = spec["layer"]
    assert "clip" not in bars["mark"] and labels["mark"]["align"] == "right" and labels["mark"]["dx"] < 0
    for shade in bars["encoding"]["color"]["scale"]["range"]:  # dark text on each light bar
        assert contrast(theme.TEXT, shade) >= 4.5


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours."""

    def luminance(color: str) -> float:
        c = np.array(theme.rgb(color))
        c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return float(c @ [0.2126, 0.7152, 0.0722])

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.fixture(scope="module")
def default_model(semeion):
    return digits.default_model(*semeion)


# Styles the page's default model reads right less than 90% of the time (16 variations each,
# measured): Semeion's writers slanted their 1s with a long flag reaching half-way down and wrote
# 7s with a bar over a near-vertical stem, so an upright 1 with a short flag, stretched to fill the
# 16×16 box, has a 7's flat bar. Neither the box (aspect kept or widened), the threshold, the
# stroke thickness (thinned and redrawn), k, an upright copy of Semeion, rotated, thickened or
# narrowed copies fixed these without breaking others (issue 26): they stay marked until one does.
# The sheared copies at k = 1 (the default) fixed the open 4 (81% → 94%), the plain 7 (88% → 100%)
# and the 1 with a flag (88% → 94%); the 1 with a short flag rose from 31% to 56%, not enough.
# Tried since (issue 26), none kept: the tangent distance without its thickening direction, so that
# a narrow drawing's thick stem (stretched 3×) counts: short flag 62%, but the open 4 falls to 75%.
# The aspect ratio cannot be learned from the data at hand: Semeion's 7s have thicker stems than
# its 1s (median horizontal run in the lower half 3.9 against 3.2 cells; the drawn short-flag 1s:
# 4.1), so stroke thickness holds no trace of the width it lost, and scikit-learn's 8×8 digits
# (optdigits) are size-normalised too (median width/height 0.62 for its 1s and for its 7s).
STILL_MISREAD = {
    "1 with a short flag": "56%: read as 7 (6 of 16) or 9 (1)",
}


@pytest.mark.parametrize(
    "style",
    [
        pytest.param(name, marks=pytest.mark.xfail(reason=STILL_MISREAD[name], strict=True))
        if name in STILL_MISREAD
        else name
        for name in STYLES
    ],
)
def test_each_common_style_is_read_right_in_nine_of_ten_drawings(default_model, style):
    """Each style (tests/strokes.py), drawn 16 ways (position, size, width, slant, pen): ≥ 90% read right."""
    digit = STYLES[style][0]
    readings = [digits.read_drawing(image) for image in styled(style, 16)]
    assert all(reading.ok for reading in readings)
    predicted = default_model.predict(np.array([r.grid.ravel() for r in readings]))
    assert np.mean(predicted == digit) >= 0.9, np.bincount(predicted, minlength=10)
