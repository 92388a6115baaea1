"""A finished hand's result, to the tournament or to the cash table."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from common.actors import Actor
from dealer.cash.seats.services import cash_hand_end
from dealer.cash.takings.services import hand_takings_record
from dealer.engine import HandState
from dealer.engine.knockouts import knockouts
from dealer.engine.state import Phase
from dealer.models import Hand
from tournaments.services.hands import SeatResult, entries_hand_end
from tournaments.services.knockouts import Eliminator
from tournaments.services.ledger import HandRef


def hand_ref(hand: Hand) -> HandRef:
    return HandRef(
        hand_id=hand.pk,
        table_number=hand.table.number,
        hand_number=hand.number,
        hand_for_hand_round=hand.hand_for_hand_round,
    )


def seat_results(
    hand: Hand, stacks: Sequence[int] | None, state: HandState | None = None
) -> list[SeatResult]:
    """Each dealt entry's stack at the start and at the end (unchanged when `stacks` is None);
    with the finished `state`, who knocked out each player it left with nothing (KO-1), the
    engine's players read as entries through `hand.seats`."""
    finishing = list(stacks) if stacks is not None else [s["stack"] for s in hand.seats]
    entry_of = [seat["entry"] for seat in hand.seats]
    by: dict[int, tuple[Eliminator, ...]] = {}
    for knockout in knockouts(state) if state is not None else ():
        by[knockout.busted] = tuple(
            Eliminator(entry_id=entry_of[player], share=share)
            for player, share in zip(knockout.eliminators, knockout.shares, strict=True)
        )
    return [
        SeatResult(
            entry_id=seat["entry"],
            start=seat["stack"],
            finish=stack,
            eliminated_by=by.get(index, ()),
        )
        for index, (seat, stack) in enumerate(zip(hand.seats, finishing, strict=True))
    ]


def hand_end(hand: Hand, state: HandState, actor: Actor) -> None:
    """The hand's result to the tournament (`entries_hand_end`: the chip ledger, busts, the moves
    that waited) or the cash table's seats, and the positions for the next hand. A misdeal only
    frees the players: the redeal uses the same button, blinds and players (T)."""
    table = hand.table
    void = state.phase == Phase.VOID
    if table.tournament_id is not None and not hand.plan:
        entries_hand_end(
            table=table,
            hand=hand_ref(hand),
            results=seat_results(
                hand, None if void else state.finishing_stacks, None if void else state
            ),
            void=void,
            now=timezone.now(),
            actor=actor,
        )
    if void:
        return
    table.button_seat = hand.button_seat
    table.small_blind_seat = hand.small_blind_seat
    table.big_blind_seat = hand.big_blind_seat
    table.save(update_fields=["button_seat", "small_blind_seat", "big_blind_seat"])
    if hand.plan:
        # The house's take is the rake and the promotional drop, each a ledger row of its own.
        house = state.rake - state.drop
        cash_hand_end(hand, state.finishing_stacks or (), house, drop=state.drop, actor=actor)
        hand_takings_record(hand=hand, rake=house)
