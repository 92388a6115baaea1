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
    """The form's token is used already: its first submission was recorded."""

    def __init__(self) -> None:
        super().__init__("form_sent_twice", "Already recorded: that form was sent twice.")


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
        raise FormSentTwiceError() from error
