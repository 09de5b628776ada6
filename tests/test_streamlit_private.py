"""Canaries for every private Streamlit access (pages/server/streamlit_private.py): each fails when
an upgrade changes what the app relies on, rather than letting a link, a guard or deep links break
silently. requirements.txt pins Streamlit for this reason."""

from __future__ import annotations

import ast
import inspect
import re

import pytest
import streamlit
from conftest import ROOT
from streamlit.testing.v1 import AppTest

from pages.server import streamlit_private

PRIVATE = ROOT / "pages" / "server" / "streamlit_private.py"


def test_streamlit_is_the_version_these_canaries_were_written_for():
    assert streamlit.__version__.startswith("1.67."), (
        f"Streamlit {streamlit.__version__}: re-check pages/server/streamlit_private.py against this "
        "version, then update these tests and the pin in requirements.txt"
    )


def test_no_other_module_of_the_app_reaches_into_streamlit_s_internals():
    """The one door: no import of streamlit.runtime or streamlit.web, and none of the private
    names, anywhere in app.py or pages/ but streamlit_private.py."""
    private = re.compile(
        r"(?<!streamlit_private\.)\b(_initial_query_params|uses_pages_directory|is_history_navigation|WStates|AppSession)"
    )
    found = []
    for path in [ROOT / "app.py", *ROOT.glob("pages/**/*.py")]:
        if path == PRIVATE:
            continue
        text = path.read_text()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                ("streamlit.runtime", "streamlit.web", "streamlit.proto")
            ):
                found.append(f"{path.relative_to(ROOT)}: from {node.module}")
        code = "\n".join(line.split("#")[0] for line in text.splitlines())
        found += [f"{path.relative_to(ROOT)}: {m}" for m in private.findall(code.replace('"""', ""))]
    assert found == []


def test_the_legacy_page_mode_switch_still_means_the_same():
    """``in_legacy_pages_mode``/``leave_legacy_pages_mode`` (ensure_app_shell and the warm start)."""
    from streamlit.commands import navigation
    from streamlit.runtime import pages_manager
    from streamlit.runtime.scriptrunner import script_runner

    assert "uses_pages_directory: bool | None = None" in inspect.getsource(pages_manager.PagesManager)
    # st.navigation is what leaves the legacy mode, and the script runner is what honours it.
    assert "PagesManager.uses_pages_directory = False" in inspect.getsource(navigation.navigation)
    assert "if PagesManager.uses_pages_directory:" in inspect.getsource(script_runner)
    before = pages_manager.PagesManager.uses_pages_directory
    try:
        pages_manager.PagesManager.uses_pages_directory = True
        assert streamlit_private.in_legacy_pages_mode()
        streamlit_private.leave_legacy_pages_mode()
        assert not streamlit_private.in_legacy_pages_mode()
    finally:
        pages_manager.PagesManager.uses_pages_directory = before


def _seeds_app():
    import streamlit as st

    from pages.server import streamlit_private

    with streamlit_private.link_seeds() as found:
        seeds, params = found
        st.session_state["seen"] = {key: list(values) for key, values in seeds.items()}
        if "n" in seeds:
            seeds["n"] = ["7"]  # what present.py and url.py do: the widget is seeded from this
    st.number_input("n", 0, 100, 0, key="n", bind="query-params")


def test_link_seeds_are_the_values_a_bound_widget_is_seeded_from():
    """``link_seeds`` (url.py drops non-finite numbers, present.py reads ``?present=1`` as on)."""
    from streamlit.runtime.state.query_params import QueryParams

    assert isinstance(vars(QueryParams()).get("_initial_query_params"), dict)
    at = AppTest.from_function(_seeds_app)
    at.query_params["n"] = "3"
    at.run()
    assert not at.exception
    assert at.session_state["seen"] == {"n": ["3"]}
    assert at.number_input(key="n").value == 7  # changed before seeding: the widget took it
    with streamlit_private.link_seeds() as outside:
        assert outside is None  # no script run


def test_a_run_knows_whether_it_is_a_history_navigation():
    """``is_history_navigation`` (/knn keeps a Try-this k over a link's on back and forward)."""
    from streamlit.runtime.scriptrunner import script_runner
    from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

    assert "is_history_navigation" in inspect.signature(ScriptRunContext.reset).parameters
    assert "is_history_navigation=rerun_data.is_history_navigation" in inspect.getsource(script_runner)
    assert streamlit_private.is_history_navigation() is False  # outside a run


def test_widget_state_reads_and_clear_cache_are_still_the_methods_patched():
    """``unreadable_widget_states_are_absent`` and ``refuse_cache_clear`` (guard.install): the
    methods exist where they are patched, do what is replaced, and the patches take."""
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.state.session_state import WStates

    read = (
        inspect.getsource(WStates.__getitem__) if not hasattr(WStates.__getitem__, "_classic_guard") else ""
    )
    handler = inspect.getsource(AppSession)
    assert "self._handle_clear_cache_request()" in handler
    if read:  # not yet patched in this process
        assert "deserializer" in read
    streamlit_private.unreadable_widget_states_are_absent()
    streamlit_private.refuse_cache_clear()
    assert getattr(WStates.__getitem__, "_classic_guard", False)
    assert getattr(AppSession._handle_clear_cache_request, "_classic_guard", False)


ACCESSES = [
    name
    for name, obj in vars(streamlit_private).items()
    if inspect.isfunction(obj) and obj.__module__ == streamlit_private.__name__ and not name.startswith("_")
]


@pytest.mark.parametrize("name", ACCESSES)
def test_every_access_has_its_canary_here(name):
    """A function added to streamlit_private.py is named in a test of this file."""
    source = (ROOT / "tests" / "test_streamlit_private.py").read_text()
    assert source.count(name) >= 2, f"{name} has no canary in tests/test_streamlit_private.py"
