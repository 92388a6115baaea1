"""Blind schedules and tournaments: create, edit, copy the schedule, change status."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import TypeAlias, TypedDict, Unpack

from django.db import transaction
from django.utils import timezone

from common.actors import Actor
from common.errors import FloorError, FloorInvalid, from_value_error
from dealer.engine.errors import ConfigError, Invalid
from dealer.engine.rules import Game, OptionValue, Rules, Structure
from tournaments import clock
from tournaments.models import BlindLevel, BlindSchedule, Entry, Series, Tournament, TournamentLevel
from tournaments.payouts import PayoutError, PayoutTable
from tournaments.selectors.clock import LEVEL_FIELDS, clock_state, levels_as_clock
from tournaments.selectors.rules import rules_current, rules_of
from tournaments.selectors.satellites import players_at_end
from tournaments.selectors.windows import WINDOW_SETTINGS, check_windows
from tournaments.services.audit import audit_changes, audit_record
from tournaments.services.clocks import clock_stop
from tournaments.services.frozen import (
    check_locked_settings,
)
from tournaments.services.locks import lock_tournament
from tournaments.services.places import crown_winner, places_reprice
from tournaments.services.prices import MONEY_SETTINGS, check_money_settings
from tournaments.services.rules import rules_set
from tournaments.services.satellites import check_satellite_target

# The settings the prize pool and the payouts are worked out from.
PRIZE_SETTINGS = {
    "buy_in",
    "rebuy_price",
    "addon_price",
    "guarantee",
    "payout_percentages",
    "payout_unit",
    "satellite_target",  # a satellite's pool pays seats in its target
    "seat_value",
}

LevelRow: TypeAlias = Mapping[str, int | bool | str]
"""A level of a schedule as a page or the API sends it, or as stored (`LEVEL_FIELDS`): blinds,
ante, smallest chip and `duration` in seconds as numbers, `bb_ante` and `is_break` as
booleans, the note as text. A field left out takes its default."""

Money: TypeAlias = Decimal | int | str  # an amount as the forms, the API and the tests give it


class TournamentSettings(TypedDict, total=False):
    """A tournament's settings as `tournament_create`, `tournament_open` and `tournament_update`
    take them (`TOURNAMENT_FIELDS`, the model's fields of the same names)."""

    name: str
    game: str
    structure: str
    rule_profile: str
    rule_overrides: Mapping[str, OptionValue]
    buy_in: Money
    fee: Money
    starting_stack: int
    seats_per_table: int
    late_registration_level: int
    max_entries_per_player: int
    rebuy_price: Money
    rebuy_chips: int
    rebuy_until_level: int
    addon_price: Money
    addon_chips: int
    addon_level: int
    guarantee: Money
    payout_percentages: Sequence[Money | float]
    payout_unit: Money
    icm_enabled: bool
    series: Series | None
    satellite_target: Tournament | None
    seat_value: Money
    bounty_kind: str
    bounty: Money


def check_schedule(levels: Sequence[LevelRow]) -> tuple[clock.Level, ...]:
    """Validate level rows (dicts) with the clock's schedule rules; refuse with the first fault."""
    try:
        values = levels_as_clock(levels)
        clock.check_levels(values)
    except (TypeError, ValueError) as error:
        if isinstance(error, clock.ClockError):
            # The schedule sent is at fault, not the clock's state.
            raise from_value_error(error, kind=Invalid) from error
        raise FloorInvalid("bad_level", f"A level is incomplete or malformed: {error}.") from error
    return values


@transaction.atomic
def schedule_create(*, name: str, levels: Sequence[LevelRow], actor: Actor = None) -> BlindSchedule:
    """A reusable blind schedule (template)."""
    check_schedule(levels)
    if BlindSchedule.objects.filter(name=name).exists():
        raise FloorError("duplicate_schedule", f"A schedule named '{name}' already exists.")
    schedule = BlindSchedule.objects.create(name=name)
    _write_levels(schedule, levels)
    audit_record(
        tournament=None, actor=actor, action="schedule_create", schedule=name, levels=len(levels)
    )
    return schedule


@transaction.atomic
def schedule_replace_levels(
    *, schedule: BlindSchedule, levels: Sequence[LevelRow], actor: Actor = None
) -> BlindSchedule:
    """Replace a template's levels. Tournaments keep their own copy and are not affected.
    The log keeps each level that changed, old -> new ("3": "300/600 20 min" -> "400/800 ...")."""
    check_schedule(levels)
    stored = schedule.levels.order_by("order").values(*LEVEL_FIELDS)
    old = [_level_text(_level_row(row)) for row in stored]
    schedule.levels.all().delete()
    _write_levels(schedule, levels)
    new = [_level_text(_level_row(row)) for row in levels]
    audit_record(
        tournament=None,
        actor=actor,
        action="schedule_edit",
        schedule=schedule.name,
        levels=len(levels),
        changes=audit_changes(
            {str(i + 1): text for i, text in enumerate(old)},
            {str(i + 1): new[i] if i < len(new) else None for i in range(max(len(old), len(new)))},
        ),
    )
    return schedule


def _level_text(row: LevelRow) -> str:
    """A level as the log says it: "300/600 ante 600 (BB), 20 min" or "break, 10 min"."""
    minutes = f"{int(row['duration']) // 60} min"
    if row["is_break"]:
        return f"break, {minutes}"
    ante = f" ante {row['ante']}{' (BB)' if row['bb_ante'] else ''}" if row["ante"] else ""
    return f"{row['small_blind']}/{row['big_blind']}{ante}, {minutes}"


def _write_levels(
    owner: BlindSchedule | Tournament, levels: Sequence[LevelRow], *, first: int = 0
) -> None:
    """Write `levels` as rows `first`, `first + 1`, ... of the owner's schedule."""
    rows = enumerate(levels[first:], start=first)
    if isinstance(owner, BlindSchedule):
        BlindLevel.objects.bulk_create(
            BlindLevel(order=index, schedule=owner, **_level_row(row)) for index, row in rows
        )
    else:
        TournamentLevel.objects.bulk_create(
            TournamentLevel(order=index, tournament=owner, **_level_row(row)) for index, row in rows
        )


# A level's fields left out, at their defaults (`duration` has none: a row without it is
# refused by `check_schedule` first).
_LEVEL_DEFAULTS: dict[str, int | bool | str] = {
    "ante": 0,
    "bb_ante": False,
    "smallest_chip": 1,
    "is_break": False,
    "note": "",
    "small_blind": 0,
    "big_blind": 0,
}


def _level_row(row: LevelRow) -> dict[str, int | bool | str]:
    """A level as stored: every field, the ones left out at their defaults. The rows were
    checked first (`check_schedule`): each has its duration."""
    return {k: row[k] if k in row else _LEVEL_DEFAULTS[k] for k in LEVEL_FIELDS}


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
    "addon_level",
    "guarantee",
    "payout_percentages",
    "payout_unit",
    "icm_enabled",
    "series",
    "satellite_target",
    "seat_value",
    "bounty_kind",
    "bounty",
)


