"""A setting is bounded alike on the desk's form and in the API (issue 28): the form once took
100 entries per player and level 200 at most, the API 32,767 of each; the chips 2,000,000,000
on the form and 2,147,483,647 in the API. Both now read `tournaments/limits.py`
(and `common/limits.py`)."""

from __future__ import annotations

import pytest
from django import forms

from tournaments.api.events import TournamentSettingsInputSerializer
from tournaments.api.schedules import LevelInputSerializer
from tournaments.forms import LevelForm, TournamentForm


def _bounds(field: object) -> tuple[object, object]:
    return getattr(field, "min_value", None), getattr(field, "max_value", None)


def _shared(form_class: type[forms.Form], serializer_class: type) -> list[str]:
    form_fields = form_class.base_fields
    serializer_fields = serializer_class().fields
    return sorted(
        name
        for name, field in form_fields.items()
        if isinstance(field, forms.IntegerField) and name in serializer_fields
    )


PAIRS = [(TournamentForm, TournamentSettingsInputSerializer), (LevelForm, LevelInputSerializer)]


@pytest.mark.parametrize(("form_class", "serializer_class"), PAIRS)
def test_every_whole_number_setting_has_the_same_bounds_on_the_form_and_in_the_api(
    form_class, serializer_class
):
    shared = _shared(form_class, serializer_class)
    assert len(shared) >= 4  # the comparison reaches the settings
    serializer_fields = serializer_class().fields
    differ = {
        name: (_bounds(form_class.base_fields[name]), _bounds(serializer_fields[name]))
        for name in shared
        if _bounds(form_class.base_fields[name])[1] != _bounds(serializer_fields[name])[1]
    }
    assert differ == {}
