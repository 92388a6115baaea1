"""Input and output serializers of the games and lists API (`dealer.cash.games.api`)."""

from __future__ import annotations

from rest_framework import serializers

from common.api.limits import chips_field
from dealer.cash.seats.services import ENTRY_CHOICES
from tournaments.models import Tournament

# --- input ---------------------------------------------------------------------------------------


class GameInputSerializer(serializers.Serializer[dict[str, object]]):
    name = serializers.CharField(max_length=40)
    game = serializers.ChoiceField(choices=Tournament.Game.choices, default="holdem")
    structure = serializers.ChoiceField(choices=Tournament.Structure.choices, default="no_limit")
    small_blind = chips_field(min_value=0)
    big_blind = chips_field(min_value=1)
    hold_seconds = chips_field(min_value=1, default=180)
    rule_profile = serializers.CharField(
        max_length=30, default="casino_cash", help_text="the rules every table dealing it takes"
    )
    rule_overrides = serializers.DictField(
        default=dict, help_text="house rules on the profile, the rake among them (rake_percent...)"
    )


class StakesInputSerializer(serializers.Serializer[dict[str, object]]):
    small_blind = chips_field(min_value=0)
    big_blind = chips_field(min_value=1)
    min_buy_in = chips_field(min_value=1, required=False)
    max_buy_in = chips_field(min_value=1, required=False)


class BreakInputSerializer(serializers.Serializer[dict[str, object]]):
    to_game = chips_field(
        required=False, allow_null=True, help_text="another game's list (default: this game's)"
    )


class AttachInputSerializer(serializers.Serializer[dict[str, object]]):
    table = chips_field(help_text="a cash table's id")
    min_buy_in = chips_field(min_value=1, required=False)
    max_buy_in = chips_field(min_value=1, required=False)
    confirm = serializers.BooleanField(
        default=False,
        help_text="players sit at the table for another game: change its game anyway",
    )


class CloseInputSerializer(serializers.Serializer[dict[str, object]]):
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        default=list,
        help_text="the seats' ids in the order their players move (the rest in seat order)",
    )


class MustMoveInputSerializer(serializers.Serializer[dict[str, object]]):
    main = chips_field(
        allow_null=True, help_text="the main table's id (null: no longer a must-move table)"
    )


class JoinInputSerializer(serializers.Serializer[dict[str, object]]):
    player_name = serializers.CharField(max_length=80)


class SeatInputSerializer(serializers.Serializer[dict[str, object]]):
    buy_in = chips_field(
        min_value=1, required=False, help_text="not needed for a must-move player's move"
    )
    choice = serializers.ChoiceField(choices=list(ENTRY_CHOICES.items()), default="wait_bb")


# --- output --------------------------------------------------------------------------------------


class GameTableOutputSerializer(serializers.Serializer[object]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    players = serializers.IntegerField()
    open_seats = serializers.ListField(child=serializers.IntegerField())
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    min_buy_in = serializers.IntegerField()
    max_buy_in = serializers.IntegerField()
    must_move_to = serializers.IntegerField(allow_null=True, help_text="the main table's number")


class ListEntryOutputSerializer(serializers.Serializer[object]):
    id = serializers.IntegerField()
    player = serializers.CharField()
    place = serializers.IntegerField(allow_null=True, help_text="null once called")
    status = serializers.CharField()
    code = serializers.CharField()
    since = serializers.DateTimeField()
    call_table = serializers.IntegerField(allow_null=True)
    call_seat = serializers.IntegerField(allow_null=True)
    hold_until = serializers.DateTimeField(allow_null=True)
    seated_at = serializers.IntegerField(
        allow_null=True, help_text="the number of the game's table the player sits at, if any"
    )
    also_waiting = serializers.BooleanField(help_text="the player is on this list more than once")


class GameOutputSerializer(serializers.Serializer[object]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    game_label = serializers.CharField()
    structure = serializers.CharField()
    structure_label = serializers.CharField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    hold_seconds = serializers.IntegerField()
    is_open = serializers.BooleanField()
    waiting = serializers.IntegerField()
    open_seats = serializers.IntegerField()
    tables = GameTableOutputSerializer(many=True)
    entries = ListEntryOutputSerializer(many=True)


class LiveTableOutputSerializer(serializers.Serializer[object]):
    number = serializers.IntegerField()
    players = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    open_seats = serializers.ListField(child=serializers.IntegerField())


class LiveGameOutputSerializer(serializers.Serializer[object]):
    """A game as the public sees it: no names."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    game_label = serializers.CharField()
    structure_label = serializers.CharField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    waiting = serializers.IntegerField()
    open_seats = serializers.IntegerField()
    tables = LiveTableOutputSerializer(many=True)


class PlaceOutputSerializer(serializers.Serializer[object]):
    code = serializers.CharField()
    game_id = serializers.IntegerField()
    game = serializers.CharField()
    player = serializers.CharField()
    status = serializers.CharField(help_text="waiting, called, seated, no_show or removed")
    place = serializers.IntegerField(allow_null=True, help_text="on the list, while waiting")
    waiting = serializers.IntegerField(help_text="players waiting for the game")
    call_table = serializers.IntegerField(allow_null=True)
    call_seat = serializers.IntegerField(allow_null=True)
    hold_until = serializers.DateTimeField(allow_null=True)
