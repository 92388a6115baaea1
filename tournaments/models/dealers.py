"""The dealers' rotation: the room's plan, each dealer's shift and downs at the tables."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models.tables import Table


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
