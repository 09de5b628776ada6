"""A lesson the teacher prepares (a deck: ``classic.lessons.decks``), in the pages.

- **Add this view to my lesson** (the sidebar of every lesson page) adds the view on the screen
  (its link values) as a slide of the browser's own deck, with the question asked at the top of
  the page if there is one. The deck lives in the browser's own storage (``remembered``), like the
  teacher's key: a reload keeps it, and no server holds it.
- **The slide bar** (the top of the page while a deck plays): the deck's title, "Slide 3 of 7",
  Previous and Next (PageUp / PageDown, as a presenter's clicker sends, and the arrow keys when no
  control has the focus), and a button per question of the slide, asked in order: of the class,
  when one is open, else of whoever is at the screen.

A deck plays by links: a slide is its page's link with ``deck`` (a ready-made deck's name, or
``mine``) and ``slide`` (1-based) beside the view's values, so a link opens a deck at a slide and
every value of a slide is read as any link's (checked, and noted when ignored). Going to a slide
loads its link.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from classic.lessons import Lesson, Step, decks, lesson_of
from pages.server import url
from pages.widgets import lesson, present, remembered

DECK_PARAM, SLIDE_PARAM = "deck", "slide"
MINE = "mine"  # the deck this browser keeps
CLASS = "class"  # the deck kept with the class this session teaches (another device of the teacher)
_MEMORY = "classic.deck"  # its name in the browser's storage
_KEPT = "_deck_mine"  # this session's copy of it: a Deck, or None once the browser said it has none
_WRITE = "_deck_write"  # the deck (JSON) for the browser to keep, until it says it back
_GO = "_deck_go"  # the link this run sends the browser to (a slide)
_NOTE = "_deck_note"
_NEED = "_deck_need"  # a page waits for the browser's own deck
_ARRIVED = "_deck_arrived"  # (deck, slide) whose first question this session has set up
_DEFAULT_TITLE = "My lesson"

# Arrow keys go to the next or previous slide while no control has the focus (a slider, a text
# field and a player keep their own arrow keys); PageDown and PageUp are the buttons' shortcuts.
_ARROWS = """<script>
(() => {
  if (window.__deckKeys) return;
  window.__deckKeys = true;
  document.addEventListener('keydown', (event) => {
    if (!['ArrowRight', 'ArrowLeft'].includes(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
    const t = event.target;
    if (t && (t.closest('input, textarea, select, [role="slider"], [contenteditable], iframe')
              || (t.shadowRoot && t !== document.body))) return;
    const key = event.key === 'ArrowRight' ? 'deck_next' : 'deck_previous';
    const button = document.querySelector(`.st-key-${key} button`);
    if (button && !button.disabled) { event.preventDefault(); button.click(); }
  });
})();
</script>"""


# ---- the browser's own deck ------------------------------------------------------------------


def mine() -> decks.Deck | None:
    """The deck this browser keeps (None: none yet, or the browser has not said)."""
    kept = st.session_state.get(_KEPT)
    return kept if isinstance(kept, decks.Deck) else None


def keep(deck: decks.Deck | None) -> None:
    """Make ``deck`` the browser's own (None: forget it); the browser stores it on the next run."""
    st.session_state[_KEPT] = deck
    # A lesson with no slide yet is this session's only: a file holds 1 to 40 slides.
    st.session_state[_WRITE] = "" if deck is None or not deck.slides else decks.dumps(deck)


def writing() -> bool:
    """Whether the browser has yet to say back the deck it was given (its answer reruns the page:
    a note about the change stays until then)."""
    return _WRITE in st.session_state


def known() -> bool:
    """Whether this session knows the browser's own deck (or that it keeps none)."""
    return _KEPT in st.session_state


def sync() -> None:
    """Read the browser's deck once a session, and write it when it changed (app.py, after every
    run of a teacher's page: a frameless component in the sidebar). A browser keeping no deck
    says nothing (no rerun for the many who have none), unless a page needs the answer (your
    lesson, a slide of it: ``need_mine``), which is drawn again once it has come."""
    write = st.session_state.get(_WRITE)
    quiet = not st.session_state.get(_NEED, False)
    if write is None and known():
        return
    with st.sidebar:
        said = remembered.remembered(
            _MEMORY, "deck_memory", write=write or None, forget=write == "", quiet=quiet and write is None,
            limit=decks.MAX_BYTES,
        )  # fmt: skip
    if write is not None:
        if said == write or (write == "" and said == ""):
            st.session_state.pop(_WRITE, None)
        return
    if said is None:
        return  # not said yet (or keeps nothing: quiet)
    try:
        st.session_state[_KEPT] = decks.load(said) if said else None
    except decks.DeckError as error:
        st.session_state[_KEPT] = None
        st.session_state[_NOTE] = f"The lesson this browser kept could not be read: {error}"
    if st.session_state.pop(_NEED, False):
        st.rerun()  # the page that waited for it, drawn with it


def need_mine() -> None:
    """Before a page that shows the browser's own deck: wait for the browser to say it (one
    short run, "Opening your lesson…", the sidebar's controls still there), so the page is drawn
    with it, never without it first. The run's ``sync`` asks the browser to say even "none"."""
    if known():
        return
    st.session_state[_NEED] = True
    st.caption("Opening your lesson…")
    url.stop()


# ---- playing a deck --------------------------------------------------------------------------


def playing() -> tuple[str, decks.Deck, int] | None:
    """The deck the link plays, its name and the slide shown (0-based), or None."""
    name, at = st.query_params.get(DECK_PARAM), st.query_params.get(SLIDE_PARAM)
    if not name or not at or not at.isdigit():
        return None
    if name == MINE:
        need_mine()
        deck = mine()
    elif name == CLASS:
        kept = lesson.class_hook().kept_deck()
        try:
            deck = decks.load(kept) if kept else None
        except decks.DeckError:
            deck = None
    elif name in decks.READY:
        try:
            deck = decks.ready(name)
        except decks.DeckError:
            return None
    else:
        return None
    if deck is None or not 1 <= int(at) <= len(deck.slides):
        return None
    return name, deck, int(at) - 1


def slide_link(name: str, deck: decks.Deck, i: int) -> str:
    """The relative link of slide ``i`` (0-based) of ``deck``, which plays it."""
    slide = deck.slides[i]
    values = {key: _text(value) for key, value in slide.view.items()}
    if present.is_on():
        values[present.KEY] = "true"
    return f"/{slide.page}?" + urlencode({**values, DECK_PARAM: name, SLIDE_PARAM: i + 1})


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def go(link: str) -> None:
    """Send the browser to ``link`` on the next run (a callback: a slide is a link it loads)."""
    st.session_state[_GO] = link


def bar(page_path: str) -> None:
    """The slide bar at the top of the page while a deck plays (app.py, before the page)."""
    # Kept, not popped: a rerun (the browser's storage saying a value back) can stop this run
    # before the script reaches the browser; the page load that follows is a new session.
    target = st.session_state.get(_GO)
    if target is not None:  # a slide is a link: the browser loads it
        st.html(
            f"<script>window.location.assign({json.dumps(target)});</script>", unsafe_allow_javascript=True
        )
    found = playing()
    hook = lesson.class_hook()
    if found is None:
        hook.on_slide("", 0, "")
        return
    name, deck, i = found
    slide = deck.slides[i]
    if slide.page == page_path:  # a class keeps the deck, and the slide of each question asked
        hook.on_slide(decks.dumps(deck), i + 1, slide.title)
    if slide.page == page_path and st.session_state.get(_ARRIVED) != (name, i):
        # A slide opens with its first question set up, its answer hidden: an honest view from
        # the first frame the hall sees (the question goes to the phones with "Ask").
        st.session_state[_ARRIVED] = (name, i)
        if slide.questions:
            _ask(slide, 0, i, ask=False)
    with st.container(border=True, key="deck_bar"):
        with st.container(horizontal=True, vertical_alignment="center", gap="small"):
            st.markdown(
                f":material/slideshow: **{_plain(deck.title)}** · slide {i + 1} of {len(deck.slides)}: "
                f"{_plain(slide.title)}",
                width="content",
            )
            st.space("stretch")
            st.button(
                "Previous", key="deck_previous", icon=":material/navigate_before:", disabled=i == 0,
                on_click=go, args=(slide_link(name, deck, max(0, i - 1)),), shortcut="pageup",
                help="The previous slide (PageUp, or ← when no control has the focus).",
            )  # fmt: skip
            st.button(
                "Next", key="deck_next", icon=":material/navigate_next:", disabled=i + 1 >= len(deck.slides),
                on_click=go, args=(slide_link(name, deck, min(len(deck.slides) - 1, i + 1)),), shortcut="pagedown",
                help="The next slide (PageDown, or → when no control has the focus).",
            )  # fmt: skip
        if slide.page != page_path:
            st.page_link(
                f"pages/{lesson_of(slide.page).page}" if lesson_of(slide.page) else "pages/home.py",
                label=f"Back to slide {i + 1}",
                icon=":material/undo:",
            )
            return
        if slide.questions:
            with st.container(horizontal=True, gap="small", key="deck_questions"):
                for j, question in enumerate(slide.questions):
                    st.button(
                        f"Ask {j + 1}: {short(question, slide)}", key=f"deck_ask_{j}",
                        on_click=_ask, args=(slide, j, i), icon=":material/campaign:",
                    )  # fmt: skip
    st.html(_ARROWS, unsafe_allow_javascript=True)


def _plain(text: str) -> str:
    from pages.server.url import escape_markdown

    return escape_markdown(text)


def short(question: decks.Question, slide: decks.Slide) -> str:
    if isinstance(question, decks.StepRef):
        text = f"Try this {question.n}"
    elif isinstance(question, decks.Made):
        text = question.step.title
    else:
        text = question.text
    return text if len(text) <= 40 else text[:39] + "…"


def _ask(slide: decks.Slide, j: int, at: int, ask: bool = True) -> None:
    """Set up question ``j`` of the slide at the top of the page and ask it (``ask``: of the
    class, if one is open): a step of the page, a question made while preparing, or the teacher's
    own."""
    question, page = slide.questions[j], slide.page
    hook = lesson.class_hook() if ask else lesson.ClassHook()  # the default hook asks no one
    # The page's own steps, as the page makes them (known before its first run here; a made
    # question is numbered after them).
    steps = st.session_state.setdefault(f"{page}_try_steps", decks.page_steps(page))
    if isinstance(question, decks.StepRef):
        if not 1 <= question.n <= len(steps):
            return
        step = steps[question.n - 1]
        lesson.set_up(page, question.n, step)
        hook.ask(page, question.n, step)
        return
    if isinstance(question, decks.Made):
        step = question.step
    elif hook.ask_own(page, question):  # the teacher's own, asked of the class as written
        return
    else:  # the teacher's own, at the screen: a choice the student can pick
        options = question.choices
        right = (
            options[question.answer]
            if question.answer is not None and 0 <= question.answer < len(options)
            else ""
        )
        step = Step(
            "Your question",
            {},
            question.text,
            options,
            right or (options[0] if options else ""),
            question.why,
        )
    i = lesson.add_step(page, step, "deck")
    if i is not None:
        lesson.set_up(page, i, step)
        hook.ask(page, i, step)


# ---- adding the view on the screen -------------------------------------------------------------


def add_button(page_path: str) -> None:
    """ "Add this view to my lesson" in the sidebar of a lesson page."""
    found = lesson_of(page_path)
    if found is None:
        return
    deck = mine()
    st.sidebar.button(
        "Add this view to my lesson", key="deck_add", icon=":material/playlist_add:",
        on_click=_add, args=(found,),
        help="A slide of the lesson you prepare (Lessons to teach): this view, and the question asked now if any.",
    )  # fmt: skip
    st.sidebar.page_link(
        "pages/decks.py",
        label="Your lesson" if deck is None else f"{deck.title}: {len(deck.slides)} slide(s)",
        icon=":material/slideshow:",
        help="Lessons to teach: edit your lesson, play it, print its handout; the ready-made lessons.",
    )
    if note := st.session_state.get(_NOTE):
        st.sidebar.info(note, icon=":material/info:")
        if not writing():
            st.session_state.pop(_NOTE, None)


def _asked_question(page: str) -> decks.Question | None:
    """The question asked at the top of the page now, as a deck keeps it."""
    asked = st.session_state.get(f"{page}_try_asked")
    if not isinstance(asked, int):
        return None
    made = lesson.extra(page, asked)
    if made is None:
        return decks.StepRef(asked)
    q = made.question
    if q is not None and hasattr(q, "kind"):  # the teacher's own question (class mode's Question)
        if q.kind == "number":
            return decks.Own(q.text, why=q.why, seconds=q.seconds, number=q.answer, tolerance=q.tolerance)
        return decks.Own(q.text, q.choices, q.answer, q.why, q.seconds)
    return decks.Made(made.step)


def _add(found: Lesson) -> None:
    page = found.url_path
    view = {key: value for key, value in st.query_params.items() if key.startswith(found.prefix)}
    question = _asked_question(page)
    deck = mine() or decks.empty(_DEFAULT_TITLE)
    slide = decks.Slide(
        f"{found.title}, view {len(deck.slides) + 1}", page, view, "", (question,) if question else ()
    )
    try:
        deck = decks.add_slide(deck, slide)
    except decks.DeckError as error:
        st.session_state[_NOTE] = str(error)
        return
    keep(deck)
    st.session_state[_NOTE] = (
        f"Added as slide {len(deck.slides)} of “{deck.title}”"
        + (" with the question asked." if question else ".")
        + " Edit it under Lessons to teach."
    )
