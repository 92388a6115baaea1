"""The audit log of director actions, and the devices the API's tokens were given to."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tournaments.models.events import Tournament


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
