"""The fast lane of `python -m dealer.engine.phh replay` against the strict path, on random hands.

A hypothesis strategy plays random no-limit hold'em hands through the strict engine itself (2 to 9
players, random stacks and blinds, sometimes antes and a straddle; every betting action drawn from
the engine's legal actions at that point: folds, calls, minimum and all-in raises and sizes in
between; side pots; showdowns with known or `????` cards; wins without a showdown), writes them
as PHH text with the project's writer (`dumps_phhs`), and replays the text both ways. The lane may
hand a hand over to the strict path, but it must never answer otherwise: the command's JSON lines
are compared with the ones the strict path alone writes. Some hands are then made invalid (a raise
of an illegal size, an action out of turn, finishing stacks the actions contradict) and must be
refused the same way, with the lane handing them over.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer.engine.betting import legal_actions
from dealer.engine.cards import DeckKind, deck
from dealer.engine.errors import EngineError
from dealer.engine.hand import start_hand
from dealer.engine.phh import cli, fast
from dealer.engine.phh.history import (
    HandHistory,
    amount_text,
    dumps_phhs,
    history_from_fields,
    split_hands,
)
from dealer.engine.phh.play import apply_action, history_to_setup, outcome, parse_action
from dealer.engine.showdown import showdown_order
from dealer.engine.state import HandState, Phase

CARDS = [str(card) for card in deck(DeckKind.STANDARD)]
SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass
class Generated:
    """A random hand as PHH text would hold it, and the invalid variants found on the way."""

    history: HandHistory
    state: HandState
    # Invalid variants of the action list: (what is wrong, the actions up to the bad one).
    invalid: list[tuple[str, list[str]]] = field(default_factory=list)


def _setup(draw: Any) -> HandHistory:
    count = draw(st.integers(2, 9))
    scale = draw(st.sampled_from([1, 1, 100]))
    big = draw(st.integers(2, 40)) * (scale if scale == 1 or draw(st.booleans()) else 1)
    small = draw(st.integers(1, big))
    blinds = [small, big] + [0] * (count - 2)
    if count >= 3 and draw(st.integers(0, 4)) == 0:
        blinds[2] = 2 * big  # a straddle
    ante = draw(st.sampled_from([0, 0, 0, max(1, big // 4), big]))
    stacks = [
        draw(st.one_of(st.integers(1, 3 * big), st.integers(1, 300 * big))) for _ in range(count)
    ]
    history = HandHistory(
        variant="NT",
        antes=[ante] * count,
        blinds_or_straddles=blinds,
        starting_stacks=stacks,
        actions=[],
        min_bet=big,
        scale=scale,
    )
    history.ante_trimming_status = draw(st.sampled_from([None, True, False]))
    return history


def _apply(history: HandHistory, state: HandState, text: str, unknown: set[int]) -> HandState:
    action = parse_action(text, history.player_count, history.scale)
    assert action is not None
    return apply_action(state, action, unknown)


def _fold_out(state: HandState, raiser: int) -> list[str]:
    """Every other player who could still act folds, in turn after the raiser."""
    count = state.player_count
    order = [(raiser + step) % count for step in range(1, count)]
    return [f"p{i + 1} f" for i in order if not state.folded[i] and state.stacks[i] > 0]


@st.composite
def hands(draw: Any) -> Generated:
    """A random plain NT hand played through the strict engine (see the module docstring)."""
    history = _setup(draw)
    count = history.player_count
    scale = history.scale
    cards = draw(st.permutations(CARDS))
    holes = {i: cards[2 * i] + cards[2 * i + 1] for i in range(count)}
    board = iter(cards[2 * count :])
    known = [draw(st.booleans()) for _ in range(count)]
    actions = history.actions
    for i in range(count):
        actions.append(f"d dh p{i + 1} {holes[i] if known[i] else '????'}")
    state = start_hand(history_to_setup(history))
    unknown: set[int] = set()
    generated = Generated(history=history, state=state)

    def write(amount: int) -> str:
        return amount_text(amount, scale)

    for _ in range(200):
        if state.is_over:
            break
        if state.phase == Phase.DEALING:
            due = state.board_cards_due()
            text = "d db " + "".join(next(board) for _ in range(due))
        elif state.phase == Phase.BETTING:
            legal = legal_actions(state)
            assert legal is not None
            actor = legal.actor
            choices = ["cc"]
            if legal.can_fold and not legal.can_check:
                choices.append("f")
            if legal.min_raise_to is not None:
                choices.append("cbr")
            verb = draw(st.sampled_from(choices))
            if verb == "cbr":
                assert legal.min_raise_to is not None
                assert legal.max_raise_to is not None
                low, high = legal.min_raise_to, legal.max_raise_to
                amount = draw(
                    st.one_of(st.just(low), st.just(high), st.integers(low, high))
                    if low < high
                    else st.just(low)
                )
                text = f"p{actor + 1} cbr {write(amount)}"
                # The others fold to the bad raise, so that a lane that let it pass would
                # finish the hand and answer (a hand that stops early is handed over anyway).
                rest = _fold_out(state, actor)
                too_small = low - 1
                if low < high and too_small > state.high:
                    bad = f"p{actor + 1} cbr {write(too_small)}"
                    generated.invalid.append(("raise_below_minimum", [*actions, bad, *rest]))
                bad = f"p{actor + 1} cbr {write(high + 1)}"
                generated.invalid.append(("raise_above_stack", [*actions, bad, *rest]))
            else:
                text = f"p{actor + 1} {verb}"
            other = draw(st.integers(0, count - 1))
            if other != actor and not state.folded[other]:
                generated.invalid.append(("out_of_turn", [*actions, f"p{other + 1} cc"]))
        elif state.phase == Phase.SHOWDOWN:
            waiting = [
                i for i in showdown_order(state) if state.shown[i] is None and i not in unknown
            ]
            if not waiting:
                break  # every live hand is tabled unknown: the winner is unknown
            player = waiting[0]
            if known[player] or draw(st.booleans()):
                text = f"p{player + 1} sm {holes[player]}"
            else:
                text = f"p{player + 1} sm ????"
        else:  # pragma: no cover - the engine has no other phase here
            raise AssertionError(state.phase)
        actions.append(text)
        state = _apply(history, state, text, unknown)
    if state.is_over and not any(state.shown) and draw(st.booleans()):
        winner = state.in_hand()[0]
        actions.append(f"p{winner + 1} sm {holes[winner]}")  # a winner shows after the folds
        state = _apply(history, state, actions[-1], unknown)
    generated.state = state
    if state.is_over and draw(st.booleans()):
        history.finishing_stacks = list(state.stacks)
    return generated


def strict_lines(path: str) -> list[tuple[bool, str]]:
    """The command's answer for a file with the strict path alone (no fast lane)."""
    lines = []
    for index, fields in enumerate(split_hands(cli.read_text(path))):
        try:
            history = history_from_fields(fields)
            lines.append((True, cli.result_line(path, index, history, outcome(history))))
        except EngineError as error:
            lines.append((False, cli._error(path, index, error)))
    return lines


