"""Promises the repository makes: the README's commands are the ones CI runs, data stays out."""

import ast
import re
import subprocess

from conftest import ROOT


def _readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    return re.findall(r"```bash\n(.+?)\n```", readme)


def test_readme_has_the_two_commands_and_ci_runs_the_test_one():
    run_app, run_tests = _readme_commands()[:2]
    assert "streamlit run app.py" in run_app and "requirements.txt" in run_app
    assert "pytest" in run_tests and "requirements-dev.txt" in run_tests
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert run_tests in ci_lines
    assert any("REQUIRE_BROWSER=1" in line for line in ci_lines)
    assert "export REQUIRE_DATA=1" in ci_lines


def test_uci_files_are_ignored_and_not_tracked():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout
    assert not re.search(r"(^|/)(semeion|house-votes-84)\.data$", tracked, re.M)
    ignored = subprocess.run(
        ["git", "check-ignore", "data/semeion.data", "data/house-votes-84.data"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert ignored == ["data/semeion.data", "data/house-votes-84.data"]


def _imports(path) -> list[tuple[str, str]]:
    """(top-level package, enclosing function or "") for every import in a file."""
    found = []

    def visit(node, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend((alias.name.split(".")[0], function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module:
                found.append((child.module.split(".")[0], function))
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            visit(child, inner)

    visit(ast.parse(path.read_text()), "")
    return found


def test_library_imports_neither_streamlit_nor_sklearn():
    """Never streamlit; sklearn only inside ``__sklearn_tags__``, which only scikit-learn calls."""
    for path in (ROOT / "classic").rglob("*.py"):
        for package, function in _imports(path):
            assert package != "streamlit", path.name
            assert package != "sklearn" or function == "__sklearn_tags__", (
                f"{path.name}: in {function or 'module'}"
            )
    for path in (ROOT / "pages").glob("*.py"):
        assert not re.search(r"^\s*(import|from)\s+sklearn", path.read_text(), re.M), path.name


def test_no_cdn_or_remote_assets_in_the_app():
    for path in [ROOT / "app.py", *(ROOT / "pages").glob("*.py")]:
        assert not re.search(r"https?://(?!localhost)", path.read_text()), path.name


def test_every_colour_is_typed_once_in_the_theme():
    """Issue 11: one palette. A colour literal anywhere in the app, the library or the players,
    outside classic/viz/theme.py, is a second copy that will drift from the theme."""
    literal = re.compile(r"#[0-9A-Fa-f]{6}\b|#[0-9A-Fa-f]{3}\b(?![-\w])|rgba?\(\s*\d")
    sources = [
        ROOT / "app.py",
        *ROOT.glob("pages/**/*.py"),
        *ROOT.glob("classic/**/*.py"),
        *ROOT.glob("assets/*.html"),
    ]
    typed = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}"
        for path in sources
        if path.name != "theme.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if literal.search(line)
    ]
    assert len(sources) > 20
    assert typed == []


def test_browser_tests_share_the_session_browser():
    """One Playwright instance a thread: a test module that starts its own (sync_playwright)
    fails once conftest's session-wide ``browser`` is running in the same process (as it is
    under pytest-xdist, where a worker runs many modules). New contexts: conftest's new_context."""
    own = [
        path.name
        for path in sorted((ROOT / "tests" / "browser").glob("*.py"))
        if "sync_playwright()" in path.read_text(encoding="utf-8")
    ]
    assert not own, f"{own} start their own Playwright; use conftest's browser fixture"
