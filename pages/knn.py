"""k-NN: decision regions that re-vote instantly as k moves; metrics, weights, scaling, k-d tree."""

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from classic import datasets, evaluation, plots
from classic.kdtree import KDTree
from classic.knn import (
    ALGORITHMS,
    METRICS,
    WEIGHTS,
    KNNClassifier,
    accuracy_by_k,
    leave_one_out_accuracy,
    minkowski_p,
    nearest_neighbors,
    region_grid,
    vote,
)
from classic.preprocessing import MinMaxScaler, StandardScaler
from pages._ui.downloads import download_figure, download_points
from pages._ui.lesson import how_it_works, seed_input
from pages._ui.points import chart_click, points_editor
from pages._ui.shell import ensure_app_shell
from pages._ui.url import share_in_url, write_url

ensure_app_shell()

YOURS = "Your points (click or edit the table)"
DATA = {
    "Gaussian clusters (the post's dummy data)": lambda n, c, s: datasets.gaussian_clusters(
        n // c, [(4 * np.cos(a), 4 * np.sin(a)) for a in np.linspace(0, 2 * np.pi, c, endpoint=False)], 1.5, s
    ),
    "Concentric circles": lambda n, c, s: datasets.concentric_circles(n, 0.12, s),
    "Moons": lambda n, c, s: datasets.moons(n, 0.15, s),
    "XOR": lambda n, c, s: datasets.xor(max(n, 4), 0.2, s),
    "Spiral": lambda n, c, s: datasets.spiral(n, c, 0.15, s),
    "One feature ×100 (shoe size in mm)": lambda n, c, s: datasets.stretched_clusters(n // 2, 100.0, s),
    YOURS: None,
}
SCALERS = {"none": None, "min-max": MinMaxScaler, "standardise": StandardScaler}
RESOLUTION, K_CACHED = 160, 64


def click_map(X, y, xs, ys, winner, class_names, query) -> None:
    """A coarse, clickable copy of the regions: a click selects the nearest grid cell."""
    step = max(1, len(xs) // 40)
    gx, gy = np.meshgrid(xs[::step], ys[::step])
    colours = alt.Scale(domain=class_names, range=plots.class_colors(len(class_names)))
    cells = pd.DataFrame(
        {
            "x1": gx.ravel(),
            "x2": gy.ravel(),
            "region": [class_names[c] for c in winner[::step, ::step].ravel()],
        }
    )
    points = pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1], "class": [class_names[c] for c in y]})
    pick = alt.selection_point(name="pick", on="click", nearest=True, fields=["x1", "x2"], clear=False)
    grid = (
        alt.Chart(cells)
        .mark_square(size=90, opacity=0.3)
        .encode(
            x=alt.X("x1", title="x₁"),
            y=alt.Y("x2", title="x₂"),
            color=alt.Color("region", scale=colours),
            tooltip=[
                alt.Tooltip("x1", title="x₁", format=".2f"),
                alt.Tooltip("x2", title="x₂", format=".2f"),
                "region",
            ],
        )
        .add_params(pick)
    )
    dots = (
        alt.Chart(points)
        .mark_circle(size=30, stroke="black", strokeWidth=0.5, opacity=1)
        .encode(x="x1", y="x2", color=alt.Color("class", scale=colours, legend=None))
    )
    star = (
        alt.Chart(pd.DataFrame({"x1": [query[0]], "x2": [query[1]]}))
        .mark_point(shape="diamond", size=140, color="black", filled=True)
        .encode(x="x1", y="x2")
    )
    st.altair_chart(grid + dots + star, on_select="rerun", selection_mode="pick", key="knn_map", height=260)


click = chart_click("knn_map", "pick")
st.title("k-nearest neighbours")
st.write(
    "A new point takes the majority label of the k training points nearest to it. With k = 1 the "
    "regions hug every point (low bias, high variance); as k grows they smooth out. The metric "
    "decides what *near* means, and unscaled features let one axis decide alone."
)

share_in_url(
    {
        "knn_data": list(DATA),
        "knn_seed": (0, 2**31 - 1),
        "knn_points": (20, 1000),
        "knn_classes": (2, 5),
        "knn_metric": list(METRICS),
        "knn_weights": list(WEIGHTS),
        "knn_scaling": list(SCALERS),
    }
)
with st.sidebar:
    name = st.selectbox("Data", list(DATA), key="knn_data")
    n_classes = st.slider(
        "Classes", 2, 5, 3, key="knn_classes", disabled="clusters" not in name and name != "Spiral"
    )
    n_points = st.slider("Points", 20, 1000, 200, step=10, key="knn_points", disabled=name == YOURS)
    seed = seed_input("knn_seed")
    st.button(
        "New points",
        key="knn_new",
        on_click=lambda: st.session_state.update(knn_seed=st.session_state.knn_seed + 1),
    )

