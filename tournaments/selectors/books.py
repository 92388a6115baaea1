"""The chip ledger's books: the chips in play, the sums by kind, and the replay that proves they
balance (`chips_check`): each entry's rows add up to its chips, each hand's rows add up to
nothing (a hand moves chips, it makes none), busted entries hold none, the chips a desk bust
moved to its eliminators are the chips it took (KO-4), and the chips in play are the chips
issued, less colour-ups, plus the floor's recorded corrections.

Reads only: the rows are written by `tournaments.services.ledger`. The groups of kinds are named
here once, for the reads and for the services that ask the ledger (a hand is not reopened under
a count made since: `FLOOR_COUNTS`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Max, Q, Sum

from tournaments.models import ChipMove, Entry, Tournament

Kind = ChipMove.Kind

# Chips that enter the tournament, and chips a colour-up or chip race takes out (or rounds in).
ISSUED = (Kind.BUY_IN, Kind.REBUY, Kind.ADDON, Kind.BONUS)
REMOVED = (Kind.COLOUR_UP,)
# The floor setting a stack right (with who and why); chips that went where nobody recorded.
FLOOR = (Kind.COUNT, Kind.CORRECTION, Kind.BUST, Kind.UNBUST)
# The floor's counts: each says what a stack is now (a hand before it is part of the figure).
FLOOR_COUNTS = (Kind.COUNT, Kind.CORRECTION, Kind.COLOUR_UP)
# Chips moved between players by hands: each hand's rows add up to zero.
HANDS = (Kind.HAND, Kind.HAND_REVERSED)
# A desk bust's chips moved to its eliminators (KO-4): each bust's rows add up to what it took.
KNOCKOUTS = (Kind.KNOCKOUT,)


@dataclass(frozen=True, slots=True, kw_only=True)
class Books:
    """A tournament's chips by where they came from. `in_play` is what exists at the tables
    (issued less colour-ups): the figure the clock and the phone pages show; `stacks` is what
    the entries' counts add up to, which differs from it by the floor's corrections."""

    issued: int
    removed: int
    corrections: int
    hands: int
    stacks: int
    knockouts: int = 0  # chips desk busts moved to their eliminators

    @property
    def in_play(self) -> int:
        return self.issued + self.removed


def chips_in_play(tournament: Tournament) -> int:
    """Chips issued less colour-ups: the chips in play of a tournament or a flight, as its
    clock, its standings, the event page, the API and the count check all say it (one figure,
    `chips_in_play_of`). One sum over the rows that issue or remove chips (on the
    tournament-and-kind index), however many hands have been played: the public pages ask for
    it on every poll."""
    return chips_in_play_of([tournament]).get(tournament.pk, 0)


def chips_in_play_of(tournaments: Iterable[Tournament]) -> dict[int, int]:
    """The chips in play of each tournament (by id; none issued: absent), in one query: the
    event page asks it of every flight and day. Not the sum of the counts: a bust typed on the
    desk takes a player's last count off the tables although the chips went to someone."""
    rows = (
        ChipMove.objects.filter(tournament__in=list(tournaments), kind__in=ISSUED + REMOVED)
        .values("tournament")
        .annotate(s=Sum("delta"))
        .order_by()
        .values_list("tournament", "s")
    )
    return {pk: int(total or 0) for pk, total in rows}


def tournament_books(tournament: Tournament) -> Books:
    """The ledger's sums by kind, and the entries' chips (two queries)."""
    sums = dict(
        ChipMove.objects.filter(tournament=tournament)
        .values_list("kind")
        .annotate(total=Sum("delta"))
        .values_list("kind", "total")
    )
    stacks = (
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).aggregate(
            s=Sum("chips")
        )["s"]
        or 0
    )

    def total(kinds: tuple[str, ...]) -> int:
        return int(sum(sums.get(k, 0) or 0 for k in kinds))

    return Books(
        issued=total(ISSUED),
        removed=total(REMOVED),
        corrections=total(FLOOR),
        hands=total(HANDS),
        stacks=int(stacks),
        knockouts=total(KNOCKOUTS),
    )


def chips_check(tournament: Tournament | None = None) -> list[str]:
    """Replay the ledgers (of one tournament, or all) and say what does not add up (an empty
    list when the books balance)."""
    tournaments = [tournament] if tournament else list(Tournament.objects.order_by("pk"))
    problems: list[str] = []
    for event in tournaments:
        problems += _check_tournament(event)
    return problems


