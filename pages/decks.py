"""Lessons to teach: a deck is a lesson prepared as slides, each a view of a lesson page with its
questions (``classic.lessons.decks``). Play a ready-made one, or prepare your own: "Add this view
to my lesson" on any lesson page adds a slide; here you reorder, retitle and remove them, save
the lesson as a file and open one, and print the handout and its answer key."""

import time
import zlib

import streamlit as st

from classic.lessons import decks, lesson_of
from pages.server import url
from pages.server.shell import ensure_app_shell
from pages.server.url import escape_markdown
from pages.widgets import deck as player

ensure_app_shell()

st.title("Lessons to teach")
st.markdown(
    "A lesson is a sequence of views of the lab, each with its questions: play it in class with "
    "Next and Previous (PageDown and PageUp, as a presenter's clicker sends), the phones answering "
    "each question; print a handout for the students and an answer key for you."
)

# A link can open a lesson at a slide: /decks?deck=<name>&slide=<n> goes to that slide's page.
opened = st.query_params.get(player.DECK_PARAM)
at = st.query_params.get(player.SLIDE_PARAM, "1")
if opened in decks.READY and at.isdigit():
    ready = decks.ready(opened)
    n = min(max(1, int(at)), len(ready.slides))
    player.go(player.slide_link(opened, ready, n - 1))
    st.rerun()
    st.caption(f"Opening slide {n} of “{escape_markdown(ready.title)}”…")


def _page_title(slide: decks.Slide) -> str:
    found = lesson_of(slide.page)
    return found.title if found else slide.page


def _edit_copy(name: str) -> None:
    player.keep(decks.ready(name))
    st.session_state["decks_note"] = f"“{decks.ready(name).title}” is now your lesson: edit it below."


st.header("Ready-made lessons")
for name in decks.READY:
    try:
        ready = decks.ready(name)
    except decks.DeckError as error:  # a file of the repository that does not load: say so, go on
        st.error(f"{name}: {error}", icon=":material/error:")
        continue
    with st.container(border=True, key=f"decks_ready_{name}"):
        st.subheader(ready.title, divider=False)
        if ready.about:
            st.markdown(escape_markdown(ready.about))
        st.caption(
            f"{len(ready.slides)} slides: "
            + " · ".join(f"{i}. {escape_markdown(s.title)}" for i, s in enumerate(ready.slides, start=1))
        )
        with st.container(horizontal=True):
            st.button("Play it", key=f"decks_play_{name}", on_click=player.go, type="primary",
                      args=(player.slide_link(name, ready, 0),), icon=":material/play_arrow:")  # fmt: skip
            st.button("Edit a copy", key=f"decks_copy_{name}", on_click=_edit_copy, args=(name,),
                      icon=":material/edit:")  # fmt: skip

st.header("Your lesson")
if note := st.session_state.get("decks_note"):
    st.success(note, icon=":material/check:")
    if not player.writing():  # kept through the rerun the browser's answer makes
        st.session_state.pop("decks_note", None)
player.need_mine()  # the browser says the lesson it keeps before the page is drawn
mine = player.mine()


def _open_file() -> None:
    upload = st.session_state.get("decks_upload")
    if upload is None:
        return
    if upload.size > decks.MAX_BYTES:
        st.session_state["decks_error"] = f"The file is larger than {decks.MAX_BYTES // 1024} KiB."
        return
    try:
        player.keep(decks.load(upload.getvalue()))
    except decks.DeckError as error:
        st.session_state["decks_error"] = str(error)
        return
    st.session_state["decks_note"] = "The lesson is open: it is now your lesson in this browser."


with st.expander("Open a lesson file", icon=":material/upload_file:", expanded=mine is None):
    st.file_uploader(
        "A lesson saved from this page (JSON, at most 256 KiB)", type=["json"], key="decks_upload",
        on_change=_open_file, max_upload_size=1,
    )  # fmt: skip
    st.button(
        "Start a new, empty lesson", key="decks_new", icon=":material/add:",
        on_click=lambda: player.keep(decks.empty("My lesson")),
    )  # fmt: skip

if error := st.session_state.pop("decks_error", None):  # outside the expander: seen even if it folds
    st.error(escape_markdown(error), icon=":material/error:")
if mine is None:
    st.info(
        "No lesson of your own yet: press “Add this view to my lesson” in the sidebar of any lesson page, "
        "edit a copy of a ready-made one, or open a lesson file.",
        icon=":material/info:",
    )
    url.stop()


def _change(change, *args) -> None:
    deck = player.mine()
    if deck is None:
        return
    try:
        player.keep(change(deck, *args))
    except decks.DeckError as error:
        st.session_state["decks_error_edit"] = str(error)


