"""Hand storage: the hand, its append-only event log, and the dealer-error procedure log.

Only `dealer.services` writes these rows. The current state of a hand is derived by replaying
its events through the engine; `Hand.state` is a cache of that replay for reads,
`Hand.engine_state` the engine's own state for the next write, and `manage.py check_hands`
verifies that both are what the replay gives.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models import Table


class Hand(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        COMPLETE = "complete"
        VOID = "void"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(help_text="1 = the table's first hand")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    # Taken when the hand starts and kept to its end (a new level applies from the next hand).
    rules = models.JSONField(help_text="every rule option, as Rules.as_dict()")
    stakes = models.JSONField(help_text="small_blind, big_blind, ante, small_bet, unit")
    level_index = models.PositiveSmallIntegerField(default=0)
    hand_for_hand_round = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="the hand-for-hand hand this hand was dealt for (RP-8); empty outside it",
    )
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    small_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    big_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    seats = models.JSONField(
        help_text="players dealt in, clockwise from left of the button: seat, entry, name, "
        "stack and forced bets at the start"
    )
    plan = models.JSONField(
        default=dict,
        blank=True,
        help_text="cash tables: the pre-deal plan (posts, who waited and why) and what the hand "
        "settles or leaves owed at each seat once played",
    )
    version = models.PositiveIntegerField(default=0, help_text="number of events so far")
    state = models.JSONField(default=dict, help_text="cache of the replayed state")
    engine_state = models.BinaryField(
        null=True,
        editable=False,
        help_text="the engine's state at this version, as JSON after a header "
        "(dealer/state_cache.py): the next write starts from it instead of replaying the log",
    )
    # Cash tables: the house's take from this hand's pots (the engine's rake rules), and the
    # dealer on the table when it started (the rake per dealer, the rotation's record).
    rake = models.PositiveIntegerField(default=0)
    dealt_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_hand_number"),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status="in_progress"),
                name="one_hand_in_progress_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand {self.number}"


class HandEvent(models.Model):
    """One entry of a hand's log. Never updated or deleted: an undo is a new `undo` event."""

    class Kind(models.TextChoices):
        ACTION = "action"  # an engine action: betting, board, showdown, kill, misdeal
        UNDO = "undo"  # cancels the latest action still in force
        PROCEDURE = "procedure"  # a dealer-error procedure with its engine actions
        REOPEN = "reopen"  # a completed hand opened again to correct it (no engine action)

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField(help_text="1, 2, 3 ... within the hand")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    payload = models.JSONField()
    client_id = models.CharField(max_length=64, help_text="the client's id for this write")
    response = models.JSONField(default=dict, help_text="the answer given, for a resent write")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seq"], name="unique_event_seq"),
            models.UniqueConstraint(fields=["hand", "client_id"], name="unique_event_client_id"),
        ]

    def __str__(self) -> str:
        return f"{self.hand} #{self.seq} {self.kind}"


class ProcedureLog(models.Model):
    """A dealer-error procedure: which hand, what happened, what was done, who and when."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="procedures")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="procedures")
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    trigger = models.CharField(max_length=60)
    title = models.CharField(max_length=200)
    steps = models.JSONField(default=list)
    effect = models.CharField(max_length=30)
    player_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    rule = models.CharField(max_length=60, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.hand}: {self.title}"


class DealerPin(models.Model):
    """A dealer's short PIN for the handover on the shared tablet (`dealer.rotation.staff`): only
    its hash is kept (Django's password hashers), never the PIN. Wrong PINs in a row are counted
    here, so that the fifth locks PIN sign-in for this dealer for a while."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="dealer_pin"
    )
    pin_hash = models.CharField(max_length=128)
    failures = models.PositiveSmallIntegerField(default=0, help_text="wrong PINs in a row")
    locked_until = models.DateTimeField(null=True, blank=True)
    set_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"PIN of {self.user}"
