"""Series and their tournaments, with each tournament's own copy of its levels."""

from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.db.models import Q

from tournaments.models.structure import LevelFields


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
