"""The dealer rotation's schedule (`tournaments.rotation`): the worked example of issue 15 and
the properties every schedule keeps."""

from __future__ import annotations

from collections.abc import Hashable
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.rotation import Plan, Since, downs, schedule

SIX = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)
TABLES = (1, 2, 3, 4)


def board(pushes) -> list[str]:
    """Each push as a line: the time, table:dealer, the dealers on a break, the tables waiting."""
    lines = []
    for push in pushes:
        deals = " ".join(f"{t}:{d}" for t, d in push.deals.items())
        rest = ",".join(push.on_break) or "-"
        wait = ",".join(str(t) for t in push.waiting) or "-"
        lines.append(f"{push.at:%H:%M} {deals} break {rest} wait {wait}")
    return lines


def test_five_dealers_over_four_tables_for_two_hours_with_a_break_after_four_downs() -> None:
    plan = Plan(down_minutes=20, downs_before_break=4, break_minutes=20)
    pushes = schedule(dealers="ABCDE", tables=TABLES, plan=plan, start=SIX, pushes=6)
    # Each dealer moves to the next table at each push; the one pushed off table 4 rests, and
    # the one back from the break takes table 1. The fifth dealer starts on the break.
    assert board(pushes) == [
        "18:00 1:A 2:B 3:C 4:D break E wait -",
        "18:20 1:E 2:A 3:B 4:C break D wait -",
        "18:40 1:D 2:E 3:A 4:B break C wait -",
        "19:00 1:C 2:D 3:E 4:A break B wait -",
        "19:20 1:B 2:C 3:D 4:E break A wait -",
        "19:40 1:A 2:B 3:C 4:D break E wait -",
    ]


def test_a_long_break_lasts_whole_downs_and_a_table_waits_when_dealers_run_short() -> None:
    # 30-minute breaks over 20-minute downs: two downs off. With five dealers on four tables
    # and two of them away at once, one table waits, and the push says which.
    plan = Plan(down_minutes=20, downs_before_break=4, break_minutes=30)
    pushes = schedule(dealers="ABCDE", tables=TABLES, plan=plan, start=SIX, pushes=7)
    assert board(pushes)[4:] == [
        "19:20 1:B 2:C 3:D 4:E break A wait -",
        "19:40 2:B 3:C 4:D break A,E wait 1",
        "20:00 1:A 3:B 4:C break D,E wait 2",
    ]


def test_the_rows_kept_are_one_per_down_and_one_per_break() -> None:
    plan = Plan(down_minutes=20, downs_before_break=4, break_minutes=20)
    rows = downs(schedule(dealers="ABCDE", tables=TABLES, plan=plan, start=SIX, pushes=2), plan)
    e = [(r.table, f"{r.starts_at:%H:%M}-{r.ends_at:%H:%M}") for r in rows if r.dealer == "E"]
    assert e == [(None, "18:00-18:20"), (1, "18:20-18:40")]
    assert len(rows) == 10


def test_more_dealers_than_tables_puts_the_extra_ones_on_a_break() -> None:
    plan = Plan(down_minutes=30, downs_before_break=3, break_minutes=15)
    (first,) = schedule(dealers="ABCD", tables=(7, 8), plan=plan, start=SIX, pushes=1)
    assert first.deals == {7: "A", 8: "B"}
    assert first.on_break == ("C", "D")


def test_fewer_dealers_than_tables_leaves_tables_waiting() -> None:
    plan = Plan(down_minutes=30, downs_before_break=3, break_minutes=15)
    first, second = schedule(dealers="AB", tables=(1, 2, 3), plan=plan, start=SIX, pushes=2)
    assert (first.deals, first.waiting) == ({1: "A", 2: "B"}, (3,))
    assert (second.deals, second.waiting) == ({2: "A", 3: "B"}, (1,))


def test_a_running_rotation_is_picked_up_where_each_dealer_stands() -> None:
    plan = Plan(down_minutes=20, downs_before_break=2, break_minutes=20)
    since: dict[Hashable, Since] = {
        "A": Since(table=1, worked=2),
        "B": Since(table=2, worked=1),
        "C": Since(away=1),
    }
    (push,) = schedule(dealers="ABC", tables=(1, 2), plan=plan, start=SIX, since=since, pushes=1)
    # A is due a break, B moves on from table 2 to table 1, C is still away: table 2 waits.
    assert (push.deals, push.on_break, push.waiting) == ({1: "B"}, ("A", "C"), (2,))


@settings(max_examples=examples(150), deadline=None)
@given(
    dealers=st.integers(min_value=1, max_value=9),
    tables=st.integers(min_value=1, max_value=7),
    down=st.integers(min_value=20, max_value=30),
    before=st.integers(min_value=1, max_value=6),
    rest=st.integers(min_value=5, max_value=60),
)
def test_every_schedule_keeps_the_rotation_rules(dealers, tables, down, before, rest) -> None:
    plan = Plan(down_minutes=down, downs_before_break=before, break_minutes=rest)
    names = [f"D{i}" for i in range(dealers)]
    pushes = schedule(dealers=names, tables=range(tables), plan=plan, start=SIX, pushes=24)
    worked = dict.fromkeys(names, 0)
    for number, push in enumerate(pushes):
        dealing = list(push.deals.values())
        # No dealer at two tables at once (a table has one dealer: `deals` is keyed by table),
        # nor dealing while on a break; every table deals or waits.
        assert len(dealing) == len(set(dealing))
        assert not set(dealing) & set(push.on_break)
        assert set(push.deals) | set(push.waiting) == set(range(tables))
        assert push.at == SIX + number * timedelta(minutes=down)
        # Nobody idle while a table waits, and nobody waits while someone rests by choice.
        if push.waiting:
            assert set(dealing) | set(push.on_break) == set(names)
        for name in names:
            worked[name] = worked[name] + 1 if name in dealing else 0
            # Every dealer gets a break after N downs.
            assert worked[name] <= before


@pytest.mark.parametrize(("rest", "downs_off"), [(5, 1), (20, 1), (21, 2), (40, 2), (41, 3)])
def test_a_break_is_rounded_up_to_whole_downs(rest: int, downs_off: int) -> None:
    assert Plan(down_minutes=20, downs_before_break=3, break_minutes=rest).break_downs == downs_off
