"""Setting up recurring work fast (issue 26): a whole blind schedule generated in one request,
a copy of a schedule, and a copy of a tournament's settings, schedule, payouts and rules.

Each writes through the one creator of its rows: `events.schedule_create` and
`events.tournament_open`."""

from __future__ import annotations

from django.db import transaction

from common.actors import Actor
from common.errors import FloorConflict, FloorInvalid, from_value_error
from tournaments.models import BlindSchedule, Tournament
from tournaments.selectors.clock import LEVEL_FIELDS
from tournaments.services.events import TOURNAMENT_FIELDS, schedule_create, tournament_open
from tournaments.structures import BlindPlan, PlanError, levels_generate

NAME_MAX = 120


def _check_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise FloorInvalid("name_required", "Give the new name.")
    if len(name) > NAME_MAX:
        raise FloorInvalid("bad_name", f"A name has at most {NAME_MAX} characters.")
    return name


@transaction.atomic
def schedule_generate(*, name: str, plan: BlindPlan, actor: Actor = None) -> BlindSchedule:
    """A whole schedule from the generator's inputs (rule SG-1, `tournaments.structures`)."""
    try:
        levels = levels_generate(plan)
    except PlanError as error:
        raise from_value_error(error) from error
    return schedule_create(name=_check_name(name), levels=levels, actor=actor)


@transaction.atomic
def schedule_copy(*, schedule: BlindSchedule, name: str, actor: Actor = None) -> BlindSchedule:
    """A new schedule with the levels of `schedule` (409 `duplicate_schedule` for a name in
    use)."""
    levels = list(schedule.levels.values(*LEVEL_FIELDS))
    return schedule_create(name=_check_name(name), levels=levels, actor=actor)


@transaction.atomic
def tournament_copy(*, tournament: Tournament, name: str, actor: Actor = None) -> Tournament:
    """A new planned tournament with the settings, the own levels, the payout settings and the
    rules of `tournament`; not its entries, tables, clock or deal. Only a one-day tournament is
    copied (409 `copy_single_only`): a multi-flight event is set up with its flights."""
    if tournament.kind != Tournament.Kind.SINGLE:
        raise FloorConflict(
            "copy_single_only",
            f"{tournament.name} is part of a multi-flight event: only a one-day tournament "
            "can be copied.",
        )
    values = {field: getattr(tournament, field) for field in TOURNAMENT_FIELDS}
    values["name"] = _check_name(name)
    levels = list(tournament.levels.values(*LEVEL_FIELDS))
    return tournament_open(levels=levels, actor=actor, source={"copy_of": tournament.pk}, **values)
