"""Issue 10: "one wrong tap that ends a hand can never be corrected". A finished tournament hand
is reopened (`dealer.services.hand_reopen`) through the API, the tablet or the desk: its result
is reversed through the chip ledger (stacks, busts, places, prizes), the hand is in progress
again, and the dealer undoes the wrong entry and enters the right ones; the hand's new end
writes the corrected result."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from config import request_time
from dealer.models import Hand, HandEvent
from dealer.selectors import check_hand_chips
from tests.factories import (
    DealerFactory,
    DirectorFactory,
    HandClient,
    assign_dealer,
    seated_tournament,
)
from tournaments.models import AuditEvent, ChipMove, Entry, Table
from tournaments.selectors.books import chips_check
from tournaments.services.entries import entry_addon, entry_set_chips

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(request_time, "now", lambda: T0)


class Tablet(HandClient):
    """The API tablet, with the reopening; client ids unique across tablets."""

    def client_id(self) -> str:
        return uuid.uuid4().hex

    def reopen(self, reason: str = "the wrong player folded", **body: Any) -> Any:
        sent = {"client_id": self.client_id(), "version": self.state["version"], "reason": reason}
        return self.write("reopen/", {**sent, **body})


def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def three_players(**fields: Any) -> tuple[Table, APIClient, APIClient]:
    """Table 1 of a running tournament with three players (10,000 each, blinds 100/200), with
    its dealer's and a director's API clients."""
    tournament = seated_tournament(players=3, **fields)
    table = Table.objects.get(tournament=tournament, number=1)
    return table, api(assign_dealer(table)), api(DirectorFactory.create())


def dealer_of(table: Table) -> Any:
    assert table.dealer is not None
    return table.dealer


def start(client: APIClient, table: Table) -> Tablet:
    response = client.post(f"/api/tables/{table.pk}/hands/", {"client_id": "start"}, format="json")
    assert response.status_code == 201, response.json()
    return Tablet(client, response.json())


def chips(table: Table) -> dict[int | None, int]:
    """Seat to chips, for the players of the tournament seated at `table` or out (seat kept)."""
    return dict(Entry.objects.filter(tournament=table.tournament_id).values_list("seat", "chips"))


def fold_out(tablet: Tablet) -> dict[str, Any]:
    while tablet.state["phase"] not in ("complete", "void"):
        tablet.ok(kind="fold", seat=tablet.state["legal"]["actor"])
    return tablet.state


def finished_hand(client: APIClient, table: Table) -> Tablet:
    tablet = start(client, table)
    fold_out(tablet)
    return tablet


def all_in_to_the_end(
    tablet: Tablet, short: int | None, caller: int, holes: dict[int | None, list[str]]
) -> None:
    """Play the hand out: `short` goes all-in, `caller` checks or calls, everyone else folds;
    the board is dealt and the hands shown with `holes`."""
    boards = iter([["2c", "7d", "9h"], ["Js"], ["3s"]])
    while tablet.state["phase"] != "complete":
        state = tablet.state
        if state["phase"] == "dealing":
            tablet.ok(kind="deal_board", cards=next(boards))
        elif state["phase"] == "showdown":
            seat = state["next_to_show"]
            tablet.ok(kind="show", seat=seat, cards=holes[seat])
        else:
            actor = state["legal"]["actor"]
            if actor == short:
                tablet.ok(kind="all_in", seat=actor)
            elif actor == caller:
                tablet.ok(kind="check" if state["legal"]["can_check"] else "call", seat=actor)
            else:
                tablet.ok(kind="fold", seat=actor)


def books_balance(table: Table) -> None:
    assert table.tournament is not None
    assert chips_check(table.tournament) == []
    assert check_hand_chips(table.tournament) == []


# --- the bug, and a bust brought back ---------------------------------------------------------


def test_bug_a_wrong_tap_that_ends_a_hand_can_be_corrected() -> None:
    table, dealer, director = three_players()
    tablet = start(dealer, table)
    button, small, big = (
        tablet.state[k] for k in ("button_seat", "small_blind_seat", "big_blind_seat")
    )
    tablet.ok(kind="fold", seat=button)
    # The small blind called; the dealer tapped Fold for them: the hand ends, the big blind wins.
    tablet.ok(kind="fold", seat=small)
    assert tablet.state["status"] == "complete"
    assert chips(table) == {button: 10000, small: 9900, big: 10100}

    floor = Tablet(director, tablet.state)
    reopened = floor.reopen()
    assert reopened.status_code == 200, reopened.json()
    assert reopened.json()["status"] == "in_progress"
    assert reopened.json()["version"] == tablet.state["version"] + 1
    assert chips(table) == {button: 10000, small: 10000, big: 10000}
    books_balance(table)

    tablet.state = reopened.json()
    assert tablet.undo("Wrong action").status_code == 200
    assert tablet.state["phase"] == "betting"
    assert tablet.state["legal"]["actor"] == small
    tablet.ok(kind="call", seat=small)
    tablet.ok(kind="raise", seat=big, amount=600)
    tablet.ok(kind="fold", seat=small)

    assert tablet.state["status"] == "complete"
    assert chips(table) == {button: 10000, small: 9800, big: 10200}
    books_balance(table)
    kinds = list(
        HandEvent.objects.filter(hand_id=tablet.state["hand"])
        .order_by("seq")
        .values_list("kind", flat=True)
    )
    assert kinds == [*["action"] * 2, "reopen", "undo", *["action"] * 3]
    moves = ChipMove.objects.filter(hand_id=tablet.state["hand"])
    assert sorted(moves.filter(kind="hand_reversed").values_list("delta", flat=True)) == [
        -100,
        0,
        100,
    ]
    assert AuditEvent.objects.filter(action="hand_reopen").count() == 1


def test_reopening_an_all_in_that_busted_a_player_brings_them_back_without_place_or_prize() -> None:
    table, dealer, director = three_players(payout_percentages=[50, 30, 20])
    short = Entry.objects.filter(table=table).order_by("seat").first()
    assert short is not None
    entry_set_chips(entry=short, chips=1500, note="re-count")
    tablet = start(dealer, table)
    seats = {tablet.state[k] for k in ("button_seat", "small_blind_seat", "big_blind_seat")}
    winner = max(seats - {short.seat})
    all_in_to_the_end(tablet, short.seat, winner, {short.seat: ["4c", "5d"], winner: ["As", "Ad"]})
    short.refresh_from_db()
    assert (short.status, short.finishing_place, short.chips) == ("busted", 3, 0)
    assert short.prize is not None
    assert short.prize > 0
    before_end = {seat: stack for seat, stack in chips(table).items() if seat != short.seat}

    floor = Tablet(director, tablet.state)
    assert floor.reopen("the short stack's cards were entered wrong").status_code == 200

    short.refresh_from_db()
    assert short.status == "active"
    assert (short.table_id, short.chips) == (table.pk, 1500)
    assert (short.finishing_place, short.prize, short.bust_group) == (None, None, None)
    assert short.live_hand_id == tablet.state["hand"]
    assert sum(chips(table).values()) == 1500 + 20000
    assert before_end != {s: c for s, c in chips(table).items() if s != short.seat}
    books_balance(table)


def test_bug_a_reopened_hand_that_takes_a_players_stack_leaves_their_later_add_on_in_play() -> None:
    # Found by the floor-and-tablets state machine: a player won a hand, took the add-on, and the
    # hand was reopened and corrected so that they lost their whole stack in it. The hand's
    # result came off their chips (the add-on stayed, as the ledger adds to the floor's changes)
    # but the end busted them because the hand left them with nothing: busted holding 1,000.
    table, dealer, director = three_players(addon_chips=1000, addon_level=1)
    short = Entry.objects.filter(table=table).order_by("seat").first()
    assert short is not None
    entry_set_chips(entry=short, chips=1500, note="re-count")
    tablet = start(dealer, table)
    seats = {tablet.state[k] for k in ("button_seat", "small_blind_seat", "big_blind_seat")}
    caller = max(seats - {short.seat})
    holes = {short.seat: ["As", "Ad"], caller: ["4c", "5d"]}

    all_in_to_the_end(tablet, short.seat, caller, holes)
    short.refresh_from_db()
    won = short.chips
    assert won > 1500
    entry_addon(entry=short, now=T0)
    assert Entry.objects.get(pk=short.pk).chips == won + 1000

    # The cards were entered the wrong way round: reopened, the shows taken back and redone.
    floor = Tablet(director, tablet.state)
    reopened = floor.reopen("the hole cards were entered the wrong way round")
    assert reopened.status_code == 200, reopened.json()
    tablet.state = reopened.json()
    while any(p["shown"] for p in tablet.state["players"]):
        assert tablet.undo("Wrong cards").status_code == 200
    holes[short.seat], holes[caller] = holes[caller], holes[short.seat]
    all_in_to_the_end(tablet, short.seat, caller, holes)

    short.refresh_from_db()
    # Lost the 1,500 the hand started with; the add-on bought after it is still in play.
    assert (short.status, short.chips, short.finishing_place) == ("active", 1000, None)
    books_balance(table)


# --- the API: refusals, resends, permissions ---------------------------------------------------


def test_a_dealer_may_reopen_the_latest_hand_only_before_the_next_one_starts() -> None:
    table, dealer, director = three_players()
    first = finished_hand(dealer, table)
    second = start(dealer, table)

    refused = Tablet(dealer, first.state).reopen()
    assert refused.status_code == 403
    assert refused.json()["code"] == "next_hand_started"
    assert "ask the floor to reopen hand 1" in refused.json()["detail"]
    # The floor cannot either while hand 2 is played.
    busy = Tablet(director, first.state).reopen()
    assert (busy.status_code, busy.json()["code"]) == (409, "hand_in_progress")
    own = second.reopen()
    assert (own.status_code, own.json()["code"]) == (409, "hand_in_progress")

    fold_out(second)
    not_last = Tablet(director, first.state).reopen()
    assert (not_last.status_code, not_last.json()["code"]) == (409, "not_last_hand")
    assert second.reopen().status_code == 200  # the dealer reopens the latest hand
    books_balance(table)


def test_a_misdeal_is_dealt_again_not_reopened() -> None:
    table, dealer, director = three_players()
    tablet = start(dealer, table)
    tablet.ok(kind="misdeal", reason="a card exposed on the deal")
    assert tablet.state["status"] == "void"

    refused = Tablet(director, tablet.state).reopen()
    assert (refused.status_code, refused.json()["code"]) == (409, "hand_void")


def test_a_director_may_reopen_the_last_completed_hand_after_a_misdeal() -> None:
    table, dealer, director = three_players()
    first = finished_hand(dealer, table)
    redeal = start(dealer, table)
    redeal.ok(kind="misdeal", reason="a card exposed on the deal")

    assert Tablet(dealer, first.state).reopen().status_code == 403
    assert Tablet(director, first.state).reopen().status_code == 200
    page = Client()
    page.force_login(dealer_of(table))
    tablet = page.get(reverse("deal-table", args=[table.pk])).content.decode()
    assert 'data-testid="reopened"' in tablet  # the tablet shows hand 1, not the misdeal


def test_reopen_is_idempotent_by_client_id_and_refuses_a_stale_version() -> None:
    table, dealer, _ = three_players()
    tablet = finished_hand(dealer, table)
    body = {"client_id": "reopen-1", "version": tablet.state["version"], "reason": "wrong fold"}

    first = dealer.post(tablet.url + "reopen/", body, format="json")
    again = dealer.post(tablet.url + "reopen/", body, format="json")
    stale = dealer.post(tablet.url + "reopen/", {**body, "client_id": "reopen-2"}, format="json")

    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert HandEvent.objects.filter(kind="reopen").count() == 1
    assert ChipMove.objects.filter(kind="hand_reversed").count() == 3
    assert stale.status_code == 409
    assert stale.json()["code"] == "stale_version"
    assert stale.json()["state"] == first.json()


def test_reopen_needs_a_reason_and_a_writer() -> None:
    table, dealer, _ = three_players()
    tablet = finished_hand(dealer, table)
    other = api(assign_dealer(Table.objects.create(tournament=table.tournament, number=9)))

    blank = dealer.post(
        tablet.url + "reopen/",
        {"client_id": "r1", "version": tablet.state["version"]},
        format="json",
    )
    stranger = Tablet(other, tablet.state).reopen()
    stranger_blank = other.post(tablet.url + "reopen/", {"client_id": "r2"}, format="json")
    missing = dealer.post(
        "/api/hands/999999/reopen/", {"client_id": "r3", "version": 1, "reason": "x"}, format="json"
    )

    assert blank.status_code == 400
    assert (stranger.status_code, stranger.json()["code"]) == (403, "permission_denied")
    assert stranger_blank.status_code == 403
    assert missing.status_code == 404
    assert Hand.objects.get(pk=tablet.state["hand"]).status == "complete"


def test_the_reopen_endpoint_is_in_the_openapi_schema() -> None:
    client = Client()
    response = client.get(reverse("api-schema"), HTTP_ACCEPT="application/vnd.oai.openapi+json")
    operation = response.json()["paths"]["/api/hands/{id}/reopen/"]["post"]
    assert operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/ReopenInput"
    )
    assert {"200", "400", "403", "404", "409"} <= set(operation["responses"])
    assert "next_hand_started" in operation["responses"]["403"]["description"]


# --- the tablet ---------------------------------------------------------------------------------


def text(response: Any) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def page_post(client: Client, name: str, table: Table, **fields: Any) -> Any:
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None
    data = {"client_id": uuid.uuid4().hex, "hand": str(hand.pk), "version": str(hand.version)}
    data.update(fields)
    return client.post(reverse(name, args=[table.pk]), data, headers=HTMX)


def test_the_tablet_reopens_the_last_hand_then_offers_undo() -> None:
    table, dealer, _ = three_players()
    tablet = start(dealer, table)
    small = tablet.state["small_blind_seat"]
    fold_out(tablet)
    page = Client()
    page.force_login(dealer_of(table))

    after = page.get(reverse("deal-table", args=[table.pk]))
    assert "Reopen the last hand" in text(after)
    assert reverse("deal-reopen", args=[table.pk]) in after.content.decode()

    no_reason = page_post(page, "deal-reopen", table)
    assert no_reason.status_code == 400
    assert "Say why the hand is reopened" in text(no_reason)

    reopened = page_post(page, "deal-reopen", table, reason="Wrong player")
    assert reopened.status_code == 200
    body = text(reopened)
    assert "Hand 1 is reopened" in body
    assert "Undo the last entry" in body
    assert "Reopen the last hand" not in body
    assert "Reopened: Wrong player" in body

    sheet = page.get(reverse("deal-undo-sheet", args=[table.pk]))
    assert f"Cancels: Seat {small}" in text(sheet)  # the fold that ended it, not the reopening
    undone = page_post(page, "deal-undo", table, reason="Wrong player")
    assert undone.status_code == 200
    assert 'data-testid="reopened"' not in undone.content.decode()
    assert "To act" in text(undone)
    books_balance(table)


def test_the_tablet_offers_no_reopening_during_the_next_hand_or_to_a_reader() -> None:
    table, dealer, _ = three_players()
    finished_hand(dealer, table)
    reader = Client()
    reader.force_login(DealerFactory.create())
    writer = Client()
    writer.force_login(dealer_of(table))
    tablet_url = reverse("deal-table", args=[table.pk])

    assert "Reopen the last hand" in text(writer.get(tablet_url))
    assert "Reopen the last hand" not in text(reader.get(tablet_url))
    second = start(dealer, table)
    assert "Reopen the last hand" not in text(writer.get(tablet_url))
    fold_out(second)
    first = Hand.objects.get(table=table, number=1)
    late = writer.post(
        reverse("deal-reopen", args=[table.pk]),
        {
            "client_id": uuid.uuid4().hex,
            "hand": str(first.pk),
            "version": str(first.version),
            "reason": "Wrong player",
        },
        headers=HTMX,
    )
    assert late.status_code == 409
    assert "only the last one can be reopened" in text(late)
    assert "Reopen hand 2" in text(late)  # the latest hand is still offered


# --- the desk -------------------------------------------------------------------------------------


def test_the_desk_reopens_each_tables_last_completed_hand_once() -> None:
    table, dealer, _ = three_players()
    first = finished_hand(dealer, table)
    desk = Client()
    desk.force_login(DirectorFactory.create())
    url = reverse("table-list", args=[table.tournament_id])

    page = desk.get(url).content.decode()
    action = reverse("hand-reopen", args=[table.tournament_id, first.state["hand"]])
    assert "Reopen hand 1" in page
    assert action in page
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version is not None
    assert int(version.group(1)) == first.state["version"]

    form = {"form_token": uuid.uuid4().hex, "version": version.group(1), "reason": ""}
    blank = desk.post(action, form, follow=True)
    assert "Say why the hand is reopened." in blank.content.decode()
    form["reason"] = "wrong player folded"
    done = desk.post(action, form, follow=True)
    twice = desk.post(action, form, follow=True)

    assert "Hand 1 is reopened" in done.content.decode()
    assert "Already recorded" in twice.content.decode()
    assert HandEvent.objects.filter(kind="reopen").count() == 1
    hand = Hand.objects.get(pk=first.state["hand"])
    assert hand.status == "in_progress"
    after = desk.get(url).content.decode()
    assert "Reopen hand" not in after  # a hand is in progress at the table now
    assert "Hand 1 in progress" in after
    books_balance(table)


def test_the_desk_shows_the_services_refusal() -> None:
    table, dealer, _ = three_players()
    first = finished_hand(dealer, table)
    finished_hand(dealer, table)
    desk = Client()
    desk.force_login(DirectorFactory.create())

    page = desk.get(reverse("table-list", args=[table.tournament_id])).content.decode()
    assert "Reopen hand 2" in page
    assert "Reopen hand 1" not in page
    refused = desk.post(
        reverse("hand-reopen", args=[table.tournament_id, first.state["hand"]]),
        {"form_token": uuid.uuid4().hex, "version": first.state["version"], "reason": "late"},
        follow=True,
    )
    assert "only the last one can be reopened" in refused.content.decode()
    assert Hand.objects.get(pk=first.state["hand"]).status == "complete"


# --- a reopened hand shows the engine's state, nothing of its old end (issue 24) -------------

SHORT_STACKS = (1000, 2000, 3000, 4000)
CALLER_STACK = 10000
# Each short stack's cards, the shortest's the best: each of the four pots has its own winner.
SHORT_HOLES = (["As", "Ah"], ["Ks", "Kh"], ["Qs", "Qh"], ["Js", "Jh"])
CALLER_HOLE = ["8c", "5h"]
BOARD = (["2c", "7d", "9h"], ["Td"], ["3s"])


def four_pots_hand() -> tuple[Table, Tablet, APIClient, list[int], int]:
    """Table 1 of ten seats: four short stacks (1,000 to 4,000) all-in preflop, one deep stack
    calls each of them, the five others fold; the shortest stack holds the best hand, so each
    of the four pots is won by another player. Played to its end on the dealer's API tablet;
    returns the table, the tablet, the director's API client, the short seats and the caller."""
    tournament = seated_tournament(players=10, seats_per_table=10)
    table = Table.objects.get(tournament=tournament, number=1)
    dealer, director = api(assign_dealer(table)), api(DirectorFactory.create())
    entries = list(Entry.objects.filter(table=table).order_by("seat"))
    assert len(entries) == 10
    seats = [entry.seat for entry in entries if entry.seat is not None]
    shorts, caller = seats[:4], seats[5]
    for entry, stack in zip(entries, SHORT_STACKS, strict=False):
        entry_set_chips(entry=entry, chips=stack, note="re-count")
    holes = {seat: SHORT_HOLES[i] for i, seat in enumerate(shorts)} | {caller: CALLER_HOLE}
    tablet = start(dealer, table)
    boards = iter(BOARD)
    while tablet.state["phase"] != "complete":
        state = tablet.state
        if state["phase"] == "dealing":
            tablet.ok(kind="deal_board", cards=next(boards))
        elif state["phase"] == "showdown":
            seat = state["next_to_show"]
            tablet.ok(kind="show", seat=seat, cards=holes[seat])
        else:
            actor = state["legal"]["actor"]
            if actor in shorts:
                tablet.ok(kind="all_in", seat=actor)
            elif actor == caller:
                tablet.ok(kind="check" if state["legal"]["can_check"] else "call", seat=actor)
            else:
                tablet.ok(kind="fold", seat=actor)
    assert {award["pot"] for award in tablet.state["awards"]} == {0, 1, 2, 3}
    return table, tablet, director, shorts, caller


