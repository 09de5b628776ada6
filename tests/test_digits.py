"""Tests for classic.digits: canvas → Semeion grid, and recognition of person-like drawings."""

import numpy as np
import pytest
from strokes import drawings

from classic import datasets, digits
from classic.knn import KNNClassifier


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
    assert digits.classify(digits.fit_classifier(X, y, k=3, smooth=True), grid, smooth=True)[0] == 1


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


def test_blur_spreads_a_pixel_with_weights_summing_to_one():
    grid = np.zeros((16, 16))
    grid[8, 8] = 1
    smooth = digits.blur(grid).reshape(16, 16)
    assert smooth.sum() == pytest.approx(1.0)
    assert smooth[8, 8] == pytest.approx(0.25) and smooth[7, 7] == pytest.approx(1 / 16)


@pytest.fixture(scope="module")
def semeion(data_home):
    return datasets.load_semeion(data_home)


def test_classify_agrees_with_the_classifier(semeion):
    X, y = semeion
    model = digits.fit_classifier(X, y, k=5, weights="distance", smooth=True)
    for grid in X[:20]:
        digit, share, distances, indices = digits.classify(model, grid, smooth=True)
        assert digit == model.predict(digits.features(grid, True))[0]
        assert share.sum() == pytest.approx(1.0) and len(indices) == 5
        assert np.all(np.diff(distances) >= 0)
    assert isinstance(model, KNNClassifier)


def test_the_posts_protocol(semeion):
    """Shuffle, 800 train, 793 test: k = 1 Euclidean about 89% (the post); blur does better."""
    X, y = semeion
    plain = digits.protocol_accuracy(X, y, [1], seeds=range(5))
    smooth = digits.protocol_accuracy(X, y, [1], seeds=range(5), smooth=True)
    assert plain.shape == (5, 1)
    assert plain.mean() >= 0.885
    assert smooth.mean() >= 0.92 and smooth.mean() > plain.mean()


@pytest.mark.parametrize("smooth", [False, True])
def test_person_like_drawings_are_recognised(semeion, smooth):
    """Ten replayed pen drawings per digit, as the canvas renders them: at least 90% right."""
    X, y = semeion
    images, labels = drawings(per_digit=10, seed=0)
    grids = np.array([digits.canvas_to_grid(image) for image in images])
    model = digits.fit_classifier(X, y, k=1, smooth=smooth)
    accuracy = np.mean(model.predict(digits.features(grids, smooth)) == labels)
    assert accuracy >= 0.9, accuracy
