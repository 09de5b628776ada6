"""Class mode, the teacher's side: start a class, ask a "Try this" step, reveal, ask again, end.

- **Start a class** (the sidebar of every lesson page, below its controls, ``sidebar``) opens a room in the shared
  store; the top of the page then shows the join card (``card``): the room code, its QR code and
  the link the phones open, ``<server>/join?room=CODE``.
- The teacher's control is the room's secret key, in the teacher link
  (``?class=CODE&teacher=KEY``, shown on demand under "Control from another device", never in
  presentation mode) and in no student's link: the same link on a second device controls the same
  class. Once read, the key leaves the address bar and the browser keeps it in its own storage,
  so a reload or a page change keeps the class. Every action passes the key to the store, which
  checks it on the server.
- **Ask the class** beside each "Try this" step (``ask_button``) sets up the step's view and
  sends its question to the phones; at the top of the page the step then shows the class's
  round (``step_round``): the number of answers as they arrive (a fragment that reruns every
  second, no click), then, revealed, a bar per choice beside the right answer and why. "Ask
  again" opens a second round of the same question and shows both side by side.
- **End the class** closes the room; its answers download as CSV (a random id per phone and
  its optional nickname, no names; cells neutralised by ``downloads.table_csv``).

For other pages (the /digits "Draw together" round): ``active()`` is the class this session
teaches, or None; ``Teacher.ask(question)`` asks any ``rooms.Question`` (a drawing one too),
checked by the store like every teacher action.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from classic.lessons import lesson_of
from pages.classroom import class_view, kinds, room_store, rooms
from pages.classroom.rooms import Question, RoomError, Round
from pages.server import url
from pages.widgets import downloads, lesson, present, remembered

CODE_PARAM = "class"  # the teacher's link: ?class=CODE&teacher=KEY
KEY_PARAM = "teacher"
_TEACHER = "_class_teacher"  # (code, key) of the class this session teaches
_HIDDEN = "_class_card_hidden"
_NOTE = "_class_note"
_SEEN = "_class_round_seen"  # the class's round the page last showed (code, number)
_CARD_SEEN = "_class_round_seen_by_card"
_FOLDED_AT = "_class_card_folded_at"
_SESSION = "_class_session"  # a random id of this session: what opening rooms is limited by
_MEMORY = "classic.teacher"  # the browser's own storage: [code, key] of the class it teaches
_REMEMBER = "_class_remember"  # the teacher's [code, key] for the browser to keep, once
_FORGET_KEPT = "_class_forget_kept"  # the round the join card last folded itself for
_SLIDE = "_class_deck_slide"  # (number, title) of the deck's slide this page shows, while one plays
_DECK_KEPT = "_class_deck_kept"  # (code, hash) of the deck last kept with the class
_SHOWN_VOTES = "_class_shown_votes"  # (code, round) whose votes the teacher shows before the reveal
SIDE_BY_SIDE = 3  # at most this many rounds of one question on the projector at once
_UNREACHABLE = "The class cannot be reached right now: try again in a moment."


@dataclass(frozen=True)
class Teacher:
    """The class this session teaches: its code, its key, and the store it lives in."""

    code: str
    key: str
    store: room_store.RoomStore

    def ask(self, question: Question) -> Round:
        return self.store.ask(self.code, self.key, question)

    def __repr__(self) -> str:  # never the key
        return f"Teacher({self.code})"


def _held() -> Teacher | None:
    held = st.session_state.get(_TEACHER)
    return None if not held else Teacher(*held, room_store.shared_store())


def active() -> Teacher | None:
    """The open class this session teaches, or None (no class, or it has ended)."""
    teacher = _held()
    if teacher is None:
        return None
    room = attempt(teacher.store.room, teacher.code)
    return teacher if room is not None and not room.ended else None


def taught() -> Teacher | None:
    """The class this session teaches or taught, open or ended, until it expires (its report)."""
    teacher = _held()
    if teacher is None:
        return None
    return teacher if attempt(teacher.store.room, teacher.code) is not None else None


def attempt(action: Callable, *args: Any) -> Any:
    """Run a store action; a refusal or an unreachable store becomes a note in the sidebar, not a
    traceback (None is returned)."""
    try:
        return action(*args)
    except RoomError as error:
        st.session_state[_NOTE] = str(error)
    except room_store.unavailable_errors():
        st.session_state[_NOTE] = _UNREACHABLE
    return None


def question_of(page: str, i: int, step: Any) -> Question:
    """Step ``i`` of ``page``'s "Try this" as a question for the phones (its id ``page.i``); a
    question made since (``lesson.extra``) keeps its own id, follows the step it is of the same
    kind as, and a teacher's own question is asked as written."""
    made = lesson.extra(page, i)
    if made is not None and isinstance(made.question, Question):
        return made.question
    options = tuple(str(option) for option in step.options)
    answer = options.index(str(step.answer)) if str(step.answer) in options else -1
    follows = "" if made is None or made.root is None else f"{page}.{made.root}"
    return Question(
        lesson.qid_of(page, i), str(step.question), options, answer, str(step.why), follows=follows
    )


