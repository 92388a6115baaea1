"""What the players pay: the money settings (buy-in, fee, rebuy and add-on prices, bounty) lock
once an entry has paid, and a wrong price is corrected by an audited repricing that names what
each entry paid and what it pays now (issue 26).

The prize pool is worked out from the prices and the counts (`tournaments.selectors.prizes`), so
a new price changes what every entry put in: never as a side effect of the settings page, only
through `tournament_reprice`, which says so entry by entry in the audit log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.db.models import Q, QuerySet

from common.actors import Actor
from common.errors import FloorConflict, FloorInvalid
from tournaments.models import Entry, Knockout, Tournament
from tournaments.selectors.prizes import prize_table
from tournaments.services.audit import audit_record
from tournaments.services.locks import lock_tournament
from tournaments.services.places import places_reprice

# The money settings, in the words the director reads.
MONEY_SETTINGS = {
    "buy_in": "buy-in",
    "fee": "fee",
    "rebuy_price": "rebuy price",
    "addon_price": "add-on price",
    "bounty": "bounty",
}


def paid_entries(tournament: Tournament) -> QuerySet[Entry]:
    """The entries that paid the tournament's prices: its own and, for a multi-flight event,
    its flights' and days' (unregistered entries were paid back)."""
    return Entry.objects.filter(
        Q(tournament=tournament) | Q(tournament__parent=tournament)
    ).exclude(status=Entry.Status.UNREGISTERED)


def money_locked(tournament: Tournament) -> bool:
    """Whether the money settings are locked: an entry has paid them."""
    return paid_entries(tournament).exists()


def _words(names: Iterable[str]) -> str:
    return " and ".join(MONEY_SETTINGS[name] for name in MONEY_SETTINGS if name in set(names))


def check_money_settings(tournament: Tournament, changed: Iterable[str]) -> None:
    """Refuse a new price once an entry has paid (409 `money_locked`)."""
    wanted = [name for name in changed if name in MONEY_SETTINGS]
    if not wanted:
        return
    count = paid_entries(tournament).count()
    if count:
        entries = "1 entry has" if count == 1 else f"{count} entries have"
        raise FloorConflict(
            "money_locked",
            f"The {_words(wanted)} cannot change: {entries} paid it, and the prize pool is "
            "what they paid. To correct a mistake, use Reprice: it names each entry's change "
            "in the audit log.",
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class EntryPrice:
    """What one entry paid under the old prices, and what it pays under the new ones."""

    entry_id: int
    name: str
    paid: Decimal
    now: Decimal

    @property
    def line(self) -> str:
        return f"{self.name} (entry {self.entry_id}): {self.paid:.2f} -> {self.now:.2f}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Repricing:
    """A repricing's answer: the prices changed (old, new), each entry's change, the pool."""

    changes: dict[str, tuple[Decimal, Decimal]]
    entries: tuple[EntryPrice, ...]
    pool_before: Decimal
    pool_after: Decimal


def entry_paid(entry: Entry, prices: Mapping[str, Decimal]) -> Decimal:
    """What an entry pays at these prices: buy-in, fee and bounty, each rebuy, the add-on."""
    return (
        prices["buy_in"]
        + prices["fee"]
        + prices["bounty"]
        + entry.rebuys * prices["rebuy_price"]
        + (prices["addon_price"] if entry.addon else Decimal(0))
    )


def _check_reprice(tournament: Tournament, wanted: Mapping[str, Decimal], reason: str) -> None:
    if not reason.strip():
        raise FloorInvalid("reason_required", "Say why the prices are corrected.")
    for name, value in wanted.items():
        if value < 0:
            raise FloorInvalid("bad_amount", f"The {MONEY_SETTINGS[name]} cannot be negative.")
    if tournament.status == Tournament.Status.FINISHED:
        raise FloorConflict(
            "tournament_finished", "The tournament is finished: its prizes are final."
        )
    if tournament.kind in (Tournament.Kind.FLIGHT, Tournament.Kind.DAY):
        raise FloorConflict(
            "reprice_the_event", "A flight pays its event's prices: reprice the event itself."
        )
    if "bounty" in wanted and Knockout.objects.filter(tournament=tournament).exists():
        raise FloorConflict(
            "bounties_won",
            "Bounties have been won at the old price: the bounty can no longer be corrected.",
        )


@transaction.atomic
def tournament_reprice(
    *, tournament: Tournament, reason: str, actor: Actor = None, **prices: Decimal
) -> Repricing:
    """Correct the money settings of an event entries have paid: every entry is counted at the
    new prices, and the audit log names each entry's change (old -> new). Only the prices that
    differ are taken; none differing is refused (400 `nothing_to_reprice`)."""
    tournament = lock_tournament(tournament)
    unknown = set(prices) - set(MONEY_SETTINGS)
    if unknown:
        raise FloorInvalid("bad_field", f"Not a price: {', '.join(sorted(unknown))}.")
    old = {name: Decimal(getattr(tournament, name)) for name in MONEY_SETTINGS}
    wanted = {k: Decimal(str(v)) for k, v in prices.items() if Decimal(str(v)) != old[k]}
    if not wanted:
        raise FloorInvalid("nothing_to_reprice", "The prices given are the prices already set.")
    _check_reprice(tournament, wanted, reason)
    new = old | wanted
    pool_before = sum(prize_table(tournament), Decimal(0))
    entries = tuple(
        EntryPrice(
            entry_id=entry.pk,
            name=str(entry),
            paid=entry_paid(entry, old),
            now=entry_paid(entry, new),
        )
        for entry in paid_entries(tournament).select_related("player").order_by("pk")
    )
    Tournament.objects.filter(Q(pk=tournament.pk) | Q(parent=tournament)).update(**wanted)
    tournament.refresh_from_db()
    if tournament.kind == Tournament.Kind.SINGLE:
        places_reprice(tournament)  # the prizes of the players out follow the corrected pool
    pool_after = sum(prize_table(tournament), Decimal(0))
    answer = Repricing(
        changes={name: (old[name], value) for name, value in wanted.items()},
        entries=entries,
        pool_before=pool_before,
        pool_after=pool_after,
    )
    audit_record(
        tournament=tournament,
        actor=actor,
        action="tournament_reprice",
        reason=reason.strip(),
        changes=[
            f"{MONEY_SETTINGS[name]}: {before:.2f} -> {after:.2f}"
            for name, (before, after) in answer.changes.items()
        ],
        prize_pool=f"{pool_before:.2f} -> {pool_after:.2f}",
        entries=[price.line for price in entries],
    )
    return answer
