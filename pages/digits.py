"""Digits: draw a digit and watch k-NN classify it live against the 1593 Semeion digits."""

import time

import numpy as np
import pandas as pd
import streamlit as st
from streamlit_drawable_canvas import st_canvas

from classic import digits, evaluation, plots
from classic.knn import METRICS, WEIGHTS
from pages._ui.data import load_semeion
from pages._ui.downloads import figure_png
from pages._ui.lesson import how_it_works
from pages._ui.shell import ensure_app_shell
from pages._ui.url import share_in_url, write_url

ensure_app_shell()

CANVAS = 280
st.title("Handwritten digits")
st.write(
    "Draw a digit. It is cropped to its ink, stretched to fill a 16×16 box in both directions and "
    "turned black and white, exactly as the 1593 Semeion digits (written by about 80 people) were; "
    "then the k most similar Semeion digits vote on what it is."
)

share_in_url(
    {
        "digits_k": (1, 25),
        "digits_metric": list(METRICS),
        "digits_weights": list(WEIGHTS),
        "digits_blur": [True, False],
    }
)
with st.sidebar:
    k = st.slider("k (neighbours)", 1, 25, 1, key="digits_k")
    metric = st.selectbox("Metric", METRICS, key="digits_metric")
    weights = st.selectbox("Weights", WEIGHTS, key="digits_weights")
    smooth = st.checkbox(
        "Blur both sides ([1 2 1] filter)",
        value=True,
        key="digits_blur",
        help="Near misses by one pixel count as near: about +4 points of accuracy.",
    )
    stroke = st.slider("Pen width", 6, 40, 18, key="digits_pen")

write_url("digits_k", "digits_metric", "digits_weights", "digits_blur")
st.session_state.setdefault("digits_taught", [])
data = load_semeion()
taught = st.session_state.digits_taught
X_taught = np.array([g.ravel() for g, _ in taught], dtype=np.uint8).reshape(-1, 256)
y_taught = np.array([label for _, label in taught], dtype=np.int64)
X, y = (np.vstack([data[0], X_taught]), np.concatenate([data[1], y_taught])) if data else (X_taught, y_taught)


@st.cache_resource(max_entries=8, show_spinner=False)
def classifier(X, y, k, metric, weights, smooth):
    return digits.fit_classifier(X, y, k, metric, weights, smooth)


draw_tab, evaluation_tab = st.tabs(["Draw", "Evaluation"])
with draw_tab:
    left, middle, right = st.columns([1.1, 0.9, 1.2])
    with left:
        st.markdown("**Draw here** (the toolbar above the canvas has undo and clear)")
        canvas = st_canvas(
            stroke_width=stroke,
            stroke_color="#000000",
            background_color="",
            height=CANVAS,
            width=CANVAS,
            drawing_mode="freedraw",
            update_streamlit=True,
            return_image_data=True,
            key="digits_canvas",
        )
    grid = digits.canvas_to_grid(canvas.image_data) if canvas is not None else None
    if grid is None:
        middle.info("Draw a digit on the canvas: the prediction appears as you draw.")
    elif len(y) < k:
        middle.warning(f"There are only {len(y)} training digits: teach some, or lower k.")
    else:
        started = time.perf_counter()
        model = classifier(X, y, k, metric, weights, smooth)
        digit, share, distances, indices = digits.classify(model, grid, smooth)
        elapsed = time.perf_counter() - started
        with middle:
            st.markdown(
                f"<div style='font-size:7rem;line-height:1;text-align:center' class='digit-prediction'>{digit}</div>",
                unsafe_allow_html=True,
            )
            st.caption(f"Predicted digit · classified in {elapsed * 1e3:.1f} ms")
            st.pyplot(plots.grid_figure(grid), width="stretch")
        with right:
            votes = pd.Series(0.0, index=range(10))
            votes[model.classes_] = share
            st.bar_chart(
                votes.rename("share of the vote"), x_label="digit", y_label="share of the vote", height=260
            )
        titles = [
            f"{y[i]} · d={d:.2f}" + (" (yours)" if i >= len(y) - len(y_taught) else "")
            for d, i in zip(distances, indices, strict=True)
        ]
        st.markdown(f"**The {k} nearest training digits**")
        st.pyplot(
            plots.digits_figure(X[indices], y[indices], columns=min(k, 10), titles=titles),
            width=80 * min(k, 10),
        )

    with st.container(border=True):
        st.markdown("**Teach mode**: add your drawing to the training set for this session.")
        c1, c2, c3 = st.columns([1, 1, 1])
        label = c1.selectbox("This was a", range(10), key="digits_label", label_visibility="collapsed")
        if c2.button(f"This was a {label}", key="digits_teach", disabled=grid is None):
            st.session_state.digits_taught = [*taught, (grid, int(label))]
            st.rerun()
        if c3.button("Forget my examples", key="digits_forget", disabled=not taught):
            st.session_state.digits_taught = []
            st.rerun()
        st.caption(
            f"{len(taught)} example(s) of yours in the training set"
            + ("" if data else " (the only training data).")
        )


