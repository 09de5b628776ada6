"""ID3 decision tree: grow a tree by information gain on toy tables, the 1984 votes or a CSV."""

import shutil

import numpy as np
import pandas as pd
import streamlit as st

from classic import datasets, plots
from classic.id3 import (
    CRITERIA,
    ID3,
    MISSING,
    POST_ARYA_LAYOUT,
    PrunedID3,
    conditional_entropy,
    disagreement,
    entropy,
    evaluate,
    explain_split,
    gain_ratio,
    gini,
    information_gain,
    parse_categorical_csv,
    render_dot,
    rows_with_missing,
)
from pages._ui.data import load_house_votes
from pages._ui.downloads import download_table, figure_png
from pages._ui.lesson import how_it_works, seed_input
from pages._ui.shell import ensure_app_shell
from pages._ui.url import share_in_url, write_url

ensure_app_shell()

ARYA, SLIDES, VOTES, UPLOAD = (
    "Arya's riding data",
    "HasKids & Dora (slides)",
    "1984 congressional votes",
    "Upload a CSV",
)
TABLES = {
    ARYA: datasets.load_arya,
    "Play Tennis": datasets.load_play_tennis,
    SLIDES: datasets.load_has_kids,
    VOTES: load_house_votes,
    UPLOAD: None,
}
CRITERION_NAMES = {"entropy": "Information gain", "gain_ratio": "Gain ratio (C4.5)", "gini": "Gini impurity"}
MISSING_NAMES = {
    "branch": "Follow every branch (the post)",
    "value": "“?” is one more value",
    "majority": "Follow the majority branch",
}
DEPTHS = ["no limit", *range(1, 13)]
EVALUATE_FROM = 30  # rows: below this, cross-validation says nothing

st.title("ID3 decision tree")
st.write(
    "At each node ID3 asks the question whose answer tells most about the label: the feature whose "
    "split leaves the least uncertainty (entropy) behind. Pick a table, then watch the tree grow split by split."
)

share_in_url(
    {
        "tree_data": list(TABLES),
        "tree_criterion": list(CRITERIA),
        "tree_missing": list(MISSING),
        "tree_depth": DEPTHS,
        "tree_seed": (0, 2**31 - 1),
    }
)
with st.sidebar:
    name = st.selectbox("Data", list(TABLES), key="tree_data")
    criterion = st.selectbox(
        "Split criterion", CRITERIA, format_func=CRITERION_NAMES.get, key="tree_criterion"
    )
    missing = st.selectbox("Missing values (“?”)", MISSING, format_func=MISSING_NAMES.get, key="tree_missing")
    depth = st.select_slider("Maximum depth", DEPTHS, key="tree_depth")
    min_gain = st.slider(
        "Minimum score to split",
        0.0,
        0.5,
        0.0,
        0.01,
        key="tree_min_gain",
        help="A node splits only if the best score is above this.",
    )
    prune = st.toggle(
        "Reduced-error pruning",
        key="tree_prune",
        help="Grow on part of the rows, then cut subtrees while accuracy on the held-out rows does not drop.",
    )
    fraction = st.slider(
        "Validation fraction (pruning)", 0.1, 0.5, 0.25, 0.05, key="tree_fraction", disabled=not prune
    )
    seed = seed_input("tree_seed", label="Seed for splits")
params = {
    "criterion": criterion,
    "missing": missing,
    "max_depth": None if depth == "no limit" else depth,
    "min_gain": min_gain,
}


def uploaded_table() -> tuple | None:
    """The uploaded CSV as (X, y, names), or None after saying what is missing or wrong."""
    upload = st.file_uploader(
        "A CSV file: first row = column names, every column a category (≤ 1 MB, 5,000 rows, 40 columns)",
        type=["csv", "txt"],
        key="tree_upload",
        max_upload_size=1,
    )
    if upload is None:
        st.info("Upload a CSV file to grow a tree on it; empty cells count as missing (“?”).")
        return None
    try:
        table = parse_categorical_csv(upload.getvalue())
        label = st.selectbox(
            "Label column (what to predict)",
            table.columns,
            index=len(table.columns) - 1,
            key=f"tree_label_{'_'.join(table.columns)}",
        )
        return table.split(label)
    except ValueError as error:
        st.error(f"**{upload.name}** cannot be used: {error}.")
        return None


