"""The tables of a tournament or a cash game, and the draw for each table's first button."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from tournaments.models.events import Tournament


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
