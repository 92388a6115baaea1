"""The rules editor on the desk and the rules in words on the tablet (issue 13: "Most rule options
can be set per tournament only through the API and per cash table only in the Django admin; the
tablet shows rule codes ('S2_casino', 'action_threshold=tda_substantial') instead of words")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from dealer.services import hand_start
from tests.dealer.test_cash_services import cash_table, seated
from tests.factories import DealerFactory, make
from tests.pages import NAMES, tournament
from tests.pages.test_tournaments import creation
from tournaments.models import AuditEvent, Table, Tournament
from tournaments.selectors.rules import Target, rules_view

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
ROW = re.compile(r'<div class="rule-row[ "]')


@pytest.fixture
def director(client: Client) -> Client:
    from tests.pages import staff_client

    return staff_client(client)


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def form_data(target: Target, **changes: Any) -> dict[str, Any]:
    """The editor's form as the page draws it for `target`, with `changes` (None: left out,
    as an unticked box is)."""
    view = rules_view(target)
    data: dict[str, Any] = {"profile": view.profile, "shown_profile": view.profile}
    for option in view.options:
        if not option.editable:
            continue
        value = option.value
        if option.kind == "yes_no":
            if value:
                data[option.key] = "on"
        else:
            data[option.key] = str(value)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def row(page: str, key: str) -> str:
    """The HTML of one option's row (up to the next row)."""
    starts = [m.start() for m in ROW.finditer(page)]
    found = page.index(f'id="rule-{key}"')
    start = max(at for at in starts if at < found)
    following = [at for at in starts if at > found]
    return page[start : following[0] if following else None]


# --- a tournament's rules -------------------------------------------------------------------


def test_the_rules_page_lists_every_option_with_its_sentence_value_and_default(
    director: Client,
) -> None:
    event = tournament()
    page = text(director.get(reverse("tournament-rules", args=[event.pk])))

    assert "Game and deck" in page
    assert "Dealer errors" in page
    for option in rules_view(event).options:
        assert f'id="rule-{option.key}"' in page, option.key
    button = row(page, "button_mode")
    assert "How the button and the blinds move from one hand to the next." in button
    assert "Profile's default: <strong>Dead button</strong>" in button
    assert '<option value="dead" selected>Dead button</option>' in button
    assert "Does not apply here. Pot limit only." in row(page, "pl_min_bet")
    assert reverse("tournament-rules", args=[event.pk]) in text(
        director.get(reverse("tournament-dashboard", args=[event.pk]))
    )


def test_saving_stores_only_the_change_and_highlights_it(director: Client) -> None:
    event = tournament()
    url = reverse("tournament-rules", args=[event.pk])

    response = director.post(url, form_data(event, odd_chip="high_card_by_suit"))

    assert response.status_code == 302
    assert response["Location"] == url
    event.refresh_from_db()
    assert event.rule_overrides == {"odd_chip": "high_card_by_suit"}
    assert AuditEvent.objects.get(action="rules_set").detail["changed"] == [
        "odd_chip=high_card_by_suit"
    ]
    page = text(director.get(url))
    assert "data-differs" in row(page, "odd_chip")
    assert "Back to the default" in row(page, "odd_chip")
    assert "data-differs" not in row(page, "button_mode")


def test_a_bad_value_is_shown_next_to_its_option_and_on_top(director: Client) -> None:
    event = tournament()
    url = reverse("tournament-rules", args=[event.pk])

    response = director.post(url, form_data(event, fl_cap_bets="0"))

    page = text(response)
    assert response.status_code == 200
    assert "Not saved: correct the options marked below." in page
    assert "rule-row--error" in row(page, "fl_cap_bets")
    assert "greater than or equal to 1" in row(page, "fl_cap_bets")
    event.refresh_from_db()
    assert event.rule_overrides == {}


def test_back_to_the_default_shows_the_profiles_value_without_saving(director: Client) -> None:
    event = tournament(rule_overrides={"redeal_cut": False})
    url = reverse("tournament-rules", args=[event.pk])

    response = director.post(url, {**form_data(event), "reset": "redeal_cut"}, headers=HTMX)

    page = text(response)
    assert "data-unsaved" in page
    assert 'name="redeal_cut" id="id_redeal_cut" checked' in row(page, "redeal_cut")
    assert "data-differs" not in row(page, "redeal_cut")
    event.refresh_from_db()
    assert event.rule_overrides == {"redeal_cut": False}


