"""One-time tokens of the desk's forms: a form that changes chips or places carries a token made
when the page was drawn (as a tablet's write carries its client id); the first submission uses
it, a second one (a double tap, a resent POST) finds it used and changes nothing.

The caller uses the token in the same transaction as the service call it guards
(`tournaments.views.form_tokens.submit_once`), so a refused call leaves the token unused and the
corrected form can be sent again.
"""

from __future__ import annotations

import re

from django.db import IntegrityError, transaction

from common.actors import Actor, signed_in
from common.errors import FloorConflict, FloorInvalid
from tournaments.models import FormToken

# What a token may look like: the page makes 32 hex digits; the column holds 64.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{8,64}")


class FormSentTwiceError(FloorConflict):
    """The form's token is used already: its first submission was recorded. `first_answer`
    is what that submission's page said, repeated after the sentence (empty when unknown)."""

    def __init__(self, first_answer: str = "") -> None:
        detail = "Already recorded: that form was sent twice."
        super().__init__("form_sent_twice", f"{detail} {first_answer}" if first_answer else detail)


def check_form_token(token: str) -> str:
    """The token as sent, or `FloorInvalid` when the form has none (a page drawn before tokens, a
    hand-made request): without one, a second submission could not be told from a first."""
    token = token.strip()
    if not TOKEN_SHAPE.fullmatch(token):
        raise FloorInvalid(
            "form_token_missing",
            "This form is out of date: reload the page and send it again.",
        )
    return token


def form_token_use(*, token: str, actor: Actor = None) -> FormToken:
    """Use a form's token (in the caller's transaction): `FormSentTwiceError` if it was used before.
    Two submissions racing on one token wait on its unique row: the second finds it used."""
    token = check_form_token(token)
    user = signed_in(actor)
    try:
        with transaction.atomic():
            return FormToken.objects.create(token=token, actor=user)
    except IntegrityError as error:
        # The first submission has committed (the insert waited on its row): its answer is
        # repeated to the account that sent it, and to nobody else.
        first = FormToken.objects.filter(token=token, actor=user).exclude(actor=None)
        raise FormSentTwiceError(first.values_list("answer", flat=True).first() or "") from error


def form_token_answer(*, used: FormToken, answer: str) -> None:
    """Keep what the first submission's page says (in the transaction that used the token), to
    repeat it to a second submission of the same form."""
    used.answer = answer[: FormToken._meta.get_field("answer").max_length]
    used.save(update_fields=["answer"])