def check_tournament_settings(values: Mapping[str, object]) -> None:
    """Rules and payout settings a tournament cannot run with are refused with a sentence."""
    overrides = values.get("rule_overrides") or {}
    if not isinstance(overrides, Mapping):
        raise FloorInvalid("bad_option_value", "Send the rule options as an object.")
    try:
        rules_of(
            profile=str(values.get("rule_profile", "tda_tournament")),
            overrides=dict(overrides),
            game=str(values.get("game", Game.HOLDEM.value)),
            structure=str(values.get("structure", Structure.NO_LIMIT.value)),
            tournament=True,
        )
    except ConfigError as error:
        raise FloorInvalid(error.code, error.detail) from error
    percentages = values.get("payout_percentages") or []
    if not isinstance(percentages, list | tuple):
        raise FloorInvalid(
            "bad_payout_percentages", "Send the payout percentages as a list of numbers."
        )
    if percentages:
        try:
            PayoutTable(percentages=tuple(Decimal(str(p)) for p in percentages))
        except PayoutError as error:
            raise from_value_error(error) from error
    if Decimal(str(values.get("payout_unit", "1"))) <= 0:
        raise FloorInvalid("bad_payout_unit", "The payout rounding unit must be positive.")
    check_bounty_settings(values)


def check_bounty_settings(values: Mapping[str, object]) -> None:
    """A bounty is never negative, and an event with bounties has one to pay (KO-3)."""
    kind = values.get("bounty_kind", Tournament.Bounty.NONE)
    bounty = Decimal(str(values.get("bounty", "0")))
    if kind not in Tournament.Bounty.values:
        raise FloorInvalid("bad_bounty_kind", f"'{kind}' is not a bounty kind.")
    if bounty < 0:
        raise FloorInvalid("bad_bounty", "The bounty cannot be negative.")
    if kind != Tournament.Bounty.NONE and bounty <= 0:
        raise FloorInvalid(
            "bad_bounty", "An event with bounties needs the bounty on each entry: more than 0."
        )


