"""Perceptron: every update animated; XOR's endless cycle proved; the dual and kernel forms."""

import time

import numpy as np
import pandas as pd
import streamlit as st

from classic import datasets, plots
from classic.perceptron import DualPerceptron, Perceptron, generalisation, mistake_bound
from pages._shared import (
    download_figure,
    download_points,
    ensure_app_shell,
    how_it_works,
    seed_input,
    share_in_url,
    write_url,
)

ensure_app_shell()

YOURS = "Your points (edit the table)"
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
    speed = st.slider("Speed (updates per second)", 1, 20, 8, key="pc_speed")

write_url("pc_data", "pc_seed", "pc_epochs")
if name == YOURS:
    if "pc_user_points" not in st.session_state:
        X0, y0 = datasets.linearly_separable(8, 1)
        st.session_state.pc_user_points = pd.DataFrame({"x1": X0[:, 0], "x2": X0[:, 1], "class": y0})
    st.caption("Add, edit or delete rows: each point is (x1, x2) and a class 0 or 1.")
    table = st.data_editor(
        st.session_state.pc_user_points,
        num_rows="dynamic",
        key="pc_editor",
        column_config={"class": st.column_config.NumberColumn(min_value=0, max_value=1, step=1)},
    ).dropna()
    X, y = table[["x1", "x2"]].to_numpy(float), table["class"].to_numpy(int)
else:
    X, y = DATA[name](seed)
if len(X) < 2 or len(np.unique(y)) != 2:
    st.warning("The perceptron needs points of exactly two classes (0 and 1): add some rows.")
    st.stop()
names = ["class 0", "class 1"]
model = Perceptron(max_epochs=max_epochs, shuffle=shuffle, random_state=seed).fit(X, y)
history = model.history_
signature = (name, seed, max_epochs, shuffle, X.tobytes())
if st.session_state.get("pc_signature") != signature:  # new data or settings: rewind
    st.session_state.update(
        pc_signature=signature,
        pc_frame=0,
        pc_playing=False,
        pc_animator=plots.PerceptronAnimator(X, y, names),
    )


def frame_png(frame: int) -> bytes:
    """Draw frame ``frame`` (0 = before any update) on the reused figure, as PNG bytes."""
    if frame == 0:
        w, b, caption, point, previous = (
            np.zeros(2),
            0.0,
            f"update 0 of {len(history)}: w = 0, b = 0",
            None,
            None,
        )
    else:
        u = history[frame - 1]
        previous = history[frame - 2].w if frame > 1 else np.zeros(2)
        caption = (
            f"update {frame} of {len(history)} · epoch {u.epoch + 1}\n"
            f"w = ({u.w[0]:+.3f}, {u.w[1]:+.3f})  b = {u.b:+.3f}"
        )
        w, b, point = u.w, u.b, u.index
    animator = st.session_state.pc_animator
    animator.frame(w, b, caption, point, previous)
    return animator.png()


def step(delta: int) -> None:
    st.session_state.pc_frame = int(np.clip(st.session_state.pc_frame + delta, 0, len(history)))
    st.session_state.pc_playing = False


controls = st.columns([1, 1, 1, 1, 4])
playing = st.session_state.pc_playing


def play_or_pause() -> None:
    """Playing follows the clock (start time and frame), so a slow redraw skips, never lags."""
    start = 0 if st.session_state.pc_frame >= len(history) else st.session_state.pc_frame
    st.session_state.update(
        pc_playing=not playing, pc_frame=start, pc_play_from=start, pc_play_start=time.time()
    )


controls[0].button(
    "Pause" if playing else "Play",
    icon=":material/pause:" if playing else ":material/play_arrow:",
    key="pc_play",
    width="stretch",
    on_click=play_or_pause,
)
controls[1].button(
    "Back", icon=":material/skip_previous:", key="pc_back", on_click=step, args=(-1,), width="stretch"
)
controls[2].button(
    "Forward", icon=":material/skip_next:", key="pc_forward", on_click=step, args=(1,), width="stretch"
)
controls[3].button(
    "Start", icon=":material/replay:", key="pc_rewind", on_click=step, args=(-len(history),), width="stretch"
)


@st.fragment(run_every=0.04 if playing else None)
def animation() -> None:
    if st.session_state.pc_playing:
        if st.session_state.pc_frame >= len(history):
            st.session_state.pc_playing = False
            st.rerun()  # redraw the Play button
        elapsed = time.time() - st.session_state.pc_play_start
        st.session_state.pc_frame = min(
            st.session_state.pc_play_from + 1 + int(elapsed * speed), len(history)
        )
    st.slider(
        "Update",
        0,
        max(len(history), 1),
        key="pc_frame",
        disabled=not history,
        help="Scrub through every update of the inner loop.",
    )
    st.image(frame_png(min(st.session_state.pc_frame, len(history))), width=640)


left, right = st.columns([3, 2])
with left:
    animation()
with right:
    bound = mistake_bound(X, y)
    if model.converged_:
        st.success(
            f"**Converged** after {model.n_updates_} updates in {model.n_epochs_} passes: every point is on its side. "
            f"Novikoff's bound (R/γ)² = ({bound.R:.2f} / {bound.gamma:.4f})² ≈ {bound.bound:,.0f} updates."
        )
    elif model.cycle_ is not None:
        m, n = model.cycle_
        st.error(
            f"**The weights at update {n} equal those at update {m}**, at the same point of a pass: this will never "
            "converge; no line separates these points. From here the perceptron repeats the same updates for ever."
        )
    else:
        verdict = "no line separates these points" if bound.gamma <= 0 else "a line exists: allow more passes"
        st.warning(f"Not converged after {model.n_epochs_} passes ({model.n_updates_} updates): {verdict}.")
    st.markdown("**Mistakes per pass**")
    st.bar_chart(
        pd.Series(model.mistakes_per_epoch_, index=range(1, model.n_epochs_ + 1), name="mistakes"),
        x_label="pass (epoch)",
        y_label="mistakes",
        height=200,
    )
    alpha = np.bincount([u.index for u in history], minlength=len(X))
    st.pyplot(plots.alpha_figure(X, y, alpha, names), width="stretch")
    st.caption("The dual form: w = Σ αᵢ yᵢ xᵢ, where αᵢ counts the updates point i caused (same pass order).")
    download_points(X, y, "perceptron-points.csv", key="pc_download")

if not model.converged_:
    st.subheader("When no line will do")
    c1, c2 = st.columns(2)
    pocket = Perceptron(max_epochs=max_epochs, pocket=True).fit(X, y)
    with c1:
        fig = plots.boundary_figure(
            X, y, pocket.decision_function, names, f"Pocket: best line seen, {pocket.score(X, y):.0%} right"
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
            names,
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
