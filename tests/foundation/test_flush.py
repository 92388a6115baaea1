"""The tables are emptied after a test that commits (tests/conftest.py,
`_tables_emptied_by_delete`).
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import seated_tournament
from tests.required import require_postgresql
from tournaments.models import Entry


def _rows() -> dict[str, int]:
    with connection.cursor() as cursor:
        counts = {}
        for table in connection.introspection.django_table_names(only_existing=True):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


@pytest.mark.django_db(transaction=True)
def test_a_flush_leaves_every_table_empty_and_the_ids_running_on() -> None:
    seated_tournament(players=12)  # entries, players, tables, ledger rows, audit, users
    last = Entry.objects.order_by("-pk").values_list("pk", flat=True)[0]
    assert sum(_rows().values()) > 50

    # As Django's TransactionTestCase asks for it after each test.
    with CaptureQueriesContext(connection) as sent:
        call_command(
            "flush",
            interactive=False,
            verbosity=0,
            reset_sequences=False,
            inhibit_post_migrate=True,
        )
    statements = [query["sql"].split(" ", 1)[0] for query in sent.captured_queries]
    assert "TRUNCATE" not in statements

    assert {table: n for table, n in _rows().items() if n} == {}
    # As with Django's TRUNCATE, the sequences are not reset: a new row takes the next id.
    again = seated_tournament(players=2).entries.order_by("pk").values_list("pk", flat=True)
    assert list(again) == [last + 1, last + 2]


@pytest.mark.postgres
@pytest.mark.django_db
def test_every_foreign_key_is_checked_at_the_commit() -> None:
    """The DELETEs run in any order, so each foreign key must wait for the commit, as Django
    creates them on PostgreSQL."""
    require_postgresql()  # the flush by DELETE is PostgreSQL's
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text, conname FROM pg_constraint"
            " WHERE contype = 'f' AND NOT (condeferrable AND condeferred)"
        )
        assert cursor.fetchall() == []
