"""The phone's input for a drawing question (Draw together): a big touch canvas, the drawing
checked on the server as the digits page checks its own (``guard.drawing``: a PNG of at most the
canvas's size, before decoding), read into Semeion's 16×16 grid (``classic.digits.read_drawing``)
and sent when the student taps "Send my drawing" (again, to replace it, until the teacher closes
the round)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import streamlit as st

from classic import digits
from classic.viz import digits as view
from pages.classroom.rooms import PhoneView
from pages.server import guard
from pages.widgets import canvas

PHONE_CANVAS = 320  # px: a 390 px phone's width less the page's margins
PHONE_PEN = round(18 * PHONE_CANVAS / 280)  # the digits page's default pen, at this size
_SHEET = "class_draw_sheet"  # this phone's Sheet


@dataclasses.dataclass
class Sheet:
    """The phone's canvas across the fragment's runs: ``key`` names it, and a new key is a clean
    canvas. The key does not follow the round: the phone learns of a new round up to two seconds
    after the projector shows it, and a student who starts drawing at once draws on the canvas
    still showing, whose strokes a new key would drop. The canvas is made clean when the student
    sends or clears instead, and at a new round only if it held ink when the phone last showed
    the earlier one (a drawing not sent)."""

    began: int  # the round in which this canvas was made clean
    shown: int  # the round the phone last showed
    number: int = 0  # how many clean canvases this phone had before this one
    inked: bool = False  # whether the canvas held ink when the phone last showed it

    @property
    def key(self) -> str:
        return f"class_draw_canvas_{self.began}_{self.number}"

    def show(self, number: int) -> None:
        """Round ``number`` is on the phone: a drawing left from an earlier round is cleared."""
        if number != self.shown and self.inked:
            self.clean(number)
        self.shown = number

    def clean(self, number: int) -> None:
        self.began, self.shown, self.number, self.inked = number, number, self.number + 1, False


def phone(view_now: PhoneView, send: Callable[[np.ndarray], Any]) -> None:
    """The phone's side of a drawing round (called by /join inside its fragment): the canvas and
    "Send my drawing" while the round is open; ``send(grid)`` stores the drawing (the page's
    store call, which turns a refusal into a message)."""
    if view_now.status in ("revealed", "closed"):  # stopped, timed out or revealed: nothing more to send
        sent = "Your drawing is in." if view_now.mine else "You did not send a drawing."
        st.info(f"The teacher closed the drawing. {sent} Look at the projector.", icon=":material/draw:")
        return
    from streamlit_drawable_canvas import st_canvas  # a component: only under streamlit run / AppTest

    sheet = st.session_state.setdefault(_SHEET, Sheet(view_now.round, view_now.round))
    sheet.show(view_now.round)
    st.html(canvas.CANVAS_STYLES, unsafe_allow_javascript=True)  # the component's own toolbar hidden
    strokes = canvas.pad("phone", sheet.key)  # Undo and Redo, for this clean canvas
    shown = guard.guarded_component(
        lambda: st_canvas(
            stroke_width=PHONE_PEN,
            height=PHONE_CANVAS,
            width=PHONE_CANVAS,
            initial_drawing=strokes.initial(None),
            key=sheet.key,
            **view.CANVAS,
        ),
        "the canvas",
    )
    image, json_data, refused = guard.drawing(shown, PHONE_CANVAS)  # size and type checked before decoding
    strokes.see(json_data)  # its objects checked before they can go back to the canvas
    canvas.buttons(strokes, "class_draw_strokes")  # Clear stays beside Send, below
    read = digits.read_drawing(image)
    sheet.inked = read.status != "empty"
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
        # A new key: a clean canvas (and a new Pad, nothing to undo).
        st.button(
            "Clear",
            key=f"class_draw_clear_{view_now.round}",
            icon=":material/ink_eraser:",
            on_click=sheet.clean,
            args=(view_now.round,),
        )
    if sending and send(read.grid) is not None:
        sheet.clean(view_now.round)  # the drawing is in: a clean canvas, ready for the next round
        st.rerun()  # the page, not only the fragment: a full run (which refuses that) can carry the tap
    if view_now.mine:
        st.success(
            "Sent: it is on the projector. Draw again and send it again to replace it.",
            icon=":material/check:",
        )
    else:
        st.caption("Draw with your finger, as big as the box, then send it.")
