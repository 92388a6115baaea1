"""Forms of the director's player pages and series (see `tournaments.forms` for the habits:
a form checks the shape of what was typed; the services decide what is allowed)."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms

from common.errors import FloorError
from tournaments.forms import first_error
from tournaments.models import Player
from tournaments.selectors.players import MAX_PAGE
from tournaments.services.players import EMAIL_MAX, NAME_MAX, NUMBER_MAX, PHONE_MAX

# Which field a service's refusal concerns, by its code.
PLAYER_REFUSAL_FIELDS = {
    "name_required": "name",
    "name_too_long": "name",
    "bad_name": "name",
    "name_taken": "name",
    "bad_number": "number",
    "number_taken": "number",
    "bad_email": "email",
    "bad_phone": "phone",
    "series_taken": "name",
    "same_player": "merge",
    "both_playing": "merge",
    "both_seated": "merge",
    "not_found": "merge",
}


class PlayerSearchForm(forms.Form):
    """`?q=` (part of a name, or "#1042") and `?page=`."""

    q = forms.CharField(
        required=False,
        max_length=NAME_MAX,
        error_messages={"max_length": f"Type at most {NAME_MAX} characters."},
    )
    page = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_PAGE,
        error_messages={"invalid": "The page is a number.", "min_value": "Pages start at 1."},
    )

    @classmethod
    def read(cls, data: Mapping[str, str]) -> tuple[str, int, str | None]:
        """The query and the page, or "" and 1 with the sentence saying why not."""
        form = cls(data)
        if form.is_valid():
            return form.cleaned_data["q"] or "", form.cleaned_data["page"] or 1, None
        return "", 1, first_error(form)


class PlayerForm(forms.Form):
    """A player's name, number and contact (the director's player page)."""

    name = forms.CharField(max_length=NAME_MAX)
    number = forms.CharField(
        max_length=NUMBER_MAX, required=False, help_text='typed as "#1042" at registration'
    )
    email = forms.CharField(max_length=EMAIL_MAX, required=False, label="E-mail")
    phone = forms.CharField(max_length=PHONE_MAX, required=False)

    @staticmethod
    def initial_from(player: Player) -> dict[str, str]:
        return {
            "name": player.name,
            "number": player.number,
            "email": player.email,
            "phone": player.phone,
        }


class PlayerMergeForm(forms.Form):
    """The player merged into the one whose page this is (then deleted)."""

    merge = forms.IntegerField(
        min_value=1,
        label="Merge another player into this one",
        help_text="their player id: the number at the end of their page's address",
        error_messages={
            "invalid": "Type the player's id (a number).",
            "required": "Type the player's id.",
        },
    )


class SeriesForm(forms.Form):
    name = forms.CharField(max_length=120, label="Series name")


def attach_player_refusal(form: forms.BaseForm, error: FloorError) -> None:
    """Show a service's refusal next to the field it concerns, or at the top of the form."""
    field = PLAYER_REFUSAL_FIELDS.get(error.code)
    form.add_error(field if field in form.fields else None, error.detail)
