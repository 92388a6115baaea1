"""The rotation's API bodies: the plan, a dealer for the shift list, the board, the push's
sign-in with its PIN, and the staff accounts."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


class PlanSerializer(serializers.Serializer):
    down_minutes = serializers.IntegerField(help_text="a down's length: 20 to 30 minutes")
    downs_before_break = serializers.IntegerField(help_text="downs dealt before a break: 1 to 12")
    break_minutes = serializers.IntegerField(
        help_text="a break's length: 5 to 60 minutes, rounded up to whole downs in the schedule"
    )


class ShiftInputSerializer(serializers.Serializer):
    dealer = serializers.IntegerField(help_text="the id of an active account in the dealer group")


class TableRowSerializer(serializers.Serializer):
    table_id = serializers.IntegerField()
    table = serializers.CharField()
    dealing = serializers.CharField(help_text="the table's dealer now: who may deal its hands")
    due = serializers.CharField(help_text="the incoming dealer not signed in yet, or empty")
    late = serializers.BooleanField(help_text="the incoming dealer is 5 minutes late or more")
    next_dealer = serializers.CharField(help_text="the dealer at the next push (empty: waits)")


class ShiftRowSerializer(serializers.Serializer):
    dealer_id = serializers.IntegerField()
    dealer = serializers.CharField()
    since = serializers.DateTimeField(help_text="on shift since")
    now = serializers.CharField(help_text='the table of the current down, "Break", or empty')
    until = serializers.DateTimeField(allow_null=True, help_text="the end of that down or break")


class OffShiftSerializer(serializers.Serializer):
    dealer_id = serializers.IntegerField()
    dealer = serializers.CharField()


class BoardSerializer(serializers.Serializer):
    plan = PlanSerializer()
    next_push_at = serializers.DateTimeField(allow_null=True)
    tables = TableRowSerializer(many=True)
    breaks = ShiftRowSerializer(many=True)
    shift = ShiftRowSerializer(many=True)
    off_shift = serializers.SerializerMethodField()

    @extend_schema_field(OffShiftSerializer(many=True))
    def get_off_shift(self, board: object) -> list[dict[str, object]]:
        rows = getattr(board, "off_shift", [])
        return [{"dealer_id": pk, "dealer": name} for pk, name in rows]


class SignInOutputSerializer(serializers.Serializer):
    table_id = serializers.IntegerField()
    dealer_id = serializers.IntegerField()
    signed_in_at = serializers.DateTimeField()
    token = serializers.CharField(
        required=False,
        help_text="signed in with a token: the incoming dealer's new token for this device, "
        "shown once (the one sent stopped working)",
    )


class SignInInputSerializer(serializers.Serializer):
    pin = serializers.CharField(
        max_length=64, trim_whitespace=False, help_text="the incoming dealer's PIN (4-6 digits)"
    )


class StaffInputSerializer(serializers.Serializer):
    role = serializers.ChoiceField(
        choices=["dealer", "floor"], help_text="dealer: a PIN; floor: a staff account, a password"
    )
    username = serializers.CharField(max_length=150)
    name = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")
    pin = serializers.CharField(
        max_length=64, required=False, allow_blank=True, default="", trim_whitespace=False,
        help_text="a dealer's PIN: 4 to 6 digits, stored hashed, never shown again",
    )  # fmt: skip
    password = serializers.CharField(
        max_length=128, required=False, allow_blank=True, default="", trim_whitespace=False,
        help_text="a floor account's password (the site's password rules)",
    )  # fmt: skip


class PinInputSerializer(serializers.Serializer):
    pin = serializers.CharField(max_length=64, trim_whitespace=False, help_text="4 to 6 digits")


class StaffRowSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="user_id")
    username = serializers.CharField()
    name = serializers.CharField(help_text="the display name (the username when none)")
    role = serializers.CharField(help_text='"dealer" or "floor"')
    is_active = serializers.BooleanField()
    has_pin = serializers.BooleanField(help_text="a dealer with a PIN set (never the PIN)")