@st.cache_data(max_entries=32, show_spinner="Growing the tree…")
def grow(
    X: np.ndarray, y: np.ndarray, names: list[str], params: dict, prune: bool, fraction: float, seed: int
) -> ID3:
    model = PrunedID3(**params, validation_fraction=fraction, random_state=seed) if prune else ID3(**params)
    return model.fit(X, y, names)


@st.cache_data(max_entries=8, show_spinner="Cross-validating and drawing the learning curve…")
def evaluation(X: np.ndarray, y: np.ndarray, names: list[str], params: dict, fraction: float, seed: int):
    return evaluate(X, y, names, params, fraction, seed)


@st.cache_data(max_entries=8, show_spinner=False)
def evaluation_figures(
    X: np.ndarray, y: np.ndarray, names: list[str], params: dict, fraction: float, seed: int
):
    """The folds and learning-curve figures as PNG bytes (drawn once per setting, not per rerun)."""
    result = evaluation(X, y, names, params, fraction, seed)
    folds = plots.fold_scores_figure(
        {"unpruned": result.cv_unpruned, "pruned": result.cv_pruned}, "Stratified 10-fold cross-validation"
    )
    curve = plots.learning_curve_figure(
        result.curve_sizes,
        result.curve_train,
        result.curve_test,
        "Learning curve (mean and range of 5 shuffles)",
    )
    pictures = {"id3-folds": figure_png(folds), "id3-learning-curve": figure_png(curve)}
    plots.close(folds)
    plots.close(curve)
    return pictures


@st.cache_data(max_entries=32, show_spinner=False)
def drawing(dot: str, fmt: str) -> bytes:
    return render_dot(dot, fmt)


def tree_downloads(dot: str, stem: str, key: str) -> None:
    columns = st.columns(3)
    columns[0].download_button(
        "DOT source", dot, f"{stem}.dot", "text/vnd.graphviz", key=f"{key}_dot", on_click="ignore"
    )
    if shutil.which("dot") is None:
        columns[1].caption(
            "SVG/PNG need graphviz (`apt-get install graphviz`); the DOT file opens in any graphviz viewer."
        )
        return
    columns[1].download_button(
        "SVG", drawing(dot, "svg"), f"{stem}.svg", "image/svg+xml", key=f"{key}_svg", on_click="ignore"
    )
    columns[2].download_button(
        "PNG", drawing(dot, "png"), f"{stem}.png", "image/png", key=f"{key}_png", on_click="ignore"
    )


def direction(model: ID3) -> str:
    """Left to right for bushy trees: the page scrolls down, not sideways, and labels stay legible."""
    return "LR" if model.n_leaves_ > 10 else "TB"


def where(model: ID3, node) -> str:
    tests = model.conditions(node)
    return " and ".join(f"**{feature} = {value}**" for feature, value in tests) or "**the root** (all rows)"


table = uploaded_table() if name == UPLOAD else TABLES[name]()
if table is None:
    st.stop()
X, y, names = table
with st.expander(f"The data: {len(y)} rows, {len(names)} features, label classes {', '.join(np.unique(y))}"):
    st.dataframe(pd.DataFrame(X, columns=names).assign(label=y), hide_index=True)
    download_table(
        {**{n: X[:, j] for j, n in enumerate(names)}, "label": y}, "tree-data.csv", key="tree_data_csv"
    )

model = grow(X, y, names, params, prune, fraction, seed)
grown = grow(X, y, names, params, False, fraction, seed) if prune else model
tab_names = ["Tree", "Step by step", "Rules", "Evaluation"] + (
    ["The post's tree vs ID3"] if name == ARYA else []
)
tabs = dict(zip(tab_names, st.tabs(tab_names), strict=True))