def _check_tournament(tournament: Tournament) -> list[str]:
    problems: list[str] = []
    running: dict[int, int] = defaultdict(int)
    by_hand: dict[tuple[int, str], int] = defaultdict(int)
    for pk, entry_id, kind, delta, balance, hand_id in (
        ChipMove.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("pk", "entry_id", "kind", "delta", "balance", "hand_id")
        .iterator()
    ):
        running[entry_id] += delta
        if running[entry_id] != balance:
            problems.append(
                f"{tournament}: ledger row {pk} says entry {entry_id} holds {balance}, "
                f"its rows add up to {running[entry_id]}"
            )
            running[entry_id] = balance  # report each break once
        if kind in HANDS and hand_id is not None:
            by_hand[(hand_id, kind)] += delta
    for (hand_id, kind), net in sorted(by_hand.items()):
        if net and kind == Kind.HAND_REVERSED:
            problems.append(f"{tournament}: reopening hand {hand_id} moved {net:+d} chips")
    hand_totals: dict[int, int] = defaultdict(int)
    for (hand_id, _), net in by_hand.items():
        hand_totals[hand_id] += net
    for hand_id, net in sorted(hand_totals.items()):
        if net:
            problems.append(f"{tournament}: hand {hand_id} made {net:+d} chips")
    for pk, name, status, chips in Entry.objects.filter(tournament=tournament).values_list(
        "pk", "player__name", "status", "chips"
    ):
        if chips != running.get(pk, 0):
            problems.append(
                f"{tournament}: {name} (entry {pk}) has {chips} chips, "
                f"the ledger {running.get(pk, 0)}"
            )
        if status != Entry.Status.ACTIVE and chips:
            problems.append(f"{tournament}: {name} (entry {pk}) is {status} with {chips} chips")
    books = tournament_books(tournament)
    if chips_in_play(tournament) != books.in_play:  # the pages' quick sum against the books
        problems.append(
            f"{tournament}: chips in play {chips_in_play(tournament)} != the books' {books.in_play}"
        )
    total = books.issued + books.removed + books.corrections + books.hands + books.knockouts
    if books.stacks != total:
        problems.append(
            f"{tournament}: stacks {books.stacks} != issued {books.issued} "
            f"+ colour-ups {books.removed} + corrections {books.corrections} "
            f"+ hands {books.hands} + knockout chips {books.knockouts}"
        )
    return problems + _check_knockout_chips(tournament)


def _check_knockout_chips(tournament: Tournament) -> list[str]:
    """The chips moved from each busted entry to its eliminators (KO-4) are all the chips its
    latest desk bust took, or none (a bust naming nobody; an undone bust, whose move was taken
    back)."""
    taken: dict[int, int] = {}  # entry -> chips its latest desk bust took (0 once undone)
    moved: dict[int, int] = defaultdict(int)
    for entry_id, kind, delta, hand_id, from_entry in (
        ChipMove.objects.filter(
            tournament=tournament, kind__in=(Kind.BUST, Kind.UNBUST, Kind.KNOCKOUT)
        )
        .order_by("pk")
        .values_list("entry_id", "kind", "delta", "hand_id", "from_entry_id")
    ):
        if kind == Kind.KNOCKOUT:
            moved[from_entry] += delta
        elif kind == Kind.UNBUST:
            taken[entry_id] = 0
        elif hand_id is None:
            taken[entry_id] = -delta
    return [
        f"{tournament}: entry {pk}'s bust took {taken.get(pk, 0)} chips, "
        f"{net} went to the players who knocked them out"
        for pk, net in sorted(moved.items())
        if net not in (0, taken.get(pk, 0))
    ]


def stacks_estimated(tournament: Tournament) -> dict[int, str]:
    """The stacks that are estimates: the entries given chips by a desk bust (KO-4) and not
    counted since, each with the busted player (by name) whose chips they got last. One
    query on the ledger's kind index, and one more only when there are estimates."""
    latest = (
        ChipMove.objects.filter(tournament=tournament, kind__in=(Kind.KNOCKOUT, *FLOOR_COUNTS))
        .values("entry")
        .annotate(
            moved=Max("pk", filter=Q(kind=Kind.KNOCKOUT, delta__gt=0)),
            counted=Max("pk", filter=Q(kind__in=FLOOR_COUNTS)),
        )
        .filter(moved__isnull=False)
        .order_by()
        .values_list("moved", "counted")
    )
    rows = [moved for moved, counted in latest if counted is None or counted < moved]
    if not rows:
        return {}
    return {
        entry_id: name if number == 1 else f"{name} #{number}"
        for entry_id, name, number in ChipMove.objects.filter(pk__in=rows).values_list(
            "entry_id", "from_entry__player__name", "from_entry__number"
        )
    }
