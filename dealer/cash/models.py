"""The cash floor's records: who sits where with what chips, the games and their waiting lists,
the chips' ledger, and the time the house collects.

Models hold fields, constraints and small derived properties only. Every write goes through the
cash services (`dealer.cash.seats.services`, `dealer.cash.takings.services`,
`dealer.cash.games.services`, `dealer.cash.games.waitlist`); a seat's chips are written by the
ledger's one service only (`dealer.cash.ledger`). The tables themselves
(`tournaments.models.Table`) are shared with the tournaments: a cash table is a table without a
tournament.

These models lived in the `tournaments` app until issue 25; the move kept their rows
(`dealer/cash/migrations/0001_moved.py`, `tournaments/migrations/0011_cash_models_moved.py`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from tournaments.models import Player, Table, Tournament

# The house's takes from a hand's pots: ledger rows of no seat.
HOUSE_KINDS = ("rake", "rake_reversed", "drop", "drop_reversed")


class CashSeat(models.Model):
    """A player seated at a cash table, with what they owe between hands (RULES.md 2-4).

    The flags are the engine's `CashSeat`: `new` (owes the entry), the blinds missed while
    sitting out, waiting for the button to pass (S0 after a missed big blind, or the entry choice
    "let the button pass"), waiting for the big blind, and W17's one skipped button.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="cash_seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="cash_seats")
    chips = models.PositiveIntegerField(default=0)
    bought_in = models.PositiveIntegerField(default=0, help_text="every buy-in and top-up")
    away = models.BooleanField(default=False, help_text="sitting out")
    new = models.BooleanField(default=True)
    missed_small = models.BooleanField(default=False)
    missed_big = models.BooleanField(default=False)
    wait_button = models.BooleanField(default=False)
    wait_big_blind = models.BooleanField(default=False)
    skip_button = models.BooleanField(default=False)
    seated_at = models.DateTimeField(auto_now_add=True)
    away_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="one_player_per_cash_seat"),
            models.UniqueConstraint(fields=["table", "player"], name="one_cash_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat}: {self.player.name}"

    @property
    def owes(self) -> bool:
        return self.new or self.missed_small or self.missed_big


class WaitingListEntry(models.Model):
    """A player waiting for a seat, first come first served: on a game's list (any of its
    tables), or on one table's list. A called player has a seat held for them until
    `hold_until` (the game's hold time), then the next player is called."""

    class Status(models.TextChoices):
        WAITING = "waiting"
        CALLED = "called"
        SEATED = "seated"
        NO_SHOW = "no_show"
        REMOVED = "removed"

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="waiting_list", null=True, blank=True
    )
    game = models.ForeignKey(
        "CashGame", on_delete=models.CASCADE, related_name="waiting_list", null=True, blank=True
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # A phone's join: the name as typed, which the phone's place shows (the player's name as the
    # room spells it would tell a stranger that the room knows them). Blank from the desk.
    name_typed = models.CharField(max_length=80, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    # What the player types on the public list page to see their place (no account needed).
    code = models.CharField(max_length=8, blank=True, db_index=True)
    called_at = models.DateTimeField(null=True, blank=True)
    call_table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    call_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    hold_until = models.DateTimeField(null=True, blank=True)
    # The list's order: when the player joined, or, for the players of a broken game put at the
    # top of a list, a moment just ahead of everyone waiting then. `created_at` stays when the
    # entry was really made (the desk's "since").
    queued_at = models.DateTimeField(default=timezone.now, db_index=True)
    # A player of a closed or broken table waiting with the stack they had (`move_out` in the
    # ledger, no cash-out): seated with it again (`move_in`), or cashed out if they leave the
    # list. `carried_sitting` is the seat (CashSeat id) the chips left.
    carried_chips = models.PositiveBigIntegerField(default=0)
    carried_from = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    carried_sitting = models.PositiveBigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["queued_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "player"],
                condition=Q(status="waiting"),
                name="one_waiting_entry_per_player",
            ),
            # No such constraint on a game's list: a phone's join is taken whoever the name is
            # (a refusal would tell strangers who waits), so one player may be on it twice; the
            # desk's joins are refused by `dealer.cash.games.waitlist.game_waitlist_join`.
        ]

    def __str__(self) -> str:
        return f"{self.table or self.game}: {self.player.name} ({self.status})"


class CashGame(models.Model):
    """A game and stakes the room spreads ("1/2 NL", "2/5 PL 6+"): its tables deal it and its
    waiting list waits for a seat at any of them."""

    name = models.CharField(max_length=40, unique=True)
    game = models.CharField(
        max_length=10, choices=Tournament.Game.choices, default=Tournament.Game.HOLDEM
    )
    structure = models.CharField(
        max_length=12, choices=Tournament.Structure.choices, default=Tournament.Structure.NO_LIMIT
    )
    small_blind = models.PositiveIntegerField(default=1)
    big_blind = models.PositiveIntegerField(default=2)
    hold_seconds = models.PositiveIntegerField(
        default=180, help_text="how long a called player's seat is held before the next is called"
    )
    # The rules every table dealing the game takes, the rake among them (RULES.md 6.5); a game
    # made before issue 25 took its first table's (`cash.0004_game_rules`).
    rule_profile = models.CharField(max_length=30, default="casino_cash")
    rule_overrides = models.JSONField(default=dict, blank=True)
    is_open = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["big_blind", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(big_blind__gt=0, small_blind__lte=F("big_blind")),
                name="cash_game_stakes",
            )
        ]

    def __str__(self) -> str:
        return self.name