@st.cache_data(max_entries=16, show_spinner="Classifying 5 × 793 test digits…")
def protocol_results(X, y, k, metric, weights, smooth):
    """The protocol's scores and the tab's figures as PNG bytes (drawn once per setting)."""
    ks = list(range(1, 16))
    scores = digits.protocol_accuracy(X, y, ks, range(5), metric, weights, smooth)
    X_train, X_test, y_train, y_test = evaluation.train_test_split(X, y, test_size=793, random_state=0)
    predicted = digits.fit_classifier(X_train, y_train, k, metric, weights, smooth).predict(
        digits.features(X_test, smooth)
    )
    wrong = np.flatnonzero(predicted != y_test)
    shown = wrong[:20]
    return {
        "ks": ks,
        "scores": scores,
        "accuracy": figure_png(plots.accuracy_spread_figure(ks, scores, "mean of 5 shuffles")),
        "confusion": figure_png(
            plots.confusion_figure(evaluation.confusion_matrix(y_test, predicted, range(10)), range(10))
        ),
        "wrong": figure_png(
            plots.digits_figure(
                X_test[shown], y_test[shown], titles=[f"{y_test[i]} → {predicted[i]}" for i in shown]
            )
        ),
        "n_wrong": len(wrong),
    }


with evaluation_tab:
    if data is None:
        st.info("The evaluation needs the Semeion data set.")
    else:
        st.write("The post's protocol: shuffle, train on 800 digits, test on the other 793; five shuffles.")
        result = protocol_results(data[0], data[1], k, metric, weights, smooth)
        mean, column = result["scores"].mean(axis=0), result["scores"][:, min(k, 15) - 1]
        c1, c2 = st.columns(2)
        c1.metric(
            f"Accuracy at k = {min(k, 15)}",
            f"{column.mean():.1%}",
            f"range {column.min():.1%} – {column.max():.1%}",
            delta_color="off",
        )
        c2.metric("Best k", f"{result['ks'][int(np.argmax(mean))]}", f"{mean.max():.1%}", delta_color="off")
        st.image(result["accuracy"], width=700)
        st.download_button(
            "Download figure (PNG)", result["accuracy"], "digits-accuracy.png", key="digits_acc_download"
        )
        st.image(result["confusion"], width=520, caption=f"Confusion matrix at k = {k} (first shuffle)")
        st.markdown(
            f"**Test digits it got wrong** ({result['n_wrong']} of 793; first shuffle), *true → predicted*"
        )
        st.image(result["wrong"])

how_it_works(
    digits.canvas_to_grid,
    digits.classify,
    formulas=[
        r"g_{ij} = \Big[\tfrac{1}{|B_{ij}|}\textstyle\int_{B_{ij}} \mathrm{ink} \;\ge\; \theta \max \Big]",
        r"\hat y = \arg\max_c \sum_{i \in N_k} w_i [y_i = c]",
    ],
    text="Each of the 16×16 cells averages the ink of its share of the cropped drawing, so a drawing "
    "of any size and position lands on the same grid as the scanned digits.",
)
