"""Parts every lesson page has: a seed input, "Try this" steps, the "How it works" expander."""

from __future__ import annotations

import inspect
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any
from urllib.parse import urlencode

import numpy as np
import streamlit as st

from classic.lessons import Step, check_step, lesson_of, points
from classic.viz.theme import PAPER
from pages.widgets import present
from pages.widgets.points import MAX_URL_POINTS, YOURS, encode_points


class ClassHook:
    """What a lesson's "Try this" asks of class mode, without knowing it: none by default.

    app.py installs class mode's (``set_class_hook``); a lesson page never imports it.
    """

    def asked_step(self, page: str) -> int | None:
        """The step of ``page`` the class is asked now, once per round (None: none)."""
        return None

    def step_round(self, page: str, i: int) -> bool:
        """Show the class's answers to step ``i`` if it is asked now; False if it is not."""
        return False

    def ask_button(
        self, page: str, i: int, step: Step, before: Callable[[], None] | None = None, where: str = ""
    ) -> None:
        """An "Ask the class" button for step ``i`` (``before`` sets up its view first)."""

    def revealed(self, page: str, i: int) -> bool | None:
        """Whether the class's round of step ``i`` is revealed (None: not asked of the class)."""
        return None

    def round_buttons(self, page: str, i: int) -> None:
        """The class round's own buttons (reveal, ask again), beside the step's."""

    def teaching(self) -> bool:
        """Whether this session teaches an open class."""
        return False

    def ask(self, page: str, i: int, step: Step) -> None:
        """Ask the class step ``i`` (set up already): its question goes to the phones."""

    def on_slide(self, deck_text: str, slide: int, title: str) -> None:
        """A deck plays its slide ``slide`` (1-based): class mode keeps the deck with the class and
        notes the slide of each question asked while it shows."""

    def kept_deck(self) -> str | None:
        """The deck kept with this session's class (its file's text), for another device."""
        return None

    def ask_own(self, page: str, own: Any) -> bool:
        """Ask the class a teacher's own question of a deck (``classic.lessons.decks.Own``) at the
        top of ``page``; False when no class is open (the page then asks whoever is at the screen)."""
        return False


_hook = ClassHook()


def set_class_hook(hook: ClassHook) -> None:
    global _hook
    _hook = hook


def class_hook() -> ClassHook:
    """Class mode as the lessons' widgets reach it (a deck's slide bar asks through it)."""
    return _hook


def seed_input(key: str, default: int = 0, label: str = "Random seed") -> int:
    """A seed widget, in the URL: the same seed always gives the same data and results."""
    return int(
        st.number_input(
            label,
            min_value=0,
            max_value=2**31 - 1,
            value=default,
            step=1,
            key=key,
            bind="query-params",
            help="The same seed gives the same data and results, so a view can be reproduced.",
        )
    )


def how_it_works(
    *code: Callable | type, formulas: Sequence[str] = (), text: str = "", expanded: bool = False
) -> None:
    """The "How it works" expander: the explanation, the formulae, and the code that ran.

    Drawn only while open (a rerun when it opens): the code and the formulae load megabytes of the
    browser's syntax highlighting and KaTeX, which a page's first render need not wait for.
    """
    with st.expander("How it works", expanded=expanded, key="how_it_works", on_change="rerun") as box:
        if not box.open:
            return
        if text:
            st.markdown(text)
        for formula in formulas:
            st.latex(formula)
        for obj in code:
            st.caption(f"`{obj.__module__}.{obj.__qualname__}`")
            st.code(inspect.getsource(obj), language="python")


def step_link(page: str, setup: dict[str, Any]) -> str:
    """The relative URL of a page with the step's widget values as query parameters."""
    return f"/{page}?" + urlencode({key: _url_text(value) for key, value in setup.items()})


def _url_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def step_slot() -> None:
    """Keep the top of the page for the "Try this" step being asked (app.py, before the page).

    The steps are at the bottom of a page, far below the figure a step sets up: the step set up
    is asked up here instead, right above that figure, so a class sees both on one screen.
    """
    _slot.box = st.container(key="try_slot")


def hidden(page: str, part: str) -> bool:
    """Whether ``part`` of ``page`` would give away the answer of the step asked now, which is
    not yet revealed: the page then leaves it out (and says so with ``withheld``).

    A step is asked from "Set up this view" (or "Ask the class") until it is closed; it is
    revealed once the student chose an answer, or, asked of a class, once the teacher revealed it.
    """
    i = st.session_state.get(_asked(page))
    if not isinstance(i, int) or part not in st.session_state.get(_hiding(page), ()):
        return False
    return not revealed(page, i)


