"""Blind schedules: the reusable templates of levels a tournament copies."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


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
