"""Showdown by tap through the API and the tablet's form (docs/api.md, docs/rules.md "Showdown by
tap"): a pot pushed to the seats tapped, the refusals, the log line, undo after a reopening."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from config import request_time
from dealer.engine.errors import RuleViolation
from dealer.engine.phh import parse_phh
from dealer.engine.phh.play import outcome
from dealer.hand_log import hand_replay
from dealer.models import Hand
from dealer.services import hand_record_action
from dealer.views import present
from tests.factories import HandClient, assign_dealer, seated_tournament
from tournaments.models import Table

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


@pytest.fixture
def table():
    return Table.objects.get(tournament=seated_tournament(players=4), number=1)


@pytest.fixture
def dealer(table):
    client = APIClient()
    client.force_login(assign_dealer(table))
    return client


@pytest.fixture
def tablet(dealer, table):
    response = dealer.post(f"/api/tables/{table.pk}/hands/", {"client_id": "start"}, format="json")
    assert response.status_code == 201
    return HandClient(dealer, response.json())


def to_showdown(tablet: HandClient) -> dict:
    """The first player folds, the others call and check it down; no card is entered."""
    tablet.ok(kind="fold")
    tablet.ok(kind="call")
    tablet.ok(kind="call")
    tablet.ok(kind="check")
    for _ in range(3):
        tablet.ok(kind="deal_board", cards=["??"] * tablet.state["board_cards_due"])
        for _ in range(3):
            tablet.ok(kind="check")
    assert tablet.state["phase"] == "showdown"
    return tablet.state


def test_award_pushes_the_pot_to_the_seat_tapped_and_ends_the_hand(tablet):
    state = to_showdown(tablet)
    (pot,) = state["push"]
    assert pot["pushed_to"] is None
    winner = pot["eligible_seats"][1]
    before = {p["seat"]: p["stack"] for p in state["players"]}
    done = tablet.ok(kind="award", pot=0, seats=[winner])
    assert done["status"] == "complete"
    assert done["push"] == []
    (award,) = done["awards"]
    assert award["winners"] == [winner]
    assert done["finishing_stacks"][str(winner)] == before[winner] + pot["amount"]


def test_award_split_between_two_seats_shares_the_pot(tablet):
    state = to_showdown(tablet)
    seats = state["push"][0]["eligible_seats"][:2]
    done = tablet.ok(kind="award", pot=0, seats=seats)
    (award,) = done["awards"]
    assert sorted(award["winners"]) == sorted(seats)
    assert sum(award["shares"]) == award["amount"]


@pytest.mark.parametrize(
    ("action", "status", "code"),
    [
        ({"kind": "award", "pot": 0, "seats": [99]}, 400, "invalid"),  # no such seat
        ({"kind": "award", "pot": 0, "seats": [8]}, 400, "not_in_hand"),
        ({"kind": "award", "pot": 0, "seats": "4"}, 400, "invalid"),
        ({"kind": "award", "pot": 0}, 409, "winners_required"),
    ],
)
def test_award_malformed_or_unknown_seats_are_refused_with_a_code(tablet, action, status, code):
    to_showdown(tablet)
    response = tablet.act(**action)
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code


def test_award_to_a_folded_seat_or_a_missing_pot_is_refused_409(tablet):
    state = to_showdown(tablet)
    folded = next(p["seat"] for p in state["players"] if p["folded"])
    refused = tablet.act(kind="award", pot=0, seats=[folded])
    assert (refused.status_code, refused.json()["code"]) == (409, "not_eligible")
    live = state["push"][0]["eligible_seats"][0]
    missing = tablet.act(kind="award", pot=1, seats=[live])
    assert (missing.status_code, missing.json()["code"]) == (409, "bad_pot")
    assert tablet.state["version"] == state["version"]


def test_award_is_stored_and_replayed_undone_after_a_reopening(dealer, tablet):
    state = to_showdown(tablet)
    first, second = state["push"][0]["eligible_seats"][:2]
    tablet.ok(kind="award", pot=0, seats=[first])
    body = {"client_id": "reopen-1", "version": tablet.state["version"], "reason": "wrong seat"}
    assert tablet.write("reopen/", body).status_code == 200
    assert tablet.undo("pushed to the wrong seat").status_code == 200
    assert tablet.state["phase"] == "showdown"
    assert tablet.state["push"][0]["pushed_to"] is None
    done = tablet.ok(kind="award", pot=0, seats=[second])
    assert done["awards"][0]["winners"] == [second]
    hand = Hand.objects.get(pk=done["hand"])
    assert hand_replay(hand).awards[0].winners == ([s["seat"] for s in hand.seats].index(second),)


def test_award_log_line_names_the_pot_and_the_winner(tablet):
    state = to_showdown(tablet)
    winner = state["push"][0]["eligible_seats"][0]
    tablet.ok(kind="award", pot=0, seats=[winner])
    hand = Hand.objects.get(pk=state["hand"])
    last = hand.events.order_by("seq").last()
    name = next(s["name"] for s in hand.seats if s["seat"] == winner)
    assert present.describe_event(last, hand) == f"Pot 1 pushed to seat {winner} {name}"


def test_award_naming_no_pot_is_logged_as_every_pot_the_winner_is_in(tablet):
    """The best hand's tap names no pot: its log line must not claim it pushed the main pot."""
    state = to_showdown(tablet)
    winner = state["push"][0]["eligible_seats"][0]
    tablet.ok(kind="award", seats=[winner])
    hand = Hand.objects.get(pk=state["hand"])
    last = hand.events.order_by("seq").last()
    name = next(s["name"] for s in hand.seats if s["seat"] == winner)
    line = present.describe_event(last, hand)
    assert line == f"Every pot seat {winner} is in pushed to seat {winner} {name}"


