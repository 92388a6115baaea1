"""A Texas 6+ tournament follows S0 by default through the services (issue 13; X5, X8).

S0: "that player who receives the card of maximum value first, becomes a dealer." A tournament
on the `tda_tournament` profile that picks `game=sixplus` breaks button-draw ties by deal order,
and keeps the fixed-limit cap heads-up ("a maximum of 4 bets ... during any betting round").
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from dealer.engine.cards import parse_cards
from dealer.engine.draw import button_draw
from tests.factories import TournamentFactory
from tournaments.models import ButtonDraw, Tournament
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_rules
from tournaments.services.tables import tournament_draw_seats

pytestmark = pytest.mark.django_db

NOW = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
# With nine players and this seed the 36-card draw deals two aces: clubs to the second seat
# dealt, hearts to the last (see the assertions): suit and deal order disagree.
TIED_SEED = 2


def sixplus_tournament(**fields: object) -> Tournament:
    tournament = TournamentFactory.create(game="sixplus", structure="fixed_limit", **fields)
    for n in range(9):
        entry_register(tournament=tournament, player_name=f"Player {n:02}", now=NOW)
    return tournament


def test_x5_s0_sixplus_tournament_button_draw_tie_goes_to_the_card_dealt_first() -> None:
    tournament = sixplus_tournament()
    assert tournament.rule_profile == "tda_tournament"
    (table,) = tournament_draw_seats(tournament=tournament, rng=random.Random(TIED_SEED))
    draw = ButtonDraw.objects.get(table=table)
    cards = parse_cards(draw.cards)
    assert min(card.rank for card in cards) >= 6  # the 36-card deck
    top = max(card.rank for card in cards)
    tied = [i for i, card in enumerate(cards) if card.rank == top]
    assert len(tied) == 2
    assert button_draw(cards, "suit") != tied[0]  # the hold'em rule would pick the other ace
    assert draw.tiebreak == "deal_order"
    assert draw.winner_seat == draw.seats[tied[0]]
    table.refresh_from_db()
    assert table.button_seat == draw.seats[tied[0]]


def test_x8_s0_sixplus_tournament_rules_keep_the_cap_heads_up() -> None:
    rules = tournament_rules(sixplus_tournament())
    assert (rules.game, rules.fl_headsup_uncapped, rules.draw_tiebreak) == (
        "sixplus",
        False,
        "deal_order",
    )


def test_x5_a_tournament_override_of_the_draw_tiebreak_still_wins() -> None:
    tournament = sixplus_tournament(rule_overrides={"draw_tiebreak": "suit"})
    (table,) = tournament_draw_seats(tournament=tournament, rng=random.Random(TIED_SEED))
    draw = ButtonDraw.objects.get(table=table)
    assert draw.tiebreak == "suit"
    assert draw.winner_seat == draw.seats[button_draw(parse_cards(draw.cards), "suit")]
