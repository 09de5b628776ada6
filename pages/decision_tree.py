"""ID3 decision tree: the tables it learns from (the full lesson is built in issue 5)."""

import pandas as pd
import streamlit as st

from classic import datasets
from pages._shared import ensure_app_shell, load_house_votes

ensure_app_shell()

st.title("ID3 decision tree")
st.write("At each node ID3 asks the question whose answer tells most about the label.")
TABLES = {
    "Arya's riding data": datasets.load_arya,
    "Play Tennis": datasets.load_play_tennis,
    "1984 congressional votes": load_house_votes,
}
with st.sidebar:
    name = st.selectbox("Data", list(TABLES), key="tree_data")
table = TABLES[name]()
if table is not None:
    X, y, features = table
    frame = pd.DataFrame(X, columns=features).assign(label=y)
    st.dataframe(frame, hide_index=True)
    st.caption(f"{len(y)} rows, {len(features)} features.")
