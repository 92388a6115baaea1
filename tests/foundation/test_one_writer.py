"""Facts with one writer, checked on the source (issue 28, "the table of facts and owners kept
true by a test"): a field assigned (`x.field = ...`, `update(field=...)`, `create(field=...)`)
anywhere but in its owner's module is a second writer."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("dealer", "tournaments", "config")

OWNERS = {
    # the tournament clock: its level, its end, the time left when paused, its start
    "tournaments/services/clocks.py": {
        "clock_level",
        "clock_ends_at",
        "clock_remaining",
        "clock_started_at",
    },
}


def _sources() -> list[Path]:
    return [
        path
        for top in SCANNED
        for path in sorted((ROOT / top).rglob("*.py"))
        if "migrations" not in path.parts
    ]


def _writes(tree: ast.AST, fields: set[str]) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Attribute) and target.attr in fields:
                found.append((getattr(node, "lineno", 0), target.attr))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("update", "create", "update_or_create", "get_or_create")
        ):
            found += [(node.lineno, str(k.arg)) for k in node.keywords if k.arg in fields]
    return found


@pytest.mark.parametrize("owner", sorted(OWNERS))
def test_only_the_owner_writes_its_fields(owner):
    fields = OWNERS[owner]
    others = [
        f"{path.relative_to(ROOT)}:{line} {field}"
        for path in _sources()
        if str(path.relative_to(ROOT)) != owner
        for line, field in _writes(ast.parse(path.read_text()), fields)
    ]
    assert others == []
    mine = _writes(ast.parse((ROOT / owner).read_text()), fields)
    assert {field for _, field in mine} == fields  # the scan sees the owner's own writes