# ---- the teacher's link ------------------------------------------------------------------


def take_link() -> None:
    """Take the class from the teacher's link, and the key out of the address at once (a
    projected address bar is photographed); the browser keeps it instead (``remembered``), so a
    reload, or another page of the app, still teaches the class. Before the page (and ``card``),
    so that the page's "Ask the class" buttons know the class."""
    code, key = st.query_params.get(CODE_PARAM), st.query_params.get(KEY_PARAM)
    if code is not None or key is not None:
        for param in (CODE_PARAM, KEY_PARAM):
            st.query_params.pop(param, None)
        if attempt(room_store.shared_store().is_teacher, code, key):
            st.session_state[_TEACHER] = (rooms.check_code(code), key)
            st.session_state[_REMEMBER] = json.dumps(st.session_state[_TEACHER])
        else:
            st.session_state.setdefault(
                _NOTE, "This teacher link opens no class: the class expired, or the link is not whole."
            )
    with st.sidebar:
        # A write (or a forget) is mounted until the browser says it back: a run cut short by a
        # rerun may never have reached the browser.
        if st.session_state.get(_TEACHER):
            if (write := st.session_state.get(_REMEMBER)) is not None:
                if remembered.remembered(_MEMORY, "class_teacher_memory", write=write) == write:
                    st.session_state.pop(_REMEMBER, None)
            return
        forget = st.session_state.get(_FORGET_KEPT, False)
        kept = remembered.remembered(_MEMORY, "class_teacher_memory", forget=forget, quiet=not forget)
        if forget and kept == "":
            st.session_state.pop(_FORGET_KEPT, None)
    if not kept or forget:
        return
    try:
        code, key = json.loads(kept)
    except (ValueError, TypeError):
        return
    room = attempt(room_store.shared_store().room, code) if isinstance(code, str) else None
    if room is not None and not room.ended and attempt(room_store.shared_store().is_teacher, code, key):
        st.session_state[_TEACHER] = (room.code, key)


def _teacher_link(base: str, page_path: str, teacher: Teacher) -> str:
    from urllib.parse import urlencode

    return f"{base}/{page_path}?" + urlencode({CODE_PARAM: teacher.code, KEY_PARAM: teacher.key})


# ---- the teacher's actions (button callbacks: they run before the page) -------------------


def _start() -> None:
    # The limit on opening rooms is this session's, never an address a class shares.
    session = st.session_state.setdefault(_SESSION, rooms.new_key())
    size = st.session_state.get("class_size", rooms.CLASS_SIZE)
    opened = attempt(room_store.shared_store().open_room, session, int(size))
    if opened is not None:
        st.session_state[_TEACHER] = opened
        st.session_state[_REMEMBER] = json.dumps(opened)  # the browser keeps the key, not the address
        st.session_state[_HIDDEN] = False


def _forget() -> None:
    st.session_state.pop(_TEACHER, None)
    st.session_state[_FORGET_KEPT] = True  # and the browser forgets the key


def _end() -> None:
    teacher = _held()
    if teacher is not None:
        attempt(teacher.store.end, teacher.code, teacher.key)


