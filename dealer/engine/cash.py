"""Who plays the next hand at a cash table, and what each player posts (RULES.md sections 2-4).

Between two hands a cash table changes: players sit down, sit out, come back, leave; the button
moves; someone owes blinds. `plan_hand` takes the table as it is now (every seat's state), where
the last hand's button and blinds were, and the rules, and answers with a `CashPlan`: the button
and the blinds, who is dealt in and what each posts (live or dead), who waits and why, who may
straddle. `CashPlan.setup` turns the plan into the engine's `HandSetup`, and `after_hand` says what
the hand, once played, leaves owed at each seat.

Words used here:

- *away*: sitting out (or out of chips: a player with less than one chip unit cannot be dealt in);
- *settled*: back at the table and owing nothing: the player is dealt every hand;
- *ready*: back, owing an entry or missed blinds, and willing to post as soon as the seat allows;
- the *zone*: the seats strictly clockwise between the button and the big blind, where a player
  who owes may not come in (S2 for new players; applied to returners too, A9).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TypedDict

from dealer.engine.cards import Card
from dealer.engine.errors import ConfigError
from dealer.engine.rules import ButtonMode, HeadsUpButtonPosts, MissedBlindPolicy, Rules, ShortBlind
from dealer.engine.setup import HandSetup, PlayerSetup, Stakes, half_rule_blind, missed_blind_posts


@dataclass(frozen=True, slots=True, kw_only=True)
class CashSeat:
    """One occupied seat between hands. `key` is the caller's id for the sitting player, so a
    hand's consequences never land on someone who took the seat later."""

    seat: int
    stack: int
    key: int = 0
    name: str = ""
    away: bool = False  # sitting out
    new: bool = False  # has not played since sitting down: owes the entry (S2 options 1-3)
    missed_small: bool = False
    missed_big: bool = False
    wait_button: bool = False  # may not come in until the button has passed the seat
    wait_big_blind: bool = False  # chose to wait for the big blind rather than post
    skip_button: bool = False  # W17: a short big blind under the half rule skips the button once

    @property
    def owes(self) -> bool:
        return self.new or self.missed_small or self.missed_big


@dataclass(frozen=True, slots=True)
class Positions:
    """Where a hand's button and blinds were. `small_blind` is the small blind's seat even when
    nobody posted there (a dead small blind)."""

    button: int | None
    small_blind: int | None
    big_blind: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Post:
    """What one dealt-in player puts in before the deal. `live` counts toward their bet."""

    seat: int
    live: int = 0
    dead: int = 0
    ante: int = 0
    why: str = ""


@dataclass(frozen=True, slots=True)
class Waiting:
    """A seated player who is not dealt in, with the reason in a dealer's words."""

    seat: int
    code: str
    reason: str


class StoredAftermath(TypedDict):
    """An `Aftermath` as stored with the hand (`dataclasses.asdict`: lists for tuples)."""

    keys: list[list[int]]
    cleared: list[int]
    missed_small: list[int]
    missed_big: list[int]
    button_passed: list[int]
    skip_button: list[int]