def lane_answers(text: str) -> list[str | None]:
    """For each hand of the text, what the fast lane answers itself: "ok", the code of its
    refusal, or None when it hands the hand over to the strict path."""
    quick = fast.scan(text)
    assert quick is not None  # our writer's layout is the plain one
    answers: list[str | None] = []
    for history in quick:
        try:
            answers.append(None if history is None or fast.play(history) is None else "ok")
        except EngineError as error:
            answers.append(error.code)
    return answers


def _write(tmp: Path, text: str) -> str:
    path = tmp / "hands.phhs"
    path.write_text(text, encoding="utf-8")
    return str(path)


@SETTINGS
@given(games=st.lists(hands(), min_size=1, max_size=3))
def test_the_fast_lane_answers_random_plain_hands_as_the_strict_path(tmp_path_factory, games):
    text = dumps_phhs(game.history for game in games)
    path = _write(tmp_path_factory.mktemp("phh"), text)
    expected = strict_lines(path)
    assert cli.replay_file(path) == expected
    assert all(ok for ok, _ in expected)  # every hand the engine played replays
    assert lane_answers(text) == ["ok"] * len(games)  # plain hands: the lane plays them itself


@SETTINGS
@given(game=hands(), data=st.data())
def test_the_fast_lane_hands_invalid_hands_over_and_the_refusal_is_the_same(
    tmp_path_factory, game, data
):
    history = game.history
    choices = list(game.invalid)
    if history.finishing_stacks is not None:
        wrong = list(history.finishing_stacks)
        giver = data.draw(st.sampled_from([i for i, s in enumerate(wrong) if s > 0]))
        wrong[giver] -= 1
        wrong[(giver + 1) % len(wrong)] += 1
        choices.append(("finishing_stacks_mismatch", wrong))
    if not choices:
        return
    kind, change = data.draw(st.sampled_from(choices))
    if kind == "finishing_stacks_mismatch":
        history.finishing_stacks = change
    else:
        history.actions = change
    text = dumps_phhs([history])
    path = _write(tmp_path_factory.mktemp("phh"), text)
    expected = strict_lines(path)
    assert cli.replay_file(path) == expected
    assert [ok for ok, _ in expected] == [False], (kind, expected)
    code = json.loads(expected[0][1])["error"]["code"]
    assert lane_answers(text) in ([None], [code])  # handed over, or the same refusal