def _ask(page: str, i: int, step: Any, before: Callable[[], None] | None) -> None:
    teacher = _held()
    if teacher is None:
        return
    if before is not None:
        before()
    _asked(teacher, attempt(teacher.ask, question_of(page, i, step)))


def _ask_now(page: str, i: int, step: Any) -> None:
    """Ask step ``i`` (its view set up already) of this session's class, if it teaches one."""
    teacher = _held()
    if teacher is not None:
        _asked(teacher, attempt(teacher.ask, question_of(page, i, step)))


def _asked(teacher: Teacher, asked: Round | None) -> None:
    """Note the deck's slide a question was asked on, while a deck plays (the report's slides)."""
    slide = st.session_state.get(_SLIDE)
    if asked is not None and slide is not None:
        attempt(teacher.store.note_slide, teacher.code, teacher.key, asked.question.qid, *slide)


def on_slide(deck_text: str, slide: int, title: str) -> None:
    """A deck plays slide ``slide`` on this page: the class keeps the deck (once: it changes
    rarely) and the questions asked now are noted as this slide's."""
    if not slide:  # no deck plays on this page
        st.session_state.pop(_SLIDE, None)
        return
    teacher = active()
    if teacher is None:
        return
    st.session_state[_SLIDE] = (slide, title)
    kept = (teacher.code, hash(deck_text))
    if st.session_state.get(_DECK_KEPT) != kept:
        attempt(teacher.store.keep_deck, teacher.code, teacher.key, deck_text)  # a refusal is noted
        st.session_state[_DECK_KEPT] = kept


def _stop() -> None:
    teacher = _held()
    if teacher is not None:
        attempt(teacher.store.stop, teacher.code, teacher.key)


def _reveal() -> None:
    teacher = _held()
    if teacher is not None:
        attempt(teacher.store.reveal, teacher.code, teacher.key)


def _ask_again() -> None:
    teacher = _held()
    if teacher is not None:
        attempt(teacher.store.ask_again, teacher.code, teacher.key)


def _export(teacher: Teacher) -> Callable[[], bytes]:
    # Built when the button is pressed, with the key checked then.
    return lambda: downloads.table_csv(teacher.store.export(teacher.code, teacher.key))


# ---- the sidebar and the join card --------------------------------------------------------


def sidebar(page_path: str) -> None:
    """The sidebar's class controls: "Start a class", or the class taught and "End the class".
    app.py writes them after the page, below the page's own controls (``take_link`` first)."""
    teacher = _held()
    with st.sidebar.container(key="class_box"):
        if teacher is None:
            st.number_input(
                "Class size", 1, rooms.MAX_CLASS_SIZE, rooms.CLASS_SIZE, key="class_size",
                help="Phones beyond it wait for your OK to join.",
            )  # fmt: skip
            st.button(
                "Start a class", key="class_start", icon=":material/groups:", on_click=_start, width="stretch"
            )
            st.caption(
                'Students answer the "Try this" steps on their phones; the projector shows the class\'s answers.'
            )
        else:
            room = attempt(teacher.store.room, teacher.code)
            if room is None and st.session_state.get(_NOTE) == _UNREACHABLE:
                # The store is down for a moment: keep the class (and its key) for when it is back.
                st.markdown(f"**Class {teacher.code}**")
            elif room is None:
                st.session_state.setdefault(_NOTE, f"Class {teacher.code} has expired.")
                _forget()
            elif room.ended:
                st.markdown(f"**Class {room.code} has ended.**")
                st.download_button(
                    "Download the answers (CSV)",
                    _export(teacher),
                    file_name=f"class-{room.code}-answers.csv",
                    mime="text/csv",
                    key="class_download",
                    icon=":material/download:",
                    on_click="ignore",
                )
                _report_link()
                st.button("Close this class", key="class_forget", on_click=_forget, icon=":material/close:")
            else:
                _open_controls(teacher, page_path)
        note = st.session_state.pop(_NOTE, None)
        if note:
            st.warning(note, icon=":material/warning:")


