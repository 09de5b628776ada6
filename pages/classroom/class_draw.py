"""Draw together (/digits): the teacher asks "Everyone draws a 7", every phone draws.

A round of the class store (``room_store``) whose question is a drawing (``kinds.DRAW``, its
answer the digit asked for); the phone's canvas is ``phone_draw``. Here, the projector's side
(/digits while a class runs, ``projector``): the digit to ask for and "Everyone draws a …"; the
drawings the projector may show as 16×16 thumbnails, numbered, with the label the page's model
gives each, the share read right and the ones read wrong, following the room every second.

The teacher decides what the hall sees and what the model learns, and the decisions live with
the class in the store (``marks``), so a reload keeps them: a drawing can be hidden at once;
drawings can be held back until approved on the teacher's own device (``/review``); only the
drawings the teacher chooses are taught, labelled with the digit asked for, and never a hidden
one. A round is read by the model taught the other rounds' chosen drawings, never its own, so
no number on the screen is scored on what the model learnt.
"""

from __future__ import annotations

import base64
import functools
import io
from collections.abc import Callable, Sequence

import numpy as np
import streamlit as st

from classic import digits
from classic.viz import digits as view
from classic.viz import theme
from pages.classroom import class_panel, kinds, room_store, rooms
from pages.classroom.rooms import Question
from pages.widgets import present

_READ = "class_draw_read"  # {(model, k, grid as hex): label}: a drawing is read once per model
_WRITTEN = "class_draw_reads_written"  # {(room, round): labels}: what the store last got
_ORDER = "class_draw_order"  # {(room, round): [phone ids in order of arrival]}: thumbnails keep their place
Fit = Callable[[np.ndarray, np.ndarray], digits.DigitClassifier]


def question(digit: int) -> Question:
    """The drawing question for ``digit``: what the phones show, and the digit it is read against."""
    return Question(f"digits.draw.{digit}", f"Everyone draws a {digit}", (), int(digit), kind=kinds.DRAW)


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
    """The current drawing round, read again every second: the drawings the projector may show,
    the share read right, the ones read wrong; the teacher's choice of drawings to teach, hiding
    a drawing at once, holding drawings back until approved, and "Close the drawing"."""
    store, code = teacher.store, teacher.code
    current = _attempt(store.current, code)
    if current is None or current.question.kind != kinds.DRAW:
        st.caption("No drawing asked yet: choose a digit and press “Everyone draws a …”.")
        return
    drawn = _attempt(store.drawings, code, current.number) or {}
    marks = _attempt(store.marks, code, current.number) or {}
    holding = bool(_attempt(store.holding, code))
    joined = _attempt(store.joined, code) or 0
    target = current.question.answer
    order = arrival(code, current.number, drawn)
    number = {phone: i for i, phone in enumerate(order, start=1)}  # a drawing's number on the screen
    hidden = [p for p in order if p in drawn and "hidden" in marks.get(p, ())]
    waiting = [
        p for p in order if p in drawn and p not in hidden and holding and "approved" not in marks.get(p, ())
    ]
    shown = [p for p in order if p in drawn and p not in hidden and p not in waiting]
    state = "closed" if current.revealed else "open"
    st.markdown(
        f"**Round {current.number}: everyone draws a {target}** ({state}) · "
        f"{_plural(len(drawn), 'drawing')} from {_plural(joined, 'phone')}"
        + (f" · {len(hidden)} hidden" if hidden else "")
    )
    st.toggle(
        "Hold drawings back until I approve them",
        value=holding,
        key=f"class_draw_hold_{code}",
        on_change=lambda: _attempt(
            store.hold, code, teacher.key, st.session_state[f"class_draw_hold_{code}"]
        ),
        help="Review and approve them on your own device (the review link is under “Control from another "
        "device”), where the hall cannot see them.",
    )
    if waiting:
        st.info(
            f"{_plural(len(waiting), 'drawing')} {'waits' if len(waiting) == 1 else 'wait'} for your approval: "
            "review them on your own device.",
            icon=":material/pending:",
        )
    if not shown or y is None:
        st.caption("The drawings appear here as the phones send them.")
        return
    # Taught drawings of the other rounds: this round's own are never in the model that reads them.
    examples = _class_examples(store, code, exclude=current.number)
    if len(y) + len(examples) < k:
        return
    grids = np.array([drawn[p] for p in shown], dtype=np.uint8).reshape(-1, 256)
    labels = _read(fit, X, y, examples, grids, k)
    _keep_reads(teacher, current.number, dict(zip(shown, map(int, labels), strict=True)))
    right = labels == target
    numbers, drawings = st.columns([1, 3])
    with numbers:
        st.metric("Read right", f"{right.mean():.0%}", f"{right.sum()} of {len(right)}", delta_color="off",
                  delta_arrow="off")  # fmt: skip
        if examples:
            before = _read(fit, X, y, [], grids, k) == target
            st.metric(
                f"Without the class's {_plural(len(examples), 'drawing')}",
                f"{before.mean():.0%}",
                f"{(right.mean() - before.mean()) * 100:+.0f} points with them",
            )
            st.caption(
                "Read by the model taught the drawings chosen in earlier rounds, never this round's own: "
                "no drawing is scored by a model that learnt it."
            )
    taught = {phone for n, phone in _attempt(store.taught, code) or [] if n == current.number}
    cell = 5 if present.is_on() else 4
    numbered = [number[p] for p in shown]
    drawings.html(thumbnails(grids, labels, target, cell, numbered, [p in taught for p in shown]))
    if (~right).any():
        drawings.markdown(f"**Read wrong** ({(~right).sum()}): *drawn as {target}, read as*")
        wrong = [i for i, ok in enumerate(right) if not ok]
        drawings.html(
            thumbnails(grids[~right], labels[~right], target, cell, [numbered[i] for i in wrong],
                       [shown[i] in taught for i in wrong])
        )  # fmt: skip
    _teacher_choices(teacher, current.number, shown, number, labels, target, taught, current.revealed)


