"""The event's story, as the live updates page, its Atom feed and the API tell it (issue 27).

A read model: nothing is written for it. Every entry is derived from records the floor and the
tablets already keep, so there is no second writer to disagree with them:

- a level change: the clock's audit entries (the clock started, a level set by the director,
  a level change announced at its time);
- the chip leaders at each break: the ledger's running balances at the moment the break began;
- an elimination, with its place, its prize (`payouts_get`, the one prize answer) and who
  knocked the player out (the `Knockout` rows, via `tournament_bounties`);
- a showdown: a tablet's finished hand in which a player showed cards, with only the cards shown
  face up. The hand's log is read through the hole-card gate as the public reads it
  (`dealer.card_gate.card_sight` with an anonymous caller): a hand mucked, or never shown, reads
  "??" there and never reaches the story. A hand won without a showdown is no entry;
- the final table (the field down to one table's seats) and the winner.

Newest first. The whole story is kept in the cache under the tournament's version (every bust,
hand end, count and clock change moves it), so the pollers share one build per change.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import NamedTuple

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import Max, Q

from dealer.card_gate import HIDDEN_CARD, card_sight
from dealer.engine.json_values import JsonObject
from dealer.hand_log import split_undone
from dealer.models import Hand, HandEvent
from tournaments import clock
from tournaments.models import AuditEvent, ChipMove, Entry, Table, Tournament
from tournaments.selectors.bounties import tournament_bounties
from tournaments.selectors.clock import level_text, tournament_levels
from tournaments.selectors.prizes import payouts_get
from tournaments.selectors.versions import cached

# The clock's audit entries that put a level in play.
LEVEL_ACTIONS = ("clock_start", "clock_set_level", "level_change")
LEADERS = 5  # chip leaders named at each break
KEEP_SECONDS = 6 * 3600  # the parts of the story that never change once told (a hand, a break)


@dataclass(frozen=True, slots=True, kw_only=True)
class StoryEntry:
    """One thing that happened: `id` stays the same for as long as the entry exists (the Atom
    entry's id and the page's anchor); `details` carries the facts for the API."""

    id: str
    kind: str  # level, break, elimination, showdown, final_table, winner
    at: datetime
    title: str
    text: str
    details: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class Story:
    tournament_id: int
    name: str
    entries: tuple[StoryEntry, ...]  # newest first

    @property
    def updated(self) -> datetime | None:
        return self.entries[0].at if self.entries else None


def tournament_story(tournament: Tournament) -> Story:
    """The event's story so far, newest first (kept per version of the tournament)."""
    return cached(tournament, "live-story", lambda: _build(tournament))


def _build(tournament: Tournament) -> Story:
    entries = [
        *_levels(tournament),
        *_eliminations(tournament),
        *_showdowns(tournament),
    ]
    # Newest first; at one moment, the later kind in the order of the day first (a bust that
    # wins the event: the winner above the elimination).
    order = {"level": 0, "break": 0, "showdown": 1, "elimination": 2, "final_table": 3, "winner": 4}
    entries.sort(key=lambda e: (e.at, order[e.kind], e.id), reverse=True)
    return Story(tournament_id=tournament.pk, name=tournament.name, entries=tuple(entries))


def _key(tournament: Tournament, *parts: object) -> str:
    """A cache key for a part of the story that never changes once told. The tournament's
    creation time keeps two databases' rows of the same id apart (as `version_tag` does)."""
    stamp = int(tournament.created_at.timestamp() * 1_000_000) if tournament.created_at else 0
    return ":".join(str(part) for part in ("floordesk:story", tournament.pk, stamp, *parts))


# --- the clock --------------------------------------------------------------------------------


