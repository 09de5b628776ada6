"""Home: what each lesson of the lab teaches, with a link to it (the lessons registry's cards)."""

import streamlit as st

from classic.lessons import LESSONS, Lesson, decks
from pages.server.shell import ensure_app_shell
from pages.widgets import deck

ensure_app_shell()

st.title("classic: a lab for the classic machine-learning algorithms")
st.markdown(
    "Four algorithms that every course starts with, written from scratch in numpy and put "
    "on the screen so you can play with them. Change a setting and watch what it does."
)


def card(lesson: Lesson) -> None:
    with st.container(border=True):
        st.header(lesson.heading, divider=False)
        st.markdown(f"**Teaches:** {lesson.teaches}")
        st.markdown(lesson.does)
        st.page_link(lesson.file, label=f"Open {lesson.heading}", icon=":material/arrow_forward:")


# Two columns of cards; an odd one out at the end spans the page.
paired = len(LESSONS) - len(LESSONS) % 2
columns = st.columns(2)
for i, lesson in enumerate(LESSONS[:paired]):
    with columns[i % 2]:
        card(lesson)
for lesson in LESSONS[paired:]:
    card(lesson)

st.header("Ready-made lessons", divider=False)
st.markdown(
    "Each is about 15 minutes of a lecture: views of the lab with questions to predict first, played "
    "slide by slide (PageDown for the next), with a handout and an answer key."
)
with st.container(horizontal=True, key="home_decks"):
    for name in decks.READY:
        try:
            ready = decks.ready(name)
        except decks.DeckError:  # the Lessons page says what is wrong with it
            continue
        st.button(
            ready.title, key=f"home_deck_{name}", icon=":material/slideshow:", on_click=deck.go,
            args=(deck.slide_link(name, ready, 0),), help=f"Play it: {len(ready.slides)} slides.",
        )  # fmt: skip
st.page_link(
    "pages/decks.py", label="Lessons to teach: prepare your own, print the handouts",
    icon=":material/slideshow:",
)  # fmt: skip

st.caption(
    "The algorithms follow Jeremy Kun's blog posts (k-NN and handwritten digits; ID3 and the "
    "congressional votes; the perceptron and XOR) and course notes on k-d trees, instance-based "
    "learning and decision trees. Where a source is wrong, the page says so, with what the source "
    "did beside the correct computation: the decision-tree page, for one, sets the post's "
    "hand-drawn tree (Wind at the root) beside the tree ID3 grows on the same six days."
)
