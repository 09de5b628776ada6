"""Drawings made the way a person makes them, for testing the digits pipeline.

Each digit is a pen path (polylines in a unit box, y downwards). ``draw`` replays it onto a
canvas-sized transparent RGBA image as the drawing canvas renders ink: round caps and joins,
anti-aliased edges, ink in the alpha channel (``background_color=""``), with random jitter in
position, size, aspect, slant, stroke width and every vertex.
"""

import numpy as np
from PIL import Image, ImageDraw

PATHS = {
    0: [[(0.5 + 0.36 * np.sin(t), 0.5 - 0.45 * np.cos(t)) for t in np.linspace(0, 2 * np.pi, 25)]],
    1: [[(0.44, 0.14), (0.58, 0.04), (0.48, 0.96)]],
    2: [
        [
            (0.18, 0.3),
            (0.3, 0.1),
            (0.5, 0.04),
            (0.72, 0.12),
            (0.8, 0.3),
            (0.6, 0.58),
            (0.2, 0.95),
            (0.85, 0.95),
        ]
    ],
    3: [
        [
            (0.2, 0.12),
            (0.5, 0.04),
            (0.75, 0.15),
            (0.72, 0.35),
            (0.45, 0.47),
            (0.78, 0.6),
            (0.8, 0.82),
            (0.5, 0.96),
            (0.18, 0.88),
        ]
    ],
    4: [[(0.6, 0.04), (0.15, 0.66), (0.88, 0.66)], [(0.66, 0.3), (0.66, 0.97)]],
    5: [
        [
            (0.8, 0.05),
            (0.28, 0.05),
            (0.22, 0.45),
            (0.55, 0.38),
            (0.8, 0.55),
            (0.78, 0.82),
            (0.5, 0.96),
            (0.18, 0.88),
        ]
    ],
    6: [
        [
            (0.72, 0.06),
            (0.42, 0.25),
            (0.24, 0.55),
            (0.26, 0.85),
            (0.5, 0.97),
            (0.75, 0.85),
            (0.76, 0.62),
            (0.5, 0.5),
            (0.26, 0.62),
        ]
    ],
    7: [[(0.15, 0.06), (0.85, 0.06), (0.62, 0.45), (0.42, 0.96)]],
    8: [
        [
            (0.5, 0.48),
            (0.27, 0.3),
            (0.5, 0.04),
            (0.73, 0.3),
            (0.5, 0.48),
            (0.22, 0.72),
            (0.5, 0.96),
            (0.78, 0.72),
            (0.5, 0.48),
        ]
    ],
    9: [
        [
            (0.78, 0.3),
            (0.55, 0.05),
            (0.27, 0.18),
            (0.3, 0.42),
            (0.58, 0.45),
            (0.78, 0.3),
            (0.76, 0.6),
            (0.7, 0.96),
        ]
    ],
}


def _render(lines, stroke: float, size: int, scale: int = 2) -> np.ndarray:
    """Polylines (canvas pixels) inked with a round pen ``stroke`` pixels wide, as the canvas
    renders them: drawn at ``scale`` times the size and averaged down (anti-aliased edges)."""
    image = Image.new("L", (size * scale, size * scale), 0)
    pen = ImageDraw.Draw(image)
    width = stroke * scale
    for line in lines:
        xy = [(float(a) * scale, float(b) * scale) for a, b in line]
        pen.line(xy, fill=255, width=int(width), joint="curve")
        for a, b in (xy[0], xy[-1]):  # round caps
            pen.ellipse([a - width / 2, b - width / 2, a + width / 2, b + width / 2], fill=255)
    rgba = np.zeros((size, size, 4), dtype=np.uint8)
    rgba[..., 3] = np.asarray(image.resize((size, size), Image.Resampling.BOX))
    return rgba


def draw(digit: int, rng: np.random.Generator, size: int = 280) -> np.ndarray:
    """One jittered drawing of ``digit`` as an (size, size, 4) uint8 RGBA array."""
    height = rng.uniform(0.55, 0.8) * size
    width = height * rng.uniform(0.55, 0.85)
    slant = rng.uniform(-0.25, 0.25)
    left = rng.uniform(0.05 * size, size - width - 0.05 * size)
    top = rng.uniform(0.05 * size, size - height - 0.05 * size)
    stroke = rng.uniform(12, 22)
    lines = []
    for path in PATHS[digit]:
        points = np.array(path) + rng.normal(0, 0.025, size=(len(path), 2))
        x = left + (points[:, 0] + slant * (1 - points[:, 1])) * width
        lines.append(list(zip(x, top + points[:, 1] * height, strict=True)))
    return _render(lines, stroke, size)


def replay(
    digit: int, box: tuple[float, float, float, float], pen: float = 18, size: int = 280
) -> np.ndarray:
    """``digit``'s pen path, unjittered, in ``box`` (left, top, width, height in canvas pixels)
    with the page's pen width: what the browser tests draw with the mouse."""
    left, top, width, height = box
    return _render(
        [[(left + x * width, top + y * height) for x, y in path] for path in PATHS[digit]], pen, size
    )


