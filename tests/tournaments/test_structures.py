"""The schedule generator (issue 26, rule SG-1 of docs/rules.md): pure, no database."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest

from tournaments import clock
from tournaments.selectors.clock import levels_as_clock
from tournaments.structures import (
    TEMPLATES,
    BlindPlan,
    PlanError,
    ladder_above,
    levels_generate,
    next_big_blind,
    plan_from,
    small_blind_of,
    template_get,
)

PLAN = BlindPlan(small_blind=100, big_blind=200, level_minutes=20, levels=8, smallest_chip=25)


def blinds(rows: Sequence[Mapping[str, object]]) -> list[tuple[object, object]]:
    return [(r["small_blind"], r["big_blind"]) for r in rows if not r.get("is_break")]


def test_sg1_standard_takes_the_next_value_of_the_ladder() -> None:
    assert blinds(levels_generate(PLAN)) == [
        (100, 200),
        (125, 250),
        (150, 300),
        (200, 400),
        (250, 500),
        (300, 600),
        (400, 800),
        (500, 1000),
    ]


@pytest.mark.parametrize(
    ("big", "chip", "above"),
    [
        (200, 25, 250),
        (1000, 25, 1200),
        (1000, 500, 1500),  # 1200 is no multiple of 500
        (50, 25, 100),  # 60 and 80 are not multiples of 25
        (8, 1, 10),
    ],
)
def test_sg1_the_ladder_keeps_to_multiples_of_the_smallest_chip(
    big: int, chip: int, above: int
) -> None:
    assert ladder_above(big, chip) == above


@pytest.mark.parametrize(
    ("big", "percent", "chip", "then"),
    [
        (200, 50, 25, 300),
        (200, 100, 25, 400),
        (800, 100, 25, 1500),  # 1600: 1500 is nearer than 2000
        (1000, 1, 25, 1200),  # never less than the next value: blinds go up
        (400, 25, 25, 500),
    ],
)
def test_sg1_a_percentage_takes_the_nearest_value(
    big: int, percent: int, chip: int, then: int
) -> None:
    assert next_big_blind(big, percent, chip) == then


def test_sg1_the_small_blind_is_half_rounded_down_to_the_chip() -> None:
    assert small_blind_of(2500, 100) == 1200
    assert small_blind_of(250, 25) == 125
    assert small_blind_of(100, 100) == 100  # never less than one chip


def test_sg1_breaks_every_n_levels_but_never_after_the_last() -> None:
    rows = levels_generate(replace(PLAN, levels=8, break_every=4, break_minutes=15))

    kinds = ["B" if r.get("is_break") else "L" for r in rows]
    assert kinds == ["L"] * 4 + ["B"] + ["L"] * 4
    assert rows[4]["duration"] == 15 * 60


def test_sg1_big_blind_antes_from_level_k_equal_the_big_blind() -> None:
    rows = levels_generate(replace(PLAN, antes_from=3))

    assert [(r["ante"], r["bb_ante"]) for r in rows[:4]] == [
        (0, False),
        (0, False),
        (300, True),
        (400, True),
    ]


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.key)
def test_every_template_builds_a_schedule_the_clock_accepts(template: object) -> None:
    plan = template.plan  # type: ignore[attr-defined]
    rows = levels_generate(plan)

    clock.check_levels(levels_as_clock(rows))
    assert sum(1 for r in rows if not r.get("is_break")) == plan.levels
    assert all(r["big_blind"] % plan.smallest_chip == 0 for r in rows if not r.get("is_break"))


def test_the_desk_names_three_templates() -> None:
    assert [t.name for t in TEMPLATES] == ["Turbo 15 min", "Standard 20 min", "Deep 30 min"]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"small_blind": 110}, "not_in_smallest_chips"),
        ({"small_blind": 300}, "bad_start_blinds"),
        ({"increase": "fast"}, "bad_increase"),
        ({"increase": "0"}, "bad_increase"),
        ({"levels": 0}, "bad_level_count"),
        ({"smallest_chip": 0}, "bad_smallest_chip"),
    ],
)
def test_a_plan_it_cannot_build_is_refused_with_its_code(
    change: dict[str, object], code: str
) -> None:
    with pytest.raises(PlanError) as refused:
        levels_generate(replace(PLAN, **change))  # type: ignore[arg-type]
    assert refused.value.code == code


def test_a_plan_without_a_template_needs_the_first_blinds_and_the_length() -> None:
    with pytest.raises(PlanError) as refused:
        plan_from(None, small_blind=100)
    assert refused.value.code == "plan_incomplete"
    assert "big blind" in refused.value.detail


def test_a_template_with_changes_keeps_the_rest() -> None:
    plan = plan_from(template_get("standard-20"), level_minutes=25, levels=None)

    assert plan.level_minutes == 25
    assert plan.levels == 18