def seat_boxes(html: str) -> dict[int, str]:
    """Each seat box of the rendered tablet, by seat number: its HTML up to the next seat's."""
    parts = re.split(r'(?=<div class="seat-box\b)', html)
    boxes = {}
    for part in parts[1:]:
        number = re.search(r'data-seat="(\d+)"', part)
        assert number is not None
        boxes[int(number.group(1))] = part.split("</section>")[0]
    return boxes


def seat_stack(box: str) -> int:
    found = re.search(r'class="seat-box__stack">([\d,]+)<', box)
    assert found is not None, box
    return int(found.group(1).replace(",", ""))


def rendered_pots(html: str) -> list[tuple[str, int, list[int]]]:
    """The pots region as rendered: each pot's label, amount and the seats that may win it."""
    found = re.search(r'<div id="tablet-pots"[^>]*>(.*?)</section>', html, re.S)
    assert found is not None, "no pots shown"
    pots = []
    for pot in re.findall(
        r'<div class="pot\b.*?</p>\s*<p class="pot__who">.*?</p>', found[1], re.S
    ):
        head = re.search(r"<span>([^<]+)</span> <strong>([\d,]+)</strong>", pot)
        assert head is not None, pot
        seats = sorted(int(s) for s in re.findall(r'class="seat-chip"[^>]*>(\d+)<', pot))
        pots.append((head[1], int(head[2].replace(",", "")), seats))
    return pots


