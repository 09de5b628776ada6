"""The app shell in AppTest: navigation, the home page, and every page running."""

import pytest
from conftest import ROOT, app_pages, assert_no_exception, open_page

from classic.lessons import LESSONS

PAGES = [lesson.url_path for lesson in LESSONS]


def test_every_page_file_is_in_the_navigation_and_named_after_its_url():
    """A fresh server's legacy mode finds a deep link's page by file name (see ensure_app_shell),
    and a page file that no lesson entry names would be unreachable."""
    navigation = app_pages()
    files = sorted(path.stem for path in (ROOT / "pages").glob("*.py") if path.stem != "__init__")
    assert sorted(page.file for page in navigation) == files
    for page in navigation:
        assert page.path in ("", page.file)
    for lesson in LESSONS:
        assert (ROOT / lesson.file).is_file()


@pytest.mark.parametrize("lesson", LESSONS, ids=PAGES)
def test_every_lesson_page_starts_in_the_app_shell(lesson):
    """A deep link that is a fresh server's first request runs through app.py only if the page
    asks for it first thing (``ensure_app_shell``, pages/server/shell.py)."""
    import ast

    tree = ast.parse((ROOT / lesson.file).read_text())
    calls = [n for n in tree.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)]
    assert calls and getattr(calls[0].value.func, "id", None) == "ensure_app_shell"


def test_the_home_page_has_a_card_for_every_lesson():
    at = open_page("home")
    assert_no_exception(at)
    assert "classic" in at.title[0].value
    headers = [h.value for h in at.header]
    text = " ".join(m.value for m in at.markdown)
    for lesson in LESSONS:
        assert lesson.heading in headers
        assert lesson.teaches in text
    assert "16×16" in text


@pytest.mark.parametrize("name", PAGES)
def test_every_page_runs_and_shows_its_title(name):
    at = open_page(name)
    assert_no_exception(at)
    heading = next(lesson.heading for lesson in LESSONS if lesson.url_path == name)
    assert at.title[0].value == heading


@pytest.mark.parametrize("name", PAGES)
def test_how_it_works_is_drawn_once_opened(name):
    """Closed, it holds nothing (no code or formulae to load in the browser); opened, the code that ran."""
    at = open_page(name)
    assert [e.label for e in at.expander].count("How it works") == 1 and not at.code
    at.session_state["how_it_works"] = True
    at.run()
    assert_no_exception(at)
    assert any("def " in c.value for c in at.code)


def test_try_this_is_drawn_once_opened_and_keeps_the_answers_while_closed():
    at = open_page("knn", try_this=False)
    assert any(e.label.startswith("Try this") for e in at.expander) and not at.radio
    at.session_state["try_this"] = True
    at.run()
    question = at.radio(key="knn_try_2")
    wrong = next(option for option in question.options if option != question.options[0])
    question.set_value(wrong).run()
    at.session_state["try_this"] = False  # closed: its radios are not drawn
    at.run()
    assert not at.radio
    at.session_state["try_this"] = True
    at.run()
    assert at.radio(key="knn_try_2").value == wrong and at.radio(key="knn_try_1").value is None
    assert_no_exception(at)


@pytest.fixture
def no_data_cache():
    """Clear Streamlit's data cache before and after, so a fault is not hidden by a cached load."""
    import streamlit as st

    st.cache_data.clear()
    yield
    st.cache_data.clear()


def test_data_home_pointing_nowhere_is_a_message_on_the_digits_page_only(monkeypatch, no_data_cache):
    monkeypatch.setenv("CLASSIC_DATA_HOME", "/nowhere/at/all")
    at = open_page("digits")
    assert_no_exception(at)
    assert "could not be loaded" in at.error[0].value
    assert "$CLASSIC_DATA_HOME is set to '/nowhere/at/all'" in " ".join(t.value for t in at.text)
    for name in ("home", "perceptron", "knn", "decision-tree"):
        other = open_page(name)
        assert_no_exception(other)
        assert not [e.value for e in other.error if "could not be loaded" in e.value], name


