"""Draw together (/digits): the teacher asks "Everyone draws a 7", every phone draws.

Two sides, one round of the class store (``room_store``) whose question is a drawing
(``kinds.DRAW``, its answer the digit asked for):

- **The phone** (/join, ``phone``): a big touch canvas; the drawing is checked on the server
  as the digits page checks its own (``guard.drawing``: a PNG of at most the canvas's size,
  before decoding), read into Semeion's 16×16 grid (``classic.digits.read_drawing``) and sent
  with ``store.draw`` when the student taps "Send my drawing" (again, to replace it, until the
  teacher closes the round).
- **The projector** (/digits while a class runs, ``projector``): the digit to ask for and
  "Everyone draws a …"; every drawing as a 16×16 thumbnail with the label the page's model
  gives it, the share read right, the ones read wrong, following the room every second; "Teach
  with the class's drawings" adds the round's drawings (labelled with the digit asked for) to
  the training set for this class only (this projector's session), and the drawings of the
  rounds after it are read by the model with and without them: the change in accuracy.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import io
from collections.abc import Callable
from typing import Any

import numpy as np
import streamlit as st

from classic import digits
from classic.viz import digits as view
from classic.viz import theme
from pages.classroom import class_panel, kinds, room_store, rooms
from pages.classroom.rooms import Question
from pages.server import guard
from pages.widgets import canvas, present

PHONE_CANVAS = 320  # px: a 390 px phone's width less the page's margins
PHONE_PEN = round(18 * PHONE_CANVAS / 280)  # the digits page's default pen, at this size
_TAUGHT = "class_draw_taught"  # {room code: [round numbers taught]}: this projector's session only
_READ = "class_draw_read"  # {(model, k, grid as hex): label}: a drawing is read once per model
_CLEARS = "class_draw_clears"  # how many times this phone cleared its canvas: part of its key
_ORDER = "class_draw_order"  # {(room, round): [phone ids in order of arrival]}: thumbnails keep their place
Fit = Callable[[np.ndarray, np.ndarray], digits.DigitClassifier]


def question(digit: int) -> Question:
    """The drawing question for ``digit``: what the phones show, and the digit it is read against."""
    return Question(f"digits.draw.{digit}", f"Everyone draws a {digit}", (), int(digit), kind=kinds.DRAW)


# ---- the phone ---------------------------------------------------------------------------


def phone(view_now: rooms.PhoneView, send: Callable[[np.ndarray], Any]) -> None:
    """The phone's side of a drawing round (called by /join inside its fragment): the canvas and
    "Send my drawing" while the round is open; ``send(grid)`` stores the drawing (the page's
    store call, which turns a refusal into a message)."""
    if view_now.status == "revealed":
        sent = "Your drawing is in." if view_now.mine else "You did not send a drawing."
        st.info(f"The teacher closed the drawing. {sent} Look at the projector.", icon=":material/draw:")
        return
    from streamlit_drawable_canvas import st_canvas  # a component: only under streamlit run / AppTest

    st.html(canvas.TOOLBAR_ABOVE, unsafe_allow_javascript=True)
    st.space(view.TOOLBAR_ROOM)  # the canvas's toolbar (undo, clear) shows above it, not on it
    shown = guard.guarded_component(
        lambda: st_canvas(
            stroke_width=PHONE_PEN,
            height=PHONE_CANVAS,
            width=PHONE_CANVAS,
            # A new round, or "Clear", a clean canvas (the toolbar's own shows on hover, which a
            # phone does not have).
            key=f"class_draw_canvas_{view_now.round}_{st.session_state.get(_CLEARS, 0)}",
            **view.CANVAS,
        ),
        "the canvas",
    )
    image, _, refused = guard.drawing(shown, PHONE_CANVAS)  # size and type checked before decoding
    read = digits.read_drawing(image)
    if refused:
        st.warning(refused, icon=":material/block:")
    elif read.status not in ("ok", "empty"):
        st.warning(read.message, icon=":material/draw:")
    with st.container(horizontal=True):
        sending = st.button(
            "Send my drawing",
            key=f"class_draw_send_{view_now.round}",
            type="primary",
            width="stretch",
            disabled=not read.ok,
        )
        st.button(
            "Clear", key=f"class_draw_clear_{view_now.round}", icon=":material/ink_eraser:", on_click=_clear
        )
    if sending:
        if send(read.grid) is not None:
            view_now = dataclasses.replace(view_now, mine=1)
    if view_now.mine:
        st.success(
            "Sent: it is on the projector. Draw again and send it again to replace it.",
            icon=":material/check:",
        )
    else:
        st.caption("Draw with your finger, as big as the box, then send it.")


def _clear() -> None:
    st.session_state[_CLEARS] = st.session_state.get(_CLEARS, 0) + 1


# ---- the projector -----------------------------------------------------------------------


def projector(fit: Fit, X: np.ndarray | None, y: np.ndarray | None, k: int) -> None:
    """The teacher's drawing round on /digits while this session teaches a class (nothing
    otherwise): ``fit(X, y)`` is the page's model with its settings, ``k`` its neighbours."""
    teacher = class_panel.active()
    if teacher is None:
        return
    with st.container(border=True, key="class_draw"):
        st.markdown(f"**Draw together** (class {teacher.code}): every phone draws the digit you choose.")
        left, right = st.columns([1, 2], vertical_alignment="bottom")
        digit = left.selectbox("The digit to draw", range(10), index=7, key="class_draw_digit")
        if right.button(f"Everyone draws a {digit}", key="class_draw_ask", type="primary"):
            _attempt(teacher.ask, question(digit))  # the store checks the teacher's key
        if note := st.session_state.pop("class_draw_error", None):
            st.warning(note, icon=":material/warning:")
        gallery(teacher, fit, X, y, k)


