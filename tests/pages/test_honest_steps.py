"""The rule of an honest question, in AppTest: a "Try this" step, once set up, shows none of the
texts that give its answer away (its ``tells``) until the answer is revealed, and shows them all
after. Every step of every lesson in the registry; what lives in the browser (the players' own
texts) is read there too (tests/browser/test_honest_browser.py)."""

from __future__ import annotations

import logging
from contextlib import contextmanager

import pytest
from conftest import assert_no_exception, open_page, page_text

from classic.lessons import LESSONS


@contextmanager
def streamlit_warnings():
    """What Streamlit's widget policies log meanwhile (its loggers do not pass messages up; a
    warning is logged once a process, so the flag is reset first)."""
    from streamlit.elements.lib import policies

    heard: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: heard.append(record.getMessage())
    logger = logging.getLogger(policies.__name__)
    policies._shown_default_value_warning = False
    logger.addHandler(handler)
    try:
        yield heard
    finally:
        logger.removeHandler(handler)


@pytest.mark.parametrize("page", [lesson.url_path for lesson in LESSONS])
def test_every_step_set_up_hides_what_gives_its_answer_away_until_it_is_revealed(page):
    steps = open_page(page).session_state[f"{page}_try_steps"]
    assert steps, f"{page} has no Try-this steps"
    for i, step in enumerate(steps, start=1):
        at = open_page(page)
        assert step.tells, f"{page} step {i} declares no texts that give its answer away"
        with streamlit_warnings() as heard:
            at.button(key=f"{page}_try_{i}_setup").click().run()
        assert_no_exception(at)
        assert heard == [], f"setting up {page} step {i} logged {heard}"
        asked = page_text(at)
        shown = [token for token in step.tells if token in asked]
        assert shown == [], f"{page} step {i} shows its answer before the reveal: {shown}"
        at.radio(key=f"{page}_try_{i}").set_value(step.answer).run()
        assert_no_exception(at)
        revealed = page_text(at)
        missing = [token for token in step.tells if token not in revealed]
        assert missing == [], f"{page} step {i} does not show after the reveal: {missing}"
