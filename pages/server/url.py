"""The link is the view: what happened to the values a link carried.

Widgets keep their values in the URL themselves (``bind="query-params"``, with the widget's
``key`` as the parameter name). On a run, Streamlit 1.67 seeds each bound widget from the URL
(runtime/state/session_state.py, ``_seed_widget_from_url``): a value it cannot parse, or an
option the widget does not have, is dropped from the URL and the widget keeps its default; a
number outside the widget's range is clamped and the URL corrected; of a repeated key, the last
value is used. None of this is shown to the user, so a shared link that no longer fits (a typo,
an old link, a hostile one) would silently show something else.

``start_page`` (called by ``ensure_app_shell`` at the top of every page) records the query
parameters the run started with and keeps an empty slot at the top of the page;
``note_ignored_params`` (called by app.py after every page, and by ``stop`` for a page that
stops early, with the rest of what app.py writes after the page) compares them with
the values the widgets took and fills the slot with a note such as "ignored ``knn_k=abc`` from
the link (not a valid value; using ``5``)". Values are shortened and shown as code spans: a link's
text is shown as text, never as Markdown or HTML, and never raises. Only a link's values are
noted, read by the first run that has the key: later values of the key are the session's own
(a slider moved, a player's step written back and moved on by the next), never a link's.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import streamlit as st

from classic.tables import CONTROL
from pages.server import streamlit_private

_AT_START = "_url_params_at_start"
_BEFORE_APP = "_url_params_before_app"
_SLOT = "_url_note_slot"
_END = "_url_end_of_page"  # what app.py writes after the page (``at_the_end``)
_READ = "_url_keys_read"  # the keys whose link value a run of this session has already taken
SHOWN_CHARACTERS = 40
SHOWN_NOTES = 5
# CommonMark lets a backslash escape any ASCII punctuation, which leaves no Markdown, HTML,
# link, image, LaTeX or Streamlit directive (":red[...]", ":material/...:") in the text.
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def visible(text: object) -> str:
    """``text`` with each control, bidirectional or invisible formatting character written as its
    code point (``⟨U+202E⟩``): a link's RIGHT-TO-LEFT OVERRIDE (U+202E) would otherwise reorder the
    note it is echoed in, so that ``knn_k=<U+202E>8=k gnisu ;`` read "ignored knn_k=; using k=8"."""
    return CONTROL.sub(lambda found: f"⟨U+{ord(found.group()):04X}⟩", str(text))


def escape_markdown(text: str) -> str:
    """``text`` as literal characters in any Streamlit Markdown element (newlines become spaces;
    control and bidirectional characters shown as their code points, see ``visible``)."""
    return _PUNCTUATION.sub(r"\\\1", " ".join(visible(text).split()))


def code_span(text: str) -> str:
    """``text`` as an inline code span: shown verbatim, nothing in it is Markdown or HTML.

    The fence is one backtick longer than the longest run of backticks inside (CommonMark).
    """
    text = " ".join(visible(text).split())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _shown(text: str) -> str:
    if len(text) <= SHOWN_CHARACTERS:
        return text
    return f"{text[:SHOWN_CHARACTERS]}… ({len(text):,} characters)"


def _non_finite(text: str) -> bool:
    try:
        return not math.isfinite(float(text))
    except ValueError:
        return False


def _drop_non_finite_numbers() -> None:
    """Take ``inf``/``nan`` out of the values Streamlit seeds widgets from, before any widget.

    Streamlit 1.67 bug: an integer ``st.number_input`` bound to ``?seed=inf`` raises
    OverflowError (its deserializer calls ``int(float("inf"))``, and ``_seed_widget_from_url``
    catches only ValueError, TypeError and IndexError), so a hostile link would crash the page.
    No widget of this app takes a non-finite number. The seeding values are private state
    (``streamlit_private.link_seeds``); tests/pages/test_app_shell.py tells when the bug is fixed,
    so that this can go.
    """
    with streamlit_private.link_seeds() as found:
        if found is None:
            return
        seeds, params = found
        for key, values in list(seeds.items()):
            if any(_non_finite(value) for value in values):
                del seeds[key]
                params.remove_param(key)


def _params() -> dict[str, list[str]]:
    return {key: st.query_params.get_all(key) for key in st.query_params}


def record_link() -> None:
    """Record the link before app.py's own widget (the presentation toggle), which drops a value
    it cannot read from the URL before the page runs (called by app.py first thing)."""
    st.session_state[_BEFORE_APP] = _params()


def _from_link(params: dict[str, list[str]]) -> dict[str, list[str]]:
    """The parameters that may still be a link's: those of keys no earlier run has read.

    A link is read once, by the first run that has its key's widget (or player). From then on
    the URL holds the session's own values: a slider the student moved (the browser writes it,
    and a quick second move reruns with the URL a step behind), a player's frame or k written
    back and moved on by its next step, a URL back or forward return to. None of them is a
    link's, whatever the next run makes of it; a reload or a link opened is a new session.
    """
    read = st.session_state.get(_READ) or set()
    return {key: values for key, values in params.items() if key not in read}


def start_page() -> None:
    """Record the run's query parameters and keep the note's slot at the top of the page."""
    st.session_state[_AT_START] = _from_link({**st.session_state.pop(_BEFORE_APP, {}), **_params()})
    st.session_state[_SLOT] = st.empty()
    _drop_non_finite_numbers()


def _means(text: str, value: Any) -> bool:
    """Whether the URL text ``text`` stands for the widget value ``value``."""
    if isinstance(value, bool):  # "1", "yes" and "on" too: a teacher types ?present=1
        return text.lower() in (("true", "1", "yes", "on") if value else ("false",))
    if isinstance(value, (int, float)):
        try:
            number = float(text)
        except ValueError:
            return False
        return math.isfinite(number) and number == value
    return text == str(value)


def _why_ignored(key: str, texts: list[str], now: list[str] | None, value: Any) -> list[tuple[str, str]]:
    """The URL values of ``key`` that its widget did not take, and why.

    ``texts`` are the values at the start of the run, ``now`` those left after the widgets ran
    (None when Streamlit removed the parameter) and ``value`` the widget's value.
    """
    if isinstance(value, (list, tuple)):  # multiselect, range slider: each value is an element
        if now == texts:
            return []
        return [(t, "not a valid value") for t in texts if t and not any(_means(t, v) for v in value)]
    *earlier, used = texts
    repeated = escape_markdown(f"the link repeats {key}; the last value was used")
    ignored = [(t, repeated) for t in earlier if t != used]
    # Streamlit leaves a value it took in the URL, except the default, which it drops.
    taken = now[-1:] == [used] if now is not None else _means(used, value)
    if not taken:
        # A code span: the value used can be the link's own text, cut to a text field's max_chars.
        ignored.append(
            (used, f"{escape_markdown('not a valid value; using')} {code_span(_shown(str(value)))}")
        )
    return ignored


def ignored_params() -> list[tuple[str, str, str]]:
    """``(key, value, why)`` for every value of a bound widget's parameter the widgets ignored
    (``why`` is Markdown: the value used is a code span).

    Parameters no widget of this run has (as far as ``st.session_state`` knows) are left alone:
    the page may read them itself.
    """
    at_start = st.session_state.get(_AT_START) or {}
    ignored = []
    for key, texts in at_start.items():
        if key.startswith("_") or key not in st.session_state or not texts:
            continue
        now = st.query_params.get_all(key) if key in st.query_params else None
        ignored += [(key, text, why) for text, why in _why_ignored(key, texts, now, st.session_state[key])]
    return ignored


def note_ignored_params() -> None:
    """Call once at the end of a page: a visible note for every link value that was ignored."""
    ignored = ignored_params()
    # Every key this run has a value for has read its link (a player's frame key, a widget's).
    st.session_state.setdefault(_READ, set()).update(key for key in st.session_state if isinstance(key, str))
    if not ignored:
        return
    lines = [
        f"- ignored {code_span(f'{key}={_shown(text)}')} from the link ({why})"
        for key, text, why in ignored[:SHOWN_NOTES]
    ]
    if len(ignored) > SHOWN_NOTES:
        lines.append(f"- and {len(ignored) - SHOWN_NOTES} more")
    slot = st.session_state.get(_SLOT)
    target = slot if slot is not None else st
    target.info(
        "Some settings in this link could not be used:\n" + "\n".join(lines), icon=":material/link_off:"
    )


def at_the_end(finish: Callable[[], None]) -> None:
    """Set what this run writes after the page (app.py: the class controls, then
    ``note_ignored_params``), for ``stop`` to write it too."""
    st.session_state[_END] = finish


def stop() -> None:
    """``st.stop`` for a page that cannot go on, after what app.py writes below every page (the
    note on the link's ignored values; without app.py, the note alone).

    A stopped run never reaches app.py's call (``st.stop`` raises at the next element, so not
    even a ``finally`` there can still write the note).
    """
    st.session_state.get(_END, note_ignored_params)()
    st.stop()
