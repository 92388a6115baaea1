"""The tablet's card picker reads the engine's card ledger only (docs/rules.md, "Every card has one
place"): a card is disabled exactly when the ledger says it may not be named now.

Issue 24: after a premature flop, the picker kept the reshuffled cards greyed out when the flop
was due, while the sheet's step 3 puts them back into the stub (and the engine accepts them).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from dealer.engine.triggers import TRIGGERS, Trigger
from dealer.services import hand_record_action, hand_run_procedure
from tests.dealer.test_pages import hand_of, setup_table, signed_in, start
from tournaments.models import Table

pytestmark = pytest.mark.django_db

PREMATURE = ["Ah", "Kc", "7d"]


def picker_cards(page: str) -> dict[str, bool]:
    """Every card of the picker(s) on a page: its code and whether it is disabled."""
    found = re.findall(r'<input type="checkbox" name="cards" value="(\w\w)"([^>]*)>', page)
    return {code: "disabled" in rest for code, rest in found}


def finish_betting(table: Table) -> None:
    """Everyone calls, the big blind checks: the next street is due."""
    hand = hand_of(table)
    while hand.state["phase"] == "betting":
        legal = hand.state["legal"]
        kind = "check" if legal["can_check"] else "call"
        hand_record_action(
            hand=hand, action={"kind": kind}, client_id=f"t{hand.version}", version=hand.version
        )
        hand = hand_of(table)


def premature_flop(table: Table) -> None:
    hand = hand_of(table)
    hand_run_procedure(
        hand=hand,
        trigger="premature_flop",
        details={"cards": " ".join(PREMATURE)},
        client_id="premature",
        version=hand.version,
    )


@pytest.fixture
def flop_due_after_premature_flop() -> tuple[Table, Client]:
    table, dealer = setup_table(players=4)
    client = signed_in(dealer)
    start(client, table)
    premature_flop(table)
    finish_betting(table)
    assert hand_of(table).state["phase"] == "dealing"
    return table, client


def test_s2_premature_flop_cards_are_offered_by_the_picker_when_the_flop_is_redealt(
    flop_due_after_premature_flop: tuple[Table, Client],
) -> None:
    table, client = flop_due_after_premature_flop
    page = client.get(reverse("deal-table", args=[table.pk])).content.decode()
    cards = picker_cards(page)
    assert len(cards) == 52
    for code in PREMATURE:
        assert cards[code] is False, f"{code} is back in the stub for the flop (S2)"
    assert not any(cards.values())


def test_s2_premature_flop_cards_are_out_of_play_while_the_preflop_betting_goes_on() -> None:
    table, dealer = setup_table(players=4)
    client = signed_in(dealer)
    start(client, table)
    premature_flop(table)
    cards = hand_of(table).state["cards"]
    assert sorted(cards["out_of_play"]) == sorted(PREMATURE)
    assert cards["deck"] == "standard52"
    sheet = client.get(
        reverse("deal-procedures", args=[table.pk]), {"trigger": "boxed_card", "cards": ""}
    )
    shown = picker_cards(sheet.content.decode())
    assert len(shown) == 52
    assert sorted(code for code, off in shown.items() if off) == sorted(PREMATURE)


def test_the_picker_disables_what_the_ledger_says_and_the_engine_takes_what_it_offers(
    flop_due_after_premature_flop: tuple[Table, Client],
) -> None:
    table, _ = flop_due_after_premature_flop
    hand = hand_of(table)
    assert hand.state["cards"]["out_of_play"] == []
    answer = hand_record_action(
        hand=hand,
        action={"kind": "deal_board", "cards": PREMATURE},
        client_id="flop",
        version=hand.version,
    ).answer
    assert answer["board"] == PREMATURE
    assert sorted(answer["cards"]["out_of_play"]) == sorted(PREMATURE)
    assert answer["cards"]["deck"] == "standard52"


def test_texas_sixplus_picker_offers_the_36_card_deck() -> None:
    table, dealer = setup_table(players=4, game="sixplus")
    client = signed_in(dealer)
    start(client, table)
    assert hand_of(table).state["cards"]["deck"] == "sixplus36"
    hand_run_procedure(
        hand=hand_of(table),
        trigger="premature_flop",
        details={"cards": "Ah Kc 7d"},
        client_id="premature",
        version=hand_of(table).version,
    )
    sheet = client.get(reverse("deal-procedures", args=[table.pk]), {"trigger": "boxed_card"})
    cards = picker_cards(sheet.content.decode())
    assert len(cards) == 36
    assert "5s" not in cards
    assert sorted(code for code, off in cards.items() if off) == sorted(PREMATURE)


@pytest.mark.parametrize("trigger", [t for t, info in TRIGGERS.items() if info.cards])
def test_every_procedure_that_names_cards_asks_with_the_picker_never_a_typed_field(
    trigger: Trigger,
) -> None:
    table, dealer = setup_table(players=4)
    client = signed_in(dealer)
    start(client, table)
    page = client.get(reverse("deal-procedures", args=[table.pk]), {"trigger": trigger})
    html = page.content.decode()
    assert len(picker_cards(html)) == 52
    assert f'data-max="{TRIGGERS[trigger].cards}"' in html
    assert not re.search(r'<input[^>]*type="text"[^>]*name="cards"', html)
    assert not re.search(r'<input[^>]*name="cards"[^>]*type="text"', html)
