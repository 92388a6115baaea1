"""Forms of the games and lists pages: they read what the floor or the player typed; the services
(`dealer.cash.games.services`, `dealer.cash.games.waitlist`) check the stakes, the list and
the seats."""

from __future__ import annotations

from django import forms

from dealer.cash.seats.forms import MAX_CHIPS
from dealer.cash.seats.services import ENTRY_CHOICES
from tournaments.models import Tournament


class GameForm(forms.Form):
    name = forms.CharField(max_length=40, help_text='As the room calls it: "1/2 NL"')
    game = forms.ChoiceField(choices=Tournament.Game.choices)
    structure = forms.ChoiceField(choices=Tournament.Structure.choices)
    small_blind = forms.IntegerField(min_value=0, max_value=MAX_CHIPS)
    big_blind = forms.IntegerField(min_value=1, max_value=MAX_CHIPS)
    hold_seconds = forms.IntegerField(
        min_value=1,
        max_value=MAX_CHIPS,
        initial=180,
        label="Hold a called seat (seconds)",
    )


class StakesForm(forms.Form):
    small_blind = forms.IntegerField(min_value=0, max_value=MAX_CHIPS)
    big_blind = forms.IntegerField(min_value=1, max_value=MAX_CHIPS)
    min_buy_in = forms.IntegerField(min_value=1, max_value=MAX_CHIPS, required=False)
    max_buy_in = forms.IntegerField(min_value=1, max_value=MAX_CHIPS, required=False)


class NameForm(forms.Form):
    player_name = forms.CharField(
        max_length=80,
        label="Name",
        error_messages={"required": "Type your name: the floor calls you by it."},
    )


class AttachForm(forms.Form):
    table = forms.IntegerField(min_value=1)
    confirm = forms.BooleanField(required=False)


class CloseForm(forms.Form):
    """Close one table (nothing to fill in: the players go in seat order)."""


class MustMoveForm(forms.Form):
    main = forms.IntegerField(min_value=1, required=False)


class BreakForm(forms.Form):
    to_game = forms.IntegerField(min_value=1, required=False)


class EntryForm(forms.Form):
    action = forms.ChoiceField(
        choices=[("seat", "Seated"), ("no_show", "No-show"), ("remove", "Off")]
    )
    buy_in = forms.IntegerField(min_value=1, max_value=MAX_CHIPS, required=False)
    choice = forms.ChoiceField(choices=list(ENTRY_CHOICES.items()), initial="wait_bb")


class ChangeForm(forms.Form):
    action = forms.ChoiceField(choices=[("open", "Open"), ("close", "Close")])