def test_bug_a_reopened_hand_with_four_pots_shows_the_pots_stacks_and_no_wins_of_its_old_end() -> (
    None
):
    # Issue 24: a reopened hand showed "Main 60,250 for seats 8,4,6,7 and one side pot" instead
    # of its four pots, and kept the WINS badges and the stacks after the award while saying the
    # stacks were restored.
    table, tablet, _, shorts, caller = four_pots_hand()
    ended = tablet.state
    before_award = {p["seat"]: p["stack"] for p in ended["players"]}
    for award in ended["awards"]:
        for seat, share in zip(award["winners"], award["shares"], strict=True):
            before_award[seat] -= share
    assert before_award[caller] == CALLER_STACK - 4000
    assert all(before_award[seat] == 0 for seat in shorts)
    page = Client()
    page.force_login(dealer_of(table))

    reopened = page_post(page, "deal-reopen", table, reason="Wrong winner")
    assert reopened.status_code == 200
    for html in (reopened.content.decode(), page.get(reverse("deal-table", args=[table.pk]))):
        html = html if isinstance(html, str) else html.content.decode()
        assert "Hand 1 is reopened" in text_of(html)
        boxes = seat_boxes(html)
        assert "Wins" not in html
        assert "is-winner" not in html
        assert {seat: seat_stack(boxes[seat]) for seat in before_award} == before_award
        assert all("All-in" in boxes[seat] for seat in shorts)
        contenders = [caller, *reversed(shorts)]  # the deepest first
        dead = sum(p["contributed"] for p in ended["players"] if p["seat"] not in contenders)
        assert rendered_pots(html) == [
            ("Main pot", 5 * 1000 + dead, sorted(contenders)),
            ("Side pot 1", 4 * 1000, sorted(contenders[:4])),
            ("Side pot 2", 3 * 1000, sorted(contenders[:3])),
            ("Side pot 3", 2 * 1000, sorted(contenders[:2])),
        ]


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())
