"""Forms of the dealer tablet: they read what was tapped; the engine decides what is allowed.

Every write carries the client's id for this tap (made in the browser, kept when the request is
retried) and the hand and version the dealer saw. A form checks only the shape of the input: an
amount out of range or a card dealt twice is refused by the engine, in its own words. Numbers
are bounded by what the columns hold (`tournaments.forms.MAX_ID`, `MAX_CHIPS`), so an absurd one
is refused here rather than failing in the database.
"""

from __future__ import annotations

import re

from django import forms

from dealer.engine.cards import RANKS, SUITS
from tournaments.forms import MAX_CHIPS, MAX_ID, first_error, record_id

CARD_CODES = [rank + suit for rank in RANKS for suit in SUITS]
KNOWN_CARDS = frozenset(CARD_CODES)
CLIENT_ID = re.compile(r"^[A-Za-z0-9_.:-]{8,64}$")

# What a button of the action bar, the board entry or the showdown may send as `action`.
BETTING = ("fold", "check", "call", "all_in")
SIZED = ("bet", "raise")
BOARD = ("deal_board", "deal_board_unknown", "reveal_board", "run_twice")
SHOWDOWN = ("show", "muck", "claim_board")
AWARD = "award"  # showdown by tap: "award:<seat>" pushes `pot` to one seat, "award" to `split`


class CardsField(forms.Field):
    """The cards picked (`cards`, sent once per card), each a card's code. Not a choice field: a
    form copies its fields for every request, and copying 52 choices was most of a tap's form."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: object) -> list[str]:
        if not value:
            return []
        return [str(card) for card in value] if isinstance(value, list | tuple) else [str(value)]

    def validate(self, value: list[str]) -> None:
        super().validate(value)
        for card in value:
            if card not in KNOWN_CARDS:
                raise forms.ValidationError(
                    f"Unknown card '{card}': reload the page.", code="invalid_card"
                )


class WriteForm(forms.Form):
    """What every write to a hand carries: the tap's id, the hand and the version shown."""

    client_id = forms.CharField(max_length=64)
    hand = record_id()
    version = forms.IntegerField(min_value=0, max_value=MAX_CHIPS)

    def clean_client_id(self) -> str:
        value: str = self.cleaned_data["client_id"].strip()
        if not CLIENT_ID.match(value):
            raise forms.ValidationError("The tablet sent a malformed request id: reload the page.")
        return value

    def first_error(self) -> str:
        return first_error(self)


class ActionForm(WriteForm):
    """One entry: `action` is the button tapped ("fold", "call", "raise:1700", "raise" with the
    typed `amount`, "deal_board" with `cards`, "show" with `seat` and `cards`, ...)."""

    action = forms.CharField(max_length=40)
    amount = forms.IntegerField(required=False, max_value=10**12, min_value=-(10**12))
    seat = forms.IntegerField(required=False, min_value=1, max_value=20)
    # The seat to act when the button was drawn (the action bar's): the service refuses the tap
    # if another player is to act by the time it arrives.
    expected_seat = forms.IntegerField(required=False, min_value=1, max_value=20)
    cards = CardsField(required=False)
    # A betting action tapped while the board is due: the board was dealt, its cards not entered.
    deal_unentered = forms.BooleanField(required=False)
    # Showdown by tap: the pot pushed (0 the main pot) and, for a split, the seats ticked.
    pot = forms.IntegerField(required=False, min_value=0, max_value=20)
    split = forms.TypedMultipleChoiceField(
        required=False, coerce=int, choices=[(n, n) for n in range(1, 21)]
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        action = str(data.get("action", ""))
        kind, _, size = action.partition(":")
        if kind == AWARD:
            return self._award(data, size)
        if kind not in (*BETTING, *SIZED, *BOARD, *SHOWDOWN):
            raise forms.ValidationError(f"Unknown action '{action}': reload the page.")
        amount = data.get("amount")
        if size:
            if kind not in SIZED:
                raise forms.ValidationError(f"Unknown action '{action}': reload the page.")
            amount = self._size(size, action)
        elif kind in SIZED and amount is None:
            raise forms.ValidationError("Type the amount first, then tap the button.")
        data["kind"] = kind
        data["amount"] = amount if kind in SIZED else None
        if kind in SHOWDOWN and data.get("seat") is None:
            raise forms.ValidationError("Pick the player who shows or mucks.")
        return data

    def _award(self, data: dict[str, object], seat: str) -> dict[str, object]:
        """A winner's button ("award:4") or the split button with the seats ticked; without a
        `pot`, the winner takes every pot they are in (the best hand's button)."""
        if seat:
            if not seat.isascii() or not seat.isdigit():
                raise forms.ValidationError("Unknown winner: reload the page.")
            winners = [int(seat)]
        else:
            split = data.get("split") or []  # the seats ticked (`split`: a list of them)
            winners = list(split) if isinstance(split, list) else []
            if len(winners) < 2:
                raise forms.ValidationError("Tick two or more players to split the pot.")
        return {**data, "kind": AWARD, "amount": None, "winners": winners}

    def _size(self, size: str, action: str) -> int:
        """The size a button carries ("raise:1700"), read as the typed amount is."""
        if not size.isascii() or not size.isdigit():
            raise forms.ValidationError(f"Unknown action '{action[:40]}': reload the page.")
        amount: int = self.fields["amount"].clean(size)
        return amount


class ReasonedWriteForm(WriteForm):
    """A write that needs a reason, picked from the offered ones or typed (the typed one wins);
    it stays in the hand's log."""

    missing_reason = "Pick or type a reason."
    reason = forms.CharField(max_length=200, required=False)
    reason_text = forms.CharField(max_length=200, required=False)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        reason = (data.get("reason_text") or "").strip() or (data.get("reason") or "").strip()
        if not reason:
            raise forms.ValidationError(self.missing_reason)
        data["reason"] = reason
        return data


class UndoForm(ReasonedWriteForm):
    """Undo the latest entry still in force."""

    missing_reason = "Say why the entry is undone: pick or type a reason."


class ReopenForm(ReasonedWriteForm):
    """Reopen the table's last hand to correct it (the reason goes to the audit log too)."""

    missing_reason = "Say why the hand is reopened: pick or type a reason."


class ProcedureForm(WriteForm):
    """A dealer-error procedure: what happened, the player concerned, the dealer's note."""

    trigger = forms.CharField(max_length=60)
    seat = forms.IntegerField(required=False, min_value=1, max_value=20)
    note = forms.CharField(max_length=200, required=False)


class StartForm(forms.Form):
    """The "Start next hand" button: the table's latest hand the dealer saw (0 for none yet)."""

    last_hand = forms.IntegerField(min_value=0, max_value=MAX_ID)
    # Cash tables: the plan the dealer was shown, and whether the offered player straddles.
    plan = forms.CharField(max_length=32, required=False)
    straddle = forms.BooleanField(required=False)


class ProcedureSheetForm(forms.Form):
    """The procedure sheet's question (`?trigger=`, `?seat=`): what happened, to which player."""

    trigger = forms.CharField(max_length=60, required=False)
    seat = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=20,
        error_messages={"invalid": "Pick the player from the list."},
    )


class ProcedureLogFilterForm(forms.Form):
    """The floor's procedure log filters: a table's number and a dealer."""

    table = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_CHIPS,
        error_messages={"invalid": "Pick a table from the list."},
    )
    dealer = record_id(required=False, error_messages={"invalid": "Pick a dealer from the list."})