def _retitle_deck() -> None:
    title = st.session_state.get("decks_title") or ""
    _change(lambda d: decks.Deck(title.strip() or d.title, d.about, d.slides))


def _retitle(i: int, key: str) -> None:
    _change(decks.retitle, i, st.session_state.get(key) or "")


def _title_key(i: int, slide: decks.Slide) -> str:
    # Keyed by the slide as well as its place: a box keeps its text when its default changes, so
    # after a move it would show the title of the slide that was there before.
    kept = repr((slide.title, slide.page, tuple(slide.view.items())))
    return f"decks_slide_title_{i}_{zlib.crc32(kept.encode())}"


st.text_input("Title", mine.title, key="decks_title", on_change=_retitle_deck, max_chars=decks.MAX_TITLE)
if error := st.session_state.pop("decks_error_edit", None):
    st.error(escape_markdown(error), icon=":material/error:")
if not mine.slides:
    st.info("This lesson has no slide yet: add views from the lesson pages.", icon=":material/info:")
for i, slide in enumerate(mine.slides):
    with st.container(border=True, key=f"decks_slide_{i}"):
        with st.container(horizontal=True, vertical_alignment="bottom"):
            title_key = _title_key(i, slide)
            st.text_input(
                f"Slide {i + 1} ({_page_title(slide)})", slide.title, key=title_key,
                on_change=_retitle, args=(i, title_key), max_chars=decks.MAX_TITLE,
            )  # fmt: skip
            st.button("Up", key=f"decks_up_{i}", icon=":material/arrow_upward:", disabled=i == 0,
                      on_click=_change, args=(decks.move, i, i - 1))  # fmt: skip
            st.button("Down", key=f"decks_down_{i}", icon=":material/arrow_downward:",
                      disabled=i + 1 == len(mine.slides), on_click=_change, args=(decks.move, i, i + 1))  # fmt: skip
            st.button("Remove", key=f"decks_remove_{i}", icon=":material/delete:",
                      on_click=_change, args=(decks.remove, i))  # fmt: skip
        st.button("Play from here", key=f"decks_play_mine_{i}", on_click=player.go,
                  args=(player.slide_link(player.MINE, mine, i),), icon=":material/play_arrow:")  # fmt: skip
        for j, question in enumerate(slide.questions):
            with st.container(horizontal=True, vertical_alignment="center"):
                st.markdown(f"{j + 1}. {escape_markdown(player.short(question, slide))}", width="content")
                st.button("Remove the question", key=f"decks_q_{i}_{j}", icon=":material/close:",
                          on_click=_change, args=(decks.without_question, i, j))  # fmt: skip

if mine.slides:
    st.button("Play your lesson", key="decks_play_mine", on_click=player.go, type="primary",
              args=(player.slide_link(player.MINE, mine, 0),), icon=":material/play_arrow:")  # fmt: skip
    st.subheader("Save and print", divider=False)
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.download_button(
            "Save the lesson (JSON)", decks.dumps(mine).encode(), file_name="lesson.json",
            mime="application/json", icon=":material/download:", on_click="ignore", key="decks_save",
        )  # fmt: skip
        paper = st.radio("Paper", ["A4", "Letter"], horizontal=True, key="decks_paper")

    # A button per paper and lesson: the file is made when it is pressed, by the function the
    # button was first given (a Letter press once made the A4 file the button began with).
    made_for = f"{paper}_{zlib.crc32(decks.dumps(mine).encode())}"

    def _pdf(which: str) -> bytes:
        from classic.viz import handout

        started = time.perf_counter()
        resolved = [decks.resolve(slide) for slide in mine.slides]
        made = (handout.handout if which == "handout" else handout.answer_key)(mine, resolved, paper=paper)
        st.session_state["decks_made_in"] = time.perf_counter() - started
        return made

    with st.container(horizontal=True):
        st.download_button(
            "Handout (PDF)", lambda: _pdf("handout"), file_name=f"lesson-handout-{paper}.pdf",
            mime="application/pdf", icon=":material/print:", on_click="ignore", key=f"decks_handout_{made_for}",
        )  # fmt: skip
        st.download_button(
            "Answer key (PDF)", lambda: _pdf("key"), file_name=f"lesson-answer-key-{paper}.pdf",
            mime="application/pdf", icon=":material/key:", on_click="ignore", key=f"decks_key_{made_for}",
        )  # fmt: skip
    st.caption(
        "The handout shows each slide's data and questions with room to write, never an answer; the key "
        "has the answers, computed by the lab, and why."
    )
