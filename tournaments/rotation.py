"""The dealer rotation's schedule, in plain Python: who deals where at each push.

Every down starts at a push, at the same moment on every table, so that the floor pushes the
whole room at once. At each push:

- a dealer who has dealt `downs_before_break` downs in a row goes on a break, which lasts whole
  downs (the break's minutes rounded up to downs, at least one) so that they come back at a push;
- a dealer at a table moves to the next table (by the order given, the last one going back to
  the first);
- dealers back from a break, and dealers new to the rotation, take the tables still free, in
  the tables' order;
- with more dealers free than tables, the ones who have dealt longest since their last rest sit
  out the down (a rest: it counts as a break);
- with fewer, the tables left without a dealer wait, and the push says which.

The result is deterministic: the same dealers, tables, plan and start give the same schedule.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """How long a down lasts, how many downs come before a break, and the break's minutes."""

    down_minutes: int
    downs_before_break: int
    break_minutes: int

    @property
    def down(self) -> timedelta:
        return timedelta(minutes=self.down_minutes)

    @property
    def break_downs(self) -> int:
        """A break's length in whole downs: rounded up, so that it is never shorter than set."""
        return max(1, math.ceil(self.break_minutes / self.down_minutes))


@dataclass(frozen=True, slots=True, kw_only=True)
class Down:
    """One dealer's down: at a table, or on a break (`table` None), from a push to another."""

    dealer: Hashable
    table: Hashable | None
    starts_at: datetime
    ends_at: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class Push:
    """One push: who deals where from then, who is on a break, and the tables that wait."""

    at: datetime
    deals: dict[Hashable, Hashable] = field(default_factory=dict)  # table -> dealer
    on_break: tuple[Hashable, ...] = ()
    waiting: tuple[Hashable, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Since:
    """Where a dealer stands when a schedule picks up a running rotation: the table dealt in
    the down just ended (None after a break), the downs dealt since the last break, and how
    many more downs a break still lasts."""

    table: Hashable | None = None
    worked: int = 0
    away: int = 0


@dataclass(slots=True)
class _Dealer:
    name: Hashable
    table: int | None = None  # the index of the table dealt in the last down
    worked: int = 0  # downs dealt since the last break
    back_at: int = 0  # the push from which the dealer is free again


def _resume(name: Hashable, since: Since | None, tables: Sequence[Hashable]) -> _Dealer:
    if since is None:
        return _Dealer(name)
    table = tables.index(since.table) if since.table in tables else None
    return _Dealer(name, table=table, worked=since.worked, back_at=since.away)


def _place(
    push: int, dealers: list[_Dealer], table_count: int, plan: Plan
) -> tuple[dict[int, _Dealer], list[_Dealer]]:
    """Who deals which table (by index) at push number `push`, and who goes to rest."""
    free = [d for d in dealers if d.back_at <= push]
    resting = [d for d in free if d.worked >= plan.downs_before_break]
    free = [d for d in free if d not in resting]
    extra = len(free) - table_count
    if extra > 0:
        # The longest at work sit this down out; ties go to the last in the shift's order.
        tired = sorted(free, key=lambda d: (-d.worked, -dealers.index(d)))[:extra]
        resting += tired
        free = [d for d in free if d not in tired]
    seats: dict[int, _Dealer] = {}
    for dealer in free:
        if dealer.table is not None:
            seats[(dealer.table + 1) % table_count] = dealer
    fresh = (d for d in free if d.table is None)
    for index in range(table_count):
        if index not in seats:
            newcomer = next(fresh, None)
            if newcomer is None:
                break
            seats[index] = newcomer
    return seats, resting


def schedule(
    *,
    dealers: Sequence[Hashable],
    tables: Sequence[Hashable],
    plan: Plan,
    start: datetime,
    pushes: int,
    since: Mapping[Hashable, Since] | None = None,
) -> list[Push]:
    """The rotation's first `pushes` pushes from `start`: the dealers in the shift's order (the
    first ones take the first tables), the tables in the order a dealer moves through them.
    `since` picks up a running rotation (a dealer joined or left): each dealer listed there goes
    on from where they are (a table no longer open counts as none)."""
    if pushes < 1 or not tables:
        return []
    if len(set(tables)) != len(tables) or len(set(dealers)) != len(dealers):
        raise ValueError("a table or a dealer is listed twice")
    state = [_resume(name, (since or {}).get(name), tables) for name in dealers]
    result = []
    for number in range(pushes):
        seats, resting = _place(number, state, len(tables), plan)
        for dealer in state:
            if dealer in resting:
                rest = plan.break_downs if dealer.worked >= plan.downs_before_break else 1
                dealer.back_at, dealer.worked, dealer.table = number + rest, 0, None
        for index, dealer in seats.items():
            dealer.table, dealer.worked = index, dealer.worked + 1
        away = tuple(d.name for d in state if d.back_at > number)
        result.append(
            Push(
                at=start + number * plan.down,
                deals={tables[i]: seats[i].name for i in sorted(seats)},
                on_break=away,
                waiting=tuple(t for i, t in enumerate(tables) if i not in seats),
            )
        )
    return result


def downs(pushes: Sequence[Push], plan: Plan) -> list[Down]:
    """The schedule as rows, one per dealer and down, a break as one row for its whole length
    (cut at the end of the schedule): what the database keeps."""
    rows: list[Down] = []
    open_breaks: dict[Hashable, datetime] = {}
    end = pushes[-1].at + plan.down if pushes else None
    for push in pushes:
        for table, dealer in push.deals.items():
            rows.append(
                Down(dealer=dealer, table=table, starts_at=push.at, ends_at=push.at + plan.down)
            )
        for dealer in list(open_breaks):
            if dealer not in push.on_break:
                rows.append(_break(dealer, open_breaks.pop(dealer), push.at))
        for dealer in push.on_break:
            open_breaks.setdefault(dealer, push.at)
    if end is not None:
        rows.extend(_break(dealer, since, end) for dealer, since in open_breaks.items())
    return sorted(rows, key=lambda r: (r.starts_at, r.table is None, str(r.table), str(r.dealer)))


def _break(dealer: Hashable, since: datetime, until: datetime) -> Down:
    return Down(dealer=dealer, table=None, starts_at=since, ends_at=until)
