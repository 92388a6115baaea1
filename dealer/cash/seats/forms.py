"""Forms of the cash tables' pages: they read what the floor typed; the services check the stakes,
the buy-in limits and the rules (`dealer.cash.seats.services`)."""

from __future__ import annotations

from typing import Any

from django import forms

from dealer.cash.seats.services import CashTableSettings
from dealer.engine.rule_text import OPTION_WORDS
from dealer.engine.rules import OptionValue
from tournaments.forms import sixplus_field, sixplus_overrides

MAX_CHIPS = 2**31 - 1  # chips (a buy-in, a stack, a limit) fit their column on every database


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
    min_buy_in = forms.IntegerField(min_value=1, max_value=MAX_CHIPS)
    max_buy_in = forms.IntegerField(min_value=1, max_value=MAX_CHIPS)
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
    sixplus_flush_beats_full_house = sixplus_field("sixplus_flush_beats_full_house")
    sixplus_trips_beat_straight = sixplus_field("sixplus_trips_beat_straight")

    OPTION_KEYS = (
        "missed_blind_policy",
        "missed_sb_fallback",
        "button_mode",
        "short_blind",
        "heads_up_button_posts",
        "initial_button",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The house rules are labelled as the rules page words them, never by their keys.
        for key in (*self.OPTION_KEYS, "straddle_allowed"):
            self.fields[key].label = OPTION_WORDS[key].title

    def values(self) -> CashTableSettings:
        """The service's arguments: the game, and the rule options chosen as overrides (the
        engine refuses the 6+ ranking options for hold'em, in its own words)."""
        data = self.cleaned_data
        overrides: dict[str, OptionValue] = {
            key: data[key] for key in self.OPTION_KEYS if data.get(key)
        }
        if data.get("straddle_allowed"):
            overrides["straddle_allowed"] = data["straddle_allowed"] == "yes"
        overrides.update(sixplus_overrides(data))
        return {
            "number": data["number"],
            "name": data["name"],
            "rule_profile": data["rule_profile"],
            "game": data["game"],
            "structure": data["structure"],
            "small_blind": data["small_blind"],
            "big_blind": data["big_blind"],
            "ante": data.get("ante") or 0,
            "min_buy_in": data["min_buy_in"],
            "max_buy_in": data["max_buy_in"],
            "seat_count": data["seat_count"],
            "rule_overrides": overrides,
        }


class CashSeatForm(forms.Form):
    seat = forms.IntegerField(min_value=1, max_value=10)
    player_name = forms.CharField(max_length=80)
    buy_in = forms.IntegerField(min_value=0, max_value=MAX_CHIPS)
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
            ("seat_change", "Seat change"),
            ("seat_change_cancel", "No seat change"),
        ]
    )
    amount = forms.IntegerField(min_value=0, max_value=MAX_CHIPS, required=False)


class CashSeatCorrectForm(forms.Form):
    """The floor's correction of a stack: the chips on the table and why."""

    chips = forms.IntegerField(
        min_value=0,
        max_value=MAX_CHIPS,
        error_messages={"required": "Count the chips on the table: the stack it becomes."},
    )
    reason = forms.CharField(
        max_length=200, error_messages={"required": "Say why the stack is corrected."}
    )


class CashSeatMoveForm(forms.Form):
    """A table change with the whole stack: the table and seat, as "table id:seat"."""

    to = forms.RegexField(
        regex=r"^\d{1,9}:\d{1,2}$",
        error_messages={"invalid": "Choose the table and seat to move to."},
    )

    def target(self) -> tuple[int, int]:
        table, seat = self.cleaned_data["to"].split(":")
        return int(table), int(seat)


class WaitlistForm(forms.Form):
    player_name = forms.CharField(max_length=80)
