"""Bounties, worked out from who eliminated whom: never stored, so an undone bust or a reopened
hand (which remove their `Knockout` rows) changes them with nothing else to put right.

The `Knockout` rows are replayed in the order they were written (KO-3):

- a fixed bounty: each knockout pays the bounty to the eliminators, split by their shares;
- a progressive knockout (PKO): every entry starts with the bounty on its head; knocking a
  player out wins their head, half in cash and half onto the eliminators' own heads, both
  split by the shares;
- at the end, the players left (the winner, or those in an accepted deal) collect their own
  heads.

Money is rounded down to the cent; the cents left over go to the first eliminator in order (the
one who won the odd chip, or the first the desk named). Two queries whatever the field's size:
the knockouts with names, and the players who ended the event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import ROUND_DOWN, Decimal
from typing import NamedTuple

from tournaments.models import Entry, Knockout, Tournament
from tournaments.selectors.versions import cached

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


@dataclass(frozen=True, slots=True, kw_only=True)
class KnockoutRow:
    """One eliminator of one busted entry, with what the knockout paid them."""

    busted_id: int
    busted: str  # the busted player's name, "#2" added for a re-entry
    eliminator_id: int
    eliminator: str
    share: int  # chips won of the busting pot, or 1 for each player the desk named
    cash: Decimal  # the bounty paid in cash for this knockout
    onto_head: Decimal  # PKO: what went onto the eliminator's own head
    bust_group: int
    hand_id: int | None
    created_at: datetime


@dataclass(slots=True, kw_only=True)
class EntryBounty:
    """An entry's bounties: the bounty on its head now (0 once it is out or has collected it),
    the cash it has won (knockouts, and its own head at the end), whom it knocked out."""

    entry_id: int
    name: str = ""  # with "#2" for a re-entry
    head: Decimal
    won: Decimal = ZERO
    collected: Decimal = ZERO  # its own head, collected at the end (part of `won`)
    knocked_out: list[str] = field(default_factory=list)

    @property
    def knockouts(self) -> int:
        return len(self.knocked_out)


@dataclass(frozen=True, slots=True, kw_only=True)
class Bounties:
    kind: str  # Tournament.Bounty
    bounty: Decimal  # on each entry
    knockouts: tuple[KnockoutRow, ...]
    entries: dict[int, EntryBounty]  # the entries knockouts or the end touched
    eliminated_by: dict[int, tuple[str, ...]]  # busted entry -> its eliminators' names

    @property
    def active(self) -> bool:
        """Whether the event pays bounties at all."""
        return self.kind != Tournament.Bounty.NONE

    @property
    def progressive(self) -> bool:
        return self.kind == Tournament.Bounty.PROGRESSIVE

    @property
    def paid(self) -> Decimal:
        """The bounty cash won so far, heads collected at the end included."""
        return sum((e.won for e in self.entries.values()), ZERO)

    def of(self, entry_id: int, *, in_play: bool) -> EntryBounty:
        """An entry's bounties; one no knockout touched has the starting bounty on its head
        while it is in play (`in_play`), nothing once out."""
        known = self.entries.get(entry_id)
        if known is not None:
            return known
        return EntryBounty(entry_id=entry_id, head=self.bounty if in_play else ZERO)


def split_money(amount: Decimal, shares: Sequence[int]) -> list[Decimal]:
    """`amount` split in proportion to `shares`, each part rounded down to the cent, the cents
    left over to the first share (KO-3)."""
    if len(shares) == 1:  # the common case: one eliminator takes it all
        return [amount]
    total = sum(shares)
    parts = [(amount * s / total).quantize(CENT, rounding=ROUND_DOWN) for s in shares]
    parts[0] += amount - sum(parts, ZERO)
    return parts


def _name(name: str, number: int) -> str:
    return f"{name} #{number}" if number > 1 else name


class _Row(NamedTuple):
    busted_id: int
    busted_name: str
    busted_number: int
    eliminator_id: int
    eliminator_name: str
    eliminator_number: int
    share: int
    bust_group: int
    hand_id: int | None
    created_at: datetime


_ROW_FIELDS = (
    "busted_id",
    "busted__player__name",
    "busted__number",
    "eliminator_id",
    "eliminator__player__name",
    "eliminator__number",
    "share",
    "bust_group",
    "hand_id",
    "created_at",
)


def tournament_bounties(tournament: Tournament) -> Bounties:
    """Who eliminated whom with what it paid, and each entry's head and bounties won (KO-3).
    An event without bounties still lists who eliminated whom, with nothing paid."""
    kind = tournament.bounty_kind
    bounty = (
        ZERO if kind == Tournament.Bounty.NONE else Decimal(str(tournament.bounty)).quantize(CENT)
    )
    by_busted: dict[int, list[_Row]] = {}
    for values in (
        Knockout.objects.filter(tournament=tournament).order_by("pk").values_list(*_ROW_FIELDS)
    ):
        row = _Row(*values)
        by_busted.setdefault(row.busted_id, []).append(row)
    book = _Book(bounty=bounty)
    progressive = kind == Tournament.Bounty.PROGRESSIVE
    out: list[KnockoutRow] = []
    for busted_id, rows in by_busted.items():
        out.extend(book.knock_out(busted_id, rows, progressive=progressive))
    if kind != Tournament.Bounty.NONE:
        for pk, name, number in Entry.objects.filter(
            tournament=tournament, status=Entry.Status.ACTIVE, finishing_place__isnull=False
        ).values_list("pk", "player__name", "number"):
            book.entry(pk, _name(name, number))
            book.collect_own_head(pk)
    eliminated_by: dict[int, tuple[str, ...]] = {}
    for knockout in out:
        names = eliminated_by.get(knockout.busted_id, ())
        eliminated_by[knockout.busted_id] = (*names, knockout.eliminator)
    return Bounties(
        kind=kind,
        bounty=bounty,
        knockouts=tuple(out),
        entries=book.entries,
        eliminated_by=eliminated_by,
    )


@dataclass(slots=True, kw_only=True)
class _Book:
    """The running bounties while the knockouts are replayed."""

    bounty: Decimal
    entries: dict[int, EntryBounty] = field(default_factory=dict)

    def entry(self, pk: int, name: str) -> EntryBounty:
        if pk not in self.entries:
            self.entries[pk] = EntryBounty(entry_id=pk, name=name, head=self.bounty)
        return self.entries[pk]

    def knock_out(
        self, busted_id: int, rows: Sequence[_Row], *, progressive: bool
    ) -> list[KnockoutRow]:
        """Pay the busted entry's bounty to its eliminators (KO-3): its head leaves it."""
        first = rows[0]
        busted = self.entry(busted_id, _name(first.busted_name, first.busted_number))
        head = busted.head if progressive else self.bounty
        busted.head = ZERO
        cash_total = (head / 2).quantize(CENT, rounding=ROUND_DOWN) if progressive else head
        shares = [row.share for row in rows]
        cash = split_money(cash_total, shares)
        onto = split_money(head - cash_total, shares)
        paid: list[KnockoutRow] = []
        for row, in_cash, on_head in zip(rows, cash, onto, strict=True):
            eliminator = _name(row.eliminator_name, row.eliminator_number)
            winner = self.entry(row.eliminator_id, eliminator)
            winner.won += in_cash
            winner.head += on_head
            winner.knocked_out.append(busted.name)
            paid.append(
                KnockoutRow(
                    busted_id=busted_id,
                    busted=busted.name,
                    eliminator_id=row.eliminator_id,
                    eliminator=eliminator,
                    share=row.share,
                    cash=in_cash,
                    onto_head=on_head,
                    bust_group=row.bust_group,
                    hand_id=row.hand_id,
                    created_at=row.created_at,
                )
            )
        return paid

    def collect_own_head(self, pk: int) -> None:
        """A player who ended the event (the winner, or in a deal) takes their own head."""
        player = self.entries[pk]
        player.collected, player.won, player.head = player.head, player.won + player.head, ZERO