@transaction.atomic
def tournament_create(
    *, schedule: BlindSchedule, actor: Actor = None, **values: Unpack[TournamentSettings]
) -> Tournament:
    """Open a new tournament with its own copy of the schedule's levels."""
    unknown = set(values) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise FloorInvalid(
            "bad_field", f"Unknown tournament setting: {', '.join(sorted(unknown))}."
        )
    rows = list(schedule.levels.values(*LEVEL_FIELDS))
    if not rows:
        raise FloorError("empty_schedule", f"The schedule '{schedule.name}' has no levels.")
    return tournament_open(levels=rows, actor=actor, source={"schedule": schedule.name}, **values)


def tournament_open(
    *,
    levels: Sequence[LevelRow],
    actor: Actor,
    source: Mapping[str, object],
    **values: Unpack[TournamentSettings],
) -> Tournament:
    """The one place a single tournament row is created (from a schedule, or as a copy of
    another: `services.setup.tournament_copy`), with its own copy of `levels`; `source` names
    where they came from in the audit log. Called inside the caller's transaction."""
    check_tournament_settings(values)
    check_satellite_target(tournament=None, target=values.get("satellite_target"))
    check_windows(values, levels_as_clock(levels))
    tournament = Tournament.objects.create(**values)
    _write_levels(tournament, levels)
    audit_record(
        tournament=tournament,
        actor=actor,
        action="tournament_create",
        name=tournament.name,
        **source,
    )
    return tournament


RULE_SETTINGS = frozenset({"rule_profile", "rule_overrides"})


def levels_fixed(tournament: Tournament, now: datetime) -> int:
    """How many of the tournament's levels can no longer change: the ones played and the one in
    play (none before the clock starts)."""
    state = clock_state(tournament)
    if state.started_at is None:
        return 0
    levels = levels_as_clock(tournament.levels.all())
    try:
        return clock.normalize(state, levels, now).level_index + 1
    except clock.ClockError as error:
        raise from_value_error(error) from error


