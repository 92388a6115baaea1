"""Desk forms that change chips or places are safe to submit twice.

Each such form carries a one-time token (`{% load form_tokens %}` then `{% form_token %}` inside
the `<form>`); its view runs the service call through `submit_once`, which uses the token and
makes the call in one transaction:

    try:
        entry = submit_once(request, lambda: entry_rebuy(entry=entry, ...))
    except FloorError as error:
        report_form_refusal(request, error)

A second submission of the same form raises `FormSentTwiceError` ("Already recorded: that form was
sent twice.") and changes nothing; a refusal of the service leaves the token unused, so the form
can be corrected and sent again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest

from tournaments.errors import FloorError
from tournaments.services.form_tokens import FormSentTwiceError, form_token_use
from tournaments.views.access import report_refusal

FIELD = "form_token"

Result = TypeVar("Result")


def submit_once(request: HttpRequest, call: Callable[[], Result]) -> Result:
    """Use the posted form's token and make `call` (one service call) in one transaction.
    Raises `FormSentTwiceError` for a second submission, a 400 `FloorError` for a form without a
    token, and whatever `call` raises (then the token stays unused)."""
    with transaction.atomic():
        form_token_use(token=request.POST.get(FIELD, ""), actor=request.user)
        return call()


def report_form_refusal(request: HttpRequest, error: FloorError) -> None:
    """Show a refusal at the top of the next page: a form sent twice as a warning (its first
    submission was recorded), anything else as the service's error."""
    if isinstance(error, FormSentTwiceError):
        messages.warning(request, error.detail)
    else:
        report_refusal(request, error)


def page_write(
    request: HttpRequest,
    call: Callable[[], Result],
    done: str | Callable[[Result], str],
    *,
    once: bool = False,
) -> Result | None:
    """The one way a page makes a write and says how it went (issue 28: the pages' `except
    FloorError` blocks): the service call, in the posted form's one-time token's transaction
    when `once`; a refusal shown at the top of the next page in its own words (a form sent
    twice as a warning) and None; else `done` (a sentence, or one made from the result) as a
    success, and the result."""
    try:
        result = submit_once(request, call) if once else call()
    except FloorError as error:
        report_form_refusal(request, error)
        return None
    messages.success(request, done(result) if callable(done) else done)
    return result