def _report_link() -> None:
    st.page_link(
        f"pages/{class_view.REPORT_PAGE}.py", label="What was missed", icon=":material/summarize:",
        help="The class's report: each question's votes, its most common wrong answer, who changed their mind.",
    )  # fmt: skip


def _open_controls(teacher: Teacher, page_path: str) -> None:
    st.markdown(f"**Class {teacher.code}**")
    hidden = st.session_state.get(_HIDDEN, False)
    st.button(
        "Show the join code" if hidden else "Hide the join code",
        key="class_card_toggle",
        on_click=lambda: st.session_state.__setitem__(_HIDDEN, not hidden),
        icon=":material/qr_code_2:",
    )
    base = class_view.base_url(st.context.url, page_path)
    if class_view.is_local(base):
        st.caption(
            "A phone cannot open a link to this computer's own name (localhost): open this page "
            "with the computer's network address, and the join link and QR code will use it."
        )
    if present.is_on():  # a projected screen never shows the key, not even on demand
        st.caption(
            "The teacher link (to control this class from another device) shows outside presentation mode."
        )
    else:
        with st.popover("Control from another device", icon=":material/devices:"):
            st.markdown(
                "Open this link on another device (a laptop, your phone) to control the same class. "
                "Keep it to yourself: whoever has it can ask, reveal and end. This browser keeps it, "
                "not its address bar."
            )
            st.code(_teacher_link(base, page_path, teacher), language=None, wrap_lines=True)
            st.markdown("Review the class's drawings on your own device, where the hall cannot see them:")
            st.code(_teacher_link(base, class_view.REVIEW_PAGE, teacher), language=None, wrap_lines=True)
    if lesson_of(page_path) is not None:
        own_question(page_path)
    _report_link()
    with st.popover("End the class", icon=":material/stop_circle:"):
        st.markdown("The phones will see that the class has ended; its answers can then be downloaded.")
        st.button("End the class now", key="class_end", on_click=_end, type="primary")


# ---- the teacher's own question -----------------------------------------------------------

OWN_KINDS = {
    "Choices, one of them right": kinds.CHOOSE,
    "Choices, no right one (an opinion)": kinds.OPINION,
    "A number": kinds.NUMBER,
}
_OWN = "class_own_"  # the form's widget keys
_OWN_TEXT = 500  # a question the teacher types (the store allows rooms.MAX_TEXT)


def own_question(page: str) -> None:
    """ "Ask your own question": a text and 2–8 choices with the right one (or none, for an
    opinion), or a number with a tolerance, and an optional timer. It is checked as every
    question is (``kinds.checked``), shown as text, and asked at the top of the page."""
    with st.popover("Ask your own question", icon=":material/edit_note:"):
        with st.form(key=f"{_OWN}form", border=False):
            st.text_area("Question", max_chars=_OWN_TEXT, key=f"{_OWN}text")
            st.radio("Answered with", list(OWN_KINDS), key=f"{_OWN}kind")
            st.text_area(
                f"Choices, one a line (2 to {rooms.MAX_CHOICES})", key=f"{_OWN}choices", max_chars=2000,
                help="For a question with choices.",
            )  # fmt: skip
            st.number_input("The right choice (its line)", 1, rooms.MAX_CHOICES, 1, key=f"{_OWN}right")
            left, right = st.columns(2)
            left.number_input("The number", value=0.0, format="%g", key=f"{_OWN}number")
            right.number_input("Right within ±", 0.0, value=0.0, format="%g", key=f"{_OWN}tolerance")
            st.number_input(
                "Timer in seconds (0: none)", 0, rooms.MAX_SECONDS, 0, step=10, key=f"{_OWN}seconds"
            )
            st.text_input("Why (shown at the reveal; optional)", max_chars=_OWN_TEXT, key=f"{_OWN}why")
            st.form_submit_button("Ask the class", type="primary", on_click=_ask_own, args=(page,))


