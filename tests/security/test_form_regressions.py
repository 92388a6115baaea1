"""The hostile inputs that answered 500 on the pages (issue 12), each refused with a sentence now.

Found by the form fuzz (`test_form_fuzz.py`): a non-ASCII digit ("²" passes `str.isdigit()`, then
`int()` fails on it), a number of 5,000 digits (past `int()`'s limit), 10^30 (past every column),
a NUL byte (PostgreSQL stores and compares no NUL), `next=-1` (taken by `redirect()` for a URL's
name) and a formset's count of rows that is not a number.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from dealer.engine.triggers import Trigger
from dealer.models import Hand, HandEvent
from dealer.services import hand_start
from tests.factories import DirectorFactory, assign_dealer, make, seated_tournament
from tournaments.models import BlindSchedule, Entry, Table, Tournament

NUL = "Ann\x00Lee"
FIVE_THOUSAND_DIGITS = "9" * 5000


@pytest.fixture
def event(db: Any) -> Tournament:
    return seated_tournament(players=6)


@pytest.fixture
def table(event: Tournament) -> Table:
    return Table.objects.filter(tournament=event).order_by("number").first()  # type: ignore[return-value]


@pytest.fixture
def desk(db: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(make(DirectorFactory))
    return client


@pytest.fixture
def tablet(table: Table) -> Client:
    """The table's dealer, a hand in progress."""
    client = Client(raise_request_exception=False)
    client.force_login(assign_dealer(table))
    hand_start(table=table)
    return client


def _text(response: Any) -> str:
    return str(response.content.decode())


# --- a non-ASCII digit ---------------------------------------------------------------------------


@pytest.mark.parametrize("entry", ["²", FIVE_THOUSAND_DIGITS])
def test_a_seat_card_for_a_number_int_cannot_read_is_refused(
    desk: Client, event: Tournament, entry: str
) -> None:
    response = desk.get(reverse("seat-cards", args=[event.pk]), {"entry": entry})

    assert response.status_code == 400
    assert "Pick a player from the entries list." in _text(response)


@pytest.mark.parametrize("stack", ["²", FIVE_THOUSAND_DIGITS, str(10**30)])
def test_a_bust_with_a_stack_that_is_not_a_count_of_chips_is_refused(
    desk: Client, event: Tournament, stack: str
) -> None:
    entry = Entry.objects.filter(tournament=event, status=Entry.Status.ACTIVE).first()
    assert entry is not None

    response = desk.post(
        reverse("bust-list", args=[event.pk]),
        {"entry": [str(entry.pk)], "stack": [stack], "form_token": "a" * 32},
    )

    assert response.status_code == 200
    assert "Row 1: enter the chips the player started the hand with" in _text(response)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE


@pytest.mark.parametrize(
    ("query", "sentence"),
    [({"table": "²"}, "Pick a table from the list."), ({"dealer": "²"}, "Pick a dealer")],
)
def test_the_procedure_log_refuses_a_filter_that_is_not_a_number(
    desk: Client, event: Tournament, query: dict[str, str], sentence: str
) -> None:
    response = desk.get(reverse("procedure-log", args=[event.pk]), query)

    assert response.status_code == 400
    assert sentence in _text(response)


def test_the_procedure_sheet_refuses_a_seat_that_is_not_a_number(
    tablet: Client, table: Table
) -> None:
    url = reverse("deal-procedures", args=[table.pk])

    response = tablet.get(url, {"trigger": Trigger.BOXED_CARD.value, "seat": "²"})

    assert response.status_code == 400
    assert "Pick the player from the list." in _text(response)
    assert "proc__confirm" not in _text(response)  # nothing to confirm without a player


# --- 5,000 digits and 10^30 ----------------------------------------------------------------------


def _tap(client: Client, table: Table, **fields: Any) -> Any:
    hand = Hand.objects.get(table=table, status=Hand.Status.IN_PROGRESS)
    data = {"client_id": "tap-0001", "hand": hand.pk, "version": hand.version, **fields}
    url = reverse("deal-action", args=[table.pk])
    return client.post(url, data, headers={"HX-Request": "true"})


def test_a_sized_button_of_10_to_the_30_is_refused_as_a_typed_amount_is(
    tablet: Client, table: Table
) -> None:
    before = HandEvent.objects.count()

    response = _tap(tablet, table, action=f"raise:{10**30}")

    assert response.status_code == 400
    assert "less than or equal to 1000000000000" in _text(response)
    assert HandEvent.objects.count() == before


@pytest.mark.parametrize("field", ["hand", "version"])
def test_a_tablet_write_naming_10_to_the_30_is_refused(
    tablet: Client, table: Table, field: str
) -> None:
    before = HandEvent.objects.count()

    response = _tap(tablet, table, action="fold", **{field: str(10**30)})

    assert response.status_code == 400
    assert "less than or equal to" in _text(response)
    assert HandEvent.objects.count() == before