def test_a_started_tournament_shows_its_rules_locked_and_refuses_a_change(
    director: Client,
) -> None:
    """A running tournament keeps its rules (409 `tournament_started` on the API)."""
    event = tournament(players=NAMES[:4], start=True)
    url = reverse("tournament-rules", args=[event.pk])

    page = text(director.get(url))
    assert "data-rules-locked" in page
    assert "data-save-rules" not in page
    assert 'name="odd_chip" disabled' in row(page, "odd_chip")

    refused = text(director.post(url, form_data(event, odd_chip="high_card_by_suit")))
    assert "cannot change once the tournament has started" in refused
    event.refresh_from_db()
    assert event.rule_overrides == {}


def test_dealers_may_not_open_the_rules_pages() -> None:
    event = tournament()
    table = cash_table()
    client = Client()
    client.force_login(make(DealerFactory))
    assert client.get(reverse("tournament-rules", args=[event.pk])).status_code == 403
    assert client.get(reverse("cash-table-rules", args=[table.pk])).status_code == 403
    assert client.post(reverse("cash-table-rules", args=[table.pk]), {}).status_code == 403


# --- a cash table's rules -------------------------------------------------------------------


def test_a_cash_table_gets_the_flush_over_full_house_choice_through_its_rules_page(
    director: Client,
) -> None:
    """The issue: a 6+ cash table reached the option through neither the desk nor the API."""
    table = cash_table(game="sixplus", rule_profile="texas_6plus")
    url = reverse("cash-table-rules", args=[table.pk])

    response = director.post(url, form_data(table, sixplus_flush_beats_full_house="on"))

    assert response.status_code == 302
    table.refresh_from_db()
    assert table.rule_overrides == {"sixplus_flush_beats_full_house": True}
    page = text(director.get(reverse("cash-table", args=[table.pk])))
    assert url in page


def test_picking_another_profile_shows_its_defaults_and_keeps_the_changes(
    director: Client,
) -> None:
    table = cash_table(game="sixplus", rule_profile="casino_cash")
    url = reverse("cash-table-rules", args=[table.pk])
    data = form_data(table, odd_chip="high_card_by_suit", profile="texas_6plus")

    page = text(director.post(url, {**data, "preview": "1"}, headers=HTMX))

    assert '<option value="big" selected>' in row(page, "heads_up_button_posts")
    assert '<option value="high_card_by_suit" selected>' in row(page, "odd_chip")
    assert "data-unsaved" in page
    table.refresh_from_db()
    assert table.rule_profile == "casino_cash"

    # Saved without the preview (no JavaScript): the same rules.
    assert director.post(url, data).status_code == 302
    table.refresh_from_db()
    assert table.rule_profile == "texas_6plus"
    assert table.rule_overrides == {"odd_chip": "high_card_by_suit"}


def test_a_cash_tables_rake_is_set_to_two_and_a_half_percent_on_its_rules_page(
    director: Client,
) -> None:
    """Issue 25: "Rake as a decimal percentage (2.5%)": the page takes 2.5, stores the number
    and says it in words; three decimal places are refused on the field, nothing is saved."""
    table = cash_table()
    url = reverse("cash-table-rules", args=[table.pk])

    assert 'step="0.01"' in row(text(director.get(url)), "rake_percent")
    refused = text(director.post(url, form_data(table, rake_percent="2.555")))
    assert "no more than 2 decimal places" in row(refused, "rake_percent")
    table.refresh_from_db()
    assert table.rule_overrides == {}

    response = director.post(url, form_data(table, rake_percent="2.5", promo_drop="1"))

    assert response.status_code == 302
    table.refresh_from_db()
    assert table.rule_overrides == {"rake_percent": 2.5, "promo_drop": 1}
    page = text(director.get(url))
    assert "The house takes 2.5% of each pot" in row(page, "rake_percent")
    listing = text(director.get(reverse("cash-tables")))
    assert "Rake percentage: 2.5%" in listing
    assert "rake_percent" not in re.sub(r"<[^>]*>", " ", listing)  # a code only in a tooltip


def test_opening_a_cash_table_labels_the_house_rules_in_words(director: Client) -> None:
    """Issue 25: "Option names in words everywhere": the form that opens a table labelled its
    house rules by their keys ("Missed sb fallback")."""
    page = re.sub(r"<[^>]*>", " ", text(director.get(reverse("cash-tables"))))
    for title in ("Missed blinds", "Missed small blind only", "Heads-up blinds", "First button"):
        assert title in page
    assert "Missed sb fallback" not in page
    assert "Heads up button posts" not in page