def own_from(values: dict[str, Any], qid: str) -> Question:
    """The teacher's question from the form's values, checked (``RoomError`` says what is wrong)."""
    text = " ".join(str(values.get("text") or "").split())
    if not text:
        raise RoomError("Type the question first.")
    kind = OWN_KINDS.get(values.get("kind"), kinds.CHOOSE)
    why = url.escape_markdown(str(values.get("why") or ""))
    seconds = int(values.get("seconds") or 0)
    if kind == kinds.NUMBER:
        answer, tolerance = values.get("number"), values.get("tolerance") or 0.0
        return kinds.checked(Question(qid, text, (), answer, why, kind, float(tolerance), seconds))
    choices = tuple(" ".join(line.split()) for line in str(values.get("choices") or "").splitlines())
    choices = tuple(choice for choice in choices if choice)
    if len(set(choices)) != len(choices):
        raise RoomError("Two choices are the same: each choice once.")
    right = int(values.get("right") or 1) - 1
    if kind == kinds.CHOOSE and not 0 <= right < len(choices):
        raise RoomError(f"The right choice is one of the {len(choices)} lines.")
    return kinds.checked(
        Question(qid, text, choices, right if kind == kinds.CHOOSE else -1, why, kind, 0.0, seconds)
    )


def _ask_own(page: str) -> None:
    teacher = _held()
    if teacher is None:
        return
    values = {name: st.session_state.get(f"{_OWN}{name}") for name in
              ("text", "kind", "choices", "right", "number", "tolerance", "seconds", "why")}  # fmt: skip
    try:
        q = own_from(values, "own.check")
    except RoomError as error:
        st.session_state[_NOTE] = str(error)
        return
    if _ask_own_question(page, q, teacher):
        st.session_state[f"{_OWN}text"] = ""  # asked: the form is ready for the next one


def _ask_own_question(page: str, q: Question, teacher: Teacher) -> bool:
    """Keep ``q`` as the page's next made step, set it up at the top and ask it; whether it was."""
    shown = q.choices[q.answer] if q.kind == kinds.CHOOSE else ""
    step = lesson.Step("Your question", {}, q.text, q.choices, shown, q.why)
    i = lesson.add_step(page, step, "own")
    if i is None:
        st.session_state[_NOTE] = "This page holds too many questions: reload it to start again."
        return False
    q = Question(lesson.qid_of(page, i), *dataclasses.astuple(q)[1:])
    lesson.keep_question(page, i, q)
    lesson.set_up(page, i, step)
    asked = attempt(teacher.ask, q)
    _asked(teacher, asked)
    return asked is not None


def ask_deck_own(page: str, own: Any) -> bool:
    """Ask a deck's own question (``decks.Own``) of this session's class at the top of ``page``;
    False without an open class. Checked as every question is."""
    teacher = active()
    if teacher is None:
        return False
    kind = kinds.NUMBER if own.number is not None else kinds.OPINION if own.answer == -1 else kinds.CHOOSE
    values = {
        "text": own.text, "kind": next(label for label, k in OWN_KINDS.items() if k == kind),
        "choices": "\n".join(own.choices), "right": (own.answer or 0) + 1, "number": own.number,
        "tolerance": own.tolerance, "seconds": own.seconds, "why": own.why,
    }  # fmt: skip
    try:
        q = own_from(values, "own.check")
    except RoomError as error:
        st.session_state[_NOTE] = str(error)
        return True
    _ask_own_question(page, q, teacher)
    return True


def card(page_path: str) -> None:
    """The join card at the top of the page while a class is open (or one line, once hidden)."""
    teacher = active()
    if teacher is None:
        return
    link = class_view.join_link(class_view.base_url(st.context.url, page_path), teacher.code)
    current = attempt(teacher.store.current, teacher.code)
    asked = (teacher.code, 0 if current is None else current.number)
    if st.session_state.get(_FOLDED_AT) != asked:
        # A new question folds the card to one line: the question and its figure get the screen
        # (the teacher can show the code again).
        st.session_state[_FOLDED_AT] = asked
        if asked[1]:
            st.session_state[_HIDDEN] = True
    with st.container(key="class_card"):
        if st.session_state.get(_HIDDEN, False):
            st.markdown(f":material/groups: **Class {teacher.code}** · join at `{link}`")
        else:
            st.html(class_view.join_card(teacher.code, link))
        _joined(teacher.code)


