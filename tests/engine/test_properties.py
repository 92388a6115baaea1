"""Property tests of the hand engine: chips, pots and the legal-action contract (RULES.md 3, 5, 6).

Hypothesis plays whole hands under every profile and structure, with short and deep stacks,
blinds, antes, dead posts and straddles. At each decision it tries a mix of legal and illegal
actions (sizes below the minimum or above the maximum, checks when owing, calls when nothing is
owed, bets into a bet, raises with no bet, the wrong player, more chips than the stack, cards out
of turn), and then shows every contender down. The properties:

1. Chips are conserved at every step and every pot is paid out to the chip.
2. Pots follow RULES.md 6.3: a simple reference implementation of the contribution layers gives
   the same amounts and eligible players, and each pot goes to its best eligible hands.
3. `legal_actions` agrees exactly with what `apply` accepts and refuses; a refusal is a
   `RuleViolation` with a code and a sentence and leaves the old state untouched. The sizes
   themselves match a small reference model of RULES.md 5.3-5.5.
4. Replaying `state.log` from `start_hand(setup)` gives the same final state.
5. Every hand ends within a bounded number of actions.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer.engine import (
    Action,
    Card,
    HandSetup,
    HandState,
    Kind,
    LegalActions,
    Phase,
    Ranker,
    Rules,
    RuleViolation,
    Stakes,
    all_in,
    apply,
    bet,
    call,
    check,
    deal_board,
    deal_hole,
    deal_setup,
    fold,
    kill,
    legal_actions,
    make_rules,
    misdeal,
    muck,
    raise_to,
    show,
    showdown_order,
    start_hand,
)
from dealer.engine.actions import BETTING_KINDS
from dealer.engine.cards import DeckKind, parse_cards, shuffled_deck
from dealer.engine.rules import CHOICES, PROFILES
from tests.examples import examples

FAST = settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SLOW = settings(
    max_examples=5000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# A hand's bets and raises are drawn freely up to this many; after that only folds, checks and
# calls are drawn, so every generated hand is short enough for Hypothesis to shrink.
MAX_AGGRESSION = 8
# Refused attempts drawn at one decision before a legal action is drawn.
MAX_REFUSALS = 2


# --- generating hands ----------------------------------------------------------------------------

CHOICE_OPTIONS = (
    "fl_short_allin",
    "pl_formula",
    "pl_min_bet",
    "pl_min_raise",
    "short_blind",
    "heads_up_button_posts",
    "odd_chip",
)
BOOL_OPTIONS = (
    "fl_headsup_uncapped",
    "pl_sb_as_bb",
    "pl_headsup_overbet_by_agreement",
    "bb_ante",
    "table_all_in",
)


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """Any profile and structure, sometimes Texas 6+, with the betting and pot options varied."""
    profile = draw(st.sampled_from(sorted(PROFILES)))
    overrides: dict[str, object] = {"structure": draw(st.sampled_from(CHOICES["structure"]))}
    if profile != "texas_6plus" and draw(st.integers(0, 3)) == 0:
        overrides["game"] = "sixplus"
    for key in CHOICE_OPTIONS:
        value = draw(st.none() | st.sampled_from(CHOICES[key]))
        if value is not None:
            overrides[key] = value
    for key in BOOL_OPTIONS:
        flag = draw(st.none() | st.booleans())
        if flag is not None:
            overrides[key] = flag
    if draw(st.booleans()):
        overrides["fl_cap_bets"] = draw(st.integers(1, 5))
    if overrides.get("game", PROFILES[profile].get("game")) == "sixplus":
        overrides["sixplus_flush_beats_full_house"] = draw(st.booleans())
        overrides["sixplus_trips_beat_straight"] = draw(st.booleans())
    if profile != "tda_tournament":
        overrides["straddle_allowed"] = draw(st.booleans())
    return make_rules(profile, overrides)


def stack_sizes(big_blind: int, unit: int) -> st.SearchStrategy[int]:
    """Many short stacks (all-ins, short blinds, side pots), some medium and some deep ones."""
    return st.one_of(
        st.integers(unit, 3 * big_blind),
        st.integers(unit, 40 * big_blind),
        st.integers(40 * big_blind, 400 * big_blind),
    )


@dataclass(frozen=True, slots=True)
class Scenario:
    """One hand to play: the set-up (hole cards known) and the five board cards in order."""

    setup: HandSetup
    board: tuple[Card, ...]
    straddle: bool

    @property
    def rules(self) -> Rules:
        return self.setup.rules

    @property
    def total_chips(self) -> int:
        return sum(p.stack for p in self.setup.players)


def deck_kind(rules: Rules) -> DeckKind:
    return DeckKind.SIXPLUS if rules.game == "sixplus" else DeckKind.STANDARD


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    rules = draw(rule_sets())
    count = draw(st.integers(2, 10))
    big = draw(st.sampled_from((2, 4, 10, 20, 50)))
    unit = 5 if big % 5 == 0 and draw(st.integers(0, 3)) == 0 else 1
    small = draw(st.sampled_from((big // 2, big // 2, unit, big)))
    ante = draw(st.sampled_from((0, 0, unit, big // 2, big)))
    stacks = draw(st.lists(stack_sizes(big, unit), min_size=count, max_size=count))
    straddle = rules.straddle_allowed and count >= 3 and draw(st.booleans())
    if straddle and count == 3 and rules.short_blind == "half_rule":
        # A short big blind under the half rule moves the blind on: nobody is left to straddle
        # (refused by deal_setup, tested in test_worked_examples).
        straddle = False
    seed = draw(st.integers(0, 2**32 - 1))
    cards = shuffled_deck(deck_kind(rules), random.Random(seed))
    holes = [tuple(cards[2 * i : 2 * i + 2]) for i in range(count)]
    board = tuple(cards[2 * count : 2 * count + 5])
    stakes = Stakes(small_blind=small, big_blind=big, ante=ante, unit=unit)
    setup = deal_setup(rules, stakes, stacks, straddle=straddle, holes=holes)
    if draw(st.integers(0, 4)) == 0:
        # A returning player posts a dead small blind (RULES.md 4): dead money for the main pot.
        poster = draw(st.integers(0, count - 1))
        players = list(setup.players)
        players[poster] = dataclasses.replace(players[poster], dead=small)
        setup = dataclasses.replace(setup, players=tuple(players))
    return Scenario(setup=setup, board=board, straddle=straddle)


# --- reference models ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RefPot:
    amount: int
    eligible: frozenset[int]


def above_every_live_level(contributed: Sequence[int], out: Sequence[bool]) -> int:
    """Chips of folded players above the largest live contribution: nobody live matched them."""
    live = [c for c, o in zip(contributed, out, strict=True) if not o]
    top = max(live, default=0)
    return sum(max(0, c - top) for c in contributed)


def reference_pots(
    contributed: Sequence[int], out: Sequence[bool], stacks: Sequence[int], dead: int
) -> list[RefPot]:
    """RULES.md 6.3 written out literally: levels, layers, eligibility, dead money, merging;
    while betting goes on, a player still in with chips behind also contends for every layer
    they can still pay up to (docs/rules.md, "Pots").

    RULES.md does not say where chips above the highest live level go (folded players' antes or
    blinds when every live player is all-in for less); the engine keeps them in the top pot
    (pots.py) so no chip is lost, and so does this reference.
    """
    live = [i for i in range(len(contributed)) if not out[i]]
    if not live:
        return [RefPot(sum(contributed) + dead, frozenset())]
    levels = {contributed[i] for i in live if stacks[i] == 0}  # all-in players
    levels.add(max(contributed[i] for i in live))
    layers: list[RefPot] = []
    below = 0
    for level in sorted(levels):
        amount = sum(min(c, level) - min(c, below) for c in contributed)
        # Reached the level, or can still reach it with the chips behind (while betting).
        eligible = frozenset(
            i
            for i in live
            if contributed[i] >= level or (stacks[i] > 0 and contributed[i] + stacks[i] >= level)
        )
        layers.append(RefPot(amount, eligible))
        below = level
    layers[0] = RefPot(layers[0].amount + dead, layers[0].eligible)
    top = layers[-1]
    layers[-1] = RefPot(top.amount + above_every_live_level(contributed, out), top.eligible)
    merged: list[RefPot] = []
    for pot in layers:
        if merged and merged[-1].eligible == pot.eligible:
            merged[-1] = RefPot(merged[-1].amount + pot.amount, pot.eligible)
        else:
            merged.append(pot)
    return merged


def limit_unit(state: HandState) -> int:
    """The fixed-limit bet and pot-limit street limit: the small bet, doubled on turn and river."""
    return state.setup.small_bet * (1 if state.street < 2 else 2)


def can_act_count(state: HandState) -> int:
    return sum(1 for i in range(state.player_count) if not state.folded[i] and state.stacks[i] > 0)


@dataclass(slots=True)
class RefBetting:
    """The betting state of RULES.md 5.2-5.5, kept from the actions alone."""

    high: int
    last_full_raise: int
    full_level: int
    raise_count: int
    capped: bool = False
    level_acted: dict[int, int] = field(default_factory=dict)

    @classmethod
    def preflop(cls, setup: HandSetup) -> RefBetting:
        # The bet to match is the full blind (or straddle) even if it was posted short (R); the
        # minimum raise starts at the BB or the straddle; in FL the BB counts as the bet and a
        # straddle as a raise (A8).
        high = max(p.blind for p in setup.players)
        return cls(
            high=high,
            last_full_raise=max(setup.big_blind, high),
            full_level=high,
            raise_count=(1 if high > 0 else 0) + (1 if high > setup.big_blind else 0),
        )

    @classmethod
    def postflop(cls, setup: HandSetup) -> RefBetting:
        return cls(high=0, last_full_raise=setup.big_blind, full_level=0, raise_count=0)

    def copy(self) -> RefBetting:
        return dataclasses.replace(self, level_acted=dict(self.level_acted))

    def lifted(self, state: HandState) -> bool:
        return state.setup.rules.fl_headsup_uncapped and can_act_count(state) <= 2

    def record(self, old: HandState, action: Action, new: HandState) -> None:
        player = old.actor
        assert player is not None
        rules = old.setup.rules
        total: int | None = None
        if action.kind in (Kind.BET, Kind.RAISE):
            total = action.amount
        elif action.kind == Kind.ALL_IN and old.bets[player] + old.stacks[player] > self.high:
            total = old.bets[player] + old.stacks[player]
        if total is not None:
            increment = total - self.high
            if rules.structure == "fixed_limit":
                unit = limit_unit(old)
                if total >= self.full_level + unit or (
                    rules.fl_short_allin == "half_bet" and 2 * increment >= unit
                ):
                    self.full_level = total
                    self.raise_count += 1
                if self.raise_count >= rules.fl_cap_bets and not self.lifted(new):
                    self.capped = True
            elif increment >= self.last_full_raise:
                self.last_full_raise = increment
            self.high = total
        if action.kind != Kind.FOLD:
            self.level_acted[player] = self.high

    def may_raise(self, state: HandState, player: int) -> bool:
        rules = state.setup.rules
        if state.stacks[player] <= self.high - state.bets[player]:
            return False  # only enough to call
        if not any(
            i != player and not state.folded[i] and state.bets[i] + state.stacks[i] > self.high
            for i in range(state.player_count)
        ):
            return False  # nobody could call a raise
        if player in self.level_acted:
            level = self.level_acted[player]
            if rules.structure == "fixed_limit":
                reopened = self.full_level > level
            else:
                reopened = self.high - level >= self.last_full_raise
            if not reopened:
                return False  # T 47: not reopened by a short all-in
        return not (
            rules.structure == "fixed_limit"
            and self.raise_count >= rules.fl_cap_bets
            and (self.capped or not self.lifted(state))
        )

    def pot_limit_max(self, state: HandState, player: int) -> int:
        """RULES.md 5.4: raise-to = high + pot + to_call; preflop a short blind counts in full
        and, with pl_sb_as_bb, the small blind counts as a big blind."""
        setup = state.setup
        pot = sum(state.contributed) + state.dead
        if state.street == 0:
            pot += sum(max(0, p.blind - b) for p, b in zip(setup.players, state.bets, strict=True))
            if setup.rules.pl_sb_as_bb and any(p.blind == setup.small_blind for p in setup.players):
                pot += setup.big_blind - setup.small_blind
        if setup.rules.pl_formula == "s0_literal":
            return self.high + pot
        return self.high + pot + (self.high - state.bets[player])

    def bounds(self, state: HandState, player: int) -> tuple[int, int]:
        rules = state.setup.rules
        everything = state.bets[player] + state.stacks[player]
        if rules.structure == "fixed_limit":
            size = min(self.full_level + limit_unit(state), everything)
            return size, size
        low = self.high + self.last_full_raise
        if rules.structure == "pot_limit":
            if self.high == 0 and rules.pl_min_bet == "street_limit":
                low = limit_unit(state)
            if self.high > 0 and rules.pl_min_raise == "street_limit":
                low = self.high + limit_unit(state)
        low = min(low, everything)
        top = everything
        agreed = rules.pl_headsup_overbet_by_agreement and len(state.in_hand()) == 2
        if rules.structure == "pot_limit" and not agreed:
            top = min(top, self.pot_limit_max(state, player))
        return low, max(low, top)


@cache
def ranker(rules: Rules) -> Ranker:
    return Ranker(
        deck=deck_kind(rules),
        flush_beats_full_house=rules.sixplus_flush_beats_full_house,
        trips_beat_straight=rules.sixplus_trips_beat_straight,
    )


# --- playing a hand ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Candidate:
    """An action to try, and whether `apply` must accept it (from `legal_actions` or the phase)."""

    action: Action
    legal: bool
    aggressive: bool = False
    drawable: bool = True  # False: only tried, never played on
    dealer_error: bool = False  # a dead hand or a misdeal (RULES.md 8): drawn now and then


@dataclass(frozen=True, slots=True)
class Decision:
    state: HandState
    legal: LegalActions
    reference: RefBetting


@dataclass(slots=True)
class Played:
    scenario: Scenario
    states: list[HandState] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    refused: list[tuple[HandState, Action]] = field(default_factory=list)

    @property
    def final(self) -> HandState:
        return self.states[-1]


def unresolved(state: HandState, player: int) -> bool:
    return state.shown[player] is None and not state.mucked[player] and not state.claims[player]


def betting_over(state: HandState) -> bool:
    return state.phase == Phase.SHOWDOWN or (
        state.phase == Phase.DEALING and can_act_count(state) <= 1
    )


def muck_allowed(state: HandState, player: int) -> bool:
    """RULES.md 7 / T 16: no muck once all-in with hands tabled, nor by a pot's last live hand."""
    if state.setup.rules.table_all_in and any(
        not state.folded[i] and state.stacks[i] == 0 for i in range(state.player_count)
    ):
        return False
    out = [f or m for f, m in zip(state.folded, state.mucked, strict=True)]
    pots = reference_pots(state.contributed, out, state.stacks, state.dead)
    return all(pot.eligible != {player} for pot in pots)


