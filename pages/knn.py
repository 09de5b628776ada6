"""k-NN: a map you scrub by k in the browser, a query you drag, and what scaling and metrics do."""

import numpy as np
import streamlit as st

from classic.knn import (
    METRICS,
    WEIGHT_REGISTRY,
    WEIGHTS,
    KNNClassifier,
    knn_textbook,
    metric_suits,
    minkowski_p,
    vote,
)
from classic.lessons import knn as lesson
from classic.lessons import points as point_sets
from classic.viz import knn as view
from pages.server import guard, streamlit_private, url
from pages.server.shell import ensure_app_shell
from pages.widgets import present, shared
from pages.widgets.knn_tables import table_for
from pages.widgets.lesson import (
    Step,
    about_this_view,
    compare_link,
    hidden,
    how_it_works,
    seed_input,
    try_this,
    withheld,
)
from pages.widgets.players import component_player
from pages.widgets.points import add_point, user_points

# Bounded caches shared by every session (the neighbour tables and accuracy: pages/widgets/shared.py).
server_map = st.cache_data(max_entries=8, show_spinner="Voting every cell on the server…")(view.region_map)
kdtree = st.cache_data(max_entries=16, show_spinner="Building the k-d tree…")(view.kdtree_view)
edited = st.cache_data(max_entries=16, show_spinner="Editing the points…")(lesson.edited)
edit_accuracy = st.cache_data(max_entries=16)(lesson.edit_accuracy)


def new_data() -> None:  # new data: the query starts again where lesson.start_query puts it
    st.session_state.update(lesson.start_query(st.session_state.knn_data))


def from_player() -> None:  # the player's k, a click or the end of a drag: the browser's values, checked
    ss, k = st.session_state, st.session_state.get("knn_k", 1)
    ss.knn_k = guard.number(ss.knn_player.get("k") or k, 1, ss.get("knn_k_max", k), k, "k", True)
    click = guard.point(ss.knn_player.get("click"), "a click on the map")
    if click and ss.get("knn_add") and ss.get("knn_data") == lesson.YOURS:
        ss.knn_user_points = add_point(ss.knn_user_points, click, ss.get("knn_user_click_class", 0))
    elif click:
        ss.knn_qx, ss.knn_qy = round(click[0], 2), round(click[1], 2)


ensure_app_shell()
bound = {"bind": "query-params"}
DEFAULT = lesson.DEFAULTS
st.title("k-nearest neighbours")
hide = {part: hidden("knn", part) for part in lesson.PARTS}  # what the step asked now keeps back
if not present.is_on():  # a projector keeps its height for the map, its status and its legend
    st.write(lesson.intro(without_k=hide["intro_k"]))
top, below = st.container(), st.container()  # the map first; your points' widget under it
with st.sidebar:
    name = st.selectbox("Data", lesson.DATA_NAMES, key="knn_data", on_change=new_data, **bound)
    yours, n_classes = name == lesson.YOURS, DEFAULT["classes"]
    if name in lesson.MANY_CLASSES:  # the other sets have their own classes: no slider that does nothing
        n_classes = st.slider("Classes", 2, 5, DEFAULT["classes"], key="knn_classes", **bound)
    n_points = st.slider("Points", 20, 1000, DEFAULT["points"], 10, key="knn_points", disabled=yours, **bound)
    seed = seed_input("knn_seed", DEFAULT["seed"])
    if yours:
        st.toggle("A click on the map adds a point", key="knn_add", **bound)
if yours:
    with below:
        _, start, most = point_sets.your_points("knn")
        X, y_raw = user_points("knn_user", most, start)
else:
    X, y_raw = lesson.lesson_data(name, n_points, n_classes, seed)
if len(X) < 2 or len(np.unique(y_raw)) < 2:
    top.warning("k-NN needs at least two points of two different classes: add some.")
    url.stop()
