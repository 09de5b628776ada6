"""A digit drawn without a mouse: a 16×16 grid of cells, operable by keyboard and by single taps.

The digits page's canvas takes no focus and needs a drag; the classifier needs only a 16×16 grid.
This component (``st.components.v2``, no frame) is one focusable ARIA grid (a roving tabindex:
one cell in the Tab order; the arrow keys move, Home / End go to a row's ends, Space or Enter
toggles the cell, a tap toggles it) inside a named group, with "Clear" and "Send to the model".
A polite live region says where the focus is and what the cell holds ("row 3, column 8: ink");
a second one says what the page made of the grid last sent (``answer``).

The grid comes back as 256 numbers, row by row; ``read`` checks it on the server like every
value a browser sends (exactly 256 values, each 0 or 1; anything else is refused with a note).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from classic import digits
from classic.viz import theme
from pages.server import guard

SIZE = digits.SIZE
LABEL = f"Draw a digit on a {SIZE}×{SIZE} grid: arrow keys move, Space toggles a cell"

_HTML = f"""
<div class="gi" role="group" aria-labelledby="gi-label">
  <p id="gi-label" class="gi-label">{LABEL}</p>
  <div class="gi-scroll">
    <div class="gi-grid" role="grid" aria-labelledby="gi-label" aria-multiselectable="true"
         aria-describedby="gi-help"></div>
  </div>
  <p id="gi-help" class="gi-help">Ink cells are black and read as selected. Tap a cell to toggle it.</p>
  <div class="gi-buttons">
    <button type="button" class="gi-clear">Clear</button>
    <button type="button" class="gi-send">Send to the model</button>
  </div>
  <p class="gi-where" role="status" aria-live="polite"></p>
  <p class="gi-answer" role="status" aria-live="polite" aria-atomic="true"></p>
</div>
"""

# Each cell is at least 24×24 CSS px (WCAG 2.5.8) whatever the column; a narrow phone scrolls the
# grid sideways inside its own box (two-dimensional content, WCAG 1.4.10's exception) rather
# than shrink the cells. The focus ring is the theme's FOCUS outside a PAPER line, so it shows
# against ink and paper alike (over 3:1 to both).
_CSS = """
.gi { position: relative; font-family: inherit; color: var(--gi-text); }
.gi-label { margin: 0 0 0.5rem; font-weight: 600; }
.gi-help { margin: 0.5rem 0; color: var(--gi-muted); font-size: 0.9rem; }
.gi-scroll { overflow-x: auto; padding: 4px; }
.gi-grid { display: inline-grid; grid-template-rows: repeat(16, auto); border: 1px solid var(--gi-muted); }
.gi-row { display: grid; grid-template-columns: repeat(16, var(--gi-cell)); }
.gi-cell { box-sizing: border-box; width: var(--gi-cell); height: var(--gi-cell); background: var(--gi-paper);
  border: 1px solid var(--gi-lattice); cursor: pointer; touch-action: manipulation; }
.gi-cell[aria-selected="true"] { background: var(--gi-ink); }
.gi-cell:focus { outline: 3px solid var(--gi-focus); outline-offset: 1px;
  box-shadow: inset 0 0 0 2px var(--gi-paper), 0 0 0 1px var(--gi-paper); position: relative; z-index: 1; }
.gi-buttons { display: flex; gap: 0.75rem; flex-wrap: wrap; }
.gi-buttons button { min-height: 44px; min-width: 44px; padding: 0 1rem; font: inherit; border-radius: 0.5rem;
  border: 1px solid var(--gi-muted); background: var(--gi-paper); color: var(--gi-text); cursor: pointer; }
.gi-buttons .gi-send { background: var(--gi-control); border-color: var(--gi-control); color: var(--gi-paper); }
.gi-buttons button:focus-visible { outline: 3px solid var(--gi-focus); outline-offset: 2px; }
.gi-where, .gi-answer { margin: 0.5rem 0 0; min-height: 1.5em; }
/* Said, not shown: the page shows the same answer large beside the grid. */
.gi-answer { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
"""

_JS = """
const GRIDS = new WeakMap();  // one grid per mounted element, kept across the page's reruns
const N = 16;

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const root = parentElement.querySelector(".gi");
  if (!data || !root) return;
  let S = GRIDS.get(parentElement);
  if (!S) {  // a new grid shows the page's answer at once: it is there, not news to announce
    S = setUp(root, data);
    GRIDS.set(parentElement, S);
    S.answer = data.answer;
    S.answerEl.textContent = data.answer;
  }
  S.send = setStateValue;
  for (const [name, value] of Object.entries(data.theme)) root.style.setProperty(`--gi-${name}`, value);
  root.style.setProperty("--gi-cell", `${data.cell}px`);
  if (data.answer !== S.answer) {  // emptied first, so that the same words said again are heard
    S.answer = data.answer;
    S.answerEl.textContent = "";
    setTimeout(() => { S.answerEl.textContent = S.answer; }, 50);
  }
}

