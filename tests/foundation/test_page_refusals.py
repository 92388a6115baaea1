"""One place turns a refusal into what a page shows (issue 28, "one page-write helper turns
domain errors into messages"): `tournaments/views/form_tokens.py`. A page view module that
catches a domain error itself (`FloorError`, a subclass, the engine's `DomainError`) grows a
second way to say no; this test reads the source of every page view module for one.

Each module's `except` clauses are resolved against the module as imported, so an alias, a
subclass (`FormSentTwiceError`) or a tuple naming one is found as well as `FloorError` itself."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from dealer.engine.errors import DomainError

ROOT = Path(__file__).resolve().parents[2]

# The page views: the tournaments' pages, the tablet's and the dealer app's desk pages, the
# cash floor's and the dealers' rotation.
PAGE_VIEWS = (
    "tournaments/views/*.py",
    "dealer/views/*.py",
    "dealer/cash/*/views.py",
    "dealer/rotation/*views.py",
)

# (module, function): why it catches a domain error itself.
ALLOWED = {
    ("tournaments/views/form_tokens.py", "attempt"): "the helper's own: the one catch",
    ("dealer/views/tablet.py", "tried"): (
        "the tablet's one catch: a refusal is drawn on the tablet (the hand as it is now with "
        "the sentence, 400/409), not shown at the top of the next page, and the engine's "
        "refusals are caught with the services'"
    ),
    ("dealer/cash/seats/views.py", "_cash_table"): (
        "not a refusal shown on a page: a tournament's table asked for at a cash address is "
        "answered Django's 403 (PermissionDenied), whatever the page"
    ),
}


def _modules() -> list[Path]:
    return sorted(path for pattern in PAGE_VIEWS for path in ROOT.glob(pattern))


def _dotted(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _resolve(node: ast.expr, namespace: dict[str, object]) -> list[object]:
    """The objects an `except` clause names (a name, `module.Name`, or a tuple of them)."""
    if isinstance(node, ast.Tuple):
        return [found for element in node.elts for found in _resolve(element, namespace)]
    if isinstance(node, ast.Name):
        return [namespace.get(node.id)]
    if isinstance(node, ast.Attribute):
        return [getattr(owner, node.attr, None) for owner in _resolve(node.value, namespace)]
    return []


def _is_domain_error(found: object) -> bool:
    return isinstance(found, type) and issubclass(found, DomainError)


class _Catches(ast.NodeVisitor):
    """Each `except` naming a domain error, with the function it is in."""

    def __init__(self, namespace: dict[str, object]) -> None:
        self.namespace = namespace
        self.functions: list[str] = []
        self.found: list[tuple[int, str]] = []

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        named = _resolve(node.type, self.namespace) if node.type is not None else []
        if any(_is_domain_error(found) for found in named):
            # The outermost function: a nested one (a closure) is part of its view.
            self.found.append((node.lineno, self.functions[0] if self.functions else ""))
        self.generic_visit(node)


def catches(source: str, namespace: dict[str, object]) -> list[tuple[int, str]]:
    visitor = _Catches(namespace)
    visitor.visit(ast.parse(source))
    return visitor.found


def _all_catches() -> dict[tuple[str, str], list[int]]:
    found: dict[tuple[str, str], list[int]] = {}
    for path in _modules():
        namespace = vars(importlib.import_module(_dotted(path)))
        for line, function in catches(path.read_text(encoding="utf-8"), namespace):
            found.setdefault((str(path.relative_to(ROOT)), function), []).append(line)
    return found


def test_the_page_views_are_found() -> None:
    names = {str(path.relative_to(ROOT)) for path in _modules()}

    assert "tournaments/views/setup.py" in names
    assert {"dealer/cash/seats/views.py", "dealer/rotation/staff_views.py"} <= names


def test_no_page_view_catches_a_domain_error_itself() -> None:
    others = [
        f"{module}:{','.join(map(str, lines))} in {function}()"
        for (module, function), lines in sorted(_all_catches().items())
        if (module, function) not in ALLOWED
    ]

    assert others == [], (
        "a page view catches a domain error itself; go through tournaments/views/form_tokens.py "
        "(page_write, form_write, page_read, attempt) or add it to ALLOWED with its reason"
    )


def test_every_allowed_catch_is_still_there() -> None:
    assert set(ALLOWED) <= set(_all_catches())


@pytest.mark.parametrize(
    "clause",
    [
        "except FloorError:",
        "except FloorError as error:",
        "except (ValueError, FloorError) as error:",
        "except errors.FloorInvalid:",
        "except FormSentTwiceError:",
        "except Refused:",  # an alias
    ],
)
def test_a_catch_is_found_however_it_is_written(clause: str) -> None:
    from common import errors
    from tournaments.services.form_tokens import FormSentTwiceError

    namespace: dict[str, object] = {
        "FloorError": errors.FloorError,
        "errors": errors,
        "FormSentTwiceError": FormSentTwiceError,
        "Refused": errors.FloorConflict,
        "ValueError": ValueError,
    }
    lines = ["def view():", "    def inner():", "        try:", "            pass"]
    source = "\n".join([*lines, f"        {clause}", "            pass", ""])

    assert catches(source, namespace) == [(5, "view")]


def test_other_exceptions_are_not_counted() -> None:
    lines = ["def view():", "    try:", "        pass", "    except (ValueError, Http404):"]
    source = "\n".join([*lines, "        pass", ""])

    assert catches(source, {"ValueError": ValueError, "Http404": LookupError}) == []