classes, y_all = np.unique(y_raw, return_inverse=True)
class_names = [f"class {c}" for c in classes]
axes = lesson.axis_titles(name)  # the features' names where the data set has them
with st.sidebar:
    metric = st.selectbox("Metric", METRICS, key="knn_metric", **bound)
    p = st.slider(
        "p (Minkowski)", 1.0, 10.0, DEFAULT["p"], 0.5, key="knn_p", disabled=metric != "minkowski", **bound
    )
    scaling = st.selectbox("Scaling", list(lesson.SCALERS), key="knn_scaling", **bound)
    scale, offset = lesson.scaling(scaling, X)
    edit = st.selectbox(lesson.EDIT_LABEL, list(lesson.EDITS), key="knn_edit", **bound)
    kept = edited((X - offset) / scale, y_all, edit, metric, p)
    ss, n = st.session_state, len(kept)
    if "knn_k_set" in ss or ss.get("knn_k", 1) > n:
        ss.knn_k = min(ss.pop("knn_k_set", n), n)
    wanted = ss.get("knn_k")
    remade = ss.get("knn_k_max", n) != n  # the slider is made again for a new number of points
    ss.knn_k_max = n
    k = st.slider("k (neighbours)", 1, n, min(DEFAULT["k"], n), key="knn_k", **bound)
    if remade and wanted not in (None, k) and not streamlit_private.is_history_navigation():
        ss.knn_k_set = wanted  # a new n remade the slider: it took the link's k over a Try-this k
        st.rerun()
    formulas = ", ".join(weighting.formula for weighting in WEIGHT_REGISTRY.values())
    weights = st.selectbox("Weights", WEIGHTS, key="knn_weights", help=formulas, **bound)
    h = st.slider(
        "Bandwidth h", 0.05, 5.0, DEFAULT["h"], key="knn_bandwidth", disabled=weights != "gaussian", **bound
    )
    kd_ok = minkowski_p(metric, p) is not None
    algorithms = ("auto", "brute", "kdtree") if kd_ok else ("auto", "brute")
    algorithm = st.selectbox("Search (same answers)", algorithms, key="knn_algorithm", **bound)
dropped = np.setdiff1d(np.arange(len(X)), kept)
X_all, X, y = X, X[kept], y_all[kept]
Xs = (X - offset) / scale
# Every search gives the same answers: the fastest paints and scores, the chosen one finds the query's.
params = dict(k=k, metric=metric, p=p, weights=weights, bandwidth=h)
model = KNNClassifier(**params).fit(Xs, y)

left, right = top.columns([2, 1])  # the map takes two thirds of the width, on a projector or not
with right:
    start = lesson.start_query(name)
    qx = st.number_input("Query x₁", value=start["knn_qx"], key="knn_qx", format="%.2f", **bound)
    qy = st.number_input("Query x₂", value=start["knn_qy"], key="knn_qy", format="%.2f", **bound)
    query, clipped = lesson.clip_query(qx, qy)
    if clipped:
        st.warning(clipped)
    searched = KNNClassifier(**params, algorithm=algorithm).fit(Xs, y)  # a k-d tree takes s for k ≈ n
    prediction, tie, neighbours = lesson.query_view(searched, (query - offset) / scale, kept, class_names)
    tie = None if hide["ties"] else tie
    if not hide["prediction"]:  # kept back: the note under the map says so
        st.metric("Prediction", prediction, tie, delta_color="off", delta_arrow="off")  # a note, not a change
    if not hide["neighbour_table"]:  # its distances, and its order when they are equal
        st.table(neighbours, hide_index=True, height=min(35 * k + 38, 160 if present.is_on() else 250))
    if not hide["accuracy"]:
        st.caption(f"{lesson.training_accuracy(k, model.score(Xs, y))} · {len(X)} points")
    if not (hide["regions"] or hide["ties"]):  # the map for slides is the map: not before the reveal
        title = f"k = {k}, {metric}, {weights} weights, scaling {scaling}"
        png = lambda: view.regions_png(X, y, model, scale, offset, class_names, title, axes)  # noqa: E731 (built on click)
        st.download_button("Map for slides (PNG)", png, "knn-regions.png", "image/png", key="knn_png")
    st.download_button("Points (CSV)", lambda: view.points_csv(X_all, y_raw), "knn-points.csv", key="knn_csv")
