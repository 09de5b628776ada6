"""The ID3 lesson's words and data, kept out of the page so that the page reads as the lesson.

The names of the page's data sets, criteria and missing-value rules; the 2-D point sets offered
as tables; the sentences that put numbers in context (a tree's summary, the post's claims
checked, AND against parity, what a capped drawing leaves out); the "Try this" steps, each
answer computed by the library; and the "How it works" formulas. Pure Python over ``classic``:
no Streamlit, no drawing. Texts that come from a user's file are passed through ``quote``
(the page's code span), never formatted as Markdown here.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np

from classic import criteria, datasets, id3, tables
from classic.lessons import ViewQuestion, points, tree_sources
from classic.viz.tree_figures import number, plural, size_note


def evaluation_table(result: Any, fraction: float) -> dict[str, list]:
    """Cross-validation without and with pruning, and the post's test, as rows to print."""
    rows = {
        "experiment": ["10-fold cross-validation", f"… with pruning ({fraction:.0%} held out per fold)"],
        "accuracy": [f"{result.cv_unpruned.mean():.1%}", f"{result.cv_pruned.mean():.1%}"],
        "nodes (mean)": [f"{result.nodes_unpruned.mean():.0f}", f"{result.nodes_pruned.mean():.0f}"],
    }
    if result.protocol is not None:
        train, test = result.protocol_rows
        rows["experiment"].append(
            f"The post's test: grown on the {train} complete rows, tested on the {test} with a “?”"
        )
        rows["accuracy"].append(f"{result.protocol:.1%}")
        rows["nodes (mean)"].append("")
    return rows


BUDGET = "adoption-of-the-budget-resolution"


def claims_table(results: Sequence[Any], X: Any, y: Any, names: Sequence[str]) -> dict[str, list]:
    """The post's claims on the votes beside what is computed here, as rows to print.

    ``results`` is ``tree_sources.posts_protocol(X, y)``'s, each gain (the definition's weighted
    one, the post's unweighted code) with each missing-value rule: its count with ties going to
    the first class in sorted order, its tied votes, and its count with ties going the other way
    (the post's order; see ``ties_note``). Then the root on the complete rows and the party votes
    on the budget resolution.
    """
    by = {(r.gain, r.missing): r for r in results}
    rules = {"branch": "every branch, counts added (the post)", "fractional": "fractional (C4.5)"}
    columns = ("claim", "the post", "computed here", "tied votes", "ties broken the post's way")
    table: dict[str, list] = {name: [] for name in columns}

    def add(*row: str) -> None:
        for name, cell in zip(columns, row, strict=True):
            table[name].append(cell)

    for gain in ("weighted", "unweighted"):
        for rule, words in rules.items():
            r = by[gain, rule]
            other = f"{r.correct_other_tie_order}/{r.total} = {r.correct_other_tie_order / r.total:.1%}"
            add(
                f"accuracy on its test ({gain} gain, {words})",
                "around 90%",
                f"{r.correct}/{r.total} = {r.accuracy:.1%}",
                str(r.ties),
                other,
            )
    missing = int(id3.rows_with_missing(np.asarray(X, dtype=object)).sum())
    add(
        "members with a “?” on some vote",
        "roughly half",
        f"{missing} of {len(X)} ({missing / len(X):.0%})",
        "",
        "",
    )
    for gain, root in tree_sources.complete_rows_root(X, y, names).items():
        add(f"the most telling vote (root on the complete rows, {gain} gain)", BUDGET, root, "", "")
    votes = tree_sources.votes_for(X, y, names, BUDGET)
    share = {party: f"{n} of {known} ({n / known:.0%})" for party, (n, known) in votes.items()}
    add(
        "Democrats voting for the budget resolution (“y”, of those who voted)",
        "very few",
        "; ".join(f"{party}s {text}" for party, text in share.items()),
        "",
        "",
    )
    return table


def ties_note(results: Sequence[Any]) -> str:
    """Why the post's rule counts one figure here and another in the post's code: its tied votes."""
    r = next(r for r in results if (r.gain, r.missing) == ("weighted", "branch"))
    if not r.ties:
        return ""
    rows = ", ".join(f"{row} ({label})" for row, label in zip(r.tied_rows, r.tied_labels, strict=True))
    return (
        f"Under the post's rule (weighted gain) the leaf counts tie on {plural(r.ties, 'test row')}: table "
        f"row {rows}. Here a tie goes to the first class in sorted order (democrat), which gets {r.tied_right} of "
        f"{r.ties} right: {r.correct}/{r.total} = {r.accuracy:.1%}. The post's Python 2 code broke ties by its "
        f"dict order, republican first: {r.correct_other_tie_order}/{r.total} = "
        f"{r.correct_other_tie_order / r.total:.1%}."
    )


PARITY_NODES = "2ⁿ⁺¹ − 1"  # the nodes of a tree for the parity of n bits: every path tests every bit


