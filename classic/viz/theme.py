"""The one palette of the lab: every colour a figure, a DOT drawing or a browser player uses.

Class colours are Okabe & Ito's (2008) qualitative palette, which stays distinguishable under
deuteranopia and protanopia; each class also has its own marker shape, so colour is never
the only cue. ``light`` mixes a colour with white for region backgrounds and leaf fills, so
points and labels stay readable on them. This module is pure Python (no matplotlib), so the
players' JSON can carry the theme without the drawing libraries installed.
"""

from __future__ import annotations

# Okabe & Ito, black left out (kept for ink, lines and text).
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"]
# matplotlib marker names, one per class, and the same shapes for the browser players.
MARKERS = ["o", "s", "^", "D", "v", "P", "X"]
PLAYER_MARKERS = ["circle", "square", "triangle", "diamond", "triangle-down", "plus", "cross"]

INK = "#000000"  # lines, the perceptron's w, digits
TEXT = "#31333F"  # Streamlit's text colour
MUTED = "#5E6068"  # captions and disabled labels: 6:1 on white, where Streamlit's faded grey is 3.9:1
ACCENT = "#D55E00"  # what just changed: the misclassified point, the path of a record, the update
FOCUS = "#0072B2"  # the node or point under discussion
TIE = "#7F7F7F"  # a tied vote
SPLIT = "#333333"  # k-d tree splitting lines
GRID = "#CCCCCC"  # pixel lattice, faint rules
PAPER = "#FFFFFF"  # canvases, button faces, the exported PNG's background
BORDER = "#D0D3DA"  # the players' button outlines (Streamlit's own)
# The players' Play button, hover and focus: Streamlit's red darkened until white text on it
# reaches 5:1 (Streamlit's own #FF4B4B gives 3.3:1, under WCAG's 4.5:1).
CONTROL = "#D12F2F"
CONTROL_HOVER = "#B02626"
# The chosen option of a segmented control, on Streamlit's pink: 5.8:1 (Streamlit's red, 4.2:1).
SELECTED = CONTROL_HOVER
# The perceptron's verdict boxes, (background, text): converged, never converges, stopped early.
VERDICT = {"good": ("#DFF3E4", "#176639"), "bad": ("#FDE2E1", "#8A1C1C"), "stop": ("#FFF4D6", "#6B4E00")}


def class_color(c: int) -> str:
    """The colour of class index ``c`` (the palette cycles past seven classes)."""
    return PALETTE[c % len(PALETTE)]


def class_colors(n_classes: int) -> list[str]:
    """The first ``n_classes`` class colours."""
    return [class_color(c) for c in range(n_classes)]


def rgb(color: str) -> tuple[float, float, float]:
    """A ``#RRGGBB`` colour as three floats in [0, 1]."""
    color = color.lstrip("#")
    return tuple(int(color[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def hex_color(values: tuple[float, float, float]) -> str:
    """Three floats in [0, 1] as ``#RRGGBB``."""
    return "#" + "".join(f"{round(min(max(v, 0.0), 1.0) * 255):02X}" for v in values)


def light(color: str, amount: float = 0.55) -> str:
    """``color`` mixed with white (``amount`` = the share of white), as ``#RRGGBB``."""
    return hex_color(tuple(v + (1.0 - v) * amount for v in rgb(color)))


# Shades of the colours above, so that a change of a colour carries through.
EMPTY = light(TIE, 0.85)  # no class yet: w = 0, all scores equal, a k-NN cell not voted
HIGHLIGHT = light(PALETTE[1], 0.7)  # the chosen row of a table


def player_theme(n_classes: int = 2) -> dict:
    """The colours a browser player needs, as JSON: classes, their light shades, accents."""
    return {
        "classes": class_colors(n_classes),
        "shades": [light(c, 0.6) for c in class_colors(n_classes)],
        "markers": [PLAYER_MARKERS[c % len(PLAYER_MARKERS)] for c in range(n_classes)],
        "ink": INK,
        "text": TEXT,
        "accent": ACCENT,
        "focus": FOCUS,
        "tie": light(TIE, 0.35),
        "empty": EMPTY,
        "split": SPLIT,
        "muted": MUTED,
        "paper": PAPER,
        "border": BORDER,
        "control": CONTROL,
        "controlHover": CONTROL_HOVER,
        "verdict": {kind: {"background": bg, "text": fg} for kind, (bg, fg) in VERDICT.items()},
    }
