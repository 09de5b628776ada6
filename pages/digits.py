"""Digits: draw a digit and watch k-NN read it against the 1593 Semeion digits."""

import time

import numpy as np
import streamlit as st

from classic import digits, evaluation
from classic.knn import METRICS, WEIGHTS, metric_suits
from classic.lessons import digits as lesson
from classic.viz import digits as view
from pages.classroom import class_draw
from pages.server.shell import ensure_app_shell
from pages.widgets import canvas, grid_input, present, shared
from pages.widgets.data import load_semeion
from pages.widgets.lesson import Step, about_this_view, hidden, how_it_works, try_this, withheld

ensure_app_shell()
GRID_KEY = "digits_keys_grid"  # the keyboard grid's component


@st.cache_resource(max_entries=4, show_spinner="Preparing the training digits…")
def model(X, y, **settings):  # k is chosen at each vote: moving k refits nothing
    return digits.DigitClassifier(**settings).fit(X, y)


projector = present.is_on()
st.title("Handwritten digits")
HOW = (
    " Like the 1593 Semeion digits (written by about 80 people), it is cropped to its ink, stretched to fill "
    "a 16×16 box in both directions and made black and white; one step is ours: a narrow drawing (a bare 1) "
    "is widened first, so it is not stretched into a black square."
)
st.write(f"Draw a digit.{'' if projector else HOW} Then the k most similar Semeion digits vote on it.")
first = lesson.sidebar_defaults()  # the settings of classic.digits.default_model
with st.sidebar:
    k = st.slider("k (neighbours)", 1, 50, first["k"], key="digits_k", bind="query-params")
    metric = st.selectbox("Metric", METRICS, first["metric"], key="digits_metric", bind="query-params")
    weights = st.selectbox("Weights", WEIGHTS, first["weights"], key="digits_weights", bind="query-params")
    smooth = st.checkbox("Blur (Gaussian, σ = 1 cell)", first["blur"], key="digits_blur", bind="query-params")
    euclid = metric == "euclidean"  # shifts and tangent distance are Euclidean
    invariance = st.selectbox(
        "Invariance",
        digits.INVARIANCES,
        first["invariance"],
        key="digits_invariance",
        bind="query-params",
        disabled=not euclid,
    )
    sheared = st.checkbox(
        f"Sheared copies (±{digits.SHEAR})", first["shear"], key="digits_shear", bind="query-params"
    )
    pen = st.slider("Pen width", 6, 40, 18, key="digits_pen", bind="query-params")
invariance = invariance if euclid else "none"
settings = {"k": k, "metric": metric, "weights": weights, "blur": float(smooth), "invariance": invariance}
settings["shear"] = digits.SHEAR if sheared else 0.0
canvas.read_link()

data = load_semeion()
taught = st.session_state.setdefault("digits_taught", [])
X, y = digits.with_examples(*(data or (None, None)), taught)
# A metric that means nothing on what it measures (Chebyshev on black-and-white pixels, Hamming on
# blurred ones: about one digit in ten read right) says so before anyone trusts its numbers.
if X is not None and len(X) and not (suits := metric_suits(metric, digits.blur(X[:100], float(smooth))))[0]:
    st.warning(
        f"{suits[1]} Its digits and accuracies below mean little: pick another metric.",
        icon=":material/warning:",
    )
