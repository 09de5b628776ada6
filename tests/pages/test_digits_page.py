"""The digits page in AppTest: every control at its extremes, teach mode, and missing data.

The drawing canvas is a custom component that AppTest cannot draw on (the browser test does);
here it returns no image, so the page shows its invitation to draw.
"""

import numpy as np
import pytest
import streamlit as st
from conftest import assert_no_exception, open_page

from classic import datasets
from classic.knn import METRICS, WEIGHTS


def test_default_page_invites_a_drawing_and_evaluates():
    at = open_page("digits")
    assert_no_exception(at)
    assert any("Draw a digit" in i.value for i in at.info)
    accuracy = at.metric[0].value
    assert float(accuracy.rstrip("%")) > 92  # blur on by default, k = 1
    assert "0 example(s) of yours" in " ".join(c.value for c in at.caption)


@pytest.mark.parametrize("metric", METRICS)
def test_every_metric_with_extreme_k(metric):
    at = open_page("digits")
    at.selectbox(key="digits_metric").set_value(metric)
    at.slider(key="digits_k").set_value(25)
    at.selectbox(key="digits_weights").set_value(WEIGHTS[-1])
    at.checkbox(key="digits_blur").uncheck()
    at.slider(key="digits_pen").set_value(40).run()
    assert_no_exception(at)
    assert at.metric[0].label == "Accuracy at k = 15"


@pytest.mark.parametrize("weights", WEIGHTS)
def test_every_weighting(weights):
    at = open_page("digits")
    at.selectbox(key="digits_weights").set_value(weights)
    at.slider(key="digits_k").set_value(1)
    at.slider(key="digits_pen").set_value(6).run()
    assert_no_exception(at)


def test_taught_examples_are_counted():
    # (Teaching and forgetting by the buttons is driven in the browser test.)
    at = open_page("digits")
    at.session_state["digits_taught"] = [(np.eye(16, dtype=np.uint8), 1), (np.ones((16, 16), np.uint8), 8)]
    at.run()
    assert_no_exception(at)
    assert "2 example(s) of yours" in " ".join(c.value for c in at.caption)
    assert not at.button(key="digits_forget").disabled


def test_missing_semeion_gives_a_clear_message_and_teach_mode_still_works(monkeypatch):
    def unavailable(data_home=None):
        raise datasets.DatasetUnavailable("semeion.data is not on this computer and could not be downloaded")

    monkeypatch.setattr(datasets, "load_semeion", unavailable)
    st.cache_data.clear()
    try:
        at = open_page("digits")
        assert_no_exception(at)
        assert "could not be loaded" in at.error[0].value
        assert any("needs the Semeion data set" in i.value for i in at.info)
        caption = " ".join(c.value for c in at.caption)
        assert "the only training data" in caption
    finally:
        monkeypatch.undo()
        st.cache_data.clear()
