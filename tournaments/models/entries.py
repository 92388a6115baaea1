"""Players, their entries in tournaments (chips, seat, place), the chip ledger and the knockouts."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models.events import Tournament
from tournaments.models.tables import Table


class Player(models.Model):
    """A person who plays, across every event and cash game of the room. Only the name (and the
    room's player number) is public; contact details stay on the director's pages."""

    name = models.CharField(max_length=80, unique=True)
    # The name folded for search (lower case, accents and spacing dropped: "José" -> "jose"),
    # written with the name by `tournaments.services.players`.
    search_name = models.CharField(max_length=80, db_index=True, default="", editable=False)
    number = models.CharField(
        max_length=20, blank=True, help_text="the room's player number or card, if it has one"
    )
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=30, blank=True)
    # Hidden from the search, the row kept (`services.archive`): a name typed by mistake.
    is_archived = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["number"], condition=~Q(number=""), name="unique_player_number"
            )
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """One buy-in of a player in a tournament: a re-entry is a new entry."""

    class Status(models.TextChoices):
        ACTIVE = "active"
        BUSTED = "busted"
        UNREGISTERED = "unregistered"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveSmallIntegerField(default=1, help_text="1 = first entry")
    status = models.CharField(max_length=14, choices=Status.choices, default=Status.ACTIVE)
    # The running total of the entry's chip ledger (ChipMove), written only by
    # tournaments.services.ledger, with where the latest figure came from and when.
    chips = models.PositiveIntegerField(default=0)
    chips_source = models.CharField(max_length=120, blank=True)
    chips_at = models.DateTimeField(null=True, blank=True)
    table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="entries"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The hand in progress the entry is dealt in (set when it starts, cleared when it ends): the
    # floor waits for it before changing the entry's chips or seat.
    live_hand = models.ForeignKey(
        "dealer.Hand", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # A move confirmed while the entry was in a hand: it takes effect when the hand ends.
    move_to_table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="incoming"
    )
    move_to_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    rebuys = models.PositiveSmallIntegerField(default=0)
    addon = models.BooleanField(default=False)
    late = models.BooleanField(default=False)
    busted_at = models.DateTimeField(null=True, blank=True)
    bust_stack = models.PositiveIntegerField(
        null=True, blank=True, help_text="stack at the start of the hand the entry busted on"
    )
    bust_group = models.PositiveIntegerField(
        null=True, blank=True, help_text="entries busted together (same hand) share a group"
    )
    bust_round = models.PositiveIntegerField(
        null=True, blank=True, help_text="the hand-for-hand hand the entry busted on"
    )
    finishing_place = models.PositiveIntegerField(null=True, blank=True)
    prize = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    # A later day's entry carries a flight's survivor (its bagged chips); an entry paid with a
    # satellite's seat names the satellite entry that won it.
    carried_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="carried_to"
    )
    ticket_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="tickets"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "player__name", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(status="active"),
                name="one_active_entry_per_player",
            ),
            models.UniqueConstraint(
                fields=["tournament", "player", "number"], name="unique_entry_number"
            ),
            models.UniqueConstraint(
                fields=["table", "seat"], condition=Q(status="active"), name="one_entry_per_seat"
            ),
            models.UniqueConstraint(
                fields=["move_to_table", "move_to_seat"],
                condition=Q(status="active", move_to_table__isnull=False),
                name="one_pending_move_per_seat",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status", "-chips"], name="entry_standings")]

    def __str__(self) -> str:
        return f"{self.player.name} #{self.number}" if self.number > 1 else self.player.name


class ChipMove(models.Model):
    """One row of an entry's chip ledger: append-only, never updated or deleted.

    `delta` is the change, `balance` the entry's chips after it; an entry's chips are the
    running total of its rows. Chips are issued (buy-in, rebuy, add-on, bonus), removed by
    colour-ups, moved between players by hands (each hand's rows sum to zero), and set right by
    the floor (counts, corrections, busts and their undo) with who and why.
    """

    class Kind(models.TextChoices):
        BUY_IN = "buy_in", "buy-in"
        REBUY = "rebuy", "rebuy"
        ADDON = "addon", "add-on"
        BONUS = "bonus", "bonus"
        HAND = "hand", "hand"
        HAND_REVERSED = "hand_reversed", "hand reopened"
        COUNT = "count", "count"
        CORRECTION = "correction", "correction"
        COLOUR_UP = "colour_up", "colour-up"
        BUST = "bust", "bust"
        UNBUST = "unbust", "bust undone"
        # A desk bust's chips moved to its eliminators (KO-4), or taken back when it is undone.
        KNOCKOUT = "knockout", "chips from a knockout"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chip_moves")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="chip_moves")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    delta = models.BigIntegerField()
    balance = models.BigIntegerField(help_text="the entry's chips after this row")
    # A hand's rows name it (the id, and its table and number to say where a count came from).
    hand_id = models.PositiveBigIntegerField(null=True, blank=True)
    table_number = models.PositiveIntegerField(null=True, blank=True)
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True)
    # A knockout row names the busted entry whose chips it moves (KO-4).
    from_entry = models.ForeignKey(
        "Entry", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(condition=Q(balance__gte=0), name="chip_move_balance"),
            models.CheckConstraint(
                condition=Q(kind="knockout", from_entry__isnull=False)
                | (~Q(kind="knockout") & Q(from_entry__isnull=True)),
                name="chip_move_knockout_names_its_bust",
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "kind"], name="chip_move_kind"),
            models.Index(fields=["entry", "id"], name="chip_move_entry"),
            models.Index(fields=["hand_id"], name="chip_move_hand"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} {self.kind} {self.delta:+d} -> {self.balance}"


class Knockout(models.Model):
    """Who eliminated whom: one row per eliminator of a busted entry, with its share (the chips
    it won of the pot that took the busted player's last chips, or 1 each when the desk names
    the eliminators). Written by the bust services, removed with the bust it belongs to; the
    bounties are worked out from these rows in order (`tournaments.selectors.bounties`)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="knockouts")
    busted = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="eliminated_by")
    eliminator = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="knockouts")
    share = models.PositiveBigIntegerField(default=1)
    bust_group = models.PositiveIntegerField()
    hand_id = models.PositiveBigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["busted", "eliminator"], name="one_knockout_row"),
            models.CheckConstraint(condition=Q(share__gt=0), name="knockout_share"),
        ]

    def __str__(self) -> str:
        return f"{self.eliminator_id} knocked out {self.busted_id}"