def revealed(page: str, i: int) -> bool:
    """Whether step ``i``'s answer has been revealed on this page."""
    of_class = _hook.revealed(page, i)
    if of_class is not None:
        return of_class
    # The radio's own value is set before the run; the answers kept are written only at the
    # page's foot, after the parts the page hid.
    key = f"{page}_try_{i}"
    return (
        st.session_state.get(key) is not None
        or st.session_state.get(f"{page}_try_answers", {}).get(key) is not None
    )


def withheld(where: Any = st, what: str = "This") -> None:
    """The note a page shows where it leaves out a part that would give the answer away."""
    where.caption(f":material/visibility_off: {what} is hidden until the answer is revealed.")


@dataclass(frozen=True)
class Extra:
    """A question made during the lesson, asked like a "Try this" step after the page's own:
    a question of the same kind as step ``root``, one about the view on the screen, or the
    teacher's own (``question``: class mode's own question object, kept as is)."""

    step: Step
    qid: str  # its id for the class (never "page.N": that is the page's own step N)
    root: int | None = None  # the page's step it is of the same kind as
    question: Any = None


MAX_EXTRAS = 200  # questions made on one page in one session: a lecture asks a few dozen


def _extras(page: str) -> list[Extra]:
    return st.session_state.setdefault(f"{page}_try_extra", [])


def add_step(page: str, step: Step, what: str, root: int | None = None, question: Any = None) -> int | None:
    """Keep a made question as the page's next step; its number (after the page's own steps),
    or None once the page holds ``MAX_EXTRAS``. ``what`` names its source in its id."""
    extras = _extras(page)
    if len(extras) >= MAX_EXTRAS:
        return None
    own = len(st.session_state.get(f"{page}_try_steps", ()))
    i = own + len(extras) + 1
    # A random tag: every page load is a new session, whose first made question would otherwise
    # take the id the last session's did (a deck's slides are page loads), and the class's report
    # would read two questions as one.
    tag = secrets.token_hex(3)
    extras.append(Extra(step, f"{page}.{i}.{what}{len(extras) + 1}-{tag}", root, question))
    return i


def keep_question(page: str, i: int, question: Any) -> None:
    """Keep class mode's own question object for made step ``i`` (the teacher's own question)."""
    own = len(st.session_state.get(f"{page}_try_steps", ()))
    extras = _extras(page)
    extras[i - own - 1] = replace(extras[i - own - 1], question=question)


def extra(page: str, i: int) -> Extra | None:
    """The made question that is step ``i`` of ``page`` (None: one of the page's own steps)."""
    own = len(st.session_state.get(f"{page}_try_steps", ()))
    extras = _extras(page)
    return extras[i - own - 1] if own < i <= own + len(extras) else None


def qid_of(page: str, i: int) -> str:
    """Step ``i``'s id for the class: ``page.i`` for the page's own steps."""
    made = extra(page, i)
    return made.qid if made is not None else f"{page}.{i}"


def _same_kind_maker(page: str, root: int) -> Callable | None:
    lesson = lesson_of(page)
    makers = getattr(lesson.questions(), "SAME_KIND", ()) if lesson is not None and lesson.module else ()
    return makers[root - 1] if 1 <= root <= len(makers) else None


def _same_kind(page: str, root: int) -> None:
    """Make step ``root`` anew (a new seed), set it up and ask it: of the class, with one open."""
    maker = _same_kind_maker(page, root)
    if maker is None:
        return
    seed = int(np.random.default_rng().integers(2**31))
    try:
        step = check_step(maker(np.random.default_rng(seed)))
    except ValueError:  # a maker's bad draw: one more try with another seed, then a note
        try:
            step = check_step(maker(np.random.default_rng(seed + 1)))
        except ValueError as error:
            st.session_state[_MADE_NOTE] = f"No question of the same kind could be made ({error})."
            return
    i = add_step(page, step, "same", root=root)
    if i is None:
        st.session_state[_MADE_NOTE] = (
            f"This page holds {MAX_EXTRAS} made questions: reload it to start again."
        )
        return
    _apply(page, i, step)
    _hook.ask(page, i, step)


_MADE_NOTE = "try_this_made_note"