with tabs["Tree"]:
    record, example = [], X[np.argmin(rows_with_missing(X))]  # a complete row, if there is one
    chooser = st.expander(
        "Classify a new record: choose its values (“?” = unknown)", expanded=len(names) <= 8
    )
    boxes = chooser.columns(min(len(names), 4))
    for j, feature in enumerate(names):
        options = list(dict.fromkeys([*model.categories_[j], "?"]))
        start = options.index(example[j]) if example[j] in options else 0
        record.append(
            boxes[j % 4].selectbox(feature, options, index=start, key=f"tree_record_{name}_{feature}")
        )
    proba = model.predict_proba([record])[0]
    odds = ", ".join(f"P({c}) = {p:.2f}" for c, p in zip(model.classes_, proba, strict=True))
    st.success(
        f"Prediction: **{model.classes_[np.argmax(proba)]}** ({odds}); its path, "
        f"{len(model.decision_path(record))} nodes, is drawn in orange."
    )
    compact = direction(model) == "LR"
    dot = model.to_dot(highlight=record, rankdir=direction(model), compact=compact)
    st.graphviz_chart(dot, width="content")
    if compact:
        st.caption(f"Each node shows the training rows of each class: {' / '.join(model.classes_)}.")
    numbers = st.columns(4)
    pruned_away = f"−{model.unpruned_n_nodes_ - model.n_nodes_} by pruning" if prune else None
    numbers[0].metric("Nodes", model.n_nodes_, pruned_away, delta_color="off")
    numbers[1].metric("Leaves", model.n_leaves_)
    numbers[2].metric("Depth", model.depth_)
    numbers[3].metric("Training accuracy", f"{model.score(X, y):.1%}")
    if prune:
        st.caption(
            f"Grown on {1 - fraction:.0%} of the rows, pruned on the other {fraction:.0%}: validation accuracy "
            f"{model.validation_accuracy_before_:.1%} before pruning, {model.validation_accuracy_:.1%} after."
        )
    tree_downloads(dot, "id3-tree", "tree_download")

with tabs["Step by step"]:
    steps = grown.steps_
    if not steps:
        st.info("The tree is a single leaf: no feature gains anything at the root (or the rows are pure).")
    else:
        if st.session_state.get("tree_step", 1) > len(steps):  # a smaller tree than last time
            st.session_state["tree_step"] = len(steps)
        k = st.slider("Split", 1, len(steps), key="tree_step") if len(steps) > 1 else 1
        step = steps[k - 1]
        st.markdown(
            f"Split {k} of {len(steps)} (growing on all {len(y)} rows, before pruning): the node reached by {where(grown, step.node)}, {step.node.n_samples} rows, asks about **{step.chosen}**."
        )
        bushy = direction(grown) == "LR"
        st.graphviz_chart(
            grown.to_dot(splits=k, focus=step.node.id, rankdir=direction(grown), compact=bushy),
            width="content",
        )
        explained = explain_split(step, X, y)
        table = pd.DataFrame(explained.columns)
        winner = [
            "background-color: #F8E2B3; font-weight: bold" if f == step.chosen else ""
            for f in table["feature"]
        ]
        st.dataframe(table.style.format(precision=3).apply(lambda _: winner), hide_index=True)
        verdict = (
            "agrees"
            if explained.post_choice == step.chosen
            else f"would have chosen **{explained.post_choice}**"
        )
        st.caption(
            f"The winner is highlighted. The post's code subtracts the subsets' entropies without weighting each "
            f"by its share |S_v|/|S| (last column); here it {verdict}."
        )
        with st.expander(
            "Entropy of each subset: the terms of the weighted sum", expanded=len(step.features) <= 4
        ):
            for feature, (terms, total) in explained.terms.items():
                parts = ", ".join(f"H(y | {feature} = {v}) = {h:.3f} ({n} rows)" for v, n, h in terms)
                st.markdown(f"- {parts} → H(y | {feature}) = {total:.3f}")

with tabs["Rules"]:
    rules = model.rules()
    st.markdown(
        f"{len(rules)} rules, one per leaf, grouped by the label they predict (the tree in disjunctive normal form):"
    )
    st.code("\n".join(rules), language=None)
    st.download_button(
        "Rules (text)",
        "\n".join(rules),
        "id3-rules.txt",
        "text/plain",
        key="tree_rules_txt",
        on_click="ignore",
    )

