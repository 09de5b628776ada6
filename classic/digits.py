"""Handwritten digits: turn a drawing into a Semeion-style 16×16 binary grid and classify it.

UCI's Semeion digits were written by about 80 people, scanned, **stretched to fill a 16×16
box in both directions** and thresholded to black and white. A drawing must go through the
same steps to look like the training data: take the ink (the canvas's alpha channel, or the
darkness of an opaque image), crop it to its bounding box, resample that box to 16×16 by
area averaging (each axis stretched independently, so a "1" becomes as wide as the box), and
threshold. Classification is k-NN against the 1593 digits; an optional blur of both the
training digits and the drawing ([1 2 1]/4 in each direction) makes near misses count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from classic import evaluation
from classic.knn import KNNClassifier, accuracy_by_k, vote

SIZE = 16


def ink(rgba: Any) -> np.ndarray | None:
    """Ink coverage in [0, 1] per pixel of an RGBA (or grey) image, or None for no image.

    A transparent background (some alpha is 0) carries the ink in its alpha channel, as the
    drawing canvas does with ``background_color=""``; an opaque image carries it as darkness.
    """
    if rgba is None:
        return None
    image = np.asarray(rgba, dtype=np.float64)
    if image.ndim not in (2, 3) or image.size == 0:
        raise ValueError(f"expected an image of shape (height, width[, channels]), got {image.shape}")
    if image.max() > 1.0:
        image = image / 255.0
    if image.ndim == 2:
        return 1.0 - image
    alpha = image[..., 3] if image.shape[2] == 4 else np.ones(image.shape[:2])
    if alpha.min() < 1.0:
        return alpha
    return 1.0 - image[..., :3].mean(axis=2)


def _area_weights(n_in: int, n_out: int) -> np.ndarray:
    """Matrix (n_out × n_in): output cell i averages the input pixels it overlaps, by overlap."""
    edges = np.linspace(0.0, n_in, n_out + 1)
    pixels = np.arange(n_in)
    overlap = np.clip(np.minimum(edges[1:, None], pixels + 1) - np.maximum(edges[:-1, None], pixels), 0, None)
    return overlap / overlap.sum(axis=1, keepdims=True)


def stretch(coverage: np.ndarray, size: int = SIZE) -> np.ndarray:
    """Resample a 2-D array to size × size by area averaging, each axis independently."""
    return _area_weights(coverage.shape[0], size) @ coverage @ _area_weights(coverage.shape[1], size).T


def canvas_to_grid(rgba: Any, threshold: float = 0.5, min_aspect: float = 0.35) -> np.ndarray | None:
    """An RGBA canvas image (any size) → (16, 16) uint8 grid in {0, 1}, or None without ink.

    Crop to the ink's bounding box, stretch it to fill 16×16 in both directions, threshold
    the area-averaged coverage at ``threshold`` (relative to the darkest cell, so faint
    anti-aliased strokes still count).

    One departure from Semeion: a box narrower than ``min_aspect`` × its height is first
    widened (centred) to that width. The scanned "1"s were slanted, so stretching made them
    diagonal bands; a drawn "1" is often a bare vertical stroke, which stretching would turn
    into a solid black square (read as an 8).
    """
    coverage = ink(rgba)
    if coverage is None:
        return None
    inked = coverage > 0.05
    if not inked.any():
        return None
    rows, cols = np.flatnonzero(inked.any(axis=1)), np.flatnonzero(inked.any(axis=0))
    box = coverage[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
    narrow = int(np.ceil(min_aspect * box.shape[0])) - box.shape[1]
    if narrow > 0:
        box = np.pad(box, ((0, 0), (narrow // 2, narrow - narrow // 2)))
    grey = stretch(box)
    return (grey >= threshold * grey.max()).astype(np.uint8)


def blur(grids: Any) -> np.ndarray:
    """Smooth 16×16 grids (or rows of 256) with [1 2 1]/4 in each direction; returns rows of 256."""
    images = np.asarray(grids, dtype=np.float64).reshape(-1, SIZE, SIZE)
    padded = np.pad(images, ((0, 0), (1, 1), (1, 1)))
    rows = (padded[:, :-2, :] + 2 * padded[:, 1:-1, :] + padded[:, 2:, :]) / 4
    both = (rows[:, :, :-2] + 2 * rows[:, :, 1:-1] + rows[:, :, 2:]) / 4
    return both.reshape(len(images), SIZE * SIZE)


def features(grids: Any, smooth: bool = False) -> np.ndarray:
    """Rows of 256 floats for k-NN: the pixels, blurred if ``smooth``."""
    flat = np.asarray(grids, dtype=np.float64).reshape(-1, SIZE * SIZE)
    return blur(flat) if smooth else flat


def fit_classifier(
    X: Any, y: Any, k: int = 1, metric: str = "euclidean", weights: str = "uniform", smooth: bool = False
) -> KNNClassifier:
    """A k-NN classifier over Semeion-style digits (features prepared once, for fast queries)."""
    return KNNClassifier(k=k, metric=metric, weights=weights).fit(features(X, smooth), y)


def classify(
    model: KNNClassifier, grid: np.ndarray, smooth: bool = False
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """Classify one 16×16 grid: (digit, vote share per class, neighbour distances, indices)."""
    distances, indices = model.kneighbors(features(grid, smooth))
    winner, share, _ = vote(model.y_[indices], distances, len(model.classes_), model.weights, model.bandwidth)
    return model.classes_[winner[0]], share[0], distances[0], indices[0]


def protocol_accuracy(
    X: Any,
    y: Any,
    k_values: Any,
    seeds: Any = range(5),
    metric: str = "euclidean",
    weights: str = "uniform",
    smooth: bool = False,
    n_train: int = 800,
) -> np.ndarray:
    """The post's protocol: shuffle, train on 800, test on the rest; accuracy (seeds × k)."""
    data = features(X, smooth)
    rows = []
    for seed in seeds:
        X_train, X_test, y_train, y_test = evaluation.train_test_split(
            data, y, test_size=len(y) - n_train, random_state=seed
        )
        rows.append(accuracy_by_k(X_train, y_train, X_test, y_test, k_values, metric, weights=weights))
    return np.array(rows)
