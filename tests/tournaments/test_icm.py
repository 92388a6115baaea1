"""ICM deals (Malmuth-Harville) checked against an independent brute force over every finishing
order in exact fractions, and the chip-chop deal."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction
from itertools import permutations
from typing import Any

import pytest

from tournaments import payouts
from tournaments.icm import IcmError, chip_chop, finish_probabilities, icm_equities

D = Decimal


def prizes_of(*amounts: str) -> tuple[Decimal, ...]:
    return tuple(D(amount) for amount in amounts)


def brute_force(stacks: list[int], prizes: tuple[Decimal, ...]) -> list[Fraction]:
    """Every finishing order, each with its Malmuth-Harville chance, in exact fractions."""
    equity = [Fraction(0)] * len(stacks)
    for order in permutations(range(len(stacks))):
        chance, left = Fraction(1), sum(stacks)
        for player in order:
            chance *= Fraction(stacks[player], left)
            left -= stacks[player]
        for place, player in enumerate(order[: len(prizes)]):
            equity[player] += chance * Fraction(prizes[place])
    return equity


def close(got: tuple[Decimal, ...], exact: list[Fraction], unit: str = "0.01") -> bool:
    """Each rounded amount is within one unit of the exact equity."""
    return all(abs(Fraction(g) - e) < Fraction(D(unit)) for g, e in zip(got, exact, strict=True))


def test_two_equal_stacks_split_the_prizes_evenly() -> None:
    assert icm_equities([5000, 5000], prizes_of("700", "300")) == (D("500.00"), D("500.00"))


def test_two_players_get_the_second_prize_plus_their_chip_share_of_the_difference() -> None:
    # Heads-up, Malmuth-Harville is the chip chop: 300 + 400 * 3/4 and 300 + 400 * 1/4.
    assert icm_equities([7500, 2500], prizes_of("700", "300")) == (D("600.00"), D("400.00"))


def test_symmetric_players_get_the_same_equity() -> None:
    got = icm_equities([3000, 1000, 3000, 1000], prizes_of("50", "30", "20"))
    assert got[0] == got[2]
    assert got[1] == got[3]


def test_textbook_example_5000_3000_2000_for_50_30_20() -> None:
    stacks, prizes = [5000, 3000, 2000], prizes_of("50", "30", "20")
    got = icm_equities(stacks, prizes)
    # Exact: 38.392857..., 32.75, 28.857142...
    assert brute_force(stacks, prizes) == [Fraction(1075, 28), Fraction(131, 4), Fraction(202, 7)]
    assert got == (D("38.39"), D("32.75"), D("28.86"))
    assert sum(got) == D("100")


@pytest.mark.parametrize("seed", range(12))
def test_equities_match_brute_force_over_every_finishing_order(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.randint(2, 7)
    stacks = [rng.randint(1, 200) * 500 for _ in range(players)]
    amounts = sorted((rng.randint(1, 100000) for _ in range(rng.randint(1, players))), reverse=True)
    prizes = tuple(D(amount) / 100 for amount in amounts)
    got = icm_equities(stacks, prizes)
    assert close(got, brute_force(stacks, prizes))
    assert sum(got) == sum(prizes)


def test_finish_probabilities_match_brute_force() -> None:
    stacks = [4200, 1300, 800, 2700, 50]
    chances = finish_probabilities(stacks)
    for place in range(len(stacks)):
        one_hot = tuple(D(1) if p == place else D(0) for p in range(len(stacks)))
        exact = brute_force(stacks, one_hot)
        for player, row in enumerate(chances):
            assert abs(Fraction(row[place]) - exact[player]) < Fraction(1, 10**40)
    assert all(
        abs(sum(map(Fraction, row), Fraction(0)) - 1) < Fraction(1, 10**40) for row in chances
    )


def test_prizes_beyond_the_players_left_are_ignored() -> None:
    stacks = [5000, 3000, 2000]
    more = icm_equities(stacks, prizes_of("50", "30", "20", "10", "5"))
    assert more == icm_equities(stacks, prizes_of("50", "30", "20"))
    assert sum(more) == D("100")


def test_places_without_a_prize_are_worth_nothing() -> None:
    stacks, prizes = [4000, 3000, 2000, 1000], prizes_of("600", "400")
    got = icm_equities(stacks, prizes)
    assert close(got, brute_force(stacks, prizes))
    assert sum(got) == D("1000")


def test_rounding_drift_goes_to_the_largest_rounded_off_parts() -> None:
    # Three equal stacks for 100: 33.333... each; the left-over cent goes to the first player.
    assert icm_equities([10, 10, 10], prizes_of("100")) == (D("33.34"), D("33.33"), D("33.33"))
    # On an equal rounded-off part the bigger stack comes first: 0.015 and 0.025 here.
    assert chip_chop([1, 3], prizes_of("0.03", "0.01")) == (D("0.01"), D("0.03"))


def test_whole_currency_unit_rounding() -> None:
    got = icm_equities([5000, 3000, 2000], prizes_of("5000", "3000", "2000"), unit=D("1"))
    assert got == (D("3839"), D("3275"), D("2886"))


def test_ten_players_share_the_whole_pool_by_their_stacks() -> None:
    """Ten players, the largest final-table deal (its time is `make bench`'s, not this test's)."""
    rng = random.Random(10)
    stacks = [rng.randint(10**7, 4 * 10**8) for _ in range(10)]
    prizes = prizes_of(
        "10000000", "6000000", "4000000", "3000000", "2300000",
        "1700000", "1300000", "1000000", "800000", "600000",
    )  # fmt: skip
    got = icm_equities(stacks, prizes)
    assert sum(got) == sum(prizes)
    by_stack = sorted(range(10), key=lambda i: stacks[i])
    assert [got[i] for i in by_stack] == sorted(got)  # more chips, more equity
    assert max(got) < prizes[0]


def test_eleven_players_are_refused() -> None:
    with pytest.raises(IcmError) as refused:
        icm_equities([1000] * 11, prizes_of("100"))
    assert refused.value.code == "too_many_players"
    assert refused.value.detail == "Deals are calculated for at most 10 players; 11 are left."
    assert isinstance(refused.value, ValueError)


@pytest.mark.parametrize(
    ("stacks", "prizes", "code"),
    [
        ([], prizes_of("100"), "no_players"),
        ([1000, 0], prizes_of("100"), "bad_stack"),
        ([1000, 500], prizes_of("30", "70"), "prizes_increasing"),
        ([1000, 500], prizes_of("70", "-1"), "negative_prize"),
    ],
)
def test_deals_refuse_bad_input(stacks: list[int], prizes: tuple[Decimal, ...], code: str) -> None:
    for deal in (icm_equities, chip_chop):
        with pytest.raises(IcmError) as refused:
            deal(stacks, prizes)
        assert refused.value.code == code


# --- chip chop ---------------------------------------------------------------------------------


def test_chip_chop_pays_the_last_prize_plus_a_chip_share_of_the_rest() -> None:
    # Everyone gets 20; the other 40 is shared 50/30/20 by chips.
    got = chip_chop([5000, 3000, 2000], prizes_of("50", "30", "20"))
    assert got == (D("40.00"), D("32.00"), D("28.00"))


def test_chip_chop_can_offer_a_big_chip_leader_more_than_first_prize_icm_never_does() -> None:
    stacks, prizes = [9000, 500, 500], prizes_of("50", "30", "20")
    assert chip_chop(stacks, prizes)[0] == D("56.00")
    assert icm_equities(stacks, prizes)[0] < D("50")


def test_chip_chop_with_fewer_prizes_than_players() -> None:
    # Four players, two prizes: the last prize in play is 0, so it is all by chips.
    got = chip_chop([4000, 3000, 2000, 1000], prizes_of("600", "400"))
    assert got == (D("400.00"), D("300.00"), D("200.00"), D("100.00"))


# --- a pool that is not a whole number of units (issue 26) -------------------------------------


def test_prizes_not_in_units_are_dealt_the_part_below_a_unit_to_the_biggest_stack() -> None:
    """They used to be refused (`prizes_not_in_units`): the part below a unit goes to the
    biggest stack (the deal's first place), as the payouts give it to first place."""
    for deal in (icm_equities, chip_chop):
        got = deal([500, 1000], prizes_of("70.005", "30"))
        assert sum(got) == D("100.005")
        assert got[1] % D("0.01") == D("0.005")  # the bigger stack
        assert got[0] % D("0.01") == 0


@pytest.mark.parametrize("deal", [icm_equities, chip_chop])
def test_9_x_55_with_unit_10_deals_every_chip_of_the_pool(deal: Any) -> None:
    """9 entries of 55 (495) paid in units of 10: 245 (with the pool's odd 5), 140, 110; the
    three left share 495; every amount is in tens except the biggest stack's, which carries the
    5 below a unit, and nothing is lost."""
    prizes = payouts.payouts(D(9 * 55), payouts.default_payout_table(9), D("10"))
    assert sum(prizes) == D("495")
    stacks = [30000, 90000, 60000]

    got = deal(stacks, prizes, unit=D("10"))

    assert sum(got) == D("495")
    assert got[1] % 10 == 5
    assert got[0] % 10 == got[2] % 10 == 0
    assert got[1] > got[2] > got[0]


@pytest.mark.parametrize("deal", [icm_equities, chip_chop])
def test_equal_top_stacks_the_part_below_a_unit_goes_to_the_first_listed(deal: Any) -> None:
    got = deal([700, 700, 100], prizes_of("55.5", "30", "14.5"), unit=D("1"))
    assert sum(got) == D("100")
    got = deal([700, 700, 100], prizes_of("55.5", "30", "14"), unit=D("1"))
    assert sum(got) == D("99.5")
    assert (got[0] % 1, got[1] % 1, got[2] % 1) == (D("0.5"), 0, 0)