def _keep_reads(teacher: class_panel.Teacher, number: int, labels: dict[str, int]) -> None:
    """The labels shown, kept with the class for its CSV; written only when they change."""
    written = st.session_state.setdefault(_WRITTEN, {})
    if written.get((teacher.code, number)) != labels:
        _attempt(teacher.store.record_reads, teacher.code, teacher.key, number, labels)
        written[(teacher.code, number)] = labels


def _teacher_choices(teacher, round_number, shown, number, labels, target, taught, closed) -> None:
    """Which drawings teach the model (one tap leaves one out; those read as another digit are
    marked, and start left out), hiding a drawing at once, and closing the round."""
    store, code, key = teacher.store, teacher.code, teacher.key
    names = {p: f"#{number[p]}" + ("" if int(label) == target else f" ✗ read as {int(label)}")
             for p, label in zip(shown, labels, strict=True)}  # fmt: skip
    default = (
        sorted(taught)
        if taught
        else [p for p, label in zip(shown, labels, strict=True) if int(label) == target]
    )
    with st.container(horizontal=True, vertical_alignment="bottom"):
        chosen = st.pills(
            "Teach the model with",
            shown,
            selection_mode="multi",
            default=[p for p in default if p in shown],
            format_func=names.get,
            key=f"class_draw_choose_{round_number}",
            help="Only the chosen drawings are taught, labelled with the digit asked for, for this class.",
        )
        if st.button(
            f"Teach with {_plural(len(chosen), 'chosen drawing')}",
            key=f"class_draw_teach_{round_number}",
            disabled=set(chosen) == taught,
        ):
            _attempt(store.mark, code, key, round_number, sorted(chosen), "taught")
            _attempt(store.mark, code, key, round_number, sorted(set(shown) - set(chosen)), "taught", False)
            st.rerun(scope="fragment")
    with st.container(horizontal=True):
        with st.popover("Hide a drawing", icon=":material/visibility_off:"):
            gone = st.pills(
                "Hide from the projector at once",
                shown,
                selection_mode="multi",
                format_func=lambda p: f"#{number[p]}",
                key=f"class_draw_hide_{round_number}",
            )
            if gone:
                _attempt(store.mark, code, key, round_number, sorted(gone), "hidden")
                del st.session_state[f"class_draw_hide_{round_number}"]
                st.rerun(scope="fragment")
        if not closed and st.button(
            "Close the drawing", key=f"class_draw_close_{round_number}", help="The phones stop drawing."
        ):
            _attempt(store.reveal, code, key)
            st.rerun(scope="fragment")


def arrival(code: str, number: int, drawn: dict) -> list[str]:
    """The phones of a round in the order their drawings first arrived in this session, so that
    a drawing keeps its place (and its number) as more come in."""
    order = st.session_state.setdefault(_ORDER, {}).setdefault((code, number), [])
    order += [p for p in sorted(drawn) if p not in order]
    return [p for p in order if p in drawn]


def plain_thumbnail(grid: Sequence[int], n: int, cell: int = 5) -> str:
    """HTML: one drawing as its 16×16 grid, unread (the teacher's review)."""
    hexed = digits.grid_to_hex(np.array(grid, dtype=np.uint8))
    return f'<img src="{_png_of(hexed, cell)}" alt="Drawing {n}" style="display:block;border:1px solid {theme.GRID}">'


def thumbnails(
    grids: np.ndarray,
    labels: np.ndarray,
    target: int,
    cell: int = 4,
    numbers: Sequence[int] | None = None,
    taught: Sequence[bool] | None = None,
) -> str:
    """HTML: each drawing as its 16×16 grid with its number and the label it was read as (a wrong
    one marked ✗; a taught one marked "taught")."""
    good, bad = theme.VERDICT["good"], theme.VERDICT["bad"]
    numbers = numbers if numbers is not None else range(1, len(grids) + 1)
    taught = taught if taught is not None else [False] * len(grids)
    figures = []
    for grid, label, n, learnt in zip(grids, labels, numbers, taught, strict=True):
        ok = int(label) == target
        back, text = good if ok else bad
        said = (
            f"Drawing {n}, read as {int(label)}"
            + ("" if ok else f", not {target}")
            + (", taught" if learnt else "")
        )
        figures.append(
            f'<figure style="margin:0;text-align:center"><img src="{_png_of(digits.grid_to_hex(grid), cell)}" alt="{said}" '
            f'style="display:block;border:1px solid {theme.GRID}"><figcaption style="background:{back};'
            f'color:{text};font-weight:600;font-size:1.2em;line-height:1.5">{"" if ok else "✗ "}{int(label)}'
            f'<span style="font-weight:400;font-size:0.8em"> #{n}{" · taught" if learnt else ""}</span>'
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


def _class_examples(store: room_store.RoomStore, code: str, exclude: int) -> list[tuple[np.ndarray, int]]:
    """The drawings the teacher taught (never a hidden one), each labelled with the digit its
    round asked for, from every round but ``exclude``."""
    taught = [(n, phone) for n, phone in _attempt(store.taught, code) or [] if n != exclude]
    if not taught:
        return []
    asked = {r.number: r.question.answer for r in _attempt(store.rounds, code) or []}
    drawn = {n: _attempt(store.drawings, code, n) or {} for n in {n for n, _ in taught}}
    return [
        (np.array(drawn[n][phone], dtype=np.uint8).reshape(16, 16), asked.get(n, 0))
        for n, phone in taught
        if phone in drawn[n]
    ]


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
