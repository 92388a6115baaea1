"""Input and output serializers of the cash tables' API.

Inputs check the shape of a request (types, ranges, lengths) before any service runs; the
services refuse what the rules refuse (a seat taken, a buy-in out of the table's range) with
their own codes. Outputs are the schema of the read model (`dealer.cash.seats.selectors`),
serialized as it is.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from common.api.errors import ErrorSerializer
from common.api.limits import chips_field
from common.limits import MAX_NAME
from dealer.cash.seats.services import ENTRY_CHOICES, RETURN_CHOICES
from tournaments.api.fields import (
    NamedChoiceField,
    RuleOverridesField,
    SixPlusChoicesSerializer,
)
from tournaments.models import Tournament

MAX_SEAT = 10  # a cash table has 2 to 10 seats
MAX_TABLE_NUMBER = 999


class Choice(NamedChoiceField):
    """A named choice whose refusal lists the choices instead of echoing what was sent (text
    that no answer can carry, such as a lone surrogate, would otherwise break the answer)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error_messages["invalid_choice"] = "Choose one of: " + ", ".join(self.values) + "."


class EntryChoiceField(Choice):
    schema_name = "CashEntryChoice"
    values = tuple(ENTRY_CHOICES)


class ReturnChoiceField(Choice):
    schema_name = "CashReturnChoice"
    values = tuple(RETURN_CHOICES)


class GameField(Choice):
    schema_name = "CashGame"
    values = tuple(Tournament.Game.values)


class StructureField(Choice):
    schema_name = "CashStructure"
    values = tuple(Tournament.Structure.values)


class SeatStatusField(NamedChoiceField):
    schema_name = "CashSeatStatus"
    values = ("open", "held", "playing", "new", "returning", "sitting_out", "no_chips")


def player_name_field() -> serializers.CharField:
    return serializers.CharField(max_length=MAX_NAME, help_text="the player's name")


# --- inputs ----------------------------------------------------------------------------------


class CashTableInputSerializer(SixPlusChoicesSerializer):
    number = serializers.IntegerField(min_value=1, max_value=MAX_TABLE_NUMBER)
    name = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    rule_profile = serializers.CharField(
        max_length=30,
        default="casino_cash",
        help_text="`casino_cash` (S2) or `texas_6plus` (S0; plays the 36-card game)",
    )
    game = GameField(default="holdem")
    structure = StructureField(default="no_limit")
    small_blind = chips_field(min_value=0)
    big_blind = chips_field(min_value=1)
    ante = chips_field(min_value=0, default=0)
    min_buy_in = chips_field(min_value=1)
    max_buy_in = chips_field(min_value=1)
    seat_count = serializers.IntegerField(min_value=2, max_value=MAX_SEAT, default=9)
    rule_overrides = RuleOverridesField(
        required=False,
        default=dict,
        help_text="house rules, option name to value (`missed_blind_policy`, `button_mode`, "
        "`straddle_allowed`, ...; docs/rules.md): the profile's otherwise",
    )


class CashSeatInputSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=MAX_SEAT)
    player_name = player_name_field()
    buy_in = chips_field(min_value=0, help_text="between the table's minimum and maximum")
    choice = EntryChoiceField(
        default="wait_bb",
        help_text="`wait_bb`: wait for the big blind; `post_now`: post a big blind now; "
        "`button_pass`: let the button pass, then post (not under S0's policy)",
    )


class CashBackInputSerializer(serializers.Serializer):
    choice = ReturnChoiceField(
        default="post",
        help_text="`post`: post what is owed as soon as the seat allows; `wait_bb`: wait for "
        "the big blind, which settles everything owed",
    )


class CashTopUpInputSerializer(serializers.Serializer):
    amount = chips_field(min_value=0, help_text="chips to add, up to the maximum buy-in")


class CashCorrectInputSerializer(serializers.Serializer):
    chips = chips_field(min_value=0, help_text="the chips on the table: the stack it becomes")
    reason = serializers.CharField(
        max_length=200, allow_blank=True, help_text="why (kept in the ledger with who)"
    )


class SeatChangeInputSerializer(serializers.Serializer):
    cancel = serializers.BooleanField(default=False, help_text="the player asks no more")


class CashMoveInputSerializer(serializers.Serializer):
    to_table = serializers.IntegerField(min_value=1, help_text="the cash table's id")
    to_seat = serializers.IntegerField(min_value=1, max_value=10)
    choice = serializers.ChoiceField(
        choices=["wait_bb", "post_now", "button_pass"],
        default="wait_bb",
        help_text="the entry choice at the new table",
    )


class CashWaitlistInputSerializer(serializers.Serializer):
    player_name = player_name_field()


# --- outputs: the next hand ------------------------------------------------------------------


class PlanPostSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    live = serializers.IntegerField(help_text="counts toward the player's bet")
    dead = serializers.IntegerField(help_text="goes to the middle, belongs to no bet")
    ante = serializers.IntegerField()
    why = serializers.CharField()


class PlanWaitingSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField()
    reason = serializers.CharField()


class NextHandOutputSerializer(serializers.Serializer):
    """The next hand at a cash table, as the dealer sees it before the deal."""

    signature = serializers.CharField()
    button_seat = serializers.IntegerField()
    small_blind_seat = serializers.IntegerField(allow_null=True)
    big_blind_seat = serializers.IntegerField()
    heads_up = serializers.BooleanField()
    restart = serializers.BooleanField(help_text="the game (re)starts: nobody owes anything")
    posts = PlanPostSerializer(
        many=True, help_text="every player dealt in, left of the button first"
    )
    waiting = PlanWaitingSerializer(many=True)
    straddle_seat = serializers.IntegerField(allow_null=True)
    straddle_amount = serializers.IntegerField()


# --- outputs: the tables ---------------------------------------------------------------------


class CashTableSummaryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    structure = serializers.CharField()
    rule_profile = serializers.CharField()
    rule_overrides = serializers.DictField(help_text="the house rules set at the opening")
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    min_buy_in = serializers.IntegerField()
    max_buy_in = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    players = serializers.IntegerField(help_text="seats taken")
    waiting = serializers.IntegerField(help_text="players on the waiting list")
    dealer = serializers.CharField(allow_null=True, help_text="the assigned dealer's username")
    is_open = serializers.BooleanField()


class CashSeatOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    id = serializers.IntegerField(
        allow_null=True, help_text="the taken seat's id, for the seat's writes; null: open"
    )
    player = serializers.CharField(allow_null=True)
    chips = serializers.IntegerField(allow_null=True)
    bought_in = serializers.IntegerField(allow_null=True, help_text="every buy-in and top-up")
    status = SeatStatusField()
    state = serializers.CharField(help_text="the status in the floor's words")
    owes = serializers.CharField(
        allow_blank=True, help_text="what the player owes to come in, in the dealer's words"
    )
    owes_live = serializers.IntegerField()
    owes_dead = serializers.IntegerField()
    away = serializers.BooleanField(help_text="sitting out")
    new = serializers.BooleanField(help_text="owes the entry (has not played since sitting)")
    missed_small = serializers.BooleanField()
    missed_big = serializers.BooleanField()
    wait_button = serializers.BooleanField(help_text="comes in once the button has passed")
    wait_big_blind = serializers.BooleanField(help_text="comes in with the big blind")
    held_for = serializers.CharField(
        allow_null=True, help_text="an open seat held for this player, called from the list"
    )
    seat_change = serializers.BooleanField(
        help_text="the player asked for another seat or table of the game"
    )


class WaitingEntryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.CharField()
    since = serializers.DateTimeField()
    called = serializers.BooleanField(help_text="called to a seat, which is held for them")


class CashButtonDrawOutputSerializer(serializers.Serializer):
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="in deal order")
    cards = serializers.CharField(help_text="one card per seat, in deal order")
    tiebreak = serializers.CharField()
    winner_seat = serializers.IntegerField(help_text="the button's seat")
    created_at = serializers.DateTimeField()


class CashTableOutputSerializer(CashTableSummaryOutputSerializer):
    """One cash table: the same read model as its seats page."""

    dealer_id = serializers.IntegerField(allow_null=True)
    rules = serializers.DictField(help_text="every rule option in force (profile + house rules)")
    button_seat = serializers.IntegerField(allow_null=True)
    seats = CashSeatOutputSerializer(many=True, help_text="every seat from 1; open ones too")
    open_seats = serializers.ListField(child=serializers.IntegerField())
    waiting_list = WaitingEntryOutputSerializer(many=True, help_text="first come, first served")
    button_draw = CashButtonDrawOutputSerializer(
        allow_null=True, help_text="the last high-card draw for the button"
    )
    first_hand = serializers.BooleanField(help_text="no hand has been dealt yet")
    hand_in_progress = serializers.IntegerField(
        allow_null=True, help_text="the number of the hand in progress, if one is"
    )
    next_hand = NextHandOutputSerializer(allow_null=True, help_text="null when none can start")
    next_hand_refusal = ErrorSerializer(
        allow_null=True, help_text="why no hand can start (`not_enough_players`, `no_button`)"
    )


class CashLeaveOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    chips = serializers.IntegerField(help_text="the chips the player left with")
    called = serializers.CharField(
        allow_null=True, help_text="the player called to the seat from the lists, if anyone"
    )
    table = CashTableOutputSerializer()
