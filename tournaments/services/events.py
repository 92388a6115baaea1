"""Blind schedules and tournaments: create, edit, copy the schedule, change status."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import transaction

from dealer.engine.errors import ConfigError
from dealer.engine.rules import make_rules
from tournaments import clock
from tournaments.models import BlindLevel, BlindSchedule, Tournament, TournamentLevel
from tournaments.payouts import PayoutError, PayoutTable
from tournaments.services.audit import audit_record
from tournaments.services.errors import FloorError, from_value_error

LEVEL_FIELDS = ("small_blind", "big_blind", "ante", "bb_ante", "duration", "is_break", "note")


def levels_as_clock(rows: Iterable[Any]) -> tuple[clock.Level, ...]:
    """Schedule rows (model rows, or dicts from a form or the API) as the clock's `Level`s."""

    def fields(row: Any) -> dict[str, Any]:
        if isinstance(row, Mapping):
            return {name: row[name] for name in LEVEL_FIELDS if name in row}
        return {name: getattr(row, name) for name in LEVEL_FIELDS}

    return tuple(clock.Level(**fields(row)) for row in rows)


def check_schedule(levels: Sequence[Mapping[str, Any]]) -> tuple[clock.Level, ...]:
    """Validate level rows (dicts) with the clock's schedule rules; refuse with the first fault."""
    try:
        values = levels_as_clock(levels)
        clock.check_levels(values)
    except (TypeError, ValueError) as error:
        if isinstance(error, clock.ClockError):
            raise from_value_error(error) from error
        raise FloorError(
            "bad_level", f"A level is incomplete or malformed: {error}.", status=400
        ) from error
    return values


@transaction.atomic
def schedule_create(
    *, name: str, levels: Sequence[Mapping[str, Any]], actor: Any = None
) -> BlindSchedule:
    """A reusable blind schedule (template)."""
    check_schedule(levels)
    if BlindSchedule.objects.filter(name=name).exists():
        raise FloorError("duplicate_schedule", f"A schedule named '{name}' already exists.")
    schedule = BlindSchedule.objects.create(name=name)
    _write_levels(BlindLevel, {"schedule": schedule}, levels)
    audit_record(
        tournament=None, actor=actor, action="schedule_create", schedule=name, levels=len(levels)
    )
    return schedule


@transaction.atomic
def schedule_replace_levels(
    *, schedule: BlindSchedule, levels: Sequence[Mapping[str, Any]], actor: Any = None
) -> BlindSchedule:
    """Replace a template's levels. Tournaments keep their own copy and are not affected."""
    check_schedule(levels)
    schedule.levels.all().delete()
    _write_levels(BlindLevel, {"schedule": schedule}, levels)
    audit_record(
        tournament=None,
        actor=actor,
        action="schedule_edit",
        schedule=schedule.name,
        levels=len(levels),
    )
    return schedule


def _write_levels(
    model: Any, owner: Mapping[str, Any], levels: Sequence[Mapping[str, Any]]
) -> None:
    model.objects.bulk_create(
        model(order=index, **owner, **{k: row.get(k, _default(k)) for k in LEVEL_FIELDS})
        for index, row in enumerate(levels)
    )


def _default(name: str) -> Any:
    return {
        "ante": 0,
        "bb_ante": False,
        "is_break": False,
        "note": "",
        "small_blind": 0,
        "big_blind": 0,
    }.get(name)


TOURNAMENT_FIELDS = (
    "name",
    "game",
    "structure",
    "rule_profile",
    "rule_overrides",
    "buy_in",
    "fee",
    "starting_stack",
    "seats_per_table",
    "late_registration_level",
    "max_entries_per_player",
    "rebuy_price",
    "rebuy_chips",
    "rebuy_until_level",
    "addon_price",
    "addon_chips",
    "guarantee",
    "payout_percentages",
    "payout_unit",
    "icm_enabled",
)