def representation_text(sizes: dict[str, list[int]], parity: bool = True) -> str:
    """What the AND/parity chart shows, with its numbers; ``parity=False``: AND's part alone (the
    parity question asked, its answer not yet revealed)."""
    n, first, last = sizes["n"], 0, -1
    text = f"AND of n bits needs {sizes['AND'][first]} nodes at n = {n[first]} and {sizes['AND'][last]} at n = {n[last]} "
    if not parity:
        return text + "(2n + 1: O(n) tests)."
    return text + (
        f"(2n + 1: O(n) tests); parity (XOR) needs {sizes['parity'][first]} and {sizes['parity'][last]} "
        f"({PARITY_NODES}: O(2ⁿ)), as the CS 886 slides say. Grown with minimum score 0, ID3 does not even start on "
        f"parity ({plural(sizes['parity, as ID3 grows it'][last], 'node')}): no single feature gains anything."
    )


def point_table(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """2-D labelled points as the tree's table: numeric columns x1, x2 and the label "class c"."""
    return np.asarray(X, dtype=float), np.char.add("class ", np.asarray(y).astype(str)), ["x1", "x2"]


def _point_table(shown: str, seed: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    return point_table(*points.load("tree", shown, seed))


# The registry's 2-D point sets offered here (classic.lessons.points), as tables for a seed.
POINT_TABLES = {shown: partial(_point_table, shown) for shown in points.menu("tree")[:-1]}


def summary(model: Any, X: Any, y: Any, row: int, quote: Any = str) -> str:
    """One line under the tree: its size, its training accuracy, and row ``row`` (1-based) classified.

    ``quote`` wraps the texts that come from the data (class names): the page passes a function
    that shows them verbatim, never as markup.
    """
    record = np.asarray(X, dtype=object)[row - 1]
    predicted = model.predict(record[None, :])[0]
    path = model.decision_path(record)
    return (
        f"{plural(model.n_nodes_, 'node')}, {plural(model.n_leaves_, 'leaf', 'leaves')}, depth {model.depth_}; "
        f"training accuracy {model.score(X, y):.1%}. Row {row} (label {quote(np.asarray(y)[row - 1])}) follows "
        f"{plural(len(path), 'node')} "
        f"(outlined) to the answer {quote(predicted)}. {size_note(model)}"
    ).strip()


# The parts of the page a step can hide until its answer is revealed (``Step.hides``).
SPLITS = "splits"  # the player's splits and score tables, the tree's size, its rules
ID3_TREE = "id3_tree"  # ID3's tree drawn beside the post's, and the note comparing them
PARITY = "parity"  # parity's line on the AND/parity chart and its node count


def _first_split(model: Any) -> tuple[str, tuple[str, ...]]:
    """The reveal of a question on the root ("ID3 asks about Outlook first, the largest gain:
    Outlook 0.2467, …") and its texts that give the answer away."""
    root = model.root_.feature
    candidates = model.steps_[0].candidates()
    gains = tuple(f"{c.feature} {number(c.gain)}" for c in candidates)
    why = f"ID3 asks about {root} first, the largest gain: {', '.join(gains)} bits."
    return why, (f"asks about {root}", *_gain_tells(model, candidates))


def _gain_tells(model: Any, candidates: Sequence[Any]) -> tuple[str, ...]:
    """The candidates' gains as the split table prints them: beside a category's name ("Outlook
    0.2467"); alone for a number, whose row names its threshold ("x1 <= 0.5", then 0.0101)."""
    numeric = dict(zip(model.feature_names_, model.numeric_, strict=True))
    return tuple(
        number(c.gain) if numeric[c.feature] else f"{c.feature} {number(c.gain)}" for c in candidates
    )


def try_this_steps() -> list[dict]:
    """The page's predict-then-reveal steps, every answer computed by the library.

    A question on what the tree will do sets the player to 0 splits and hides every split (the
    player shows the root alone, the data beside it): the student predicts from the data, then
    the reveal shows the splits. Each step's ``tells`` are texts of its answer that the page
    shows only once it is revealed.
    """
    tennis = id3.ID3().fit(*datasets.load_play_tennis())
    tests = id3.ID3().fit(*datasets.load_two_tests())
    kids_X, kids_y, _ = datasets.load_has_kids()
    kids = criteria.score_split(kids_X[:, 0], kids_y, feature="HasKids")
    sizes_of = [f"{int(n)}/{len(kids_y)}" for n in kids.counts.sum(axis=1)]
    sizes = tree_sources.representation_sizes([4])
    arya = id3.ID3().fit(*datasets.load_arya())
    (tennis_why, tennis_tells), (tests_why, tests_tells) = _first_split(tennis), _first_split(tests)
    arya_why, arya_tells = _first_split(arya)
    parity = f"{sizes['parity'][0]} nodes"
    return [
        {
            "title": "Play Tennis: the first question",
            "setup": {"tree_data": "Play Tennis", "tree_tab": "Tree", "tree_step": 0},
            "question": "Which attribute will ID3 split on first?",
            "options": ["Outlook", "Temperature", "Humidity", "Wind"],
            "answer": tennis.root_.feature,
            "why": tennis_why,
            "hides": (SPLITS,),
            "tells": tennis_tells,
        },
        {
            "title": "The slides' HasKids table",
            "setup": {"tree_data": "HasKids & Dora (the slides)", "tree_tab": "Tree", "tree_step": 0},
            "question": "How many bits does knowing HasKids save about OwnsDoraVideo?",
            "options": [number(v) for v in sorted({kids.gain, kids.after, kids.terms[1], kids.before})],
            "answer": number(kids.gain),
            "why": f"H(y) = {number(kids.before)}, H(y | HasKids) = "
            + " + ".join(f"{w} · {number(t)}" for w, t in zip(sizes_of, kids.terms, strict=True))
            + f" = {number(kids.after)}, so the gain is {number(kids.gain)} bits.",
            "hides": (SPLITS,),
            # The options are the bare numbers: the gain in bits, as the step table and the slides'
            # worked example (shown with the splits) print it, is what gives it away.
            "tells": (f"{number(kids.gain)} bits",),
        },
        {
            "title": "The slides' Test1 vs Test2",
            "setup": {"tree_data": "Test1 vs Test2 (the slides)", "tree_tab": "Tree", "tree_step": 0},
            "question": "Which test gains more?",
            "options": ["Test1", "Test2"],
            "answer": tests.root_.feature,
            "why": tests_why,
            "hides": (SPLITS,),
            "tells": tests_tells,
        },
        {
            "title": "The post's tree for Arya",
            "setup": {"tree_data": "Arya's riding data (the post)", "tree_tab": "Tree", "tree_step": 0},
            "question": "The post draws Wind at the root. Does ID3 agree?",
            "options": ["Yes", "No"],
            "answer": "Yes" if arya.root_.feature == "Wind" else "No",
            "why": arya_why,
            "hides": (SPLITS, ID3_TREE),
            "tells": arya_tells,
        },
        {
            "title": "AND against parity",
            "setup": {"tree_tab": "AND vs parity"},
            "question": "How many nodes does a tree need for the parity (XOR) of 4 bits?",
            "options": ["9", "15", "31", "63"],
            "answer": str(sizes["parity"][0]),
            "why": f"Every path must test every bit: {PARITY_NODES} = {parity}, against {sizes['AND'][0]} for AND.",
            "hides": (PARITY,),
            "tells": (parity, PARITY_NODES),
        },
    ]


def upload_label() -> str:
    """The upload box's label, with the limits ``classic.tables`` checks."""
    return (
        f"A CSV file: first row = column names; up to {tables.MAX_BYTES // 1000:,} kB, {tables.MAX_ROWS:,} rows, "
        f"{tables.MAX_COLUMNS} columns, {tables.MAX_CATEGORIES} values per categorical column"
    )


UPLOAD_NOT_IN_LINK = (
    "Your uploaded table is kept in no link: the address bar and a step's “Link to this view” open the page "
    "without it (with the upload box, or the step's own table). To share this tree, send the CSV file."
)


CRITERION_NAMES = {name: rule.title for name, rule in criteria.CRITERIA.items()}


MISSING_NAMES = {
    "branch": "Follow every branch, counts added (the post)",
    "fractional": "Fractional, weighted by training share (C4.5)",
    "majority": "Follow the majority branch",
    "value": "“?” is one more value",
}


LOG_BASES = {"bits (log₂)": 2.0, "nats (ln)": math.e}


def tree_params(criterion: str, missing: str, depth: int, min_gain: float) -> dict:
    """The page's controls as ``ID3`` parameters (depth 0 means no limit)."""
    return {"criterion": criterion, "missing": missing, "max_depth": depth or None, "min_gain": min_gain}


VOTES, UPLOAD, YOURS = "1984 congressional votes", "Upload a CSV", points.yours("tree")
AS_IN_THE_POST = "post"
VOTES_ROWS = {
    AS_IN_THE_POST: "as in the post",
    "all": "on all rows (C4.5)",
}


def complete_rows(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """The rows without a "?": the post grows its votes tree on these and tests it on the others."""
    X, y = np.asarray(X, dtype=object), np.asarray(y)
    keep = ~id3.rows_with_missing(X)
    return X[keep], y[keep]


def votes_rows_note(rule: str, X: Any, y: Any, model: Any) -> str:
    """Which votes rows the tree was grown on and, grown as in the post, how it does on the others."""
    X, y = np.asarray(X, dtype=object), np.asarray(y)
    missing = id3.rows_with_missing(X)
    if rule != AS_IN_THE_POST:
        return (
            f"Grown on all {len(y)} rows, {int(missing.sum())} of them with a “?”. A split is scored on the rows whose "
            "vote is known, times their share: C4.5's known-share gain (the step table's “known share” column); the "
            f"post grew its tree on the {int((~missing).sum())} complete rows only (choose it under “Grow the votes "
            "tree”)."
        )
    right = int((model.predict(X[missing]) == y[missing]).sum())
    return (
        f"Grown as in the post: on the {int((~missing).sum())} rows without a “?”. Its test is the other "
        f"{int(missing.sum())}, each with a “?”: this tree answers {right}/{int(missing.sum())} = "
        f"{right / missing.sum():.1%} of them right (the post: “around 90%”; the Evaluation tab sets each of the "
        "post's claims beside what is computed here)."
    )


ARYA, HASKIDS = "Arya's riding data (the post)", "HasKids & Dora (the slides)"


def data_sets(load_votes: Any) -> dict[str, Any]:
    """The page's data sets by name: the sources' tables, the votes (``load_votes``), 2-D points, an upload."""
    return {
        ARYA: datasets.load_arya,
        "Play Tennis": datasets.load_play_tennis,
        HASKIDS: datasets.load_has_kids,
        "Test1 vs Test2 (the slides)": datasets.load_two_tests,
        VOTES: load_votes,
        **POINT_TABLES,
        YOURS: None,
        UPLOAD: None,
    }


ARYA_HEADING = (
    "**The post's hand-drawn tree beside the tree ID3 grows** (information gain, on the same six days)"
)
ARYA_HEADING_ALONE = "**The post's hand-drawn tree** (on the six days of the table)"  # ID3's hidden


def arya_trees(X: Any, y: Any, names: Sequence[str]) -> list[tuple[str, Any]]:
    """The post's hand-drawn tree (Wind at the root, Temperature under Wind = Low) and ID3's, fitted on ``X, y``."""
    return [
        ("The post's tree", tree_sources.fit_layout(X, y, tree_sources.POST_ARYA_LAYOUT, names)),
        ("ID3's tree", id3.ID3().fit(X, y, names)),
    ]


def tree_caption(model: Any, X: Any, y: Any) -> str:
    """A tree's size and how many of the rows it answers right."""
    right = int((model.predict(X) == np.asarray(y)).sum())
    return (
        f"{plural(model.n_nodes_, 'node')}, {plural(model.n_leaves_, 'leaf', 'leaves')}; "
        f"{right} of {plural(len(y), 'day')} right ({right / len(y):.0%})."
    )


def arya_note(post: Any, ours: Any) -> str:
    """What the two Arya trees have in common and where they part, with ID3's first gains."""
    gains = {c.feature: c.gain for c in ours.steps_[0].candidates()}
    others = ", ".join(f"{f} {number(g)}" for f, g in gains.items() if f != ours.root_.feature)
    differ, total = tree_sources.disagreement(post, ours)
    return (
        f"ID3 asks about {ours.root_.feature} first: it parts the six days perfectly (gain "
        f"{number(gains[ours.root_.feature])} bits; {others}), so one question is enough. The post's leaf for "
        "Wind = Low, Temperature = Hot saw no day: the post writes “None”, here it answers its parent's majority "
        f"(dashed). Both trees answer the six days right, yet they disagree on {differ} of the {total} possible "
        "days: six days cannot tell them apart. (Below its formula Wind = Low ∧ Temp = Warm, the post words the "
        "same rule with the wind “High”; its tree and formula say Low.)"
    )


def new_tree(params: dict, prune: bool, fraction: float, seed: int) -> Any:
    """An unfitted tree with the page's settings: ``PrunedID3`` when pruning, else ``ID3``."""
    if prune:
        return id3.PrunedID3(**params, validation_fraction=fraction, random_state=seed)
    return id3.ID3(**params)


HOW_IT_WORKS = {
    "formulas": [
        r"H(S) = -\sum_c p_c \log_2 p_c \qquad \mathrm{Gain}(S, A) = \frac{|K|}{|S|}"
        r"\Big(H(K) - \sum_v \frac{|K_v|}{|K|} H(K_v)\Big)",
        r"\text{a real feature is tested as } x_j \le \tau,\ \tau \text{ a midpoint between sorted values whose "
        r"labels differ}",
    ],
    "text": "ID3 scores every test at a node, splits on the best one and recurses; a node is a leaf when it is "
    "pure, no test is left or gains enough, or at the depth limit. K holds the rows whose value is known "
    "(all of them unless values are missing); while growing, a row missing the tested value goes the way most "
    "rows went. Below: the short recursive ID3 and the one function that scores every split. With information "
    "gain, no depth limit and minimum score 0, it is tested to grow the same tree as the fast one on the "
    "sources' tables, on all 435 votes (“?” included) and on 2-D points (thresholds, missing numbers), under "
    "every missing-value rule but “?” is one more value (the rule changes only how a “?” is answered).",
}


def dot_note(drawing: Any) -> str | None:
    """What a capped DOT drawing (``classic.viz.tree.to_dot``) leaves out, or None if it is whole."""
    if drawing.complete:
        return None
    return (
        f"Levels 0–{drawing.depth} of 0–{drawing.full_depth} are drawn: the "
        f"{plural(drawing.hidden_nodes, 'deeper node')} would take graphviz minutes to lay out."
    )


MAX_RULES = 500  # rules listed on the page (a deep tree on an upload can have thousands)


QUICK_EVALUATION = 20_000  # table cells up to which the evaluation runs when its tab opens


EVALUATE = "Run the evaluation: 10-fold cross-validation with and without pruning, a learning curve"


def rules_heading(count: int) -> str:
    """The sentence above the rules: how many, what they are, how many are listed."""
    listed = "" if count <= MAX_RULES else f"; the first {MAX_RULES:,} are listed"
    return f"{plural(count, 'rule')}, one per leaf: the tree in disjunctive normal form{listed}."


def slow_to_evaluate(X: Any) -> bool:
    """Whether the evaluation (about 70 trees) should wait for a click rather than run on opening the tab."""
    return int(np.asarray(X).size) > QUICK_EVALUATION


# A larger table is evaluated on a sample of rows with 5 folds and one learning curve (about 20
# trees, not 70), so that evaluating the largest upload stays a matter of seconds.
LARGE_EVALUATION_CELLS = 20_000


def evaluation_rows(X: Any, seed: int) -> np.ndarray | None:
    """The rows a large table is evaluated on (a seeded sample, in order), or None for all of them."""
    X = np.asarray(X, dtype=object)
    if X.size <= QUICK_EVALUATION:
        return None
    size = min(len(X), max(200, LARGE_EVALUATION_CELLS // max(X.shape[1], 1)))
    return np.sort(np.random.default_rng(seed).choice(len(X), size=size, replace=False))


def evaluate(X: Any, y: Any, names: Sequence[str], params: dict, fraction: float, seed: int) -> Any:
    """``tree_sources.evaluate`` within the page's budget (see ``evaluation_rows``)."""
    rows = evaluation_rows(X, seed)
    if rows is None:
        return tree_sources.evaluate(X, y, names, params, fraction, seed)
    X, y = np.asarray(X, dtype=object)[rows], np.asarray(y)[rows]
    return tree_sources.evaluate(X, y, names, params, fraction, seed, cv=5, curve_runs=1)


def evaluate_label(X: Any, seed: int) -> str:
    """The toggle that runs the evaluation of a large table, saying what it will run on."""
    rows = evaluation_rows(X, seed)
    if rows is None:
        return EVALUATE
    return (
        f"Run the evaluation on {len(rows):,} of the {len(X):,} rows (a seeded sample): 5-fold "
        "cross-validation with and without pruning, a learning curve"
    )


def data_frame(X: Any, y: Any, names: Sequence[str]) -> Any:
    """The training table as a pandas DataFrame: the features, then the class, named "class ←" (with
    more arrows while a feature has that name: Arrow refuses a table with two equal names)."""
    import pandas as pd

    frame = pd.DataFrame(np.asarray(X, dtype=object), columns=list(names))
    label = "class ←"
    while label in frame.columns:
        label += "←"
    frame.insert(len(frame.columns), label, np.asarray(y))
    return frame


REGIONS_ALT = "The tree's leaves as boxes over the points, the chosen point's box outlined"


def slides_slip(X: Any, y: Any) -> str:
    """The CS 886 slides' HasKids example, computed in bits and in nats, beside the unit slip it invites.

    The slides find H(y) = 1 and H(y | HasKids = Yes) ≈ 0.9183 in bits, then redo the second in
    natural logs (0.6365) and give H(y | HasKids) ≈ 0.4774 in nats while calling it bits; with
    IG = H(y) − H(y | x) on the next slide that reads as 1 − 0.4774.
    """
    bits = criteria.score_split(np.asarray(X)[:, 0], y, feature="HasKids")
    nats = dataclasses.replace(bits, base=math.e)
    yes = list(bits.branches).index("Yes")
    return (
        f"The CS 886 slides switch logarithms mid-example: H(y) = {number(bits.before)} and H(y | HasKids = Yes) = "
        f"{number(bits.terms[yes])} are in bits (log₂), then H(y | HasKids = Yes) = {number(nats.terms[yes])} and "
        f"H(y | HasKids) = {number(nats.after)} are in nats (ln), though the slide reads them as bits. The gain "
        f"IG = H(y) − H(y | HasKids) from the numbers as printed mixes the units: {number(bits.before)} bit − "
        f"{number(nats.after)} nats = **{number(bits.before - nats.after)}**, which is no gain in any unit. In one unit: "
        f"{number(bits.before)} − {number(bits.after)} = **{number(bits.gain)} bits**, or {number(nats.before)} − "
        f"{number(nats.after)} = {number(nats.gain)} nats (ln x = ln 2 · log₂ x)."
    )


# --------------------------------------------------------------------------------------------
# Peer instruction: a question of the same kind (``SAME_KIND``) and "Ask about this view"
# --------------------------------------------------------------------------------------------

PLAY_TENNIS, TESTS = "Play Tennis", "Test1 vs Test2 (the slides)"
# The sources' tables a made question may grow on (by the page's menu names), and what each label says.
SMALL_TABLES = {
    ARYA: datasets.load_arya,
    PLAY_TENNIS: datasets.load_play_tennis,
    HASKIDS: datasets.load_has_kids,
    TESTS: datasets.load_two_tests,
}
LABEL_NAMES = {
    ARYA: "whether Arya rides",
    PLAY_TENNIS: "whether tennis is played",
    HASKIDS: "OwnsDoraVideo",
    TESTS: "the class (+ or -)",
}
SEEDS = 1000  # a made question on 2-D points draws its seed below this
LEAF = "None: it is a leaf"  # the next-split question's answer where the node does not split


def _table(data: str, seed: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The table the page grows its tree on for the menu name ``data`` (``seed``: the points')."""
    return POINT_TABLES[data](seed) if data in POINT_TABLES else SMALL_TABLES[data]()


def _shown(data: str, seed: int) -> str:
    """A data set as a question names it: the points with their seed."""
    return f"{data} with seed {seed}" if data in POINT_TABLES else data


def _setup(data: str, seed: int) -> dict[str, Any]:
    """A made step's link: the table and the root alone in the player, every setting that changes the
    tree at its default (information gain, no depth limit, minimum score 0, no pruning)."""
    return {
        "tree_data": data,
        "tree_tab": "Tree",
        "tree_step": 0,
        "tree_seed": seed,
        "tree_criterion": "entropy",
        "tree_depth": 0,
        "tree_min_gain": 0.0,
        "tree_prune": False,
    }


def _pick_table(rng: np.random.Generator, tables: Sequence[str]) -> tuple[str, int]:
    """A data set among ``tables`` (the point sets among them with a fresh seed) and its seed."""
    data = str(tables[int(rng.integers(len(tables)))])
    return data, int(rng.integers(SEEDS)) if data in POINT_TABLES else 0


# The tables with at least two attributes: a question of which one ID3 prefers has a choice to make.
CHOICE_TABLES = (ARYA, PLAY_TENNIS, TESTS, *POINT_TABLES)


def same_root(rng: np.random.Generator) -> dict:
    """Step 1 anew: which attribute ID3 splits on first, on a source's table or 2-D points with a new seed."""
    data, seed = _pick_table(rng, CHOICE_TABLES)
    X, y, names = _table(data, seed)
    model = id3.ID3().fit(X, y, names)
    why, tells = _first_split(model)
    return {
        "title": f"{data}: the first question",
        "setup": _setup(data, seed),
        "question": f"On {_shown(data, seed)}, which attribute will ID3 (information gain) split on first?",
        "options": list(names),
        "answer": model.root_.feature,
        "why": why,
        "hides": (SPLITS,),
        "tells": tells,
    }


def same_gain(rng: np.random.Generator) -> dict:
    """Step 2 anew: the gain in bits of one attribute of a source's table, among its entropies."""
    data = str(rng.choice(list(SMALL_TABLES)))
    X, y, names = SMALL_TABLES[data]()
    j = int(rng.integers(len(names)))
    score = criteria.score_split(X[:, j], y, feature=names[j])
    sizes = [f"{int(n)}/{len(y)}" for n in score.counts.sum(axis=1)]
    # The near misses: the entropy before, after, and of each branch (each a step of the sum).
    options = sorted({number(v) for v in (score.gain, score.after, score.before, *score.terms)}, key=float)
    return {
        "title": f"{data}: the gain of {names[j]}",
        "setup": {**_setup(data, 0), "tree_log": next(iter(LOG_BASES))},
        "question": f"On {data}, how many bits does knowing {names[j]} save about {LABEL_NAMES[data]}?",
        "options": options,
        "answer": number(score.gain),
        "why": f"H(y) = {number(score.before)}, H(y | {names[j]}) = "
        + " + ".join(f"{w} · {number(t)}" for w, t in zip(sizes, score.terms, strict=True))
        + f" = {number(score.after)}, so the gain is {number(score.gain)} bits.",
        "hides": (SPLITS,),
        "tells": (f"{number(score.gain)} bits",),
    }


def same_pair(rng: np.random.Generator) -> dict:
    """Step 3 anew: which of two attributes (of a source's table, or x1 and x2 of new points) gains more."""
    while True:  # a pair whose gains differ as printed (the Arya, Play Tennis and points pairs mostly do)
        data, seed = _pick_table(rng, CHOICE_TABLES)
        X, y, names = _table(data, seed)
        model = id3.ID3().fit(X, y, names)
        pair = sorted(rng.choice(len(names), 2, replace=False).tolist())
        scores = [model.steps_[0].candidates()[j] for j in pair]
        if number(scores[0].gain) != number(scores[1].gain):
            break
    best = max(scores, key=lambda c: c.gain)
    gains = ", ".join(f"{c.feature} {number(c.gain)}" for c in scores)
    return {
        "title": f"{data}: {scores[0].feature} vs {scores[1].feature}",
        "setup": _setup(data, seed),
        "question": f"On {_shown(data, seed)}, which test gains more at the root: "
        f"{scores[0].feature} or {scores[1].feature}?",
        "options": [c.feature for c in scores],
        "answer": best.feature,
        "why": f"{best.feature} gains more: {gains} bits.",
        "hides": (SPLITS,),
        "tells": _gain_tells(model, scores),
    }


def same_agree(rng: np.random.Generator) -> dict:
    """Step 4 anew: a drawn tree's root (ID3's in half the draws, another attribute else): does ID3 agree?"""
    data, seed = _pick_table(rng, CHOICE_TABLES)
    X, y, names = _table(data, seed)
    model = id3.ID3().fit(X, y, names)
    root = model.root_.feature
    others = [name for name in names if name != root]
    drawn = root if rng.random() < 0.5 else str(rng.choice(others))
    why, tells = _first_split(model)
    return {
        "title": f"A drawn tree for {data}",
        "setup": _setup(data, seed),
        "question": f"A tree drawn by hand for {_shown(data, seed)} has {drawn} at the root. "
        "Does ID3 (information gain) agree?",
        "options": ["Yes", "No"],
        "answer": "Yes" if drawn == root else "No",
        "why": why,
        "hides": (SPLITS, ID3_TREE),
        "tells": tells,
    }


PARITY_BITS = (2, 3, 4, 5, 6, 7, 8)  # the AND/parity chart's n (tree_sources.representation_sizes)


@functools.cache
def _sizes(n: int) -> dict[str, list[int]]:
    """The AND/parity node counts at one n, grown once a process (256 rows at n = 8: a teacher waits)."""
    return tree_sources.representation_sizes([n])


def same_parity(rng: np.random.Generator) -> dict:
    """Step 5 anew: the nodes of a tree for the parity of n bits, n on the chart."""
    n = int(rng.choice(PARITY_BITS))
    sizes = _sizes(n)
    nodes = sizes["parity"][0]
    # AND's count and the powers of two near the answer: the counts a student may mix up.
    options = sorted({2 * n + 1, 2**n - 1, 2**n + 1, 2 ** (n + 1) - 1, 2 ** (n + 2) - 1, nodes})
    parity = f"{nodes} nodes"
    return {
        "title": f"AND against parity, {n} bits",
        "setup": {"tree_tab": "AND vs parity"},
        "question": f"How many nodes does a tree need for the parity (XOR) of {n} bits?",
        "options": [str(v) for v in options],
        "answer": str(nodes),
        "why": f"Every path must test every bit: {PARITY_NODES} = {parity}, against {sizes['AND'][0]} for AND.",
        "hides": (PARITY,),
        "tells": (parity, PARITY_NODES),
    }


SAME_KIND = (same_root, same_gain, same_pair, same_agree, same_parity)


VIEW = """What "Ask about this view" reads (the page builds it from what it has grown):

- ``data``: the data set's menu name;
- ``X``, ``y``, ``names``: the table the tree was grown on (after the votes' rows rule);
- ``params``: ``tree_params``' dict (criterion, missing, max_depth, min_gain);
- ``prune``: whether the tree was pruned (then grown on part of the rows);
- ``model``: the fitted tree on the page.
"""


def _settings(view: Any) -> str:
    """The settings a view's tree was grown with, as a question states them ("information gain, depth ≤ 3")."""
    params = view["params"]
    said = [CRITERION_NAMES[params["criterion"]]]
    if params.get("max_depth"):
        said.append(f"depth ≤ {params['max_depth']}")
    if params.get("min_gain"):
        said.append(f"minimum score {params['min_gain']:g}")
    if view.get("prune"):
        said.append("pruned")
    return ", ".join(said)


def _at_most(options: Sequence[str], answer: str, rng: np.random.Generator) -> list[str]:
    """``options`` cut to a phone's eight, the answer kept, in their own order."""
    if len(options) <= 8:
        return list(options)
    others = [o for o in options if o != answer]
    kept = {answer, *rng.choice(others, 7, replace=False).tolist()}
    return [o for o in options if o in kept]


SCORE_NAMES = {"entropy": "information gain", "gain_ratio": "gain ratio", "gini": "drop in Gini impurity"}


def _scored(step: Any) -> tuple[str, str]:
    """A split's candidates with what the criterion compares ("Outlook 0.2467, …") and its name."""
    name = SCORE_NAMES.get(step.tree.criterion, "score")
    return ", ".join(f"{c.feature} {number(c.score)}" for c in step.candidates()), name


def view_root(view: Any, rng: np.random.Generator) -> dict | None:
    """The attribute the tree on the page tests at its root (None: the root is a leaf)."""
    model = view["model"]
    root = model.root_
    if root.feature is None or root.step is None or len(model.feature_names_) < 2:
        return None
    scores, name = _scored(model.steps_[root.step])
    return {
        "title": "The attribute at the root",
        "setup": {},
        "question": f"On the table on screen ({_settings(view)}), which attribute does the tree ask about first?",
        "options": _at_most(list(model.feature_names_), root.feature, rng),
        "answer": root.feature,
        "why": f"The tree asks about {root.feature} first, the largest {name}: {scores}.",
        "hides": (SPLITS, ID3_TREE),
        "tells": (f"asks about {root.feature}",),
    }


def view_next(view: Any, rng: np.random.Generator) -> dict | None:
    """What the tree tests below one branch of its root, or of a child of it: an attribute, or none."""
    model = view["model"]
    children = list(model.root_.children.values()) if not model.root_.is_leaf else []
    below = children + [g for child in children if not child.is_leaf for g in child.children.values()]
    if not below:
        return None
    node = below[int(rng.integers(len(below)))]
    tests = model.conditions(node)
    numeric = [b[:1] in "<>" for _, b in tests]  # a threshold's branch reads "<= τ" or "> τ"
    path = " and ".join(f"{f} {b}" if n else f"{f} = {b}" for (f, b), n in zip(tests, numeric, strict=True))
    used = {f for (f, _), n in zip(tests, numeric, strict=True) if not n}  # a category is asked once a path
    options = _at_most([*(f for f in model.feature_names_ if f not in used), LEAF], node.feature or LEAF, rng)
    if len(options) < 2:
        return None
    answer = node.feature or LEAF
    counts = ", ".join(f"{n} {c}" for c, n in node.counts.items() if n)
    if node.feature is None:
        why = f"The {node.n_samples} rows there ({counts}) are not split: the node answers {node.label}."
    else:
        scores, name = _scored(model.steps_[node.step])
        why = f"The {node.n_samples} rows there ({counts}) are split by {node.feature}, the largest {name}: {scores}."
    return {
        "title": "The next split",
        "setup": {},
        "question": f"On the table on screen ({_settings(view)}), the rows with {path}: which attribute does the tree "
        "ask about next?",
        "options": options,
        "answer": answer,
        "why": why,
        "hides": (SPLITS, ID3_TREE),
        "tells": (),
    }


def _leaf_choices(leaves: int, rng: np.random.Generator) -> tuple[list[str], str]:
    """Four choices for a count of leaves: the numbers themselves up to 6, else ranges of 5, 10 or 50,
    the right one at a random place among them."""
    width = 1 if leaves <= 6 else 5 if leaves <= 40 else 10 if leaves <= 100 else 50
    at = (leaves - 1) // width  # the range holding the answer: [at·width + 1, (at + 1)·width]
    first = max(0, at - int(rng.integers(4)))

    def text(i: int) -> str:
        low, high = i * width + 1, (i + 1) * width
        return str(low) if width == 1 else f"{low}–{high}"

    return [text(i) for i in range(first, first + 4)], text(at)


def view_leaves(view: Any, rng: np.random.Generator) -> dict | None:
    """How many leaves the tree on the page has (exactly, or a range for a large tree)."""
    model = view["model"]
    options, answer = _leaf_choices(model.n_leaves_, rng)
    leaves = plural(model.n_leaves_, "leaf", "leaves")
    return {
        "title": "The number of leaves",
        "setup": {},
        "question": f"On the table on screen ({_settings(view)}), how many leaves does the tree have?",
        "options": options,
        "answer": answer,
        "why": f"{plural(model.n_nodes_, 'node')}: {leaves} and {plural(model.n_nodes_ - model.n_leaves_, 'test')}, "
        f"depth {model.depth_}.",
        "hides": (SPLITS, ID3_TREE),
        "tells": (f"{leaves},",),
    }


VIEW_QUESTIONS = (
    ViewQuestion("root", "The attribute at the root", view_root),
    ViewQuestion("next_split", "The next split, below a branch", view_next),
    ViewQuestion("leaves", "The number of leaves", view_leaves),
)


def random_view(rng: np.random.Generator) -> dict:
    """A view as the page builds it, at random over its menus: a source's table or 2-D points with a
    seed, a criterion, a depth limit now and then, a minimum score now and then (no pruning)."""
    data, seed = _pick_table(rng, list(SMALL_TABLES) + list(POINT_TABLES))
    X, y, names = _table(data, seed)
    criterion = str(rng.choice(list(criteria.CRITERIA)))
    depth = int(rng.choice([0, 0, 0, 1, 2, 3, 4]))
    min_gain = float(rng.choice([0.0, 0.0, 0.0, 0.05, 0.1, 0.2]))
    params = tree_params(criterion, "fractional", depth, min_gain)
    model = new_tree(params, False, 0.25, seed).fit(X, y, names)
    return {"data": data, "X": X, "y": y, "names": names, "params": params, "prune": False, "model": model}


def unsplit(X: Any, y: Any, names: Sequence[str]) -> Any:
    """A tree that never splits: the Regions tab's one box under the points while the splits are hidden."""
    return id3.ID3(min_gain=float(np.finfo(float).max) / 2).fit(X, y, names)