def test_an_unexpected_os_error_from_the_loader_is_a_message(monkeypatch, no_data_cache):
    from classic import datasets

    def unreadable(data_home=None):
        raise PermissionError(13, "Permission denied", "/srv/data/semeion.data")

    monkeypatch.setattr(datasets, "load_semeion", unreadable)
    at = open_page("digits")
    assert_no_exception(at)
    assert "could not be loaded" in at.error[0].value
    assert "Permission denied" in " ".join(t.value for t in at.text)


def test_a_public_deployment_shows_no_traceback_or_server_path():
    """With the project's .streamlit/config.toml, an uncaught exception shows only its type and
    Streamlit's generic message (run in a fresh process: the tests themselves switch details on)."""
    import json
    import subprocess
    import sys
    import tomllib

    settings = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert settings["client"]["showErrorDetails"] == "type"
    script = (
        "import json\n"
        "from streamlit.testing.v1 import AppTest\n"
        "at = AppTest.from_string(\"raise ValueError('secret in /srv/app/pages/knn.py')\").run()\n"
        "e = at.exception[0]\n"
        "print(json.dumps([e.message, list(e.stack_trace), e.proto.type]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    message, trace, kind = json.loads(result.stdout.strip().splitlines()[-1])
    assert kind == "ValueError" and trace == []
    assert "redacted" in message and "/srv/app" not in message and "secret" not in message


def _bound_widgets_app():
    """A page with bound widgets that calls the URL helpers as every page does."""
    import streamlit as st

    from pages.server import url

    url.start_page()
    st.title("Bound widgets")
    st.slider("k", 1, 100, 5, key="k", bind="query-params")
    st.selectbox("Metric", ["euclidean", "manhattan"], key="metric", bind="query-params")
    st.checkbox("Blur", key="blur", bind="query-params")
    st.number_input("Seed", 0, 2**31 - 1, 0, key="seed", bind="query-params")
    st.text_input("Nickname", max_chars=8, key="nick", bind="query-params")
    url.note_ignored_params()


def _open_with(params: dict):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_bound_widgets_app)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert_no_exception(at)
    return at


def test_a_valid_link_sets_the_widgets_without_a_note():
    at = _open_with({"k": "7", "metric": "manhattan", "blur": "true", "unrelated": "x"})
    assert (at.slider(key="k").value, at.selectbox(key="metric").value, at.checkbox(key="blur").value) == (
        7,
        "manhattan",
        True,
    )
    assert not at.info
    assert not _open_with({"k": "5"}).info  # the default, spelled out: Streamlit drops it silently


@pytest.mark.parametrize(
    ("params", "shown"),
    [
        ({"k": "abc"}, "ignored `k=abc` from the link (not a valid value\\; using `5`)"),
        ({"k": "nan"}, "`k=nan`"),
        ({"k": "1e308"}, "`k=1e308`"),
        ({"k": str(10**100)}, "`k=1000000000000000000000000000000000000000… (101 characters)`"),
        ({"metric": "Mars"}, "`metric=Mars`"),
        ({"blur": "maybe"}, "`blur=maybe`"),
        ({"seed": "inf"}, "`seed=inf`"),
        ({"seed": "-Infinity"}, "`seed=-Infinity`"),
        ({"seed": "1e999"}, "`seed=1e999`"),
    ],
)
def test_an_ignored_link_value_gets_a_visible_note(params, shown):
    at = _open_with(params)
    assert at.slider(key="k").value == 5 and at.selectbox(key="metric").value == "euclidean"
    assert len(at.info) == 1 and shown in at.info[0].value


def test_link_text_in_the_note_is_code_never_markdown():
    from pages.server.url import code_span, escape_markdown

    at = _open_with({"metric": "![x](http://a.b/c.png)<script>1</script>"})
    assert "`metric=![x](http://a.b/c.png)<script>1</script>`" in at.info[0].value
    assert code_span("a`b") == "``a`b``" and code_span("`x") == "`` `x ``"
    assert code_span("two\nlines") == "`two lines`"
    assert escape_markdown("![x](y) :red[z] $a$") == r"\!\[x\]\(y\) \:red\[z\] \$a\$"
    long = _open_with({"metric": "x" * 100_000}).info[0].value
    assert "(100,000 characters)" in long and len(long) < 300


