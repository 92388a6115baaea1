"""Floor services on the database: registration, seat draw, clock, busts, balancing, payouts.

They run on the embedded SQLite by default and on PostgreSQL in CI (DATABASE_URL).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from common.errors import FloorError, FloorInvalid
from dealer.engine.cards import parse_cards
from tournaments.models import AuditEvent, ButtonDraw, Entry, Table, Tournament
from tournaments.selectors import seat_lookup, tournament_payouts, tournament_standings
from tournaments.selectors.clock import clock_view
from tournaments.services.busts import Bust, entries_bust, entries_unbust
from tournaments.services.clocks import (
    clock_add_time,
    clock_announce_level,
    clock_pause,
    clock_resume,
    clock_start,
)
from tournaments.services.entries import (
    entry_addon,
    entry_rebuy,
    entry_register,
    entry_set_chips,
    entry_unregister,
)
from tournaments.services.events import (
    schedule_create,
    schedule_replace_levels,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.tables import (
    tournament_balance_plan,
    tournament_confirm_moves,
    tournament_draw_seats,
)

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
LEVELS: list[dict[str, Any]] = [
    {"small_blind": 100, "big_blind": 200, "duration": 1200},
    {"small_blind": 200, "big_blind": 400, "duration": 1200},
    {"is_break": True, "duration": 600, "note": "colour up the 25s"},
    {"small_blind": 300, "big_blind": 600, "ante": 600, "bb_ante": True, "duration": 1200},
]


def make_tournament(players: int = 0, **settings: Any) -> Tournament:
    schedule = schedule_create(name=f"Schedule {random.random()}", levels=LEVELS)
    values: dict[str, Any] = {
        "name": "Sunday Deepstack",
        "buy_in": Decimal("100"),
        "fee": Decimal("10"),
    }
    tournament = tournament_create(schedule=schedule, **(values | settings))
    tournament_open_registration(tournament=tournament)
    for i in range(players):
        entry_register(tournament=tournament, player_name=f"Player {i + 1:02d}", now=NOW)
    return tournament


def running(players: int, **settings: Any) -> Tournament:
    tournament = make_tournament(players, **settings)
    tournament_draw_seats(tournament=tournament, rng=random.Random(7))
    clock_start(tournament=tournament, now=NOW)
    tournament.refresh_from_db()
    return tournament


def seated(tournament: Tournament) -> list[Entry]:
    return list(
        Entry.objects.filter(tournament=tournament, status="active")
        .select_related("table")
        .order_by("table__number", "seat")
    )


# --- schedules and settings -----------------------------------------------------------------


def test_schedule_with_small_blind_above_big_blind_is_refused_naming_the_level() -> None:
    levels: list[dict[str, Any]] = [
        *LEVELS[:1],
        {"small_blind": 500, "big_blind": 400, "duration": 600},
    ]
    with pytest.raises(FloorError) as refused:
        schedule_create(name="Bad", levels=levels)
    assert isinstance(refused.value, FloorInvalid)
    assert "Level 2" in refused.value.detail


def test_tournament_copies_its_schedule_so_editing_the_template_changes_nothing() -> None:
    schedule = schedule_create(name="Template", levels=LEVELS)
    tournament = tournament_create(schedule=schedule, name="Copy")
    schedule_replace_levels(schedule=schedule, levels=LEVELS[:1])
    assert tournament.levels.count() == 4
    assert schedule.levels.count() == 1


def test_payout_table_not_summing_to_100_is_refused() -> None:
    schedule = schedule_create(name="Payouts", levels=LEVELS)
    with pytest.raises(FloorError) as refused:
        tournament_create(schedule=schedule, name="Bad payouts", payout_percentages=[50, 30, 19])
    assert refused.value.code == "payout_not_100"


def test_unknown_rule_option_is_refused_with_the_engine_sentence() -> None:
    schedule = schedule_create(name="Rules", levels=LEVELS)
    with pytest.raises(FloorError) as refused:
        tournament_create(schedule=schedule, name="Bad rules", rule_overrides={"odd_chip": "x"})
    assert isinstance(refused.value, FloorInvalid)
    assert "odd_chip" in refused.value.detail


# --- registration ---------------------------------------------------------------------------


def test_duplicate_registration_is_refused() -> None:
    tournament = make_tournament(1)
    with pytest.raises(FloorError) as refused:
        entry_register(tournament=tournament, player_name="  player 01 ", now=NOW)
    assert refused.value.code == "duplicate_registration"
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_unregister_before_the_start_only() -> None:
    tournament = make_tournament(3)
    entry = Entry.objects.filter(tournament=tournament).first()
    assert entry is not None
    entry_unregister(entry=entry)
    entry.refresh_from_db()
    assert entry.status == "unregistered"
    started = running(4)
    with pytest.raises(FloorError) as refused:
        entry_unregister(entry=seated(started)[0])
    assert refused.value.code == "tournament_started"


def test_t8a_late_entry_draws_a_seat_at_one_of_the_shortest_tables() -> None:
    tournament = running(17, late_registration_level=2)  # tables of 9 and 8
    entry = entry_register(
        tournament=tournament, player_name="Late Larry", now=NOW, rng=random.Random(3)
    )
    assert entry.late
    assert entry.table is not None
    sizes = {t.number: t.entries.filter(status="active").count() for t in tournament.tables.all()}
    assert sorted(sizes.values()) == [9, 9]


def test_late_registration_closes_after_its_level_and_reentry_follows_the_limit() -> None:
    tournament = running(4, late_registration_level=1, max_entries_per_player=2)
    first = seated(tournament)[0]
    entries_bust(
        tournament=tournament, busts=[Bust(entry_id=first.pk, starting_stack=10000)], now=NOW
    )
    again = entry_register(tournament=tournament, player_name=first.player.name, now=NOW)
    assert again.number == 2
    entries_bust(
        tournament=tournament, busts=[Bust(entry_id=again.pk, starting_stack=10000)], now=NOW
    )
    with pytest.raises(FloorError) as refused:
        entry_register(tournament=tournament, player_name=first.player.name, now=NOW)
    assert refused.value.code == "no_reentry"
    with pytest.raises(FloorError) as closed:
        entry_register(
            tournament=tournament, player_name="Too Late", now=NOW + timedelta(minutes=25)
        )
    assert closed.value.code == "registration_closed"


def test_rebuy_and_addon_add_chips_once_and_count_in_the_prize_pool() -> None:
    tournament = running(
        3,
        rebuy_chips=5000,
        rebuy_until_level=2,
        rebuy_price=Decimal("50"),
        addon_chips=8000,
        addon_price=Decimal("40"),
    )
    entry = seated(tournament)[0]
    entry_rebuy(entry=entry, now=NOW)
    with pytest.raises(FloorError):
        entry_rebuy(entry=entry, now=NOW)  # now above the starting stack
    on_the_break = NOW + timedelta(minutes=45)  # the add-on's window (issue 26)
    entry_addon(entry=entry, now=on_the_break)
    with pytest.raises(FloorError) as twice:
        entry_addon(entry=entry, now=on_the_break)
    assert twice.value.code == "addon_taken"
    entry.refresh_from_db()
    assert entry.chips == 23000
    assert tournament_standings(tournament).prize_pool == Decimal("390")


# --- seat draw ------------------------------------------------------------------------------


def test_t7_seat_draw_spreads_players_evenly_and_records_each_button_draw() -> None:
    tournament = make_tournament(45)
    tables = tournament_draw_seats(tournament=tournament, rng=random.Random(1))
    assert len(tables) == 5
    assert [t.entries.count() for t in tables] == [9] * 5
    draws = ButtonDraw.objects.filter(table__tournament=tournament)
    assert draws.count() == 5
    for draw in draws:
        assert len(draw.cards.split()) == len(draw.seats) == 9
        assert draw.table.button_seat == draw.winner_seat
    with pytest.raises(FloorError) as again:
        tournament_draw_seats(tournament=tournament)
    assert again.value.code == "seats_drawn"


def test_seat_lookup_finds_the_table_and_seat_by_name() -> None:
    tournament = make_tournament(12)
    tournament_draw_seats(tournament=tournament, rng=random.Random(2))
    (found,) = seat_lookup(tournament, "player 07")
    entry = Entry.objects.get(tournament=tournament, player__name="Player 07")
    assert entry.table is not None
    assert (found["table"], found["seat"]) == (entry.table.number, entry.seat)


# --- clock ----------------------------------------------------------------------------------


def test_clock_derives_levels_from_timestamps_pauses_and_adds_time() -> None:
    tournament = running(4)
    assert clock_view(tournament, NOW + timedelta(minutes=25)).label == "Level 2"
    assert clock_view(tournament, NOW + timedelta(minutes=45)).label == "Break"
    clock_pause(tournament=tournament, now=NOW + timedelta(minutes=5))
    tournament.refresh_from_db()
    assert tournament.status == "paused"
    later = clock_view(tournament, NOW + timedelta(hours=3))
    assert (later.label, later.seconds_left) == ("Level 1", 900)
    clock_resume(tournament=tournament, now=NOW + timedelta(hours=3))
    clock_add_time(tournament=tournament, seconds=60, now=NOW + timedelta(hours=3))
    tournament.refresh_from_db()
    assert clock_view(tournament, NOW + timedelta(hours=3)).seconds_left == 960


def test_level_announcement_is_idempotent_and_ignores_stale_expectations() -> None:
    tournament = running(4)
    at = NOW + timedelta(minutes=20, seconds=1)
    assert not clock_announce_level(
        tournament_id=tournament.pk, expected_index=1, now=NOW + timedelta(minutes=10)
    )  # not due yet
    assert clock_announce_level(tournament_id=tournament.pk, expected_index=1, now=at)
    assert not clock_announce_level(tournament_id=tournament.pk, expected_index=1, now=at)
    assert not clock_announce_level(tournament_id=tournament.pk, expected_index=3, now=at)
    assert AuditEvent.objects.filter(tournament=tournament, action="level_change").count() == 1
    tournament.refresh_from_db()
    assert tournament.clock_level == 1


# --- busts and payouts --------------------------------------------------------------------


def test_bust_of_a_player_not_seated_is_refused() -> None:
    tournament = running(4)
    unseated = entry_register(tournament=make_tournament(0), player_name="Elsewhere", now=NOW)
    with pytest.raises(FloorError) as refused:
        entries_bust(
            tournament=tournament, busts=[Bust(entry_id=unseated.pk, starting_stack=100)], now=NOW
        )
    assert refused.value.code == "not_found"
    out = seated(tournament)[0]
    entries_bust(
        tournament=tournament, busts=[Bust(entry_id=out.pk, starting_stack=10000)], now=NOW
    )
    with pytest.raises(FloorError) as twice:
        entries_bust(
            tournament=tournament, busts=[Bust(entry_id=out.pk, starting_stack=1)], now=NOW
        )
    assert twice.value.code == "not_seated"


def test_busts_on_one_hand_are_placed_by_starting_stack_and_ties_share() -> None:
    tournament = running(10, payout_percentages=[40, 25, 15, 10, 6, 4])
    a, b, c, d = seated(tournament)[:4]
    entries_bust(
        tournament=tournament,
        now=NOW,
        busts=[
            Bust(entry_id=a.pk, starting_stack=3000),
            Bust(entry_id=b.pk, starting_stack=9000),
            Bust(entry_id=c.pk, starting_stack=5000),
            Bust(entry_id=d.pk, starting_stack=5000),
        ],
    )
    places = {
        e.pk: (e.finishing_place, e.prize)
        for e in Entry.objects.filter(pk__in=[a.pk, b.pk, c.pk, d.pk])
    }
    # 10 players: the four finish 7th to 10th; the bigger stack finishes higher.
    assert places[b.pk][0] == 7
    assert places[a.pk][0] == 10
    assert places[c.pk][0] == places[d.pk][0] == 8


def test_paid_places_share_their_prizes_when_tied() -> None:
    tournament = running(6, payout_percentages=[50, 30, 20])
    entries = seated(tournament)
    for entry in entries[:3]:
        entries_bust(
            tournament=tournament, busts=[Bust(entry_id=entry.pk, starting_stack=1)], now=NOW
        )
    x, y = entries[3:5]
    entries_bust(
        tournament=tournament,
        now=NOW,
        busts=[Bust(entry_id=x.pk, starting_stack=500), Bust(entry_id=y.pk, starting_stack=500)],
    )
    x.refresh_from_db()
    y.refresh_from_db()
    # Places 2 and 3 (30% + 20% of 600) are shared: 150 each.
    assert (x.finishing_place, x.prize, y.prize) == (2, Decimal("150"), Decimal("150"))
    winner = Entry.objects.get(tournament=tournament, status="active")
    assert (winner.finishing_place, winner.prize) == (1, Decimal("300"))


def test_undo_of_a_mistaken_bust_restores_the_player() -> None:
    tournament = running(5)
    entry = seated(tournament)[0]
    entries_bust(
        tournament=tournament, busts=[Bust(entry_id=entry.pk, starting_stack=7000)], now=NOW
    )
    entries_unbust(tournament=tournament)
    entry.refresh_from_db()
    # The bust took the last known stack (10,000) off the ledger: the undo gives it back.
    assert (entry.status, entry.chips, entry.finishing_place) == ("active", 10000, None)
    assert tournament_standings(tournament).players_left == 5
    with pytest.raises(FloorError):
        entries_unbust(tournament=tournament)


def test_standings_rank_by_chips_with_average_and_next_payout() -> None:
    tournament = running(9, payout_percentages=[70, 30])
    entries = seated(tournament)
    entry_set_chips(entry=entries[0], chips=30000, note="at the break", now=NOW)
    standings = tournament_standings(tournament)
    assert standings.rows[0].entry_id == entries[0].pk
    assert standings.rows[0].chips_source == "counted (at the break)"
    assert standings.players_left == 9
    # Chips in play are the 9 buy-ins issued; the counts say 20,000 more.
    assert standings.total_chips == 90000
    assert standings.average_stack == 10000
    assert standings.counted_chips == 110000
    assert standings.next_payout is None
    assert standings.places_paid == 2
    assert tournament_payouts(tournament)[0]["prize"] == Decimal("630")


# --- balancing ------------------------------------------------------------------------------


def _positions(table: Table, button: int, small: int, big: int) -> None:
    table.button_seat, table.small_blind_seat, table.big_blind_seat = button, small, big
    table.save()


def test_t11a_the_player_due_to_be_big_blind_next_moves_to_the_short_table() -> None:
    tournament = running(18)  # two tables of 9
    one, two = tournament.tables.order_by("number")
    _positions(one, 1, 2, 3)
    _positions(two, 1, 2, 3)
    for entry in list(two.entries.filter(status="active").order_by("seat"))[:2]:
        entries_bust(
            tournament=tournament, busts=[Bust(entry_id=entry.pk, starting_stack=1)], now=NOW
        )
    plan = tournament_balance_plan(tournament)
    (move,) = plan.moves
    # Table 1's last big blind was seat 3: seat 4 is the next big blind and is the one who moves.
    assert (move.from_table, move.from_seat, move.to_table) == (1, 4, 2)
    assert move.next_big_blind
    tournament_confirm_moves(tournament=tournament)
    assert tournament_balance_plan(tournament).is_empty
    assert Entry.objects.get(pk=move.entry_id).table == two


def test_t10b_a_broken_tables_players_are_spread_by_a_random_draw() -> None:
    tournament = running(27)  # three tables of 9
    victims = seated(tournament)[:9:2] + seated(tournament)[9:13]
    for entry in victims:
        entries_bust(
            tournament=tournament, busts=[Bust(entry_id=entry.pk, starting_stack=1)], now=NOW
        )
    plan = tournament_balance_plan(tournament)  # 18 players fit on two tables
    assert len(plan.broken_tables) == 1
    assert {m.reason for m in plan.moves} == {"break"}
    tournament_confirm_moves(tournament=tournament)
    sizes = [
        t.entries.filter(status="active").count() for t in tournament.tables.filter(is_broken=False)
    ]
    assert sorted(sizes) == [9, 9]
    assert (
        Entry.objects.filter(tournament=tournament, status="active", table__is_broken=True).count()
        == 0
    )


def test_t11d_play_halts_on_a_table_three_short() -> None:
    tournament = running(18)
    two = tournament.tables.get(number=2)
    for entry in list(two.entries.filter(status="active"))[:3]:
        entries_bust(
            tournament=tournament, busts=[Bust(entry_id=entry.pk, starting_stack=1)], now=NOW
        )
    assert tournament_balance_plan(tournament).halted_tables == (2,)


def test_rp9_final_table_is_redrawn() -> None:
    tournament = running(18)
    entries = seated(tournament)
    for entry in entries[:5] + entries[9:13]:  # 4 left at table 1, 5 at table 2
        entries_bust(
            tournament=tournament, busts=[Bust(entry_id=entry.pk, starting_stack=1)], now=NOW
        )
    plan = tournament_balance_plan(tournament)
    assert plan.final_table
    assert plan.redraw_final_table
    tournament_confirm_moves(tournament=tournament, rng=random.Random(5))
    final = seated(tournament)
    assert len({e.table_id for e in final}) == 1
    assert len(final) == 9
    assert AuditEvent.objects.filter(tournament=tournament, action="final_table_redraw").exists()
    assert tournament_balance_plan(tournament).is_empty


def test_addon_and_rebuy_only_while_the_tournament_is_under_way() -> None:
    tournament = make_tournament(2, addon_chips=5000, rebuy_chips=5000, rebuy_until_level=3)
    entry = Entry.objects.filter(tournament=tournament).first()
    assert entry is not None
    with pytest.raises(FloorError) as early:
        entry_addon(entry=entry)
    assert early.value.code == "not_running"
    with pytest.raises(FloorError):
        entry_rebuy(entry=entry, now=NOW)


# --- hand-for-hand (RP-8) -----------------------------------------------------------------


def test_rp8_hand_for_hand_stops_the_clock_and_each_hand_costs_at_most_a_minute() -> None:
    from tournaments.selectors import hand_for_hand_due
    from tournaments.services.clocks import (
        clock_hand_for_hand_hand,
        tournament_set_hand_for_hand,
    )

    tournament = running(4, payout_percentages=[60, 40])
    out = seated(tournament)[0]
    entries_bust(tournament=tournament, busts=[Bust(entry_id=out.pk, starting_stack=1)], now=NOW)
    assert hand_for_hand_due(tournament)  # 3 left, 2 paid: one bust from the money
    at = NOW + timedelta(minutes=5)
    tournament_set_hand_for_hand(tournament=tournament, on=True, now=at)
    tournament.refresh_from_db()
    assert tournament.status == "paused"
    assert tournament.hand_for_hand
    clock_hand_for_hand_hand(tournament=tournament, now=at + timedelta(minutes=3))
    tournament.refresh_from_db()
    assert clock_view(tournament, at + timedelta(hours=1)).seconds_left == 900 - 60
    tournament_set_hand_for_hand(tournament=tournament, on=False, now=at + timedelta(minutes=4))
    tournament.refresh_from_db()
    assert tournament.status == "running"
    assert not tournament.hand_for_hand
    with pytest.raises(FloorError) as refused:
        clock_hand_for_hand_hand(tournament=tournament, now=at)
    assert refused.value.code == "not_hand_for_hand"


def test_t_hand_for_hand_players_out_on_one_hand_at_one_table_are_placed_by_stack() -> None:
    """Issue 26: hand-for-hand ties only players out at different tables (RP-8); at one table
    the bigger starting stack finishes higher, as on any hand (T). They used to share 4th."""
    from tournaments.services.clocks import tournament_set_hand_for_hand

    tournament = running(5, payout_percentages=[50, 30, 20])
    tournament_set_hand_for_hand(tournament=tournament, on=True, now=NOW)
    a, b = seated(tournament)[:2]
    assert a.table_id == b.table_id
    entries_bust(
        tournament=tournament,
        now=NOW,
        busts=[Bust(entry_id=a.pk, starting_stack=900), Bust(entry_id=b.pk, starting_stack=100)],
    )
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.finishing_place, b.finishing_place) == (4, 5)


@pytest.mark.parametrize("seed", range(6))
def test_s0_sixplus_final_table_button_is_redrawn_from_the_36_card_deck(seed: int) -> None:
    """S0: Texas 6+ plays with 36 cards, 6 to ace: the final table's button draw deals from that
    deck too (it used the 52-card deck), and ties go to the card dealt first."""
    tournament = running(18, game="sixplus", structure="fixed_limit")
    entries = seated(tournament)
    for entry in entries[:5] + entries[9:13]:
        entries_bust(
            tournament=tournament, busts=[Bust(entry_id=entry.pk, starting_stack=1)], now=NOW
        )
    tournament_confirm_moves(tournament=tournament, rng=random.Random(seed))
    draw = ButtonDraw.objects.filter(table__tournament=tournament).order_by("-pk").first()
    assert draw is not None
    assert len(draw.seats) == 9
    assert all(card.rank >= 6 for card in parse_cards(draw.cards)), draw.cards
    assert draw.tiebreak == "deal_order"
