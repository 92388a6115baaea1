"""Names are searched folded: case, accents and spacing never hide a player."""

from __future__ import annotations

import pytest

from tournaments.names import fold


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("jose", "José"),
        ("JOSE NUNEZ", "José  Núñez"),
        ("francois", "François"),
        ("muller", "Müller"),
        ("ost", "Øst"),
        ("strasse", "Straße"),
        ("zoe", "Zoë"),
        ("lukasz", "Łukasz"),
    ],
)
def test_a_search_without_accents_finds_the_accented_name(typed: str, stored: str) -> None:
    assert fold(typed) == fold(stored)


def test_folding_keeps_letters_that_are_different() -> None:
    assert fold("Jose") != fold("Josie")
    assert fold("Ann") != fold("Anne")


def test_folding_trims_and_joins_spaces() -> None:
    assert fold("  Jean \t Paul  ") == "jean paul"
