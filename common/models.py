"""The API's proofs of a write's intent: the first answers of writes sent with a `client_id`."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class ApiWrite(models.Model):
    """The first answer to an API write that carried a `client_id` (a device's own id for the
    write, a UUID): the same id again gets this answer back and changes nothing
    (`common.api.once`). `body` is the answer exactly as it was rendered (JSON text, empty
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

    class Meta:
        # Moved from the floor app (issue 28) with its rows: the table keeps its name.
        db_table = "tournaments_apiwrite"

    def __str__(self) -> str:
        return f"{self.client_id}: {self.method} {self.path} {self.status}"
