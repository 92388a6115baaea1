"""The tournament floor: schedules, tournaments, players and entries, tables and seats, audit log.

Models hold fields, constraints and small derived properties only; every write goes through
`tournaments.services`. Chips are integers, money is Decimal.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone


class BlindSchedule(models.Model):
    """A reusable template of levels. A tournament copies it, so editing never changes an event."""

    name = models.CharField(max_length=120, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class LevelFields(models.Model):
    """What a level is, shared by schedule templates and a tournament's own copy."""

    order = models.PositiveIntegerField()
    small_blind = models.PositiveIntegerField(default=0)
    big_blind = models.PositiveIntegerField(default=0)
    ante = models.PositiveIntegerField(default=0)
    bb_ante = models.BooleanField(default=False)
    # The smallest chip in play at this level (RULES.md 6: split pots are divided in it, the odd
    # chips go left of the button); a colour-up raises it for the levels after.
    smallest_chip = models.PositiveIntegerField(default=1)
    duration = models.PositiveIntegerField(help_text="seconds")
    is_break = models.BooleanField(default=False)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        abstract = True
        ordering = ["order"]


class BlindLevel(LevelFields):
    schedule = models.ForeignKey(BlindSchedule, on_delete=models.CASCADE, related_name="levels")

    class Meta(LevelFields.Meta):
        constraints = [
            models.UniqueConstraint(fields=["schedule", "order"], name="unique_schedule_level"),
            models.CheckConstraint(condition=Q(duration__gt=0), name="schedule_level_duration"),
        ]

    def __str__(self) -> str:
        return f"{self.schedule} #{self.order}"


# Members of this auth group are dealers: they read the floor and run the tables assigned to them.
DEALER_GROUP = "dealer"


