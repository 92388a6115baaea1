"""Seat and button draws, balancing and breaking tables, the final table (T 7, 10-B, 11-A)."""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, QuerySet

from common.actors import Actor
from common.errors import FloorError, FloorInvalid, from_value_error
from common.roles import DEALER_GROUP
from dealer.engine.cards import DeckKind, format_cards
from dealer.engine.errors import ConfigError
from dealer.engine.game import deck_kind_for
from dealer.engine.rules import DrawTiebreak
from tournaments import balancing, seating
from tournaments.models import ButtonDraw, Entry, Table, Tournament
from tournaments.selectors.seats import seat_map_get
from tournaments.services.audit import audit_changes, audit_record
from tournaments.services.events import tournament_rules
from tournaments.services.locks import lock_table, lock_tournament
from tournaments.services.seats import (
    seat_assign,
    seat_hold,
    seat_move_complete,
    seats_assign_many,
    seats_redraw,
)


def _active(tournament: Tournament) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)


@transaction.atomic
def tournament_draw_seats(
    *, tournament: Tournament, actor: Actor = None, rng: random.Random | None = None
) -> list[Table]:
    """Random seats for every registered entry (T 7), then a high-card draw for each table's
    button, with the cards recorded (RULES.md 2).

    Tables the director set up before the draw (`tournaments.services.floor.table_add`, with
    their sizes and locked seats) are used first, in number order, as many as the field needs;
    more are opened after them if they are too few, and those not needed are closed."""
    tournament = lock_tournament(tournament)
    rng = rng or random.Random()
    if tournament.status not in (Tournament.Status.PLANNED, Tournament.Status.REGISTERING):
        raise FloorError("tournament_started", "Seats are drawn before the start.")
    if (
        tournament.tables.filter(button_seat__isnull=False).exists()
        or _active(tournament).filter(table__isnull=False).exists()
    ):
        raise FloorError("seats_drawn", "Seats are already drawn.")
    entries = list(_active(tournament).order_by("pk").values_list("pk", flat=True))
    if len(entries) < 2:
        raise FloorError("not_enough_players", "Register at least two players before the draw.")
    prepared = list(tournament.tables.filter(is_broken=False).order_by("number"))
    try:
        if prepared:
            layout = _prepared_layout(prepared, len(entries), tournament.seats_per_table)
            draw = seating.seat_draw_at(
                entries, layout, rng, max_players=tournament.seats_per_table
            )
        else:
            draw = seating.seat_draw(entries, None, tournament.seats_per_table, rng)
    except (ValueError, ConfigError) as error:  # SeatingError, BalancingError
        raise from_value_error(error) from error
    rules = tournament_rules(tournament)
    deck = deck_kind_for(rules)
    seats_at: dict[int, list[int]] = {}
    for ref in draw.values():
        seats_at.setdefault(ref.table, []).append(ref.seat)
    # Every table's button is drawn in memory first, so the tables and their draws are written
    # in a few statements whatever the size of the field.
    buttons: dict[int, tuple[list[int], int, str]] = {}
    for number in sorted(seats_at):
        seats = sorted(seats_at[number])
        winner, cards = seating.button_draw_for_table(seats, rng, deck, rules.draw_tiebreak)
        buttons[number] = (seats, seats[winner], format_cards(cards))
    tables = _draw_tables(tournament, prepared, {n: b[1] for n, b in buttons.items()})
    ButtonDraw.objects.bulk_create(
        ButtonDraw(
            table=tables[n],
            seats=seats,
            cards=cards,
            tiebreak=rules.draw_tiebreak,
            winner_seat=button,
        )
        for n, (seats, button, cards) in buttons.items()
    )
    seats_assign_many(seats=[(pk, tables[ref.table].pk, ref.seat) for pk, ref in draw.items()])
    tournament.break_order = list(balancing.draw_break_order(list(tables), rng))
    tournament.save(update_fields=["break_order", "updated_at"])
    audit_record(
        tournament=tournament,
        actor=actor,
        action="seat_draw",
        entries=len(entries),
        tables=len(tables),
        break_order=tournament.break_order,
    )
    return list(tables.values())


