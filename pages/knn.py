"""k-NN: a map you scrub by k in the browser, a query you drag, and what scaling and metrics do."""

import numpy as np
import streamlit as st

from classic.knn import METRICS, WEIGHTS, KNNClassifier, minkowski_p, vote
from classic.viz import knn as view
from pages._ui import present
from pages._ui.lesson import Step, how_it_works, seed_input, try_this
from pages._ui.points import points_editor
from pages._ui.shell import ensure_app_shell


@st.cache_resource
def player():
    html, css, js = view.player_parts()
    return st.components.v2.component("knn_player", html=html, css=css, js=js)


# Bounded caches shared by every session: a grid table is at most view.PAYLOAD_BYTES.
neighbour_table = st.cache_data(max_entries=8, show_spinner="Finding every cell's neighbours…")(
    view.neighbour_table
)
server_map = st.cache_data(max_entries=8, show_spinner="Voting every cell on the server…")(view.region_map)
accuracy = st.cache_data(max_entries=16, show_spinner="Accuracy for every k…")(view.accuracy_view)
kdtree = st.cache_data(max_entries=16, show_spinner="Building the k-d tree…")(view.kdtree_view)
steps = st.cache_data(view.try_this_steps)


def new_data() -> None:
    qx, qy = view.DEFAULT_QUERY.get(st.session_state.knn_data, (0.0, 0.0))
    st.session_state.update(knn_qx=qx, knn_qy=qy)


def from_player() -> None:
    ss = st.session_state
    ss.knn_k, click = int(ss.knn_player.get("k") or ss.knn_k), ss.knn_player.get("click")
    if click and ss.get("knn_add") and ss.knn_data == view.YOURS:
        ss.knn_user_points.loc[len(ss.knn_user_points)] = [click["x"], click["y"], ss.knn_add_class]
    elif click:
        ss.update(knn_qx=round(click["x"], 2), knn_qy=round(click["y"], 2))


ensure_app_shell()
bound = {"bind": "query-params"}
st.title("k-nearest neighbours")
st.write(
    "A point takes the majority label of the k training points nearest to it. Scrub k under the map: at "
    "k = 1 the regions hug every point; as k grows they smooth out. Drag the ◆ query, or click to move it."
)
with st.sidebar:
    name = st.selectbox("Data", view.DATA_NAMES, key="knn_data", on_change=new_data, **bound)
    n_classes = st.slider(
        "Classes", 2, 5, 3, key="knn_classes", disabled=name not in view.MANY_CLASSES, **bound
    )
    n_points = st.slider("Points", 20, 1000, 100, 10, key="knn_points", disabled=name == view.YOURS, **bound)
    seed = seed_input("knn_seed")
if name == view.YOURS:
    st.session_state.setdefault("knn_user_points", view.starter_points())
    with st.sidebar:
        add = st.toggle("A click adds a point", key="knn_add")
        st.selectbox("of class", range(5), key="knn_add_class", disabled=not add)
        X, y_raw = points_editor("knn_user_points", "knn_editor", 5)
else:
    X, y_raw = view.lesson_data(name, n_points, n_classes, seed)
if len(X) < 2 or len(np.unique(y_raw)) < 2:
    st.warning("k-NN needs at least two points of two different classes: add some rows to the table.")
    st.stop()
classes, y = np.unique(y_raw, return_inverse=True)
class_names = [f"class {c}" for c in classes]
with st.sidebar:
    if st.session_state.get("knn_k", 1) > len(X):
        st.session_state.knn_k = len(X)
    k = st.slider("k (neighbours)", 1, len(X), min(8, len(X)), key="knn_k", **bound)
    metric = st.selectbox("Metric", METRICS, key="knn_metric", **bound)
    p = st.slider("p (Minkowski)", 1.0, 10.0, 3.0, 0.5, key="knn_p", disabled=metric != "minkowski", **bound)
    weights = st.selectbox("Weights", WEIGHTS, key="knn_weights", help="1, 1/d, 1/d², exp(−d²/h²)", **bound)
    h = st.slider("Bandwidth h", 0.05, 5.0, 1.0, key="knn_bandwidth", disabled=weights != "gaussian", **bound)
    scaling = st.selectbox("Scaling", list(view.SCALERS), key="knn_scaling", **bound)
    kd_ok = minkowski_p(metric, p) is not None
    algorithms = ("brute", "kdtree") if kd_ok else ("brute",)
    algorithm = st.selectbox(
        "Algorithm", algorithms, key="knn_algorithm", help="Same answers, fewer distances", **bound
    )
