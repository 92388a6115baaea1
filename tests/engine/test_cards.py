"""Cards, card text and decks (RULES.md section 1: 52-card deck S4, 36-card 6+ deck S0)."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from dealer.engine.cards import (
    RANKS,
    SUITS,
    Card,
    CardError,
    DeckKind,
    deck,
    format_cards,
    is_in_deck,
    parse_cards,
    parse_cards_unknown,
    shuffled_deck,
    suit_strength,
)


def test_rank_and_suit_alphabets() -> None:
    assert RANKS == "23456789TJQKA"
    assert SUITS == "shdc"


def test_suit_strength_is_spades_hearts_diamonds_clubs() -> None:
    assert [suit_strength(s) for s in "shdc"] == [3, 2, 1, 0]
    assert suit_strength("S") == 3


def test_suit_strength_rejects_non_suit() -> None:
    with pytest.raises(CardError) as info:
        suit_strength("x")
    assert info.value.code == "bad_card"


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("As", 14, "s"),
        ("Td", 10, "d"),
        ("2c", 2, "c"),
        ("9h", 9, "h"),
        ("Kh", 13, "h"),
        ("as", 14, "s"),
        ("AS", 14, "s"),
        ("tD", 10, "d"),
        ("jc", 11, "c"),
        (" Qh ", 12, "h"),
    ],
)
def test_parse_accepts_rank_and_suit_in_any_case(text: str, rank: int, suit: str) -> None:
    assert Card.parse(text) == Card(rank, suit)


@pytest.mark.parametrize("text", ["", "A", "Ax", "1s", "10s", "Xx", "Ass", "??", "A♠", "s A"])
def test_parse_rejects_anything_else_with_bad_card_code(text: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(text)
    assert info.value.code == "bad_card"
    assert isinstance(info.value, ValueError)


def test_bad_card_message_names_the_text_and_the_fix() -> None:
    with pytest.raises(CardError) as info:
        Card.parse("Xx")
    assert str(info.value) == (
        "'Xx' is not a card: use a rank 2-9, T, J, Q, K, A and a suit s, h, d, c "
        "(for example As or Td)."
    )
    assert info.value.text == "Xx"


def test_str_round_trips_every_card() -> None:
    for card in deck(DeckKind.STANDARD):
        assert Card.parse(str(card)) == card
    assert str(Card(14, "s")) == "As"
    assert str(Card(10, "d")) == "Td"


@pytest.mark.parametrize(("rank", "suit"), [(1, "s"), (15, "s"), (14, "x"), (14, "S"), (True, "s")])
def test_constructor_rejects_impossible_cards(rank: int, suit: str) -> None:
    with pytest.raises(CardError):
        Card(rank, suit)


def test_index_is_unique_in_0_to_51() -> None:
    indexes = [card.index for card in deck(DeckKind.STANDARD)]
    assert sorted(indexes) == list(range(52))
    assert Card(2, "s").index == 0
    assert Card(14, "c").index == 51


def test_cards_are_hashable_equal_by_value_and_frozen() -> None:
    assert Card(14, "s") == Card.parse("As")
    assert hash(Card(14, "s")) == hash(Card.parse("As"))
    assert len({Card(14, "s"), Card.parse("as")}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        Card(14, "s").rank = 13  # type: ignore[misc]


def test_repr_and_pickle() -> None:
    card = Card.parse("Td")
    assert repr(card) == "Card(rank=10, suit='d')"
    assert pickle.loads(pickle.dumps(card)) == card


def test_cards_sort_by_rank_then_suit_strength() -> None:
    cards = parse_cards("As 2c Ac Ah 2s Kd")
    assert format_cards(sorted(cards)) == "2c 2s Kd Ac Ah As"
    assert Card.parse("Ac") < Card.parse("As")
    assert Card.parse("As") > Card.parse("Ks")


@pytest.mark.parametrize(
    "text", ["As Td 6c", "AsTd6c", "As,Td,6c", "As, Td, 6c", "as td 6C", "  As\tTd\n6c  "]
)
def test_parse_cards_accepts_spaces_commas_and_phh_concatenation(text: str) -> None:
    assert parse_cards(text) == (Card(14, "s"), Card(10, "d"), Card(6, "c"))


def test_parse_cards_empty_text_is_no_cards() -> None:
    assert parse_cards("") == ()
    assert parse_cards("   ") == ()


def test_parse_and_format_round_trip() -> None:
    text = "As Td 6c 2h"
    assert format_cards(parse_cards(text)) == text
    assert format_cards(parse_cards(text), sep="") == "AsTd6c2h"
    assert parse_cards(format_cards(parse_cards(text), sep="")) == parse_cards(text)


@pytest.mark.parametrize("text", ["As Xd", "AsT", "As Td 6", "As 10d", "As ??"])
def test_parse_cards_rejects_bad_text(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(text)
    assert info.value.code == "bad_card"


def test_parse_cards_odd_run_message_names_the_run() -> None:
    with pytest.raises(CardError, match=r"'AsT' is not a card or a run of cards"):
        parse_cards("AsT")


@pytest.mark.parametrize("text", ["As As", "AsKsAs", "as AS"])
def test_parse_cards_rejects_a_card_given_twice(text: str) -> None:
    with pytest.raises(CardError, match="given twice") as info:
        parse_cards(text)
    assert info.value.code == "bad_card"


def test_unknown_cards_phh_style() -> None:
    assert parse_cards_unknown("????") == (None, None)
    assert parse_cards_unknown("?? As") == (None, Card(14, "s"))
    assert parse_cards_unknown("As??Kd") == (Card(14, "s"), None, Card(13, "d"))
    assert format_cards(parse_cards_unknown("????")) == "?? ??"
    assert format_cards(parse_cards_unknown("????"), sep="") == "????"


def test_unknown_cards_still_reject_duplicates_and_bad_text() -> None:
    with pytest.raises(CardError, match="given twice"):
        parse_cards_unknown("As ?? As")
    with pytest.raises(CardError):
        parse_cards_unknown("?x")
    with pytest.raises(CardError):
        parse_cards_unknown("???")


def test_format_cards_of_nothing() -> None:
    assert format_cards([]) == ""
    assert format_cards(iter([Card(14, "s"), None]), sep=",") == "As,??"


def test_standard_deck_has_52_distinct_cards() -> None:
    cards = deck(DeckKind.STANDARD)
    assert len(cards) == 52
    assert len(set(cards)) == 52
    assert {card.rank for card in cards} == set(range(2, 15))
    assert cards[0] == Card(2, "s")
    assert cards[-1] == Card(14, "c")


def test_sixplus_deck_has_36_cards_six_to_ace_and_no_two_to_five() -> None:
    cards = deck(DeckKind.SIXPLUS)
    assert len(cards) == 36
    assert len(set(cards)) == 36
    assert {card.rank for card in cards} == set(range(6, 15))
    assert not any(card.rank <= 5 for card in cards)


def test_deck_accepts_the_string_value() -> None:
    assert deck(DeckKind("sixplus36")) == deck(DeckKind.SIXPLUS)
    assert DeckKind.STANDARD == "standard52"


def test_is_in_deck() -> None:
    assert is_in_deck(Card.parse("2c"), DeckKind.STANDARD)
    assert not is_in_deck(Card.parse("5h"), DeckKind.SIXPLUS)
    assert is_in_deck(Card.parse("6h"), DeckKind.SIXPLUS)
    assert all(is_in_deck(card, DeckKind.SIXPLUS) for card in deck(DeckKind.SIXPLUS))


def test_shuffled_deck_uses_the_given_rng_and_returns_a_new_list() -> None:
    first = shuffled_deck(DeckKind.STANDARD, random.Random(7))
    second = shuffled_deck(DeckKind.STANDARD, random.Random(7))
    assert first == second
    assert sorted(first) == sorted(deck(DeckKind.STANDARD))
    assert first != list(deck(DeckKind.STANDARD))
    first.pop()
    assert len(deck(DeckKind.STANDARD)) == 52
    short = shuffled_deck(DeckKind.SIXPLUS, random.Random(7))
    assert sorted(short) == sorted(deck(DeckKind.SIXPLUS))
