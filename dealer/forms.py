"""Forms of the dealer tablet: they read what was tapped; the engine decides what is allowed.

Every write carries the client's id for this tap (made in the browser, kept when the request is
retried) and the hand and version the dealer saw. A form checks only the shape of the input: an
amount out of range or a card dealt twice is refused by the engine, in its own words.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms

from dealer.engine.cards import RANKS, SUITS

CARD_CODES = [rank + suit for rank in RANKS for suit in SUITS]
CLIENT_ID = re.compile(r"^[A-Za-z0-9_.:-]{8,64}$")

# What a button of the action bar, the board entry or the showdown may send as `action`.
BETTING = ("fold", "check", "call", "all_in")
SIZED = ("bet", "raise")
BOARD = ("deal_board", "deal_board_unknown", "reveal_board")
SHOWDOWN = ("show", "muck", "claim_board")


class WriteForm(forms.Form):
    """What every write to a hand carries: the tap's id, the hand and the version shown."""

    client_id = forms.CharField(max_length=64)
    hand = forms.IntegerField(min_value=1)
    version = forms.IntegerField(min_value=0)

    def clean_client_id(self) -> str:
        value: str = self.cleaned_data["client_id"].strip()
        if not CLIENT_ID.match(value):
            raise forms.ValidationError("The tablet sent a malformed request id: reload the page.")
        return value

    def first_error(self) -> str:
        for errors in self.errors.values():
            if errors:
                return str(errors[0])
        return "The request could not be read: reload the page."


