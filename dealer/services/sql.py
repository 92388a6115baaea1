"""The hand writes' SQL: the hand locked with its table (`hand_locked`), and an event appended
with the hand's new version and state (`event_store`).

On PostgreSQL a write costs four round trips: BEGIN, the hand locked with its table and its log
(one statement), the event appended with the hand's new version and state (one statement), and
COMMIT. Written in SQL, not through the ORM, whose work per query cost more than the database's
(docs/performance.md, "Dealer actions through the web stack"). Other databases (SQLite, for
development) take the ORM path. The columns come from the models, so new fields follow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeAlias, TypeVar

from django.db import IntegrityError, connection, transaction
from django.db.models import Field, Model
from django.db.models.expressions import Col

from common.errors import FloorNotFound
from dealer.models import Hand, HandEvent
from tournaments.models import Table

# A concrete column's field, whatever Python type it holds.
ConcreteField: TypeAlias = "Field[object, object]"
M = TypeVar("M", bound=Model)


@dataclass(frozen=True, slots=True)
class _Columns:
    """Some of a model's columns as a statement selects them, with the converters the ORM would
    apply to their values (JSON is decoded, for one)."""

    fields: list[ConcreteField]
    columns: list[Col]
    converters: list[list[Callable[..., object]]]

    @classmethod
    def of(cls, model: type[Model], alias: str, exclude: tuple[str, ...] = ()) -> _Columns:
        fields = [f for f in model._meta.concrete_fields if f.name not in exclude]
        columns = [f.get_col(alias) for f in fields]
        converters = [
            connection.ops.get_db_converters(c) + c.get_db_converters(connection) for c in columns
        ]
        return cls(fields, columns, converters)

    def select(self, alias: str) -> str:
        return ", ".join(f"{alias}.{connection.ops.quote_name(f.column)}" for f in self.fields)

    def instance(self, model: type[M], values: Sequence[object]) -> M:
        values = list(values)
        for index, (column, converters) in enumerate(
            zip(self.columns, self.converters, strict=True)
        ):
            for convert in converters:
                values[index] = convert(values[index], column, connection)
        return model.from_db(connection.alias, [f.attname for f in self.fields], values)


@cache
def _locked_sql(at_table: bool = False) -> tuple[str, _Columns, _Columns]:
    quote = connection.ops.quote_name
    hand, table = _Columns.of(Hand, "h", exclude=("state",)), _Columns.of(Table, "t")
    sql = (
        f"SELECT {hand.select('h')}, {table.select('t')} "
        f"FROM {quote(Hand._meta.db_table)} h JOIN {quote(Table._meta.db_table)} t "
        "ON t.id = h.table_id WHERE h.id = %s "
        + ("AND h.table_id = %s " if at_table else "")
        + "FOR UPDATE OF h"
    )
    return sql, hand, table


NO_SUCH_HAND = "There is no such hand."


class HandNotAtTableError(FloorNotFound):
    """The hand named is not at the table the caller named with it (or does not exist)."""

    def __init__(self) -> None:
        super().__init__("not_found", "There is no such hand at this table.")


def _not_found(at_table: int | None) -> FloorNotFound:
    return FloorNotFound("not_found", NO_SUCH_HAND) if at_table is None else HandNotAtTableError()


def hand_locked(hand: Hand | int, *, at_table: int | None = None) -> Hand:
    """The hand, locked for this transaction (writes to one hand are serialized), with its table
    (on PostgreSQL in one plain SQL statement). `at_table`: the table the caller named with the
    hand (a tablet's URL); a hand at another table is not found."""
    pk = hand if isinstance(hand, int) else hand.pk
    if connection.vendor != "postgresql":
        hands = Hand.objects.select_for_update(of=("self",)).select_related(
            "table", "table__tournament"
        )
        if at_table is not None:
            hands = hands.filter(table_id=at_table)
        try:
            return hands.get(pk=pk)
        except Hand.DoesNotExist as error:
            raise _not_found(at_table) from error
    sql, hand_columns, table_columns = _locked_sql(at_table is not None)
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk] if at_table is None else [pk, at_table])
        row = cursor.fetchone()
    if row is None:
        raise _not_found(at_table)
    split = len(hand_columns.fields)
    locked = hand_columns.instance(Hand, row[:split])
    locked.table = table_columns.instance(Table, row[split:])
    return locked


_HAND_SAVED = ("version", "status", "ended_at", "engine_state")


@cache
def _store_sql() -> tuple[str, list[ConcreteField], list[ConcreteField]]:
    quote = connection.ops.quote_name
    event_fields = [f for f in HandEvent._meta.concrete_fields if not f.primary_key]
    hand_fields = [f for f in Hand._meta.concrete_fields if f.name in _HAND_SAVED]
    hand_table = quote(Hand._meta.db_table)
    sql = (
        f"WITH event AS (INSERT INTO {quote(HandEvent._meta.db_table)} "
        f"({', '.join(quote(f.column) for f in event_fields)}) "
        f"VALUES ({', '.join(['%s'] * len(event_fields))}) "
        "ON CONFLICT DO NOTHING RETURNING response) "
        f"UPDATE {hand_table} SET "
        + ", ".join(f"{quote(f.column)} = %s" for f in hand_fields)
        + f", state = event.response FROM event WHERE {hand_table}.id = %s"
    )
    return sql, event_fields, hand_fields


def event_store(hand: Hand, event: HandEvent) -> bool:
    """Append `event` to the log and save the hand's new version, status and state (the event's
    answer); False, with nothing written, when the event's `seq` or client id is taken already
    (a write that raced in without the lock, or a client id used again).

    On PostgreSQL one statement: the insert skips a conflicting row (ON CONFLICT DO NOTHING) and
    the hand is updated only with the row inserted, so no savepoint is needed to go on after a
    conflict. Elsewhere the insert runs in a savepoint that catches the unique constraint."""
    if connection.vendor != "postgresql":
        try:
            with transaction.atomic():
                event.save(force_insert=True)
        except IntegrityError:
            return False
        hand.save(update_fields=[*_HAND_SAVED, "state"])
        return True
    sql, event_fields, hand_fields = _store_sql()
    params = [f.get_db_prep_save(f.pre_save(event, True), connection) for f in event_fields]
    params += [f.get_db_prep_save(getattr(hand, f.attname), connection) for f in hand_fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, hand.pk])
        return cursor.rowcount == 1
