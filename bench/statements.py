"""Counting the SQL statements a bench's requests run, for the benches that report them."""

from __future__ import annotations

from collections.abc import Callable

Execute = Callable[[str, object, bool, dict[str, object]], object]


class StatementCount:
    """An execute wrapper (Django's `connection.execute_wrappers`): each statement run through
    it adds one to `statements`."""

    def __init__(self) -> None:
        self.statements = 0

    def __call__(
        self,
        execute: Execute,
        sql: str,
        params: object,
        many: bool,
        context: dict[str, object],
    ) -> object:
        self.statements += 1
        return execute(sql, params, many, context)
