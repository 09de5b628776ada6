"""Perceptron: every update animated; XOR's endless cycle proved; the pocket, kernels, the bound."""

from functools import partial

import numpy as np
import streamlit as st

from classic import datasets
from classic import perceptron as pc
from classic.lessons import perceptron as lessons
from classic.lessons import points
from classic.viz import perceptron as viz
from pages.server import url
from pages.server.shell import ensure_app_shell
from pages.widgets import present, shared
from pages.widgets.lesson import (
    Step,
    about_this_view,
    compare_link,
    hidden,
    how_it_works,
    try_this,
    withheld,
)
from pages.widgets.players import frame_player, linked_frame
from pages.widgets.points import user_points

ensure_app_shell()

PAGE = "perceptron"
TABS = list(lessons.TABS)


# Bounded: a fit keeps every update, a few MB on the largest data (docs/measurements.md).
@st.cache_data(max_entries=64, show_spinner="Computing…")
def compute(what: str, *args, **kwargs):
    """A cached result of ``classic`` (one wrapper, since the page's functions are rebuilt each run)."""
    found = getattr(pc, what, None) or getattr(lessons, what)
    return found(**kwargs).fit(*args) if isinstance(found, type) else found(*args, **kwargs)


st.title("Perceptron")
if not present.is_on():
    st.write(
        "The perceptron draws a line and, at every point on the wrong side, nudges the line's normal w "
        "towards it: w ← w + η·y·x. If some line separates the two classes it always stops (Novikoff); "
        "on XOR it never does, and it returns to the same weights again and again."
    )
with st.sidebar:
    name = st.selectbox("Data", points.menu("perceptron"), key="pc_data", bind="query-params")
    # No value: its default is its minimum, 0, so a Try-this setup that writes the seed is the
    # widget's only value (Streamlit warns of a widget given both).
    seed = st.number_input("Random seed", 0, 2**31 - 1, key="pc_seed", bind="query-params")
    st.button(
        "New points", key="pc_new", on_click=lambda: st.session_state.update(pc_seed=(seed + 1) % 2**31)
    )
    max_epochs = st.slider("Maximum passes (epochs)", 1, 200, 100, key="pc_epochs", bind="query-params")
    shuffle = st.checkbox("Shuffle the order each pass", key="pc_shuffle", bind="query-params")

if name == points.yours("perceptron"):
    _, start, n_classes = points.your_points("perceptron")
    X, y = user_points("pc", n_classes, start)
else:
    X, y = points.load("perceptron", name, seed)
if len(X) < 2 or len(np.unique(y)) < 2:
    st.warning("The perceptron needs points of both classes (0 and 1): click to add some.")
    url.stop()
NAMES = [f"class {c}" for c in range(int(y.max()) + 1)]
params = {"max_epochs": max_epochs, "shuffle": shuffle, "random_state": seed}
model = compute("Perceptron", X, y, **params)
bound = compute("mistake_bound", X, y) if len(NAMES) == 2 else None  # Novikoff's is for two classes
verdict = lessons.verdict(model, bound)
every, no_line, general, size = st.tabs(TABS, key="pc_tab", on_change="rerun", bind="query-params")
# The player's frame is in the link (?pc_frame=) and starts it; kept on every tab, so that new
# data chosen on another tab takes the old data's frame out of the link.
frame = linked_frame("pc_frame", "pc_player", model.n_updates_, 0, model.weights_history_.tobytes())

if every.open:
    # A question about the whole run is asked: the first pass only, until it is revealed.
    held = hidden(PAGE, "run")
    shown = viz.first_pass(model) if held else model.n_updates_
    # Presenting, the player takes the page's width (its status and legend beside the plot) and
    # the numbers go below it; otherwise they sit beside it.
    if present.is_on():
        stage, (beside, below) = every.container(), every.columns(2)
    else:
        stage, beside = every.columns([3, 2])
        below = beside
    with stage:
        data = viz.player_data(
            X,
            y,
            model,
            NAMES,
            verdict,
            present=present.is_on(),
            start=frame,
            held=lessons.HELD if held else None,
        )
        frame_player("perceptron_player.html", "pc_player", "pc_frame", data)
    with beside:
        if held:
            withheld(st, "The rest of the run (its verdict, its mistakes in each pass)")
        else:
            terms = f" {lessons.NOVIKOFF_TERMS}" if verdict[0] == "good" and bound is not None else ""
            {"good": st.success, "bad": st.error, "stop": st.warning}[verdict[0]](
                f"**{verdict[1]}** {verdict[2]}{terms}"
            )
            present.chart(
                st,
                viz.mistakes_spec(model.mistakes_per_epoch_, present.is_on()),
                alt="Mistakes in each pass.",
            )
    with below:
        alpha = np.bincount(model.update_points_[:shown], minlength=len(X))
        alpha_view = viz.alpha_spec(X, y, alpha, NAMES, present=present.is_on(), held=held)
        present.chart(st, alpha_view, alt=f"The points sized by {alpha_view['title']}.", width="content")
        st.caption(lessons.dual_caption(len(NAMES)))
        if not held:
            st.download_button(
                "Every update (CSV)", viz.updates_csv(model), "perceptron-updates.csv", key="pc_csv"
            )