with tabs["Evaluation"]:
    if len(y) < EVALUATE_FROM:
        st.info(
            f"With {len(y)} rows there is nothing to hold out: choose the 1984 congressional votes (or a CSV of {EVALUATE_FROM}+ rows)."
        )
    else:
        result = evaluation(X, y, names, params, fraction, seed)
        if result.protocol is not None:
            train_rows, test_rows = result.protocol_rows
            st.metric(
                f"The post's test: trained on the {train_rows} complete rows, tested on the {test_rows} with a “?”",
                f"{result.protocol:.1%}",
            )
        cv = st.columns(2)
        for column, label, scores, nodes in (
            (cv[0], "10-fold cross-validation, unpruned", result.cv_unpruned, result.nodes_unpruned),
            (
                cv[1],
                f"…with pruning ({fraction:.0%} of each training part held out)",
                result.cv_pruned,
                result.nodes_pruned,
            ),
        ):
            column.metric(
                label,
                f"{scores.mean():.1%}",
                f"{nodes.mean():.0f} nodes on average",
                delta_color="off",
                delta_arrow="off",
            )
        pictures = evaluation_figures(X, y, names, params, fraction, seed)
        for column, (stem, png) in zip(st.columns(2), pictures.items(), strict=True):
            column.image(png)
            column.download_button(
                "Download figure (PNG)",
                png,
                f"{stem}.png",
                "image/png",
                key=f"tree_{stem}_png",
                on_click="ignore",
            )
        download_table(
            {
                "training rows": result.curve_sizes,
                "train accuracy": result.curve_train.mean(0),
                "held-out accuracy": result.curve_test.mean(0),
            },
            "id3-learning-curve.csv",
            key="tree_curve_csv",
            label="Learning curve (CSV)",
        )

if name == ARYA:
    with tabs["The post's tree vs ID3"]:
        post = ID3(**params).fit_layout(X, y, POST_ARYA_LAYOUT, names)
        left, right = st.columns(2)
        left.markdown("**The post's hand-drawn tree**")
        left.graphviz_chart(post.to_dot(), width="content")
        right.markdown("**The tree ID3 builds**")
        right.graphviz_chart(grown.to_dot(), width="content")
        gains = {c.feature: c.score for c in post.steps_[0].candidates()}
        differ, possible = disagreement(post, grown)
        scores = ", ".join(
            f"{feature} {score:.3f}" for feature, score in sorted(gains.items(), key=lambda g: -g[1])
        )
        choice = grown.root_.feature
        verdict = (
            f"ID3 takes the best, **{choice}**, and needs {grown.n_leaves_} leaves at depth {grown.depth_}"
            if choice
            else "with these settings ID3 splits nothing (no score is above the minimum)"
        )
        st.markdown(
            f"At the root the {CRITERION_NAMES[criterion].lower()} scores are {scores}. The post put **Wind** "
            f"first; {verdict}. Training accuracy: {post.score(X, y):.0%} for the post's tree, {grown.score(X, y):.0%} "
            f"for ID3's. The post's tree has a leaf no day reached (Wind = Low, Temperature = Hot: its “None”), "
            f"which answers with its parent's majority. Over all {possible} possible days the two trees disagree on "
            f"{differ}: same six days, different generalisation."
        )

how_it_works(
    entropy,
    conditional_entropy,
    information_gain,
    gain_ratio,
    gini,
    ID3._choose,
    ID3.prune,
    formulas=[
        r"H(S) = -\sum_c p_c \log_2 p_c \qquad G(S) = 1 - \sum_c p_c^2",
        r"\mathrm{Gain}(S, A) = H(S) - \sum_v \frac{|S_v|}{|S|} H(S_v)",
        r"\mathrm{GainRatio}(S, A) = \frac{\mathrm{Gain}(S, A)}{-\sum_v \frac{|S_v|}{|S|}\log_2 \frac{|S_v|}{|S|}}",
    ],
    text="ID3 scores every unused feature at a node, splits on the best one (one child per value) and recurses; "
    "a node is a leaf when it is pure, no feature is left or gains enough, or the depth limit is reached. "
    "Missing values: the gain is computed on rows where the feature is known, times the fraction known. "
    "Pruning replaces the subtree whose removal helps validation accuracy most by a majority leaf, until it would hurt.",
)
write_url("tree_data", "tree_criterion", "tree_missing", "tree_depth", "tree_seed")