if name == YOURS:
    if "knn_user_points" not in st.session_state:
        X0, y0 = datasets.gaussian_clusters(6, ((-2, 0), (2, 0)), 1.0, 0)
        st.session_state.knn_user_points = pd.DataFrame({"x1": X0[:, 0], "x2": X0[:, 1], "class": y0})
    if click and st.session_state.get("knn_click_mode", "").startswith("adds"):
        added = pd.DataFrame(
            {"x1": [click[0]], "x2": [click[1]], "class": [st.session_state.knn_click_class]}
        )
        st.session_state.knn_user_points = pd.concat(
            [st.session_state.knn_user_points, added], ignore_index=True
        )
        click = None
    st.caption(
        'Click the small map on the right (choose "adds a point of the chosen class" above it), '
        "or add, edit and delete rows in the table; classes are 0–4."
    )
    X, y_raw = points_editor("knn_user_points", "knn_editor", 5)
else:
    X, y_raw = DATA[name](n_points, n_classes, seed)
if len(X) < 2 or len(np.unique(y_raw)) < 2:
    st.warning("k-NN needs at least two points of two different classes: add some rows to the table.")
    st.stop()
classes, y = np.unique(y_raw, return_inverse=True)
class_names = [f"class {c}" for c in classes]

with st.sidebar:
    st.subheader("Classifier")
    k = st.slider("k (neighbours)", 1, len(X), min(5, len(X)), key="knn_k")
    metric = st.selectbox("Metric", METRICS, key="knn_metric")
    p = st.slider("p (Minkowski)", 1.0, 10.0, 3.0, 0.5, key="knn_p") if metric == "minkowski" else 2.0
    weights = st.selectbox(
        "Weights", WEIGHTS, key="knn_weights", help="distance = 1/d, distance2 = 1/d², gaussian = exp(−d²/h²)"
    )
    bandwidth = (
        st.slider("Bandwidth h", 0.05, 5.0, 1.0, key="knn_bandwidth") if weights == "gaussian" else 1.0
    )
    scaling = st.selectbox("Scaling", list(SCALERS), key="knn_scaling")
    algorithms = ALGORITHMS if minkowski_p(metric, p) is not None else ("brute",)
    algorithm = st.selectbox(
        "Algorithm",
        algorithms,
        key="knn_algorithm",
        help="Same answers; the k-d tree measures fewer distances.",
    )

write_url("knn_data", "knn_seed", "knn_points", "knn_classes", "knn_metric", "knn_weights", "knn_scaling")
scaler = SCALERS[scaling]() if SCALERS[scaling] else None
Xs = scaler.fit_transform(X) if scaler else X
xs, ys, grid = region_grid(X, RESOLUTION)


@st.cache_data(max_entries=16, show_spinner="Finding the neighbours of every pixel…")
def grid_neighbours(X, Xs, grid, scaling, metric, p, k_max):
    """Neighbour indices for the largest k, once per (data, metric, scaling): k only re-votes."""
    scaler = SCALERS[scaling]().fit(X) if SCALERS[scaling] else None
    return nearest_neighbors(scaler.transform(grid) if scaler else grid, Xs, k_max, metric, p)


k_max = min(len(X), max(K_CACHED, k))
distances, indices = grid_neighbours(X, Xs, grid, scaling, metric, p, k_max if k <= K_CACHED else k)
winner, shares, tied = vote(y[indices[:, :k]], distances[:, :k], len(classes), weights, bandwidth)
winner, tied = winner.reshape(RESOLUTION, RESOLUTION), tied.reshape(RESOLUTION, RESOLUTION)

model = KNNClassifier(k, metric, p, weights, algorithm, bandwidth).fit(Xs, y)
train_accuracy = model.score(Xs, y)

