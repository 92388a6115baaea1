"""PHH histories as sites publish them (issue 13): amounts in dollars and cents, check fields finer
than a chip, hands shown as `????` and revealed later, results nobody can know, and the fast lane
of the command line, which must answer exactly as the strict path does.

pokerkit 0.7.7 is the oracle for finishing stacks where the winner is known. The hands come from
the bench corpus (bench/data/phh/, the PHH dataset, MIT licence) or its seven-hand subset
tests/engine/phh_samples/abs_nl100_subset.phhs.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
import warnings
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from pokerkit import HandHistory as PokerkitHistory

from dealer.engine import Stakes, apply, deal_setup, make_rules, start_hand
from dealer.engine.actions import bet, call, check, deal_board, fold, show
from dealer.engine.cards import parse_cards
from dealer.engine.errors import EngineError
from dealer.engine.phh import (
    PhhError,
    dumps_phh,
    history_from_fields,
    history_from_state,
    parse_action,
    parse_phh,
    replay,
    split_hands,
    verify,
)

if TYPE_CHECKING:
    from dealer.engine.phh.play import HandResult

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = Path(__file__).resolve().parent / "phh_samples"
SUBSET = SAMPLES / "abs_nl100_subset.phhs"
CORPUS = sorted((ROOT / "bench" / "data" / "phh").glob("*.phhs"))

# A plain three-handed hand in whole chips, checked down to the river.
WHOLE = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = [
  "d dh p1 ????", "d dh p2 ????", "d dh p3 ????",
  "p3 cc", "p1 cc", "p2 cc",
  "d db 2c3c4h", "p1 cc", "p2 cc", "p3 cc",
  "d db 9s", "p1 cc", "p2 cc", "p3 cc",
  "d db Td", "p1 cc", "p2 cc", "p3 cc",
]
"""


def outcome(history: Any) -> HandResult:
    """play.py's `outcome` (imported here so that each test fails alone on code without it)."""
    from dealer.engine.phh.play import outcome as play_outcome

    return play_outcome(history)


def subset() -> list[Mapping[str, object]]:
    return split_hands(SUBSET.read_text(encoding="utf-8"))


def units(history: Any, values: Any) -> list[Decimal]:
    """Whole units back in the file's units, as exact decimals."""
    return [Decimal(history.amount_text(v)) for v in values]


