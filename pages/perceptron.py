"""Perceptron: the data it learns from (the full lesson is built in issue 3)."""

import streamlit as st

from classic import datasets, plots
from pages._shared import download_points, ensure_app_shell, seed_input

ensure_app_shell()

st.title("Perceptron")
st.write(
    "The perceptron draws a line and moves it at every mistake. On data that a line can "
    "separate it always stops; on XOR it never does."
)
GENERATORS = {
    "Linearly separable (25 points, line y = 1 − x)": lambda seed: datasets.linearly_separable(25, seed),
    "XOR (the four corners)": lambda seed: datasets.xor(4),
    "XOR (noisy clusters)": lambda seed: datasets.xor(100, 0.15, seed),
    "Gaussian clusters": lambda seed: datasets.gaussian_clusters(25, ((-2, -2), (2, 2)), 1.0, seed),
}
with st.sidebar:
    name = st.selectbox("Data", list(GENERATORS), key="perceptron_data")
    seed = seed_input("perceptron_seed")
X, y = GENERATORS[name](seed)
fig = plots.points_figure(X, y, name)
st.pyplot(fig, width="content")
download_points(X, y, "perceptron-data.csv", key="perceptron_download")
