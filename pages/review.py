"""Review the class's drawings: the teacher's own device (a phone, through the teacher's link),
where the hall cannot see them. Every drawing of the current round, the held and the hidden
ones too: show or hide each on the projector, approve the held ones. Hidden from the menu."""

import streamlit as st

from pages.classroom import class_draw, class_panel, kinds
from pages.server.shell import ensure_app_shell

ensure_app_shell()

st.title("Review the drawings")
teacher = class_panel.active()
if teacher is None:
    st.info(
        "Open this page with your class's teacher link (under “Control from another device” on the "
        "projector's page) to review the drawings of your class.",
        icon=":material/lock:",
    )
    st.stop()
store, code = teacher.store, teacher.code


def _mark(number: int, phone: str, mark: str, on: bool) -> None:
    class_panel.attempt(store.mark, code, teacher.key, number, [phone], mark, on)


def _hold() -> None:
    class_panel.attempt(store.hold, code, teacher.key, st.session_state["review_hold"])


@st.fragment(run_every=2)
def review() -> None:
    current = class_panel.attempt(store.current, code)
    if current is None or current.question.kind != kinds.DRAW:
        st.caption(f"Class {code}: no drawing asked yet.")
        return
    drawn = class_panel.attempt(store.drawings, code, current.number) or {}
    marks = class_panel.attempt(store.marks, code, current.number) or {}
    holding = bool(class_panel.attempt(store.holding, code))
    st.session_state["review_hold"] = holding
    st.toggle("Hold drawings back until I approve them", key="review_hold", on_change=_hold)
    st.markdown(f"**Class {code}, round {current.number}: {current.question.text}** · {len(drawn)} drawings")
    order = class_draw.arrival(code, current.number, drawn)
    for i, phone in enumerate(order, start=1):
        mine = marks.get(phone, frozenset())
        hidden, approved = "hidden" in mine, "approved" in mine
        state = "hidden" if hidden else ("waiting" if holding and not approved else "on the projector")
        with st.container(border=True, horizontal=True, vertical_alignment="center"):
            st.html(class_draw.plain_thumbnail(drawn[phone], i))
            st.markdown(f"**#{i}** · {state}" + (" · taught" if "taught" in mine else ""))
            if holding and not approved and not hidden:
                st.button("Approve", key=f"review_ok_{current.number}_{phone}", type="primary",
                          on_click=_mark, args=(current.number, phone, "approved", True))  # fmt: skip
            st.button("Show" if hidden else "Hide", key=f"review_hide_{current.number}_{phone}",
                      on_click=_mark, args=(current.number, phone, "hidden", not hidden))  # fmt: skip


review()
