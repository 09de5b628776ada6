"""Every cache the pages keep is bounded (issue 16: a classroom on one server).

A cached function that takes arguments gets an entry per distinct call: without ``max_entries``
a session moving a slider grew the server without limit (k above 64 on 1000 points: 0.4 GB a
step, never returned). Read from the source with ``ast``, so a new unbounded cache fails here.
"""

import ast
import importlib
import inspect

from conftest import ROOT

# Keyed by a fixed set of names, never by user input: bounded by construction.
FIXED_KEYS = {"component_player": "one entry per player template", "_failure": "two data sets, 60 s ttl"}


def _modules(tree: ast.Module, path) -> dict[str, object]:
    """The names a page file binds to modules or functions by import."""
    found = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.split(".")[0] in ("classic", "pages")
        ):
            for alias in node.names:
                module = importlib.import_module(node.module)
                found[alias.asname or alias.name] = getattr(
                    module, alias.name, None
                ) or importlib.import_module(f"{node.module}.{alias.name}")
    return found


def _is_cache(call: ast.AST) -> bool:
    func = call.func if isinstance(call, ast.Call) else call
    return isinstance(func, ast.Attribute) and func.attr in ("cache_data", "cache_resource")


def test_every_cache_that_takes_arguments_has_max_entries():
    unbounded, seen = [], 0
    for path in sorted([*ROOT.glob("pages/*.py"), *ROOT.glob("pages/*/*.py")]):
        tree = ast.parse(path.read_text())
        names = _modules(tree, path)
        for node in ast.walk(tree):
            # @st.cache_data(...) / @st.cache_resource above a def
            if isinstance(node, ast.FunctionDef):
                for decorator in node.decorator_list:
                    if _is_cache(decorator):
                        seen += 1
                        bounded = isinstance(decorator, ast.Call) and any(
                            k.arg == "max_entries" for k in decorator.keywords
                        )
                        if node.args.args and not bounded and node.name not in FIXED_KEYS:
                            unbounded.append(f"{path.name}: {node.name}")
            # name = st.cache_data(...)(module.function), or st.cache_data(function)
            if isinstance(node, ast.Call) and _is_cache(
                node.func if isinstance(node.func, ast.Call) else node
            ):
                outer = node.func if isinstance(node.func, ast.Call) else node
                target = (node.args or outer.args or [None])[0]
                if not isinstance(target, ast.Attribute | ast.Name):
                    continue
                seen += 1
                owner = names.get(target.value.id) if isinstance(target, ast.Attribute) else None
                function = getattr(owner, target.attr, None) if owner is not None else None
                if function is None:
                    continue
                bounded = any(k.arg == "max_entries" for k in outer.keywords)
                if inspect.signature(function).parameters and not bounded:
                    unbounded.append(f"{path.name}: {ast.unparse(target)}")
    assert seen >= 15
    assert unbounded == []