@st.fragment(run_every=1)
def gallery(
    teacher: class_panel.Teacher, fit: Fit, X: np.ndarray | None, y: np.ndarray | None, k: int
) -> None:
    """The current drawing round, read again every second: thumbnails, accuracy, mistakes; the
    teacher's "Teach with the class's drawings" and "Close the drawing"."""
    store, code = teacher.store, teacher.code
    current = _attempt(store.current, code)
    if current is None or current.question.kind != kinds.DRAW:
        st.caption("No drawing asked yet: choose a digit and press “Everyone draws a …”.")
        return
    drawn = _attempt(store.drawings, code, current.number) or {}
    joined = _attempt(store.joined, code) or 0
    target = current.question.answer
    order = st.session_state.setdefault(_ORDER, {}).setdefault((code, current.number), [])
    order += [p for p in sorted(drawn) if p not in order]
    grids = np.array([drawn[p] for p in order if p in drawn], dtype=np.uint8).reshape(-1, 256)
    taught_rounds = st.session_state.setdefault(_TAUGHT, {}).setdefault(code, [])
    examples = _class_examples(store, code, taught_rounds)
    state = "closed" if current.revealed else "open"
    st.markdown(
        f"**Round {current.number}: everyone draws a {target}** ({state}) · "
        f"{_plural(len(grids), 'drawing')} from {_plural(joined, 'phone')}"
    )
    if len(grids) == 0 or y is None or (len(y) + len(examples)) < k:
        st.caption("The drawings appear here as the phones send them.")
        return
    labels = _read(fit, X, y, examples, grids, k)
    right = labels == target
    numbers, drawings = st.columns([1, 3])
    numbers.metric("Read right", f"{right.mean():.0%}", f"{right.sum()} of {len(right)}", delta_color="off",
                   delta_arrow="off")  # fmt: skip
    if examples and current.number not in taught_rounds:
        before = _read(fit, X, y, [], grids, k) == target
        change = right.mean() - before.mean()
        numbers.metric(
            f"Without the class's {_plural(len(examples), 'drawing')}",
            f"{before.mean():.0%}",
            f"{change * 100:+.0f} points with them",
        )
    elif examples:
        numbers.caption("This round's drawings are in the training set now: ask again to see new ones read.")
    cell = 5 if present.is_on() else 4
    drawings.html(thumbnails(grids, labels, target, cell))
    if (~right).any():
        drawings.markdown(f"**Read wrong** ({(~right).sum()}): *drawn as {target}, read as*")
        drawings.html(thumbnails(grids[~right], labels[~right], target, cell))
    taught = current.number in taught_rounds
    with st.container(horizontal=True):
        if st.button(
            "Teach with the class's drawings" if not taught else "Taught with this round's drawings",
            key=f"class_draw_teach_{current.number}",
            disabled=taught,
            help="Adds this round's drawings, labelled with the digit asked for, to the training set for "
            "this class only.",
        ):
            taught_rounds.append(current.number)
            st.rerun(scope="fragment")
        if not current.revealed and st.button(
            "Close the drawing", key=f"class_draw_close_{current.number}", help="The phones stop drawing."
        ):
            _attempt(store.reveal, code, teacher.key)
            st.rerun(scope="fragment")


