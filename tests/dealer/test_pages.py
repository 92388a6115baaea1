"""The dealer's pages: the tables list and the tablet, driven through their htmx writes."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from common.errors import FloorError
from dealer.models import Hand, HandEvent, ProcedureLog
from tests.factories import DealerFactory, DirectorFactory, seated_tournament
from tournaments.models import Entry, Table, Tournament
from tournaments.services.entries import entry_set_chips

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def setup_table(
    players: int = 3, stacks: list[int] | None = None, **fields: Any
) -> tuple[Table, Any]:
    """A running tournament with one table of `players`, assigned to a new dealer."""
    tournament = seated_tournament(players=players, now=timezone.now(), **fields)
    table = Table.objects.get(tournament=tournament)
    dealer = DealerFactory.create()
    table.dealer = dealer
    table.save(update_fields=["dealer"])
    if stacks:
        entries = Entry.objects.filter(table=table).order_by("seat")
        for entry, chips in zip(entries, stacks, strict=False):
            entry_set_chips(entry=entry, chips=chips)
    return table, dealer


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def hand_of(table: Table) -> Hand:
    found = Hand.objects.filter(table=table).order_by("-number").first()
    assert found is not None
    return found


def post(client: Client, name: str, table: Table, **fields: Any) -> Any:
    """A write as the tablet sends it: a fresh client id, the hand and version shown."""
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    data = {"client_id": uuid.uuid4().hex}
    if hand is not None:
        data.update(hand=str(hand.pk), version=str(hand.version))
    data.update({k: v for k, v in fields.items() if v is not None})
    return client.post(reverse(name, args=[table.pk]), data, headers=HTMX)


def start(client: Client, table: Table) -> Any:
    latest = Hand.objects.filter(table=table).order_by("-number").first()
    return client.post(
        reverse("deal-start", args=[table.pk]),
        {"last_hand": str(latest.pk if latest else 0)},
        headers=HTMX,
    )


def text(response: Any) -> str:
    """The response's visible text, whitespace collapsed."""
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(body.split())


# --- who may see and write ----------------------------------------------------------------------