@st.fragment(run_every=2)
def _joined(code: str) -> None:
    """How many phones joined, kept up to date; a class ended elsewhere (the teacher's other
    device) reruns the page."""
    store = room_store.shared_store()
    room = attempt(store.room, code)
    if room is None or room.ended:
        st.rerun()
    # A question asked from the teacher's other device: this page reruns to show it.
    current = attempt(store.current, code)
    number = (code, 0 if current is None else current.number)
    if st.session_state.setdefault(_CARD_SEEN, number) != number:
        st.session_state[_CARD_SEEN] = number
        st.rerun()
    joined, size = attempt(store.joined, code) or 0, attempt(store.size, code) or rooms.CLASS_SIZE
    waiting, locked = attempt(store.waiting, code) or [], bool(attempt(store.locked, code))
    with st.container(horizontal=True, vertical_alignment="center", key="class_joined"):
        refused = attempt(store.refused, code) or 0
        counted = (
            f"{joined} of {size} phones joined"
            if joined <= size
            else f"{joined} phones joined (class of {size})"
        )
        st.caption(
            counted
            + (" · the room is locked" if locked else "")
            # A script pouring in phones shows here, as the joins the room's rate turned away.
            + (f" · {refused} join{'s' * (refused != 1)} turned away (too many at once)" if refused else "")
        )
        if waiting:
            st.button(
                f"Let {len(waiting)} more in", key="class_admit", icon=":material/person_add:",
                on_click=lambda: attempt(store.admit, code, _held().key),
                help="More phones than the class's size asked to join: let them in if they are your students.",
            )  # fmt: skip
        st.button(
            "Open the room" if locked else "Lock the room", key="class_lock",
            icon=":material/lock_open:" if locked else ":material/lock:",
            on_click=lambda: attempt(store.lock, code, _held().key, not locked),
            help="Once everyone is in, no new phone can join.",
        )  # fmt: skip


# ---- "Try this" asked of the class ----------------------------------------------------------


def ask_button(
    page: str, i: int, step: Any, before: Callable[[], None] | None = None, where: str = ""
) -> None:
    """The "Ask the class" button of step ``i`` (none without an open class); ``before`` runs
    first (the lesson sets up the step's view). ``where`` tells apart the step's button in the
    list from its button at the top of the page."""
    if active() is None:
        return
    st.button(
        "Ask the class",
        key=f"{page}_class_ask_{i}{where}",
        icon=":material/campaign:",
        on_click=_ask,
        args=(page, i, step, before),
    )


def asked_step(page: str) -> int | None:
    """The step of ``page`` the class is asked now, once per round (None otherwise): the
    teacher's other device, or a reload, shows it at the top of the page like the device that
    asked it."""
    teacher = active()
    current = None if teacher is None else attempt(teacher.store.current, teacher.code)
    if current is None:
        return None
    seen = (teacher.code, current.number)
    if st.session_state.get(_SEEN) == seen:
        return None
    st.session_state[_SEEN] = seen
    asked_page, _, i = current.question.qid.rpartition(".")
    return int(i) if asked_page == page and i.isdigit() else None


def _chain(rounds: Sequence[Round], qid: str) -> list[Round]:
    """If question ``qid`` is the one asked last, the rounds about it asked one after the other up
    to it: its votes, and the question it is of the same kind as with that one's votes (peer
    instruction's vote 1, vote 2, same kind); else none."""
    if not rounds or rounds[-1].question.qid != qid:
        return []
    root, chain = rounds[-1].question.root, []
    for r in reversed(rounds):
        if r.question.root != root:
            break
        chain.append(r)
    return chain[::-1]


def _title(r: Round) -> str:
    return (
        f"Vote {r.attempt}"
        if not r.question.follows
        else "Same kind" + (f", vote {r.attempt}" * (r.attempt > 1))
    )


# Peer instruction's advice after a vote, by the share right (Crouch & Mazur 2001; Vickrey et al.
# 2015): below 35% the idea needs teaching again; between, a discussion and a second vote; above
# 70%, a short explanation and the next question.
ADVICE = (
    (0.35, "Below 35% right: go over the idea again (or ask something simpler), then vote again."),
    (0.70, "Between 35% and 70% right: students discuss with a neighbour, then vote again."),
    (1.01, "Above 70% right: explain briefly and move on, or check with a question of the same kind."),
)