# While this session teaches a class: "Everyone draws a …", the phones' drawings read by this model.
class_draw.projector(lambda Xt, yt: model(Xt, yt, **{**settings, "k": 1}), X, y, k)
draw_tab, evaluation_tab, ladder_tab = st.tabs(
    ["Draw", "Evaluation", "How far can k-NN go"], key="digits_tab", on_change="rerun", bind="query-params"
)
seen = None  # the drawing's grid, when the page reads it ("Ask about this view")
if draw_tab.open:
    with draw_tab:
        # The canvas needs a mouse or a finger's drag; the grid gives the same 16×16 grid by keys or taps.
        # Presenting, the switch goes beside the canvas, not above it: the canvas stays on a 720p screen.
        switch = {
            "label": "Draw with the keyboard (16×16 grid)",
            "key": "digits_keyboard",
            "help": "A grid of cells instead of the canvas: arrow keys move, Space or one tap toggles a cell.",
        }
        keyboard = bool(st.session_state.get("digits_keyboard")) if projector else st.toggle(**switch)
        # A projector gets a canvas filling its column, for a hall to see; the pen widens with it,
        # so a drawing looks (and reads) the same at either size: the slider is the 280 px pen.
        size = 440 if projector else 280
        cell = 26 if projector else 24  # the grid's cells: 24 CSS px at least (WCAG 2.5.8)
        width = max(size, 16 * cell + 40) if keyboard else size
        # The grid (16 cells of 24 px at least) needs the room a projector's canvas has: it gets its layout.
        columns = st.columns([width + 30, 450] if projector or keyboard else [width + 30, 250, 300])
        if projector or keyboard:  # the answer above what the classifier sees and the vote, side by side
            left, right = columns
            if projector:
                right.toggle(**switch)
            middle, (shown, voted) = right.container(), right.container().columns([1, 2])
        else:
            left, middle, right = columns
            shown, voted = middle, right
        refused = ""
        with left:
            if keyboard:  # read first; drawn below once the page knows what to announce
                drawing, refused = grid_input.read(GRID_KEY)
                grid_spot = st.container()
            else:
                drawing = canvas.drawing(size, round(pen * size / 280), **view.CANVAS)
        if refused:
            middle.warning(refused)
        seen = drawing.grid if drawing.ok else None
        said = drawing.message  # what the page made of it, in words: the grid's live region says it
        if drawing.status == "empty":
            middle.info(drawing.message)
        elif hidden("digits", "reading"):  # what the page makes of it: read, or a note (dot, too small…)
            withheld(middle, "What the page makes of your drawing")
            said = "What the page makes of your drawing is hidden until the answer is revealed."
        elif not drawing.ok:
            middle.warning(drawing.message)
        elif len(y) < k:
            said = f"There are only {len(y)} training digits: teach some, or lower k."
            middle.warning(said)
        else:
            fitted, started = model(X, y, **{**settings, "k": 1}), time.perf_counter()
            labels, share, distances, indices = fitted.vote(drawing.grid.reshape(1, -1), k)
            elapsed, digit = time.perf_counter() - started, int(labels[0])
            middle.html(view.prediction_html(digit, share[0].max(), 2.0 if projector else 1.25))
            said = f"Read as {digit} with {share[0].max():.0%} of the vote"
            middle.caption(f"Read in {elapsed * 1e3:.1f} ms")
            chart = view.vote_chart(share[0], digit, 200 if projector else 240)
            present.chart(voted, chart, alt=f"The vote: {share[0].max():.0%} for {digit}")
            st.markdown(f"**The {k} nearest training digits** (label and distance, nearest first)")
            st.image(**view.neighbour_strip(X, y, distances[0], indices[0], len(y) - len(taught)))
        if keyboard:
            with grid_spot:
                grid_input.show(GRID_KEY, said, cell)
        if drawing.grid is not None and hidden("digits", "seen_grid"):
            withheld(shown, "What it sees")
        elif drawing.grid is not None:
            shown.image(**view.seen_grid(drawing.grid, 8 if projector else 10))
        with st.container(border=True):
            st.markdown("**Teach mode**: add your drawing to the training set for this session.")
            c1, c2, c3 = st.columns(3)
            label = c1.selectbox("This was a", range(10), key="digits_label", label_visibility="collapsed")
            if c2.button(f"This was a {label}", key="digits_teach", disabled=not drawing.ok):
                st.session_state.digits_taught = [*taught, (drawing.grid, int(label))]
                st.rerun()
            if c3.button("Forget my examples", key="digits_forget", disabled=not taught):
                st.session_state.digits_taught = []
                st.rerun()
            st.caption(lesson.taught_caption(len(taught), only=data is None))

if data is None and not draw_tab.open:
    st.info("The evaluation and the ladder need the Semeion data set.")
elif not draw_tab.open:
    curves = {name: shared.digits_results(data, **params)[0] for name, params in digits.RUNGS}
    rungs = digits.rung_scores(curves)