def test_a_level_beyond_any_schedule_is_refused(desk: Client, event: Tournament) -> None:
    response = desk.post(reverse("clock-set-level", args=[event.pk]), {"index": str(10**30)})

    assert response.status_code == 302
    event.refresh_from_db()
    assert event.clock_level == 0


# --- a NUL byte ----------------------------------------------------------------------------------


def test_a_nul_byte_in_the_public_search_is_refused_with_a_sentence(
    client: Client, event: Tournament
) -> None:
    response = client.get(reverse("public-standings", args=[event.pk]), {"q": NUL})

    assert response.status_code == 400
    assert "Null characters are not allowed." in _text(response)


def test_a_nul_byte_in_the_seat_lookup_answers_the_sentence_for_htmx_to_show(
    client: Client, event: Tournament
) -> None:
    response = client.get(reverse("public-seat-lookup", args=[event.pk]), {"q": NUL})

    assert response.status_code == 200
    assert "Null characters are not allowed." in _text(response)
    assert "<html" not in _text(response)


def test_a_nul_byte_in_the_desk_search_is_refused_with_a_sentence(
    desk: Client, event: Tournament
) -> None:
    response = desk.get(reverse("entry-list", args=[event.pk]), {"q": NUL})

    assert response.status_code == 400
    assert "Null characters are not allowed." in _text(response)


def test_a_nul_byte_in_a_reopening_reason_is_refused(
    desk: Client, event: Tournament, table: Table
) -> None:
    hand = hand_start(table=table)
    response = desk.post(
        reverse("hand-reopen", args=[event.pk, hand.pk]),
        {"reason": NUL, "version": "x", "form_token": "b" * 32},
        follow=True,
    )

    assert "Null characters are not allowed." in _text(response)
    assert HandEvent.objects.filter(hand=hand, kind="reopen").count() == 0


# --- next=-1 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "next_url", ["-1", "//evil.example", "deal-table", "https://evil.example/"]
)
def test_the_dealer_form_goes_back_to_the_tables_page_for_a_bad_next(
    desk: Client, event: Tournament, table: Table, next_url: str
) -> None:
    dealer = assign_dealer(table)

    response = desk.post(
        reverse("table-dealer", args=[table.pk]), {"dealer": str(dealer.pk), "next": next_url}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("table-list", args=[event.pk])


def test_the_dealer_form_goes_back_to_the_page_it_was_on(
    desk: Client, event: Tournament, table: Table
) -> None:
    back = reverse("table-list", args=[event.pk]) + "?x=1"

    response = desk.post(reverse("table-dealer", args=[table.pk]), {"dealer": "", "next": back})

    assert response["Location"] == back


@pytest.mark.parametrize("next_url", ["-1", "//evil.example"])
def test_signing_in_with_a_bad_next_stays_on_this_site(db: Any, next_url: str) -> None:
    User.objects.create_user("floor", password="a long pass phrase", is_staff=True)
    client = Client(raise_request_exception=False)

    response = client.post(
        reverse("login") + f"?next={next_url}",
        {"username": "floor", "password": "a long pass phrase", "next": next_url},
    )

    assert response.status_code == 302
    # Where signing in leads by default, not "-1" (a 404) nor another site.
    assert response["Location"] == reverse("after-login")


# --- a formset's count of rows -------------------------------------------------------------------


@pytest.mark.parametrize("count", ["x", "²", FIVE_THOUSAND_DIGITS, "1e309"])
def test_a_schedule_whose_row_count_is_not_a_number_is_refused_with_a_sentence(
    desk: Client, count: str
) -> None:
    before = BlindSchedule.objects.count()
    data = {
        "name": "Turbo",
        "add": "level",
        "levels-TOTAL_FORMS": count,
        "levels-INITIAL_FORMS": "0",
    }

    response = desk.post(reverse("schedule-create"), data)

    assert response.status_code == 400
    assert "The table of levels arrived incomplete" in _text(response)
    assert BlindSchedule.objects.count() == before


@pytest.mark.parametrize("count", ["x", FIVE_THOUSAND_DIGITS])
def test_a_settings_page_whose_row_count_is_not_a_number_is_refused(
    desk: Client, event: Tournament, count: str
) -> None:
    version = Tournament.objects.get(pk=event.pk).version
    data = {"name": "Renamed", "add": "break", "levels-TOTAL_FORMS": count}

    response = desk.post(reverse("tournament-settings", args=[event.pk]), data)

    assert response.status_code == 400
    assert "The table of levels arrived incomplete" in _text(response)
    assert Tournament.objects.get(pk=event.pk).version == version


def test_a_billion_rows_build_at_most_the_schedule_limit(desk: Client) -> None:
    data = {"name": "Huge", "levels-TOTAL_FORMS": str(10**9), "levels-INITIAL_FORMS": "0"}

    response = desk.post(reverse("schedule-create"), data)

    assert response.status_code == 200
    assert len(response.context["formset"].forms) == 500
    assert not BlindSchedule.objects.filter(name="Huge").exists()
