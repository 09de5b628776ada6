"""Home: what each page of the lab teaches, with a link to it."""

import streamlit as st

from pages._ui.shell import ensure_app_shell

ensure_app_shell()

st.title("classic: a lab for the classic machine-learning algorithms")
st.markdown(
    "Four algorithms that every course starts with, written from scratch in numpy and put "
    "on the screen so you can play with them. Change a setting and watch what it does."
)

# (page, title, what it teaches, what you do there)
LESSONS = [
    (
        "pages/perceptron.py",
        "Perceptron",
        "How a linear classifier learns from its mistakes: it stops when some line separates the "
        "classes (Novikoff's bound says how soon) and loops for ever on XOR, where none does; a "
        "kernel bends the line.",
        "Watch the line move at every update, place your own points, find the cycle on XOR.",
    ),
    (
        "pages/knn.py",
        "k-nearest neighbours",
        "Classifying by a vote of the k nearest training points: small k follows every point, large "
        "k smooths the boundary; the distance metric and feature scaling decide what *near* means.",
        "Move k and watch the regions re-vote; try metrics, weights, scaling and a k-d tree.",
    ),
    (
        "pages/decision-tree.py",
        "ID3 decision tree",
        "How a tree chooses its questions by information gain (entropy), split by split, with "
        "every gain shown so you can check each choice by hand; how a real-valued feature is cut at "
        "a threshold, giving axis-aligned boxes; why parity needs far more nodes than AND.",
        "Grow trees on toy tables, the 1984 congressional votes, 2-D points or your own CSV.",
    ),
    (
        "pages/digits.py",
        "Handwritten digits",
        "k-NN on real data: a drawing becomes the 16×16 grid of the Semeion data set and is "
        "classified against 1593 digits written by about 80 people.",
        "Draw a digit and see its grid, the vote and the nearest digits.",
    ),
]
COMPARE = (
    "pages/compare.py",
    "Three classifiers, one data set",
    "What each boundary can and cannot be: the perceptron's line, k-NN's vote and a tree's "
    "axis-aligned boxes on the same points and the same axes, each with its training and held-out "
    "accuracy and its fit time.",
    "Pick a data set (XOR, circles, moons, a spiral, axis-aligned boxes, your own points) and see who wins.",
)


def card(path: str, title: str, teaches: str, does: str) -> None:
    with st.container(border=True):
        st.header(title, divider=False)
        st.markdown(f"**Teaches:** {teaches}")
        st.markdown(does)
        st.page_link(path, label=f"Open {title}", icon=":material/arrow_forward:")


columns = st.columns(2)
for i, lesson in enumerate(LESSONS):
    with columns[i % 2]:
        card(*lesson)
card(*COMPARE)

st.caption(
    "The algorithms follow Jeremy Kun's blog posts (k-NN and handwritten digits; ID3 and the "
    "congressional votes; the perceptron and XOR) and course notes on k-d trees, instance-based "
    "learning and decision trees. Where a source is wrong, the page says so, with what the source "
    "did beside the correct computation: the decision-tree page, for one, sets the post's "
    "hand-drawn tree (Wind at the root) beside the tree ID3 grows on the same six days."
)