scale, offset = view.scaling(scaling, X)
Xs = (X - offset) / scale
params = dict(k=k, metric=metric, p=p, weights=weights, algorithm=algorithm, bandwidth=h)
model = KNNClassifier(**params).fit(Xs, y)

left, right = st.columns([5, 2] if present.is_on() else [3, 2])
with right:
    start = view.DEFAULT_QUERY.get(name, (0.0, 0.0))
    qx = st.number_input("Query x₁", value=start[0], key="knn_qx", format="%.2f", **bound)
    qy = st.number_input("Query x₂", value=start[1], key="knn_qy", format="%.2f", **bound)
    query, clipped = view.clip_query(qx, qy)
    if clipped:
        st.warning(clipped)
    q_dist, q_idx = model.kneighbors(((query - offset) / scale)[None])
    q_win, _, q_tied = vote(y[q_idx], q_dist, len(classes), weights, h)
    tie = "a tie: the nearest tied neighbour's class" if q_tied[0] else None
    st.metric("Prediction", class_names[q_win[0]], tie, delta_color="off")
    st.dataframe(
        {"neighbour": q_idx[0], "class": [class_names[c] for c in y[q_idx[0]]], "distance": q_dist[0]},
        hide_index=True,
        height=min(35 * (k + 1) + 3, 160 if present.is_on() else 250),
    )
    st.caption(f"Training accuracy at k = {k}: {model.score(Xs, y):.1%} · {len(X)} points")
    title = f"k = {k}, {metric}, {weights} weights, scaling {scaling}"
    png = lambda: view.regions_png(X, y, model, scale, offset, class_names, title)  # noqa: E731
    st.download_button("Map for slides (PNG)", png, "knn-regions.png", "image/png", key="knn_png")
    st.download_button("Points (CSV)", lambda: view.points_csv(X, y_raw), "knn-points.csv", key="knn_csv")
with left:
    weighted = weights != "uniform"
    table_id, table = neighbour_table(X, y, scale, offset, metric, p, weighted)
    winners = server_map(X, y, scale, offset, params) if k > view.player_size(len(X), weighted) else None
    mode = "add" if name == view.YOURS and st.session_state.get("knn_add") else "query"
    header = view.player_header(
        X, y, class_names, model, scale, offset, query, mode=mode, present=present.is_on()
    )
    header["tableId"], sent = table_id, st.session_state.get("knn_sent")  # the browser keeps tables it has
    needed = sent != table_id or (st.session_state.get("knn_player") or {}).get("need") == table_id
    st.session_state.knn_sent = table_id
    data = view.player_payload(header, table=table if needed else None, winners=winners)
    player()(
        data=data,
        key="knn_player",
        on_k_change=from_player,
        on_click_change=from_player,
        on_need_change=lambda: None,
        default={"k": k},
    )
if metric == "hamming":
    st.warning(view.hamming_note(Xs))
if view.ties_possible(y, k):
    st.info(view.TIE_RULE)

accuracy_tab, tree_tab = st.tabs(
    ["Accuracy against k", "k-d tree"], key="knn_tab", on_change="rerun", **bound
)
if accuracy_tab.open:
    spec, best_k, best = accuracy(Xs, y, seed, metric, p, weights, h)
    accuracy_tab.vega_lite_chart(spec, width="stretch", alt=view.ACCURACY_ALT)
    accuracy_tab.write(
        f"Leave-one-out accuracy is highest at **k = {best_k}** ({best:.1%}). "
        "Training accuracy at k = 1 is always 100%: each point is its own nearest neighbour."
    )
if tree_tab.open and not kd_ok:
    tree_tab.info(
        "The k-d tree prunes with the distance to a splitting line, which bounds Minkowski metrics only."
    )
elif tree_tab.open:
    spec, visited, depth = kdtree(X, y, scale, offset, query, k, minkowski_p(metric, p), class_names)
    tree_tab.vega_lite_chart(spec, width="stretch", alt=view.KDTREE_ALT)
    tree_tab.metric("Distances measured for this query", f"{visited} of {len(X)}", f"brute force: {len(X)}")
    tree_tab.write(view.depth_note(depth, len(X)))

try_this("knn", [Step(**step) for step in steps()])
how_it_works(view.textbook_knn, vote, formulas=view.FORMULAS, text=view.HOW_IT_WORKS)
