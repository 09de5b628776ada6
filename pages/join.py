"""Join a class: the page a student's phone opens from the projector's code or link.

``/join?room=CODE`` joins the teacher's room and follows it: "waiting for the teacher", then the
question with its kind's input (``kinds``: a button per choice, a drawing canvas), then right or
wrong and why. The page reads the room every two seconds (a fragment);
everything the phone sends goes through the store, which checks it (pages/classroom/rooms.py).
"""

import streamlit as st

from pages.classroom import class_view, kinds, room_store, rooms
from pages.server import url
from pages.server.shell import ensure_app_shell
from pages.widgets import remembered

ensure_app_shell()

# A phone page: no sidebar, no header bar, big buttons, no side padding.
st.html(
    """<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
[data-testid="stExpandSidebarButton"] { display: none !important; }
[data-testid="stMainBlockContainer"] { padding: 1rem 1rem 2rem; max-width: 40rem; }
h1 { font-size: 1.8rem !important; }
.st-key-join_choices button { min-height: 3.6rem; font-size: 1.25rem; }
.st-key-join_choices button p { font-size: 1.25rem; }
</style>"""
)

_PHONE = "join_phone"  # this session's phone id: the only identity a class keeps
_NEW_PHONE = "join_new_phone"  # an id this browser is being given (it had none)
_ERROR = "join_error"
store = room_store.shared_store()


def _phone_id() -> str:
    """This session's phone: the id this browser keeps (``remembered``: its own storage, never
    the link, so a forwarded link is a new phone and a reload the same one), or a new random one
    the browser is given. A session is one phone: once known, its id never changes."""
    phone = st.session_state.get(_PHONE)
    if phone is not None:
        return phone
    st.query_params.pop("me", None)  # an identity in a link is a forwarded one: never used
    kept = remembered.remembered("classic.phone", "join_identity", write=st.session_state.get(_NEW_PHONE))
    if kept is None:  # the browser has not said yet: its answer reruns the page
        st.caption("Connecting…")
        url.stop()
    try:
        phone = rooms.check_phone(kept)
    except rooms.RoomError:  # none kept (or not an id): this browser gets one, and says it back
        if _NEW_PHONE not in st.session_state:
            st.session_state[_NEW_PHONE] = rooms.new_phone_id()
            st.rerun()
        st.caption("Connecting…")
        url.stop()
    st.session_state[_PHONE] = phone
    return phone


phone = _phone_id()


def attempt(action, *args):
    """Run a store action; a refusal or an unreachable store becomes a message, not a traceback."""
    try:
        return action(*args)
    except rooms.RoomError as error:
        st.session_state[_ERROR] = str(error)
    except room_store.unavailable_errors():
        st.session_state[_ERROR] = "The class cannot be reached right now: try again in a moment."
    return None


def _valid(code: str) -> bool:
    try:
        rooms.check_code(code)
    except rooms.RoomError:
        return False
    return True


def _keep_the_room() -> None:
    """A phone in a class that types something that is not a room code (a nickname in the wrong
    field) stays in its class: the field goes back to the room's code, with a note."""
    joined = st.session_state.get("join_room")
    if joined and not _valid(st.session_state.get("room") or ""):
        st.session_state["room"] = joined
        st.session_state[_ERROR] = (
            f"That is not a room code, so you are still in room {joined}. "
            "A nickname goes in the Nickname field."
        )


st.title("Join the class")
live = st.container()  # the room, filled below once the code is read
linked = st.query_params.get("room", "")
# The code is the link's `room` parameter (as every widget here is bound to the URL): the
# projector's link fills it in, and a code typed here goes into the address.
with st.expander("Room code and nickname", expanded=not _valid(linked)):
    typed = st.text_input(
        "Room code (on the projector)", key="room", bind="query-params", on_change=_keep_the_room
    )
    st.button("Join", type="primary", width="stretch")
    name = st.text_input(
        "Nickname (optional, at most 20 characters)",
        max_chars=rooms.MAX_NICKNAME,
        key="join_nickname",
        bind="query-params",  # kept, like the phone's id, when the page is reloaded
    )
    saved = st.button("Save the nickname")
    st.caption("The class's answers are shown without names.")

if not typed:
    live.info("Type the room code shown on the projector.", icon=":material/qr_code_scanner:")
    url.stop()
try:
    code = rooms.check_code(typed)
except rooms.RoomError as error:
    # Shown as the app shows every link value it could not use (pages/server/url.py).
    live.info(f"This room code could not be used. {error}", icon=":material/link_off:")
    url.stop()
if st.session_state.get("join_room") != code or saved:
    if attempt(store.join, code, phone, name) is None:
        live.error(st.session_state.pop(_ERROR, "Could not join."), icon=":material/error:")
        url.stop()
    st.session_state["join_room"] = code
    if saved:
        live.success("Nickname saved.", icon=":material/check:")


@st.fragment(run_every=2)
def follow(code: str) -> None:
    view = attempt(store.view, code, phone)
    note = st.session_state.pop(_ERROR, None)
    if view is None:
        st.error(note or "This class cannot be found.", icon=":material/error:")
        return
    st.caption(f"Room {code}")
    if note and view.status in ("ended", "waiting"):
        st.warning(note, icon=":material/warning:")
    if view.status == "ended":
        st.info("This class has ended: thank you for taking part.", icon=":material/check_circle:")
        return
    if view.status == "full":
        st.info("The class is full: your teacher will let you in.", icon=":material/hourglass_empty:")
        return
    if view.status == "waiting":
        st.info("Waiting for the teacher to ask a question…", icon=":material/hourglass_empty:")
        return
    # A live region: a new question is said to a screen reader as it arrives (Streamlit's own
    # boxes below, "The vote is closed", right or wrong, are status regions already).
    st.html(class_view.question_line(view.round, view.text))
    if view.seconds_left is not None:
        st.caption(f":material/timer: About {view.seconds_left} s left")
    kinds.of(view).phone(view, lambda value: attempt(store.answer, code, phone, value, view.kind))
    if note := note or st.session_state.pop(_ERROR, None):
        st.warning(note, icon=":material/warning:")


with live:
    follow(code)