def card_outside_deck(rules: Rules) -> Card | None:
    return Card.parse("2s") if rules.game == "sixplus" else None


def threshold_passed(state: HandState) -> bool:
    """RULES.md 5.6 from the log: actions in turn after the blinds, and those that put chips in."""
    if state.street > 0:
        return True
    in_turn = [a for a in state.log if a.kind in BETTING_KINDS]
    chips = [a for a in in_turn if a.kind not in (Kind.FOLD, Kind.CHECK)]
    if state.setup.rules.action_threshold == "two_acted":
        return len(in_turn) >= 2
    return len(in_turn) >= 3 or (len(in_turn) >= 2 and len(chips) >= 1)


def common_candidates(state: HandState) -> list[Candidate]:
    """In any phase: a dead hand (R), a misdeal before the threshold (T), hole cards re-entered."""
    candidates = [Candidate(misdeal(), not threshold_passed(state), dealer_error=True)]
    for i in range(state.player_count):
        # A dead hand is out, like a fold; the last hand not mucked cannot be killed.
        live_after = any(
            not (j == i or state.folded[j] or state.mucked[j]) for j in range(state.player_count)
        )
        candidates.append(Candidate(kill(i), not state.folded[i] and live_after, dealer_error=True))
    holes = [p.hole for p in state.setup.players]
    for i, hole in enumerate(holes):
        other = holes[(i + 1) % len(holes)]
        assert hole is not None
        assert other is not None
        candidates.append(Candidate(deal_hole(i, hole), True, drawable=False))  # same cards
        candidates.append(Candidate(deal_hole(i, other), False))  # someone else's cards
        candidates.append(Candidate(deal_hole(i, hole[:1]), False))  # one card
    return candidates


