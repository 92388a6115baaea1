"""Proofs of a write's intent: the desk's one-time form tokens (the API's first answers are
`common.models.ApiWrite`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class FormToken(models.Model):
    """A one-time token of a desk form that changes chips or places: a second submission of
    the same form (a double tap, a resent POST) finds its token used and changes nothing."""

    token = models.CharField(max_length=64, unique=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    used_at = models.DateTimeField(auto_now_add=True)
    # What the first submission's page said (its success sentence), repeated to a second
    # submission by the same account; empty when the page said it otherwise.
    answer = models.CharField(max_length=500, blank=True, default="")

    def __str__(self) -> str:
        return self.token