def pokerkit_stacks(text: str) -> list[list[Decimal]]:
    """Finishing stacks of every hand of a PHH text as pokerkit replays it (Decimal amounts)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # user-defined fields, folds when a check is possible
        hands = split_hands(text)
        if len(hands) > 1:
            histories = list(PokerkitHistory.loads_all(text))
        else:
            histories = [PokerkitHistory.loads(text)]
        return [[Decimal(str(s)) for s in list(h)[-1].stacks] for h in histories]


def run_cli(*args: str) -> tuple[int, list[dict[str, Any]]]:
    completed = subprocess.run(
        [sys.executable, "-m", "dealer.engine.phh", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.stderr == ""
    return completed.returncode, [json.loads(line) for line in completed.stdout.splitlines()]


# --- amounts in dollars and cents --------------------------------------------------------------


def test_a_hand_in_dollars_and_cents_plays_in_cents_and_answers_in_dollars():
    history = history_from_fields(subset()[0])  # starting_stacks = [200.30, 81.60, 197]
    assert history.scale == 100
    assert history.starting_stacks == [20030, 8160, 19700]
    assert history.blinds_or_straddles == [50, 100, 0]
    state = verify(history)
    assert units(history, state.stacks) == [Decimal("201.30"), Decimal("80.60"), 197]
    assert history.amount_text(20030) == "200.30"


@pytest.mark.parametrize(
    ("stacks", "action", "scale"),
    [
        ("[100, 100.0, 100]", "p3 f", 1),  # 100.0 is a whole number of chips
        ("[100, 100.5, 100]", "p3 f", 10),
        ("[100, 100.50, 100]", "p3 f", 100),  # written to the cent: the unit is one cent
        ("[100, 100, 100]", "p3 cbr 6.25", 100),  # an action's amount counts too
        ("[100, 100, 100]", "p3 cbr 6.00", 1),
    ],
)
def test_the_scale_is_set_by_the_decimal_places_of_the_amounts_that_are_not_whole(
    stacks, action, scale
):
    text = WHOLE.replace("[100, 100, 100]", stacks)
    history = parse_phh(text.split("actions")[0] + f'actions = ["{action}"]\n')
    assert history.scale == scale


def test_an_action_finer_than_the_hand_unit_is_refused_and_says_why():
    with pytest.raises(PhhError, match=r"finer than the hand's unit \(0\.01\)") as caught:
        parse_action("p1 cbr 2.505", 3, 100)
    assert caught.value.code == "bad_action"
    action = parse_action("p1 cbr 2.50", 3, 100)
    assert action is not None
    assert action.amount == 250


def test_decimal_hands_finish_as_in_pokerkit_where_the_winner_is_known():
    text = SUBSET.read_text(encoding="utf-8")
    theirs = pokerkit_stacks(text)
    for index, fields in enumerate(split_hands(text)[:6]):
        history = history_from_fields(fields)
        result = outcome(history)
        if result.status == "complete":
            assert units(history, result.stacks) == theirs[index], index


def test_a_pot_split_to_the_cent_gives_the_odd_cent_left_of_the_button_unlike_pokerkit():
    # [577]: 65.85 split two ways. The site's unit is the cent: 32.93 to p3 (first left of the
    # button), 32.92 to p8. pokerkit splits the pot to half cents (32.925 each).
    text = SUBSET.read_text(encoding="utf-8")
    history = history_from_fields(split_hands(text)[6])
    result = outcome(history)
    assert units(history, result.won) == [0, 0, Decimal("32.93"), 0, 0, 0, 0, Decimal("32.92"), 0]
    assert pokerkit_stacks(text)[6][2] == Decimal("286.595")


# --- check fields --------------------------------------------------------------------------------


def test_a_check_field_finer_than_a_chip_is_not_applied_and_says_why():
    text = WHOLE + "finishing_stacks = [99.5, 100.5, 100]\nwinnings = [0, 0.5, 0]\n"
    history = parse_phh(text)  # refused before as bad_field: the whole hand was lost
    assert history.scale == 1
    assert history.finishing_stacks is None
    assert history.notes == {
        "finishing_stacks": "not applicable: 99.5 is finer than the hand's unit (1)",
        "winnings": "not applicable: 0.5 is finer than the hand's unit (1)",
    }
    assert history.extra["finishing_stacks"] == [Decimal("99.5"), Decimal("100.5"), 100]
    history.actions += ["p1 sm AsKs", "p2 sm QhQd", "p3 sm 7h7d"]
    result = outcome(history)
    assert result.status == "complete"
    assert result.notes == history.notes
    again = parse_phh(dumps_phh(history))  # written back as it was given
    assert again.notes == history.notes
    assert again.extra["finishing_stacks"] == history.extra["finishing_stacks"]


def test_winnings_are_compared_allowing_a_rake_and_a_returned_bet():
    hands = subset()
    raked = outcome(history_from_fields(hands[2]))
    assert raked.notes == {"winnings": "the pot less 1.35 (the rake)"}
    walk = outcome(history_from_fields(hands[3]))  # the big blind's own half counted as won
    assert walk.notes == {"winnings": "counts the uncalled bet taken back as won"}
    exact = outcome(history_from_fields(hands[0]))
    assert exact.notes == {}
    wrong = dict(hands[0], winnings=[0, Decimal("2"), 0])  # paid to the player who folded
    with pytest.raises(PhhError) as caught:
        outcome(history_from_fields(wrong))
    assert caught.value.code == "winnings_mismatch"
    more = dict(hands[0], winnings=[Decimal("4.01"), 0, 0])  # more than pot 2 + bet back 2
    with pytest.raises(PhhError) as caught:
        verify(history_from_fields(more))
    assert caught.value.code == "winnings_mismatch"


# --- hands shown as ???? --------------------------------------------------------------------------


def test_an_all_in_hand_shown_as_unknown_then_revealed_plays_with_the_cards_revealed():
    # [70]: p2 and p4 all-in on the flop, `sm ????` on each street, cards shown at the river.
    # Before, the first `????` mucked p2's hand and the reveal was refused (already resolved).
    text = SUBSET.read_text(encoding="utf-8")
    history = history_from_fields(split_hands(text)[4])
    state = verify(history)
    assert state.shown[1] is not None
    assert state.shown[3] is not None
    assert units(history, state.stacks) == pokerkit_stacks(text)[4]


def test_when_every_remaining_hand_is_unknown_the_result_is_winner_unknown():
    history = parse_phh(WHOLE)
    history.actions += ["p1 sm ????", "p2 sm ????", "p3 sm ????"]
    result = outcome(history)  # before: the pot went to the last hand not mucked
    assert result.status == "winner_unknown"
    assert result.won is None
    assert [(p.amount, p.contenders, p.unknown) for p in result.pots] == [(6, (0, 1, 2), (0, 1, 2))]
    with pytest.raises(PhhError) as caught:
        verify(history)
    assert caught.value.code == "winner_unknown"
    history.actions = [*history.actions[:8], "p1 sm ????"]  # while the flop is being bet
    with pytest.raises(PhhError) as caught:
        replay(history)
    assert caught.value.code == "not_showdown"


def test_a_known_hand_against_an_unknown_one_has_no_known_winner_either():
    history = history_from_fields(subset()[1])  # [2]: p1 shows, p2 and p3 show ????
    result = outcome(history)
    assert result.status == "winner_unknown"
    assert [(p.contenders, p.unknown) for p in result.pots] == [((0, 1, 2), (1, 2))]


def test_a_winner_may_show_after_everyone_folded():
    history = history_from_fields(subset()[5])  # [126]: `p2 sm KhKc` after the folds
    assert history.actions[-1] == "p2 sm KhKc"
    assert outcome(history).status == "complete"


# --- export ------------------------------------------------------------------------------------


def test_a_decimal_hand_round_trips_through_export_and_pokerkit():
    history = history_from_fields(subset()[4])
    state = verify(history)
    exported = history_from_state(state, scale=100)  # before: no scale, amounts in cents
    text = dumps_phh(exported)
    stacks = ", ".join(history.amount_text(v) for v in history.starting_stacks)
    assert f"starting_stacks = [{stacks}]" in text
    assert "p2 cbr 125.04" in text
    again = parse_phh(text)
    assert again.scale == 100
    assert again.starting_stacks == history.starting_stacks
    assert verify(again).stacks == state.stacks
    assert pokerkit_stacks(text) == [units(history, state.stacks)]


def test_an_export_whose_amounts_are_all_whole_dollars_keeps_the_cent_as_its_unit():
    rules = make_rules("casino_cash")
    state = start_hand(deal_setup(rules, Stakes(small_blind=100, big_blind=200), [10000] * 3))
    for action in (call(), call(), check()):  # cents: blinds 1.00 and 2.00, stacks 100.00
        state = apply(state, action)
    state = apply(state, deal_board(parse_cards("2c3c4h")))
    state = apply(state, bet(300))
    state = apply(state, fold())
    state = apply(state, call())
    for cards in ("9s", "Td"):
        state = apply(state, deal_board(parse_cards(cards)))
        state = apply(state, check())
        state = apply(state, check())
    state = apply(state, show(0, parse_cards("AsKs")))
    state = apply(state, show(2, parse_cards("AdKd")))  # they split 12.00
    exported = history_from_state(state, scale=100)
    assert exported.extra["_unit"] == Decimal("0.01")  # every amount written is whole dollars
    again = parse_phh(dumps_phh(exported))
    assert again.scale == 100
    assert verify(again).stacks == state.stacks
    with pytest.raises(PhhError) as caught:
        history_from_state(state, scale=12)
    assert caught.value.code == "bad_scale"


# --- the fast lane and the fast reader ----------------------------------------------------------


def _strict(fields: dict[str, Any]) -> HandResult | str:
    try:
        return outcome(history_from_fields(fields))
    except EngineError as error:
        return error.code


@pytest.mark.parametrize("path", [*CORPUS, SUBSET], ids=lambda p: p.name)
def test_the_fast_lane_takes_every_plain_hand_and_answers_as_the_strict_path(path):
    from dealer.engine.phh import fast

    text = path.read_text(encoding="utf-8")
    quick = fast.scan(text)
    assert quick is not None
    hands = split_hands(text)
    assert len(quick) == len(hands)
    for index, (history, fields) in enumerate(zip(quick, hands, strict=True)):
        assert history is not None, index
        try:
            result: HandResult | str | None = fast.play(history)
        except EngineError as error:
            result = error.code
        assert result is not None, index
        assert result == _strict(fields), index


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.phh*")), ids=lambda p: p.name)
def test_the_fast_lane_never_answers_otherwise_than_the_strict_path(path):
    from dealer.engine.phh import fast

    text = path.read_text(encoding="utf-8")
    quick = fast.scan(text)
    try:
        hands = split_hands(text)
    except PhhError:
        assert not quick or None in quick  # not TOML: the lane does not read it
        return
    for index, history in enumerate(quick or ()):
        if history is None:
            continue
        try:
            result: HandResult | str | None = fast.play(history)
        except EngineError as error:
            result = error.code
        if result is not None:
            assert result == _strict(hands[index]), (path.name, index)


def test_the_fast_lane_leaves_a_muck_to_the_strict_path():
    from dealer.engine.phh import fast

    history = parse_phh(WHOLE)
    history.actions += ["p1 sm AsKs", "p2 sm", "p3 sm QsQc"]
    assert fast.play(history) is None
    assert outcome(history).status == "complete"


@pytest.mark.parametrize("path", CORPUS + sorted(SAMPLES.glob("*.phh*")), ids=lambda p: p.name)
def test_the_fast_toml_reader_reads_what_tomllib_reads(path):
    from dealer.engine.phh import toml_lite

    text = path.read_text(encoding="utf-8")
    try:
        expected: Any = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError:
        expected = "error"
    try:
        got: Any = toml_lite.loads(text)
    except toml_lite.TomlError:
        got = "error"
    assert got == expected


@pytest.mark.parametrize(
    "text",
    [
        "a = 1\nb = 'x = y'\n",
        "a = '''it's'''\n",
        "a = [1, 2,]\n",
        'a = ["x", "y"]\n',
        "a = 1 # a comment\n",
        "a = 01\n",
        "a = 1\na = 2\n",
        "[1]\na = 1\n[1]\nb = 2\n",
        "a = 1979-05-27\nb = 07:32:00\nc = 24:00:00\n",
        "a = inf\nb = 1_000\nc = 1e3\n",
        "a = [\n  'x',\n  # inside\n  'y',\n]\n",
        "a = '\\t'\n",
        "a.b = 1\n",
    ],
)
def test_the_fast_toml_reader_agrees_with_tomllib_on_the_odd_cases(text):
    from dealer.engine.phh import toml_lite

    try:
        expected: Any = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError:
        expected = "error"
    try:
        got: Any = toml_lite.loads(text)
    except toml_lite.TomlError:
        got = "error"
    assert got == expected


# --- the command line ----------------------------------------------------------------------------


def test_the_cli_answers_in_the_file_units_and_an_unknown_winner_is_not_a_failure():
    code, lines = run_cli("replay", str(SUBSET))
    assert code == 0
    assert [line["ok"] for line in lines] == [True] * 7
    assert lines[0]["finishing_stacks"] == [201.3, 80.6, 197]
    assert lines[1]["status"] == "winner_unknown"
    assert lines[1]["pots"] == [
        {"amount": 3, "contenders": ["p1", "p2", "p3"], "unknown": ["p2", "p3"]}
    ]
    assert lines[2]["notes"] == {"winnings": "the pot less 1.35 (the rake)"}
    assert "status" not in lines[0]