def drawings(per_digit: int = 10, seed: int = 0, size: int = 280) -> tuple[list[np.ndarray], np.ndarray]:
    """``per_digit`` drawings of each digit 0..9 and their labels."""
    rng = np.random.default_rng(seed)
    images = [draw(d, rng, size) for d in range(10) for _ in range(per_digit)]
    return images, np.repeat(np.arange(10), per_digit)


def render_squares(drawing: dict, size: int = 280, scale: int = 4) -> np.ndarray:
    """The canvas image of an ``initial_drawing`` made of axis-aligned rectangles (fabric.js
    "Rect" objects, origin top left), ink in the alpha channel, edges anti-aliased."""
    image = Image.new("L", (size * scale, size * scale), 0)
    pen = ImageDraw.Draw(image)
    for shape in drawing["objects"]:
        assert shape["type"] == "Rect" and (shape["originX"], shape["originY"]) == ("left", "top")
        left, top = round(shape["left"] * scale), round(shape["top"] * scale)
        right, bottom = left + round(shape["width"] * scale), top + round(shape["height"] * scale)
        pen.rectangle([left, top, right - 1, bottom - 1], fill=255)
    rgba = np.zeros((size, size, 4), dtype=np.uint8)
    rgba[..., 3] = np.asarray(image.resize((size, size), Image.Resampling.BOX))
    return rgba


# Digits in the styles people write them, beyond the one path a digit above: each style a
# (digit, pen path) in the unit box, y downwards.
STYLES = {
    "0": (0, PATHS[0]),
    "1 bare": (1, [[(0.5, 0.04), (0.5, 0.96)]]),
    "1 with a flag": (1, [[(0.2, 0.3), (0.62, 0.04), (0.62, 0.96)]]),
    "1 with a flag and a foot": (
        1,
        [[(0.25, 0.28), (0.56, 0.04), (0.56, 0.96)], [(0.22, 0.96), (0.9, 0.96)]],
    ),
    "2": (2, PATHS[2]),
    "2 with a loop": (
        2,
        [
            [
                (0.18, 0.3),
                (0.3, 0.1),
                (0.5, 0.04),
                (0.72, 0.12),
                (0.8, 0.3),
                (0.62, 0.52),
                (0.3, 0.78),
                (0.12, 0.92),
                (0.24, 0.99),
                (0.46, 0.92),
                (0.48, 0.76),
                (0.32, 0.72),
                (0.26, 0.86),
                (0.55, 0.96),
                (0.88, 0.93),
            ]
        ],
    ),
    "3": (3, PATHS[3]),
    "4 closed": (4, [[(0.66, 0.04), (0.14, 0.66), (0.88, 0.66)], [(0.66, 0.04), (0.66, 0.97)]]),
    "4 open": (4, [[(0.28, 0.04), (0.16, 0.6), (0.88, 0.6)], [(0.7, 0.04), (0.7, 0.97)]]),
    "5": (5, PATHS[5]),
    "6": (6, PATHS[6]),
    "7": (7, PATHS[7]),
    "7 with a bar": (7, [[(0.15, 0.06), (0.85, 0.06), (0.45, 0.96)], [(0.38, 0.5), (0.82, 0.5)]]),
    "8": (8, PATHS[8]),
    "9": (9, PATHS[9]),
    "9 with a straight stem": (
        9,
        [
            [
                (0.78, 0.3),
                (0.7, 0.08),
                (0.5, 0.03),
                (0.28, 0.12),
                (0.22, 0.3),
                (0.38, 0.47),
                (0.62, 0.45),
                (0.78, 0.3),
                (0.78, 0.97),
            ]
        ],
    ),
    # Last, so that the styles above keep their variations: the flag of a printed 1, short and
    # about 40° (the one a user saw read as 7 about half the time).
    "1 with a short flag": (1, [[(0.3, 0.2), (0.62, 0.04), (0.62, 0.96)]]),
}


def styled(style: str, n: int = 12, size: int = 280) -> list[np.ndarray]:
    """``n`` drawings of ``style`` (a key of ``STYLES``), each its own position, size, width,
    slant and stroke width (10 to 28 pixels on a 280-pixel canvas), vertices barely jittered.
    Deterministic: the same style gives the same drawings."""
    rng = np.random.default_rng(list(STYLES).index(style))
    images = []
    for _ in range(n):
        height = rng.uniform(0.45, 0.85) * size
        width = height * rng.uniform(0.5, 0.85)
        slant = rng.uniform(-0.15, 0.25)
        stroke = rng.uniform(10, 28) * size / 280
        room = size - width - abs(slant) * width - 0.04 * size
        left = rng.uniform(0.02 * size, room) + max(-slant, 0) * width
        top = rng.uniform(0.02 * size, size - height - 0.02 * size)
        lines = []
        for path in STYLES[style][1]:
            points = np.array(path) + rng.normal(0, 0.012, size=(len(path), 2))
            x = left + (points[:, 0] + slant * (1 - points[:, 1])) * width
            lines.append(list(zip(x, top + points[:, 1] * height, strict=True)))
        images.append(_render(lines, stroke, size))
    return images
