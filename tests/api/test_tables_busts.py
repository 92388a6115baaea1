"""Seat draw, tables, balancing, busts and their undo through the API."""

from datetime import UTC, datetime

import pytest
from rest_framework.test import APIClient

from config import request_time
from tests.factories import DealerFactory, TournamentFactory, seated_tournament
from tournaments.models import AuditEvent, Entry, Table
from tournaments.services.entries import entry_register

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


def _bust(director, tournament, *pairs):
    return director.post(
        f"/api/tournaments/{tournament.pk}/busts/",
        [{"entry_id": entry.pk, "starting_stack": stack} for entry, stack in pairs],
        format="json",
    )


@pytest.mark.django_db
def test_seat_draw_seats_everyone_and_lists_every_seat(director):
    tournament = TournamentFactory(seats_per_table=6)
    for n in range(9):
        entry_register(tournament=tournament, player_name=f"P{n}", now=T0)

    response = director.post(f"/api/tournaments/{tournament.pk}/seat-draw/")

    assert response.status_code == 201
    tables = response.json()
    assert [t["number"] for t in tables] == [1, 2]
    assert [len(t["seats"]) for t in tables] == [6, 6]
    seated = [s for t in tables for s in t["seats"] if s["entry_id"]]
    assert len(seated) == 9
    assert {s["player_name"] for s in seated} == {f"P{n}" for n in range(9)}
    empty = [s for t in tables for s in t["seats"] if not s["entry_id"]]
    assert all(s["player_name"] is None and s["chips"] is None for s in empty)
    draws = [t["button_draw"] for t in tables]
    assert all(len(d["cards"].split()) == len(d["seats"]) for d in draws)
    assert [d["winner_seat"] for d in draws] == [t["button_seat"] for t in tables]

    again = director.post(f"/api/tournaments/{tournament.pk}/seat-draw/")
    assert again.status_code == 409
    assert again.json()["code"] == "seats_drawn"


@pytest.mark.django_db
def test_seat_draw_needs_two_players(director):
    tournament = TournamentFactory()
    entry_register(tournament=tournament, player_name="Alone", now=T0)

    response = director.post(f"/api/tournaments/{tournament.pk}/seat-draw/")

    assert response.status_code == 409
    assert response.json()["code"] == "not_enough_players"


@pytest.mark.django_db
def test_dealer_reads_the_tables_with_players_and_stacks():
    tournament = seated_tournament(players=8)
    dealer = APIClient()
    dealer.force_login(DealerFactory())

    tables = dealer.get(f"/api/tournaments/{tournament.pk}/tables/").json()

    assert sum(t["players"] for t in tables) == 8
    assert all(s["chips"] == 10000 for t in tables for s in t["seats"] if s["entry_id"])


@pytest.mark.django_db
def test_balancing_plan_is_empty_when_balanced_and_confirm_changes_nothing(director):
    tournament = seated_tournament(players=18)
    url = f"/api/tournaments/{tournament.pk}/balancing/"

    plan = director.get(url).json()
    confirmed = director.post(url + "confirm/")

    assert plan == {
        "moves": [],
        "broken_tables": [],
        "halted_tables": [],
        "final_table": False,
        "redraw_final_table": False,
        "is_empty": True,
        "lines": [],
    }
    assert confirmed.status_code == 200
    assert not AuditEvent.objects.filter(action="tables_balance").exists()


@pytest.mark.django_db
def test_confirm_moves_the_players_the_plan_names(director):
    tournament = seated_tournament(players=18)
    short = Table.objects.get(tournament=tournament, number=1)
    out = list(Entry.objects.filter(table=short)[:3])
    busted = _bust(director, tournament, *[(e, 10000 - i) for i, e in enumerate(out)])
    assert busted.status_code == 200

    plan = director.get(f"/api/tournaments/{tournament.pk}/balancing/").json()
    assert len(plan["moves"]) == 1
    move = plan["moves"][0]
    assert move["to_table"] == 1
    assert move["player_name"].startswith("Player ")
    assert move["description"].startswith(f"Move seat {move['from_seat']} at table 2")
    director.post(f"/api/tournaments/{tournament.pk}/balancing/confirm/")

    moved = Entry.objects.get(pk=move["entry_id"])
    assert (moved.table.number, moved.seat) == (1, move["to_seat"])
    assert director.get(f"/api/tournaments/{tournament.pk}/balancing/").json()["is_empty"]


@pytest.mark.django_db
def test_busts_on_one_hand_place_by_starting_stack_and_share_ties(director):
    tournament = seated_tournament(players=12, payout_percentages=[50, 30, 20])
    a, b, c = Entry.objects.filter(tournament=tournament).order_by("pk")[:3]

    body = _bust(director, tournament, (a, 5000), (b, 9000), (c, 5000)).json()

    places = {e["id"]: e["finishing_place"] for e in body}
    assert places == {b.pk: 10, a.pk: 11, c.pk: 11}
    assert all(e["status"] == "busted" and e["chips"] == 0 for e in body)


