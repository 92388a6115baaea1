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
    # an entry's chips: the running total of its ledger rows, where the latest came from, when
    "tournaments/services/ledger.py": {"chips", "chips_source", "chips_at"},
    # the places and the prizes of a tournament's entries
    "tournaments/services/places.py": {"finishing_place", "prize"},
    # a cash seat's chips (another model's field of the same name: each ledger owns its own)
    "dealer/cash/ledger.py": {"chips"},
    # the tournament clock: its level, its end, the time left when paused, its start
    "tournaments/services/clocks.py": {
        "clock_level",
        "clock_ends_at",
        "clock_remaining",
        "clock_started_at",
    },
}


def _unpacked(target: ast.expr) -> list[ast.expr]:
    """The targets of `a.x, a.y = ...` and `a.x = a.y = ...` one by one."""
    if isinstance(target, ast.Tuple | ast.List):
        return [e for element in target.elts for e in _unpacked(element)]
    return [target]


def _a_dict_update(func: ast.Attribute) -> bool:
    """`d.update(key=...)` on a plain mapping (Jinja's filters, say), not a query set's: a
    query set's `update` is called on a query (`...filter(...).update`) or a manager."""
    receiver = func.value
    return func.attr == "update" and not (
        isinstance(receiver, ast.Call)
        or (isinstance(receiver, ast.Attribute) and receiver.attr == "objects")
    )


def _owners_of(field: str) -> set[str]:
    return {owner for owner, fields in OWNERS.items() if field in fields}


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
        for target in [e for t in targets for e in _unpacked(t)]:
            if isinstance(target, ast.Attribute) and target.attr in fields:
                found.append((getattr(node, "lineno", 0), target.attr))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("update", "create", "update_or_create", "get_or_create")
            and not _a_dict_update(node.func)
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
        # a field of the same name on another model, with an owner of its own
        if str(path.relative_to(ROOT)) not in _owners_of(field)
    ]
    assert others == []
    mine = _writes(ast.parse((ROOT / owner).read_text()), fields)
    assert {field for _, field in mine} == fields  # the scan sees the owner's own writes


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("entry.seat = 3", {"seat"}),
        ("entry.table, entry.seat = table, 3", {"seat"}),
        ("a.seat = b.seat = None", {"seat"}),
        ("Entry.objects.filter(pk=1).update(seat=None)", {"seat"}),
        ("Entry.objects.update(seat=None)", {"seat"}),
        ("table.entries.create(seat=2)", {"seat"}),
        ("env.filters.update(seat=str)", set()),  # a plain mapping's update
        ("seat = 3", set()),  # a local name, not a field
    ],
)
def test_the_scan_sees_every_form_of_a_write(source, found):
    assert {field for _, field in _writes(ast.parse(source), {"seat"})} == found
