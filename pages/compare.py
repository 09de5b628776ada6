"""Compare: one 2-D data set through the perceptron, k-NN and an ID3 tree, side by side on one scale."""

import streamlit as st

from classic import compare
from classic.lessons import compare as lesson
from classic.lessons import points as point_sets
from classic.viz import compare as draw
from pages.server import url
from pages.server.shell import ensure_app_shell
from pages.widgets import present, shared
from pages.widgets.downloads import download_points
from pages.widgets.lesson import Step, about_this_view, hidden, how_it_works, try_this, withheld
from pages.widgets.points import user_points

ensure_app_shell()

RESOLUTION = shared.COMPARE_RESOLUTION
NAMES = ["class 0", "class 1"]
URL = {"bind": "query-params"}
DEFAULT = lesson.DEFAULTS  # the first data set and perceptron in their lists are the defaults too

st.title("Three classifiers, one data set")
if not present.is_on():  # a projector keeps its height for the panels
    st.write(
        "The same points, split the same way, through three classifiers on the same axes: the perceptron's "
        "line, the vote of the k nearest neighbours, and a tree of axis-aligned cuts. Filled points trained "
        "each classifier; open ones were held out to test it."
    )

with st.sidebar:
    name = st.selectbox("Data", [*lesson.DATASETS, lesson.YOURS], key="cmp_data", **URL)
    generated = {"disabled": name == lesson.YOURS, **URL}
    n_points = st.slider("Points", 20, 1000, DEFAULT["points"], step=10, key="cmp_points", **generated)
    seed = int(st.number_input("Seed (data and split)", 0, 2**31 - 1, DEFAULT["seed"], key="cmp_seed", **URL))
    flip = st.slider("Flipped labels (noise, %)", 0, 40, DEFAULT["flip"], step=5, key="cmp_flip", **generated)
    st.subheader("Classifiers")
    kind = st.selectbox("Perceptron", compare.PERCEPTRONS, key="cmp_perceptron", **URL)
    k = st.slider("k (neighbours)", 1, 100, DEFAULT["k"], key="cmp_k", **URL)
    depth = st.slider("Tree depth (most tests on a path)", 1, 20, DEFAULT["depth"], key="cmp_depth", **URL)


# On a projector the panels come first, above your points' editor; elsewhere you edit, then see.
first, second = st.container(), st.container()
editor_area, panel_area = (second, first) if present.is_on() else (first, second)
if name == lesson.YOURS:  # click, edit, upload; the points travel in the link as cmp_user_points
    with editor_area:
        _, start, n_classes = point_sets.your_points("compare")
        X, y = user_points("cmp_user", n_classes, start, NAMES)
else:
    X, y = shared.compare_points(name, n_points, seed, flip)
problem = compare.comparison_problem(X, y)
if problem:
    st.warning(problem)
    url.stop()

data = compare.split(X, y, seed)
params = {"perceptron": {"perceptron": kind}, "knn": {"k": k}, "tree": {"max_depth": depth}}
results = {c: shared.compare_fitted(c, X, y, seed, **params[c]) for c in compare.NAMES}
results["knn"] = compare.with_knn_regions(results["knn"], shared.compare_neighbours(X, y, seed), data)
_, low, high = compare.box(X, RESOLUTION)
# While a "Try this" step is asked, what would give its answer away is left out until the reveal.
hide = {part: hidden("compare", part) for part in lesson.PARTS}
unseen = {c: hide.get(f"{c}_regions", False) for c in results}  # a panel drawn without its regions
titles = {c: compare.title(c, result, kind, leaves=not unseen[c]) for c, result in results.items()}
regions = {c: None if unseen[c] else result.regions for c, result in results.items()}
lines = {
    "perceptron": None if unseen["perceptron"] else compare.line_ends(results["perceptron"].model, low, high)
}

dots = draw.point_values(data, NAMES)
panel_area.caption(
    draw.KEY
)  # the panels' legend, above them: on a projector the foot of the page is out of sight
for column, (c, result) in zip(panel_area.columns(3, gap="small"), results.items(), strict=True):
    with column:
        big = present.is_on()  # a projector: labels of 18 px
        spec = draw.panel_spec(
            regions[c],
            dots,
            low,
            high,
            NAMES,
            titles[c],
            lines.get(c),
            350 if big else 340,  # about square plots in a third of the width
            18 if big else 12,
        )
        drawn = (
            f"{len(X)} points ({name})"
            if unseen[c]
            else f"its decision regions over {len(X)} points ({name})"
        )
        scored = "" if hide[lesson.SCORES] else f"; {compare.scores(result)}"
        present.chart(st, spec, width="stretch", alt=f"{titles[c]}: {drawn}{scored}.")
        if unseen[c]:
            withheld(st, "Its boundary")
        shown = compare.numbers(result)  # the held-out accuracy is the headline, large on a projector
        if not hide[lesson.SCORES]:
            st.metric(
                "Held out", shown.held_out, f"{shown.training} training", delta_color="off", delta_arrow="off"
            )
        st.caption(shown.times)
if hide[lesson.SCORES]:
    withheld(panel_area, "Each accuracy")

st.markdown("**What the pictures show**")
if hide[lesson.SAID]:
    withheld(st, "What they show")
else:
    said = lesson.describe(name, results, results["knn"].model.k, kind)
    st.markdown("\n".join(f"- {sentence}" for sentence in said))
if k > results["knn"].model.k:
    st.caption(f"k is capped at the {results['knn'].model.k} training points.")
st.caption(
    f"{len(data.y_train)} training points (filled) and {len(data.y_test)} held out (open), split by seed {seed}. "
    "Times: one fit, and predicting the held-out points, on this server when the setting was first drawn."
)

panels = [(titles[c], regions[c], lines.get(c)) for c in results]  # as shown: nothing a step hides
downloads = st.columns(3)
for column, fmt in zip(downloads, ("png", "svg"), strict=False):
    column.download_button(
        f"Download the panels ({fmt.upper()})",
        lambda fmt=fmt: draw.figure_bytes(panels, data, low, high, NAMES, fmt),
        f"compare.{fmt}",
        {"png": "image/png", "svg": "image/svg+xml"}[fmt],
        key=f"cmp_{fmt}",
    )
with downloads[2]:
    download_points(X, y, "compare-points.csv", key="cmp_csv")

try_this(
    "compare",
    [
        Step(
            q.title,
            {f"cmp_{s}": v for s, v in q.settings.items()},
            q.question,
            q.options,
            q.answer,
            q.why,
            q.hides,
            q.tells,
        )
        for q in shared.compare_questions()
    ],
)
# Flipped labels apply to the generated sets only (the slider is disabled for your points).
about_this_view(
    "compare",
    lambda: lesson.view_of(name, X, y, seed, 0 if name == lesson.YOURS else flip, kind, depth, results, data),
)
how_it_works(
    compare.fit,
    compare.with_knn_regions,
    compare.make_perceptron,
    text="Each classifier is fitted on the same 70% of the points and scored on both parts; then it "
    f"classifies every pixel of a {RESOLUTION}×{RESOLUTION} grid over the points, drawn as the image under "
    "them (k-NN finds each pixel's 100 nearest training points once, then any k is only a vote). The "
    "perceptron's line is the pocket's best; the tree is ID3 with numeric tests x ≤ τ, τ halfway between "
    "neighbouring values of different classes.",
)
