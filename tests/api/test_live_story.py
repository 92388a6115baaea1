"""The live updates (issue 27): a small tournament played through the API tells the expected
story on the page, the Atom feed and the JSON; a hole card never shown at showdown appears in
none of them (`dealer.story`, read through `dealer.card_gate`)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from xml.etree import ElementTree

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from dealer.story import tournament_story
from tests.factories import DirectorFactory, HandClient, assign_dealer, make, seated_tournament
from tournaments.models import ButtonDraw, Entry, Table, Tournament
from tournaments.services.versions import tournament_bump

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"
FOLDED = ["7c", "7d"]  # hand 1: entered, then the player folds before the showdown
MUCKED = ["9h", "9c"]  # hand 1: entered, then mucked at the showdown
SHOWN = ["Ah", "Ad"]  # hand 1: shown at the showdown
NO_SHOWDOWN = ["Td", "Tc"]  # hand 2: entered; everyone else folds, nothing is shown
BOARD = [["2s", "3s", "8h"], ["5d"], ["Kc"]]
HIDDEN = (*FOLDED, *MUCKED, *NO_SHOWDOWN)


def start(client: APIClient, table: Table) -> HandClient:
    response = client.post(f"/api/tables/{table.pk}/hands/", {"client_id": "s"}, format="json")
    assert response.status_code == 201, response.json()
    return HandClient(client, response.json())


def showdown_hand(tablet: HandClient) -> tuple[int, int]:
    """The first to act folds with FOLDED entered; the two left check it down; one shows
    SHOWN, the other (holding MUCKED) mucks. Answers the seats of the shower and the mucker."""
    folder = tablet.state["legal"]["actor"]
    tablet.ok(kind="deal_hole", seat=folder, cards=FOLDED)
    tablet.ok(seat=folder, kind="fold")
    shower, mucker = [p["seat"] for p in tablet.state["players"] if not p["folded"]]
    tablet.ok(kind="deal_hole", seat=mucker, cards=MUCKED)
    streets = iter(BOARD)
    for _ in range(40):
        state = tablet.state
        if state["phase"] == "showdown":
            break
        if state["phase"] == "dealing":
            tablet.ok(kind="deal_board", cards=next(streets))
            continue
        legal = state["legal"]
        tablet.ok(seat=legal["actor"], kind="check" if legal["can_check"] else "call")
    while tablet.state["phase"] == "showdown":
        seat = tablet.state["next_to_show"]
        if seat == shower:
            tablet.ok(kind="show", seat=seat, cards=SHOWN)
        else:
            tablet.ok(kind="muck", seat=seat)
    assert tablet.state["phase"] == "complete"
    return shower, mucker


def no_showdown_hand(tablet: HandClient) -> None:
    """The first to act raises with NO_SHOWDOWN entered; everyone folds to them."""
    raiser = tablet.state["legal"]["actor"]
    tablet.ok(kind="deal_hole", seat=raiser, cards=NO_SHOWDOWN)
    tablet.ok(seat=raiser, kind="raise", amount=tablet.state["legal"]["min_raise_to"])
    while tablet.state["phase"] not in ("complete", "void"):
        tablet.ok(kind="fold", seat=tablet.state["legal"]["actor"])
    assert tablet.state["phase"] == "complete"


def name_at(table: Table, seat: int) -> str:
    return Entry.objects.get(table=table, seat=seat).player.name


def desk_bust(director: APIClient, tournament: Tournament, out: Entry, *by: Entry) -> None:
    out.refresh_from_db()
    row: dict[str, Any] = {"entry_id": out.pk, "starting_stack": out.chips}
    if by:
        row["eliminated_by"] = [e.pk for e in by]
    response = director.post(f"/api/tournaments/{tournament.pk}/busts/", [row], format="json")
    assert response.status_code == 200, response.json()


@pytest.fixture
def played() -> dict[str, Any]:
    """Five players, three to a table, a prize pool paying two places: a showdown and a hand
    without one at table 1, the break, then the desk busts everyone but the winner."""
    tournament = seated_tournament(
        players=5, seats_per_table=3, payout_percentages=[70, 30], buy_in=Decimal(100)
    )
    spare = iter([f"{rank}{suit}" for suit in "shdc" for rank in "456"])
    for draw in ButtonDraw.objects.filter(table__tournament=tournament):  # public, random cards
        draw.cards = " ".join(next(spare) for _ in draw.cards.split())
        draw.save(update_fields=["cards"])
    director = APIClient()
    director.force_login(make(DirectorFactory))
    table = Table.objects.filter(tournament=tournament).order_by("number").first()
    assert table is not None
    assert Entry.objects.filter(table=table).count() == 3
    assign_dealer(table)
    shower, mucker = showdown_hand(start(director, table))
    no_showdown_hand(start(director, table))
    response = director.post(
        f"/api/tournaments/{tournament.pk}/clock/set-level/", {"index": 2}, format="json"
    )
    assert response.status_code == 200, response.json()
    by_chips = list(
        Entry.objects.filter(tournament=tournament).select_related("player").order_by("-chips")
    )
    leader = by_chips[0]
    # Out in 5th and 4th (the final table of three is then set), 3rd naming nobody, 2nd.
    desk_bust(director, tournament, by_chips[4], leader)
    desk_bust(director, tournament, by_chips[3], leader, by_chips[1])
    desk_bust(director, tournament, by_chips[2])
    desk_bust(director, tournament, by_chips[1], leader)
    return {
        "tournament": tournament,
        "shower": name_at(table, shower),
        "mucker": name_at(table, mucker),
        "leader": leader.player.name,
        "out": [e.player.name for e in by_chips[1:]],
    }


def test_a_whole_small_tournament_tells_its_story_newest_first(played: dict[str, Any]) -> None:
    tournament = played["tournament"]
    body = APIClient().get(f"/api/tournaments/{tournament.pk}/live/").json()
    kinds = [e["kind"] for e in body["entries"]]
    assert kinds == [
        "winner",
        "elimination",  # 2nd
        "elimination",  # 3rd
        "final_table",
        "elimination",  # 4th
        "elimination",  # 5th
        "break",
        "showdown",
        "level",
    ]
    winner, second, third, final, fourth, fifth, pause, showdown, level = body["entries"]
    leader = played["leader"]
    assert winner["details"] == {"player": leader, "prize": "350.00"}
    out_2nd, out_3rd, out_4th, out_5th = played["out"]
    assert fifth["details"]["player"] == out_5th
    assert fourth["details"]["player"] == out_4th
    assert second["details"] == {
        "player": out_2nd,
        "place": 2,
        "prize": "150.00",
        "eliminated_by": [leader],
    }
    assert second["text"] == (
        f"{out_2nd} is out in 2nd place, winning 150.00, knocked out by {leader}."
    )
    assert third["details"]["eliminated_by"] == []
    assert third["details"]["prize"] is None
    assert fourth["details"]["eliminated_by"] == [leader, out_2nd]
    assert fifth["details"]["place"] == 5
    assert sorted(final["details"]["players"]) == sorted([leader, out_2nd, out_3rd])
    assert [row["chips"] for row in pause["details"]["leaders"]] == sorted(
        (row["chips"] for row in pause["details"]["leaders"]), reverse=True
    )
    assert len(pause["details"]["leaders"]) == 5
    assert sum(row["chips"] for row in pause["details"]["leaders"]) == 50_000
    assert showdown["details"]["shown"] == [{"player": played["shower"], "cards": SHOWN}]
    assert showdown["details"]["board"] == [card for street in BOARD for card in street]
    assert [w["player"] for w in showdown["details"]["won"]] in (
        [played["shower"]],
        [played["mucker"]],
    )
    assert level["details"]["level"] == 1
    assert body["updated"] == winner["at"]
    # The hand won without a showdown tells nothing: one showdown entry in all.
    assert kinds.count("showdown") == 1


def test_a_hole_card_never_shown_appears_in_no_page_feed_or_json(played: dict[str, Any]) -> None:
    tournament = played["tournament"]
    client = Client()
    answers = {
        "page": client.get(f"/t/{tournament.pk}/live/"),
        "polled": client.get(f"/t/{tournament.pk}/live/state/"),
        "atom": client.get(f"/t/{tournament.pk}/live.atom"),
        "json": client.get(f"/api/tournaments/{tournament.pk}/live/"),
    }
    for name, response in answers.items():
        assert response.status_code == 200, name
        raw = response.content
        for card in SHOWN:  # the scan can find a card: the shown ones are there
            assert card.encode() in raw, (name, card)
        for card in HIDDEN:
            assert card.encode() not in raw, (name, card)
            assert card.upper().encode() not in raw, (name, card)


def test_the_atom_feed_is_atom_1_0_with_an_id_title_and_updated_on_every_entry(
    played: dict[str, Any],
) -> None:
    tournament = played["tournament"]
    response = Client().get(f"/t/{tournament.pk}/live.atom")
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = ElementTree.fromstring(response.content)
    assert feed.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated", "author"):
        assert feed.find(f"{ATOM}{name}") is not None, name
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == 9
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    assert len(set(ids)) == len(ids)
    for entry in entries:
        for name in ("id", "title", "updated", "content"):
            assert entry.findtext(f"{ATOM}{name}"), name
        assert entry.findtext(f"{ATOM}updated", "").endswith("Z")
    assert entries[0].findtext(f"{ATOM}title") == f"{played['leader']} wins {tournament.name}"


def test_the_live_answers_poll_with_the_version_and_answer_304_until_something_changes(
    played: dict[str, Any],
) -> None:
    tournament = played["tournament"]
    client = Client()
    for url in (
        f"/t/{tournament.pk}/live/state/",
        f"/t/{tournament.pk}/live.atom",
        f"/api/tournaments/{tournament.pk}/live/",
    ):
        first = client.get(url)
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, url
    # A write to the event (its version moves on) answers the story again.
    tournament_bump(tournament.pk)
    url = f"/api/tournaments/{tournament.pk}/live/"
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200


def test_the_public_standings_page_links_the_live_updates(played: dict[str, Any]) -> None:
    tournament = played["tournament"]
    page = Client().get(f"/t/{tournament.pk}/").content.decode()
    assert f'href="/t/{tournament.pk}/live/"' in page


def test_the_live_updates_of_a_planned_tournament_are_not_found() -> None:
    tournament = seated_tournament(players=2, start=False)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.PLANNED)
    client = Client()
    for url in (
        f"/t/{tournament.pk}/live/",
        f"/t/{tournament.pk}/live.atom",
        f"/api/tournaments/{tournament.pk}/live/",
    ):
        assert client.get(url).status_code == 404, url


def test_a_rebuilt_story_reads_no_finished_hand_log_again(played: dict[str, Any]) -> None:
    """After a write the story is told again; the hands already told are not read again."""
    tournament = played["tournament"]
    first = tournament_story(tournament)
    tournament_bump(tournament.pk)
    tournament.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        again = tournament_story(tournament)
    assert again == first
    assert not [q["sql"] for q in queries.captured_queries if "dealer_handevent" in q["sql"]]