def advice(right: int, total: int) -> str:
    share = right / total if total else 0.0
    return next(text for limit, text in ADVICE if share < limit)


def _shown_votes() -> set:
    return st.session_state.setdefault(_SHOWN_VOTES, set())


def _toggle_votes(code: str, number: int) -> None:
    shown = _shown_votes()
    shown.symmetric_difference_update({(code, number)})


def step_revealed(page: str, i: int) -> bool | None:
    """Whether the class's last round of step ``i`` is revealed (a class that has ended counts as
    revealed); None if the step is not the question this session's class was asked last."""
    teacher = _held()
    room = None if teacher is None else attempt(teacher.store.room, teacher.code)
    if room is None:
        return None
    chain = _chain(attempt(teacher.store.rounds, teacher.code) or [], lesson.qid_of(page, i))
    return None if not chain else chain[-1].revealed or room.ended


def step_round(page: str, i: int) -> bool:
    """The class's rounds of step ``i`` if it is the question asked now (or last, in a class that
    has ended: its answers stay on the screen, without the buttons); False if it is not.

    Peer instruction on the projector: while a vote is open, its count; once stopped, the share
    right and the advice that goes with it (the votes themselves only if the teacher shows them:
    seeing the majority sways a second vote); revealed, every vote of the chain side by side."""
    teacher = _held()
    room = None if teacher is None else attempt(teacher.store.room, teacher.code)
    if room is None:
        return False
    chain = _chain(attempt(teacher.store.rounds, teacher.code) or [], lesson.qid_of(page, i))
    if not chain:
        return False
    current, shown = chain[-1], chain[-SIDE_BY_SIDE:]
    q, kind = current.question, kinds.of(current.question)
    open_now = not current.closed(teacher.store.clock()) and not room.ended
    st.markdown(f":material/campaign: **Asked of the class:** {url.escape_markdown(q.text)}")
    if q.choices and not current.revealed and not room.ended:
        st.markdown("Choices: " + " · ".join(f"**{url.escape_markdown(choice)}**" for choice in q.choices))
    if current.revealed:  # the answer first: the votes under it may scroll inside the step's box
        st.success(
            f"The answer: **{url.escape_markdown(kind.answer_text(q))}**. {q.why}",
            icon=":material/check_circle:",
        )
    elif not open_now and not room.ended:
        _advice(teacher, chain)
    columns = st.columns(len(shown)) if len(shown) > 1 else [st.container()]
    for column, r in zip(columns, shown, strict=True):
        with column:
            if r is current and open_now:
                _live(teacher.code, r.number, _title(r), current.closes_at)
                continue
            r_kind = kinds.of(r.question)
            tally = attempt(teacher.store.counts, teacher.code, r.number) or r_kind.tally({}, r.question)
            if current.revealed or room.ended or (teacher.code, r.number) in _shown_votes():
                st.html(r_kind.results(_title(r), r.question, tally, current.revealed))
                if current.revealed and r.question is not q and r.question.qid != q.qid:
                    st.caption(f"Its answer: {url.escape_markdown(r_kind.answer_text(r.question))}")
            else:  # the votes stay off the screen until the teacher shows them or reveals
                joined = attempt(teacher.store.joined, teacher.code) or 0
                st.html(class_view.count_line(_title(r), sum(tally), joined, testid="class-votes-hidden"))
    if room.ended:
        st.caption(f"Class {room.code} has ended: these are its last answers.")
    return True


def _advice(teacher: Teacher, chain: Sequence[Round]) -> None:
    """After a vote: the share right of each vote so far, and what to do next (graded kinds)."""
    figures = []
    for r in chain:
        r_kind = kinds.of(r.question)
        tally = attempt(teacher.store.counts, teacher.code, r.number) or ()
        right = r_kind.right_count(tally, r.question) if tally else None
        if right is None:
            return
        figures.append((r, right, sum(tally)))
    if not figures:
        return
    said = " → ".join(f"{_title(r)}: **{right / total:.0%}** right ({right} of {total})" if total
                      else f"{_title(r)}: no answers" for r, right, total in figures)  # fmt: skip
    last, right, total = figures[-1]
    st.info(f"{said}. {advice(right, total)}", icon=":material/lightbulb:")


