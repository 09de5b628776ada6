"""Perceptron: every update animated; XOR's endless cycle proved; the dual and kernel forms."""

import re

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from classic import datasets, plots
from classic.perceptron import DualPerceptron, Perceptron, generalisation, mistake_bound
from pages._ui.downloads import download_figure, download_points, download_table, figure_png
from pages._ui.lesson import how_it_works, seed_input
from pages._ui.players import html_player
from pages._ui.points import chart_click, points_editor
from pages._ui.shell import ensure_app_shell
from pages._ui.url import share_in_url, write_url

ensure_app_shell()

YOURS = "Your points (click to place)"
DATA = {
    "Linearly separable (25 points, true line y = 1 − x)": lambda seed: datasets.linearly_separable(25, seed),
    "XOR (the four corners)": lambda seed: datasets.xor(4),
    "XOR (noisy clusters)": lambda seed: datasets.xor(40, 0.12, seed),
    "Gaussian clusters": lambda seed: datasets.gaussian_clusters(20, ((-1.5, -1.5), (1.5, 1.5)), 1.0, seed),
    YOURS: None,
}

st.title("Perceptron")
st.write(
    "The perceptron draws a line and, at every point on the wrong side, nudges the line's normal w "
    "towards it: w ← w + η·y·x. If some line separates the two classes it always stops (Novikoff); "
    "on XOR it never does, and it returns to the same weights again and again."
)

share_in_url({"pc_data": list(DATA), "pc_seed": (0, 2**31 - 1), "pc_epochs": (1, 200)})
with st.sidebar:
    name = st.selectbox("Data", list(DATA), key="pc_data")
    seed = seed_input("pc_seed")
    st.button(
        "New points",
        key="pc_new",
        on_click=lambda: st.session_state.update(pc_seed=st.session_state.pc_seed + 1),
    )
    max_epochs = st.slider("Maximum passes (epochs)", 1, 200, 100, key="pc_epochs")
    shuffle = st.checkbox(
        "Shuffle the order each pass", key="pc_shuffle", help="A cycle can only be proved with a fixed order."
    )

write_url("pc_data", "pc_seed", "pc_epochs")


XY_TIP = [alt.Tooltip("x1", title="x₁", format=".2f"), alt.Tooltip("x2", title="x₂", format=".2f")]


def placing_chart(points: pd.DataFrame) -> None:
    """Points over a fine grid of near-invisible spots: a click selects the nearest spot."""
    xy = points[["x1", "x2"]].to_numpy(float)
    low = np.minimum(xy.min(axis=0) - 0.2, -0.5) if len(xy) else np.array([-0.5, -0.5])
    high = np.maximum(xy.max(axis=0) + 0.2, 1.5) if len(xy) else np.array([1.5, 1.5])
    gx, gy = np.meshgrid(np.linspace(low[0], high[0], 41), np.linspace(low[1], high[1], 41))
    spots = pd.DataFrame({"x1": gx.ravel().round(3), "x2": gy.ravel().round(3)})
    spot = alt.selection_point(name="spot", on="click", nearest=True, fields=["x1", "x2"], clear=False)
    x = alt.X("x1", title="x₁", scale=alt.Scale(domain=[float(low[0]), float(high[0])], nice=False))
    y = alt.Y("x2", title="x₂", scale=alt.Scale(domain=[float(low[1]), float(high[1])], nice=False))
    grid = (
        alt.Chart(spots)
        .mark_square(size=60, opacity=0.04, color="#888")
        .encode(x=x, y=y, tooltip=XY_TIP)
        .add_params(spot)
    )
    shown = points.assign(label=[NAMES[int(c)] for c in points["class"]])
    dots = (
        alt.Chart(shown)
        .mark_circle(size=90, stroke="black", strokeWidth=0.7, opacity=1)
        .encode(
            x="x1",
            y="x2",
            color=alt.Color(
                "label",
                title=None,
                scale=alt.Scale(domain=NAMES, range=plots.class_colors(2)),
                legend=alt.Legend(orient="bottom"),
            ),
            tooltip=[*XY_TIP, alt.Tooltip("label", title="class")],
        )
    )
    st.altair_chart(
        (grid + dots).properties(width=420, height=400),
        on_select="rerun",
        selection_mode="spot",
        key="pc_place",
        width="content",
    )