if data is not None and evaluation_tab.open:
    with evaluation_tab:
        mine, test, predicted = shared.digits_results(data, **settings)
        curves["your settings"] = mine
        st.write(
            "The post's protocol: shuffle the 1593 digits, train on 800, test on the other 793 (five shuffles). "
            "Plain k-NN is the post's; each improvement is its own line, and your settings the dashed black one."
        )
        # While a step asks for an accuracy, each part that shows it is left out, saying so.
        c1, c2 = st.columns(2)
        if hidden("digits", "plain_tile"):
            withheld(c1, "Plain k-NN's accuracy")
        else:
            c1.metric("Plain k-NN, k = 1 (the post: 89%)", f"{rungs[0][1]:.1%}")
        if hidden("digits", "your_tile"):
            withheld(c2, "The accuracy of your settings")
        else:
            spread = lesson.accuracy_range(mine, k)
            c2.metric(f"Your settings, k = {k}", f"{mine[:, k - 1].mean():.1%}", spread, delta_color="off")
        # Asked, the chart keeps its frame (the axes, the settings, the rule at k) for the class to
        # predict in, right under the question, and draws its lines once the answer is revealed.
        lines = not hidden("digits", "curves")
        # The height is the whole figure's: presenting, its 18 px legend and axes take more of it.
        chart = view.accuracy_chart(shared.KS, curves, k, 440 if projector else 340, lines=lines)
        what = "one line per setting" if lines else "its lines hidden"
        present.chart(st, chart, alt=f"Test accuracy against k from 1 to 50, {what}")
        if lines:
            png = lambda: view.accuracy_png(shared.KS, curves)  # noqa: E731  (built only when clicked)
            st.download_button("Download figure (PNG)", png, "digits-accuracy.png", key="digits_acc_download")
        else:
            withheld(st, "Each setting's line")
        truth, guess = data[1][test[0]], predicted[0, k - 1]  # the first shuffle
        if hidden("digits", "confusion"):
            withheld(st, "The confusion matrix, with how many digits it read wrong,")
            st.markdown("**Some test digits it got wrong** (first shuffle), *true → read as*")
        else:
            matrix = evaluation.confusion_matrix(truth, guess, range(10))
            alt = f"Confusion matrix of your settings at k = {k} on the first shuffle"
            # Presenting, its cells are as wide as the text.
            confusion = view.confusion_chart(matrix, 52 if projector else 34)
            present.chart(st, confusion, width="content", alt=alt)
            wrong = f"{np.sum(guess != truth)} of {len(truth)}"
            st.markdown(f"**Test digits it got wrong** ({wrong}, first shuffle), *true → read as*")
        st.image(**view.mistake_strip(data[0][test[0]], truth, guess))
if data is not None and ladder_tab.open:
    with ladder_tab:
        st.write("The post stops at plain k-NN. Each rung keeps the one below and adds one idea; still k-NN.")
        if hidden("digits", "ladder"):
            withheld(st, "Each rung's accuracy and gain")
            st.markdown(lesson.rung_notes(rungs, digits.RUNG_NOTES, gains=False))
        else:
            present.chart(st, view.ladder_chart(rungs), alt="Each rung's mean accuracy and its gain")
            st.markdown(lesson.rung_notes(rungs, digits.RUNG_NOTES))
        st.caption(f"For scale: scikit-learn's SVC, blurred digits, same splits: {digits.SVC_REFERENCE:.1%}.")

if data is not None:
    (plain, tests, _), (blurred, _, _) = (
        shared.digits_results(data, **params) for _, params in digits.RUNGS[:2]
    )
    steps = lesson.try_this_steps(plain, blurred, tested=tests.shape[1])  # each shuffle's test digits
    try_this("digits", [Step(**step) for step in steps])
    about_this_view(
        "digits",
        lambda: {
            "model": model(X, y, **{**settings, "k": 1}),
            "y": y,
            "k": k,
            "settings": settings,
            "grid": seen if len(y) >= k else None,
            "accuracy": mine if evaluation_tab.open else None,
        },
    )
how_it_works(digits.grid_from_ink, digits.two_sided_tangent_distances, **lesson.HOW_IT_WORKS)