def _prepared_layout(
    prepared: list[Table], entries: int, seats_per_table: int
) -> list[seating.OpenTable]:
    """The tables a draw uses when the director has set some up: theirs first, in number
    order, until the field fits, then new ones of the usual size numbered after them."""
    layout: list[seating.OpenTable] = []
    room = 0
    for table in prepared:
        if room >= entries:
            break
        found = seating.OpenTable(
            number=table.number, seats=table.seat_count, locked=frozenset(table.locked_seats or ())
        )
        layout.append(found)
        room += max(0, found.usable(seats_per_table))
    number = prepared[-1].number
    while room < entries:
        number += 1
        layout.append(seating.OpenTable(number=number, seats=seats_per_table))
        room += seats_per_table
    return layout


def _draw_tables(
    tournament: Tournament, prepared: list[Table], buttons: dict[int, int]
) -> dict[int, Table]:
    """The draw's tables with their buttons (`buttons`: table number to seat): the prepared
    ones updated, the others created; a prepared table the draw did not need is closed."""
    ready = {t.number: t for t in prepared}
    for table in prepared:
        table.button_seat = buttons.get(table.number)
        table.small_blind_seat = table.big_blind_seat = None
        table.is_broken = table.number not in buttons
    Table.objects.bulk_update(
        prepared, ["button_seat", "small_blind_seat", "big_blind_seat", "is_broken"]
    )
    created = Table.objects.bulk_create(
        Table(
            tournament=tournament,
            number=n,
            seat_count=tournament.seats_per_table,
            button_seat=buttons[n],
        )
        for n in sorted(buttons)
        if n not in ready
    )
    tables = {t.number: t for t in created}
    tables.update({n: t for n, t in ready.items() if n in buttons})
    return tables


def table_draw_button(
    *,
    table: Table,
    rng: random.Random,
    tiebreak: DrawTiebreak = DrawTiebreak.SUIT,
    deck: DeckKind = DeckKind.STANDARD,
) -> ButtonDraw:
    """Deal one card to each seated player from the seat left of seat 1; the high card takes
    the button (ties by suit, or by deal order in the 6+ profile)."""
    seats = sorted(
        seat
        for seat in Entry.objects.filter(table=table, status=Entry.Status.ACTIVE).values_list(
            "seat", flat=True
        )
        if seat is not None
    )
    winner, cards = seating.button_draw_for_table(seats, rng, deck, tiebreak)
    table.button_seat = seats[winner]
    table.small_blind_seat = table.big_blind_seat = None
    table.save(update_fields=["button_seat", "small_blind_seat", "big_blind_seat"])
    return ButtonDraw.objects.create(
        table=table,
        seats=seats,
        cards=format_cards(cards),
        tiebreak=tiebreak,
        winner_seat=seats[winner],
    )


def table_states(tournament: Tournament) -> list[balancing.TableState]:
    """The tables in play as the balancing plan sees them: a player whose move waits for the
    end of their hand is counted at the table they are moving to."""
    return [
        balancing.TableState(
            number=t.table.number,
            seats=t.table.seat_count,
            occupied=t.after_moves(),
            button=t.table.button_seat,
            small_blind=t.table.small_blind_seat,
            big_blind=t.table.big_blind_seat,
            locked=t.locked,
        )
        for t in seat_map_get(tournament=tournament).tables.values()
    ]


def _plan_rng(tournament: Tournament, states: list[balancing.TableState]) -> random.Random:
    # The same tables give the same plan: what the director saw is what is confirmed.
    key = sorted((s.number, tuple(sorted(s.occupied.items()))) for s in states)
    return random.Random(f"{tournament.pk}:{key}")


def tournament_balance_plan(tournament: Tournament) -> balancing.Plan:
    """The moves the TDA rules call for now (nothing is changed until the director confirms).

    Locked seats are never planned into, and the final table is called once the players fit
    at the table with the most open seats. A table opened during play (no button yet) is not
    closed while it waits for its players: the plan fills it. Before the draw (tables set up,
    nobody seated) there is nothing to plan."""
    states = table_states(tournament)
    if not any(state.occupied for state in states):
        return balancing.Plan()
    per_table = tournament.seats_per_table
    try:
        return balancing.plan(
            states,
            _plan_rng(tournament, states),
            max_table_size=per_table,
            break_order=tuple(tournament.break_order or ()),
            final_table_size=max(min(s.seats - len(s.locked), per_table) for s in states),
            keep_open=tuple(
                tournament.tables.filter(is_broken=False, button_seat__isnull=True).values_list(
                    "number", flat=True
                )
            ),
        )
    except (ValueError, ConfigError) as error:  # SeatingError, BalancingError
        raise from_value_error(error) from error