def _levels(tournament: Tournament) -> list[StoryEntry]:
    levels = tournament_levels(tournament)
    out: list[StoryEntry] = []
    shown: int | None = None
    for pk, action, detail, at in (
        AuditEvent.objects.filter(tournament=tournament, action__in=LEVEL_ACTIONS)
        .order_by("pk")
        .values_list("pk", "action", "detail", "created_at")
    ):
        index = detail.get("level")
        if not isinstance(index, int) or not 0 <= index < len(levels) or index == shown:
            continue
        shown = index
        level = levels[index]
        if level.is_break:
            out.append(_break(tournament, pk, level, at))
            continue
        number = clock.level_number(levels, index)
        started = "The tournament is under way: " if action == "clock_start" else ""
        out.append(
            StoryEntry(
                id=f"level-{pk}",
                kind="level",
                at=at,
                title=f"Level {number}: {level_text(level)}",
                text=f"{started}level {number} is in play, {level_text(level)}.",
                details={"level": number, "blinds": level_text(level)},
            )
        )
    return out


def _break(tournament: Tournament, pk: int, level: clock.Level, at: datetime) -> StoryEntry:
    # The ledger is append-only: the stacks at a past moment never change, so the leaders of a
    # break are worked out once, not on every rebuild of the story.
    key = _key(tournament, "break", pk)
    leaders = cache.get(key)
    if leaders is None:
        leaders = chip_leaders_at(tournament, at)
        cache.set(key, leaders, KEEP_SECONDS)
    names = ", ".join(f"{name} {chips:,}" for name, chips in leaders)
    return StoryEntry(
        id=f"break-{pk}",
        kind="break",
        at=at,
        title=f"{level_text(level)}: the chip leaders",
        text=f"On the break. Chip leaders: {names}." if leaders else "On the break.",
        details={"leaders": [{"name": name, "chips": chips} for name, chips in leaders]},
    )


def chip_leaders_at(tournament: Tournament, at: datetime) -> list[tuple[str, int]]:
    """The biggest stacks at a past moment, from the ledger's running balances: each entry's
    latest row written by then (two queries)."""
    latest = (
        ChipMove.objects.filter(tournament=tournament, created_at__lte=at)
        .values("entry")
        .annotate(last=Max("pk"))
        .order_by()
        .values_list("last", flat=True)
    )
    rows = (
        ChipMove.objects.filter(pk__in=list(latest), balance__gt=0)
        .order_by("-balance", "entry_id")
        .values_list("entry__player__name", "entry__number", "balance")[:LEADERS]
    )
    return [(_name(name, number), balance) for name, number, balance in rows]


# --- the field --------------------------------------------------------------------------------


def _name(name: str, number: int) -> str:
    return f"{name} #{number}" if number > 1 else name


class _Placed(NamedTuple):
    """An entry with its finishing place."""

    pk: int
    name: str
    number: int
    status: str
    place: int
    busted_at: datetime | None


def _eliminations(tournament: Tournament) -> list[StoryEntry]:
    rows = (
        Entry.objects.filter(tournament=tournament, finishing_place__isnull=False)
        .order_by("finishing_place", "pk")
        .values_list("pk", "player__name", "number", "status", "finishing_place", "busted_at")
    )
    placed = [
        _Placed(pk, name, number, status, place, busted_at)
        for pk, name, number, status, place, busted_at in rows
        if place is not None  # never: the filter says so, the column's type does not
    ]
    if not placed:
        return []
    paid = payouts_get(tournament, places=False)
    by = tournament_bounties(tournament).eliminated_by
    out: list[StoryEntry] = []
    for pk, name, number, status, place, busted_at in placed:
        if status != Entry.Status.BUSTED or busted_at is None:
            continue
        who = _name(name, number)
        prize = paid.prize_of(pk)
        knocked = by.get(pk, ())
        text = f"{who} is out in {_ordinal(place)} place"
        text += f", winning {prize:,.2f}" if prize else ""
        text += f", knocked out by {_and(knocked)}." if knocked else "."
        out.append(
            StoryEntry(
                id=f"out-{pk}",
                kind="elimination",
                at=busted_at,
                title=f"{who} out in {_ordinal(place)}",
                text=text,
                details={
                    "player": who,
                    "place": place,
                    "prize": f"{prize:.2f}" if prize is not None else None,
                    "eliminated_by": list(knocked),
                },
            )
        )
    out += _final_table(tournament, placed) + _winner(tournament, placed, paid.prize_of)
    return out


