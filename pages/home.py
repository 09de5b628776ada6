"""Home: what each page of the lab teaches, with a link to it."""

import streamlit as st

from pages._ui.shell import ensure_app_shell

ensure_app_shell()

st.title("classic: a lab for the classic machine-learning algorithms")
st.markdown(
    "Four algorithms that every course starts with, written from scratch in numpy and put "
    "on the screen so you can play with them. Change a setting and watch what it does."
)

LESSONS = [
    (
        "pages/perceptron.py",
        "Perceptron",
        "Watch the separating line move at every mistake until the points are separated, "
        "then see it loop forever on XOR, where no line can separate the classes, and how a "
        "kernel fixes that.",
    ),
    (
        "pages/knn.py",
        "k-nearest neighbours",
        "Decision regions redrawn as k changes: small k hugs every point, large k smooths the "
        "boundary. Try other metrics, weights, feature scaling, and a k-d tree.",
    ),
    (
        "pages/decision-tree.py",
        "ID3 decision tree",
        "A tree grown split by split by information gain, on toy weather tables and the 1984 "
        "congressional votes, with every gain shown so you can check each choice.",
    ),
    (
        "pages/digits.py",
        "Handwritten digits",
        "Draw a digit: it is reduced to the 16×16 grid of the Semeion data set and classified "
        "live by k-NN against 1593 digits written by about 80 people.",
    ),
]

columns = st.columns(2)
for i, (path, title, text) in enumerate(LESSONS):
    with columns[i % 2].container(border=True):
        st.subheader(title)
        st.write(text)
        st.page_link(path, label=f"Open {title}", icon=":material/arrow_forward:")

st.caption(
    "The algorithms follow Jeremy Kun's blog posts (k-NN and handwritten digits; ID3 and the "
    "congressional votes; the perceptron and XOR) and course notes on k-d trees, instance-based "
    "learning and decision trees. Where a source is wrong, the page says so."
)