function setUp(root, data) {
  const grid = root.querySelector(".gi-grid");
  const S = { cells: new Array(N * N).fill(0), at: 0, answer: null, send: null,
              where: root.querySelector(".gi-where"), answerEl: root.querySelector(".gi-answer") };
  if (Array.isArray(data.cells) && data.cells.length === N * N) S.cells = data.cells.map((v) => (v ? 1 : 0));
  const cells = [];
  for (let r = 0; r < N; r++) {
    const row = document.createElement("div");
    row.className = "gi-row";
    row.setAttribute("role", "row");
    for (let c = 0; c < N; c++) {
      const cell = document.createElement("div");
      cell.className = "gi-cell";
      cell.setAttribute("role", "gridcell");
      cell.setAttribute("aria-label", `row ${r + 1}, column ${c + 1}`);
      cell.tabIndex = -1;
      cell.dataset.i = String(r * N + c);
      row.appendChild(cell);
      cells.push(cell);
    }
    grid.appendChild(row);
  }
  const state = (i) => (S.cells[i] ? "ink" : "empty");
  const say = (i) => { S.where.textContent = `row ${Math.floor(i / N) + 1}, column ${(i % N) + 1}: ${state(i)}`; };
  const paint = (i) => cells[i].setAttribute("aria-selected", S.cells[i] ? "true" : "false");
  const moveTo = (i, focus) => {
    cells[S.at].tabIndex = -1;
    S.at = i;
    cells[i].tabIndex = 0;
    if (focus) cells[i].focus();
  };
  const toggle = (i) => { S.cells[i] = S.cells[i] ? 0 : 1; paint(i); say(i); };
  cells.forEach((_, i) => paint(i));
  moveTo(0, false);

  grid.addEventListener("keydown", (event) => {
    const r = Math.floor(S.at / N), c = S.at % N;
    const next = { ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1],
                   Home: [r, 0], End: [r, N - 1] }[event.key];
    if (next) {
      event.preventDefault();
      event.stopPropagation();  // the grid's arrows are its own (a deck's slide keys listen on the document)
      const [nr, nc] = [Math.min(Math.max(next[0], 0), N - 1), Math.min(Math.max(next[1], 0), N - 1)];
      moveTo(nr * N + nc, true);
      say(S.at);
    } else if (event.key === " " || event.key === "Enter") {
      event.preventDefault();  // Space would scroll the page
      event.stopPropagation();
      toggle(S.at);
    }
  });
  // One tap (or click) toggles the cell it lands on, and the keyboard goes on from there.
  grid.addEventListener("click", (event) => {
    const cell = event.target.closest(".gi-cell");
    if (!cell) return;
    moveTo(Number(cell.dataset.i), true);
    toggle(S.at);
  });
  root.querySelector(".gi-clear").addEventListener("click", () => {
    S.cells.fill(0);
    cells.forEach((_, i) => paint(i));
    S.where.textContent = "The grid is cleared.";
    if (S.send) S.send("grid", S.cells.slice());
  });
  root.querySelector(".gi-send").addEventListener("click", () => {
    S.where.textContent = "Sent to the model.";
    if (S.send) S.send("grid", S.cells.slice());
  });
  return S;
}
"""


@st.cache_resource
def _component():
    return st.components.v2.component("classic_grid_input", html=_HTML, css=_CSS, js=_JS)


def checked(value: Any) -> tuple[np.ndarray | None, str]:
    """A browser's grid ``(grid, note)``: the (16, 16) uint8 grid when ``value`` is exactly 256
    values each 0 or 1, row by row; otherwise None and why it was refused ("" for no value yet)."""
    if value is None:
        return None, ""
    refused = f"The grid from the browser was not used ({guard.shown(value)}): "
    if not isinstance(value, (list, tuple)):
        return None, refused + f"it is not a list of {SIZE * SIZE} cells."
    if len(value) != SIZE * SIZE:
        return None, refused + f"it has {len(value):,} cells, not {SIZE * SIZE}."
    # bool is an int in Python, but JSON true is not a cell's 1; a float 1.0 is JSON's 1.
    if not all(type(v) in (int, float) and v in (0, 1) for v in value):
        return None, refused + "each cell must be 0 or 1."
    return np.array(value, dtype=np.uint8).reshape(SIZE, SIZE), ""


def read(key: str) -> tuple[digits.Drawing, str]:
    """The grid last sent from the component ``key``, read as the canvas's drawing is read
    (cropped to its ink, stretched to fill 16×16, a dot or a blob refused), and a refusal note
    ("" when none). Call it before ``show``, which is given what the page made of it."""
    state: Any = st.session_state.get(key)
    value = state.get("grid") if isinstance(state, dict) else getattr(state, "grid", None)
    grid, refused = checked(value)
    if grid is None:
        empty = "Draw a digit on the grid, then send it to the model: the prediction appears here."
        return digits.Drawing(None, "empty", empty), refused
    # The cells as ink on paper, the same reading as a canvas's pixels: one pipeline, one verdict.
    read = digits.read_drawing(1.0 - grid.astype(np.float64))
    return digits.Drawing(read.grid, read.status, read.message.replace("canvas", "grid")), ""


def show(key: str, answer: str = "", cell: int = 26) -> None:
    """The grid, its buttons and its live regions; ``answer``: what the page made of the grid
    last sent, announced politely when it changes; ``cell``: a cell's side in CSS px (≥ 24)."""
    state: Any = st.session_state.get(key)
    sent, _ = checked(state.get("grid") if isinstance(state, dict) else getattr(state, "grid", None))
    colours = {
        "ink": theme.INK,
        "paper": theme.PAPER,
        "text": theme.TEXT,
        "muted": theme.MUTED,
        "lattice": theme.MUTED,  # 6:1 on paper: each cell's edge is seen (WCAG 1.4.11)
        "focus": theme.FOCUS,
        "control": theme.CONTROL,
    }
    data = {
        "theme": colours,
        "cell": max(int(cell), 24),
        "answer": answer,
        "cells": None if sent is None else sent.reshape(-1).tolist(),  # a remounted grid starts from it
    }
    _component()(data=data, key=key, default={"grid": None}, on_grid_change=lambda: None)
