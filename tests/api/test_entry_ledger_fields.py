"""The entries API says where each count comes from, who is in a hand, and a count's kind."""

from __future__ import annotations

import pytest

from dealer.services import hand_start
from tests.factories import seated_tournament
from tournaments.models import ChipMove, Entry, Table


@pytest.mark.django_db
def test_entries_show_the_count_source_the_hand_in_progress_and_a_pending_move(director):
    tournament = seated_tournament(players=6)
    table = Table.objects.get(tournament=tournament)
    hand = hand_start(table=table)

    rows = director.get(f"/api/tournaments/{tournament.pk}/entries/").json()

    assert {row["chips_source"] for row in rows} == {"starting stack"}
    assert all(row["chips_at"] for row in rows)
    assert {row["in_hand"]["hand"] for row in rows if row["in_hand"]} == {hand.number}
    assert sum(1 for row in rows if row["in_hand"]) == len(hand.seats)
    assert all(row["moves_to"] is None for row in rows)


@pytest.mark.django_db
def test_a_chip_count_through_the_api_is_a_ledger_row_of_its_kind_with_its_note(director):
    tournament = seated_tournament(players=6)
    entry = Entry.objects.filter(tournament=tournament).first()
    assert entry is not None

    answer = director.put(
        f"/api/entries/{entry.pk}/chips/",
        {"chips": 9900, "kind": "colour_up", "note": "race off the 25s"},
        format="json",
    )

    assert answer.status_code == 200, answer.json()
    assert answer.json()["chips"] == 9900
    assert answer.json()["chips_source"] == "colour-up (race off the 25s)"
    row = ChipMove.objects.filter(entry=entry).latest("pk")
    assert (row.kind, row.delta, row.note) == ("colour_up", -100, "race off the 25s")
    refused = director.put(f"/api/entries/{entry.pk}/chips/", {"chips": 5, "kind": "bust"})
    assert refused.status_code == 400