@dataclass(frozen=True, slots=True, kw_only=True)
class Aftermath:
    """What a planned hand, once played, does to the seats (`after_hand` applies it). Kept
    with the hand, so that it is applied only when the hand completes (never after a misdeal)."""

    keys: tuple[tuple[int, int], ...]  # (seat, key) of every occupied seat when planned
    cleared: tuple[int, ...]  # seats whose debts the hand settles (dealt in, or forgiven)
    missed_small: tuple[int, ...]
    missed_big: tuple[int, ...]
    button_passed: tuple[int, ...]  # seats waiting for the button that it has now passed
    skip_button: tuple[int, ...]

    @classmethod
    def from_dict(cls, data: StoredAftermath) -> Aftermath:
        """Back from its stored form (`dataclasses.asdict`, lists for tuples)."""
        return cls(
            keys=tuple((seat, key) for seat, key in data["keys"]),
            cleared=tuple(data["cleared"]),
            missed_small=tuple(data["missed_small"]),
            missed_big=tuple(data["missed_big"]),
            button_passed=tuple(data["button_passed"]),
            skip_button=tuple(data["skip_button"]),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class CashPlan:
    """The next hand at a cash table. `posts` lists every dealt-in player clockwise from the seat
    left of the button (the engine's order), with what each posts (zero for most)."""

    positions: Positions
    posts: tuple[Post, ...]
    waiting: tuple[Waiting, ...]
    bring_in: int  # seat of the big blind (or of the half rule's replacement big blind)
    straddle_seat: int | None  # the seat that may straddle, when straddles are allowed
    heads_up: bool
    restart: bool  # fewer than two settled players: the game (re)starts and nobody owes
    after: Aftermath

    @property
    def button(self) -> int:
        assert self.positions.button is not None  # a plan always places the button
        return self.positions.button

    @property
    def big_blind(self) -> int:
        assert self.positions.big_blind is not None
        return self.positions.big_blind

    @property
    def dealt(self) -> tuple[int, ...]:
        return tuple(post.seat for post in self.posts)

    def post_of(self, seat: int) -> Post | None:
        return next((post for post in self.posts if post.seat == seat), None)

    def setup(
        self,
        rules: Rules,
        stakes: Stakes,
        stacks: dict[int, int],
        *,
        names: dict[int, str] | None = None,
        straddle: bool = False,
        holes: dict[int, tuple[Card, ...]] | None = None,
    ) -> HandSetup:
        """The engine's set-up for this plan; `straddle=True` when the offered player straddles
        (S4: twice the big blind, posted before the deal; preflop action starts left of it)."""
        bring_in = self.bring_in
        posts = list(self.posts)
        if straddle:
            if self.straddle_seat is None:
                raise ConfigError("No straddle is possible this hand.", code="straddle_not_allowed")
            index = self.dealt.index(self.straddle_seat)
            posts[index] = replace(posts[index], live=stakes.straddle_amount, why="straddle")
            bring_in = self.straddle_seat
        players = tuple(
            PlayerSetup(
                stack=stacks[post.seat],
                seat=post.seat,
                name=(names or {}).get(post.seat, f"Seat {post.seat}"),
                blind=post.live,
                dead=post.dead,
                ante=post.ante,
                hole=(holes or {}).get(post.seat),
            )
            for post in posts
        )
        button = self.positions.button
        return stakes.hand(
            rules,
            players,
            button_index=self.dealt.index(button) if button in self.dealt else None,
            bring_in_index=self.dealt.index(bring_in),
        )


class _Ring:
    """Seat arithmetic on a table of `count` seats numbered 1..count clockwise."""

    def __init__(self, count: int) -> None:
        self.count = count

    def after(self, start: int, wanted: Callable[[int], bool]) -> int | None:
        """The first seat strictly clockwise after `start` that is wanted; `start` itself last."""
        for step in range(1, self.count + 1):
            seat = (start - 1 + step) % self.count + 1
            if wanted(seat):
                return seat
        return None

    def before(self, start: int, wanted: Callable[[int], bool]) -> int | None:
        """The first seat strictly counter-clockwise before `start` that is wanted."""
        for step in range(1, self.count + 1):
            seat = (start - 1 - step) % self.count + 1
            if wanted(seat):
                return seat
        return None

    def between(self, start: int, end: int, seat: int) -> bool:
        """Whether `seat` lies strictly clockwise between `start` and `end`."""
        return 0 < (seat - start) % self.count < (end - start) % self.count or (
            start == end and seat != start
        )

    def order_from(self, button: int, seats: Iterable[int]) -> list[int]:
        """`seats` clockwise starting left of `button` (the button itself last)."""
        return sorted(seats, key=lambda seat: (seat - button - 1) % self.count)


def plan_hand(
    rules: Rules,
    stakes: Stakes,
    seat_count: int,
    seats: Sequence[CashSeat],
    last: Positions | None,
    *,
    first_button: int | None = None,
) -> CashPlan:
    """Plan the next hand at a cash table (RULES.md 2-4).

    The button moves (`button_mode=moving`, S2) to the next player who may be dealt in, passing
    over anyone who owes and sat in the last hand's zone (S2 "He must wait until the Button
    passes"); the small blind is the next settled player and the big blind the next player back
    at the table, so a player waiting for the big blind gets it. Out of a heads-up hand the big
    blind moves first and the others fall in behind it. Or the big blind moves one player on
    (`button_mode=dead`, T 32), the small blind sits where the big blind was and the button where
    the small blind was, either possibly empty. Heads-up follows `heads_up_button_posts`, never
    making the same player post the big blind twice in a row (T 34). A player who owes may not
    come in between the button and the big blind (S2, A9); what they post follows
    `missed_blind_policy` and `missed_sb_fallback`; a short big blind follows `short_blind` (W17).
    `last` is None before the table's first hand, whose button is `first_button` (the high-card
    draw or the first player seated: `initial_button`).
    """
    if rules.is_tournament:
        raise ConfigError(
            "Tournament tables deal every seated player (TDA): plan them with the tournament.",
            code="not_cash",
        )
    ring = _Ring(seat_count)
    table = _Table(ring, {s.seat: s for s in seats}, stakes.unit, last)
    if table.last is None and first_button is None:
        raise ConfigError(
            "The table has no button yet: draw for it or seat the first player.",
            code="no_button",
        )
    if rules.button_mode is ButtonMode.DEAD and last is not None and last.big_blind is not None:
        button, small, big = _dead_positions(table, last)
    else:
        button, small, big = _moving_positions(table, first_button)
    dealt = table.settled | {big} | {s for s in table.ready if not ring.between(button, big, s)}
    if rules.button_mode is ButtonMode.MOVING or last is None:
        dealt.add(button)
    heads_up = len(dealt) == 2
    if heads_up:
        button, small, big = _heads_up(rules, ring, button, dealt, last)
    return _finish(rules, stakes, table, dealt, (button, small, big), heads_up)


class _Table:
    """The seats sorted into the groups the plan works with."""

    def __init__(
        self, ring: _Ring, by_seat: dict[int, CashSeat], unit: int, last: Positions | None
    ) -> None:
        self.ring = ring
        self.by_seat = by_seat
        self.last = last
        self.present = {s.seat for s in by_seat.values() if not s.away and s.stack >= unit}
        if len(self.present) < 2:
            raise ConfigError(
                "A hand needs at least two players who are in and have chips.",
                code="not_enough_players",
            )
        self.settled = {
            s for s in self.present if not by_seat[s].owes and not by_seat[s].wait_button
        }
        self.restart = last is None or len(self.settled) < 2
        if self.restart:
            self.settled = set(self.present)
        self.ready = {
            s
            for s in self.present - self.settled
            if not by_seat[s].wait_big_blind and not by_seat[s].wait_button
        }


def _moving_positions(table: _Table, first_button: int | None) -> tuple[int, int, int]:
    """Moving button (S2 "always moves forward and the blinds are adjusted"; R 2a).

    A player who owes and sits in the last hand's zone may not come in until the button has
    passed them (S2 "must wait until the Button passes"): the button and the blinds move on as if
    the seat were empty, so nobody posts the same blind twice running. Out of a heads-up hand the
    big blind leads instead, so that nobody posts it twice running (T 34).
    """
    ring, present, last = table.ring, table.present, table.last
    if last is None:
        assert first_button is not None
        button = (
            first_button
            if first_button in present
            else ring.after(first_button, present.__contains__)
        )
        assert button is not None
        return _blinds_after(table, button, set())
    held = _held(table, last)
    if not table.restart and _was_heads_up(last):
        layout = _behind_big_blind(table, last, held)
        if layout is not None:
            return layout
    could = _may_take_button(table, held)
    button = ring.after(_anchor(ring, last), (could or table.settled).__contains__)
    assert button is not None
    return _blinds_after(table, button, held)


def _was_heads_up(last: Positions) -> bool:
    """Whether the last hand was heads-up: its button posted one of the blinds."""
    return last.button is not None and last.button in (last.small_blind, last.big_blind)


def _blinds_after(table: _Table, button: int, held: set[int]) -> tuple[int, int, int]:
    """The small blind is the next settled player, the big blind the next player back at the
    table (so a player waiting for the big blind gets it), the held seats counted as empty."""
    small = table.ring.after(button, table.settled.__contains__)
    assert small is not None
    big = table.ring.after(small, (table.present - held).__contains__)
    assert big is not None
    return button, small, big


def _held(table: _Table, last: Positions) -> set[int]:
    """Players who owe and sit strictly inside the last hand's zone, from its button to its big
    blind (S2 "may not sit down in the middle of the blinds"; A9 for returners). Heads-up with the
    button on the big blind (S0), the zone runs from the small blind."""
    if last.big_blind is None:
        return set()
    start = _anchor(table.ring, last)
    if start == last.big_blind:
        if last.small_blind is None:
            return set()
        start = last.small_blind
    return {s for s in table.ready if table.ring.between(start, last.big_blind, s)}


def _may_take_button(table: _Table, held: set[int]) -> set[int]:
    """Who the button may move onto: a player dealt in this hand, not held, not skipping it."""
    return {s for s in (table.settled | table.ready) - held if not table.by_seat[s].skip_button}


def _behind_big_blind(
    table: _Table, last: Positions, held: set[int]
) -> tuple[int, int, int] | None:
    """Out of a heads-up hand, a third player comes in: the big blind goes to the next player
    after the last one (a player who owes may take it as their entry), the small blind to the
    settled player before it, the button to the player before that (T 34: nobody posts the big
    blind twice running). None when that leaves only two players: heads-up goes on."""
    ring = table.ring
    if last.big_blind is None:
        return None
    big = ring.after(last.big_blind, (table.present - held).__contains__)
    small = None if big is None else ring.before(big, table.settled.__contains__)
    if big is None or small is None:
        return None
    button = ring.before(small, _may_take_button(table, held).__contains__)
    if button is None or button in (small, big):
        return None
    return button, small, big


def _dead_positions(table: _Table, last: Positions) -> tuple[int, int, int]:
    """Dead button (T 32; R 2b): the big blind moves on to the next player back at the table."""
    assert last.big_blind is not None
    big = table.ring.after(last.big_blind, table.present.__contains__)
    assert big is not None
    button = last.small_blind if last.small_blind is not None else _anchor(table.ring, last)
    return button, last.big_blind, big


def _anchor(ring: _Ring, last: Positions) -> int:
    """The seat the button moves on from (the last button, or just before the last blinds)."""
    if last.button is not None:
        return last.button
    seat = last.small_blind if last.small_blind is not None else last.big_blind
    assert seat is not None
    return (seat - 2) % ring.count + 1


def _heads_up(
    rules: Rules, ring: _Ring, button: int, pair: set[int], last: Positions | None
) -> tuple[int, int, int]:
    """Two players: the button posts the small blind (`heads_up_button_posts=small`, R, T) or the
    big blind (`big`, S0). Whoever posted the last big blind does not post it again (T 34)."""
    on_button = button if button in pair else ring.after(button, pair.__contains__)
    assert on_button is not None
    (off_button,) = pair - {on_button}

    def roles(holder: int, other: int) -> tuple[int, int]:
        small_first = rules.heads_up_button_posts is HeadsUpButtonPosts.SMALL
        return (holder, other) if small_first else (other, holder)

    small, big = roles(on_button, off_button)
    if last is not None and big == last.big_blind and small != last.big_blind:
        on_button, off_button = off_button, on_button
        small, big = roles(on_button, off_button)
    return on_button, small, big


def _finish(
    rules: Rules,
    stakes: Stakes,
    table: _Table,
    dealt: set[int],
    layout: tuple[int, int, int],
    heads_up: bool,
) -> CashPlan:
    button, small, big = layout
    ring, by_seat = table.ring, table.by_seat
    order = ring.order_from(button, dealt)
    posts = {seat: _post(rules, stakes, table, seat, small, big) for seat in order}
    bring_in = big
    skip: tuple[int, ...] = ()
    stack = by_seat[big].stack
    if (
        rules.short_blind is ShortBlind.HALF_RULE
        and not heads_up
        and half_rule_blind(stack, stakes.big_blind, stakes.unit) == "short"
    ):
        # W17 (S2): under half the blind, all-in for what is there; the next player posts it.
        posts[big] = replace(posts[big], live=stack, why="big blind, short: all-in")
        bring_in = order[(order.index(big) + 1) % len(order)]
        posts[bring_in] = replace(
            posts[bring_in], live=stakes.big_blind, dead=0, why="big blind (the blind was short)"
        )
        skip = (big,)
    straddle = None
    if rules.straddle_allowed and len(order) >= 3:
        candidate = order[(order.index(bring_in) + 1) % len(order)]
        if posts[candidate].live == 0 and posts[candidate].dead == 0:
            straddle = candidate
    last = table.last
    return CashPlan(
        positions=Positions(button, small, big),
        posts=tuple(posts[s] for s in order),
        waiting=tuple(_waiting(table, seat) for seat in sorted(by_seat) if seat not in dealt),
        bring_in=bring_in,
        straddle_seat=straddle,
        heads_up=heads_up,
        restart=table.restart,
        after=Aftermath(
            keys=tuple((s.seat, s.key) for s in sorted(by_seat.values(), key=lambda s: s.seat)),
            cleared=tuple(sorted(dealt | (table.present if table.restart else set()))),
            missed_small=_missed(
                table, dealt, None if last is None else last.small_blind, small, True
            ),
            missed_big=_missed(table, dealt, None if last is None else last.big_blind, big, False),
            button_passed=_button_passed(table, button),
            skip_button=skip,
        ),
    )


def _post(rules: Rules, stakes: Stakes, table: _Table, seat: int, small: int, big: int) -> Post:
    """What `seat` posts: its blind, or (owing and not a blind) the entry or missed blinds."""
    ante = stakes.ante if not rules.bb_ante else (stakes.ante if seat == big else 0)
    if seat == big:
        return Post(seat=seat, live=stakes.big_blind, ante=ante, why="big blind")
    if seat == small:
        return Post(seat=seat, live=stakes.small_blind, ante=ante, why="small blind")
    if seat in table.settled:
        return Post(seat=seat, ante=ante)
    player = table.by_seat[seat]
    live, dead = owed_posts(rules, stakes, player)
    if player.new:
        why = "entry: a live big blind"
    else:
        why = f"missed blinds: {describe_posts(live, dead)}" if live or dead else ""
    return Post(seat=seat, live=live, dead=dead, ante=ante, why=why)


def owed_posts(rules: Rules, stakes: Stakes, player: CashSeat) -> tuple[int, int]:
    """(live, dead) a player owes to come in: a new player's entry, a big blind, live, with the
    option (S2 options 2-3, S0's "initial fee", A5); a returning player's missed blinds
    (RULES.md 4)."""
    if player.new:
        return stakes.big_blind, 0
    return missed_blind_posts(
        rules,
        missed_small=player.missed_small,
        missed_big=player.missed_big,
        small_blind=stakes.small_blind,
        big_blind=stakes.big_blind,
    )


def describe_posts(live: int, dead: int) -> str:
    """What a post is, in the dealer's words: "2 live + 1 dead", "1 dead", or ""."""
    parts = []
    if live:
        parts.append(f"{live} live")
    if dead:
        parts.append(f"{dead} dead")
    return " + ".join(parts)


def _waiting(table: _Table, seat: int) -> Waiting:
    """Why a seated player is not dealt in, in the dealer's words."""
    player = table.by_seat[seat]
    if player.away:
        return Waiting(seat, "sitting_out", "Sitting out.")
    if seat not in table.present:
        return Waiting(seat, "no_chips", "No chips: buy in again or leave the seat.")
    if player.wait_button and player.missed_big:
        return Waiting(
            seat,
            "button_must_pass",
            "Missed the big blind: also sits out the small blind and the button (S0).",
        )
    if player.wait_button:
        return Waiting(seat, "button_must_pass", "Waits for the button to pass, then posts.")
    if player.wait_big_blind:
        return Waiting(seat, "waiting_for_big_blind", "Waits for the big blind.")
    return Waiting(
        seat,
        "between_blinds",
        "Between the button and the big blind: comes in once the button has passed.",
    )


def _missed(
    table: _Table, dealt: set[int], was: int | None, now: int, small: bool
) -> tuple[int, ...]:
    """Seats of players sitting out that this hand's blind passes (RULES.md 4: a miss). Players
    who never played here owe their entry instead, and miss nothing."""
    if was is None:
        return ()
    missed = []
    for seat, player in table.by_seat.items():
        if seat in dealt or player.new or seat in table.present:
            continue
        if table.ring.between(was, now, seat) or (small and seat == now):
            missed.append(seat)
    return tuple(sorted(missed))


def _button_passed(table: _Table, button: int) -> tuple[int, ...]:
    """Seats waiting for the button (S0, or a new player's choice; W17's skip) that it reached
    or passed this hand."""
    if table.last is None:
        return ()
    start = _anchor(table.ring, table.last)
    if start == button:  # the button stayed (a heads-up transition): it passed nobody
        return ()
    return tuple(
        sorted(
            seat
            for seat, player in table.by_seat.items()
            if (player.wait_button or player.skip_button)
            and (table.ring.between(start, button, seat) or seat == button)
        )
    )


def after_hand(rules: Rules, seats: Sequence[CashSeat], plan: Aftermath) -> list[CashSeat]:
    """The seats once the planned hand is played: posted debts settled, blinds missed by players
    sitting out (S0: who misses the big blind waits for the button too), waits for the button
    over. A seat taken by someone else since the plan is left alone."""
    keys = dict(plan.keys)
    result = []
    for seat in seats:
        if keys.get(seat.seat) != seat.key:
            result.append(seat)
            continue
        if seat.seat in plan.cleared:
            seat = replace(
                seat,
                new=False,
                missed_small=False,
                missed_big=False,
                wait_button=False,
                wait_big_blind=False,
            )
        if seat.seat in plan.button_passed:
            seat = replace(seat, wait_button=False, skip_button=False)
        if seat.seat in plan.missed_small:
            seat = replace(seat, missed_small=True)
        if seat.seat in plan.missed_big:
            seat = replace(
                seat,
                missed_big=True,
                wait_button=seat.wait_button
                or rules.missed_blind_policy is MissedBlindPolicy.S0_MISSED_BLINDS,
            )
        if seat.seat in plan.skip_button:
            seat = replace(seat, skip_button=True)
        result.append(seat)
    return result
