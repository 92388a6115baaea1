"""Starting a hand."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from django.db import transaction
from django.utils import timezone

from common.actors import Actor, signed_in
from common.errors import FloorError
from dealer.cash.seats import plan as cash_plan
from dealer.engine import HandSetup, PlayerSetup, start_hand
from dealer.engine.rules import Rules
from dealer.hand_log import hand_snapshot
from dealer.models import Hand
from dealer.rotation.selectors import push_refusal
from dealer.selectors import start_refusal
from dealer.state_cache import pack_state
from tournaments import balancing, clock
from tournaments.models import Entry, Table
from tournaments.selectors.clock import clock_view
from tournaments.selectors.tables import table_next_hand
from tournaments.services.events import tournament_rules
from tournaments.services.hands import entries_enter_hand
from tournaments.services.locks import lock_tournament
from tournaments.services.tables import tables_draw_missing_buttons


def stakes_record(setup: HandSetup, *, ante: int) -> dict[str, int | None]:
    """What `Hand.stakes` keeps of the set-up (read back by `hand_setup`)."""
    return {
        "small_blind": setup.small_blind,
        "big_blind": setup.big_blind,
        "ante": ante,
        "small_bet": setup.small_bet,
        "unit": setup.unit,
        "button_index": setup.button_index,
        "bring_in_index": setup.bring_in_index,
    }


def save_first_state(hand: Hand, setup: HandSetup) -> Hand:
    """A new hand's state before any entry: the snapshot for reads and the engine's own."""
    state = start_hand(setup)
    hand.state = hand_snapshot(hand, state)
    hand.engine_state = pack_state(state, hand.pk, hand.version)
    hand.save(update_fields=["state", "engine_state"])
    return hand


@transaction.atomic
def hand_start(
    *,
    table: Table,
    actor: Actor = None,
    now: datetime | None = None,
    straddle: bool = False,
    expected_plan: str = "",
) -> Hand:
    """Start the next hand at a table. In a tournament the button and blinds follow the dead
    button (T 32) from the table's last hand, the blinds are the level in force now (T 23), and
    every seated player is dealt in, absent or not (T 30), except a new player between the button
    and the small blind (T 10-A). At a cash table the plan decides (`dealer.cash.seats.plan`):
    `straddle` says the offered player straddles, and `expected_plan` (the plan's signature as the
    dealer saw it) refuses the start if the seats changed since. After the rotation's push the
    outgoing dealer may not start one (409 `push_due`): the incoming dealer signs in first; a
    director may."""
    now = now or timezone.now()
    if table.tournament_id is not None:
        # Locks in the floor's order: the tournament, then the table, then the entries.
        lock_tournament(table.tournament_id)
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=table.pk)
    )
    refusal = start_refusal(
        table, in_progress=Hand.objects.filter(table=table, status=Hand.Status.IN_PROGRESS).exists()
    )
    if refusal is None:
        # After the push the outgoing dealer hands the table over before another hand.
        refusal = push_refusal(table, actor, now)
    if refusal is not None:
        raise refusal
    if table.tournament is None:
        return _cash_hand_start(table, actor, straddle=straddle, expected_plan=expected_plan)
    tournament = table.tournament
    entries = {
        e.seat: e
        for e in Entry.objects.filter(table=table, status=Entry.Status.ACTIVE).select_related(
            "player"
        )
        if e.seat is not None
    }
    if len(entries) < 2:
        raise FloorError("not_enough_players", f"{table} needs at least two players.")
    view = clock_view(tournament, now)
    level = view.level if not view.level.is_break else view.next_level
    if view.level.is_break or level is None:
        raise FloorError("on_break", "The clock is on a break: deal when play resumes.")
    rules = tournament_rules(tournament)
    if table.button_seat is None:
        # A table opened during play (added, then filled by late entries or moves) has no
        # button yet: its first hand begins with the high-card draw every table gets (T 7).
        tables_draw_missing_buttons(tournament=tournament, actor=actor)
        table.refresh_from_db(fields=["button_seat", "small_blind_seat", "big_blind_seat"])
    positions = _positions(table, entries)
    waiting = [e.player.name for seat, e in entries.items() if not positions.dealt_in(seat)]
    if len(entries) - len(waiting) < 2:
        raise FloorError(
            "not_enough_players",
            f"Only one player at {table} may be dealt in: {', '.join(waiting)} "
            f"{'waits' if len(waiting) == 1 else 'wait'} for the button (T 10-A). Balance the "
            "tables, or move a player here.",
        )
    setup, seats = _setup(rules, level, entries, positions)
    number = (Hand.objects.filter(table=table).count()) + 1
    hand = Hand.objects.create(
        table=table,
        number=number,
        rules=rules.as_dict(),
        stakes=stakes_record(setup, ante=level.ante),
        level_index=view.level_index,
        hand_for_hand_round=tournament.hand_for_hand_round if tournament.hand_for_hand else None,
        button_seat=positions.button,
        small_blind_seat=positions.small_blind,
        big_blind_seat=positions.big_blind,
        seats=seats,
        started_by=signed_in(actor),
    )
    dealt = [entries[row["seat"]] for row in seats]
    entries_enter_hand(tournament=tournament, entries=dealt, hand_id=hand.pk)
    if tournament.hand_for_hand:
        table.hand_for_hand_round = tournament.hand_for_hand_round
        table.save(update_fields=["hand_for_hand_round"])
    return save_first_state(hand, setup)


def _cash_hand_start(table: Table, actor: Actor, *, straddle: bool, expected_plan: str) -> Hand:
    """A cash hand: exactly the posts of the plan the dealer was shown (RULES.md 2-4)."""
    read = cash_plan.engine_seats(table)
    seats = {seat.seat: seat for seat in read}
    plan = cash_plan.cash_table_plan(table, read)
    if expected_plan and expected_plan != cash_plan.plan_signature(plan):
        raise FloorError(
            "plan_changed",
            "The seats changed since this screen was drawn: check who posts what, then start.",
        )
    if straddle and plan.straddle_seat is None:
        raise FloorError("straddle_not_offered", "Nobody may straddle this hand.")
    rules, stakes = cash_plan.cash_table_rules(table), cash_plan.cash_stakes(table)
    setup = plan.setup(
        rules,
        stakes,
        {seat: seats[seat].stack for seat in plan.dealt},
        names={seat: seats[seat].name for seat in plan.dealt},
        straddle=straddle,
    )
    rows = [
        {
            "seat": player.seat,
            "cash_seat": seats[player.seat].key,
            "name": player.name,
            "stack": player.stack,
            "blind": player.blind,
            "ante": player.ante,
            "dead": player.dead,
        }
        for player in setup.players
    ]
    hand = Hand.objects.create(
        table=table,
        number=Hand.objects.filter(table=table).count() + 1,
        rules=rules.as_dict(),
        stakes=stakes_record(setup, ante=stakes.ante),
        button_seat=plan.button,
        small_blind_seat=plan.positions.small_blind,
        big_blind_seat=plan.big_blind,
        seats=rows,
        plan=cash_plan.plan_record(plan, straddle),
        started_by=signed_in(actor),
    )
    return save_first_state(hand, setup)


def _positions(table: Table, entries: dict[int, Entry]) -> balancing.NextHand:
    """The next hand's button and blinds from the table's: each hand's end writes its positions
    there, and a seat or button draw (a new table, the final-table redraw) resets them, so that
    every player seated by the draw is dealt in."""
    positions = table_next_hand(table, {seat: e.pk for seat, e in entries.items()})
    if positions.big_blind is None:
        raise FloorError("no_button", f"{table} has no button: draw for the button first.")
    return positions


class DealtSeat(TypedDict):
    """A tournament player dealt in, as `Hand.seats` keeps it (read back by `hand_setup`)."""

    seat: int
    entry: int
    name: str
    stack: int
    blind: int
    ante: int
    dead: int


def _setup(
    rules: Rules, level: clock.Level, entries: dict[int, Entry], positions: balancing.NextHand
) -> tuple[HandSetup, list[DealtSeat]]:
    seats_total = positions.seats
    button = positions.button or positions.big_blind
    assert button is not None
    order = [
        ((seat - button - 1) % seats_total, seat) for seat in entries if positions.dealt_in(seat)
    ]
    clockwise = [seat for _, seat in sorted(order)]
    heads_up = len(clockwise) == 2
    players: list[PlayerSetup] = []
    seats: list[DealtSeat] = []
    bring_in = 0
    for index, seat in enumerate(clockwise):
        entry = entries[seat]
        blind = 0
        if seat == positions.big_blind:
            blind, bring_in = level.big_blind, index
        elif seat == positions.small_blind or (heads_up and seat != positions.big_blind):
            blind = level.small_blind
        ante = (
            level.ante if not level.bb_ante else (level.ante if seat == positions.big_blind else 0)
        )
        players.append(
            PlayerSetup(
                stack=entry.chips, seat=seat, name=entry.player.name, blind=blind, ante=ante
            )
        )
        seats.append(
            {
                "seat": seat,
                "entry": entry.pk,
                "name": entry.player.name,
                "stack": entry.chips,
                "blind": blind,
                "ante": ante,
                "dead": 0,
            }
        )
    button_index = clockwise.index(button) if button in clockwise else None
    setup = HandSetup(
        rules=rules,
        players=tuple(players),
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        small_bet=level.big_blind,
        unit=level.smallest_chip,  # the level's smallest chip: pots split to it (RULES.md 6)
        button_index=button_index,
        bring_in_index=bring_in,
    )
    return setup, seats