def test_anonymous_users_go_to_sign_in() -> None:
    table, _ = setup_table()
    client = Client()
    for url in (
        reverse("deal-tables"),
        reverse("deal-table", args=[table.pk]),
        reverse("deal-state", args=[table.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('login')}?next={url}"
    response = client.post(reverse("deal-start", args=[table.pk]), {"last_hand": "0"})
    assert response.status_code == 302
    assert Hand.objects.count() == 0


def test_the_assigned_dealer_sees_the_table_and_its_tablet() -> None:
    table, dealer = setup_table()
    client = signed_in(dealer)

    listing = client.get(reverse("deal-tables"))
    assert listing.status_code == 200
    assert f"Table {table.number}" in text(listing)
    assert reverse("deal-table", args=[table.pk]) in listing.content.decode()

    page = client.get(reverse("deal-table", args=[table.pk]))
    assert page.status_code == 200
    assert "Start next hand" in text(page)
    assert "static/js/tablet.js" in page.content.decode()
    names = Entry.objects.filter(table=table).values_list("player__name", flat=True)
    for name in names:
        assert name in text(page)


def test_the_tap_guard_time_is_a_setting_given_to_the_tablets_script(settings: Any) -> None:
    table, dealer = setup_table()
    client = signed_in(dealer)
    assert (
        'data-tap-guard-ms="350"'
        in client.get(reverse("deal-table", args=[table.pk])).content.decode()
    )
    settings.TABLET_TAP_GUARD_MS = 0  # no guard
    assert (
        'data-tap-guard-ms="0"'
        in client.get(reverse("deal-table", args=[table.pk])).content.decode()
    )


def test_a_director_sees_every_table_of_the_running_tournaments() -> None:
    table, dealer = setup_table()
    director = DirectorFactory.create()
    client = signed_in(director)

    listing = client.get(reverse("deal-tables"))
    assert f"Table {table.number}" in text(listing)
    assert "dealer " + dealer.get_username() in text(listing)
    page = client.get(reverse("deal-table", args=[table.pk]))
    assert page.status_code == 200
    assert start(client, table).status_code == 200
    assert hand_of(table).started_by == director


def test_other_dealers_read_but_get_403_on_writes() -> None:
    table, dealer = setup_table()
    other = DealerFactory.create()
    client = signed_in(other)

    assert table.number not in [
        int(n) for n in re.findall(r"Table (\d+)", text(client.get(reverse("deal-tables"))))
    ]
    page = client.get(reverse("deal-table", args=[table.pk]))
    assert page.status_code == 200
    assert "Read only" in text(page)
    assert "Start next hand" not in text(page)

    assert start(client, table).status_code == 403
    start(signed_in(dealer), table)
    hand = hand_of(table)
    assert post(client, "deal-action", table, action="fold", seat="1").status_code == 403
    assert post(client, "deal-undo", table, reason="Wrong amount").status_code == 403
    assert post(client, "deal-procedure-run", table, trigger="floor_misdeal").status_code == 403
    hand.refresh_from_db()
    assert hand.version == 0


def test_signed_in_users_who_are_not_dealers_are_refused() -> None:
    table, _ = setup_table()
    user = get_user_model().objects.create_user("visitor", password="pw")
    client = signed_in(user)
    assert client.get(reverse("deal-tables")).status_code == 403
    assert client.get(reverse("deal-table", args=[table.pk])).status_code == 403


# --- a whole hand through the page ------------------------------------------------------------


def act(client: Client, table: Table, action: str, **fields: Any) -> Any:
    state = hand_of(table).state
    seat = state["legal"]["actor"] if state.get("legal") else None
    response = post(
        client, "deal-action", table, action=action, seat=fields.pop("seat", seat), **fields
    )
    assert response.status_code == 200, text(response)
    return response


def test_a_whole_small_hand_through_the_page_views() -> None:
    table, dealer = setup_table(players=3)
    client = signed_in(dealer)

    page = start(client, table)
    assert page.status_code == 200
    hand = hand_of(table)
    state = hand.state
    assert "To act" in text(page)
    assert f"Call {state['legal']['call']}" in text(page)
    assert f"Raise to min {state['legal']['min_raise_to']}" in text(page)

    # Preflop: a raise, a call, a fold.
    act(client, table, f"raise:{state['legal']['min_raise_to']}")
    act(client, table, "call")
    response = act(client, table, "fold")
    assert hand_of(table).state["phase"] == "dealing"
    assert "Deal the flop" in text(response)

    response = act(client, table, "deal_board", cards=["As", "Kd", "7c"])
    assert "Flop" in text(response)
    act(client, table, "check")
    act(client, table, "check")
    act(client, table, "deal_board_unknown")  # the turn, cards not entered
    assert hand_of(table).state["board"][3] == "??"
    bet = hand_of(table).state["legal"]["min_raise_to"]
    act(client, table, f"bet:{bet}")
    response = act(client, table, "fold")

    hand = hand_of(table)
    assert hand.status == Hand.Status.COMPLETE
    winner = hand.state["awards"][0]["winners"][0]
    assert "push the pots" in text(response)
    assert "Start next hand" in text(response)
    assert f"Seat {winner}" in text(client.get(reverse("deal-history", args=[table.pk])))
    assert hand.version == 9


def test_side_pots_and_the_showdown_with_cards_entered() -> None:
    table, dealer = setup_table(players=3, stacks=[1000, 4000, 4000])
    client = signed_in(dealer)
    start(client, table)
    seats = list(Entry.objects.filter(table=table).order_by("seat").values_list("seat", flat=True))
    short = seats[0]
    while hand_of(table).state["phase"] == "betting":
        legal = hand_of(table).state["legal"]
        act(client, table, "all_in" if legal["actor"] == short else "call")
    act(client, table, "deal_board", cards=["2c", "7d", "9h"])
    act(client, table, f"bet:{hand_of(table).state['legal']['min_raise_to']}")
    response = act(client, table, "call")
    assert "Side pot" in text(response)
    assert "Main pot" in text(response)
    act(client, table, "deal_board", cards=["Js"])
    act(client, table, "check")
    act(client, table, "check")
    act(client, table, "deal_board", cards=["3s"])
    act(client, table, "check")
    response = act(client, table, "check")
    assert "Showdown" in text(response)
    hands = dict(zip(seats, [["As", "Ad"], ["Ks", "Kd"], ["Qs", "Qd"]], strict=True))
    while hand_of(table).state["phase"] == "showdown":
        seat = hand_of(table).state["next_to_show"]
        response = act(client, table, "show", seat=seat, cards=hands[seat])
    state = hand_of(table).state
    assert state["phase"] == "complete"
    assert "Main pot" in text(response)
    assert "Side pot" in text(response)
    awards = {a["pot"]: a for a in state["awards"]}
    assert awards[0]["winners"] == [short]  # the aces win the main pot
    assert awards[1]["winners"] == [seats[1]]  # the kings win the side pot
    assert awards[0]["hands"][0] in text(response)


# --- refusals ---------------------------------------------------------------------------------


def test_a_stale_version_shows_the_hand_changed_with_the_fresh_state() -> None:
    table, dealer = setup_table()
    client = signed_in(dealer)
    start(client, table)
    act(client, table, "call")
    hand = hand_of(table)
    response = client.post(
        reverse("deal-action", args=[table.pk]),
        {
            "client_id": uuid.uuid4().hex,
            "hand": hand.pk,
            "version": hand.version - 1,
            "action": "fold",
        },
        headers=HTMX,
    )
    assert response.status_code == 409
    assert "The hand changed on another device" in text(response)
    assert f'data-version="{hand.version}"' in response.content.decode()
    hand.refresh_from_db()
    assert hand.version == 1


def test_a_tap_drawn_for_a_seat_no_longer_to_act_is_refused_and_records_nothing() -> None:
    """A tap carries the seat its button was drawn for: when another player is to act, it is
    409 with a sentence naming both and the current tablet, and nothing is recorded."""
    table, dealer = setup_table()
    client = signed_in(dealer)
    start(client, table)
    hand = hand_of(table)
    actor = hand.state["actor_seat"]
    assert (
        f'name="expected_seat" value="{actor}"'
        in client.get(reverse("deal-state", args=[table.pk])).content.decode()
    )
    name = next(p["name"] for p in hand.state["players"] if p["seat"] == actor)
    other = next(p for p in hand.state["players"] if p["seat"] != actor)
    response = post(
        client, "deal-action", table, action="call", seat=str(actor), expected_seat=other["seat"]
    )
    assert response.status_code == 409
    assert (
        f"That button was drawn for seat {other['seat']}, but {name} (seat {actor}) is to act "
        "now: nothing was recorded." in text(response)
    )
    assert 'data-version="0"' in response.content.decode()
    # The seat named for the action itself is checked by the engine: not this player's turn.
    wrong = post(client, "deal-action", table, action="call", seat=str(other["seat"]))
    assert wrong.status_code == 409
    assert "turn" in text(wrong)
    assert HandEvent.objects.filter(hand=hand).count() == 0
    act(client, table, "call", expected_seat=str(actor))
    assert hand_of(table).version == 1


def test_an_amount_out_of_range_shows_the_engines_sentence() -> None:
    table, dealer = setup_table()
    client = signed_in(dealer)
    start(client, table)
    legal = hand_of(table).state["legal"]
    response = post(
        client, "deal-action", table, action="raise", amount="250", seat=str(legal["actor"])
    )
    assert response.status_code == 409
    assert f"Raise to 250 is below the minimum raise to {legal['min_raise_to']}." in text(response)
    response = post(
        client, "deal-action", table, action="raise", amount="99999999", seat=str(legal["actor"])
    )
    assert response.status_code == 409
    assert "is more than seat" in text(response)
    response = post(client, "deal-action", table, action="raise", seat=str(legal["actor"]))
    assert response.status_code == 400
    assert "Type the amount first" in text(response)
    assert hand_of(table).version == 0


def test_a_resent_write_shows_the_original_answer() -> None:
    table, dealer = setup_table()
    client = signed_in(dealer)
    start(client, table)
    hand = hand_of(table)
    data = {
        "client_id": uuid.uuid4().hex,
        "hand": hand.pk,
        "version": 0,
        "action": "call",
        "seat": hand.state["legal"]["actor"],
    }
    first = client.post(reverse("deal-action", args=[table.pk]), data, headers=HTMX)
    act(client, table, "call")
    again = client.post(reverse("deal-action", args=[table.pk]), data, headers=HTMX)
    assert first.status_code == again.status_code == 200
    assert 'data-version="1"' in again.content.decode()
    assert HandEvent.objects.filter(hand=hand).count() == 2


def test_the_state_partial_answers_304_until_the_hand_changes() -> None:
    table, dealer = setup_table()
    client = signed_in(dealer)
    page = start(client, table)
    etag = page["ETag"]
    url = reverse("deal-state", args=[table.pk])
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    act(client, table, "call")
    fresh = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200
    assert fresh["ETag"] != etag
    assert 'id="tablet"' in fresh.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=fresh["ETag"]).status_code == 304


def test_seat_changes_move_the_state_tag_between_hands_only() -> None:
    # During a tournament hand the tablet draws the seats from the hand; between hands from the
    # table, so a chip count changed then must reach the tablet's poll.
    table, dealer = setup_table(players=4)
    client = signed_in(dealer)
    url = reverse("deal-state", args=[table.pk])
    etag = start(client, table)["ETag"]
    entry = Entry.objects.filter(table=table).order_by("seat").first()
    assert entry is not None
    with pytest.raises(FloorError) as refused:  # the floor waits for the hand
        entry_set_chips(entry=entry, chips=entry.chips + 1)
    assert refused.value.code == "in_hand"
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304  # the hand shows the same
    for _ in range(3):
        act(client, table, "fold")
    assert hand_of(table).status == Hand.Status.COMPLETE
    ended = client.get(url)["ETag"]
    entry.refresh_from_db()
    entry_set_chips(entry=entry, chips=entry.chips + 1)
    assert client.get(url, HTTP_IF_NONE_MATCH=ended).status_code == 200


def test_start_refuses_when_another_device_started_the_hand() -> None:
    table, dealer = setup_table()
    client = signed_in(dealer)
    start(client, table)
    response = client.post(reverse("deal-start", args=[table.pk]), {"last_hand": "0"}, headers=HTMX)
    assert response.status_code == 409
    assert "The hand changed on another device" in text(response)
    assert Hand.objects.filter(table=table).count() == 1


# --- undo and procedures ------------------------------------------------------------------------


def test_undo_with_a_reason() -> None:
    table, dealer = setup_table()
    client = signed_in(dealer)
    start(client, table)
    act(client, table, "call")
    sheet = client.get(reverse("deal-undo-sheet", args=[table.pk]))
    assert "Cancels:" in text(sheet)
    assert "calls" in text(sheet)
    assert post(client, "deal-undo", table).status_code == 400
    response = post(client, "deal-undo", table, reason="Wrong player")
    assert response.status_code == 200
    hand = hand_of(table)
    assert hand.version == 2
    assert hand.state["legal"]["call"] > 0
    assert "Undo: Wrong player" in text(response)


def test_the_procedure_sheet_previews_then_a_misdeal_voids_the_hand() -> None:
    table, dealer = setup_table()
    client = signed_in(dealer)
    start(client, table)
    url = reverse("deal-procedures", args=[table.pk])
    listing = client.get(url)
    assert "Misdeal (floor decision)" in text(listing)
    preview = client.get(url, {"trigger": "two_or_more_exposed_on_deal"})
    assert "Misdeal" in text(preview)
    assert "Confirm: the hand is void" in text(preview)
    assert hand_of(table).version == 0  # a preview writes nothing

    response = post(client, "deal-procedure-run", table, trigger="two_or_more_exposed_on_deal")
    assert response.status_code == 200
    hand = hand_of(table)
    assert hand.status == Hand.Status.VOID
    assert ProcedureLog.objects.filter(hand=hand).count() == 1
    assert "Start the redeal" in text(response)


def test_a_dead_hand_by_floor_decision() -> None:
    table, dealer = setup_table(players=4)
    client = signed_in(dealer)
    start(client, table)
    seat = hand_of(table).state["players"][0]["seat"]
    preview = client.get(
        reverse("deal-procedures", args=[table.pk]), {"trigger": "floor_dead_hand", "seat": seat}
    )
    assert f"Dead hand: seat {seat}" in text(preview)
    response = post(
        client, "deal-procedure-run", table, trigger="floor_dead_hand", seat=seat, note="Fouled"
    )
    assert response.status_code == 200
    player = hand_of(table).state["players"][0]
    assert player["folded"]


# --- pot limit ---------------------------------------------------------------------------------


def test_pot_limit_offers_the_pot_button_with_the_engines_maximum() -> None:
    table, dealer = setup_table(structure=Tournament.Structure.POT_LIMIT)
    client = signed_in(dealer)
    response = start(client, table)
    legal = hand_of(table).state["legal"]
    assert legal["pot_raise_to"] == legal["max_raise_to"]
    assert f"POT {legal['pot_raise_to']}" in text(response)
    assert "All-in" not in text(response)  # deep stacks: all-in is above the pot-limit maximum
    act(client, table, f"raise:{legal['pot_raise_to']}")
    assert hand_of(table).state["high"] == legal["pot_raise_to"]


def test_a_showdown_on_a_board_not_entered_asks_for_the_board_then_settles() -> None:
    table, dealer = setup_table(players=2)
    client = signed_in(dealer)
    start(client, table)
    while hand_of(table).state["phase"] != "showdown":
        state = hand_of(table).state
        if state["phase"] == "dealing":
            act(client, table, "deal_board_unknown")
        else:
            act(client, table, "check" if state["legal"]["can_check"] else "call")
    response = text(client.get(reverse("deal-table", args=[table.pk])))
    assert "Showdown: enter the board" in response
    act(client, table, "reveal_board", cards=["2c", "7d", "9h", "3s", "4d"])
    assert hand_of(table).state["board"] == ["2c", "7d", "9h", "3s", "4d"]
    first = hand_of(table).state["next_to_show"]
    act(client, table, "show", seat=first, cards=["As", "Ad"])
    second = hand_of(table).state["next_to_show"]
    act(client, table, "show", seat=second, cards=["Ks", "Kd"])
    state = hand_of(table).state
    assert state["phase"] == "complete"
    assert state["awards"][0]["winners"] == [first]


def test_without_script_a_write_goes_back_to_the_page_with_the_refusal() -> None:
    table, dealer = setup_table()
    client = Client(enforce_csrf_checks=True)
    client.force_login(dealer)
    page = client.get(reverse("deal-table", args=[table.pk]))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
    assert token is not None
    response = client.post(
        reverse("deal-start", args=[table.pk]),
        {"last_hand": "0", "csrfmiddlewaretoken": token.group(1)},
    )
    assert response.status_code == 302
    hand = hand_of(table)
    response = client.post(
        reverse("deal-action", args=[table.pk]),
        {
            "csrfmiddlewaretoken": token.group(1),
            "client_id": uuid.uuid4().hex,
            "hand": hand.pk,
            "version": hand.version,
            "action": "raise:1",
        },
        follow=True,
    )
    assert "is below the minimum raise to" in text(response)
