"""ID3 decision tree: grow a tree split by split on the sources' tables, the 1984 votes, 2-D points or a CSV."""

import hashlib

import streamlit as st

from classic import criteria, tables
from classic.lessons import points as point_sets
from classic.lessons import tree as lesson
from classic.lessons import tree_sources
from classic.viz import tree_figures as figures
from pages.server import url
from pages.server.shell import ensure_app_shell
from pages.widgets import points, present, shared
from pages.widgets import tree_views as views
from pages.widgets.data import load_house_votes
from pages.widgets.lesson import Step, about_this_view, compare_link, hidden, how_it_works, try_this, withheld
from pages.widgets.players import frame_player, linked_frame

ensure_app_shell()
evaluate = st.cache_data(max_entries=8, show_spinner="Cross-validating…")(lesson.evaluate)
protocol = st.cache_data(max_entries=2, show_spinner=False)(tree_sources.posts_protocol)
representation_sizes = st.cache_data(max_entries=1, show_spinner=False)(tree_sources.representation_sizes)


# Bounded: a tree grown on the largest upload keeps tens of MB of split tables (docs/measurements.md).
@st.cache_resource(max_entries=8, ttl=3600, show_spinner="Growing the tree…")
def grow(
    data: tuple, params: dict, prune: bool, fraction: float, seed: int, base: float, _X, _y, _names
) -> tuple:
    """The fitted tree and its player steps (entropies in log ``base``), shared by reruns and sessions
    (``data`` names the table)."""
    tree = lesson.new_tree(params, prune, fraction, seed).fit(_X, _y, _names)
    return tree, figures.player_steps(tree, base)


TABLES, VOTES, UPLOAD = lesson.data_sets(load_house_votes), lesson.VOTES, lesson.UPLOAD
CRITERIA, MISSING = lesson.CRITERION_NAMES, lesson.MISSING_NAMES
BASES, ROWS = lesson.LOG_BASES, lesson.VOTES_ROWS
TABS = ["Tree", "Regions", "Data & rules", "Evaluation", "AND vs parity"]
PAGE = "decision-tree"


def new_tree() -> None:
    """Another tree: show it whole, with the path of its first row."""
    for key in ("tree_step", "tree_row"):
        st.session_state.pop(key, None)


def pick_row() -> None:
    """A click on the regions chart draws the path of the point picked (the nearest to the click)."""
    picked = points.picked("tree_regions", "pick", ["row"])
    if picked is not None and picked[0].is_integer() and 0 <= picked[0] < tables.MAX_ROWS:
        st.session_state["tree_row"] = int(picked[0]) + 1


st.title("ID3 decision tree")
if not present.is_on():
    st.write(
        "At each node ID3 asks the question whose answer tells most about the label: the test whose split "
        "leaves the least uncertainty (entropy) behind. Play the tree's growth split by split."
    )
with st.sidebar:
    linked = {"bind": "query-params", "on_change": new_tree}
    name = st.selectbox("Data", list(TABLES), key="tree_data", **linked)
    rows_rule = lesson.AS_IN_THE_POST
    if name == VOTES:
        rows_rule = st.selectbox(
            "Grow the votes tree", list(ROWS), format_func=ROWS.get, key="tree_votes_rows", **linked
        )
    criterion = st.selectbox(
        "Split score", list(CRITERIA), format_func=CRITERIA.get, key="tree_criterion", **linked
    )
    unit = st.segmented_control(
        "Entropy in",
        list(BASES),
        default=list(BASES)[0],
        key="tree_log",
        disabled=not criteria.CRITERIA[criterion].logarithm,  # Gini has no logarithm
        bind="query-params",  # a unit, not a new tree: the step and the row stay
    )
    missing = st.selectbox(
        "Missing values", list(MISSING), format_func=MISSING.get, key="tree_missing", **linked
    )
    depth = st.slider("Maximum depth (0: no limit)", 0, 12, 0, key="tree_depth", **linked)
    min_gain = st.slider("Minimum score to split", 0.0, 0.5, 0.0, 0.01, key="tree_min_gain", **linked)
    prune = st.toggle("Reduced-error pruning", key="tree_prune", **linked)
    fraction = st.slider(
        "Validation fraction", 0.1, 0.5, 0.25, 0.05, key="tree_fraction", disabled=not prune, **linked
    )
    seed = int(st.number_input("Seed (points, held-out rows)", 0, 2**31 - 1, 0, key="tree_seed", **linked))
    row = int(st.number_input("Path of row", 1, tables.MAX_ROWS, 1, key="tree_row", bind="query-params"))

params, base = lesson.tree_params(criterion, missing, depth, min_gain), BASES.get(unit, 2.0)
if name == UPLOAD:
    upload = st.file_uploader(lesson.upload_label(), ["csv", "txt"], key="tree_upload", max_upload_size=1)
    if upload is None:
        st.info("Upload a CSV file to grow a tree on it; empty cells count as missing (“?”).")
        url.stop()
    try:
        table = tables.parse_csv(upload.getvalue())
        label = st.selectbox("Label column", table.columns, index=len(table.columns) - 1, key="tree_label")
        X, y, names = table.split(label)
        data = (hashlib.sha256(upload.getvalue()).hexdigest(), label)
        model, steps = grow(data, params, prune, fraction, seed, base, X, y, names)
    except ValueError as error:
        st.error(f"The file {url.code_span(upload.name)} cannot be used: {url.code_span(error)}")
        url.stop()
    st.caption(f":material/link_off: {lesson.UPLOAD_NOT_IN_LINK}")
