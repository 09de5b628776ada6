"""Parts every lesson page has: a seed input, "Try this" steps, the "How it works" expander."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import numpy as np
import streamlit as st

from classic import compare
from pages._ui.points import MAX_URL_POINTS, YOURS, encode_points


def seed_input(key: str, default: int = 0, label: str = "Random seed") -> int:
    """A seed widget, in the URL: the same seed always gives the same data and results."""
    return int(
        st.number_input(
            label,
            min_value=0,
            max_value=2**31 - 1,
            value=default,
            step=1,
            key=key,
            bind="query-params",
            help="The same seed gives the same data and results, so a view can be reproduced.",
        )
    )


def how_it_works(
    *code: Callable | type, formulas: Sequence[str] = (), text: str = "", expanded: bool = False
) -> None:
    """The "How it works" expander: the explanation, the formulae, and the code that ran.

    Drawn only while open (a rerun when it opens): the code and the formulae load 1.8 MB of the
    browser's syntax highlighting and KaTeX, which a page's first render need not wait for.
    """
    with st.expander("How it works", expanded=expanded, key="how_it_works", on_change="rerun") as box:
        if not box.open:
            return
        if text:
            st.markdown(text)
        for formula in formulas:
            st.latex(formula)
        for obj in code:
            st.caption(f"`{obj.__module__}.{obj.__qualname__}`")
            st.code(inspect.getsource(obj), language="python")


@dataclass(frozen=True)
class Step:
    """One "Try this" step: set up a view, ask the student to predict, reveal the answer.

    ``setup`` maps widget keys to the values that make the view (applied by a button, and
    written as a link a teacher can share); ``answer`` is one of ``options`` and, like ``why``,
    is computed by the page from the library, never typed.
    """

    title: str
    setup: dict[str, Any]
    question: str
    options: Sequence[str]
    answer: str
    why: str


def step_link(page: str, setup: dict[str, Any]) -> str:
    """The relative URL of a page with the step's widget values as query parameters."""
    return f"/{page}?" + urlencode({key: _url_text(value) for key, value in setup.items()})


def _url_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def try_this(page: str, steps: Sequence[Step], expanded: bool = False) -> None:
    """The "Try this" sequence: each step sets up a view, asks, and reveals after a choice.

    Drawn only while open (a rerun when it opens): closed, its six dozen elements are neither
    sent nor re-rendered on every rerun. The answers chosen are kept while it is closed.
    """
    with st.expander(
        f"Try this: {len(steps)} predict-then-reveal steps",
        expanded=expanded,
        icon=":material/science:",
        key="try_this",
        on_change="rerun",
    ) as box:
        if not box.open:
            return
        answers = st.session_state.setdefault(f"{page}_try_answers", {})
        for i, step in enumerate(steps, start=1):
            st.markdown(f"**{i}. {step.title}**")
            left, right = st.columns([1, 2])
            left.button(
                "Set up this view",
                key=f"{page}_try_{i}_setup",
                on_click=_apply,
                args=(step.setup,),
                icon=":material/tune:",
            )
            right.markdown(f"[Link to this view]({step_link(page, step.setup)})")
            key, options = f"{page}_try_{i}", list(step.options)
            chosen = answers.get(key)
            index = options.index(chosen) if chosen in options else None
            choice = answers[key] = st.radio(step.question, options, index=index, key=key)
            if choice is None:
                st.caption("Choose an answer to reveal it.")
            elif choice == step.answer:
                st.success(f"Right: **{step.answer}**. {step.why}")
            else:
                st.warning(f"Not this time: it is **{step.answer}**. {step.why}")


def _apply(setup: dict[str, Any]) -> None:
    st.session_state.update(setup)


def compare_link(X: Any, y: Any, data: str | None = None) -> None:
    """A link to /compare with the lesson's 2-D points: the points themselves when two classes
    of at most ``MAX_URL_POINTS`` fit in a link, else /compare's own generator named ``data``.

    Nothing for data that are not 2-D points. A plain link (a fresh session), because /compare
    reads points from its link only when the session holds none yet.
    """
    try:
        X = np.asarray(X, dtype=float)
    except ValueError:  # a table of categories
        return
    if X.ndim != 2 or X.shape[1] != 2 or not np.isfinite(X).all():
        return
    classes, index = np.unique(np.asarray(y), return_inverse=True)
    if len(classes) == 2 and len(X) <= MAX_URL_POINTS:
        params, what = {"cmp_data": YOURS, "cmp_user_points": encode_points(X, index)}, "these points"
    elif data in compare.DATASETS:
        params, what = {"cmp_data": data}, f"the {data.lower()}"
    else:
        params, what = {}, "two-class points"
    st.markdown(
        f":material/compare_arrows: [The perceptron, k-NN and a tree side by side on {what}]"
        f"({step_link('compare', params)})"
    )
