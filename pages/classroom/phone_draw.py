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
_CLEARS = "class_draw_clears"  # how many times this phone cleared its canvas: part of its key


def phone(view_now: PhoneView, send: Callable[[np.ndarray], Any]) -> None:
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