def _final_table(tournament: Tournament, placed: Sequence[_Placed]) -> list[StoryEntry]:
    """The field down to one table's seats, when it started bigger: at the bust that took it
    there (the last player out above the final table's places)."""
    if tournament.kind == Tournament.Kind.FLIGHT:
        return []  # a starting flight ends by bagging the stacks left, at no final table
    seats = tournament.seats_per_table
    field_size = Entry.objects.filter(tournament=tournament).exclude(
        status=Entry.Status.UNREGISTERED
    )
    if field_size.count() <= seats:
        return []
    bubble = [row for row in placed if row.place > seats and row.busted_at is not None]
    if not bubble:
        return []
    first = min(row.place for row in bubble)
    at = min(row.busted_at for row in bubble if row.place == first and row.busted_at is not None)
    # One query with OR, not a UNION: SQLite refuses a UNION of ordered querysets (the model's
    # default ordering), which `make run` serves from.
    at_final = field_size.filter(Q(finishing_place__lte=seats) | Q(status=Entry.Status.ACTIVE))
    names = sorted(
        {_name(name, number) for name, number in at_final.values_list("player__name", "number")}
    )
    return [
        StoryEntry(
            id=f"final-table-{tournament.pk}",
            kind="final_table",
            at=at,
            title="The final table",
            text=f"The final table is set: {', '.join(names)}.",
            details={"players": names},
        )
    ]


def _winner(
    tournament: Tournament, placed: Sequence[_Placed], prize_of: Callable[[int], Decimal | None]
) -> list[StoryEntry]:
    winners = [row for row in placed if row.place == 1 and row.status == Entry.Status.ACTIVE]
    ends = [row.busted_at for row in placed if row.busted_at is not None]
    if len(winners) != 1 or not ends or tournament.deal:
        return []
    pk, name, number = winners[0][:3]
    who, prize = _name(name, number), prize_of(pk)
    return [
        StoryEntry(
            id=f"winner-{pk}",
            kind="winner",
            at=max(ends),
            title=f"{who} wins {tournament.name}",
            text=f"{who} wins the tournament" + (f" and {prize:,.2f}." if prize else "."),
            details={"player": who, "prize": f"{prize:.2f}" if prize is not None else None},
        )
    ]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# --- the tablets' hands -----------------------------------------------------------------------


def _showdowns(tournament: Tournament) -> list[StoryEntry]:
    """The showdowns of the finished hands. A finished hand's entry (or its lack of one) is
    kept in the cache by the hand's id and version, so that a rebuild after each hand reads the
    logs of the hands not read before only, not every hand of the day."""
    versions = dict(
        Hand.objects.filter(table__tournament=tournament, status=Hand.Status.COMPLETE)
        .order_by("pk")
        .values_list("pk", "version")
    )
    keys = {pk: _key(tournament, "hand", pk, version) for pk, version in versions.items()}
    kept = cache.get_many(list(keys.values()))
    missing = [pk for pk, key in keys.items() if key not in kept]
    built = _showdowns_of(missing)
    cache.set_many({keys[pk]: (built.get(pk),) for pk in missing}, KEEP_SECONDS)
    entries = {pk: kept[keys[pk]][0] if pk not in missing else built.get(pk) for pk in keys}
    return [entry for entry in entries.values() if entry is not None]