class Series(models.Model):
    """A festival of events run by one room (a schedule of tournaments over days or weeks): the
    events it holds and the players who play them are found together."""

    name = models.CharField(max_length=120, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    class Kind(models.TextChoices):
        SINGLE = "single", "One-day tournament"
        EVENT = "event", "Multi-flight event"
        FLIGHT = "flight", "Starting flight"
        DAY = "day", "Later day"

    class Bounty(models.TextChoices):
        NONE = "none", "No bounties"
        FIXED = "fixed", "Fixed bounty"
        PROGRESSIVE = "progressive", "Progressive knockout"

    class Status(models.TextChoices):
        PLANNED = "planned"
        REGISTERING = "registering"
        RUNNING = "running"
        PAUSED = "paused"
        FINISHED = "finished"

    class Game(models.TextChoices):
        HOLDEM = "holdem", "Texas Hold'em"
        SIXPLUS = "sixplus", "Texas 6+"

    class Structure(models.TextChoices):
        NO_LIMIT = "no_limit", "No limit"
        POT_LIMIT = "pot_limit", "Pot limit"
        FIXED_LIMIT = "fixed_limit", "Fixed limit"

    name = models.CharField(max_length=120)
    series = models.ForeignKey(
        Series, on_delete=models.SET_NULL, null=True, blank=True, related_name="events"
    )
    # A multi-flight event is a row of kind EVENT that deals no cards: its flights (Day 1A,
    # 1B, ...) and later days are tournaments of kind FLIGHT and DAY whose `parent` it is. It
    # holds what the whole event shares: the prize pool, the payout table, re-entry across
    # flights.
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.SINGLE)
    parent = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="phases"
    )
    day = models.PositiveSmallIntegerField(default=1)
    flight = models.CharField(max_length=10, blank=True, help_text='"A" of Day 1A')
    reentry_across_flights = models.BooleanField(
        default=True,
        help_text="a player may enter another flight after surviving one: the best stack goes on",
    )
    bounty_kind = models.CharField(max_length=12, choices=Bounty.choices, default=Bounty.NONE)
    bounty = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        default=Decimal("0"),
        help_text="the bounty on each entry (part of the buy-in, not in the prize pool)",
    )
    # A satellite pays seats in its target event (each worth `seat_value`, or the target's
    # buy-in and fee when 0) and what is left of the pool in cash.
    satellite_target = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="satellites"
    )
    seat_value = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0"))
    floor_message = models.CharField(
        max_length=200, blank=True, help_text="shown on the big screens and the phone page"
    )
    game = models.CharField(max_length=10, choices=Game.choices, default=Game.HOLDEM)
    structure = models.CharField(
        max_length=12, choices=Structure.choices, default=Structure.NO_LIMIT
    )
    rule_profile = models.CharField(max_length=30, default="tda_tournament")
    rule_overrides = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PLANNED)
    buy_in = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0"))
    fee = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0"))
    starting_stack = models.PositiveIntegerField(default=10000)
    seats_per_table = models.PositiveSmallIntegerField(default=9)
    late_registration_level = models.PositiveSmallIntegerField(
        default=0, help_text="late registration is open until the end of this level (0: none)"
    )
    max_entries_per_player = models.PositiveSmallIntegerField(
        default=1, help_text="1: no re-entry; 2: one re-entry; and so on"
    )
    rebuy_price = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0"))
    rebuy_chips = models.PositiveIntegerField(default=0)
    rebuy_until_level = models.PositiveSmallIntegerField(default=0)
    addon_price = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0"))
    addon_chips = models.PositiveIntegerField(default=0)
    addon_level = models.PositiveSmallIntegerField(
        default=0,
        help_text="the add-on is taken during this level and the break right after it "
        "(0: on the first break after the last rebuy level)",
    )
    guarantee = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("0"))
    payout_percentages = models.JSONField(
        default=list, blank=True, help_text="percent per place, summing to 100; empty: standard"
    )
    payout_unit = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("1"))
    icm_enabled = models.BooleanField(default=True)
    hand_for_hand = models.BooleanField(default=False)
    hand_for_hand_round = models.PositiveIntegerField(
        default=0, help_text="the hand-for-hand hand being played (1, 2, ...); 0 before any"
    )
    deal = models.JSONField(
        default=dict, blank=True, help_text="the deal the players left accepted, if any"
    )
    break_order = models.JSONField(default=list, blank=True)
    # The clock, as timestamps (DESIGN.md): the level in force with its end, or its remaining time.
    clock_level = models.PositiveSmallIntegerField(default=0)
    clock_ends_at = models.DateTimeField(null=True, blank=True)
    clock_remaining = models.PositiveIntegerField(null=True, blank=True)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    # Moves on with every write a public page can show (standings, payouts, the clock): the
    # pages' and the API's ETags are built from it, so an unchanged answer costs one row read.
    version = models.PositiveBigIntegerField(default=0, editable=False)
    # Hidden from the lists, its data kept (`services.archive`): a test event, or one long over.
    is_archived = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats_per_table__gte=2, seats_per_table__lte=10),
                name="tournament_seats_per_table",
            ),
            models.CheckConstraint(
                condition=Q(starting_stack__gt=0), name="tournament_starting_stack"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class TournamentLevel(LevelFields):
    """The tournament's own copy of its schedule."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="levels")

    class Meta(LevelFields.Meta):
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="unique_tournament_level"),
            models.CheckConstraint(condition=Q(duration__gt=0), name="tournament_level_duration"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.order}"


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


class Table(models.Model):
    """A physical table: a tournament's (`tournament` set), or a cash table (`tournament` empty),
    which carries its own game, stakes, rules and buy-in limits."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="tables", null=True, blank=True
    )
    number = models.PositiveIntegerField()
    seat_count = models.PositiveSmallIntegerField(default=9)
    # Cash tables only (a tournament table takes all of this from its tournament).
    name = models.CharField(max_length=80, blank=True)
    game = models.CharField(
        max_length=10, choices=Tournament.Game.choices, default=Tournament.Game.HOLDEM
    )
    structure = models.CharField(
        max_length=12, choices=Tournament.Structure.choices, default=Tournament.Structure.NO_LIMIT
    )
    rule_profile = models.CharField(max_length=30, default="casino_cash")
    rule_overrides = models.JSONField(default=dict, blank=True)
    small_blind = models.PositiveIntegerField(default=0)
    big_blind = models.PositiveIntegerField(default=0)
    ante = models.PositiveIntegerField(default=0)
    min_buy_in = models.PositiveIntegerField(default=0)
    max_buy_in = models.PositiveIntegerField(default=0)
    is_open = models.BooleanField(default=True, help_text="cash: dealing; off when closed")
    # Cash: the game and stakes the table deals (its list is the game's), and for a must-move
    # table the main game table its players move to, first in first moved.
    cash_game = models.ForeignKey(
        "cash.CashGame", on_delete=models.SET_NULL, null=True, blank=True, related_name="tables"
    )
    must_move_to = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="must_move_tables"
    )
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    small_blind_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the seat that posted the small blind in the last hand"
    )
    big_blind_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the seat that posted the big blind in the last hand"
    )
    is_broken = models.BooleanField(default=False)
    locked_seats = models.JSONField(
        default=list, blank=True, help_text="seats the floor keeps empty (numbers)"
    )
    hand_for_hand_round = models.PositiveIntegerField(
        default=0, help_text="the last hand-for-hand hand this table started"
    )
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="dealer_tables",
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_table_number"),
            models.UniqueConstraint(
                fields=["number"],
                condition=Q(tournament__isnull=True),
                name="unique_cash_table_number",
            ),
            models.CheckConstraint(
                condition=Q(tournament__isnull=False)
                | Q(
                    big_blind__gt=0,
                    small_blind__lte=F("big_blind"),
                    max_buy_in__gte=F("min_buy_in"),
                ),
                name="cash_table_stakes",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"

    @property
    def is_cash(self) -> bool:
        return self.tournament_id is None


class RotationPlan(models.Model):
    """How the room rotates its dealers: a down's length and the breaks (the latest row is in
    force)."""

    down_minutes = models.PositiveSmallIntegerField(default=30)
    downs_before_break = models.PositiveSmallIntegerField(default=3)
    break_minutes = models.PositiveSmallIntegerField(default=20)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(down_minutes__gte=5, down_minutes__lte=120), name="rotation_down"
            )
        ]

    def __str__(self) -> str:
        return f"{self.down_minutes}-minute downs"


