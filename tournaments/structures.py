"""Blind structures from a few numbers: the schedule generator and its built-in templates.

Pure (no Django): `levels_generate` turns a `BlindPlan` into level rows as
`services.events.schedule_create` takes them. The rounding rule is our `SG-1` (docs/rules.md,
"Schedule generator"):

- every big blind after the first is a value of the ladder `LADDER` (1, 1.2, 1.5, 2, 2.5, 3, 4,
  5, 6, 8 times a power of ten) that is a multiple of the smallest chip;
- `increase="standard"`: each level takes the next such value above the last big blind;
  `increase=<percent>`: the value nearest to the last big blind times (1 + percent / 100), ties
  going up, and never less than the next value above (blinds always go up);
- the small blind is half the big blind, rounded down to a multiple of the smallest chip (never
  less than one chip);
- from level `antes_from` (0: never) the big blind posts a big-blind ante equal to the big blind;
- after every `break_every` playing levels (0: no breaks) comes a break of `break_minutes`,
  but never after the last level.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from dealer.engine.errors import Invalid

# The ladder's mantissas, in tenths: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8.
LADDER = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80)
STANDARD = "standard"
MAX_LEVELS = 60
MAX_PERCENT = 200
MAX_BIG_BLIND = 10**12


class PlanError(Invalid):
    """A generator input the structure cannot be built from (400)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BlindPlan:
    """What the generator is given: the first level's blinds, each level's length, the rise,
    the breaks, the antes, how many playing levels and the smallest chip."""

    small_blind: int
    big_blind: int
    level_minutes: int
    increase: str = STANDARD  # "standard", or a whole percentage as text ("50")
    levels: int = 18
    break_every: int = 0
    break_minutes: int = 10
    antes_from: int = 0
    smallest_chip: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Template:
    """A built-in starting point of the generator."""

    key: str
    name: str
    plan: BlindPlan


TEMPLATES: tuple[Template, ...] = (
    Template(
        key="turbo-15",
        name="Turbo 15 min",
        plan=BlindPlan(
            small_blind=100,
            big_blind=200,
            level_minutes=15,
            increase="30",
            levels=16,
            break_every=6,
            break_minutes=10,
            antes_from=3,
            smallest_chip=25,
        ),
    ),
    Template(
        key="standard-20",
        name="Standard 20 min",
        plan=BlindPlan(
            small_blind=100,
            big_blind=200,
            level_minutes=20,
            increase=STANDARD,
            levels=18,
            break_every=4,
            break_minutes=15,
            antes_from=4,
            smallest_chip=25,
        ),
    ),
    Template(
        key="deep-30",
        name="Deep 30 min",
        plan=BlindPlan(
            small_blind=50,
            big_blind=100,
            level_minutes=30,
            increase=STANDARD,
            levels=16,
            break_every=3,
            break_minutes=15,
            antes_from=5,
            smallest_chip=25,
        ),
    ),
)


def template_get(key: str) -> Template | None:
    """The built-in template of that key, or None."""
    return next((t for t in TEMPLATES if t.key == key), None)


def plan_from(template: Template | None, **values: Any) -> BlindPlan:
    """A plan: the template's with the values given, or the values alone (SG-1)."""
    given = {k: v for k, v in values.items() if v is not None}
    if template is not None:
        return replace(template.plan, **given)
    missing = [n for n in ("small_blind", "big_blind", "level_minutes") if n not in given]
    if missing:
        raise PlanError(
            "plan_incomplete",
            f"Give the {', '.join(m.replace('_', ' ') for m in missing)}, or start from a "
            "template.",
        )
    return BlindPlan(**given)


def percent_of(increase: str) -> int | None:
    """The percentage of an increase, None for the standard progression."""
    if increase == STANDARD:
        return None
    if not increase.isdigit() or not 1 <= int(increase) <= MAX_PERCENT:
        raise PlanError(
            "bad_increase",
            f"The increase is 'standard' or a whole percentage from 1 to {MAX_PERCENT}: "
            f"not '{increase}'.",
        )
    return int(increase)


def ladder_above(value: int, chip: int) -> int:
    """The smallest ladder value above `value` that is a multiple of `chip` (SG-1)."""
    power = 1
    while True:
        for tenths in LADDER:
            if tenths * power % 10 == 0:
                candidate = tenths * power // 10
                if candidate > value and candidate % chip == 0:
                    return candidate
        power *= 10


def next_big_blind(big: int, percent: int | None, chip: int) -> int:
    """The big blind of the next level (SG-1): the next ladder value, or the ladder value
    nearest to `big` raised by `percent`, ties going up, at least the next one."""
    step = ladder_above(big, chip)
    if percent is None:
        return step
    target = big * (100 + percent) / 100
    best = step
    while True:
        following = ladder_above(best, chip)
        if abs(following - target) > abs(best - target):
            return best
        best = following


def small_blind_of(big: int, chip: int) -> int:
    """Half the big blind, rounded down to the smallest chip, at least one chip (SG-1)."""
    return max(chip, big // 2 // chip * chip)


def check_plan(plan: BlindPlan) -> int | None:
    """Refuse a plan the generator cannot build from; the increase's percentage."""
    chip = plan.smallest_chip
    if chip < 1:
        raise PlanError("bad_smallest_chip", "The smallest chip must be at least 1.")
    if plan.big_blind < 1 or not 0 < plan.small_blind <= plan.big_blind:
        raise PlanError(
            "bad_start_blinds",
            "The first level needs a big blind and a small blind from 1 up to the big blind.",
        )
    if plan.small_blind % chip or plan.big_blind % chip:
        raise PlanError(
            "not_in_smallest_chips",
            f"The first blinds ({plan.small_blind}/{plan.big_blind}) are not multiples of the "
            f"smallest chip ({chip}).",
        )
    if not 1 <= plan.levels <= MAX_LEVELS:
        raise PlanError("bad_level_count", f"Generate from 1 to {MAX_LEVELS} levels.")
    if plan.level_minutes < 1 or (plan.break_every and plan.break_minutes < 1):
        raise PlanError("bad_duration", "Levels and breaks last at least one minute.")
    if plan.break_every < 0 or plan.antes_from < 0:
        raise PlanError("bad_plan", "Breaks and antes start from a level number (0: none).")
    return percent_of(plan.increase)


def levels_generate(plan: BlindPlan) -> list[dict[str, int | bool | str]]:
    """The level rows of the plan, breaks included, first level first (SG-1)."""
    percent = check_plan(plan)
    chip = plan.smallest_chip
    rows: list[dict[str, int | bool | str]] = []
    small, big = plan.small_blind, plan.big_blind
    for number in range(1, plan.levels + 1):
        if number > 1:
            big = next_big_blind(big, percent, chip)
            small = small_blind_of(big, chip)
        if big > MAX_BIG_BLIND:
            raise PlanError("blinds_too_high", f"Level {number}'s big blind would be {big}.")
        ante = big if plan.antes_from and number >= plan.antes_from else 0
        rows.append(
            {
                "small_blind": small,
                "big_blind": big,
                "ante": ante,
                "bb_ante": bool(ante),
                "smallest_chip": chip,
                "duration": plan.level_minutes * 60,
            }
        )
        if plan.break_every and number % plan.break_every == 0 and number < plan.levels:
            rows.append(
                {
                    "is_break": True,
                    "duration": plan.break_minutes * 60,
                    "smallest_chip": chip,
                    "note": "Break",
                }
            )
    return rows
