"""Satellites: the target event a satellite wins seats in, and the one click that registers its
seat winners there.

A seat winner's entry in the target is made by the registration desk's own service
(`entry_register`), then names the satellite entry that won it (`Entry.ticket_from`): the
target's pool counts it as any entry, and the desk shows "ticket from <satellite>". A winner
who already plays the target with an entry paid otherwise is skipped and reported: the seat's
value is owed to them (the room refunds that buy-in or keeps the ticket as credit), never a
second entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from common.actors import Actor
from common.errors import FloorError, FloorInvalid
from tournaments.models import Entry, Tournament
from tournaments.selectors.satellites import ALREADY_IN, WAITING, SatelliteView, satellite_view
from tournaments.services.audit import audit_record
from tournaments.services.entries import entry_register, registration_open
from tournaments.services.locks import lock_tournament

# Refusals of one winner's registration that skip that winner, not the whole click.
SKIPPED_CODES = ("duplicate_registration", "no_reentry", "no_open_seat")


@dataclass(frozen=True, slots=True, kw_only=True)
class Skipped:
    entry_id: int
    name: str
    code: str
    detail: str


@dataclass(frozen=True, slots=True, kw_only=True)
class WinnersRegistered:
    registered: tuple[Entry, ...]  # the new entries in the target, by place in the satellite
    skipped: tuple[Skipped, ...]
    satellite: SatelliteView  # as it stands after the click


def check_satellite_target(*, tournament: Tournament | None, target: Tournament | None) -> None:
    """A satellite wins seats in another event that is not over: not itself, not a finished
    one, not one of its own satellites (400 `bad_satellite_target`). None: not a satellite."""
    if target is None:
        return
    if tournament is not None and target.pk == tournament.pk:
        raise FloorInvalid(
            "bad_satellite_target", "A satellite wins seats in another event, not in itself."
        )
    if target.status == Tournament.Status.FINISHED:
        raise FloorInvalid(
            "bad_satellite_target",
            f"{target.name} is finished: a satellite wins seats in an event still to be played.",
        )
    if tournament is not None and target.satellite_target_id == tournament.pk:
        raise FloorInvalid(
            "bad_satellite_target",
            f"{target.name} is itself a satellite of {tournament.name}: the seats would go round.",
        )


@transaction.atomic
def satellite_register_winners(
    *, tournament: Tournament, now: datetime, actor: Actor = None
) -> WinnersRegistered:
    """Register every seat winner not yet registered in the target, each paid with their seat.

    Idempotent: a winner already registered with their seat is left alone, so a second click
    registers nobody twice. Refused (409) while the satellite has no target or no seat won
    yet, and while the target's registration is closed."""
    satellite = lock_tournament(tournament)
    view = satellite_view(satellite)
    _check_ready(view)
    target = lock_tournament(view.target_id)
    if not registration_open(target, now):
        raise FloorError(
            "registration_closed",
            f"Registration for {target.name} is closed: open it (or extend its late "
            "registration) before registering the seat winners.",
        )
    registered: list[Entry] = []
    skipped: list[Skipped] = []
    for winner in view.winners:
        if winner.state == ALREADY_IN:
            skipped.append(
                Skipped(
                    entry_id=winner.entry_id,
                    name=winner.name,
                    code="already_registered",
                    detail=f"{winner.name} already plays {target.name} on an entry paid "
                    "otherwise: the seat's value is owed to them.",
                )
            )
        elif winner.state == WAITING:
            try:
                with transaction.atomic():
                    entry = entry_register(
                        tournament=target, player_name=winner.name, now=now, actor=actor
                    )
                    entry.ticket_from_id = winner.entry_id
                    entry.save(update_fields=["ticket_from"])
            except FloorError as error:
                if error.code not in SKIPPED_CODES:
                    raise
                skipped.append(
                    Skipped(
                        entry_id=winner.entry_id,
                        name=winner.name,
                        code=error.code,
                        detail=error.detail,
                    )
                )
            else:
                registered.append(entry)
    if registered or skipped:
        audit_record(
            tournament=satellite,
            actor=actor,
            action="satellite_register_winners",
            target=target.name,
            registered=[e.player.name for e in registered],
            skipped=[{"player": s.name, "code": s.code} for s in skipped],
        )
    return WinnersRegistered(
        registered=tuple(registered), skipped=tuple(skipped), satellite=satellite_view(satellite)
    )


def _check_ready(view: SatelliteView) -> None:
    if not view.seats:
        raise FloorError(
            "no_seats",
            f"The prize pool ({view.prize_pool:,.2f}) buys no seat worth "
            f"{view.seat_value:,.2f}: this satellite pays its places in cash.",
        )
    if not view.winners:
        raise FloorError(
            "seats_not_won",
            f"The seats are won when {view.seats} players are left; {view.players_left} "
            "are still playing.",
        )
