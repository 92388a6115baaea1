"""No code that runs in the service reads a format that can run code (issue 12).

A pickle (and marshal, shelve, which is pickle on disk, and the libraries built on them) runs
whatever the data names while it is read: whoever can write what is read, a database column or a
cache entry, runs code in the web workers. The service's own data is JSON; this test reads every
module of the project's runtime packages and fails on any import of those modules, static or by
name. Tests and benchmarks may use them (the benchmarks measure the pickle this replaced)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ("common", "config", "dealer", "tournaments")
CODE_RUNNING_FORMATS = frozenset(
    {"pickle", "_pickle", "cPickle", "pickletools", "marshal", "shelve", "dill", "cloudpickle"}
    | {"jsonpickle", "joblib"}
)
DYNAMIC_IMPORTS = frozenset({"__import__", "import_module"})


def runtime_modules() -> list[Path]:
    paths = [ROOT / "manage.py"]
    for package in RUNTIME:
        paths += sorted((ROOT / package).rglob("*.py"))
    return paths


def imports_of_code_running_formats(source: str) -> list[str]:
    """Each module of `CODE_RUNNING_FORMATS` the source imports, as written."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
        elif isinstance(node, ast.Call) and node.args:
            function = node.func
            called = getattr(function, "id", None) or getattr(function, "attr", None)
            argument = node.args[0]
            if called in DYNAMIC_IMPORTS and isinstance(argument, ast.Constant):
                names = [str(argument.value)]
        found += [name for name in names if name.split(".")[0] in CODE_RUNNING_FORMATS]
    return found


@pytest.mark.parametrize(
    "source",
    [
        "import pickle",
        "import json, marshal as m",
        "from pickle import loads",
        "from shelve import open",
        "def f():\n    import dill\n",
        "import importlib\nimportlib.import_module('pickle')",
        "__import__('_pickle')",
    ],
)
def test_the_check_finds_each_way_of_importing_pickle(source: str) -> None:
    assert imports_of_code_running_formats(source)


def test_the_check_leaves_other_imports_alone() -> None:
    source = "import json\nfrom dealer.engine import snapshot\nfrom . import pickled_names\n"
    assert imports_of_code_running_formats(source) == []


def test_no_runtime_module_imports_pickle_marshal_or_shelve() -> None:
    modules = runtime_modules()
    assert len(modules) > 50  # the packages were found
    found = {
        str(path.relative_to(ROOT)): names
        for path in modules
        if (names := imports_of_code_running_formats(path.read_text(encoding="utf-8")))
    }
    assert found == {}
