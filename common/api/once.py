"""Every API write is safe to send twice: a write may carry a `client_id` (made by the device, a
UUID, in the JSON or form body); its first answer is stored with it, and the same id again gets
that answer back, changing nothing. A write the floor rules refused stores nothing, so the
corrected write may use the id again; the same id sent to another endpoint, with another method
or by another user is refused (409 `client_id_reused`). Without a `client_id` every call is a
new write (docs/api.md, "Retries and idempotency").

`FloorApi` answers each `post`, `put`, `patch` and `delete` its subclasses define through
`answer_once`. A view opts out with `answers_once = False`: the tablets' hand writes, which bind
each tap to the hand's version and keep their own `client_id` with the action, and the sign-ins,
whose answers carry a token that must never be stored.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable

from django.db import IntegrityError, transaction
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import FloorConflict, FloorInvalid
from common.models import ApiWrite

CLIENT_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
WRITES = ("post", "put", "patch", "delete")


def client_id_of(request: Request) -> str | None:
    """The write's `client_id`, None without one; 400 `bad_client_id` for a malformed one."""
    data = request.data
    value = data.get("client_id") if hasattr(data, "get") else None
    if value in (None, ""):
        return None
    if not isinstance(value, str) or not CLIENT_ID.fullmatch(value):
        raise FloorInvalid(
            "bad_client_id", "client_id must be 8 to 64 letters, digits, '-' or '_' (a UUID)."
        )
    return value


def _user_id(request: Request) -> int | None:
    user = request.user
    return user.pk if user.is_authenticated else None


def _repeat(stored: ApiWrite, request: Request) -> Response:
    """The stored answer, to the same user at the same endpoint and method only: another
    user's id is never answered with what it stored (and never tells them it exists)."""
    if (
        stored.path != request.path
        or stored.method != request.method
        or stored.actor_id != _user_id(request)
    ):
        raise FloorConflict(
            "client_id_reused", "That client_id was used for another write: make a new one."
        )
    return Response(json.loads(stored.body) if stored.body else None, status=stored.status)


def _rendered(answer: Response) -> str:
    """The answer's data as JSON text, exactly as the JSON renderer writes it (decimals and
    times included), so that a repeat answers the same bytes."""
    if answer.data is None:
        return ""
    return JSONRenderer().render(answer.data).decode()


def answer_once(write: Callable[..., Response]) -> Callable[..., Response]:
    """`write` answered once per `client_id` (without one, every call is a new write)."""

    @functools.wraps(write)
    def wrapped(view: APIView, request: Request, *args: object, **kwargs: object) -> Response:
        client_id = client_id_of(request)
        if client_id is None:
            return write(view, request, *args, **kwargs)
        stored = ApiWrite.objects.filter(client_id=client_id).first()
        if stored is not None:
            return _repeat(stored, request)
        try:
            with transaction.atomic():
                # Claim the id before writing: a resend arriving while this write runs waits
                # on the id's unique index until this one commits, then answers what it
                # answered (the IntegrityError below), instead of running the write again. A
                # refusal rolls the claim back, so the id stays free for the corrected write.
                claim = ApiWrite.objects.create(
                    client_id=client_id,
                    actor_id=_user_id(request),
                    method=request.method or "",
                    path=request.path,
                    status=0,
                )
                answer = write(view, request, *args, **kwargs)
                claim.status, claim.body = answer.status_code, _rendered(answer)
                claim.save(update_fields=["status", "body"])
        except IntegrityError:
            # The same id claimed by another request: its answer. Any other integrity error is
            # the write's own (its claim rolled back with it, so none is found).
            first = ApiWrite.objects.filter(client_id=client_id).first()
            if first is None:
                raise
            return _repeat(first, request)
        return answer

    return wrapped


class AnsweredOnce:
    """A mix-in: each write handler a subclass defines is answered once per `client_id`,
    unless the subclass (or a base) sets `answers_once = False`."""

    answers_once = True

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.answers_once:
            return
        for name in WRITES:
            handler = cls.__dict__.get(name)
            if handler is not None and not getattr(handler, "answered_once", False):
                wrapped = answer_once(handler)
                wrapped.answered_once = True  # type: ignore[attr-defined]
                setattr(cls, name, wrapped)
