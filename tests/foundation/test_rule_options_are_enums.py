"""Rule options are compared with their enum members, never with string literals (issue 11).

A string compared in one place and spelled differently in another is a rule that silently stops
applying; the enum is the one spelling. The scan reads the source of `dealer/` and `tournaments/`
for a comparison (or a `match`) of something named like a rule option (`rules.structure`,
`structure`, `rules.get("structure")`, `values["structure"]`) with a string that is one of that
option's values.
"""

from __future__ import annotations

import ast
from itertools import pairwise
from pathlib import Path

import pytest

from dealer.engine.rules import CHOICES

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("common", "dealer", "tournaments")

# Files other work owned while the options became enums: none left (the tablet reads what the
# rules mean from the hand's snapshot, `pot_limit` and `claim_allowed`).
LEFTOVERS: set[str] = set()


def _option_named(node: ast.expr) -> str | None:
    """The rule option a node reads, judged by its name, or None."""
    name: object = None
    if isinstance(node, ast.Attribute):
        name = node.attr
    elif isinstance(node, ast.Name):
        name = node.id
    elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        name = node.slice.value
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ):
        name = node.args[0].value
    return name if isinstance(name, str) and name in CHOICES else None


def _literals(node: ast.expr) -> list[str]:
    """The string constants a node is, or holds (for `in ("a", "b")`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for element in node.elts for s in _literals(element)]
    return []


def _pairs(tree: ast.AST) -> list[tuple[int, ast.expr, ast.expr]]:
    """(line, one side, other side) of every comparison and every `case` of a `match`."""
    found: list[tuple[int, ast.expr, ast.expr]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for left, right in pairwise(operands):
                found += [(node.lineno, left, right), (node.lineno, right, left)]
        elif isinstance(node, ast.Match):
            for case in node.cases:
                for pattern in ast.walk(case.pattern):
                    if isinstance(pattern, ast.MatchValue):
                        found.append((pattern.lineno, node.subject, pattern.value))
    return found


def string_comparisons(source: str) -> list[str]:
    """`line: option == 'value'` for every rule option compared with a string literal."""
    problems = []
    for line, side, other in _pairs(ast.parse(source)):
        option = _option_named(side)
        if option is None:
            continue
        for value in _literals(other):
            if value in CHOICES[option]:
                problems.append(f"{line}: {option} compared with '{value}'")
    return problems


def _sources() -> list[Path]:
    return sorted(
        path
        for folder in SCANNED
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
    )


def test_no_rule_option_is_compared_with_a_string_literal() -> None:
    found = {}
    for path in _sources():
        name = path.relative_to(ROOT).as_posix()
        problems = string_comparisons(path.read_text(encoding="utf-8"))
        if problems and name not in LEFTOVERS:
            found[name] = problems
    assert not found, f"compare rule options with their enum members: {found}"


def test_the_leftovers_still_need_their_exemption() -> None:
    """An exemption is removed once its file is moved to the enums (or is gone)."""
    cleared = [
        name
        for name in sorted(LEFTOVERS)
        if not (ROOT / name).exists()
        or not string_comparisons((ROOT / name).read_text(encoding="utf-8"))
    ]
    assert not cleared, f"remove from LEFTOVERS: {cleared}"


@pytest.mark.parametrize(
    "source",
    [
        'if rules.structure == "fixed_limit": pass',
        'if "dead" == state.setup.rules.button_mode: pass',
        'ok = policy_of(x).missed_blind_policy != "TDA_tournament"',
        'ok = game in ("holdem", "sixplus")',
        'ok = rules.get("play_board_claim", "table_both") != "table_both"',
        'ok = values["mode"] == "tournament"',
        'match rules.odd_chip:\n    case "high_card_by_suit": pass',
    ],
)
def test_the_scan_finds_a_string_comparison(source: str) -> None:
    assert string_comparisons(source)


@pytest.mark.parametrize(
    "source",
    [
        "if rules.structure is Structure.FIXED_LIMIT: pass",
        "ok = rules.game == Game.SIXPLUS",
        'ok = mode == "r"',  # not one of the option's values: a file mode, say
        'ok = rules.fl_cap_bets == 4 and name == "fixed_limit"',
    ],
)
def test_the_scan_lets_enum_comparisons_pass(source: str) -> None:
    assert not string_comparisons(source)
