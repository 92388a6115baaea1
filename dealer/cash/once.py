"""Every cash API write is safe to send twice (issue 25, "Exactly once"), as the tablet's actions
are: a write may carry a `client_id` (made by the device, a UUID); its first answer is stored
with it, and the same id again gets that answer back, changing nothing. A write the floor rules
refused stores nothing, so the corrected write may use the id again; the same id sent to another
endpoint is refused (409 `client_id_reused`).

`CashApi` and `GameApi` wrap each of their `post` handlers with `answer_once`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from rest_framework.request import Request
from rest_framework.response import Response

from dealer.cash.models import CashApiWrite
from tournaments.errors import FloorConflict, FloorInvalid

CLIENT_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def _client_id(request: Request) -> str | None:
    data = request.data
    value = data.get("client_id") if hasattr(data, "get") else None
    if value in (None, ""):
        return None
    if not isinstance(value, str) or not CLIENT_ID.fullmatch(value):
        raise FloorInvalid(
            "bad_client_id", "client_id must be 8 to 64 letters, digits, '-' or '_' (a UUID)."
        )
    return value


def _repeat(stored: CashApiWrite, request: Request) -> Response:
    """The stored answer, to the same user at the same endpoint only: another user's id is
    never answered with what it stored (and never tells them it exists)."""
    user_id = request.user.pk if request.user.is_authenticated else None
    if stored.path != request.path or stored.actor_id != user_id:
        raise FloorConflict(
            "client_id_reused", "That client_id was used for another write: make a new one."
        )
    return Response(stored.response, status=stored.status)


def answer_once(post: Callable[..., Response]) -> Callable[..., Response]:
    """`post` answered once per `client_id` (without one, every call is a new write)."""

    @functools.wraps(post)
    def wrapped(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        client_id = _client_id(request)
        if client_id is None:
            return post(view, request, *args, **kwargs)
        stored = CashApiWrite.objects.filter(client_id=client_id).first()
        if stored is not None:
            return _repeat(stored, request)
        user = request.user
        try:
            with transaction.atomic():
                # Claim the id before writing: a resend arriving while this write runs waits
                # on the id's unique index until this one commits, then answers what it
                # answered (the IntegrityError below), instead of running the write again. A
                # refusal rolls the claim back, so the id stays free for the corrected write.
                claim = CashApiWrite.objects.create(
                    client_id=client_id,
                    actor_id=user.pk if user.is_authenticated else None,
                    path=request.path,
                    status=0,
                    response={},
                )
                answer = post(view, request, *args, **kwargs)
                claim.status, claim.response = answer.status_code, answer.data
                claim.save(update_fields=["status", "response"])
        except IntegrityError:
            # The same id claimed by another request: its answer. Any other integrity error is
            # the write's own (its claim rolled back with it, so none is found).
            first = CashApiWrite.objects.filter(client_id=client_id).first()
            if first is None:
                raise
            return _repeat(first, request)
        return answer

    return wrapped


class AnsweredOnce:
    """A mix-in: each `post` a subclass defines is answered once per `client_id`."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "post" in cls.__dict__:
            cls.post = answer_once(cls.__dict__["post"])  # type: ignore[attr-defined]