def test_a_value_cut_to_a_text_fields_length_is_shown_as_code():
    """Streamlit cuts a link's text to a text field's max_chars and uses it: the value used is the
    link's own text, so the note shows it as code too (it was Markdown-escaped text, /join's
    nickname field since 12f4f90; test_fuzz's url fuzz on /join found '<script' in it)."""
    at = _open_with({"nick": "<script>alert(1)</script>"})
    assert at.text_input(key="nick").value == "<script>"
    assert "(not a valid value\\; using `<script>`)" in at.info[0].value


def test_the_streamlit_bug_start_page_works_around_is_still_there():
    """An integer number_input bound to ``?seed=inf`` crashes in Streamlit 1.67 (OverflowError);
    pages/server/url.py drops non-finite values before any widget, through private state. When this
    test fails, Streamlit has changed: remove ``_drop_non_finite_numbers`` if the bug is gone."""
    from streamlit.testing.v1 import AppTest

    def bare():
        import streamlit as st

        st.number_input("Seed", 0, 100, 0, key="seed", bind="query-params")

    at = AppTest.from_function(bare)
    at.query_params["seed"] = "inf"
    at.run()
    assert [e.proto.type for e in at.exception] == ["OverflowError"]


@pytest.mark.parametrize(
    "page, stopping, bad",
    [
        ("perceptron", {"pc_data": "Your points (click to place)", "pc_points": "0_0_0~0_1_1"}, "pc_epochs"),
        ("knn", {"knn_data": "Your points", "knn_user_points": "0_0_0"}, "knn_points"),
        ("decision-tree", {"tree_data": "Upload a CSV"}, "tree_depth"),
        ("compare", {"cmp_data": "Your points", "cmp_user_points": "0_0_0~0_1_1~0_2_2"}, "cmp_k"),
    ],
)
def test_a_page_that_stops_early_still_notes_the_ignored_link_values(page, stopping, bad):
    """Each page's early stop (too few classes, no file yet) with a bad value in the link: the
    note is there (app.py's own call is never reached by a stopped run)."""
    at = open_page(page, params={**stopping, bad: "abc"})
    assert_no_exception(at)
    notes = [i.value for i in at.info if "could not be used" in i.value]
    assert len(notes) == 1 and f"`{bad}=abc`" in notes[0]


def sidebar_labels(at) -> list[str]:
    """The labels of the sidebar's widgets, top to bottom."""
    return [node.label for node in at.sidebar if getattr(node, "label", None)]


@pytest.mark.parametrize(
    ("page", "params"),
    [
        *[(page.file, {}) for page in app_pages(menu_only=True)],
        ("decision-tree", {"tree_data": "Upload a CSV"}),  # stops early: no file yet
        ("knn", {"knn_data": "Your points", "knn_user_points": "0_0_0"}),  # stops: one class
    ],
)
def test_start_a_class_is_below_the_pages_own_controls_on_every_page(page, params):
    """The teacher's "Start a class" is in the sidebar of every page, a page that stops early
    too, and last: above the page's controls it pushed the tree page's Data menu to y = 769 px,
    off a 1280×720 projector (tests/browser/test_decision_tree_browser.py)."""
    at = open_page(page, params=params, try_this=False)
    assert_no_exception(at)
    labels = sidebar_labels(at)
    assert labels[-1] == "Start a class" and labels.count("Start a class") == 1
    assert labels[0] == "Presentation mode"


@pytest.mark.parametrize(
    ("value", "on", "noted"), [("abc", False, True), ("1", True, False), ("true", True, False)]
)
def test_the_presentation_link_value_is_noted_when_it_cannot_be_read(value, on, noted):
    """``present`` belongs to app.py's toggle, which drops an unreadable value before the page
    records the link: it is noted all the same; a teacher's ``present=1`` turns it on, unnoted."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["present"] = value
    at.run()
    assert_no_exception(at)
    assert at.session_state["present"] is on
    notes = [i.value for i in at.info if "could not be used" in i.value]
    assert notes == ([notes[0]] if noted else []) and (not noted or "`present=abc`" in notes[0])