def test_the_seats_page_says_the_rules_in_words_not_codes(director: Client) -> None:
    table = cash_table(rule_overrides={"button_mode": "dead"})
    page = text(director.get(reverse("cash-table", args=[table.pk])))
    summary = page[
        page.index("data-rules-summary") : page.index("</p>", page.index("data-rules-summary"))
    ]

    assert "Casino cash (S2) with 1 house rule" in summary
    assert "Post them at once (S2)" in summary
    assert "Dead button" in summary
    assert "S2_casino" not in summary
    listing = text(director.get(reverse("cash-tables")))
    assert "Button movement: Dead button" in listing


# --- the 6+ choices where a game is made ----------------------------------------------------


def test_a_6plus_tournament_is_created_with_flush_over_full_house(director: Client) -> None:
    response = director.post(
        reverse("tournament-list"),
        creation(game="sixplus", sixplus_flush_beats_full_house="on"),
    )
    assert response.status_code == 302
    event = Tournament.objects.get()
    assert event.rule_overrides == {"sixplus_flush_beats_full_house": True}


def test_a_holdem_tournament_refuses_the_6plus_ranking_in_the_engines_words(
    director: Client,
) -> None:
    response = director.post(reverse("tournament-list"), creation(sixplus_trips_beat_straight="on"))
    assert response.status_code == 200
    assert "apply only to Texas 6+ (game=sixplus)" in text(response)
    assert not Tournament.objects.exists()


CASH = {
    "number": 6,
    "rule_profile": "texas_6plus",
    "game": "sixplus",
    "structure": "no_limit",
    "small_blind": 1,
    "big_blind": 2,
    "min_buy_in": 40,
    "max_buy_in": 200,
    "seat_count": 9,
}


def test_a_6plus_cash_table_opens_with_the_6plus_ranking_choices(director: Client) -> None:
    data = {**CASH, "sixplus_flush_beats_full_house": "on", "sixplus_trips_beat_straight": "on"}
    assert director.post(reverse("cash-tables"), data).status_code == 302
    table = Table.objects.get(number=6, tournament=None)
    assert table.rule_overrides == {
        "sixplus_flush_beats_full_house": True,
        "sixplus_trips_beat_straight": True,
    }
    holdem = {**CASH, "number": 7, "rule_profile": "casino_cash", "game": "holdem"}
    refused = director.post(reverse("cash-tables"), {**holdem, "sixplus_trips_beat_straight": "on"})
    assert "apply only to Texas 6+" in text(refused)
    assert not Table.objects.filter(number=7).exists()


# --- the tablet -----------------------------------------------------------------------------


def test_the_tablet_has_a_rules_sheet_in_words(director: Client) -> None:
    """The dealer reads the hand's rules in words: no code like S2_casino."""
    table = seated("1 2 3", button=1, rule_overrides={"odd_chip": "high_card_by_suit"})
    hand_start(table=table)
    tablet = text(director.get(reverse("deal-table", args=[table.pk])))
    assert reverse("deal-rules", args=[table.pk]) in tablet

    sheet = text(director.get(reverse("deal-rules", args=[table.pk]), headers=HTMX))
    assert "Hand 1 is dealt by these rules" in sheet
    assert "Post them at once (S2)." in sheet
    assert "S2_casino" not in sheet
    assert "Highest card by suit." in sheet
    assert "House rule" in sheet
    assert 'data-rule="fl_cap_bets"' not in sheet  # a fixed-limit option, in no limit


def test_a_dealer_reads_the_rules_sheet_of_a_tournament_table() -> None:
    event = tournament(players=NAMES[:4], start=True)
    table = Table.objects.get(tournament=event, number=1)
    client = Client()
    client.force_login(make(DealerFactory))
    sheet = text(client.get(reverse("deal-rules", args=[table.pk])))
    assert "The next hand is dealt by these rules" in sheet
    assert "TDA tournament" in sheet
    assert "Substantial action (TDA)." in sheet


def test_the_tablet_poll_sees_a_change_of_a_cash_tables_rules(director: Client) -> None:
    """The next hand's plan follows the rules (a straddle offered or not): a tablet showing it
    must not keep a 304 once they change."""
    table = seated("1 2 3 4", button=1)
    url = reverse("deal-state", args=[table.pk])
    etag = director.get(url, headers=HTMX)["ETag"]
    assert director.get(url, headers={**HTMX, "If-None-Match": etag}).status_code == 304

    rules = reverse("cash-table-rules", args=[table.pk])
    assert director.post(rules, form_data(table, straddle_allowed=None)).status_code == 302

    assert director.get(url, headers={**HTMX, "If-None-Match": etag}).status_code == 200