NAMES = ["class 0", "class 1"]
if name == YOURS:
    if "pc_user_points" not in st.session_state:
        X0, y0 = datasets.linearly_separable(8, 1)
        st.session_state.pc_user_points = pd.DataFrame({"x1": X0[:, 0], "x2": X0[:, 1], "class": y0})
    click = chart_click("pc_place", "spot")
    if click is not None:
        added = pd.DataFrame(
            {"x1": [click[0]], "x2": [click[1]], "class": [st.session_state.get("pc_click_class", 0)]}
        )
        st.session_state.pc_user_points = pd.concat(
            [st.session_state.pc_user_points, added], ignore_index=True
        )
    with st.container(border=True):
        chart_column, tools = st.columns([3, 2], vertical_alignment="center")
        with tools:
            st.markdown(
                "**Place your points**: choose a class, then click on the chart to add a point there."
            )
            st.segmented_control(
                "Clicking adds",
                [0, 1],
                format_func=lambda c: NAMES[c],
                key="pc_click_class",
                default=0,
                required=True,
            )
            st.button(
                "Undo last",
                icon=":material/undo:",
                key="pc_undo",
                disabled=st.session_state.pc_user_points.empty,
                on_click=lambda: st.session_state.update(
                    pc_user_points=st.session_state.pc_user_points.iloc[:-1]
                ),
            )
            st.button(
                "Clear",
                icon=":material/delete:",
                key="pc_clear",
                on_click=lambda: st.session_state.update(
                    pc_user_points=st.session_state.pc_user_points.iloc[:0]
                ),
            )
        with chart_column:
            placing_chart(st.session_state.pc_user_points)
        with st.expander("Edit the points as a table"):
            X, y = points_editor("pc_user_points", "pc_editor", 2)
else:
    X, y = DATA[name](seed)
if len(X) < 2 or len(np.unique(y)) != 2:
    st.warning("The perceptron needs points of both classes (0 and 1): click to add some.")
    st.stop()
model = Perceptron(max_epochs=max_epochs, shuffle=shuffle, random_state=seed).fit(X, y)
history = model.history_
bound = mistake_bound(X, y)
if model.converged_:
    verdict = (
        "good",
        f"**Converged** after {model.n_updates_} updates in {model.n_epochs_} passes: a whole pass without a "
        f"mistake. Novikoff's bound (R/γ)² = ({bound.R:.2f} / {bound.gamma:.4f})² ≈ {bound.bound:,.0f} updates.",
    )
elif model.cycle_ is not None:
    m, n = model.cycle_
    verdict = (
        "bad",
        f"**The weights at update {n} equal those at update {m}**, at the same point of a pass: this will never "
        "converge; no line separates these points. From here the perceptron repeats the same updates for ever.",
    )
else:
    reason = "no line separates these points" if bound.gamma <= 0 else "a line exists: allow more passes"
    verdict = (
        "stop",
        f"**Not converged** after {model.n_epochs_} passes ({model.n_updates_} updates): {reason}.",
    )