def levels_colour_up(
    *, tournament: Tournament, smallest_chip: int, now: datetime, actor: Actor = None
) -> int:
    """A colour-up (RULES.md 6): the smallest chip of the level in play and of every later
    level becomes `smallest_chip`, unless a later level has a bigger one already; the levels
    played keep theirs. Refused (400) below the smallest chip in play (`smallest_chip_lower`:
    it never goes down), not made of it (`bad_smallest_chip`), or when a level from now on has
    blinds or an ante the new chip cannot make (`not_in_smallest_chips`). The same colour-up
    recorded again (the next table's sheet) changes nothing. Answers the levels raised. The
    caller holds the tournament's lock."""
    rows = list(tournament.levels.order_by("order"))
    if not rows:
        return 0
    first = max(levels_fixed(tournament, now) - 1, 0)
    current = rows[first].smallest_chip
    if smallest_chip < current:
        raise FloorInvalid(
            "smallest_chip_lower",
            f"The smallest chip in play is {current}: a colour-up cannot lower it to "
            f"{smallest_chip}.",
        )
    if smallest_chip % current:
        raise FloorInvalid(
            "bad_smallest_chip",
            f"A colour-up makes bigger chips of the {current}s: {smallest_chip} is not a "
            f"multiple of {current}.",
        )
    levels = levels_as_clock(rows)
    raised = []
    for index, row in enumerate(rows[first:], start=first):
        chip = max(row.smallest_chip, smallest_chip)
        amounts = (("small blind", row.small_blind), ("big blind", row.big_blind))
        for what, amount in (*amounts, ("ante", row.ante)):
            if amount % chip:
                raise FloorInvalid(
                    "not_in_smallest_chips",
                    f"Level {clock.level_number(levels, index)}: the {what} ({amount}) is not a "
                    f"multiple of the smallest chip ({chip}): the colour-up to {smallest_chip} "
                    "cannot come before it.",
                )
        if chip != row.smallest_chip:
            row.smallest_chip = chip
            raised.append(row)
    TournamentLevel.objects.bulk_update(raised, ["smallest_chip"])
    if raised:
        audit_record(
            tournament=tournament,
            actor=actor,
            action="levels_colour_up",
            smallest_chip=smallest_chip,
            levels=[row.order for row in raised],
        )
    return len(raised)


def _same(old: object, new: object) -> bool:
    if isinstance(old, Decimal) or isinstance(new, Decimal):
        try:
            return Decimal(str(old)) == Decimal(str(new))
        except InvalidOperation:
            return False
    return bool(old == new)


