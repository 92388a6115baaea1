"""The write path's database work: what a write sends on PostgreSQL (the hand locked and read in
one statement, the event and the hand's new state in another), the engine state stored with the
hand (used by the next write only when it is the one written for the current version), and the
cases where the event cannot be stored."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from common.errors import FloorError
from config.exceptions import status_of
from dealer import hand_log, selectors, services
from dealer.engine import start_hand
from dealer.models import Hand, HandEvent
from dealer.services import sql
from dealer.state_cache import pack_state, unpack_state
from tests.factories import seated_tournament
from tournaments.models import Table

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
    assert selectors.check_hands() == []


def _stored_engine_state(hand: Hand) -> bytes | None:
    value = Hand.objects.values_list("engine_state", flat=True).get(pk=hand.pk)
    return None if value is None else bytes(value)


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The hands whose log a write replayed (instead of starting from the stored state)."""
    replayed: list[int] = []
    replay = hand_log.hand_replay

    def counting(hand: Hand) -> Any:
        replayed.append(hand.pk)
        return replay(hand)

    monkeypatch.setattr(hand_log, "hand_replay", counting)
    return replayed


def test_a_write_starts_from_the_stored_engine_state_without_replaying_the_log(
    hand: Hand, replays: list[int]
) -> None:
    _call(hand, "a", 0)
    stored = Hand.objects.get(pk=hand.pk)
    assert unpack_state(stored.engine_state, hand.pk, 1) == hand_log.hand_replay(stored)
    replays.clear()
    with CaptureQueriesContext(connection) as captured:
        assert _call(hand, "b", 1).answer["version"] == 2
    assert replays == []
    assert not any("dealer_handevent" in q["sql"] and "SELECT" in q["sql"] for q in captured)
    assert selectors.check_hands() == []


def test_a_cash_hand_with_a_straddle_also_starts_from_its_stored_state() -> None:
    from tests.dealer.test_cash_services import seated

    table = seated("1 2 3 4", button=1)
    cash_hand = services.hand_start(table=table, straddle=True)
    assert cash_hand.plan["straddle"]
    assert hand_log.stored_state(cash_hand) == hand_log.hand_replay(cash_hand)


def _repacked(blob: bytes, *, hand: int, version: int, as_hand: int, as_version: int) -> bytes:
    state = unpack_state(blob, hand, version)
    assert state is not None
    return pack_state(state, as_hand, as_version)


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda pk, blob: None, id="missing"),
        pytest.param(
            lambda pk, blob: blob[:-1] + bytes([blob[-1] ^ 1]), id="changed_in_the_database"
        ),
        pytest.param(
            lambda pk, blob: _repacked(blob, hand=pk, version=2, as_hand=pk, as_version=1),
            id="of_an_older_version",
        ),
        pytest.param(
            lambda pk, blob: _repacked(blob, hand=pk, version=2, as_hand=pk + 1, as_version=2),
            id="of_another_hand",
        ),
        pytest.param(lambda pk, blob: blob[:16] + b"\0" * 16 + blob[32:], id="of_another_engine"),
    ],
)
def test_a_stored_engine_state_that_cannot_be_trusted_is_ignored_and_the_log_replayed(
    hand: Hand, spoil: Any, replays: list[int]
) -> None:
    _call(hand, "a", 0)
    _call(hand, "b", 1)
    good = _stored_engine_state(hand)
    assert good is not None
    Hand.objects.filter(pk=hand.pk).update(engine_state=spoil(hand.pk, good))
    stored = Hand.objects.get(pk=hand.pk)
    assert hand_log.stored_state(stored) is None
    assert selectors.check_hands() == []  # not a problem: the log is the truth
    replays.clear()

    answer = _call(hand, "c", 2).answer

    assert replays == [hand.pk]
    assert answer["version"] == 3
    assert selectors.check_hands() == []
    assert unpack_state(_stored_engine_state(hand), hand.pk, 3) is not None  # written afresh


def test_a_fix_to_the_hands_seats_in_the_admin_is_played_from_the_next_write(
    hand: Hand, replays: list[int]
) -> None:
    _call(hand, "a", 0)
    fixed = Hand.objects.get(pk=hand.pk)
    fixed.seats[3]["stack"] += 5000  # what a director's edit in the admin saves
    fixed.save()
    replays.clear()

    answer = _call(hand, "b", 1).answer

    assert replays == [hand.pk]
    assert answer["players"][3]["stack"] > hand.seats[3]["stack"]
    assert selectors.check_hands() == []


def test_check_hands_reports_a_stored_engine_state_that_differs_from_the_replay(
    hand: Hand,
) -> None:
    _call(hand, "a", 0)
    _call(hand, "b", 1)
    two_calls = Hand.objects.get(pk=hand.pk)
    one_call = start_hand(hand_log.hand_setup(two_calls))
    Hand.objects.filter(pk=hand.pk).update(engine_state=pack_state(one_call, hand.pk, 2))

    assert selectors.check_hands() == [
        f"{two_calls}: the stored engine state differs from the replay"
    ]


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
    assert selectors.check_hands() == []


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
        locked = sql.hand_locked(hand.pk)
        assert hand_log.hand_snapshot(locked, hand_log.hand_replay(locked)) == stored.state
    assert hand_log.hand_snapshot(stored, hand_log.hand_replay(stored)) == stored.state


@pytest.mark.parametrize("pk", [0, 2**63, 10**40])
def test_a_hand_that_cannot_exist_is_not_found(pk: int) -> None:
    with pytest.raises(FloorError) as refused:
        services.hand_record_action(
            hand=pk, action={"kind": "call"}, client_id="a", version=0, actor=None
        )
    assert (refused.value.code, status_of(refused.value)) == ("not_found", 404)


def test_a_write_naming_another_table_finds_no_hand_and_writes_nothing(hand: Hand) -> None:
    other = Table.objects.get(tournament=seated_tournament(players=2), number=1)
    with pytest.raises(services.HandNotAtTableError) as refused:
        services.hand_record_action(
            hand=hand.pk, action={"kind": "call"}, client_id="a", version=0, at_table=other.pk
        )
    assert (refused.value.code, status_of(refused.value)) == ("not_found", 404)
    assert Hand.objects.get(pk=hand.pk).version == 0
    result = services.hand_record_action(
        hand=hand.pk, action={"kind": "call"}, client_id="b", version=0, at_table=hand.table_id
    )
    assert result.hand.version == 1
