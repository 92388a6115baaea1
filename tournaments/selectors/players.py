"""The room's players as the director finds them (a search by name or number over the whole
series, a page at a time) and a player's results in every event.

The search compares folded text (`tournaments.names.fold`: "jose" finds "José"): the query is
folded here and matched against `Player.search_name`, which the players' one writer keeps in
step with the name. A name's start is matched with `startswith` on the indexed column (on
PostgreSQL Django adds a pattern index for it), and a later part of the name ("nunez" in
"jose nunez") by a word boundary in the same column. A number ("#1042", or digits) is matched
exactly on the unique `number` (a query of digits is taken for a number).

The results are public (`/p/<id>/`, `GET /api/players/{id}/results/`): names, events, places
and prizes only, and only of a player who has a result the public may see
(`player_public_get`): a name typed on a cash game's waiting list is nobody's business. Contact
details are read by the director's pages alone (`player_get`)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.core.paginator import Paginator
from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from tournaments.models import Entry, Player, Series, Tournament
from tournaments.names import fold
from tournaments.selectors.bounties import tournament_bounties
from tournaments.selectors.tickets import ticket_value
from tournaments.selectors.versions import tournaments_seen

PAGE_SIZE = 50
MAX_PAGE = 1_000_000
ZERO = Decimal("0")


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerHit:
    id: int
    name: str
    number: str
    entries: int
    is_archived: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerPage:
    query: str
    rows: tuple[PlayerHit, ...]
    page: int
    pages: int
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultRow:
    entry_id: int
    tournament_id: int
    tournament: str
    series: str | None
    status: str  # the event's
    entry_number: int  # 1 for the first entry, 2 for the first re-entry, ...
    entries_in_event: int  # the player's entries in that event
    entry_status: str
    place: int | None
    prize: Decimal | None  # cash; a seat won is `seat`, not a prize
    seat_in: str | None  # a satellite seat won: the target's name
    seat_value: Decimal | None
    ticket_from: str | None  # this entry was paid with a seat won in that satellite
    bounty: Decimal | None  # the bounties won, in an event with bounties (else None)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerResults:
    player_id: int
    name: str
    rows: tuple[ResultRow, ...]
    events: int
    entries: int
    cashes: int  # entries paid a cash prize
    winnings: Decimal  # the cash prizes and the bounties won
    bounties: Decimal  # the bounties won (part of `winnings`)
    seats: int  # satellite seats won
    tickets: Decimal  # what those seats are worth


def _matching(query: str) -> QuerySet[Player]:
    folded = fold(query)
    players = Player.objects.all()
    if not folded:
        return players.order_by("name", "pk")
    if folded.startswith("#") or folded.isdigit():  # a card number: "#1042", or "1042"
        number = "".join(folded.lstrip("#").split()).upper()
        # `exclude` repeats the unique index's condition, so that SQLite uses it too.
        return players.filter(number=number).exclude(number="").order_by("name", "pk")
    match = Q()
    for part in folded.split():
        match &= (
            Q(search_name__startswith=part)
            | Q(search_name__contains=f" {part}")
            | Q(search_name__contains=f"-{part}")
        )
    return players.filter(match).order_by("search_name", "pk")


def player_search(
    query: str = "", *, page: int = 1, per_page: int = PAGE_SIZE, archived: bool = False
) -> PlayerPage:
    """Players whose name (folded) has a word starting with each word of the query; or whose
    number is the query ("#1042", or "1042"). Every player when it is empty. A page at a time,
    by name; each with their number of entries (two queries and a count). Archived players
    (`services.archive`) only with `archived`."""
    query = " ".join(query.split())
    matching = _matching(query)
    if not archived:
        matching = matching.filter(is_archived=False)
    paginator = Paginator(matching.only("pk", "name", "number", "is_archived"), per_page)
    shown = paginator.get_page(page)
    players = list(shown.object_list)
    counts = dict(
        Entry.objects.filter(player__in=players)
        .exclude(status=Entry.Status.UNREGISTERED)
        .values("player")
        .annotate(n=Count("pk"))
        .values_list("player", "n")
    )
    return PlayerPage(
        query=query,
        rows=tuple(
            PlayerHit(
                id=p.pk,
                name=p.name,
                number=p.number,
                entries=counts.get(p.pk, 0),
                is_archived=p.is_archived,
            )
            for p in players
        ),
        page=shown.number,
        pages=paginator.num_pages,
        count=paginator.count,
    )


def player_results(player: Player, *, public: bool = True) -> PlayerResults:
    """Every entry the player has played, the latest event first, with place, prize, a
    satellite seat won and the satellite that paid the entry; and the totals. The public does
    not see events still planned."""
    entries = (
        Entry.objects.filter(player=player)
        .exclude(status=Entry.Status.UNREGISTERED)
        .select_related("tournament__series", "tournament__satellite_target", "ticket_from")
        .order_by("-tournament__created_at", "-tournament_id", "number")
    )
    if public:
        entries = entries.exclude(tournament__status=Tournament.Status.PLANNED)
    found = list(entries)
    satellites = {e.tournament_id: e.tournament for e in found if e.tournament.satellite_target}
    values = {pk: ticket_value(t) for pk, t in satellites.items()}
    tickets = _ticket_names([e.ticket_from.tournament_id for e in found if e.ticket_from])
    per_event: dict[int, int] = {}
    for entry in found:
        per_event[entry.tournament_id] = per_event.get(entry.tournament_id, 0) + 1
    bounties = _bounties_won(found)
    rows = tuple(_row(e, values, tickets, per_event, bounties) for e in found)
    cash = [r.prize for r in rows if r.prize]
    bounty_cash = sum((r.bounty for r in rows if r.bounty), ZERO)
    seats = [r.seat_value or ZERO for r in rows if r.seat_in]
    return PlayerResults(
        player_id=player.pk,
        name=player.name,
        rows=rows,
        events=len(per_event),
        entries=len(rows),
        cashes=len(cash),
        winnings=sum(cash, ZERO) + bounty_cash,
        bounties=bounty_cash,
        seats=len(seats),
        tickets=sum(seats, ZERO),
    )


def _ticket_names(tournament_ids: list[int]) -> dict[int, str]:
    if not tournament_ids:
        return {}
    return dict(Tournament.objects.filter(pk__in=tournament_ids).values_list("pk", "name"))


def _bounties_won(entries: list[Entry]) -> dict[int, Decimal]:
    """The bounty cash each entry has won, in the events with bounties (two queries each)."""
    won: dict[int, Decimal] = {}
    events = {e.tournament_id: e.tournament for e in entries}
    for event in events.values():
        if event.bounty_kind == Tournament.Bounty.NONE:
            continue
        book = tournament_bounties(event)
        for entry in entries:
            if entry.tournament_id == event.pk:
                in_play = entry.status == Entry.Status.ACTIVE
                won[entry.pk] = book.of(entry.pk, in_play=in_play).won
    return won


def _row(
    entry: Entry,
    values: dict[int, Decimal],
    tickets: dict[int, str],
    per_event: dict[int, int],
    bounties: dict[int, Decimal],
) -> ResultRow:
    event = entry.tournament
    value = values.get(event.pk, ZERO)
    # A satellite's seat is paid as its value, and only a seat is worth exactly that (the
    # cash remainder is always less).
    seat = value > 0 and entry.prize is not None and entry.prize == value
    return ResultRow(
        entry_id=entry.pk,
        tournament_id=event.pk,
        tournament=event.name,
        series=event.series.name if event.series else None,
        status=event.status,
        entry_number=entry.number,
        entries_in_event=per_event[event.pk],
        entry_status=entry.status,
        place=entry.finishing_place,
        prize=None if seat else entry.prize,
        seat_in=event.satellite_target.name if seat and event.satellite_target else None,
        seat_value=value if seat else None,
        ticket_from=tickets.get(entry.ticket_from.tournament_id) if entry.ticket_from else None,
        bounty=bounties.get(entry.pk),
    )


def player_get(pk: int) -> Player | None:
    """A player with contact details, for the director's pages and API only."""
    return Player.objects.filter(pk=pk).first()


def player_likely_same(player: Player) -> list[Player]:
    """The other players whose name folds to this one's ("Jose Nunez" for "José Núñez"): the
    person may have been registered twice (the director's player page offers to merge them)."""
    return list(Player.objects.filter(search_name=player.search_name).exclude(pk=player.pk))


def player_public_get(pk: int) -> Player | None:
    """The player, for a reader who is not a director, if they have a public result: an entry
    (not unregistered) in a tournament the public may see (`tournaments_seen`: any but a
    planned one), the entries `player_results(public=True)` lists. Anyone else (a cash list's
    joiner, a player only of planned events) is None, as an id nobody has, after the same one
    query: the public cannot tell them apart."""
    public_entries = Entry.objects.filter(
        player=OuterRef("pk"), tournament__in=tournaments_seen(planned=False)
    ).exclude(status=Entry.Status.UNREGISTERED)
    return Player.objects.filter(Exists(public_entries), pk=pk).first()


def series_list() -> QuerySet[Series]:
    """Every series, the newest first, with how many events it holds."""
    return Series.objects.annotate(events_count=Count("events")).order_by("-created_at", "pk")