regions_tab, accuracy_tab, tree_tab = st.tabs(["Decision regions", "Accuracy against k", "k-d tree"])
with regions_tab:
    left, right = st.columns([3, 2])
    with right:
        st.markdown("**Inspect a query point**")
        if click:
            st.session_state.knn_qx, st.session_state.knn_qy = round(click[0], 2), round(click[1], 2)
        cx, cy = st.columns(2)
        if st.session_state.get("knn_query_data") != (name, seed, n_points, n_classes):
            # new data: the query starts at the centre of the points
            st.session_state.knn_query_data = (name, seed, n_points, n_classes)
            st.session_state.knn_qx, st.session_state.knn_qy = np.round(X.mean(axis=0), 2).tolist()
        qx = cx.number_input("x₁", key="knn_qx", format="%.2f")
        qy = cy.number_input("x₂", key="knn_qy", format="%.2f")
        query = np.array([qx, qy])
        show_voronoi = st.checkbox(
            "Voronoi cells of the training points (the 1-NN boundaries lie on them)", key="knn_voronoi"
        )
        q_scaled = scaler.transform(query[None]) if scaler else query[None]
        q_dist, q_idx = model.kneighbors(q_scaled)
        q_win, q_share, q_tied = vote(y[q_idx], q_dist, len(classes), weights, bandwidth)
        st.metric(
            "Prediction",
            class_names[q_win[0]],
            "tie broken by the nearest" if q_tied[0] else None,
            delta_color="off",
        )
        tally = pd.DataFrame(
            {"neighbour": q_idx[0], "class": [class_names[c] for c in y[q_idx[0]]], "distance": q_dist[0]}
        )
        st.dataframe(tally, hide_index=True, height=min(35 * (k + 1) + 3, 300))
        st.bar_chart(pd.Series(q_share[0], index=class_names, name="vote share"), height=180)
        st.markdown("**Click the map**")
        modes = ["moves the query point"] + (["adds a point of the chosen class"] if name == YOURS else [])
        st.radio("A click", modes, key="knn_click_mode", horizontal=True)
        if name == YOURS:
            st.selectbox("Class of added points", range(5), key="knn_click_class")
        click_map(X, y, xs, ys, winner, class_names, query)
    with left:
        fig, ax = plots.knn_figure(
            X, y, xs, ys, winner, tied, class_names, f"k = {k}, {metric}, {weights} weights"
        )
        if show_voronoi:
            plots.draw_cell_edges(ax, xs, ys, indices[:, 0].reshape(RESOLUTION, RESOLUTION))
        ball = None
        if scaling == "none" and minkowski_p(metric, p) is not None:
            ball = plots.ball_outline(query, q_dist[0, -1], minkowski_p(metric, p))
        plots.draw_query(ax, query, X[q_idx[0]], ball)
        plots.finish_legend(ax)
        st.pyplot(fig, width="stretch")
        st.caption(
            f"Training accuracy {train_accuracy:.1%} · {len(X)} points · grid {RESOLUTION}×{RESOLUTION}"
            + (" · the dashed ball is drawn in unscaled coordinates only" if scaling != "none" else "")
        )
        d1, d2 = st.columns(2)
        with d1:
            download_figure(fig, "knn-regions.png", key="knn_fig_download")
        with d2:
            download_points(X, y_raw, "knn-points.csv", key="knn_data_download")

with accuracy_tab:
    X_train, X_test, y_train, y_test = evaluation.train_test_split(Xs, y, 0.3, seed, stratify=len(X) >= 20)
    ks = np.arange(1, min(len(X_train), 60) + 1)
    curves = {
        "training": accuracy_by_k(X_train, y_train, X_train, y_train, ks, metric, p, weights, bandwidth),
        "held-out test (30%)": accuracy_by_k(
            X_train, y_train, X_test, y_test, ks, metric, p, weights, bandwidth
        ),
        "leave-one-out": leave_one_out_accuracy(Xs, y, ks[ks < len(X)], metric, p, weights, bandwidth),
    }
    curves["leave-one-out"] = np.pad(
        curves["leave-one-out"], (0, len(ks) - len(curves["leave-one-out"])), constant_values=np.nan
    )
    best_k = int(ks[np.nanargmax(curves["leave-one-out"])])
    st.pyplot(plots.accuracy_by_k_figure(ks, curves, best_k), width="stretch")
    st.write(
        f"Leave-one-out accuracy is highest at **k = {best_k}** ({np.nanmax(curves['leave-one-out']):.1%}). "
        "Training accuracy at k = 1 is always 100% (each point is its own nearest neighbour): it says nothing."
    )

with tree_tab:
    if minkowski_p(metric, p) is None:
        st.info(
            "The k-d tree prunes with the distance to a splitting line, which bounds Minkowski metrics only."
        )
    else:
        tree = KDTree(Xs)
        _, _, visited = tree.query(q_scaled[0], k, p=minkowski_p(metric, p))
        fig, ax = plots.new_figure(7.0, 6.0)
        splits = tree.splits()
        if scaler:
            splits = [split.rescaled(scaler.scale_, scaler.offset_) for split in splits]
        plots.draw_kd_splits(ax, splits)
        plots.scatter_classes(ax, X, y, class_names)
        plots.draw_query(ax, query, X[q_idx[0]])
        plots.finish_legend(ax)
        ax.set_title(f"k-d tree: {tree.n_nodes_} nodes, depth {tree.depth_}")
        st.pyplot(fig, width="stretch")
        st.metric(
            "Distances computed for this query",
            f"{visited} of {len(X)}",
            f"brute force: {len(X)}",
            delta_color="off",
        )

how_it_works(
    KNNClassifier.predict,
    vote,
    nearest_neighbors,
    formulas=[
        r"\hat y(x) = \arg\max_c \sum_{i \in N_k(x)} w_i\,[y_i = c]",
        r"w_i \in \{1,\ 1/d_i,\ 1/d_i^2,\ e^{-d_i^2/h^2}\}",
        r"\|a-b\|_p = \Big(\sum_j |a_j-b_j|^p\Big)^{1/p},\qquad \|a-b\|_2^2 = \|a\|^2 + \|b\|^2 - 2\,a\cdot b",
    ],
    text="Ties between classes go to the class of the nearest tied neighbour. The regions are "
    "computed by brute force for the largest k once, then only re-voted when k moves.",
)
