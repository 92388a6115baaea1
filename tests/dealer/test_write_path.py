"""The write path's database work: what a write sends on PostgreSQL (the hand locked with its log
in one statement, the event and the hand's new state in another), and the cases where the log
read with the lock cannot be used or the event cannot be stored."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from dealer import services
from dealer.models import Hand, HandEvent
from tests.factories import seated_tournament
from tournaments.models import Table
from tournaments.services.errors import FloorError

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")


@pytest.fixture
def hand() -> Hand:
    tournament = seated_tournament(players=4)
    return services.hand_start(table=Table.objects.get(tournament=tournament, number=1), now=T0)


def _call(hand: Hand, client_id: str, version: int) -> services.Result:
    return services.hand_record_action(
        hand=hand.pk, action={"kind": "call"}, client_id=client_id, version=version
    )


def test_on_postgresql_a_write_is_two_statements_and_no_savepoint(hand: Hand) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the statements are PostgreSQL's")
    _call(hand, "a", 0)
    with CaptureQueriesContext(connection) as captured:
        _call(hand, "b", 1)
    sent = [q["sql"] for q in captured]
    statements = [sql for sql in sent if not sql.startswith(TRANSACTION_CONTROL)]
    assert len(statements) == 2, sent
    assert statements[0].startswith("SELECT")
    assert statements[0].endswith("FOR UPDATE OF h")
    assert "ON CONFLICT DO NOTHING" in statements[1]
    # Inside the test's transaction `atomic` is a savepoint of its own: one, not two.
    assert sum(sql.startswith("SAVEPOINT") for sql in sent) <= 1
    assert services.check_hands() == []


def test_the_log_read_with_the_lock_is_used_only_when_it_is_the_whole_log(hand: Hand) -> None:
    for version, client_id in enumerate("abc"):
        _call(hand, client_id, version)
    with transaction.atomic():
        locked = services._locked(hand.pk)
        whole = services._log(locked)
        assert [kind for kind, _ in whole] == ["action"] * 3
        # As when the lock was waited for: the row is the new one, the log the one before.
        locked._log_read = (locked.version, whole[:2])  # type: ignore[attr-defined]
        assert services._log(locked) == whole
        # And a hand object written to since: its version moved on, the log is read again.
        locked._log_read = (locked.version - 1, whole)  # type: ignore[attr-defined]
        assert services._log(locked) == whole


def test_a_client_id_used_again_at_the_current_version_gets_its_first_answer(hand: Hand) -> None:
    first = _call(hand, "same", 0)
    again = services.hand_record_action(
        hand=hand.pk, action={"kind": "fold"}, client_id="same", version=1
    )
    assert again.answer == first.answer
    assert list(HandEvent.objects.filter(hand=hand).values_list("client_id", flat=True)) == ["same"]
    stored = Hand.objects.get(pk=hand.pk)
    assert stored.version == 1
    assert stored.state == first.answer
    # The transaction goes on after the refused insert: the next write is stored.
    assert _call(hand, "next", 1).answer["version"] == 2
    assert services.check_hands() == []


def test_replays_read_the_same_log_with_and_without_the_lock(hand: Hand) -> None:
    rng = random.Random(3)
    version = 0
    for client_id in "abcdef":
        state = Hand.objects.get(pk=hand.pk).state
        if state["phase"] != "betting":
            break
        legal = state["legal"]
        kind = "check" if legal["can_check"] else rng.choice(["call", "fold"])
        services.hand_record_action(
            hand=hand.pk, action={"kind": kind}, client_id=client_id, version=version
        )
        version += 1
    services.hand_undo(hand=hand.pk, reason="wrong seat", client_id="undo", version=version)
    stored = Hand.objects.get(pk=hand.pk)
    with transaction.atomic():
        locked = services._locked(hand.pk)
        assert services.hand_snapshot(locked, services.hand_replay(locked)) == stored.state
    assert services.hand_snapshot(stored, services.hand_replay(stored)) == stored.state


@pytest.mark.parametrize("pk", [0, 2**63, 10**40])
def test_a_hand_that_cannot_exist_is_not_found(pk: int) -> None:
    with pytest.raises(FloorError) as refused:
        services.hand_record_action(
            hand=pk, action={"kind": "call"}, client_id="a", version=0, actor=None
        )
    assert (refused.value.code, refused.value.status) == ("not_found", 404)