left, right = st.columns([3, 2])
with left:
    html_player(
        "perceptron_player.html",
        plots.perceptron_player_data(
            X,
            y,
            history,
            NAMES,
            model.cycle_,
            (verdict[0], re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", verdict[1])),
        ),
        label="Animation of every perceptron update",
    )
    st.caption(
        "Play runs in your browser; keys: space plays or pauses, ← → step, Home / End jump. "
        "The ringed point caused the update; the dashed orange arrow is η·y·x, added to the old w (grey)."
    )
    c1, c2 = st.columns(2)
    with c1:
        download_table(
            {
                "update": np.arange(1, len(history) + 1),
                "pass": [u.epoch + 1 for u in history],
                "point": [u.index for u in history],
                "w1": [u.w[0] for u in history],
                "w2": [u.w[1] for u in history],
                "b": [u.b for u in history],
            },
            "perceptron-updates.csv",
            key="pc_updates_download",
            label="Download every update (CSV)",
        )
    with c2:

        def last_frame_png(X=X, y=y, model=model) -> bytes:
            """Drawn only when the button is clicked."""
            history = model.history_
            fig = plots.PerceptronAnimator(X, y, NAMES).frame(
                model.coef_,
                model.intercept_,
                f"after {len(history)} updates",
                history[-1].index if history else None,
                history[-2].w if len(history) > 1 else np.zeros(2),
            )
            png = figure_png(fig)
            plots.close(fig)
            return png

        st.download_button(
            "Download the last frame (PNG)",
            last_frame_png,
            file_name="perceptron-final.png",
            mime="image/png",
            key="pc_final_download",
        )
with right:
    {"good": st.success, "bad": st.error, "stop": st.warning}[verdict[0]](verdict[1])
    st.markdown("**Mistakes per pass**")
    st.bar_chart(
        pd.Series(model.mistakes_per_epoch_, index=range(1, model.n_epochs_ + 1), name="mistakes"),
        x_label="pass (epoch)",
        y_label="mistakes",
        height=200,
    )
    alpha = np.bincount([u.index for u in history], minlength=len(X))
    st.pyplot(plots.alpha_figure(X, y, alpha, NAMES), width="stretch")
    st.caption("The dual form: w = Σ αᵢ yᵢ xᵢ, where αᵢ counts the updates point i caused (same pass order).")
    download_points(X, y, "perceptron-points.csv", key="pc_download")

if not model.converged_:
    st.subheader("When no line will do")
    c1, c2 = st.columns(2)
    pocket = Perceptron(max_epochs=max_epochs, pocket=True).fit(X, y)
    with c1:
        fig = plots.boundary_figure(
            X, y, pocket.decision_function, NAMES, f"Pocket: best line seen, {pocket.score(X, y):.0%} right"
        )
        st.pyplot(fig, width="stretch")
        st.caption("The pocket algorithm keeps the weights that made the fewest training mistakes.")
    with c2:
        kernel = st.selectbox("Kernel perceptron", ["rbf", "polynomial"], key="pc_kernel")
        curved = DualPerceptron(kernel=kernel, degree=2, gamma=2.0, max_epochs=200).fit(X, y)
        fig = plots.boundary_figure(
            X,
            y,
            curved.decision_function,
            NAMES,
            f"{kernel} kernel: {curved.score(X, y):.0%} right" + (", converged" if curved.converged_ else ""),
        )
        st.pyplot(fig, width="stretch")
        st.caption(
            "Replacing x·z by a kernel K(x, z) lets the same mistake-driven rule draw a curved boundary."
        )

st.subheader("Does it generalise?")
st.write(
    "As in the post: train on 25 points, then classify 1000 new points of the same square against the true line."
)
X_train, y_train = datasets.linearly_separable(25, random_state=seed)
X_test, y_test = datasets.linearly_separable(1000, random_state=10_000 + seed)
if len(np.unique(y_train)) == 2:
    learned = Perceptron().fit(X_train, y_train)
    c1, c2 = st.columns(2)
    with c1:
        fig = plots.generalisation_figure(X_test, y_test, learned.predict(X_test))
        st.pyplot(fig, width="stretch")
        st.metric(f"Test accuracy (seed {seed})", f"{learned.score(X_test, y_test):.1%}")
        download_figure(fig, "perceptron-generalisation.png", key="pc_gen_download")
    with c2:
        scores = st.cache_data(generalisation, show_spinner="Training 100 perceptrons…")(25, 1000, range(100))
        st.pyplot(
            plots.histogram_figure(scores, "test accuracy on 1000 points", 0.922, "the post's run: 92.2%"),
            width="stretch",
        )
        st.caption(f"Over 100 seeds the median is {np.median(scores):.1%}: the post's 92.2% was one run.")

how_it_works(
    Perceptron.fit,
    formulas=[
        r"\text{if } y_i\,(w\cdot x_i + b) \le 0:\quad w \leftarrow w + \eta\, y_i x_i,\quad b \leftarrow b + \eta\, y_i",
        r"\#\text{updates} \le \left(R/\gamma\right)^2 \quad\text{(Novikoff)}",
    ],
    text="A cycle is proved when the same (w, b) appears after an update at the same position of a pass: the "
    "order of the points is fixed, so everything after it repeats.",
)
