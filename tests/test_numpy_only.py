"""``classic`` is numpy only: with the drawing and app libraries impossible to import, every module
outside ``classic.viz`` imports, and every estimator fits, predicts and scores.

The check runs in a fresh interpreter whose import system refuses the blocked packages (a
meta-path finder that raises ImportError), as a ``pip install .`` without the ``viz`` extra
would. It also checks what ``pip install .`` would package.
"""

import json
import subprocess
import sys
import tomllib

from conftest import ROOT

BLOCKED = ("matplotlib", "graphviz", "streamlit", "sklearn", "scipy", "pandas", "PIL")

SCRIPT = r"""
import importlib, json, pkgutil, sys, traceback

BLOCKED = set(sys.argv[1].split(","))


class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is blocked: classic must be numpy only")
        return None


sys.meta_path.insert(0, Refuse())
import numpy as np
import classic

report = {"imported": [], "failed": {}, "estimators": {}, "leaked": []}
for module in pkgutil.walk_packages(classic.__path__, "classic."):
    if module.name.startswith("classic.viz"):
        continue
    try:
        importlib.import_module(module.name)
        report["imported"].append(module.name)
    except Exception as error:
        report["failed"][module.name] = f"{type(error).__name__}: {error}"

from classic.id3 import ID3, PrunedID3
from classic.kdtree import KDTree
from classic.knn import KNNClassifier
from classic.perceptron import DualPerceptron, Perceptron
from classic.preprocessing import MinMaxScaler, StandardScaler

rng = np.random.default_rng(0)
X = np.vstack([rng.normal(-2, 0.5, (10, 2)), rng.normal(2, 0.5, (10, 2))])
y = np.repeat([0, 1], 10)
table = np.array([["a", "x"], ["a", "y"], ["b", "x"], ["b", "y"]] * 3)
labels = np.array(["no", "no", "yes", "yes"] * 3)


def run(name, make):
    try:
        report["estimators"][name] = make()
    except Exception:
        report["estimators"][name] = "FAILED " + traceback.format_exc(limit=3)


def classifier(estimator, X, y):
    fitted = estimator.fit(X, y)
    assert fitted is estimator, "fit must return self"
    predicted = estimator.predict(X)
    assert len(predicted) == len(X)
    return float(estimator.score(X, y))


run("Perceptron", lambda: classifier(Perceptron(max_epochs=20), X, y))
run("Perceptron(shuffle, pocket)", lambda: classifier(Perceptron(shuffle=True, random_state=0, pocket=True), X, y))
run("DualPerceptron", lambda: classifier(DualPerceptron(kernel="rbf", max_epochs=20), X, y))
run("KNNClassifier", lambda: classifier(KNNClassifier(k=3), X, y))
run("KNNClassifier(kdtree)", lambda: classifier(KNNClassifier(k=3, algorithm="kdtree"), X, y))
run("ID3", lambda: classifier(ID3(max_depth=2), table, labels))
run("PrunedID3", lambda: classifier(PrunedID3(random_state=0), table, labels))
run("StandardScaler", lambda: float(np.abs(StandardScaler().fit_transform(X).mean(axis=0)).max()))
run("MinMaxScaler", lambda: float(MinMaxScaler().fit(X).transform(X).max()))
run("KDTree", lambda: int(KDTree(X).query(X[0], k=2)[1][0]))
report["leaked"] = sorted({name.split(".")[0] for name in sys.modules} & BLOCKED)
print(json.dumps(report))
"""


def _run_blocked() -> dict:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, ",".join(BLOCKED)],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_every_module_imports_and_every_estimator_works_without_the_drawing_libraries():
    report = _run_blocked()
    failed = report["failed"]
    assert not failed, f"these modules need a blocked package: {failed}"
    assert {"classic.knn", "classic.perceptron", "classic.id3", "classic.uci"} <= set(report["imported"])
    broken = {name: out for name, out in report["estimators"].items() if isinstance(out, str)}
    assert not broken, "\n".join(f"{name}: {out}" for name, out in broken.items())
    scores = report["estimators"]
    assert scores["Perceptron"] == 1.0 and scores["KNNClassifier"] == 1.0 and scores["ID3"] == 1.0
    assert scores["StandardScaler"] < 1e-12 and scores["MinMaxScaler"] == 1.0
    assert scores["KDTree"] == 0  # the point itself is its nearest neighbour
    assert report["leaked"] == []


def test_the_package_is_numpy_only_and_ships_the_viz_layer_as_an_extra():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert [dep.split(">")[0].split("=")[0] for dep in project["project"]["dependencies"]] == ["numpy"]
    viz = {dep.split(">")[0].split("=")[0] for dep in project["project"]["optional-dependencies"]["viz"]}
    assert viz == {"matplotlib", "graphviz"}
    packages = set(project["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(path.parent.relative_to(ROOT).parts) for path in (ROOT / "classic").rglob("__init__.py")
    }
    assert packages == on_disk, "every package under classic/ must be listed, or pip install . drops it"
