"""Digits: the Semeion data set (the full lesson is built in issue 6)."""

import numpy as np
import streamlit as st

from classic import plots
from pages._shared import ensure_app_shell, load_semeion

ensure_app_shell()

st.title("Handwritten digits")
st.write("1593 digits written by about 80 people, each reduced to a 16×16 grid of black and white.")
data = load_semeion()
if data is not None:
    X, y = data
    first = [int(np.flatnonzero(y == d)[i]) for i in range(3) for d in range(10)]
    st.pyplot(plots.digits_figure(X[first], y[first]), width="content")
    st.bar_chart({"digits": np.bincount(y, minlength=10)}, x_label="digit", y_label="count")
    st.caption("Class counts: " + ", ".join(f"{d}: {c}" for d, c in enumerate(np.bincount(y))))