def thumbnails(grids: np.ndarray, labels: np.ndarray, target: int, cell: int = 4) -> str:
    """HTML: each drawing as its 16×16 grid with the label it was read as (a wrong one marked)."""
    good, bad = theme.VERDICT["good"], theme.VERDICT["bad"]
    figures = []
    for grid, label in zip(grids, labels, strict=True):
        ok = int(label) == target
        back, text = good if ok else bad
        said = f"read as {int(label)}" + ("" if ok else f", not {target}")
        figures.append(
            f'<figure style="margin:0;text-align:center"><img src="{_png_of(digits.grid_to_hex(grid), cell)}" alt="A drawing {said}" '
            f'style="display:block;border:1px solid {theme.GRID}"><figcaption style="background:{back};'
            f'color:{text};font-weight:600;font-size:1.2em;line-height:1.5">{"" if ok else "✗ "}{int(label)}'
            "</figcaption></figure>"
        )
    return (
        '<div class="class-draw-gallery" style="display:flex;flex-wrap:wrap;gap:10px">'
        + "".join(figures)
        + "</div>"
    )


@functools.lru_cache(maxsize=4096)  # the projector shows the same drawings every second
def _png_of(grid_hex: str, cell: int) -> str:
    from PIL import Image

    buffer = io.BytesIO()
    grid = np.unpackbits(np.frombuffer(bytes.fromhex(grid_hex), dtype=np.uint8))  # any grid, blank too
    Image.fromarray(view.grid_image(grid, cell)).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _class_examples(
    store: room_store.RoomStore, code: str, taught: list[int]
) -> list[tuple[np.ndarray, int]]:
    """The drawings of the taught rounds, each labelled with the digit its round asked for."""
    examples = []
    asked = {r.number: r.question.answer for r in _attempt(store.rounds, code) or []} if taught else {}
    for number in taught:
        for grid in (_attempt(store.drawings, code, number) or {}).values():
            examples.append((np.array(grid, dtype=np.uint8).reshape(16, 16), asked.get(number, 0)))
    return examples


def _read(fit: Fit, X, y, examples: list, grids: np.ndarray, k: int) -> np.ndarray:
    """The label the model (trained on X, y and the class's ``examples``) gives each grid; each
    grid is read once per model (the projector follows the room every second)."""
    Xt, yt = digits.with_examples(X, y, examples) if examples else (X, y)
    model = fit(Xt, yt)
    memo = st.session_state.setdefault(_READ, {})
    if len(memo) > 20_000:
        memo.clear()
    # The model's settings and training labels name it (the page's cache may rebuild the object).
    name = hash((repr(model.get_params()), np.asarray(yt).tobytes(), len(yt), k))
    keys = [(name, digits.grid_to_hex(g)) for g in grids]
    new = [i for i, key in enumerate(keys) if key not in memo]
    if new:
        for i, label in zip(new, model.vote(grids[new], k)[0], strict=True):
            memo[keys[i]] = int(label)
    return np.array([memo[key] for key in keys], dtype=np.int64)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _attempt(action, *args):
    """A store call; a refusal or an unreachable store becomes a note on the panel, not a traceback."""
    try:
        return action(*args)
    except rooms.RoomError as error:
        st.session_state["class_draw_error"] = str(error)
    except room_store.unavailable_errors():
        st.session_state["class_draw_error"] = "The class cannot be reached right now: try again in a moment."
    return None
