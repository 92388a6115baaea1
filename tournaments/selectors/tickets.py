"""A satellite's tickets: what a seat in its target event is worth, and how its prize pool turns
into seats and a cash remainder. `prizes.prize_table` asks `satellite_prize_table` first (one
branch), so that places, prizes, standings and payouts all see the same seats."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from tournaments.models import Tournament

ZERO = Decimal("0")


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatPrizes:
    """A pool cut into seats: `seats` places win a seat each (worth `seat_value`), the next
    place the `remainder` in cash, if there is one."""

    seats: int
    seat_value: Decimal
    remainder: Decimal

    @property
    def prizes(self) -> tuple[Decimal, ...]:
        """Each paid place's prize: the seats, then the remainder (when more than nothing)."""
        cash = (self.remainder,) if self.remainder > 0 else ()
        return (self.seat_value,) * self.seats + cash


def seat_prizes(pool: Decimal, seat_value: Decimal) -> SeatPrizes:
    """As many seats as the pool covers (floor(pool / seat value)), the rest in cash. Pure: a
    seat value of nothing buys no seat, and the whole pool is the remainder."""
    if seat_value <= 0 or pool <= 0:
        return SeatPrizes(seats=0, seat_value=seat_value, remainder=max(pool, ZERO))
    seats = int(pool // seat_value)
    return SeatPrizes(seats=seats, seat_value=seat_value, remainder=pool - seats * seat_value)


def ticket_value(tournament: Tournament) -> Decimal:
    """What one seat in the target is worth: the satellite's `seat_value`, or when that is 0,
    the target's buy-in and fee (and its bounty, in a bounty event): what a player pays at its
    desk. 0 when the tournament is no satellite."""
    if tournament.satellite_target_id is None:
        return ZERO
    if tournament.seat_value > 0:
        return Decimal(tournament.seat_value)
    target = (
        Tournament.objects.filter(pk=tournament.satellite_target_id)
        .values("buy_in", "fee", "bounty_kind", "bounty")
        .first()
    )
    if target is None:
        return ZERO
    bounty = target["bounty"] if target["bounty_kind"] != Tournament.Bounty.NONE else ZERO
    return Decimal(target["buy_in"]) + Decimal(target["fee"]) + Decimal(bounty)


def satellite_prize_table(tournament: Tournament, pool: Decimal) -> tuple[Decimal, ...] | None:
    """A satellite's prizes (seats, then the remainder), or None when it pays as any other
    event: no target, or a pool too small for a single seat (then the whole pool is paid in
    cash by the payout table, and the desk says so)."""
    value = ticket_value(tournament)
    if value <= 0:
        return None
    split = seat_prizes(pool, value)
    return split.prizes if split.seats else None


def seat_places(tournament: Tournament, prizes: tuple[Decimal, ...]) -> tuple[int, str]:
    """How many of the places of `prizes` (the prize table) win a seat, and in which event:
    (0, "") for any event but a satellite paying seats."""
    value = ticket_value(tournament)
    if value <= 0:
        return 0, ""
    seats = seat_prizes(sum(prizes, ZERO), value).seats
    if not seats or tournament.satellite_target_id is None:
        return 0, ""
    target = Tournament.objects.filter(pk=tournament.satellite_target_id)
    return seats, target.values_list("name", flat=True).first() or ""