def try_this(page: str, steps: Sequence[Step], expanded: bool = False) -> None:
    """The "Try this" sequence: each step sets up a view, asks, and reveals after a choice.

    "Set up this view" also moves the step to the top of the page, above the figure it changed
    (``step_slot``), and scrolls there; "Next step" sets up the following one. The steps are
    drawn only while open (a rerun when it opens): closed, its dozens of elements are neither
    sent nor re-rendered on every rerun. The answers chosen are kept while it is closed.
    """
    answers = st.session_state.setdefault(f"{page}_try_answers", {})
    st.session_state[f"{page}_try_steps"] = tuple(steps)  # what this page asks (tests read it)
    every = [*steps, *(made.step for made in _extras(page))]  # and the questions made since
    asked_of_class = _hook.asked_step(page)  # a step asked from the teacher's other device
    if asked_of_class is not None and 1 <= asked_of_class <= len(steps):
        st.session_state[_asked(page)] = asked_of_class
        if st.session_state.get(_hiding(page)) != steps[asked_of_class - 1].hides:
            # This run drew the page before it knew: again, with the step's parts hidden.
            st.session_state[_hiding(page)] = steps[asked_of_class - 1].hides
            st.rerun()
    asked = st.session_state.get(_asked(page))
    asked = asked if isinstance(asked, int) and 1 <= asked <= len(every) else None
    if asked is not None:
        _ask_at_the_top(page, every, len(steps), asked, answers)
    with st.expander(
        f"Try this: {len(steps)} predict-then-reveal steps",
        expanded=expanded,
        icon=":material/science:",
        key="try_this",
        on_change="rerun",
    ) as box:
        if not box.open:
            return
        for i, step in enumerate(steps, start=1):
            # A heading each (a screen reader's list of headings finds the steps; bold text is not one).
            st.markdown(f"##### {i}. {step.title}")
            with st.container(horizontal=True, vertical_alignment="center", gap="medium"):
                st.button(
                    "Set up this view",
                    key=f"{page}_try_{i}_setup",
                    on_click=_apply,
                    args=(page, i, step),
                    icon=":material/tune:",
                )
                # With a class open: the same, and the step's question sent to the phones.
                _hook.ask_button(page, i, step, before=partial(_apply, page, i, step))
                # Named by its step: six links all called "Link to this view" cannot be told apart.
                st.markdown(f"[Link to this view (step {i})]({step_link(page, step.setup)})", width="content")
            if i == asked:
                st.caption(":material/arrow_upward: Asked at the top of the page, above its figure.")
            else:
                _ask(page, i, step, answers)


def about_this_view(page: str, view: Callable[[], Mapping[str, Any]]) -> None:
    """ "Ask about this view": questions made from what the page shows now, by the kinds in the
    lesson's ``VIEW_QUESTIONS`` (``classic.lessons``). ``view`` builds the dict those kinds read;
    it is called only when a question is asked (never on an ordinary rerun), so the menu costs
    nothing until it is used."""
    lesson = lesson_of(page)
    kinds = getattr(lesson.questions(), "VIEW_QUESTIONS", ()) if lesson is not None and lesson.module else ()
    if not kinds:
        return
    with st.expander(
        "Ask about this view", icon=":material/help:", key=f"{page}_about_view", on_change="rerun"
    ) as box:
        if not box.open:
            return
        st.caption(
            "A question about what is on the screen now (your data, your settings), its answer computed "
            "and hidden until revealed." + (" It goes to the class's phones." if _hook.teaching() else "")
        )
        for kind in kinds:
            st.button(
                kind.label, key=f"{page}_about_{kind.name}", on_click=_about, args=(page, kind, view),
                icon=":material/campaign:" if _hook.teaching() else ":material/help:",
            )  # fmt: skip
        if note := st.session_state.pop(_VIEW_NOTE, None):
            st.info(note, icon=":material/info:")


_VIEW_NOTE = "try_this_view_note"


def _about(page: str, kind: Any, view: Callable[[], Mapping[str, Any]]) -> None:
    """Make the question ``kind`` asks of the view shown, set it up at the top and ask it."""
    try:
        fields = kind.make(view(), np.random.default_rng())
        step = None if fields is None else check_step(fields)
    except ValueError:
        step = None
    if step is None:
        st.session_state[_VIEW_NOTE] = (
            f"“{kind.label}” cannot be asked about this view: try another question."
        )
        return
    i = add_step(page, step, "view")
    if i is None:
        st.session_state[_VIEW_NOTE] = (
            f"This page holds {MAX_EXTRAS} made questions: reload it to start again."
        )
        return
    _apply(page, i, step)
    _hook.ask(page, i, step)


