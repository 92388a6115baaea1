"""Facts with one writer, checked on the source (issue 28, "the table of facts and owners kept
true by a test"): a field written anywhere but in its owner's module is a second writer.

A write is `x.field = ...` (a tuple of targets too), `field=` given to `update`, `create`,
`update_or_create` or `get_or_create`, and a field named in `bulk_update(objs, [...])` or
`save(update_fields=[...])`; `field_id=` counts as `field`.

A plain name (`locked_seats`) is matched in every kind of write. A name other models share is
qualified: `Entry.table` is matched only in the write calls rooted at that model
(`Entry.objects....update(table=...)`, and the only ones matched in a model built,
`Entry(table=...)`), since a hand, a button draw and a
cash seat have a `table` or a `seat` too; `.seat` is matched only as an assignment, on any
object. Left unseen, on purpose: `entry.table = ...` (a dealer's break and a hand's row assign
a `table`; the entry's seat is assigned with it, and that is seen) and a write through a related
manager (`tournament.entries.update(table=...)`). A plain mapping's `update(key=...)` (Jinja's
filters) is not a write: a query set's `update` is called on a query or a manager. Two models'
fields of one name, each with its owner (an entry's `chips`, a cash seat's), are each left to
either owner.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("common", "dealer", "tournaments", "config")
WRITE_CALLS = ("update", "create", "update_or_create", "get_or_create")

OWNERS = {
    # the tournament clock: its level, its end, the time left when paused, its start
    "tournaments/services/clocks.py": {
        "clock_level",
        "clock_ends_at",
        "clock_remaining",
        "clock_started_at",
    },
    # the tournament's seats: where an entry sits, the seat held for its move after the hand,
    # the seats the floor locks (a cash seat's `seat` is the cash app's: `Entry.seat` here)
    "tournaments/services/seats.py": {
        "Entry.table",
        "Entry.seat",
        ".seat",
        "move_to_table",
        "move_to_seat",
        "locked_seats",
    },
    # an entry's chips: the running total of its ledger rows, where the latest came from, when
    "tournaments/services/ledger.py": {"chips", "chips_source", "chips_at"},
    # the places and the prizes of a tournament's entries
    "tournaments/services/places.py": {"finishing_place", "prize"},
    # a cash seat's chips (another model's field of the same name: each ledger owns its own)
    "dealer/cash/ledger.py": {"chips"},
}


def _sources() -> list[Path]:
    return [
        path
        for top in SCANNED
        for path in sorted((ROOT / top).rglob("*.py"))
        if "migrations" not in path.parts
    ]


def _root(node: ast.expr) -> str:
    """The name a call chain starts from (`Entry` in `Entry.objects.filter(...).update`)."""
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ""


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        found = [node.target]
    else:
        return []
    flat: list[ast.expr] = []
    while found:
        target = found.pop()
        if isinstance(target, ast.Tuple | ast.List):
            found += target.elts
        else:
            flat.append(target.value if isinstance(target, ast.Starred) else target)
    return flat


def _a_dict_update(func: ast.expr) -> bool:
    """`d.update(key=...)` on a plain mapping, not a query set's `update`."""
    if not isinstance(func, ast.Attribute) or func.attr != "update":
        return False
    receiver = func.value
    return not (
        isinstance(receiver, ast.Call)
        or (isinstance(receiver, ast.Attribute) and receiver.attr == "objects")
    )


def _owners_of(field: str) -> set[str]:
    return {owner for owner, fields in OWNERS.items() if field in fields}


def _named(call: ast.Call) -> list[str]:
    """The fields a call writes, by keyword or by a list of names."""
    method = call.func.attr if isinstance(call.func, ast.Attribute) else ""
    if _a_dict_update(call.func):
        return []
    names = [str(k.arg) for k in call.keywords if k.arg] if method in WRITE_CALLS else []
    lists = []
    if method == "bulk_update":
        lists = call.args[1:2] + [k.value for k in call.keywords if k.arg == "fields"]
    elif method == "save":
        lists = [k.value for k in call.keywords if k.arg == "update_fields"]
    for listed in lists:
        if isinstance(listed, ast.List | ast.Tuple):
            names += [str(e.value) for e in listed.elts if isinstance(e, ast.Constant)]
    return names


def _field(keys: list[str], fields: set[str]) -> str | None:
    for key in keys:
        for candidate in (key, key.removesuffix("_id")):
            if candidate in fields:
                return candidate
    return None


def _writes(tree: ast.AST, fields: set[str]) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        for target in _targets(node):
            if isinstance(target, ast.Attribute):
                field = _field([target.attr, f".{target.attr}"], fields)
                if field is not None:
                    found.append((getattr(node, "lineno", 0), field))
        if not isinstance(node, ast.Call):
            continue
        model = _root(node.func)
        keys = [[name, f"{model}.{name}"] if model else [name] for name in _named(node)]
        if isinstance(node.func, ast.Name) and model[:1].isupper():  # built: Entry(table=...)
            keys = [[f"{model}.{k.arg}"] for k in node.keywords if k.arg]
        for key in keys:
            field = _field(key, fields)
            if field is not None:
                found.append((node.lineno, field))
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


SAMPLE = """
entry.seat, entry.table = 3, table
Entry.objects.filter(pk=1).update(table_id=2)
Entry.objects.bulk_update(entries, ["move_to_seat"])
table.save(update_fields=["locked_seats"])
Entry(tournament=t, table=table)
Hand.objects.create(table=table, seat=1)
dealer.table = 4
"""


def test_the_scan_sees_each_kind_of_write():
    """A control: each line of the sample writes a seat's field, or (the last two) another
    model's field of the same name."""
    found = _writes(ast.parse(SAMPLE), OWNERS["tournaments/services/seats.py"])
    assert sorted(found) == [
        (2, ".seat"),
        (3, "Entry.table"),
        (4, "move_to_seat"),
        (5, "locked_seats"),
        (6, "Entry.table"),
    ]


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
def test_the_scan_sees_every_form_of_a_plain_field_write(source, found):
    assert {field for _, field in _writes(ast.parse(source), {"seat"})} == found