def pending_moves(tournament: Tournament) -> list[Entry]:
    """The moves confirmed while the player was in a hand: they take effect when it ends."""
    return list(
        _active(tournament)
        .filter(move_to_table__isnull=False)
        .select_related("player", "table", "move_to_table", "live_hand")
        .order_by("move_to_table__number", "move_to_seat")
    )


@transaction.atomic
def tournament_confirm_moves(
    *, tournament: Tournament, actor: Actor = None, rng: random.Random | None = None
) -> balancing.Plan:
    """Carry out the current plan: seat moves, broken tables, or the final-table redraw.

    A player in a hand in progress moves when that hand ends (TDA: a player moves after the
    hand): the move is recorded as pending, its seat held, and a broken table deals no new
    hand. The final-table redraw waits until no hand is in progress anywhere."""
    tournament = lock_tournament(tournament)
    if _active(tournament).filter(move_to_table__isnull=False).exists():
        raise FloorError(
            "moves_pending",
            "Some players move after their current hand: confirm the next moves once they have.",
        )
    plan = tournament_balance_plan(tournament)
    if plan.redraw_final_table or (
        plan.final_table and tournament.tables.filter(is_broken=False).count() > 1
    ):
        _check_no_hand_in_progress(tournament)
        _final_table(tournament, rng or random.Random(), actor)
        return plan
    later = plan_carry_out(tournament=tournament, plan=plan)
    tables_draw_missing_buttons(tournament=tournament, rng=rng, actor=actor)
    if plan.moves or plan.broken_tables:
        audit_record(
            tournament=tournament,
            actor=actor,
            action="tables_balance",
            moves=[m.describe() for m in plan.moves],
            broken_tables=list(plan.broken_tables),
            after_hand=later,
        )
    return plan


def plan_carry_out(*, tournament: Tournament, plan: balancing.Plan) -> list[int]:
    """Seat a plan's movers and close its broken tables (the caller holds the tournament's
    lock). A player in a hand in progress gets the move as pending, carried out when the hand
    ends (`entries_make_pending_moves`): the ids of those players."""
    tables = {t.number: t for t in tournament.tables.filter(is_broken=False)}
    movers = Entry.objects.in_bulk([m.entry_id for m in plan.moves])
    later = []
    for move in plan.moves:
        entry = movers[move.entry_id]
        if entry.live_hand_id is not None:
            seat_hold(entry=entry, table=tables[move.to_table], seat=move.to_seat)
            later.append(move.entry_id)
        else:
            seat_assign(entry=entry, table=tables[move.to_table], seat=move.to_seat)
    for number in plan.broken_tables:
        tables[number].is_broken = True
        tables[number].save(update_fields=["is_broken"])
    return later


def tables_draw_missing_buttons(
    *, tournament: Tournament, rng: random.Random | None = None, actor: Actor = None
) -> list[ButtonDraw]:
    """A table opened during play has no button: once two players sit there, a high-card draw
    gives it one (T 7), as the opening draw does, so its tablet can deal."""
    waiting = list(tournament.tables.filter(is_broken=False, button_seat__isnull=True))
    if not waiting:
        return []
    seated = dict(
        _active(tournament)
        .filter(table__in=waiting)
        .values("table_id")
        .annotate(n=Count("pk"))
        .values_list("table_id", "n")
    )
    rules = tournament_rules(tournament)
    draws = []
    for table in sorted(waiting, key=lambda t: t.number):
        if seated.get(table.pk, 0) < 2:
            continue
        draw = table_draw_button(
            table=table,
            rng=rng or random.Random(),
            tiebreak=rules.draw_tiebreak,
            deck=deck_kind_for(rules),
        )
        audit_record(
            tournament=tournament,
            actor=actor,
            action="table_button_draw",
            table=table.number,
            cards=draw.cards,
            button=draw.winner_seat,
        )
        draws.append(draw)
    return draws


