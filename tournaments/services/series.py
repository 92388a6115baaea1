"""Series: a festival's events grouped under one name (the player's page shows each result
with its series). The one writer of `Series` rows; a tournament joins a series through its
settings (`events.tournament_update`, the `series` setting)."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from common.actors import Actor
from common.errors import FloorConflict, FloorInvalid
from tournaments.models import Series
from tournaments.names import clean_name
from tournaments.services.audit import audit_record

NAME_MAX = 120


@transaction.atomic
def series_create(*, name: str, actor: Actor = None) -> Series:
    """A new series; a name already used (whatever its case) is 409 `series_taken`."""
    name = clean_name(name)
    if not name:
        raise FloorInvalid("name_required", "Enter the series' name.")
    if len(name) > NAME_MAX:
        raise FloorInvalid("name_too_long", f"A series' name is at most {NAME_MAX} characters.")
    if Series.objects.filter(name__iexact=name).exists():
        raise FloorConflict("series_taken", f"There is already a series called {name}.")
    try:
        with transaction.atomic():
            series = Series.objects.create(name=name)
    except IntegrityError as error:  # created meanwhile
        raise FloorConflict("series_taken", f"There is already a series called {name}.") from error
    audit_record(tournament=None, actor=actor, action="series_create", series=name)
    return series