def _showdowns_of(hand_ids: Sequence[int]) -> dict[int, StoryEntry]:
    if not hand_ids:
        return {}
    hands = list(
        Hand.objects.filter(pk__in=hand_ids)
        .select_related("table")
        .only("pk", "number", "table__number", "state", "ended_at", "table")
        .order_by("pk")
    )
    logs: dict[int, list[tuple[str, JsonObject]]] = defaultdict(list)
    for hand_id, kind, payload in (
        HandEvent.objects.filter(hand__in=hands)
        .order_by("hand_id", "seq")
        .values_list("hand_id", "kind", "payload")
    ):
        logs[hand_id].append((kind, payload))
    out: dict[int, StoryEntry] = {}
    for hand in hands:
        public = _public_sight(hand.table)
        log = [(kind, _actions(public(payload))) for kind, payload in logs[hand.pk]]
        entry = _showdown(hand, log)
        if entry is not None:
            out[hand.pk] = entry
    return out


def _public_sight(table: Table) -> Callable[[JsonObject], JsonObject]:
    """The gate's answer for a member of the public: payloads with every unshown card hidden.
    Refuses to go on if the gate ever let an anonymous caller see hole cards."""
    sight = card_sight(AnonymousUser(), table)
    if sight.hole_cards:  # pragma: no cover - the gate's own tests hold this
        raise RuntimeError("the card gate shows hole cards to the public")
    return sight.payload


def _actions(payload: JsonObject) -> list[JsonObject]:
    """The actions an event's payload holds (none for an undo, a reopening)."""
    actions = payload.get("actions", [])
    return [a for a in actions if isinstance(a, dict)] if isinstance(actions, list) else []


def _showdown(hand: Hand, log: list[tuple[str, list[JsonObject]]]) -> StoryEntry | None:
    """A finished hand's showdown, if a player showed: who showed what, the board, who won."""
    state = hand.state or {}
    players = state.get("players", [])
    shows: dict[int, list[str]] = {}
    # The entries still in force (an undo cancels the one before it; a reopening is none), read
    # as plain dicts: the hidden cards are "??", which no engine action is made of.
    in_force, _ = split_undone(
        [entry for entry in log if entry[0] != HandEvent.Kind.REOPEN],
        lambda entry: entry[0] == HandEvent.Kind.UNDO,
    )
    for _, actions in in_force:
        for action in actions:
            player, listed = action.get("player"), action.get("cards")
            if action.get("kind") != "show" or not isinstance(player, int):
                continue
            given = listed if isinstance(listed, list) else []
            cards = [str(card) for card in given if card != HIDDEN_CARD]
            if cards:
                shows[player] = cards
    if not shows or hand.ended_at is None:
        return None
    names = {i: p.get("name", "") or f"Seat {p.get('seat')}" for i, p in enumerate(players)}
    seat_names = {p.get("seat"): names[i] for i, p in enumerate(players)}
    board = [card for card in state.get("board") or [] if card and card != HIDDEN_CARD]
    won: dict[str, int] = defaultdict(int)
    for award in state.get("awards", []):
        for seat, share in zip(award.get("winners", []), award.get("shares", []), strict=False):
            won[seat_names.get(seat, f"Seat {seat}")] += share
    shown = [{"player": names.get(i, ""), "cards": cards} for i, cards in sorted(shows.items())]
    where = f"Table {hand.table.number}, hand {hand.number}"
    text = "; ".join(f"{s['player']} shows {' '.join(s['cards'])}" for s in shown)
    if board:
        text += f". Board: {' '.join(board)}"
    if won:
        text += ". " + _and([f"{name} wins {chips:,}" for name, chips in won.items()])
    return StoryEntry(
        id=f"hand-{hand.pk}",
        kind="showdown",
        at=hand.ended_at,
        title=f"{where}: showdown",
        text=text + ".",
        details={
            "table": hand.table.number,
            "hand": hand.number,
            "shown": shown,
            "board": board,
            "won": [{"player": name, "chips": chips} for name, chips in won.items()],
        },
    )