class ActionForm(WriteForm):
    """One entry: `action` is the button tapped ("fold", "call", "raise:1700", "raise" with the
    typed `amount`, "deal_board" with `cards`, "show" with `seat` and `cards`, ...)."""

    action = forms.CharField(max_length=40)
    amount = forms.IntegerField(required=False, max_value=10**12, min_value=-(10**12))
    seat = forms.IntegerField(required=False, min_value=1, max_value=20)
    cards = forms.MultipleChoiceField(choices=[(c, c) for c in CARD_CODES], required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        action = str(data.get("action", ""))
        kind, _, size = action.partition(":")
        if kind not in (*BETTING, *SIZED, *BOARD, *SHOWDOWN):
            raise forms.ValidationError(f"Unknown action '{action}': reload the page.")
        amount = data.get("amount")
        if size:
            if kind not in SIZED or not size.isdigit():
                raise forms.ValidationError(f"Unknown action '{action}': reload the page.")
            amount = int(size)
        elif kind in SIZED and amount is None:
            raise forms.ValidationError("Type the amount first, then tap the button.")
        data["kind"] = kind
        data["amount"] = amount if kind in SIZED else None
        if kind in SHOWDOWN and data.get("seat") is None:
            raise forms.ValidationError("Pick the player who shows or mucks.")
        return data


class ReasonedWriteForm(WriteForm):
    """A write that needs a reason, picked from the offered ones or typed (the typed one wins);
    it stays in the hand's log."""

    missing_reason = "Pick or type a reason."
    reason = forms.CharField(max_length=200, required=False)
    reason_text = forms.CharField(max_length=200, required=False)

    def clean(self) -> dict[str, Any]:
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

    last_hand = forms.IntegerField(min_value=0)
    # Cash tables: the plan the dealer was shown, and whether the offered player straddles.
    plan = forms.CharField(max_length=32, required=False)
    straddle = forms.BooleanField(required=False)


# --- cash tables -------------------------------------------------------------------------------


class CashTableForm(forms.Form):
    """A new cash table: the service checks the stakes, the buy-in limits and the rules."""

    number = forms.IntegerField(min_value=1, max_value=999)
    name = forms.CharField(max_length=80, required=False)
    rule_profile = forms.ChoiceField(
        choices=[("casino_cash", "Casino cash (S2)"), ("texas_6plus", "Texas 6+ (S0)")]
    )
    game = forms.ChoiceField(choices=[("holdem", "Texas Hold'em"), ("sixplus", "Texas 6+")])
    structure = forms.ChoiceField(
        choices=[
            ("no_limit", "No limit"),
            ("pot_limit", "Pot limit"),
            ("fixed_limit", "Fixed limit"),
        ]
    )
    small_blind = forms.IntegerField(min_value=0, max_value=10**9)
    big_blind = forms.IntegerField(min_value=1, max_value=10**9)
    ante = forms.IntegerField(min_value=0, max_value=10**9, required=False)
    min_buy_in = forms.IntegerField(min_value=1, max_value=10**12)
    max_buy_in = forms.IntegerField(min_value=1, max_value=10**12)
    seat_count = forms.IntegerField(min_value=2, max_value=10, initial=9)
    missed_blind_policy = forms.ChoiceField(
        required=False,
        choices=[
            ("", "The profile's"),
            ("S2_casino", "S2 casino: post the blinds at once"),
            ("S0_missed_blinds", "S0: miss the big blind, wait for the button"),
            ("S3_blind_penalties", "S3: blind penalties"),
        ],
    )
    missed_sb_fallback = forms.ChoiceField(
        required=False,
        choices=[
            ("", "The profile's"),
            ("sb_dead", "Small blind dead"),
            ("bb_live_s3", "A big blind live"),
        ],
    )
    button_mode = forms.ChoiceField(
        required=False, choices=[("", "The profile's"), ("moving", "Moving"), ("dead", "Dead")]
    )
    short_blind = forms.ChoiceField(
        required=False,
        choices=[("", "The profile's"), ("allin_post", "All-in post"), ("half_rule", "Half rule")],
    )
    heads_up_button_posts = forms.ChoiceField(
        required=False,
        choices=[
            ("", "The profile's"),
            ("small", "Button posts small"),
            ("big", "Button posts big"),
        ],
    )
    initial_button = forms.ChoiceField(
        required=False,
        choices=[
            ("", "The profile's"),
            ("draw", "High-card draw"),
            ("first_seated", "First seated"),
        ],
    )
    straddle_allowed = forms.ChoiceField(
        required=False, choices=[("", "The profile's"), ("yes", "Allowed"), ("no", "Not allowed")]
    )

    OPTION_KEYS = (
        "missed_blind_policy",
        "missed_sb_fallback",
        "button_mode",
        "short_blind",
        "heads_up_button_posts",
        "initial_button",
    )

    def values(self) -> dict[str, Any]:
        """The service's arguments: the game, and the rule options chosen as overrides."""
        data = self.cleaned_data
        overrides: dict[str, Any] = {key: data[key] for key in self.OPTION_KEYS if data.get(key)}
        if data.get("straddle_allowed"):
            overrides["straddle_allowed"] = data["straddle_allowed"] == "yes"
        fields = ("number", "name", "rule_profile", "game", "structure", "small_blind")
        values = {key: data[key] for key in fields}
        values.update(
            big_blind=data["big_blind"],
            ante=data.get("ante") or 0,
            min_buy_in=data["min_buy_in"],
            max_buy_in=data["max_buy_in"],
            seat_count=data["seat_count"],
            rule_overrides=overrides,
        )
        return values


class CashSeatForm(forms.Form):
    seat = forms.IntegerField(min_value=1, max_value=10)
    player_name = forms.CharField(max_length=80)
    buy_in = forms.IntegerField(min_value=0, max_value=10**12)
    choice = forms.ChoiceField(
        choices=[
            ("wait_bb", "Wait for the big blind"),
            ("post_now", "Post a big blind now"),
            ("button_pass", "Let the button pass, then post"),
        ]
    )


class CashSeatActionForm(forms.Form):
    """A change to one seat: sit out, back (posting now or waiting for the big blind), top up,
    leave."""

    action = forms.ChoiceField(
        choices=[
            ("sit_out", "Sit out"),
            ("back_post", "Back: post now"),
            ("back_wait", "Back: wait for the big blind"),
            ("top_up", "Top up"),
            ("leave", "Leave"),
        ]
    )
    amount = forms.IntegerField(min_value=0, max_value=10**12, required=False)


class WaitlistForm(forms.Form):
    player_name = forms.CharField(max_length=80)
