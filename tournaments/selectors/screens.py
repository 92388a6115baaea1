"""What the room's screens show besides the clock: the board (chip leaders, the payouts page by
page, the final result) and the screens a tournament has.

The clock itself comes from the one clock feed (`selectors.clock_feed`): a screen embeds and
polls it like every other display, and polls the board beside it. The board depends on nothing
but the tournament's rows, so it is built once per tournament version and named by it (ETag):
the chip ledger moves the version with every chip that moves, so the leaders follow the
tablets' hands, and a bust, a prize or the end of the event move it too.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TypedDict

from django.db.models import QuerySet

from common.errors import FloorError
from tournaments.models import Screen, Tournament
from tournaments.selectors.prizes import payouts_get
from tournaments.selectors.standings import (
    PayoutPlace,
    tournament_payouts,
    tournament_standings,
)
from tournaments.selectors.versions import cached, tournament_full, version_tag

LEADERS = 10  # chip leaders on a board
PAGE_ROWS = 10  # paid places on one page of the payouts
RESULT_PLACES = 9  # places shown in the final result (a final table)


def screen_list(tournament: Tournament) -> QuerySet[Screen]:
    return Screen.objects.filter(tournament=tournament).order_by("pk")


def screen_get(tournament: Tournament, pk: int) -> Screen | None:
    """The tournament's screen of that id, or None (another tournament's screen is none)."""
    return screen_list(tournament).filter(pk=pk).first()


def _amount(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:.2f}"


class PayoutLine(TypedDict):
    place: int
    prize: str | None
    players: list[str]


class Leader(TypedDict):
    rank: int
    name: str
    chips: int
    table: int | None


class ResultLine(TypedDict):
    place: int
    name: str
    prize: str | None


def payout_pages(places: list[PayoutPlace], rows: int = PAGE_ROWS) -> list[list[PayoutLine]]:
    """The paid places cut into pages of `rows`, first place first, each place with its prize
    and who finished there (names only): a screen shows one page (or a few side by side) and
    turns to the next every few seconds."""
    lines: list[PayoutLine] = [
        {
            "place": place["place"],
            "prize": _amount(place["prize"]),
            "players": [player["name"] for player in place["players"]],
        }
        for place in places
    ]
    return [lines[start : start + rows] for start in range(0, len(lines), rows)]


def chip_leaders(tournament: Tournament, limit: int = LEADERS) -> list[Leader]:
    """The biggest stacks of the players still in, from the chip ledger's running totals (each
    tablet's hand writes them as it ends), with where they sit."""
    rows = tournament_standings(tournament, limit=limit).rows
    return [
        {"rank": row.rank, "name": row.name, "chips": row.chips, "table": row.table} for row in rows
    ]


def final_result(tournament: Tournament, places: int = RESULT_PLACES) -> list[ResultLine]:
    """The top places of a finished event (the winner first) with their prizes; [] while it
    runs. A shared place lists each of its players."""
    if tournament.status != Tournament.Status.FINISHED:
        return []
    placed = payouts_get(tournament, places=False).placed
    return [
        {"place": p.place, "name": p.name, "prize": _amount(p.prize)}
        for p in placed
        if p.place <= places
    ]


class Board(TypedDict):
    """A screen's board (JSON-ready)."""

    tournament: int
    leaders: list[Leader]
    payout_pages: list[list[PayoutLine]]
    result: list[ResultLine]


def _board(tournament: Tournament) -> Board:
    tournament = tournament_full(tournament)
    try:
        places = tournament_payouts(tournament)
    except FloorError:  # a payout table that cannot be used: the desk says why
        places = []
    return {
        "tournament": tournament.pk,
        "leaders": chip_leaders(tournament),
        "payout_pages": payout_pages(places),
        "result": final_result(tournament),
    }


def screen_board(tournament: Tournament) -> Board:
    """The board every layout shows beside the clock (JSON-ready: amounts as strings), built
    once per tournament version."""
    return cached(tournament, "board", lambda: _board(tournament))


def board_etag(tournament: Tournament) -> str:
    return f'"{version_tag(tournament, "board")}"'
