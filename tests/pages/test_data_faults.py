"""A data set that cannot be had (offline, damaged, unreadable) is one clear message on the page
that needs it, is not tried again on every rerun, and leaves the other pages alone (issue 16)."""

import pytest
import streamlit as st
from conftest import assert_no_exception, open_page

from classic import datasets
from classic.lessons import tree as tree_lesson


@pytest.fixture
def offline(monkeypatch):
    """load_house_votes fails as it does offline; the list counts the attempts."""
    attempts = []

    def unavailable(data_home=None):
        attempts.append(1)
        raise datasets.DatasetUnavailable("house-votes-84.data is not here and could not be downloaded")

    monkeypatch.setattr(datasets, "load_house_votes", unavailable)
    st.cache_data.clear()
    yield attempts
    monkeypatch.undo()
    st.cache_data.clear()


def test_a_failed_load_is_one_message_and_is_not_retried_on_every_rerun(offline):
    at = open_page("decision-tree", params={"tree_data": tree_lesson.VOTES})
    assert_no_exception(at)
    assert [e.value for e in at.error] == ["The 1984 congressional votes data set could not be loaded."]
    assert "could not be downloaded" in at.text[0].value
    for depth in (1, 2, 3):  # reruns of this session, then another session
        at.slider(key="tree_depth").set_value(depth).run()
        assert_no_exception(at)
    assert_no_exception(open_page("decision-tree", params={"tree_data": tree_lesson.VOTES}))
    assert len(offline) == 1  # each attempt offline costs two 30 s timeouts


def test_the_other_pages_do_not_need_the_file(offline):
    for page in ("perceptron", "knn", "compare"):
        at = open_page(page)
        assert_no_exception(at)
        assert not at.error
    at = open_page("decision-tree", params={"tree_data": "Play Tennis"})
    assert_no_exception(at)
    assert not at.error and offline == []
