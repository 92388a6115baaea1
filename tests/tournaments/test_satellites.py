"""Satellites (issue 14): the pool buys as many seats as it covers, places 1..seats win a seat
each, the next place the cash remainder; the satellite ends when the players left equal the
seats; its winners are registered in the target with one click, idempotently."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest

from common.errors import FloorError
from config.exceptions import status_of
from tests.factories import TournamentFactory, make, seated_tournament
from tournaments.models import AuditEvent, Entry, Tournament
from tournaments.selectors.prizes import prize_table
from tournaments.selectors.satellites import satellite_seats, satellite_view
from tournaments.selectors.standings import tournament_payouts, tournament_standings
from tournaments.selectors.tickets import seat_prizes, ticket_value
from tournaments.services.busts import Bust, entries_bust, entries_unbust
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_finish, tournament_update
from tournaments.services.satellites import satellite_register_winners

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
D = Decimal


def target_event(**fields: Any) -> Tournament:
    values = {"name": "Main Event", "buy_in": 400, "fee": 40, **fields}
    return make(TournamentFactory, **values)


def satellite(players: int = 23, **fields: Any) -> Tournament:
    """The worked example: 23 entries at 110 (2,530) for seats worth 440."""
    target = fields.pop("target", None) or target_event()
    values = {"buy_in": 110, "satellite_target": target, "seat_value": 440, **fields}
    return seated_tournament(players=players, now=T0, **values)


def active(tournament: Tournament) -> list[Entry]:
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by("pk")
    )


def bust(tournament: Tournament, *entries: Entry, stacks: tuple[int, ...] = ()) -> None:
    """Players out on one hand, typed on the desk (with their last stacks, or `stacks`)."""
    for entry in entries:
        entry.refresh_from_db()
    given = stacks or tuple(e.chips for e in entries)
    entries_bust(
        tournament=tournament,
        busts=[Bust(entry_id=e.pk, starting_stack=s) for e, s in zip(entries, given, strict=True)],
        now=T0,
    )


def bust_down_to(tournament: Tournament, left: int) -> None:
    while len(players := active(tournament)) > left:
        bust(tournament, players[0])


# --- the seats a pool buys ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pool", "value", "seats", "remainder", "prizes"),
    [
        ("2530", "440", 5, "330", ("440",) * 5 + ("330",)),
        ("2200", "440", 5, "0", ("440",) * 5),  # no remainder: no cash place
        ("439.99", "440", 0, "439.99", ("439.99",)),  # short of one seat: all cash
        ("0", "440", 0, "0", ()),
    ],
)
def test_the_pool_buys_floor_pool_over_seat_value_seats_and_the_rest_is_cash(
    pool: str, value: str, seats: int, remainder: str, prizes: tuple[str, ...]
) -> None:
    split = seat_prizes(D(pool), D(value))

    assert (split.seats, split.remainder) == (seats, D(remainder))
    assert split.prizes == tuple(D(p) for p in prizes)
    assert split.seats * D(value) + split.remainder == D(pool)


def test_a_seat_is_worth_the_targets_buy_in_and_fee_unless_the_satellite_says() -> None:
    target = target_event(bounty_kind=Tournament.Bounty.PROGRESSIVE, bounty=100)
    by_default = make(TournamentFactory, satellite_target=target, seat_value=0)
    priced = make(TournamentFactory, satellite_target=target, seat_value=500)
    plain = make(TournamentFactory)

    assert ticket_value(by_default) == D("540")  # 400 + 40 + the bounty 100
    assert ticket_value(priced) == D("500")
    assert ticket_value(plain) == D("0")


def test_the_worked_example_pays_five_seats_and_330_to_sixth() -> None:
    event = satellite()

    prizes = prize_table(event)
    standings = tournament_standings(event)
    places = tournament_payouts(event)

    assert prizes == (D("440"),) * 5 + (D("330"),)
    assert (standings.prize_pool, standings.places_paid) == (D("2530"), 6)
    assert [p["seat"] for p in places] == ["Main Event"] * 5 + [""]
    assert satellite_seats(event) == 5


def test_a_pool_short_of_one_seat_pays_cash_as_any_event() -> None:
    event = satellite(players=3, seat_value=440)  # 330: no seat

    view = satellite_view(event)

    assert (view.seats, view.remainder) == (0, D("330"))
    assert prize_table(event) == (D("330"),)  # the standard table: one place for 3 entries
    assert satellite_seats(event) == 0
    assert [p["seat"] for p in tournament_payouts(event)] == [""]


# --- the end: the last N left each win a seat -----------------------------------------------


def test_the_satellite_ends_when_the_players_left_equal_the_seats() -> None:
    event = satellite()
    bust_down_to(event, 6)
    assert not Entry.objects.filter(tournament=event, status="active").exclude(finishing_place=None)

    sixth = active(event)[0]
    bust(event, sixth)

    sixth.refresh_from_db()
    assert (sixth.finishing_place, sixth.prize) == (6, D("330"))
    seated = active(event)
    assert sorted(e.finishing_place or 0 for e in seated) == [1, 2, 3, 4, 5]
    assert {e.prize for e in seated} == {D("440")}
    # Places 1..5 go by chips: the biggest stack first.
    by_chips = sorted(seated, key=lambda e: (-e.chips, e.pk))
    assert [e.finishing_place for e in by_chips] == [1, 2, 3, 4, 5]


def test_no_bust_once_the_seats_are_won() -> None:
    event = satellite()
    bust_down_to(event, 5)

    with pytest.raises(FloorError) as refused:
        bust(event, active(event)[0])

    assert refused.value.code == "satellite_over"
    assert "5 players left have each won a seat" in refused.value.detail


def test_players_out_on_one_hand_across_the_bubble_split_seat_and_cash_by_stack() -> None:
    event = satellite()
    bust_down_to(event, 7)
    small, middle, big = active(event)[:3]

    bust(event, small, middle, big, stacks=(1000, 2000, 3000))

    for entry in (small, middle, big):
        entry.refresh_from_db()
    assert (big.finishing_place, big.prize) == (5, D("440"))  # the bigger stack wins the seat
    assert (middle.finishing_place, middle.prize) == (6, D("330"))
    assert (small.finishing_place, small.prize) == (7, None)
    assert sorted(e.finishing_place or 0 for e in active(event)) == [1, 2, 3, 4]


def test_an_undone_bubble_bust_uncrowns_every_seat_winner() -> None:
    event = satellite()
    bust_down_to(event, 5)

    entries_unbust(tournament=event, now=T0)

    assert len(active(event)) == 6
    assert all(e.finishing_place is None and e.prize is None for e in active(event))


def test_a_satellite_finishes_with_its_seat_winners_left() -> None:
    event = satellite()
    bust_down_to(event, 5)

    tournament_finish(tournament=event)

    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED


def test_an_ordinary_event_still_finishes_with_one_player_only() -> None:
    event = seated_tournament(players=3, now=T0)
    bust(event, active(event)[0])

    with pytest.raises(FloorError) as refused:
        tournament_finish(tournament=event)

    assert refused.value.code == "players_left"


# --- registering the winners in the target --------------------------------------------------


def test_the_winners_are_registered_in_the_target_paid_with_their_seats() -> None:
    event = satellite()
    target = event.satellite_target
    assert target is not None
    bust_down_to(event, 5)
    winners = {e.pk: e.player.name for e in active(event)}

    done = satellite_register_winners(tournament=event, now=T0)

    tickets = Entry.objects.filter(tournament=target).select_related("player", "ticket_from")
    assert {e.ticket_from_id: e.player.name for e in tickets} == winners
    assert [e.player.name for e in done.registered] == [
        w.name for w in satellite_view(event).winners
    ]
    assert done.satellite.waiting == 0
    audit = AuditEvent.objects.get(tournament=event, action="satellite_register_winners")
    assert sorted(audit.detail["registered"]) == sorted(winners.values())


def test_a_second_click_registers_nobody_twice() -> None:
    event = satellite()
    bust_down_to(event, 5)
    satellite_register_winners(tournament=event, now=T0)

    again = satellite_register_winners(tournament=event, now=T0)

    assert again.registered == ()
    assert again.skipped == ()
    assert Entry.objects.filter(tournament=event.satellite_target).count() == 5
    assert AuditEvent.objects.filter(action="satellite_register_winners").count() == 1


def test_a_winner_already_in_the_target_is_skipped_and_owed_the_seat() -> None:
    event = satellite()
    bust_down_to(event, 5)
    first = active(event)[0]
    target = event.satellite_target
    assert target is not None
    paid = entry_register(tournament=target, player_name=first.player.name, now=T0)

    done = satellite_register_winners(tournament=event, now=T0)

    assert [(s.name, s.code) for s in done.skipped] == [(first.player.name, "already_registered")]
    assert "owed" in done.skipped[0].detail
    assert len(done.registered) == 4
    assert Entry.objects.filter(tournament=target, player=first.player).get() == paid
    state = {w.name: w.state for w in done.satellite.winners}
    assert state[first.player.name] == "already_in"


def test_registration_is_refused_while_the_targets_registration_is_closed() -> None:
    event = satellite(target=target_event(status=Tournament.Status.PLANNED))
    bust_down_to(event, 5)

    with pytest.raises(FloorError) as refused:
        satellite_register_winners(tournament=event, now=T0)

    assert (refused.value.code, status_of(refused.value)) == ("registration_closed", 409)
    assert "Registration for Main Event is closed" in refused.value.detail
    assert not Entry.objects.filter(tournament=event.satellite_target).exists()


def test_no_registration_before_the_seats_are_won() -> None:
    event = satellite()

    with pytest.raises(FloorError) as refused:
        satellite_register_winners(tournament=event, now=T0)

    assert refused.value.code == "seats_not_won"
    assert "23 are still playing" in refused.value.detail


# --- the settings --------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["itself", "finished", "its own satellite"])
def test_a_satellites_target_is_another_event_still_to_be_played(which: str) -> None:
    event = make(TournamentFactory, name="Sat")
    targets = {
        "itself": event,
        "finished": target_event(status=Tournament.Status.FINISHED),
        "its own satellite": target_event(satellite_target=event),
    }

    with pytest.raises(FloorError) as refused:
        tournament_update(tournament=event, satellite_target=targets[which])

    assert (refused.value.code, status_of(refused.value)) == ("bad_satellite_target", 400)


def test_choosing_a_target_reprices_the_places_already_paid() -> None:
    event = seated_tournament(players=23, now=T0, buy_in=110)
    bust_down_to(event, 6)
    seventh = Entry.objects.get(tournament=event, finishing_place=7)

    tournament_update(tournament=event, satellite_target=target_event(), seat_value=D("440"))

    seventh.refresh_from_db()
    event.refresh_from_db()
    assert seventh.prize is None  # 7th of a satellite paying 5 seats and the remainder
    assert prize_table(event)[:5] == (D("440"),) * 5


def test_a_tablet_hand_ending_after_the_seats_are_won_still_ends_and_its_bust_wins_a_seat() -> None:
    """The bubble burst at another table while this hand was being played: the hand's end
    cannot be refused (the tablet would be stuck), so its bust is recorded, and the player out
    on it finishes 5th, still with a seat; the four left are placed 1-4 again."""
    from tournaments.services.hands import SeatResult, entries_hand_end
    from tournaments.services.ledger import HandRef

    event = satellite()
    bust_down_to(event, 5)
    by_table: dict[int, list[Entry]] = {}
    for entry in active(event):
        by_table.setdefault(entry.table_id or 0, []).append(entry)
    loser, winner = next(players for players in by_table.values() if len(players) >= 2)[:2]
    assert loser.table is not None

    entries_hand_end(
        table=loser.table,
        hand=HandRef(hand_id=987654, table_number=loser.table.number, hand_number=40),
        results=[
            SeatResult(entry_id=loser.pk, start=loser.chips, finish=0),
            SeatResult(entry_id=winner.pk, start=winner.chips, finish=winner.chips + loser.chips),
        ],
        void=False,
        now=T0,
    )

    loser.refresh_from_db()
    assert (loser.status, loser.finishing_place, loser.prize) == ("busted", 5, D("440"))
    left = active(event)
    assert sorted(e.finishing_place or 0 for e in left) == [1, 2, 3, 4]
    assert {e.prize for e in left} == {D("440")}