with left:
    weighted = weights != "uniform"
    fields, table = table_for(X, y, scale, offset, metric, p, weighted, X_all, k)
    far = k > fields["fullK"]
    winners = server_map(X, y, scale, offset, params, X_all) if far else None
    mode = "add" if yours and st.session_state.get("knn_add") else "query"
    kept_back = [part for part in lesson.PLAYER_PARTS if hide[part]]
    shown = dict(mode=mode, present=present.is_on(), xlabel=axes[0], ylabel=axes[1], hide=kept_back, **fields)
    header = view.player_header(
        X, y, class_names, model, (scale, offset), query, (X_all[dropped], y_all[dropped]), **shown
    )
    data = view.player_payload(header, table=table, winners=winners)
    on = dict(on_k_change=from_player, on_click_change=from_player, on_need_change=lambda: None)
    component_player("knn_player.html")(data=data, key="knn_player", default={"k": k}, **on)
    if withholding := [said for part, said in lesson.WITHHELD.items() if hide[part]]:
        withheld(st, f"Part of the view ({', '.join(withholding)})")
    if len(dropped):
        st.caption(edit_accuracy((X_all - offset) / scale, y_all, edit, seed, params))
if not (suits := metric_suits(metric, Xs))[0] and not hide["metric_note"]:
    top.warning(suits[1])
if lesson.ties_possible(Xs, y, k, weights, metric, p) and not hide["ties"]:
    top.info(lesson.TIE_NOTE)

accuracy_tab, tree_tab = st.tabs(
    ["Accuracy against k", "k-d tree"], key="knn_tab", on_change="rerun", **bound
)
if accuracy_tab.open and hide["curves"]:
    withheld(accuracy_tab, "The accuracy against k")
elif accuracy_tab.open and hide["validation"]:  # the training curve alone: where do the others peak?
    spec = view.training_only(shared.knn_accuracy(Xs, y, seed, metric, p, weights, h)[0])
    present.chart(accuracy_tab, spec, width="stretch", alt=lesson.TRAINING_ALT)
    withheld(accuracy_tab, "Where held-out and leave-one-out accuracy peak")
elif accuracy_tab.open:
    spec, best_k, best = shared.knn_accuracy(Xs, y, seed, metric, p, weights, h)
    present.chart(accuracy_tab, spec, width="stretch", alt=lesson.ACCURACY_ALT)
    accuracy_tab.write(lesson.accuracy_note(best_k, best))
if tree_tab.open and hide["neighbours"]:
    withheld(tree_tab, "The search for the query's nearest points")
elif tree_tab.open and not kd_ok:
    tree_tab.info(lesson.KDTREE_METRICS)
elif tree_tab.open:
    shown = kdtree(X, y, scale, offset, query, k, minkowski_p(metric, p), class_names, axes)
    present.chart(tree_tab, shown.spec, width="stretch", alt=lesson.KDTREE_ALT)
    tree_tab.metric("Distances measured for this query", f"{shown.measured} of {len(X)}")
    tree_tab.markdown(lesson.pruning_note(shown.measured, shown.pruned, len(X), k, scaling != "none"))
    tree_tab.table(shown.decisions, hide_index=True, height=min(35 * len(shown.decisions) + 38, 400))
    tree_tab.write(lesson.depth_note(shown.depth, len(X)))

try_this("knn", [Step(**step) for step in shared.knn_steps()])
about_this_view(  # "Ask about this view": built only when the teacher opens the menu
    "knn", lambda: lesson.page_view(name, X, y, class_names, params, scaling, scale, offset, query, X_all)
)
compare_link(X_all, y_raw, "knn", name)
how_it_works(knn_textbook, vote, formulas=lesson.FORMULAS, text=lesson.HOW_IT_WORKS)