class DealerShift(models.Model):
    """A dealer on the floor's list for a shift, from the sign-in to the end of the shift."""

    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="shifts"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["dealer"], condition=Q(ends_at__isnull=True), name="one_open_shift"
            )
        ]

    def __str__(self) -> str:
        return f"{self.dealer} from {self.starts_at:%H:%M}"


class DealerDown(models.Model):
    """One down of the rotation: a dealer at a table (or on a break, `table` empty) from one
    time to the next push; the tablet signs the incoming dealer in at the push."""

    shift = models.ForeignKey(DealerShift, on_delete=models.CASCADE, related_name="downs")
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="downs"
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="downs"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    signed_in_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        indexes = [models.Index(fields=["table", "starts_at"], name="down_table_time")]

    def __str__(self) -> str:
        where = self.table or "break"
        return f"{self.dealer} at {where} {self.starts_at:%H:%M}-{self.ends_at:%H:%M}"


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


class Screen(models.Model):
    """A display in the room showing a tournament's clock, with the layout the floor chose for
    it and whether it sounds the level changes."""

    class Layout(models.TextChoices):
        CLASSIC = "classic", "Big clock"
        SIDEBAR = "sidebar", "Clock with payouts and chip leaders"
        PAYOUTS = "payouts", "Payouts board"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="screens")
    name = models.CharField(max_length=60)
    layout = models.CharField(max_length=10, choices=Layout.choices, default=Layout.CLASSIC)
    sound = models.BooleanField(default=False, help_text="chime at level changes and at 1:00")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "pk"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name}"


class FormToken(models.Model):
    """A one-time token of a desk form that changes chips or places: a second submission of
    the same form (a double tap, a resent POST) finds its token used and changes nothing."""

    token = models.CharField(max_length=64, unique=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    used_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.token


class ApiWrite(models.Model):
    """The first answer to an API write that carried a `client_id` (a device's own id for the
    write, a UUID): the same id again gets this answer back and changes nothing
    (`tournaments.api.once`). `body` is the answer exactly as it was rendered (JSON text, empty
    for an answer without a body)."""

    client_id = models.CharField(max_length=64, unique=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=200)
    status = models.PositiveSmallIntegerField()
    body = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.client_id}: {self.method} {self.path} {self.status}"


class ButtonDraw(models.Model):
    """The high-card draw for a table's first button, with the cards dealt (RULES.md 2)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="button_draws")
    seats = models.JSONField(help_text="seat numbers in the order the cards were dealt")
    cards = models.CharField(max_length=40, help_text="one card per seat, in deal order")
    tiebreak = models.CharField(max_length=12)
    winner_seat = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.table}: button to seat {self.winner_seat}"


class AuditEvent(models.Model):
    """Every director action: who, what, when, and the details to reconstruct it."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="audit_events"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    action = models.CharField(max_length=60)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.created_at:%H:%M:%S} {self.action}"


class Device(models.Model):
    """The device an API token was given to, as its sign-in named it ("Table 3 tablet"). The
    token itself is django-rest-knox's (a digest and an expiry, `config.authentication`); this
    row names it, and gives the desk and the API an id for it that is not the digest."""

    token = models.OneToOneField("knox.AuthToken", on_delete=models.CASCADE, related_name="device")
    label = models.CharField(max_length=80, blank=True)

    def __str__(self) -> str:
        return self.label or f"device {self.pk}"
