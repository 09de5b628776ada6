"""The phone's input for a choice question: a big button per choice (one tap answers, another
changes the answer until the reveal), then right or wrong and why."""

from __future__ import annotations

import streamlit as st

from pages.classroom.rooms import PhoneView
from pages.server.url import escape_markdown


def phone(view: PhoneView, send) -> None:
    """The choices of an open or revealed round (inside /join's fragment); ``send(i)`` stores
    choice ``i`` (the page's store call, which turns a refusal into a message)."""
    revealed, closed = view.status == "revealed", view.status == "closed"
    with st.container(key="join_choices"):
        for i, choice in enumerate(view.choices):
            mark = "✓ " if revealed and i == view.answer else ""
            st.button(
                f"{mark}{choice}",
                key=f"join_choice_{view.round}_{i}",
                type="primary" if view.mine == i else "secondary",
                width="stretch",
                disabled=revealed or closed,
                on_click=send,
                args=(i,),
            )
    if closed:
        mine = "none" if view.mine is None else f"**{escape_markdown(view.choices[view.mine])}**"
        st.info(f"The vote is closed. Your answer: {mine}.", icon=":material/lock:")
        return
    if not revealed:
        if view.mine is None:
            st.caption("Tap an answer. You can change it until the teacher reveals the answer.")
        else:
            st.success(
                f"Your answer: **{escape_markdown(view.choices[view.mine])}**. Tap another to change it.",
                icon=":material/how_to_vote:",
            )
        return
    if view.answer is None or not 0 <= view.answer < len(view.choices):  # an opinion: no right one
        st.info("This question asked for your opinion: there is no right answer.", icon=":material/info:")
        return
    right = escape_markdown(view.choices[view.answer])
    if view.correct:
        st.success(f"Right! The answer is **{right}**.", icon=":material/check_circle:")
    elif view.mine is None:
        st.info(f"You did not answer. The answer is **{right}**.", icon=":material/info:")
    else:
        mine = escape_markdown(view.choices[view.mine])
        st.error(f"Not this time: you chose **{mine}**; the answer is **{right}**.", icon=":material/cancel:")
    if view.why:
        st.markdown(view.why)