def _check_no_hand_in_progress(tournament: Tournament) -> None:
    busy = sorted(
        set(
            _active(tournament)
            .filter(live_hand__isnull=False)
            .values_list("table__number", flat=True)
        )
    )
    if busy:
        listed = ", ".join(str(n) for n in busy)
        raise FloorError(
            "hands_in_progress",
            f"Table{'s' if len(busy) > 1 else ''} {listed} "
            f"{'are' if len(busy) > 1 else 'is'} still playing a hand: "
            "redraw once every hand has ended.",
        )


def entries_make_pending_moves(
    *, tournament: Tournament, entry_ids: list[int], actor: Actor = None
) -> list[Entry]:
    """The hand these entries were in has ended: the moves that waited for it take effect."""
    movers = list(
        _active(tournament)
        .filter(pk__in=entry_ids, move_to_table__isnull=False)
        .select_related("player", "table", "move_to_table")
    )
    for entry in movers:
        came_from = entry.table.number if entry.table else None
        seat_move_complete(entry=entry)
        audit_record(
            tournament=tournament,
            actor=actor,
            action="move_after_hand",
            player=entry.player.name,
            from_table=came_from,
            table=entry.table.number if entry.table else None,
            seat=entry.seat,
        )
    if movers:
        tables_draw_missing_buttons(tournament=tournament, actor=actor)
    return movers


def _final_table(tournament: Tournament, rng: random.Random, actor: Actor) -> None:
    entries = list(_active(tournament).values_list("pk", flat=True))
    tables = list(tournament.tables.filter(is_broken=False).order_by("number"))
    per_table = tournament.seats_per_table
    # The table with the most open (unlocked) seats, the lowest number on a tie, as the plan
    # counted: everyone left fits there.
    layouts = [
        seating.OpenTable(
            number=t.number, seats=t.seat_count, locked=frozenset(t.locked_seats or ())
        )
        for t in tables
    ]
    best = max(range(len(tables)), key=lambda i: (layouts[i].usable(per_table), -i))
    final = tables[best]
    try:
        draw = seating.seat_draw_at(entries, [layouts[best]], rng, max_players=per_table)
    except (ValueError, ConfigError) as error:  # SeatingError
        raise from_value_error(error) from error
    seats_redraw(seats=[(pk, final.pk, ref.seat) for pk, ref in draw.items()])
    for table in tables:
        if table.pk != final.pk:
            table.is_broken = True
            table.save(update_fields=["is_broken"])
    rules = tournament_rules(tournament)
    table_draw_button(table=final, rng=rng, tiebreak=rules.draw_tiebreak, deck=deck_kind_for(rules))
    audit_record(
        tournament=tournament,
        actor=actor,
        action="final_table_redraw",
        table=final.number,
        players=len(entries),
    )


@transaction.atomic
def table_assign_dealer(*, table: Table, dealer_id: int | None, actor: Actor = None) -> Table:
    """Give a table its dealer (a member of the "dealer" group), or none: from then on only that
    dealer, or a director, writes to the table's hands and seats."""
    table = lock_table(table)
    dealer = None
    if dealer_id is not None:
        dealer = (
            get_user_model()
            .objects.filter(pk=dealer_id, is_active=True, groups__name=DEALER_GROUP)
            .first()
        )
        if dealer is None:
            raise FloorInvalid(
                "not_a_dealer", "Pick a dealer: an active account in the dealer group."
            )
    # The log names the dealers, before and after (issue 26: no bare ids, no new value alone).
    before = table.dealer.get_username() if table.dealer else None
    after = dealer.get_username() if dealer else None
    table.dealer = dealer
    table.save(update_fields=["dealer"])
    audit_record(
        tournament=table.tournament,
        actor=actor,
        action="table_dealer",
        table=table.number,
        cash=table.tournament_id is None,
        dealer=after,
        changes=audit_changes({"dealer": before}, {"dealer": after}),
    )
    return table
