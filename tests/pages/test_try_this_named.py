"""Issue 35, item 6: each "Try this" step's title is a heading (a screen reader's list of
headings finds the steps; they were bold text) and each step's link is named by its step (six
links all called "Link to this view" could not be told apart). Every lesson of the registry."""

import re

import pytest
from conftest import assert_no_exception, open_page

from classic.lessons import LESSONS


@pytest.mark.parametrize("page", [lesson.url_path for lesson in LESSONS])
def test_each_step_is_a_heading_and_its_link_is_named_by_it(page):
    at = open_page(page)
    assert_no_exception(at)
    steps = at.session_state[f"{page}_try_steps"]
    texts = [m.value for m in at.markdown]
    headings = [t for t in texts if re.match(r"#+ \d+\. ", t)]
    assert headings == [f"##### {i}. {step.title}" for i, step in enumerate(steps, start=1)]
    links = [re.match(r"\[([^\]]+)\]\(", t).group(1) for t in texts if t.startswith("[Link to this view")]
    assert len(links) == len(steps) == len(set(links))