def round_buttons(page: str, i: int) -> None:
    """The class round's buttons beside the step's own (so the votes take the box's height):
    "Stop the vote" while it is open; then "Show the votes", "Vote again" and "Reveal"; once
    revealed, "Ask again". Nothing if step ``i`` is not asked now."""
    teacher = _held()
    room = None if teacher is None else attempt(teacher.store.room, teacher.code)
    if room is None or room.ended:
        return
    chain = _chain(attempt(teacher.store.rounds, teacher.code) or [], lesson.qid_of(page, i))
    if not chain:
        return
    current = chain[-1]
    if not current.closed(teacher.store.clock()):
        st.button(
            "Stop the vote", key=f"{page}_class_stop", on_click=_stop, type="primary", icon=":material/lock:",
            help="No more answers; the class sees how many were right, not which answer is.",
        )  # fmt: skip
    elif not current.revealed:
        graded = kinds.of(current.question).graded
        if graded:
            showing = (teacher.code, current.number) in _shown_votes()
            st.button(
                "Hide the votes" if showing else "Show the votes", key=f"{page}_class_votes",
                on_click=_toggle_votes, args=(teacher.code, current.number), icon=":material/bar_chart:",
                help="Seeing the majority sways a second vote: show the votes after it, or at the reveal.",
            )  # fmt: skip
        st.button(
            "Vote again", key=f"{page}_class_again", on_click=_ask_again, icon=":material/replay:",
            help="Peer instruction's second vote: discuss with a neighbour, then answer again; both votes are kept.",
        )  # fmt: skip
    if not current.revealed:
        st.button(
            "Reveal", key=f"{page}_class_reveal", on_click=_reveal,
            type="secondary" if not current.closed(teacher.store.clock()) else "primary",
            icon=":material/visibility:",
        )  # fmt: skip
    else:
        st.button(
            "Ask again", key=f"{page}_class_again", on_click=_ask_again, icon=":material/replay:",
            help="A new vote on the same question.",
        )  # fmt: skip


@st.fragment(run_every=1)
def _live(code: str, number: int, title: str, closes_at: float | None = None) -> None:
    """The number of answers to the open round, every second without a click; never who has not
    answered; the seconds left on a timer. When the round moves on elsewhere (another device
    revealed or stopped it) or its timer ends, the page reruns."""
    store = room_store.shared_store()
    current = attempt(store.current, code)
    if current is None or current.number != number or current.closed(store.clock()):
        st.rerun()
    answered = attempt(store.answered, code, number) or 0
    joined = attempt(store.joined, code) or 0
    st.html(class_view.count_line(title, answered, joined))
    if closes_at is not None:
        st.caption(f":material/timer: {max(0, math.ceil(closes_at - store.clock()))} s left")


class LessonHook(lesson.ClassHook):
    """Class mode as a lesson's "Try this" sees it (app.py installs it with ``lesson.set_class_hook``)."""

    def asked_step(self, page: str) -> int | None:
        return asked_step(page)

    def step_round(self, page: str, i: int) -> bool:
        return step_round(page, i)

    def ask_button(self, page, i, step, before=None, where=""):
        ask_button(page, i, step, before, where)

    def revealed(self, page: str, i: int) -> bool | None:
        return step_revealed(page, i)

    def round_buttons(self, page: str, i: int) -> None:
        round_buttons(page, i)

    def teaching(self) -> bool:
        return active() is not None

    def ask(self, page: str, i: int, step: Any) -> None:
        _ask_now(page, i, step)

    def ask_own(self, page: str, own: Any) -> bool:
        return ask_deck_own(page, own)

    def on_slide(self, deck_text: str, slide: int, title: str) -> None:
        on_slide(deck_text, slide, title)

    def kept_deck(self) -> str | None:
        teacher = active()
        return None if teacher is None else attempt(teacher.store.deck, teacher.code, teacher.key)
