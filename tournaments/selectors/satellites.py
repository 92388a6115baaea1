"""A satellite as the desk and the API read it: the seats its pool buys, the cash remainder,
and who won the seats, each with whether they are registered in the target yet.

The seats are `prizes.prize_table`'s (one answer for places, payouts and this page); a seat
winner is an entry placed within the seats. Reads only: the winners are registered in the
target by `tournaments.services.satellites`."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from common.errors import FloorError
from tournaments.models import Entry, Tournament
from tournaments.selectors.prizes import prize_table
from tournaments.selectors.tickets import seat_prizes, ticket_value

# What became of a seat winner in the target event.
REGISTERED = "registered"  # an entry in the target paid with this seat
WAITING = "waiting"  # not registered there yet
ALREADY_IN = "already_in"  # playing the target with an entry paid otherwise: skipped


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatWinner:
    entry_id: int
    player_id: int
    name: str
    place: int
    state: str  # REGISTERED, WAITING or ALREADY_IN
    target_entry_id: int | None  # the entry in the target (paid with the seat, or otherwise)


@dataclass(frozen=True, slots=True, kw_only=True)
class SatelliteView:
    tournament_id: int
    target_id: int
    target_name: str
    target_status: str
    seat_value: Decimal
    prize_pool: Decimal
    seats: int
    remainder: Decimal  # to place seats + 1, in cash (0: none)
    players_left: int
    over: bool  # the players left are no more than the seats: the seats are won
    winners: tuple[SeatWinner, ...]

    @property
    def remainder_place(self) -> int | None:
        return self.seats + 1 if self.seats and self.remainder > 0 else None

    @property
    def waiting(self) -> int:
        return sum(1 for w in self.winners if w.state == WAITING)


def satellite_seats(tournament: Tournament) -> int:
    """How many seats the satellite's pool buys now (0 for any other event, or a pool short of
    one seat): the players left when it ends (each wins one)."""
    value = ticket_value(tournament)
    if value <= 0:
        return 0
    return seat_prizes(sum(prize_table(tournament), Decimal(0)), value).seats


def players_at_end(tournament: Tournament) -> int:
    """How many players left end the event: one winner, or in a satellite as many as the
    seats its pool buys (the last N left each win a seat)."""
    return max(satellite_seats(tournament), 1)


def satellite_view(tournament: Tournament) -> SatelliteView:
    """The satellite's seats, remainder and winners (refused for an event with no target)."""
    target = (
        Tournament.objects.filter(pk=tournament.satellite_target_id).first()
        if tournament.satellite_target_id is not None
        else None
    )
    if target is None:
        raise FloorError(
            "not_a_satellite",
            f"{tournament.name} is not a satellite: choose its target event in the settings.",
        )
    value = ticket_value(tournament)
    pool = sum(prize_table(tournament), Decimal(0))
    split = seat_prizes(pool, value)
    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    return SatelliteView(
        tournament_id=tournament.pk,
        target_id=target.pk,
        target_name=target.name,
        target_status=target.status,
        seat_value=value,
        prize_pool=pool,
        seats=split.seats,
        remainder=split.remainder,
        players_left=left,
        over=split.seats > 0 and left <= split.seats,
        winners=_winners(tournament, target, split.seats),
    )


def _winners(tournament: Tournament, target: Tournament, seats: int) -> tuple[SeatWinner, ...]:
    """The entries placed within the seats, by place, and what each has in the target."""
    if not seats:
        return ()
    won = list(
        Entry.objects.filter(
            tournament=tournament, finishing_place__gte=1, finishing_place__lte=seats
        )
        .order_by("finishing_place", "pk")
        .values_list("pk", "player_id", "player__name", "finishing_place")
    )
    played = Entry.objects.filter(
        tournament=target, player_id__in=[player for _, player, _, _ in won]
    ).exclude(status=Entry.Status.UNREGISTERED)
    paid = dict(
        played.filter(ticket_from__in=[pk for pk, _, _, _ in won]).values_list("ticket_from", "pk")
    )
    playing = dict(played.filter(status=Entry.Status.ACTIVE).values_list("player_id", "pk"))
    rows = []
    for pk, player, name, place in won:
        if pk in paid:
            state, entry = REGISTERED, paid[pk]
        elif player in playing:
            state, entry = ALREADY_IN, playing[player]
        else:
            state, entry = WAITING, None
        rows.append(
            SeatWinner(
                entry_id=pk,
                player_id=player,
                name=name,
                place=place or 0,  # always set: filtered on it
                state=state,
                target_entry_id=entry,
            )
        )
    return tuple(rows)