if no_line.open:
    pocket_params = {**params, "max_epochs": lessons.pocket_passes(len(X), max_epochs)}
    pocket = compute("Perceptron", X, y, pocket=True, **pocket_params)
    exact = len(NAMES) == 2 and len(X) <= lessons.MAX_BEST_LINE_POINTS  # only then is the best line found
    best = compute("best_line_accuracy", X, y) if exact else None
    numbers = st.columns(3)  # the headline numbers, filled once the kernel is chosen below
    left, right = st.columns(2)
    # A question about the pocket or the kernel is asked: its points without its line and score.
    hide_pocket, hide_kernel = hidden(PAGE, "pocket"), hidden(PAGE, "kernel")
    if hide_pocket:
        title = lessons.pocket_title(None, len(NAMES))
        present.chart(left, viz.regions_spec(X, y, None, NAMES, title), alt=title)
        withheld(left, "The pocket's line")
    elif pocket.coef_.any():
        title = lessons.pocket_title(pocket.score(X, y), len(NAMES))
        present.chart(left, viz.regions_spec(X, y, pocket.decision_function, NAMES, title), alt=title)
        png = partial(viz.png, viz.regions_figure, X, y, pocket.decision_function, NAMES, title)
        left.download_button("Pocket (PNG)", png, "perceptron-pocket.png", "image/png", key="pc_pocket_png")
    else:
        left.warning("The pocket still holds w = 0, which is no line: allow more passes.")
    left.caption(lessons.pocket_caption(len(X), max_epochs))
    # Here, not in the sidebar: the kernel acts on this tab only.
    kernel = right.selectbox("Kernel perceptron", ["rbf", "polynomial"], key="pc_kernel", bind="query-params")
    curved = compute("DualPerceptron", X, y, kernel=kernel, gamma=2.0, max_epochs=200)
    if hide_kernel:
        title = lessons.kernel_title(kernel, None)
        present.chart(right, viz.regions_spec(X, y, None, NAMES, title), alt=title)
        withheld(right, "The kernel's boundary")
    else:
        title = lessons.kernel_title(kernel, curved.score(X, y), curved.converged_)
        present.chart(right, viz.regions_spec(X, y, curved.decision_function, NAMES, title), alt=title)
    right.caption("A kernel K(x, z) in place of x·z lets the same mistake-driven rule draw curves.")
    found = lessons.no_line_numbers(
        best, pocket, curved, X, y
    )  # two or three: the last column may stay empty
    for where, (part, label, value, why) in zip(numbers, found, strict=False):
        if hidden(PAGE, part):
            withheld(where, label)
        else:
            where.metric(label, value, help=why)

if general.open:
    st.write("As in the post: train on 25 points, then classify 1000 new points of the same square.")
    X_train, y_train = datasets.linearly_separable(25, random_state=seed)
    X_test, y_test = datasets.linearly_separable(1000, random_state=10_000 + seed)
    runs = compute("generalisation_runs", 25, 1000, range(100))
    left, right = st.columns(2)
    if len(np.unique(y_train)) == 2:
        learned = compute("Perceptron", X_train, y_train, max_epochs=lessons.PASSES_TO_CONVERGE)
        picture = viz.generalisation_spec(
            X_test, y_test, learned, X_train, y_train, NAMES[:2], present.is_on()
        )
        present.chart(left, picture, alt="The training points, both lines and 1000 test points.")
        left.metric(f"Test accuracy (seed {seed})", f"{learned.score(X_test, y_test):.1%}")
    present.chart(right, viz.spread_spec(runs.scores), alt="Test accuracy over 100 seeds and its median.")
    right.metric(f"Median over {len(runs.scores)} seeds", f"{np.median(runs.scores):.2%}")
    right.caption(lessons.generalisation_caption(runs))
    png = partial(viz.png, viz.spread_figure, runs.scores)  # drawn only when clicked
    right.download_button("Histogram (PNG)", png, "perceptron-spread.png", "image/png", key="pc_spread_png")

if size.open:
    limit, rows = compute("updates_against_size")
    st.markdown(lessons.SIZE_CLAIMS)
    held = hidden(PAGE, "size_updates")  # the sizes and the bound stay: the question's set-up
    st.table(viz.size_table(limit, rows, updates=not held))
    if held:
        withheld(st, "The number of updates each size needed")
    else:
        st.caption(f"Median: {lessons.size_medians(rows)}.")
    st.caption(lessons.band_caption())

try_this(PAGE, [Step(**step) for step in shared.perceptron_steps()])
# What "Ask about this view" reads (the keys are lessons.VIEW's): built only when it is opened.
about_this_view(
    PAGE,
    lambda: {
        "X": X,
        "y": y,
        "data": name,
        "seed": seed,
        "max_epochs": max_epochs,
        "shuffle": shuffle,
        "tab": next(
            (t for t, tab in zip(TABS, (every, no_line, general, size), strict=True) if tab.open), TABS[0]
        ),
        "frame": frame,
        "model": model,
        "verdict": verdict,
    },
)
compare_link(X, y, PAGE, name)
how_it_works(
    lessons.perceptron_textbook, lessons.classes_textbook, formulas=lessons.FORMULAS, text=lessons.HOW
)
