"""The phone's input for a number question: a number field and "Send" (a new number replaces
the last until the vote closes), then whether it was within the tolerance of the answer."""

from __future__ import annotations

import streamlit as st

from pages.classroom.rooms import PhoneView


def phone(view: PhoneView, send) -> None:
    """The field of an open round, or the phone's number and the answer once closed or revealed
    (inside /join's fragment); ``send(x)`` stores ``x`` through the store, which checks it."""
    if view.status == "question":
        with st.form(key=f"join_number_{view.round}", border=False):
            value = st.number_input(
                "Your answer", value=None, step=1.0, format="%g", key=f"join_number_{view.round}_v"
            )
            if st.form_submit_button("Send", type="primary", width="stretch") and value is not None:
                send(value)
                view = None  # the fragment reruns with the stored number
        if view is not None and view.mine is not None:
            st.success(
                f"Your answer: **{view.mine:g}**. Send another to change it.", icon=":material/how_to_vote:"
            )
        elif view is not None:
            st.caption("Type a number and send it. You can change it until the vote closes.")
        return
    mine = "" if view.mine is None else f"**{view.mine:g}**"
    if view.status == "closed":
        st.info(f"The vote is closed. Your answer: {mine or 'none'}.", icon=":material/lock:")
        return
    right = f"{view.answer:g}" + (f" ± {view.tolerance:g}" if view.tolerance else "")
    if view.correct:
        st.success(f"Right! You said {mine}; the answer is **{right}**.", icon=":material/check_circle:")
    elif view.mine is None:
        st.info(f"You did not answer. The answer is **{right}**.", icon=":material/info:")
    else:
        st.error(f"Not this time: you said {mine}; the answer is **{right}**.", icon=":material/cancel:")
    if view.why:
        st.markdown(view.why)