# The container step_slot keeps for this script run (one thread runs one session's script).
_slot = threading.local()
# A press of "Set up this view" (counted, so that each press sends a new script, which runs
# once): the page scrolls the step's figure (the first one under the step) up to just below the
# step, which stays at the top of the window. Nothing is fetched.
_SCROLL = "try_this_scroll"
_ROUND_SEEN = "try_this_round_seen"  # (step, its class round revealed) the page last placed
_FIGURE = ", ".join(
    f'[data-testid="stMain"] {figure}'
    for figure in (
        "iframe",
        "canvas",
        '[data-testid="stImage"] img',
        ".stVegaLiteChart",
        '[data-testid="stGraphVizChart"]',
        '[data-testid^="stBidiComponent"]',
    )
)
_SCROLL_JS = """<script data-run="RUN">
(() => {
  const started = Date.now();
  const scroller = el => {
    for (let n = el.parentElement; n; n = n.parentElement) {
      const y = getComputedStyle(n).overflowY;
      if ((y === 'auto' || y === 'scroll') && n.scrollHeight > n.clientHeight) return n;
    }
    return document.scrollingElement;
  };
  const place = () => {
    const step = document.querySelector('.st-key-try_slot');
    const figure = step && [...document.querySelectorAll(FIGURE)].find(f => !step.contains(f) && f.getClientRects().length);
    if (figure) {
      // Below the sticky box, which shows at most 45% of the window of a taller step.
      const box = step.closest('[data-testid="stLayoutWrapper"]') || step;
      const gap = figure.getBoundingClientRect().top - box.getBoundingClientRect().bottom - 8;
      if (Math.abs(gap) > 2) scroller(figure).scrollBy(0, gap);
    }
    if (Date.now() - started < 1500) requestAnimationFrame(place);
  };
  place();
})();
</script>"""
# The step stays at the top of the window while the page scrolls beneath it: under Streamlit's
# header, or, presenting, where the header is folded away, clear of the menu button hanging from
# the window's top right corner.
# A control focused by keyboard scrolls clear of the step (WCAG 2.4.11): the page's scroller keeps
# the step's greatest height free at its top, except while the focus is in the step itself (it
# would scroll the page to its top to show the step lower down).
_STICKY_CSS = """<style>
[data-testid="stLayoutWrapper"]:has(> .st-key-try_slot) {{
  position: sticky; top: {top}; z-index: 100; background: {paper}; padding: 0 {right} 0.3rem 0;
  max-height: 45vh; overflow-y: auto;
}}
.st-key-try_step {{ padding: 0.5rem 1rem; gap: 0.4rem; }}
[data-testid="stMain"]:has(.st-key-try_step):not(:has(.st-key-try_slot :focus)) {{
  scroll-padding-top: calc(45vh + 0.5rem + {top}px);  /* presenting, top is a bare 0 */
  scroll-padding-top: calc(45vh + 0.5rem + {top});  /* else a length (the line above is dropped) */
}}
</style>"""


def _asked(page: str) -> str:
    return f"{page}_try_asked"


def _hiding(page: str) -> str:
    return f"{page}_try_hiding"


def _ask(page: str, i: int, step: Step, answers: dict, horizontal: bool = False) -> None:
    """Step ``i``'s question, and its answer once one is chosen."""
    key, options = f"{page}_try_{i}", list(step.options)
    chosen = answers.get(key)
    index = options.index(chosen) if chosen in options else None
    choice = answers[key] = st.radio(step.question, options, index=index, key=key, horizontal=horizontal)
    if choice is None:
        if not horizontal:
            st.caption("Choose an answer to reveal it.")
    elif choice == step.answer:
        st.success(f"Right: **{step.answer}**. {step.why}")
    else:
        st.warning(f"Not this time: it is **{step.answer}**. {step.why}")


