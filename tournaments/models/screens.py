"""The room's displays of a tournament's clock."""

from __future__ import annotations

from django.db import models

from tournaments.models.events import Tournament


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