def check_tournament_settings(values: Mapping[str, Any]) -> None:
    """Rules and payout settings a tournament cannot run with are refused with a sentence."""
    overrides = dict(values.get("rule_overrides") or {})
    overrides.setdefault("structure", values.get("structure", "no_limit"))
    overrides.setdefault("game", values.get("game", "holdem"))
    overrides.setdefault("mode", "tournament")
    try:
        make_rules(values.get("rule_profile", "tda_tournament"), overrides)
    except ConfigError as error:
        raise FloorError(error.code, error.detail, status=400) from error
    percentages = values.get("payout_percentages") or []
    if percentages:
        try:
            PayoutTable(percentages=tuple(Decimal(str(p)) for p in percentages))
        except PayoutError as error:
            raise from_value_error(error) from error
    if Decimal(str(values.get("payout_unit", "1"))) <= 0:
        raise FloorError(
            "bad_payout_unit", "The payout rounding unit must be positive.", status=400
        )


@transaction.atomic
def tournament_create(*, schedule: BlindSchedule, actor: Any = None, **values: Any) -> Tournament:
    """Open a new tournament with its own copy of the schedule's levels."""
    unknown = set(values) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise FloorError(
            "bad_field", f"Unknown tournament setting: {', '.join(sorted(unknown))}.", status=400
        )
    check_tournament_settings(values)
    rows = list(schedule.levels.values(*LEVEL_FIELDS))
    if not rows:
        raise FloorError("empty_schedule", f"The schedule '{schedule.name}' has no levels.")
    tournament = Tournament.objects.create(**values)
    _write_levels(TournamentLevel, {"tournament": tournament}, rows)
    audit_record(
        tournament=tournament,
        actor=actor,
        action="tournament_create",
        name=tournament.name,
        schedule=schedule.name,
    )
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, actor: Any = None, **values: Any) -> Tournament:
    """Change settings; the game and betting structure are fixed once play has started."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    unknown = set(values) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise FloorError(
            "bad_field", f"Unknown tournament setting: {', '.join(sorted(unknown))}.", status=400
        )
    started = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.PAUSED)
    if started and any(k in values for k in ("game", "structure", "starting_stack")):
        raise FloorError(
            "tournament_started",
            "The game, structure and starting stack cannot change once the tournament has started.",
        )
    merged = {name: getattr(tournament, name) for name in TOURNAMENT_FIELDS} | values
    check_tournament_settings(merged)
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament.save()
    audit_record(
        tournament=tournament, actor=actor, action="tournament_update", fields=sorted(values)
    )
    return tournament


def tournament_rules(tournament: Tournament) -> Any:
    """The engine's rules for a tournament's hands."""
    overrides = dict(tournament.rule_overrides or {})
    overrides.update(structure=tournament.structure, game=tournament.game, mode="tournament")
    return make_rules(tournament.rule_profile, overrides)


@transaction.atomic
def tournament_open_registration(*, tournament: Tournament, actor: Any = None) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.PLANNED:
        raise FloorError(
            "bad_status",
            f"Registration can only open for a planned tournament; "
            f"this one is {tournament.status}.",
        )
    tournament.status = Tournament.Status.REGISTERING
    tournament.save(update_fields=["status", "updated_at"])
    audit_record(tournament=tournament, actor=actor, action="registration_open")
    return tournament


@transaction.atomic
def tournament_finish(*, tournament: Tournament, actor: Any = None) -> Tournament:
    """Mark the tournament finished and stop its clock; a finished one is refused (409), so a
    second click leaves no second entry in the audit log."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise FloorError("tournament_finished", "The tournament is finished already.")
    tournament.status = Tournament.Status.FINISHED
    if tournament.clock_ends_at is not None:
        # A started clock is stored running or paused, never neither: it stops with 0 left.
        tournament.clock_remaining = 0
    tournament.clock_ends_at = None
    tournament.save(update_fields=["status", "clock_ends_at", "clock_remaining", "updated_at"])
    audit_record(tournament=tournament, actor=actor, action="tournament_finish")
    return tournament