class CashChips(models.Model):
    """One row of the cash floor's chip ledger: append-only, never updated or deleted.

    A row with a `sitting` (a `CashSeat`'s id, kept after the player leaves) changes that
    seat's chips by `delta`, and `balance` is the seat's chips after it: a seat's chips are the
    running total of its rows. Chips come over the rail (buy-in, top-up, or the opening balance
    when the ledger began), move between seats through hands (`hand`: the seat's result, net of
    what the house took), leave to the house (`time`), go with the player (`cash_out`), or to
    another table of the same game (`move_out`, then `move_in` there), and are set right by the
    floor (`correction`, with who and why).

    A row without a sitting is the house's take from a hand's pots: `rake`, or the promotional
    and jackpot `drop`; its `delta` is the chips taken (positive). A reopened hand's rows are
    reversed by rows of the `_reversed` kinds, never deleted (`dealer.cash.ledger`).

    What the cage recorded before the ledger began (buy-ins, top-ups, cash-outs, time, each
    hand's rake) was kept as rows marked `before_ledger`, of no sitting (`cash.0003_chip_ledger`):
    the cage still reports those days; the books (`check_chips`) start from each seat's opening
    row and leave them out.
    """

    class Kind(models.TextChoices):
        OPENING = "opening", "at the seat when the ledger began"
        BUY_IN = "buy_in", "buy-in"
        TOP_UP = "top_up", "top-up"
        HAND = "hand", "hand"
        HAND_REVERSED = "hand_reversed", "hand reopened"
        RAKE = "rake", "rake"
        RAKE_REVERSED = "rake_reversed", "rake returned (hand reopened)"
        DROP = "drop", "promotional drop"
        DROP_REVERSED = "drop_reversed", "promotional drop returned (hand reopened)"
        TIME = "time", "time"
        MOVE_OUT = "move_out", "moved to another table"
        MOVE_IN = "move_in", "moved from another table"
        CASH_OUT = "cash_out", "cash-out"
        CORRECTION = "correction", "correction"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="cash_chips")
    sitting = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="the CashSeat's id (kept after the player leaves)"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    delta = models.BigIntegerField()
    balance = models.BigIntegerField(
        null=True, blank=True, help_text="the seat's chips after this row (seat rows only)"
    )
    hand = models.ForeignKey(
        "dealer.Hand", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # A move's other table: where the chips went (`move_out`) or came from (`move_in`).
    other_table = models.ForeignKey(
        Table, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    before_ledger = models.BooleanField(
        default=False, help_text="history kept from before the ledger: in the cage, not the books"
    )

    class Meta:
        ordering = ["pk"]
        verbose_name_plural = "cash chips"
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__isnull=True) | Q(balance__gte=0), name="cash_chips_balance"
            ),
            # A seat's row has its balance; the house's and the history's have none.
            models.CheckConstraint(
                condition=Q(sitting__isnull=False, balance__isnull=False)
                | Q(sitting__isnull=True, balance__isnull=True, kind__in=HOUSE_KINDS)
                | Q(sitting__isnull=True, balance__isnull=True, before_ledger=True),
                name="cash_chips_seat_balance",
            ),
        ]
        indexes = [
            models.Index(fields=["sitting", "id"], name="cash_chips_sitting"),
            models.Index(fields=["table", "kind"], name="cash_chips_table_kind"),
        ]

    def __str__(self) -> str:
        where = f"seat {self.seat}" if self.sitting is not None else "house"
        return f"{self.table} {where} {self.kind} {self.delta:+d}"


class TimeCharge(models.Model):
    """Time collected from a seat at a cash table for a period (the house's take where the room
    charges by time instead of raking pots)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="time_charges")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    amount = models.PositiveIntegerField()
    period_start = models.DateTimeField()
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField()
    # The ledger's row that took the chips (empty for charges made before the ledger).
    ledger_row = models.OneToOneField(
        CashChips,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="time_charge",
    )

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat", "period_start"], name="one_time_charge_per_period"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat}: {self.amount} at {self.period_start:%H:%M}"


class SeatChangeRequest(models.Model):
    """A player seated in a game asking for another seat or table of it: offered a seat that
    opens before the game's waiting list (after a must-move player), as rooms do; the player
    then moves with their stack. Gone when the player is called, asks no more, or leaves."""

    game = models.ForeignKey(CashGame, on_delete=models.CASCADE, related_name="seat_changes")
    seat = models.OneToOneField(CashSeat, on_delete=models.CASCADE, related_name="seat_change")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.game}: seat change for {self.seat}"
