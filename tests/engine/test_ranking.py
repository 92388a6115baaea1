"""Hand ranking, hand-picked cases for every rule of RULES.md section 1.

S0 = Texas 6+ seed, S1 = No-Limit Hold'em seed, S2/S4 = casino and dealer seeds, R = Robert's
Rules. Hands are 7 cards (2 hole + 5 board) unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from dealer.engine.cards import Card, CardError, DeckKind, format_cards, parse_cards
from dealer.engine.ranking import (
    SIXPLUS_RANKER,
    STANDARD_RANKER,
    Category,
    HandRank,
    Ranker,
    describe_win,
)

FLUSH_OVER_BOAT = Ranker(deck=DeckKind.SIXPLUS, flush_beats_full_house=True)
TRIPS_OVER_STRAIGHT = Ranker(deck=DeckKind.SIXPLUS, trips_beat_straight=True)
BOTH_OPTIONS = Ranker(deck=DeckKind.SIXPLUS, flush_beats_full_house=True, trips_beat_straight=True)


def value(text: str, ranker: Ranker = STANDARD_RANKER) -> int:
    return ranker.value(parse_cards(text))


def best(text: str, ranker: Ranker = STANDARD_RANKER) -> HandRank:
    return ranker.best(parse_cards(text))


def played(text: str, ranker: Ranker = STANDARD_RANKER) -> str:
    return format_cards(best(text, ranker).cards)


# -- category order (S1) ----------------------------------------------------------------------

STANDARD_LADDER = [
    ("Ah Jd 8c 6s 3h 2d 9c", Category.HIGH_CARD),
    ("2h 2d 8c 6s 3h Kd 9c", Category.PAIR),
    ("2h 2d 3c 6s 3h Kd 9c", Category.TWO_PAIR),
    ("2h 2d 2c 6s 3h Kd 9c", Category.THREE_OF_A_KIND),
    ("2h 3d 4c 5s 6h Kd Kc", Category.STRAIGHT),
    ("2h 7h 4h 5h 9h Kd Kc", Category.FLUSH),
    ("2h 2d 2c 5s 5h Kd 9c", Category.FULL_HOUSE),
    ("2h 2d 2c 2s 5h Kd 9c", Category.FOUR_OF_A_KIND),
    ("2h 3h 4h 5h 6h Kd Kc", Category.STRAIGHT_FLUSH),
]


def test_standard_category_order_straight_flush_down_to_high_card() -> None:
    hands = [best(text) for text, _ in STANDARD_LADDER]
    assert [hand.category for hand in hands] == [category for _, category in STANDARD_LADDER]
    values = [hand.value for hand in hands]
    assert values == sorted(values)
    assert len(set(values)) == len(values)


def test_category_enum_numbers_are_the_standard_order() -> None:
    assert [int(c) for c in Category] == list(range(9))
    assert Category.STRAIGHT_FLUSH.label == "Straight flush"


def test_royal_flush_is_the_ace_high_straight_flush() -> None:
    royal = best("As Ks Qs Js Ts 2d 3c")
    assert royal.category is Category.STRAIGHT_FLUSH
    assert royal > best("Ks Qs Js Ts 9s 2d 3c")
    assert royal.description == "Royal flush"


def test_worst_straight_flush_beats_best_quads() -> None:
    assert value("Ah 2h 3h 4h 5h Kd Kc") > value("As Ad Ac Ah Ks 2d 3c")


# -- straights (S1, S0) -----------------------------------------------------------------------


def test_wheel_is_a_straight_five_high_and_the_lowest_straight() -> None:
    wheel = best("As 2d 3h 4c 5s Kd Kh")
    assert wheel.category is Category.STRAIGHT
    assert wheel.description == "Straight, five high"
    assert format_cards(wheel.cards) == "5s 4c 3h 2d As"
    assert wheel < best("2d 3h 4c 5s 6h Kd Kh")
    # Still a straight: it beats any three of a kind.
    assert wheel.value > value("Ac Ad Ah 9c 4s Kd 2h")


def test_six_high_straight_beats_the_wheel_in_the_same_seven_cards() -> None:
    hand = best("As 2d 3h 4c 5s 6d Kh")
    assert hand.description == "Straight, six high"
    assert format_cards(hand.cards) == "6d 5s 4c 3h 2d"


def test_straights_never_wrap_around() -> None:
    hand = best("Qs Kd Ah 2c 3s 8d 9h")
    assert hand.category is Category.HIGH_CARD
    assert best("Js Qs Kd Ah 2c 7d 8h").category is Category.HIGH_CARD


def test_straights_compare_by_top_card_only() -> None:
    assert value("Ts Jd Qh Kc As 2d 3h") > value("9s Td Jh Qc Ks 2d 3h")
    # Broadway is broadway whatever the other cards: A-K-Q-J-T with an extra king ties.
    assert value("Ts Jd Qh Kc As Kd 3h") == value("Ts Jd Qh Kc Ah 2d 4h")
    # A longer run plays its top five.
    assert value("4s 5d 6h 7c 8s 9d Th") == value("6s 7d 8h 9c Ts 2d 2h")


def test_straight_flush_beats_a_higher_plain_straight_in_the_same_cards() -> None:
    hand = best("5h 6h 7h 8h 9h Ts Kd")
    assert hand.category is Category.STRAIGHT_FLUSH
    assert hand.description == "Straight flush, nine high"
    assert played("5h 6h 7h 8h 9h Ts Kd") == "9h 8h 7h 6h 5h"


def test_steel_wheel_is_a_straight_flush_five_high() -> None:
    hand = best("Ah 2h 3h 4h 5h Kh Kd")
    assert hand.category is Category.STRAIGHT_FLUSH
    assert hand.description == "Straight flush, five high"
    assert format_cards(hand.cards) == "5h 4h 3h 2h Ah"


def test_flush_and_straight_in_different_cards_is_only_a_flush() -> None:
    hand = best("2h 4h 6h 8h Th 9c 7d")
    assert hand.category is Category.FLUSH


# -- quads (S1) -------------------------------------------------------------------------------


def test_quads_by_quad_rank_then_kicker() -> None:
    assert value("9s 9h 9d 9c 2c 3d 4h") > value("8s 8h 8d 8c Ac Kd Qh")
    assert value("9s 9h 9d 9c Kc 3d 4h") > value("9s 9h 9d 9c Qc Jd Th")


def test_quads_on_board_decided_by_the_fifth_card() -> None:
    board = "9s 9h 9d 9c 2c"
    king, queen, low_a, low_b = "Kd 3h", "Qd Jh", "3d 4h", "4d 3c"
    assert value(f"{king} {board}") > value(f"{queen} {board}")
    assert value(f"{low_a} {board}") == value(f"{low_b} {board}")
    assert best(f"{king} {board}").cards[-1] == Card.parse("Kd")
    # The board's own fifth card plays when it beats both hands: a split.
    high_board = "9s 9h 9d 9c Ac"
    assert value(f"{king} {high_board}") == value(f"{queen} {high_board}")


# -- full house (S1) --------------------------------------------------------------------------


def test_full_house_by_trips_rank_then_pair_rank() -> None:
    assert value("Ks Kh Kd 2c 2d 5h 9c") > value("Qs Qh Qd As Ad 5h 9c")
    assert value("Ks Kh Kd 3c 3d 5h 9c") > value("Ks Kh Kd 2c 2d 5h 9c")


def test_two_sets_make_the_higher_trips_full_of_the_lower() -> None:
    hand = best("Ks Kh Kd Qc Qd Qh 2c")
    assert hand.description == "Full house, kings full of queens"
    assert format_cards(hand.cards) == "Ks Kh Kd Qh Qd"


def test_full_house_takes_the_best_pair_of_two() -> None:
    assert value("Ks Kh Kd 2c 2d 7h 7c") == value("Ks Kh Kc 7s 7d 4h 5c")


# -- flush and high card (S1) -----------------------------------------------------------------


def test_flush_compares_all_five_cards_from_the_top() -> None:
    assert value("Ah Kh Qh Jh 9h 2c 3d") > value("Ah Kh Qh Jh 8h 2c 3d")
    assert value("Ah Kh Qh Jh 3h 2c 4d") > value("Ah Kh Qh Th 9h 2c 3d")


def test_sixth_and_seventh_flush_cards_do_not_count() -> None:
    assert value("Ah Kh Qh Jh 9h 3h 2h") == value("Ad Kd Qd Jd 9d 8c 7c")


def test_high_card_compares_all_five_cards_and_only_five() -> None:
    assert value("As Kd Qh Jc 9s 2d 3h") > value("As Kd Qh Jc 8s 7d 6h")
    assert value("As Kd Qh Jc 9s 7d 6h") == value("Ac Kh Qd Js 9c 3d 2h")


# -- trips, two pair, pair (S1) ---------------------------------------------------------------


def test_trips_by_rank_then_two_kickers_not_three() -> None:
    assert value("Qs Qh Qd Ac 9d 3h 2c") > value("Qs Qh Qd Kc Jd Th 8c")
    assert value("Qs Qh Qd Ac 9d 3h 2c") > value("Qs Qh Qd Ac 8d 7h 6c")
    assert value("Qs Qh Qd Ac 9d 3h 2c") == value("Qs Qh Qc Ad 9c 4h 2d")


def test_two_pair_by_high_pair_low_pair_then_kicker() -> None:
    assert value("As Ad 5c 5h 9h 3d 2c") > value("Ks Kd Qc Qh Jh 3d 2c")
    assert value("As Ad 6c 6h 2h 3d 4c") > value("As Ad 5c 5h Kh Qd Jc")
    assert value("As Ad 5c 5h Kh 3d 2c") > value("As Ad 5c 5h Qh Jd Tc")


def test_three_pairs_play_the_top_two_and_the_best_other_card() -> None:
    hand = best("As Ad Kc Kh Qh Qd 2c")
    assert hand.description == "Two pair, aces and kings"
    assert format_cards(hand.cards) == "As Ad Kh Kc Qh"
    assert hand.value == value("As Ad Kc Kh Qs 3d 2c")


def test_pair_by_rank_then_three_kickers_not_four() -> None:
    assert value("Js Jd Ac 9h 7h 3d 2c") > value("Js Jd Kc Qh Th 3d 2c")
    assert value("Js Jd Ac 9h 7h 3d 2c") > value("Js Jd Ac 9h 6h 5d 4c")
    assert value("Js Jd Ac 9h 7h 3d 2c") == value("Jh Jc Ad 9s 7s 4d 2d")


# -- ties (R, S2, S4) -------------------------------------------------------------------------


def test_suits_never_break_a_tie() -> None:
    spades = best("As Ks Qd Jd 9c 3h 2h")
    hearts = best("Ah Kh Qc Jc 9d 3s 2s")
    assert spades == hearts
    assert hash(spades) == hash(hearts)
    assert not spades < hearts
    assert not spades > hearts
    assert value("As Ks Qs Js 9s 2d 3h") == value("Ac Kc Qc Jc 9c 2d 3h")


def test_playing_the_board_ties() -> None:
    board = "As Ks Qs Js Ts"
    assert value(f"2c 3d {board}") == value(f"Ah Kh {board}")
    rainbow = "Ac Kd Qh Js 9c"
    assert value(f"2c 3d {rainbow}") == value(f"4h 5h {rainbow}")
    assert format_cards(best(f"2c 3d {rainbow}").cards) == rainbow


def test_next_highest_card_counts_only_inside_the_best_five() -> None:
    # S4's "next highest card in the player's hand", read as only the best five (RULES.md 1):
    # both players play A-K-Q-J-9 from the board; the 8 outside the five does not win.
    board = "Ac Kd Qh Js 9c"
    assert value(f"8s 7d {board}") == value(f"3s 2d {board}")
    # A card that does enter the five does count.
    assert value(f"Ts 2d {board}") > value(f"3s 2d {board}")


# -- Texas 6+ (S0) ----------------------------------------------------------------------------


def test_sixplus_ace_six_seven_eight_nine_is_a_straight_nine_high() -> None:
    hand = best("As 6d 7h 8c 9s Kd Kh", SIXPLUS_RANKER)
    assert hand.category is Category.STRAIGHT
    assert hand.description == "Straight, nine high"
    assert format_cards(hand.cards) == "9s 8c 7h 6d As"


def test_sixplus_ace_low_straight_is_the_lowest_straight() -> None:
    ace_low = value("As 6d 7h 8c 9s Kd Kh", SIXPLUS_RANKER)
    assert ace_low < value("6d 7h 8c 9s Ts Kd Kh", SIXPLUS_RANKER)
    assert ace_low > value("Ac Ad Ah 9c 7s Kd 8h", SIXPLUS_RANKER)


def test_sixplus_ace_low_straight_flush_is_the_lowest_straight_flush() -> None:
    hand = best("Ah 6h 7h 8h 9h Kd Kc", SIXPLUS_RANKER)
    assert hand.description == "Straight flush, nine high"
    assert hand.value < value("6h 7h 8h 9h Th Kd Kc", SIXPLUS_RANKER)
    assert hand.value > value("As Ad Ac Ah Ks Qd Jc", SIXPLUS_RANKER)


def test_ace_six_to_nine_is_no_straight_in_the_52_card_game() -> None:
    assert best("As 6d 7h 8c 9s Kd 2h").category is Category.HIGH_CARD


def test_wheel_is_impossible_in_sixplus() -> None:
    with pytest.raises(CardError, match="not in the 36-card"):
        SIXPLUS_RANKER.value(parse_cards("As 2d 3h 4c 5s Kd Kh"))
    with pytest.raises(CardError, match="'2d' is not in the 36-card"):
        SIXPLUS_RANKER.best(parse_cards("As 2d 3h 4c 5s Kd Kh"))
    with pytest.raises(CardError):
        SIXPLUS_RANKER.value(parse_cards("As Ks Qs Js Ts 2d 3h"))
    with pytest.raises(CardError):
        SIXPLUS_RANKER.value(parse_cards("Ah Kh Qh Jh 5h 9d 3c"))


SIXPLUS = {
    "straight_flush": "6h 7h 8h 9h Th Kd Kc",
    "quads": "As Ad Ac Ah Ks Qd Jc",
    "full_house": "Ks Kh Kd 7c 7d 9h Tc",
    "flush": "Ah Jh 9h 7h 6h Kd Qc",
    "straight": "6d 7h 8c 9s Ts Kd Qh",
    "trips": "Qs Qh Qd Ac 9d 7h 6c",
    "two_pair": "As Ad 9c 9h Kh 7d 6c",
    "pair": "Js Jd Ac 9h 7h Qd 6c",
    "high_card": "Ac Jd 9c 8s 6h Kd Th",
}


def _order(ranker: Ranker) -> list[str]:
    return sorted(SIXPLUS, key=lambda name: value(SIXPLUS[name], ranker), reverse=True)


def test_sixplus_default_order_is_the_standard_order() -> None:
    # S0 changes no category order; both options are off by default (RULES.md 1).
    assert _order(SIXPLUS_RANKER) == list(SIXPLUS)
    assert Ranker(deck=DeckKind.SIXPLUS) == SIXPLUS_RANKER
    assert not SIXPLUS_RANKER.flush_beats_full_house
    assert not SIXPLUS_RANKER.trips_beat_straight


def test_sixplus_flush_beats_full_house_option() -> None:
    assert _order(FLUSH_OVER_BOAT) == [
        "straight_flush",
        "quads",
        "flush",
        "full_house",
        "straight",
        "trips",
        "two_pair",
        "pair",
        "high_card",
    ]


def test_sixplus_trips_beat_straight_option() -> None:
    assert _order(TRIPS_OVER_STRAIGHT) == [
        "straight_flush",
        "quads",
        "full_house",
        "flush",
        "trips",
        "straight",
        "two_pair",
        "pair",
        "high_card",
    ]


def test_sixplus_both_options() -> None:
    assert _order(BOTH_OPTIONS) == [
        "straight_flush",
        "quads",
        "flush",
        "full_house",
        "trips",
        "straight",
        "two_pair",
        "pair",
        "high_card",
    ]


def test_options_change_values_not_category_numbers() -> None:
    hand = best(SIXPLUS["flush"], FLUSH_OVER_BOAT)
    assert hand.category is Category.FLUSH
    assert hand.description == "Flush, ace high"
    assert FLUSH_OVER_BOAT.category_of(hand.value) is Category.FLUSH


def test_seven_cards_with_trips_and_a_straight_play_the_better_per_option() -> None:
    cards = "7s 7h 7d 8c 9s Th Jd"
    default = best(cards, SIXPLUS_RANKER)
    assert default.category is Category.STRAIGHT
    assert default.description == "Straight, jack high"
    option = best(cards, TRIPS_OVER_STRAIGHT)
    assert option.category is Category.THREE_OF_A_KIND
    assert option.description == "Three of a kind, sevens"
    assert format_cards(option.cards) == "7s 7h 7d Jd Th"


def test_sixplus_ties_within_categories_are_unchanged_by_options() -> None:
    for ranker in (SIXPLUS_RANKER, FLUSH_OVER_BOAT, TRIPS_OVER_STRAIGHT, BOTH_OPTIONS):
        assert value("Ks Kh Kd 8c 8d 9h Tc", ranker) > value("Ks Kh Kd 7c 7d 9h Tc", ranker)
        assert value("Ah Kh 9h 7h 6h Qd Jc", ranker) > value("Ah Qh Jh 9h 7h 6d 8c", ranker)
        assert value("Qs Qh Qd Ac 9d 7h 6c", ranker) > value("Qs Qh Qd Kc Jd Th 8c", ranker)
        assert value("7d 8h 9c Ts Js Kd Kh", ranker) > value("6d 7h 8c 9s Ts Kd Kh", ranker)


def test_sixplus_options_require_the_36_card_deck() -> None:
    with pytest.raises(ValueError, match="Texas 6\\+ options"):
        Ranker(flush_beats_full_house=True)
    with pytest.raises(ValueError, match="Texas 6\\+ options"):
        Ranker(deck=DeckKind.STANDARD, trips_beat_straight=True)


def test_ranker_accepts_the_deck_string_and_is_hashable() -> None:
    assert Ranker(deck=DeckKind("sixplus36")) == SIXPLUS_RANKER
    assert len({Ranker(), STANDARD_RANKER, SIXPLUS_RANKER, FLUSH_OVER_BOAT}) == 3


# -- descriptions and cards played ------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "description", "five"),
    [
        ("Ks Qs Js Ts 9s 2d 3c", "Straight flush, king high", "Ks Qs Js Ts 9s"),
        ("As Ks Qs Js Ts 2d 3c", "Royal flush", "As Ks Qs Js Ts"),
        ("9s 9h 9d 9c 2c 3d Kh", "Four of a kind, nines", "9s 9h 9d 9c Kh"),
        ("Ks Kh Kd 7c 7d 2h 3s", "Full house, kings full of sevens", "Ks Kh Kd 7d 7c"),
        ("Ah Qh Th 7h 2h 3c 4d", "Flush, ace high", "Ah Qh Th 7h 2h"),
        ("As 2d 3h 4c 5s 9d Kh", "Straight, five high", "5s 4c 3h 2d As"),
        ("Qs Qh Qd Ac 9d 3h 2c", "Three of a kind, queens", "Qs Qh Qd Ac 9d"),
        ("As Ad 5c 5h 9h 3d 2c", "Two pair, aces and fives", "As Ad 5h 5c 9h"),
        ("Js Jd 2c 3d 7h Ac 9s", "Pair of jacks", "Js Jd Ac 9s 7h"),
        ("Ad 9c 7h 5s 3c 2d Ts", "High card, ace", "Ad Ts 9c 7h 5s"),
        ("6s 6h 8d 8c Tc", "Two pair, eights and sixes", "8d 8c 6s 6h Tc"),
        ("Ts Th Td 6c 6d 2s", "Full house, tens full of sixes", "Ts Th Td 6d 6c"),
    ],
)
def test_description_and_cards_in_reading_order(cards: str, description: str, five: str) -> None:
    hand = best(cards)
    assert hand.description == description
    assert str(hand) == description
    assert format_cards(hand.cards) == five


def test_describe_win_names_kickers_only_when_they_decide() -> None:
    board = "Js Jd 9c 7h 2c"
    ace = best(f"Ac 3d {board}")
    king = best(f"Kc 3d {board}")
    assert describe_win(ace, king) == "Pair of jacks, ace kicker"
    # Different main ranks or categories: the plain description.
    assert describe_win(best("As Ad 9c 7h 2c Kd 3h"), king) == "Pair of aces"
    assert describe_win(best("As Ad 9c 9h 2c Kd 3h"), king) == "Two pair, aces and nines"
    # A tie or a loss names no kicker.
    assert describe_win(ace, best(f"Ah 4d {board}")) == "Pair of jacks"
    assert describe_win(king, ace) == "Pair of jacks"


def test_describe_win_lists_kickers_down_to_the_deciding_one() -> None:
    board = "Js Jd Ac 7h 2c"
    assert (
        describe_win(best(f"Qc 3d {board}"), best(f"Tc 3h {board}"))
        == "Pair of jacks, ace-queen kickers"
    )
    assert (
        describe_win(best("Ah Kh Qh 7h 3h 2c 4d"), best("Ad Kd Jd 9d 8d 2c 4d"))
        == "Flush, ace-king-queen high"
    )
    assert (
        describe_win(best("As Kd 9h 7c 3s 2d 4h"), best("Ac Kh 8h 7d 3c 2h 4d"))
        == "High card, ace-king-nine"
    )
    assert (
        describe_win(best("9s 9h 9d 9c Kc 3d 4h"), best("9s 9h 9d 9c Qc Jd Th"))
        == "Four of a kind, nines, king kicker"
    )
    assert (
        describe_win(best("As Ad 5c 5h Kh 3d 2c"), best("Ac Ah 5d 5s Qh Jd Tc"))
        == "Two pair, aces and fives, king kicker"
    )
    assert (
        describe_win(best("Qs Qh Qd Ac 9d 3h 2c"), best("Qs Qh Qd Ac 8d 3h 2c"))
        == "Three of a kind, queens, ace-nine kickers"
    )


# -- input sizes and validation ---------------------------------------------------------------


def test_five_six_and_seven_cards() -> None:
    assert value("As Ks Qs Js Ts") == value("As Ks Qs Js Ts 2c") == value("As Ks Qs Js Ts 2c 3d")
    assert best("2c 2d 5h 7s 9c").category is Category.PAIR
    assert best("2c 2d 5h 7s 9c Kd").description == "Pair of twos"


def test_value_equals_best_value() -> None:
    for text, _ in STANDARD_LADDER:
        assert value(text) == best(text).value


@pytest.mark.parametrize("text", ["", "As Ks Qs Js", "As Ks Qs Js Ts 9s 8s 7s"])
def test_wrong_number_of_cards_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="5 to 7 cards"):
        STANDARD_RANKER.best(parse_cards(text))
    with pytest.raises(ValueError, match="5 to 7 cards"):
        STANDARD_RANKER.value(parse_cards(text))


def test_best_rejects_duplicates_and_non_cards() -> None:
    ace = Card.parse("As")
    with pytest.raises(CardError, match="'As' is given twice"):
        STANDARD_RANKER.best([ace, ace, *parse_cards("2c 3d 4h 5s")])
    with pytest.raises(CardError, match="is not a card"):
        STANDARD_RANKER.best(["As", "Kd", "Qh", "Jc", "9s"])  # type: ignore[list-item]


def test_hand_rank_compares_by_value_only() -> None:
    low, high = best("2c 2d 5h 7s 9c"), best("3c 3d 5h 7s 9c")
    assert low < high
    assert low <= high
    assert high > low
    assert high >= low
    assert low != high
    assert low != low.value
    assert max([low, high]) is high
    assert len({best("2c 2d 5h 7s 9c"), best("2h 2s 5d 7c 9h")}) == 1


def test_sixplus_ace_low_straight_hides_in_ordinary_looking_cards() -> None:
    # A-9-8-7-6 is "ace high" with 52 cards but a straight in Texas 6+ (S0).
    assert best("Js Jd Ac 9h 7h 8d 6c").category is Category.PAIR
    assert best("Js Jd Ac 9h 7h 8d 6c", SIXPLUS_RANKER).description == "Straight, nine high"