def _ask_at_the_top(page: str, steps: Sequence[Step], own: int, i: int, answers: dict) -> None:
    """Step ``i`` in the slot above the figure: its question, its answer, the next step; the
    first time after "Set up this view", the page scrolls up to it. ``own``: how many of
    ``steps`` are the page's own "Try this" steps (the rest were made since)."""
    slot = getattr(_slot, "box", None) or st.container()
    made = extra(page, i)
    root = i if made is None else made.root
    with slot, st.container(border=True, key="try_step"):
        # The title, then the buttons on the same line while they fit (they wrap below it if not).
        with st.container(horizontal=True, vertical_alignment="center", gap="small", key="try_step_head"):
            if made is None:
                st.markdown(
                    f":material/science: **Try this {i} of {own}: {steps[i - 1].title}**", width="content"
                )
            else:
                st.markdown(f":material/science: **{steps[i - 1].title}**", width="content")
            st.space("stretch")
            _hook.round_buttons(page, i)
            if root is not None and _same_kind_maker(page, root) is not None:
                st.button(
                    "Same kind", key=f"{page}_try_same", on_click=_same_kind, args=(page, root),
                    icon=":material/autorenew:",
                    help="A question of the same kind: this one made anew with other numbers, answered alone "
                    "(it shows what was learnt, not what was copied).",
                )  # fmt: skip
            if i < own:
                st.button(
                    "Next step",
                    key=f"{page}_try_next",
                    on_click=_apply,
                    args=(page, i + 1, steps[i]),
                    icon=":material/skip_next:",
                )
            st.button(
                "Close", key=f"{page}_try_close", on_click=_close, args=(page,), icon=":material/close:"
            )
        if note := st.session_state.pop(_MADE_NOTE, None):
            st.warning(note, icon=":material/warning:")
        # Asked of the class: the class's answers instead of the teacher's own choice.
        if not _hook.step_round(page, i):
            _hook.ask_button(page, i, steps[i - 1], where="_top")
            if steps[i - 1].options:  # the teacher's own number question has none: it is for a class
                _ask(page, i, steps[i - 1], answers, horizontal=True)
    top, right = ("0", "1.5rem") if present.is_on() else ("3.75rem", "0")
    st.html(_STICKY_CSS.format(top=top, right=right, paper=PAPER))
    state = (i, _hook.revealed(page, i))
    if st.session_state.get(_ROUND_SEEN) != state:
        # A class's round opened or revealed changes the step's height: place the figure again.
        if st.session_state.get(_ROUND_SEEN) is not None:
            st.session_state[_SCROLL] = st.session_state[_SCROLL + "_presses"] = (
                st.session_state.get(_SCROLL + "_presses", 0) + 1
            )
        st.session_state[_ROUND_SEEN] = state
    scroll = st.session_state.pop(_SCROLL, None)
    if scroll is not None:  # in the sidebar's foot, where its empty line takes no room from the page
        script = _SCROLL_JS.replace("RUN", str(scroll)).replace("FIGURE", repr(_FIGURE))
        st.sidebar.html(script, unsafe_allow_javascript=True)


def set_up(page: str, i: int, step: Step) -> None:
    """Set up step ``i`` of ``page`` and ask it at the top (a callback: before the page runs)."""
    _apply(page, i, step)


def _apply(page: str, i: int, step: Step) -> None:
    """Set up step ``i``'s view, ask it at the top of the page (its answer hidden until it is
    revealed) and scroll there."""
    # Only the values that change: Streamlit warns of a widget made with a default and also set
    # through the session state, and a value already there needs no setting.
    st.session_state.update(
        {key: value for key, value in step.setup.items() if st.session_state.get(key) != value}
    )
    st.session_state[_asked(page)] = i
    st.session_state[_hiding(page)] = tuple(step.hides)
    presses = st.session_state[_SCROLL + "_presses"] = st.session_state.get(_SCROLL + "_presses", 0) + 1
    st.session_state[_SCROLL] = presses


def _close(page: str) -> None:
    st.session_state.pop(_asked(page), None)


def compare_link(X: Any, y: Any, page: str, data: str | None = None) -> None:
    """A link to /compare with the lesson's 2-D points: the points themselves when two classes
    of at most ``MAX_URL_POINTS`` fit in a link, else /compare's own generator of the set that
    ``page`` calls ``data`` (the registry, ``classic.lessons.points``, knows both names).

    Nothing for data that are not 2-D points. A plain link (a fresh session), because /compare
    reads points from its link only when the session holds none yet.
    """
    try:
        X = np.asarray(X, dtype=float)
    except ValueError:  # a table of categories
        return
    if X.ndim != 2 or X.shape[1] != 2 or not np.isfinite(X).all():
        return
    classes, index = np.unique(np.asarray(y), return_inverse=True)
    if len(classes) == 2 and len(X) <= MAX_URL_POINTS:
        params, what = {"cmp_data": YOURS, "cmp_user_points": encode_points(X, index)}, "these points"
    elif data is not None and (there := points.compare_name(page, data)) is not None:
        params, what = {"cmp_data": there}, f"the {there.lower()}"
    else:
        params, what = {}, "two-class points"
    st.markdown(
        f":material/compare_arrows: [The perceptron, k-NN and a tree side by side on {what}]"
        f"({step_link('compare', params)})"
    )
