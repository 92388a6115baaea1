"""The desk's forms for the tables at scale: the search box, a seat move, a seat lock, a new
table. Each only reads what the page sent; the services decide."""

from __future__ import annotations

from django import forms

from tournaments.forms import record_id
from tournaments.seating import MAX_SEATS, MIN_SEATS

MAX_TABLE = 9999


class TableSearchForm(forms.Form):
    """A table number or part of a player's name (GET ``q``); ``at`` marks the answer a search
    already jumped to."""

    q = forms.CharField(required=False, max_length=80)
    at = forms.IntegerField(required=False, min_value=1, max_value=MAX_TABLE)


class SeatMoveForm(forms.Form):
    """Move an entry to a table (by its number, as the floor says it) and seat."""

    entry = record_id(error_messages={"required": "Pick the player to move."})
    table = forms.IntegerField(
        min_value=1,
        max_value=MAX_TABLE,
        error_messages={
            "required": "Enter the table to move to.",
            "invalid": "Enter a table number.",
        },
    )
    seat = forms.IntegerField(
        min_value=1,
        max_value=MAX_SEATS,
        error_messages={
            "required": "Enter the seat to move to.",
            "invalid": f"Enter a seat from 1 to {MAX_SEATS}.",
        },
    )


class SeatLockForm(forms.Form):
    """Lock (``locked=1``) or unlock (``locked=0``) a seat."""

    seat = forms.IntegerField(min_value=1, max_value=MAX_SEATS)
    locked = forms.TypedChoiceField(
        choices=[("1", "lock"), ("0", "unlock")], coerce=lambda v: v == "1"
    )


class TableAddForm(forms.Form):
    """A new table: its number (blank: the next one) and its seats (blank: the event's size)."""

    number = forms.IntegerField(required=False, min_value=1, max_value=MAX_TABLE)
    seat_count = forms.IntegerField(
        required=False,
        min_value=MIN_SEATS,
        max_value=MAX_SEATS,
        error_messages={
            "min_value": f"A table has {MIN_SEATS} to {MAX_SEATS} seats.",
            "max_value": f"A table has {MIN_SEATS} to {MAX_SEATS} seats.",
        },
    )