elif name == lesson.YOURS:  # click, edit, upload; the points travel in the link as tree_user_points
    _, start, n_classes = point_sets.your_points("tree")
    X, y, names = lesson.point_table(*points.user_points("tree_user", n_classes, start, least=2))
    model, steps = grow((name, X.tobytes(), y.tobytes()), params, prune, fraction, seed, base, X, y, names)
else:
    loaded = TABLES[name](seed) if name in lesson.POINT_TABLES else TABLES[name]()
    if loaded is None:
        url.stop()
    X, y, names = whole = loaded
    if name == VOTES and rows_rule == lesson.AS_IN_THE_POST:  # the post: its 203 rows with a "?" are its test
        X, y = lesson.complete_rows(X, y)
    model, steps = grow((name, seed, rows_rule), params, prune, fraction, seed, base, X, y, names)
row, splits, present_on = min(row, len(y)), len(steps), present.is_on()
# A question on what the tree will do is asked: its splits stay out of every view until the reveal,
# which then opens the player on the first split (the answer, with its scores).
splits_hidden = hidden(PAGE, lesson.SPLITS)
revealing = not splits_hidden and st.session_state.pop("_tree_withheld", False)
if splits_hidden:
    st.session_state["_tree_withheld"] = True

tabs = dict(zip(TABS, st.tabs(TABS, key="tree_tab", on_change="rerun", bind="query-params"), strict=True))
shown = next((tab_name for tab_name, tab in tabs.items() if tab.open), TABS[0])
with tabs[shown]:
    if shown == "Tree":
        if revealing and splits:
            st.session_state["tree_step"] = 1
        step = linked_frame("tree_step", "tree_player", splits, splits)  # the player is its one control
        view = figures.player_data(model, step, present_on, X[row - 1], steps, withheld=splits_hidden)
        frame_player("tree_player.html", "tree_player", "tree_step", view)
        if splits_hidden:
            withheld(st, "Every split ID3 makes, with its scores,")
        else:
            st.caption(lesson.summary(model, X, y, row, url.code_span))
            if name == VOTES:
                st.caption(lesson.votes_rows_note(rows_rule, *whole[:2], model))
            if 0 < step <= splits:
                views.worked_by_hand(model, step, base, (X, y) if name == lesson.HASKIDS else None)
        if name == lesson.ARYA:
            views.post_beside_id3(X, y, names, X[row - 1], hidden(PAGE, lesson.ID3_TREE))
        if splits_hidden:  # what the question is asked on: the rows the root holds
            views.data_table(X, y, names)
    elif shown == "Regions" and not figures.on_a_plane(model, X):
        st.info("Choose 2-D points (clusters, moons, …, or your own), or upload two numeric columns.")
    elif shown == "Regions" and splits_hidden:  # the points under one box: the leaves' boxes are the splits
        spec = figures.regions_spec(lesson.unsplit(X, y, names), X, y, row - 1, present_on)
        present.chart(st, spec, key="tree_regions_asked", alt="The points, the tree's boxes hidden")
        withheld(st, "The tree's boxes, its splits and its size,")
    elif shown == "Regions":
        chart, tree = st.columns(2)
        spec, alt = figures.regions_spec(model, X, y, row - 1, present_on), lesson.REGIONS_ALT
        present.chart(chart, spec, key="tree_regions", on_select=pick_row, selection_mode="pick", alt=alt)
        with tree:
            view = figures.player_data(model, splits, present_on, X[row - 1], steps, tables=False)
            frame_player("tree_player.html", "tree_whole", "tree_step", view, report=False)
        st.caption(lesson.summary(model, X, y, row, url.code_span) + " Click a point to follow it.")
    elif shown == "Data & rules":
        views.data_and_rules(model, X, y, names, rules_hidden=splits_hidden)
    elif shown == "AND vs parity":
        sizes = representation_sizes()
        parity = not hidden(PAGE, lesson.PARITY)
        alt = "Nodes for AND and parity of n bits" if parity else "Nodes for AND of n bits"
        present.chart(st, figures.representation_spec(sizes, parity), alt=alt)
        st.caption(lesson.representation_text(sizes, parity))
        if not parity:
            withheld(st, "Parity's line, with its node count,")
    elif len(y) < 30:  # the Evaluation tab from here on
        st.info(f"With {len(y)} rows there is nothing to hold out: choose the 1984 votes or 2-D points.")
    elif not lesson.slow_to_evaluate(X) or st.toggle(lesson.evaluate_label(X, seed), key="tree_run"):
        result = evaluate(X, y, names, params, fraction, seed)
        views.show_table(lesson.evaluation_table(result, fraction))
        present.chart(st, figures.learning_curve_spec(result), alt="Accuracy against training rows")
        if name == VOTES:
            views.show_table(lesson.claims_table(protocol(*whole[:2]), *whole))
            st.caption(lesson.ties_note(protocol(*whole[:2])))

if name == UPLOAD:  # beside the steps' links, which cannot carry it either
    st.caption(f":material/link_off: {lesson.UPLOAD_NOT_IN_LINK}")
try_this(PAGE, [Step(**step) for step in shared.tree_steps()])
about_this_view(  # the keys: lesson.VIEW
    PAGE,
    lambda: {"data": name, "X": X, "y": y, "names": names, "params": params, "prune": prune, "model": model},
)
compare_link(X, y, "tree", name)
how_it_works(tree_sources.textbook_id3, criteria.split_scores, **lesson.HOW_IT_WORKS)