def test_award_from_the_tablet_form_one_tap_on_the_winner(dealer, table, tablet):
    state = to_showdown(tablet)
    winner = state["push"][0]["eligible_seats"][0]
    page = dealer.get(reverse("deal-table", args=[table.pk])).content.decode()
    assert f'value="award:{winner}"' in page
    response = dealer.post(
        reverse("deal-action", args=[table.pk]),
        {
            "client_id": "tablet-push-1",
            "hand": state["hand"],
            "version": state["version"],
            "action": f"award:{winner}",
            "pot": 0,
        },
    )
    assert response.status_code == 302  # without htmx: back to the tablet
    hand = Hand.objects.get(pk=state["hand"])
    assert hand.status == Hand.Status.COMPLETE
    assert hand.state["awards"][0]["winners"] == [winner]


def test_deal_unentered_a_streets_first_action_says_its_board_was_dealt(tablet):
    tablet.ok(kind="fold")
    tablet.ok(kind="call")
    tablet.ok(kind="call")
    state = tablet.ok(kind="check")
    assert state["phase"] == "dealing"
    after = state["legal_after_deal"]
    assert after["can_check"]
    body = {
        "client_id": tablet.client_id(),
        "version": state["version"],
        "action": {"kind": "check", "seat": after["actor"]},
        "expected_seat": after["actor"],
        "deal_unentered": True,
    }
    response = tablet.write("actions/", body)
    assert response.status_code == 200, response.json()
    state = response.json()
    assert (state["street"], state["board"]) == ("flop", ["??", "??", "??"])
    assert state["legal_after_deal"] is None
    # One entry, one undo: the check and the deal it implied go together.
    assert tablet.undo("checked by mistake").status_code == 200
    assert (tablet.state["phase"], tablet.state["board"]) == ("dealing", [])


def test_deal_unentered_when_no_board_is_due_is_refused(tablet):
    body = {
        "client_id": tablet.client_id(),
        "version": tablet.state["version"],
        "action": {"kind": "fold"},
        "deal_unentered": True,
    }
    response = tablet.write("actions/", body)
    assert (response.status_code, response.json()["code"]) == (409, "board_not_due")


def test_award_without_a_pot_from_the_api_takes_every_pot(tablet):
    state = to_showdown(tablet)
    winner = state["push"][0]["eligible_seats"][0]
    done = tablet.ok(kind="award", seats=[winner])
    assert [a["winners"] for a in done["awards"]] == [[winner]]


def test_phh_of_a_hand_pushed_by_tap_has_unknown_cards_and_the_winnings(dealer, tablet):
    state = to_showdown(tablet)
    winner = state["push"][0]["eligible_seats"][0]
    done = tablet.ok(kind="award", pot=0, seats=[winner])
    response = dealer.get(f"/api/hands/{done['hand']}/phh/")
    assert response.status_code == 200
    history = parse_phh(response.content.decode())
    seats = [p["seat"] for p in done["players"]]
    player = seats.index(winner) + 1
    assert f"d dh p{player} ????" in history.actions
    assert f"p{player} sm ????" in history.actions
    assert history.winnings == [
        done["awards"][0]["amount"] if seat == winner else 0 for seat in seats
    ]
    assert outcome(history).status == "complete"  # the others mucked: the pot is the winner's


def test_award_whose_seats_are_not_a_list_is_refused_by_the_service_too(table, tablet):
    """A caller that skips the API's serializer (a task, a command) gets the same refusal, not
    an error from iterating a number: the service reads the winners as a list of seats."""
    to_showdown(tablet)
    hand = Hand.objects.get(pk=tablet.state["hand"])
    with pytest.raises(RuleViolation) as refused:
        hand_record_action(
            hand=hand,
            action={"kind": "award", "pot": 0, "seats": 4},
            client_id="award-not-a-list",
            version=hand.version,
            actor=table.dealer,
        )
    assert refused.value.code == "bad_action"
    assert Hand.objects.get(pk=hand.pk).version == hand.version  # nothing recorded