@pytest.mark.django_db
def test_t_hand_for_hand_busts_at_one_table_by_stack_and_at_two_tables_tie(director):
    """Issue 26 through the API: in hand-for-hand, two out on one hand at one table are placed
    by starting stack (T); out at another table on the same hand, a player ties (RP-8)."""
    tournament = seated_tournament(players=12, seats_per_table=6, payout_percentages=[50, 30, 20])
    started = director.post(
        f"/api/tournaments/{tournament.pk}/hand-for-hand/", {"on": True}, format="json"
    )
    assert started.status_code == 200
    one = list(Entry.objects.filter(tournament=tournament, table__number=1).order_by("seat"))
    two = list(Entry.objects.filter(tournament=tournament, table__number=2).order_by("seat"))

    body = _bust(director, tournament, (one[0], 2000), (one[1], 6500)).json()
    assert {e["id"]: e["finishing_place"] for e in body} == {one[1].pk: 11, one[0].pk: 12}

    body = _bust(director, tournament, (two[0], 9000)).json()
    # The same hand at another table: it ties with table 1's shortest stack, and table 1's
    # order stands (A11): 10th, then 11th-12th shared.
    assert body[0]["finishing_place"] == 11
    placed = Entry.objects.filter(pk__in=[one[0].pk, one[1].pk])
    assert dict(placed.values_list("pk", "finishing_place")) == {one[1].pk: 10, one[0].pk: 11}


@pytest.mark.django_db
def test_the_last_bust_crowns_the_winner_and_the_very_last_is_refused(director):
    tournament = seated_tournament(players=3, payout_percentages=[70, 30])
    a, b, c = Entry.objects.filter(tournament=tournament).order_by("pk")

    everyone = _bust(director, tournament, (a, 1), (b, 2), (c, 3))
    assert everyone.status_code == 409
    assert everyone.json()["code"] == "no_winner"

    _bust(director, tournament, (a, 1), (b, 2))
    c.refresh_from_db()
    assert (c.finishing_place, str(c.prize)) == (1, "210.00")


@pytest.mark.django_db
def test_undo_restores_the_latest_hand_only_with_the_chips_the_bust_took(director):
    # A desk bust takes the player's last known stack off the ledger; undoing it (a mistaken
    # bust) gives exactly that back, whatever starting stack was typed for the hand.
    tournament = seated_tournament(players=6)
    a, b, c = Entry.objects.filter(tournament=tournament).order_by("pk")[:3]
    _bust(director, tournament, (a, 4000))
    _bust(director, tournament, (b, 7000), (c, 3000))

    undone = director.post(f"/api/tournaments/{tournament.pk}/busts/undo/").json()

    assert {e["id"] for e in undone} == {b.pk, c.pk}
    assert [e["chips"] for e in undone] == [10000, 10000]
    assert all(e["status"] == "active" and e["finishing_place"] is None for e in undone)
    a.refresh_from_db()
    assert a.status == Entry.Status.BUSTED


@pytest.mark.django_db
def test_the_same_entry_twice_in_one_bust_is_400_bad_busts(director):
    tournament = seated_tournament(players=6)
    a = Entry.objects.filter(tournament=tournament).first()

    response = _bust(director, tournament, (a, 100), (a, 100))

    assert response.status_code == 400
    assert response.json()["code"] == "bad_busts"


@pytest.mark.django_db
def test_an_entry_of_another_tournament_is_404(director):
    tournament = seated_tournament(players=4)
    other = seated_tournament(players=4)
    stranger = Entry.objects.filter(tournament=other).first()

    response = _bust(director, tournament, (stranger, 100))

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.django_db
def test_undo_after_the_players_table_broke_is_409_table_broken(director):
    tournament = seated_tournament(players=18, seats_per_table=6)
    breaks_first = tournament.break_order[0]
    other = Entry.objects.filter(tournament=tournament).exclude(table__number=breaks_first)
    _bust(director, tournament, *[(e, 100 + i) for i, e in enumerate(other[:5])])
    doomed = Entry.objects.filter(tournament=tournament, table__number=breaks_first)
    _bust(director, tournament, *[(e, 100 + i) for i, e in enumerate(doomed[:2])])
    plan = director.post(f"/api/tournaments/{tournament.pk}/balancing/confirm/").json()
    assert plan["broken_tables"] == [breaks_first]

    undo = director.post(f"/api/tournaments/{tournament.pk}/busts/undo/")

    assert undo.status_code == 409
    assert undo.json()["code"] == "table_broken"
    assert director.get(f"/api/tournaments/{tournament.pk}/balancing/").status_code == 200
