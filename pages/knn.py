"""k-NN: the data it classifies (the full lesson is built in issue 4)."""

import streamlit as st

from classic import datasets, plots
from pages._shared import download_points, ensure_app_shell, seed_input

ensure_app_shell()

st.title("k-nearest neighbours")
st.write("A new point takes the majority label of the k training points nearest to it.")
GENERATORS = {
    "Gaussian clusters": lambda seed: datasets.gaussian_clusters(50, random_state=seed),
    "Concentric circles": lambda seed: datasets.concentric_circles(200, 0.1, seed),
    "Moons": lambda seed: datasets.moons(200, 0.1, seed),
    "XOR": lambda seed: datasets.xor(200, 0.2, seed),
    "Spiral": lambda seed: datasets.spiral(300, 2, 0.1, seed),
}
with st.sidebar:
    name = st.selectbox("Data", list(GENERATORS), key="knn_data")
    seed = seed_input("knn_seed")
X, y = GENERATORS[name](seed)
fig = plots.points_figure(X, y, name)
st.pyplot(fig, width="content")
download_points(X, y, "knn-data.csv", key="knn_download")