def betting_candidates(state: HandState, la: LegalActions) -> list[Candidate]:
    player = la.actor
    other = (player + 1) % state.player_count
    high = state.high
    may_raise = la.min_raise_to is not None and la.max_raise_to is not None
    pushes = la.all_in_to > high
    candidates = [
        Candidate(fold(), True),
        Candidate(fold(player), True),
        Candidate(check(), la.can_check),
        Candidate(check(player), la.can_check),
        Candidate(call(), not la.can_check),
        Candidate(
            all_in(),
            not pushes or (may_raise and la.all_in_to <= (la.max_raise_to or 0)),
            aggressive=pushes,
        ),
        # The wrong player, and cards or shows while betting is under way.
        Candidate(fold(other), False),
        Candidate(call(other), False),
        Candidate(check(other), False),
        Candidate(all_in(other), False),
        Candidate(deal_board(()), False),
        Candidate(show(player), False),
        Candidate(muck(player), False),
    ]
    amounts = {
        -1,
        0,
        1,
        high,
        high + 1,
        2 * high,
        state.setup.big_blind,
        la.all_in_to,
        la.all_in_to + 1,
    }
    if la.min_raise_to is not None and la.max_raise_to is not None:
        low, top = la.min_raise_to, la.max_raise_to
        amounts |= {low - 1, low, low + 1, (low + top) // 2, top - 1, top, top + 1}
        if la.pot_raise_to is not None:
            amounts.add(la.pot_raise_to)
        candidates.append(
            Candidate(raise_to(low, other) if not la.is_bet else bet(low, other), False)
        )
    for amount in sorted(amounts):
        in_range = (
            la.min_raise_to is not None
            and la.max_raise_to is not None
            and la.min_raise_to <= amount <= la.max_raise_to
        )
        candidates.append(Candidate(bet(amount), in_range and la.is_bet, aggressive=True))
        candidates.append(Candidate(raise_to(amount), in_range and not la.is_bet, aggressive=True))
        if in_range:
            kind = bet if la.is_bet else raise_to
            candidates.append(Candidate(kind(amount, player), True, aggressive=True))
    return candidates


def dealing_candidates(state: HandState, scenario: Scenario) -> list[Candidate]:
    due = state.board_cards_due()
    start = len(state.board)
    cards = scenario.board[start : start + due]
    a_hole_card = scenario.setup.players[0].hole
    assert a_hole_card is not None
    candidates = [
        Candidate(deal_board(cards), True),
        Candidate(deal_board((*cards, *cards[:1])), False),  # one too many
        Candidate(deal_board(cards[:-1]), False),  # one too few
        Candidate(deal_board((a_hole_card[0], *cards[1:])), False),  # a card already in play
        Candidate(fold(), False),
        Candidate(check(), False),
        Candidate(bet(state.setup.big_blind), False),
    ]
    if state.street < 2:
        # Unknown flop or turn cards are accepted (PHH "??"); not played on, since the showdown
        # needs the whole board (an unknown river would leave the pots unsettled).
        candidates.append(Candidate(deal_board((None,) * due), True, drawable=False))
    outside = card_outside_deck(scenario.rules)
    if outside is not None:
        candidates.append(Candidate(deal_board((outside, *cards[1:])), False))
    over = betting_over(state)
    for i in range(state.player_count):
        live = not state.folded[i] and unresolved(state, i)
        candidates.append(Candidate(show(i), over and live))
        candidates.append(Candidate(muck(i), over and live and muck_allowed(state, i)))
    return candidates


def showdown_candidates(state: HandState, scenario: Scenario) -> list[Candidate]:
    order = showdown_order(state)
    assert sorted(order) == list(state.in_hand()), "showdown order must list every contender"
    candidates = [Candidate(show(i), unresolved(state, i)) for i in order]
    candidates += [
        Candidate(muck(i), unresolved(state, i) and muck_allowed(state, i)) for i in order
    ]
    candidates += [Candidate(show(i), False) for i in range(state.player_count) if state.folded[i]]
    candidates += [
        Candidate(fold(), False),
        Candidate(check(), False),
        Candidate(deal_board(scenario.board[:1]), False),
    ]
    return candidates


def try_candidate(state: HandState, snapshot: HandState, candidate: Candidate) -> HandState | None:
    """Apply one candidate: accepted iff it is legal, and never a change to the old state."""
    action = candidate.action
    refusal: RuleViolation | None = None
    try:
        new = apply(state, action)
    except RuleViolation as error:
        refusal = error
    assert state == snapshot, f"trying {action} changed the old state"
    if refusal is not None:
        assert not candidate.legal, f"{action} refused ({refusal.code}: {refusal.detail}) but legal"
        assert refusal.code, f"{action}: refusal without a code"
        assert refusal.detail, f"{action}: refusal without a sentence"
        return None
    assert candidate.legal, f"{action} accepted but legal_actions says it is not allowed"
    assert new.log == (*state.log, action), f"{action} is not the last entry of the log"
    return new


def choose(
    data: st.DataObject, candidates: list[Candidate], *, illegal_ok: bool, aggression_ok: bool
) -> Candidate:
    drawable = [c for c in candidates if c.drawable]
    groups = {
        "passive": [c for c in drawable if c.legal and not c.aggressive and not c.dealer_error],
        "aggressive": [c for c in drawable if c.legal and c.aggressive and aggression_ok],
        "illegal": [c for c in drawable if not c.legal and illegal_ok],
        "dealer error": [c for c in drawable if c.legal and c.dealer_error],
    }
    # Weights by repetition (shrinking goes to the first): dealer errors are rare.
    weights = {"passive": 4, "aggressive": 3, "illegal": 3, "dealer error": 1}
    names = [name for name, group in groups.items() if group for _ in range(weights[name])]
    name = data.draw(st.sampled_from(names), label="kind of action")
    return data.draw(st.sampled_from(groups[name]), label="action")


def step_bound(player_count: int) -> int:
    """Betting actions: each round at most one action per player between bets or raises, so
    (bets + 4 rounds) x players; then 3 deals, a show or muck per player and a dead hand each."""
    return (MAX_AGGRESSION + 4) * player_count + 3 + 2 * player_count


def play(
    data: st.DataObject,
    scenario: Scenario,
    *,
    exhaustive: bool = False,
    on_state: Callable[[HandState], None] | None = None,
) -> Played:
    """Play the scenario to the end with drawn actions, checking each against its verdict.

    With `exhaustive`, every candidate of every decision is tried (and must agree), not only the
    drawn ones.
    """
    state = start_hand(scenario.setup)
    played = Played(scenario, states=[state])
    reference = RefBetting.preflop(scenario.setup)
    aggression = 0
    limit = 10 * step_bound(scenario.setup.player_count)
    for _ in range(limit):
        if on_state is not None:
            on_state(state)
        if state.is_over:
            return played
        la = legal_actions(state)
        assert (la is None) == (state.phase != Phase.BETTING), "legal_actions only in betting"
        if la is not None:
            assert la.actor == state.actor
            played.decisions.append(Decision(state, la, reference.copy()))
            candidates = betting_candidates(state, la)
        elif state.phase == Phase.DEALING:
            candidates = dealing_candidates(state, scenario)
        else:
            assert state.phase == Phase.SHOWDOWN, state.phase
            candidates = showdown_candidates(state, scenario)
        candidates += common_candidates(state)
        snapshot = copy.deepcopy(state)
        if exhaustive:
            for candidate in candidates:
                try_candidate(state, snapshot, candidate)
        new = None
        for attempt in range(MAX_REFUSALS + 1):
            candidate = choose(
                data,
                candidates,
                illegal_ok=attempt < MAX_REFUSALS,
                aggression_ok=aggression < MAX_AGGRESSION,
            )
            new = try_candidate(state, snapshot, candidate)
            if new is not None:
                break
            played.refused.append((state, candidate.action))
        assert new is not None
        if la is not None and candidate.action.kind in BETTING_KINDS:
            reference.record(state, candidate.action, new)
            aggression += candidate.aggressive
        if candidate.action.kind == Kind.DEAL_BOARD:
            reference = RefBetting.postflop(scenario.setup)
        state = new
        played.states.append(state)
    raise AssertionError(f"the hand did not end within {limit} actions")


# --- checks --------------------------------------------------------------------------------------


def dead_paid(start: HandState) -> list[int]:
    """Each player's dead post: what left the stack at the start without being contributed."""
    return [
        p.stack - s - c
        for p, s, c in zip(start.setup.players, start.stacks, start.contributed, strict=True)
    ]


def check_conservation(played: Played) -> None:
    scenario = played.scenario
    total = scenario.total_chips
    start = played.states[0]
    paid_dead = dead_paid(start)
    assert all(d >= 0 for d in paid_dead)
    assert sum(paid_dead) == start.dead
    for state in played.states:
        assert all(s >= 0 for s in state.stacks), state.stacks
        assert all(0 <= b <= c for b, c in zip(state.bets, state.contributed, strict=True))
        if state.is_over:
            continue
        assert sum(state.stacks) + state.pot_total == total
        assert sum(pot.amount for pot in state.pots()) == state.pot_total
    final = played.final
    assert final.finishing_stacks is not None
    assert sum(final.finishing_stacks) == total
    if final.phase == Phase.VOID:  # a misdeal returns every chip (T)
        assert final.finishing_stacks == final.starting_stacks
        assert final.awards == ()
        return
    assert final.phase == Phase.COMPLETE
    assert sum(award.amount for award in final.awards) == final.pot_total
    won = [0] * final.player_count
    for award in final.awards:
        assert len(award.winners) == len(award.shares) == len(award.hands) >= 1
        assert sum(award.shares) == award.amount
        assert all(share >= 0 for share in award.shares)
        for winner, share in zip(award.winners, award.shares, strict=True):
            won[winner] += share
    for i, player in enumerate(final.setup.players):
        expected = player.stack - final.contributed[i] - paid_dead[i] + won[i]
        assert final.finishing_stacks[i] == expected, (i, final.finishing_stacks, expected)


def check_pots(state: HandState) -> None:
    pots = state.pots()
    expected = reference_pots(state.contributed, state.folded, state.stacks, state.dead)
    assert [(p.amount, frozenset(p.eligible)) for p in pots] == [
        (p.amount, p.eligible) for p in expected
    ], (state.contributed, state.folded, state.stacks, state.dead)
    for pot in pots:
        assert list(pot.eligible) == sorted(set(pot.eligible)), "eligible listed once, in order"
        assert all(not state.folded[i] for i in pot.eligible), "a folded player is eligible"
    for outer, inner in itertools.pairwise(pots):
        assert set(inner.eligible) <= set(outer.eligible), "side pot not nested in the main pot"
        assert inner.eligible != outer.eligible, "adjacent pots with the same players not merged"
    leftover = above_every_live_level(state.contributed, state.folded)
    killed = any(action.kind == Kind.KILL for action in state.log)
    if leftover and state.phase != Phase.BETTING and not killed:
        assert all(state.stacks[i] == 0 for i in state.in_hand()), "unmatched chips, live stacks"
    for i in range(state.player_count):
        if state.folded[i] or state.stacks[i] > 0:
            continue
        # An all-in player is eligible only for the layers up to their own contribution.
        mine = state.contributed[i]
        reachable = sum(pot.amount for pot in pots if i in pot.eligible)
        matched = sum(min(c, mine) for c in state.contributed) + state.dead
        assert reachable == matched + (leftover if i in pots[-1].eligible else 0)


def check_awards(final: HandState) -> None:
    """Each pot (highest side pot first) goes to its best eligible hands, split in chip units."""
    if final.phase == Phase.VOID:
        return
    assert final.phase == Phase.COMPLETE
    if len(final.in_hand()) == 1:
        (award,) = final.awards
        assert award.winners == final.in_hand()
        assert award.amount == final.pot_total
        return
    out = [f or m for f, m in zip(final.folded, final.mucked, strict=True)]
    before = list(final.stacks)  # the stacks before the pots were pushed: who was all-in
    for award in final.awards:
        for winner, share in zip(award.winners, award.shares, strict=True):
            before[winner] -= share
    pots = reference_pots(final.contributed, out, before, final.dead)
    assert [a.pot for a in final.awards] == list(reversed(range(len(pots))))
    rank = ranker(final.setup.rules)
    board = [card for card in final.board if card is not None]
    assert len(board) == 5
    unit = final.setup.unit
    for award in final.awards:
        pot = pots[award.pot]
        assert award.amount == pot.amount
        contenders = sorted(pot.eligible)
        if len(contenders) == 1:
            assert award.winners == tuple(contenders)
        else:
            values = {}
            for i in contenders:
                shown = final.shown[i]
                assert shown is not None, f"player {i + 1} won nothing unshown"
                values[i] = rank.value([*shown, *board])
            best = max(values.values())
            assert sorted(award.winners) == [i for i in contenders if values[i] == best]
        if final.setup.rules.odd_chip == "left_of_button":
            assert list(award.winners) == sorted(award.winners)
        units, remainder = divmod(award.amount, unit)
        base, odd = divmod(units, len(award.winners))
        expected = [(base + (1 if k < odd else 0)) * unit for k in range(len(award.winners))]
        expected[0] += remainder
        assert list(award.shares) == expected


def check_sizes(decision: Decision) -> None:
    """legal_actions against the reference betting model of RULES.md 5.2-5.5."""
    state, la, ref = decision.state, decision.legal, decision.reference
    rules = state.setup.rules
    player = la.actor
    assert state.actor == player
    assert not state.folded[player]
    assert state.stacks[player] > 0
    assert state.high == ref.high, "the bet to match"
    owed = ref.high - state.bets[player]
    assert owed >= 0
    assert la.can_fold
    assert la.can_check == (owed == 0)
    assert la.call == min(owed, state.stacks[player])
    assert (la.call > 0) == (not la.can_check)
    assert la.is_bet == (ref.high == 0)
    assert la.all_in_to == state.bets[player] + state.stacks[player]
    may = ref.may_raise(state, player)
    assert (la.min_raise_to is not None) == may, ("may raise", ref)
    assert (la.max_raise_to is not None) == may
    assert (la.pot_raise_to is not None) == may
    if la.min_raise_to is None or la.max_raise_to is None or la.pot_raise_to is None:
        return
    assert (la.min_raise_to, la.max_raise_to) == ref.bounds(state, player), ref
    assert ref.high < la.min_raise_to <= la.max_raise_to <= la.all_in_to
    pot_sized = min(max(ref.pot_limit_max(state, player), la.min_raise_to), la.max_raise_to)
    assert la.pot_raise_to == pot_sized
    if rules.structure == "fixed_limit":
        assert la.min_raise_to == la.max_raise_to
        assert la.max_raise_to - ref.high <= limit_unit(state)
    if rules.structure == "pot_limit" and la.pot_raise_to < la.all_in_to:
        agreed = rules.pl_headsup_overbet_by_agreement and len(state.in_hand()) == 2
        assert agreed or la.max_raise_to == la.pot_raise_to
    if rules.structure == "no_limit":
        assert la.max_raise_to == la.all_in_to


def check_fixed_limit_cap(state: HandState) -> None:
    """Without the heads-up lift no street goes past fl_cap_bets bets (a straddle is one)."""
    rules = state.setup.rules
    if rules.structure != "fixed_limit" or rules.fl_headsup_uncapped or state.is_over:
        return
    opening = max(p.blind for p in state.setup.players) if state.street == 0 else 0
    assert state.high <= max(rules.fl_cap_bets * limit_unit(state), opening)


def check_replay(played: Played) -> None:
    final = played.final
    state = start_hand(played.scenario.setup)
    assert state == played.states[0]
    for action in final.log:
        state = apply(state, action)
    assert state == final


# --- the properties ------------------------------------------------------------------------------


def all_properties(data: st.DataObject, scenario: Scenario) -> None:
    played = play(data, scenario, exhaustive=True)
    check_conservation(played)
    for state in played.states:
        if not state.is_over:
            check_pots(state)
        check_fixed_limit_cap(state)
    check_awards(played.final)
    for decision in played.decisions:
        check_sizes(decision)
    check_replay(played)
    assert len(played.final.log) <= step_bound(scenario.setup.player_count)


@FAST
@given(scenario=scenarios(), data=st.data())
def test_chips_are_conserved_in_every_hand(scenario: Scenario, data: st.DataObject) -> None:
    check_conservation(play(data, scenario))


@FAST
@given(scenario=scenarios(), data=st.data())
def test_pot_eligibility_matches_contribution_layers(
    scenario: Scenario, data: st.DataObject
) -> None:
    for state in play(data, scenario).states:
        if not state.is_over:
            check_pots(state)


@FAST
@given(scenario=scenarios(), data=st.data())
def test_each_pot_goes_to_its_best_eligible_hands(scenario: Scenario, data: st.DataObject) -> None:
    check_awards(play(data, scenario).final)


@FAST
@given(scenario=scenarios(), data=st.data())
def test_legal_actions_agree_with_apply(scenario: Scenario, data: st.DataObject) -> None:
    play(data, scenario, exhaustive=True)


@FAST
@given(scenario=scenarios(), data=st.data())
def test_bet_sizes_match_the_betting_rules(scenario: Scenario, data: st.DataObject) -> None:
    played = play(data, scenario, on_state=check_fixed_limit_cap)
    for decision in played.decisions:
        check_sizes(decision)


@FAST
@given(scenario=scenarios(), data=st.data())
def test_replaying_the_log_reproduces_the_hand(scenario: Scenario, data: st.DataObject) -> None:
    check_replay(play(data, scenario))


@FAST
@given(scenario=scenarios(), data=st.data())
def test_every_hand_ends_within_a_bounded_number_of_actions(
    scenario: Scenario, data: st.DataObject
) -> None:
    played = play(data, scenario)
    assert played.final.phase in (Phase.COMPLETE, Phase.VOID)
    assert len(played.final.log) <= step_bound(scenario.setup.player_count)


@pytest.mark.slow
@SLOW
@given(scenario=scenarios(), data=st.data())
def test_every_property_holds_over_many_hands(scenario: Scenario, data: st.DataObject) -> None:
    all_properties(data, scenario)


# --- regressions found by the properties -------------------------------------------------------


def test_reentering_a_shown_players_own_hole_cards_is_accepted() -> None:
    # Shrunk example: both blinds all-in, one hand tabled during the run-out, then its own cards
    # entered again. They were refused as "already in play" (the player's shown cards counted).
    rules = make_rules("casino_cash", {"game": "sixplus"})
    holes = [parse_cards("As Kd"), parse_cards("9d Jh")]
    stakes = Stakes(small_blind=1, big_blind=2)
    state = start_hand(deal_setup(rules, stakes, [2, 1], holes=holes))
    assert state.phase == Phase.DEALING
    state = apply(state, show(1))
    state = apply(state, deal_hole(1, holes[1]))
    assert state.holes[1] == holes[1]
    with pytest.raises(RuleViolation) as refused:
        apply(state, deal_hole(1, parse_cards("Td Jh")))
    assert refused.value.code == "cards_conflict"


def test_the_last_hand_not_mucked_cannot_be_killed() -> None:
    # Shrunk example: all-in run-out; every other hand mucked or killed, then the last one killed.
    # The showdown then had a pot with nobody to win it and crashed (max() of nothing).
    rules = make_rules("casino_cash")
    holes = [parse_cards("As Kd"), parse_cards("9d Jh"), parse_cards("7c 7h")]
    stakes = Stakes(small_blind=1, big_blind=2)
    state = start_hand(deal_setup(rules, stakes, [1, 2, 2], holes=holes))
    state = apply(state, call())  # the button calls all-in: everyone is all-in
    assert state.phase == Phase.DEALING
    state = apply(state, show(0))
    state = apply(state, muck(2))
    state = apply(state, kill(0))
    with pytest.raises(RuleViolation) as refused:
        apply(state, kill(1))
    assert refused.value.code == "last_live_hand"
    for cards in ("2c 3d 4h", "8s", "9s"):
        state = apply(state, deal_board(parse_cards(cards)))
    assert state.phase == Phase.COMPLETE  # the last live hand wins without showing
    assert state.stacks == (0, 5, 0)