def event_bounties(tournament: Tournament) -> Bounties | None:
    """The bounties of an event that pays them; None (and no query) for one that does not."""
    if tournament.bounty_kind == Tournament.Bounty.NONE:
        return None
    # Kept under the tournament's version (every bust, undo and reopened hand moves it): a big
    # field's phones and screens share one replay of the knockouts per change.
    return cached(tournament, "bounties", lambda: tournament_bounties(tournament))


def bounty_columns(tournament: Tournament) -> tuple[str, ...]:
    """The results export's bounty columns: knockouts and bounty cash won in an event with
    bounties, and the head of each player still in for a progressive one."""
    if tournament.bounty_kind == Tournament.Bounty.NONE:
        return ()
    if tournament.bounty_kind == Tournament.Bounty.PROGRESSIVE:
        return ("knockouts", "bounty_won", "head")
    return ("knockouts", "bounty_won")


def bounty_cells(bounties: Bounties, entry_id: int, *, in_play: bool) -> tuple[object, ...]:
    """An entry's values for `bounty_columns` (the head left blank once the player is out)."""
    entry = bounties.of(entry_id, in_play=in_play)
    cells: tuple[object, ...] = (entry.knockouts, entry.won)
    if bounties.progressive:
        cells += (entry.head if in_play and entry.head else None,)
    return cells
