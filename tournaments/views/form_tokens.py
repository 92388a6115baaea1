"""How a page makes a write and shows how it went (issue 28: the one place a page's view turns
a domain error into what the person sees).

Desk forms that change chips or places are safe to submit twice: each carries a one-time token
(`{% load form_tokens %}` then `{% form_token %}` inside the `<form>`), and its view makes the
service call with `once=True`, which uses the token and makes the call in one transaction.

    page_write(request, lambda: entry_rebuy(entry=entry, ...), "Rebuy recorded.", once=True)

A second submission of the same form is refused with `FormSentTwiceError` ("Already recorded:
that form was sent twice.", then what the first submission's page said, to the same account)
and changes nothing; a refusal of the service leaves the token
unused, so the form can be corrected and sent again.

The shapes, each written here once:

- `page_write`: a refusal at the top of the next page, else a success sentence;
- `form_write`: a refusal put on the form that is drawn again (a form sent twice still goes to
  the top of the next page: nothing on the form was wrong);
- `page_read`: a read the page draws beside its refusal's sentence;
- `attempt`: the call's result, or its refusal, for the few pages that answer a refusal their
  own way (a sheet drawn with it, a bare 403).

Each returns the result, or the refusal (already shown) for the view to choose where to go.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest

from common.errors import FloorError
from tournaments.forms import attach_refusal
from tournaments.services.form_tokens import (
    FormSentTwiceError,
    form_token_answer,
    form_token_use,
)
from tournaments.views.access import report_refusal

FIELD = "form_token"

Result = TypeVar("Result")
Made = TypeVar("Made")
Form = TypeVar("Form", bound=forms.BaseForm)


def submit_once(
    request: HttpRequest,
    call: Callable[[], Result],
    answer: Callable[[Result], str] | None = None,
) -> Result:
    """Use the posted form's token and make `call` (one service call) in one transaction; the
    sentence `answer` makes of the result is kept with the token, for a second submission to
    repeat. Raises `FormSentTwiceError` for a second submission, a 400 `FloorError` for a form
    without a token, and whatever `call` raises (then the token stays unused)."""
    with transaction.atomic():
        used = form_token_use(token=request.POST.get(FIELD, ""), actor=request.user)
        result = call()
        if answer is not None:
            form_token_answer(used=used, answer=answer(result))
        return result


def attempt(call: Callable[[], Result]) -> Result | FloorError:
    """The call's result, or the domain error it raised (nothing is shown). Every helper below
    is built on it: the one `except FloorError` of the pages."""
    try:
        return call()
    except FloorError as error:
        return error


def report_form_refusal(request: HttpRequest, error: FloorError) -> None:
    """Show a refusal at the top of the next page: a form sent twice as a warning (its first
    submission was recorded), anything else as the service's error."""
    if isinstance(error, FormSentTwiceError):
        messages.warning(request, error.detail)
    else:
        report_refusal(request, error)


@dataclass(frozen=True)
class _Sent(Generic[Made]):
    """A page write's outcome: the call's result or refusal, and its success sentence."""

    result: Made | FloorError
    sentence: str | None


def _sent(
    request: HttpRequest,
    call: Callable[[], Made],
    once: bool,
    done: str | Callable[[Made], str] | None,
) -> _Sent[Made]:
    """The call's result or refusal, and the success sentence `done` makes of a result: made
    once, inside the token's transaction (which keeps it) when `once`."""
    if done is None:
        return _Sent(attempt((lambda: submit_once(request, call)) if once else call), None)
    said: list[str] = []

    def sentence(result: Made) -> str:
        said.append(done(result) if callable(done) else done)
        return said[0]

    sent = attempt((lambda: submit_once(request, call, sentence)) if once else call)
    if isinstance(sent, FloorError):
        return _Sent(sent, None)
    return _Sent(sent, said[0] if said else sentence(sent))


def _say_done(request: HttpRequest, sentence: str | None) -> None:
    if sentence is not None:
        messages.success(request, sentence)


def page_write(
    request: HttpRequest,
    call: Callable[[], Result],
    done: str | Callable[[Result], str] | None,
    *,
    once: bool = False,
) -> Result | FloorError:
    """The service call (in the posted form's one-time token's transaction when `once`); a
    refusal shown at the top of the next page in its own words (a form sent twice as a
    warning); else `done` (a sentence, or one made from the result; None when the view says
    more than one sentence itself) as a success. Returns the result, or the refusal."""
    outcome = _sent(request, call, once, done)
    sent, sentence = outcome.result, outcome.sentence
    if isinstance(sent, FloorError):
        report_form_refusal(request, sent)
    else:
        _say_done(request, sentence)
    return sent


def form_write(
    request: HttpRequest,
    form: Form,
    call: Callable[[], Result],
    done: str | Callable[[Result], str] | None,
    *,
    once: bool = False,
    attach: Callable[[Form, FloorError], None] = attach_refusal,
    in_answer: bool = False,
) -> Result | FloorError:
    """A form's write: as `page_write`, but a refusal goes on the form (`attach`: next to the
    field it concerns, else at its top), which the view draws again. A form sent twice is
    shown at the top of the next page, as a warning, and left off the form; `in_answer` (an
    htmx answer that says itself how it went) keeps it and `done` out of the messages.
    Returns the result, or the refusal (`refused_on_form` tells which kind)."""
    outcome = _sent(request, call, once, done)
    sent, sentence = outcome.result, outcome.sentence
    if isinstance(sent, FormSentTwiceError):
        if not in_answer:
            report_form_refusal(request, sent)
    elif isinstance(sent, FloorError):
        attach(form, sent)
    elif not in_answer:
        _say_done(request, sentence)
    return sent


def refused_on_form(sent: object) -> bool:
    """Whether `form_write` put a refusal on the form (to draw it again), rather than the write
    being recorded now or before (a form sent twice): then the view goes on to the next page."""
    return isinstance(sent, FloorError) and not isinstance(sent, FormSentTwiceError)


def refusal_on_top(form: forms.BaseForm, error: FloorError) -> None:
    """An `attach` for forms whose refusals concern the whole form."""
    form.add_error(None, error.detail)


def page_read(call: Callable[[], Result]) -> tuple[Result | None, str | None]:
    """A read a page shows with its refusal instead when it has none to give (a payout table
    that cannot be used, a plan the floor must fix first): the value and None, or None and the
    refusal's sentence."""
    read = attempt(call)
    if isinstance(read, FloorError):
        return None, read.detail
    return read, None