def check_level_changes(tournament: Tournament, levels: Sequence[LevelRow], now: datetime) -> bool:
    """Whether `levels` (the whole schedule) differ from the tournament's; a change to a level
    played or in play is refused (409): only the levels after it may change."""
    stored = list(tournament.levels.values(*LEVEL_FIELDS))
    wanted = [_level_row(row) for row in levels]
    if wanted == stored:
        return False
    fixed = levels_fixed(tournament, now)
    for index in range(fixed):
        if index >= len(wanted) or wanted[index] != stored[index]:
            values = levels_as_clock(stored)
            number = clock.level_number(values, index)
            name = f"Level {number}" if number is not None else f"The break (row {index + 1})"
            raise FloorError(
                "level_played",
                f"{name} has been played or is in play: it cannot change. "
                "Only the levels after the one in play can.",
            )
    return True


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    actor: Actor = None,
    levels: Sequence[LevelRow] | None = None,
    now: datetime | None = None,
    **values: Unpack[TournamentSettings],
) -> Tournament:
    """Change settings and, with `levels`, the tournament's own schedule (the whole list).

    Only what really changes is checked: once play has started, the settings the hands are
    dealt with (`LOCKED_WHEN_STARTED`) and the levels played or in play stay as they are;
    everything else (name, prizes, late registration, rebuys, later levels and breaks) may
    change while the tournament runs."""
    tournament = lock_tournament(tournament)
    unknown = set(values) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise FloorInvalid(
            "bad_field", f"Unknown tournament setting: {', '.join(sorted(unknown))}."
        )
    changed = {k: v for k, v in values.items() if not _same(getattr(tournament, k), v)}
    before = {k: getattr(tournament, k) for k in changed}
    wanted = dict(changed)  # as asked: `changed` gives the rules to their own writer below
    check_locked_settings(tournament, set(changed) - set(MONEY_SETTINGS))
    merged = {name: getattr(tournament, name) for name in TOURNAMENT_FIELDS} | changed
    check_tournament_settings(merged)
    check_money_settings(tournament, changed)  # a price entries paid: only by repricing
    if "satellite_target" in changed:
        check_satellite_target(tournament=tournament, target=values.get("satellite_target"))
    now = now or timezone.now()
    levels_changed = False
    if levels is not None:
        check_schedule(levels)
        levels_changed = check_level_changes(tournament, levels, now)
    if levels_changed or set(WINDOW_SETTINGS) & set(changed):
        # The windows end at a level the schedule has (a stored one is not re-judged unasked).
        schedule = levels if levels_changed and levels is not None else tournament.levels.all()
        check_windows(merged, levels_as_clock(schedule))
    # The rules have one writer, the rules editor's service: it trims the options to those
    # that differ from the profile and audits each change (tournaments/services/rules.py).
    rules_wanted = {key: changed.pop(key) for key in RULE_SETTINGS & set(changed)}
    for name, value in changed.items():
        setattr(tournament, name, value)
    tournament.save()
    if rules_wanted:
        # As asked where changed (`values`), else as they are.
        profile, overrides = tournament.rule_profile, tournament.rule_overrides or {}
        if "rule_profile" in rules_wanted:
            profile = values.get("rule_profile", profile)
        if "rule_overrides" in rules_wanted:
            overrides = values.get("rule_overrides", overrides)
        rules_set(target=tournament, profile=profile, values=overrides, actor=actor)
        tournament.refresh_from_db()
    if PRIZE_SETTINGS & set(changed) and tournament.status != Tournament.Status.FINISHED:
        places_reprice(tournament)  # the prizes of the players out follow the new pool
    if levels is not None and levels_changed:
        first = levels_fixed(tournament, now)
        tournament.levels.filter(order__gte=first).delete()
        _write_levels(tournament, levels, first=first)
    fields = sorted([*changed, *rules_wanted]) + (["levels"] if levels_changed else [])
    audit_record(
        tournament=tournament,
        actor=actor,
        action="tournament_update",
        fields=fields,
        changes=audit_changes(before, wanted),
    )
    return tournament


def tournament_rules(tournament: Tournament) -> Rules:
    """The engine's rules for a tournament's hands: its profile and options, its structure and
    game, `mode=tournament` (built as the rules editor builds them: `selectors.rules`)."""
    return rules_current(tournament)


@transaction.atomic
def tournament_open_registration(*, tournament: Tournament, actor: Actor = None) -> Tournament:
    tournament = lock_tournament(tournament)
    if tournament.kind == Tournament.Kind.EVENT:
        raise FloorError(
            "enter_a_flight",
            f"{tournament.name} is played in its flights: open registration on a flight.",
        )
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
def tournament_finish(*, tournament: Tournament, actor: Actor = None) -> Tournament:
    """Mark the tournament finished and stop its clock, once one player is left (a deal among
    several finishes it too: `deals.tournament_accept_deal`). A finished one is refused (409),
    so a second click leaves no second entry in the audit log."""
    tournament = lock_tournament(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise FloorError("tournament_finished", "The tournament is finished already.")
    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    count = left.count()
    at_end = players_at_end(tournament)  # 1, or a satellite's seats
    if count > at_end:
        raise FloorError(
            "players_left",
            f"{count} players are still in: finish when one is left, or accept a deal.",
        )
    if 1 <= count <= at_end and left.filter(finishing_place=None).exists():
        crown_winner(tournament)
    tournament_close(tournament)
    audit_record(tournament=tournament, actor=actor, action="tournament_finish")
    return tournament


def tournament_close(tournament: Tournament) -> None:
    """Store a (locked) tournament as finished, its clock stopped: the last step of finishing
    and of a deal."""
    tournament.status = Tournament.Status.FINISHED
    stopped = clock_stop(tournament)  # the clock has one writer, services/clocks.py
    tournament.save(update_fields=["status", *stopped, "deal", "updated_at"])
