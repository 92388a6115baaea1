"""Prize pool, payout tables, prizes rounded to a unit, the standard table, tied places (RP-8)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.payouts import (
    PayoutError,
    PayoutTable,
    default_payout_table,
    payouts,
    places_paid,
    prize_pool,
    split_places,
)

D = Decimal


def table(*shares: str) -> PayoutTable:
    return PayoutTable(percentages=tuple(D(share) for share in shares))


# --- prize pool --------------------------------------------------------------------------------


def test_pool_counts_entries_rebuys_and_addons() -> None:
    # 120 entries (re-entries included) at 1,000, 30 rebuys at 1,000, 50 add-ons at 500.
    pool = prize_pool(120, 30, 50, D("1000"), D("1000"), D("500"))
    assert pool == D("175000")


def test_fees_stay_out_of_the_pool() -> None:
    # A "1,000 + 100" event: only the 1,000 is passed; the 100 fee per entry never enters.
    assert prize_pool(100, 0, 0, D("1000"), D("0"), D("0")) == D("100000")


def test_guarantee_tops_up_a_short_pool() -> None:
    assert prize_pool(80, 0, 0, D("1000"), D("0"), D("0"), D("100000")) == D("100000")
    assert prize_pool(0, 0, 0, D("1000"), D("0"), D("0"), D("5000")) == D("5000")


def test_guarantee_below_what_was_collected_changes_nothing() -> None:
    assert prize_pool(150, 0, 0, D("1000"), D("0"), D("0"), D("100000")) == D("150000")


def test_pool_keeps_cents() -> None:
    assert prize_pool(3, 1, 1, D("33.33"), D("10.05"), D("5.10")) == D("115.14")


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        ((-1, 0, 0, D("100"), D("0"), D("0")), "negative_count"),
        ((1, -2, 0, D("100"), D("0"), D("0")), "negative_count"),
        ((1, 0, 0, D("-100"), D("0"), D("0")), "negative_amount"),
        ((1, 0, 0, D("100"), D("0"), D("0"), D("-1")), "negative_amount"),
    ],
)
def test_pool_refuses_negative_numbers(arguments: tuple[object, ...], code: str) -> None:
    with pytest.raises(PayoutError) as refused:
        prize_pool(*arguments)  # type: ignore[arg-type]
    assert refused.value.code == code


# --- payout tables -----------------------------------------------------------------------------


def test_percentages_must_add_up_to_exactly_100() -> None:
    with pytest.raises(PayoutError) as refused:
        table("50", "30", "19.5")
    assert refused.value.code == "payout_not_100"
    assert refused.value.detail == "The payout percentages add up to 99.5%, not 100%."
    assert refused.value.as_dict() == {
        "code": "payout_not_100",
        "detail": "The payout percentages add up to 99.5%, not 100%.",
    }
    assert isinstance(refused.value, ValueError)


def test_percentages_above_100_are_refused_too() -> None:
    with pytest.raises(PayoutError, match=r"add up to 100\.01%, not 100%\.") as refused:
        table("50.01", "30", "20")
    assert refused.value.code == "payout_not_100"


@pytest.mark.parametrize(
    ("shares", "code", "detail"),
    [
        ((), "payout_empty", "The payout table pays no places."),
        (
            ("50", "20", "30"),
            "payout_increasing",
            "Place 3 is paid 30%, more than place 2 (20%); a lower place is never paid more.",
        ),
        (
            ("100", "0"),
            "payout_not_positive",
            "Place 2 is paid 0%; every paid place needs a positive share.",
        ),
    ],
)
def test_payout_table_faults(shares: tuple[str, ...], code: str, detail: str) -> None:
    with pytest.raises(PayoutError) as refused:
        table(*shares)
    assert (refused.value.code, refused.value.detail) == (code, detail)


def test_equal_shares_down_the_places_are_allowed() -> None:
    assert table("40", "20", "20", "20").places == 4


# --- prizes rounded to a unit ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pool", "unit", "prizes"),
    [
        ("1000", "1", ("500", "300", "200")),
        ("1001", "1", ("501", "300", "200")),  # the rounding remainder goes to first place
        ("1234", "5", ("619", "370", "245")),  # 617 -> 615, 370.2 -> 370, 246.8 -> 245; +4
        ("99.99", "0.01", ("50.01", "29.99", "19.99")),  # 49.995, 29.997, 19.998 rounded down
        ("1003", "5", ("503", "300", "200")),  # a pool off the unit: first place takes the rest
    ],
)
def test_prizes_are_rounded_down_to_the_unit_and_first_place_takes_the_rest(
    pool: str, unit: str, prizes: tuple[str, ...]
) -> None:
    got = payouts(D(pool), table("50", "30", "20"), D(unit))
    assert got == tuple(D(prize) for prize in prizes)
    assert sum(got) == D(pool)


def test_rounding_to_a_chip_of_5_keeps_every_other_prize_on_the_unit() -> None:
    got = payouts(D("10000"), table("33.34", "33.33", "33.33"), D("5"))
    assert got == (D("3340"), D("3330"), D("3330"))


@settings(max_examples=examples(200), deadline=None)
@given(
    pool_units=st.integers(min_value=0, max_value=10**9),
    unit=st.sampled_from([D("1"), D("5"), D("0.01"), D("25"), D("0.05")]),
    entries=st.integers(min_value=1, max_value=3000),
)
def test_prizes_always_add_up_exactly_to_the_pool(
    pool_units: int, unit: Decimal, entries: int
) -> None:
    pool = pool_units * unit
    got = payouts(pool, default_payout_table(entries), unit)
    assert sum(got) == pool
    assert all(prize % unit == 0 for prize in got)
    assert list(got) == sorted(got, reverse=True)


def test_payouts_refuse_a_bad_unit_or_pool() -> None:
    with pytest.raises(PayoutError) as refused:
        payouts(D("100"), table("100"), D("0"))
    assert refused.value.code == "bad_unit"
    with pytest.raises(PayoutError) as refused:
        payouts(D("-100"), table("100"), D("1"))
    assert refused.value.code == "negative_amount"


# --- the standard table ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "places"),
    [(2, 1), (6, 1), (7, 2), (9, 3), (10, 3), (45, 6), (100, 15), (1000, 150), (10000, 1500)],
)
def test_default_table_pays_a_sensible_number_of_places(entries: int, places: int) -> None:
    assert places_paid(entries) == places
    assert default_payout_table(entries).places == places


@pytest.mark.parametrize("entries", [2, 9, 45, 100, 1000, 10000])
def test_default_table_is_valid_and_top_heavy(entries: int) -> None:
    shares = default_payout_table(entries).percentages  # the constructor checked the sum is 100
    assert sum(shares) == D("100")
    assert list(shares) == sorted(shares, reverse=True)
    assert len(shares) <= max(3, entries * 15 // 100)
    if len(shares) > 1:
        assert shares[0] >= D("1.5") * shares[1]  # first place is paid well above second
        min_cash_in_buy_ins = shares[-1] * entries / 100
        assert min_cash_in_buy_ins >= D("1.5")  # a min-cash pays more than the buy-in back


@pytest.mark.parametrize(
    ("entries", "shares"),
    [
        (7, ("60.00", "40.00")),
        (9, ("47.06", "29.41", "23.53")),
    ],
)
def test_default_table_small_fields(entries: int, shares: tuple[str, ...]) -> None:
    assert default_payout_table(entries).percentages == tuple(D(share) for share in shares)


def test_default_table_uses_two_decimals_unless_the_field_is_big() -> None:
    assert all(share.as_tuple().exponent == -2 for share in default_payout_table(1000).percentages)
    big = default_payout_table(10000).percentages
    assert all(share.as_tuple().exponent == -3 for share in big)
    assert big[-1] == D("0.015")  # a 2-decimal table could not pay 1.5 buy-ins here


def test_default_table_for_a_single_entry_pays_one_place() -> None:
    assert default_payout_table(1).percentages == (D("100.00"),)


def test_default_table_refuses_an_empty_field() -> None:
    with pytest.raises(PayoutError) as refused:
        default_payout_table(0)
    assert refused.value.code == "no_entries"


# --- tied places (RP-8) ------------------------------------------------------------------------

PRIZES = (D("5000"), D("3000"), D("2000"), D("1000"), D("500"))


def test_rp8_players_tied_for_two_places_share_both_prizes_equally() -> None:
    assert split_places(PRIZES, [4, 5], unit=D("1")) == (D("750"), D("750"))


def test_rp8_uneven_split_gives_the_remainder_to_the_first_of_them() -> None:
    shares = split_places(PRIZES, [3, 4, 5], unit=D("5"))  # 3500 / 3 = 1166.67
    assert shares == (D("1170"), D("1165"), D("1165"))
    assert sum(shares) == D("3500")


def test_rp8_tie_across_the_money_bubble_shares_the_last_prize() -> None:
    assert split_places(PRIZES, [5, 6], unit=D("0.01")) == (D("250.00"), D("250.00"))
    assert split_places(PRIZES, [6, 7], unit=D("1")) == (D("0"), D("0"))


def test_rp8_tied_places_are_accepted_in_any_order() -> None:
    assert split_places(PRIZES, [5, 4], unit=D("1")) == (D("750"), D("750"))


@pytest.mark.parametrize(
    ("places", "code"),
    [([], "bad_places"), ([0, 1], "bad_places"), ([2, 4], "places_not_consecutive")],
)
def test_tied_places_must_be_consecutive(places: list[int], code: str) -> None:
    with pytest.raises(PayoutError) as refused:
        split_places(PRIZES, places, unit=D("1"))
    assert refused.value.code == code


@settings(max_examples=examples(200), deadline=None)
@given(
    entries=st.integers(min_value=2, max_value=500),
    first=st.integers(min_value=1, max_value=80),
    tied=st.integers(min_value=2, max_value=9),
    unit=st.sampled_from([D("1"), D("5"), D("0.01")]),
)
def test_rp8_shares_add_up_to_the_prizes_of_the_places_covered(
    entries: int, first: int, tied: int, unit: Decimal
) -> None:
    prizes = payouts(D("123456"), default_payout_table(entries), unit)
    places = list(range(first, first + tied))
    shares = split_places(prizes, places, unit=unit)
    covered = sum((prizes[p - 1] for p in places if p <= len(prizes)), D("0"))
    assert sum(shares) == covered
    assert max(shares) - min(shares) < unit * tied
