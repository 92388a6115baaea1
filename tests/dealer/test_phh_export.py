"""Hand histories as PHH through the API: one hand, a table's session, a tournament.

Hands are played through the dealer API, exported each way, read back with our own reader and
replayed by the engine (and one by pokerkit) to the finishing stacks the database holds. Only a
completed hand has a history: a hand in progress gives none (no card of it leaks), a void hand
none, and a session leaves both out.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from config import request_time
from dealer.engine.phh import HandHistory, parse_phh, parse_phhs, verify
from dealer.hand_log import hand_setup
from dealer.histories import CHUNK, hand_phh, table_phh, tournament_phh
from dealer.models import Hand
from dealer.services import hand_start
from tests.dealer.test_api_hands import by_seat, play_out, start
from tests.dealer.test_cash_api import returner_table
from tests.dealer.test_cash_services import play_out as fold_out
from tests.engine.test_phh import pokerkit_stacks
from tests.factories import (
    DirectorFactory,
    HandClient,
    UserFactory,
    assign_dealer,
    seated_tournament,
)
from tournaments.models import Entry, Table, Tournament
from tournaments.services.entries import entry_set_chips

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
TOML = "application/x-toml; charset=utf-8"
BOARDS = [["2c", "7d", "9h"], ["Js"], ["3s"]]


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


def signed_in(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def tournament_with_tables(players: int) -> tuple[Tournament, list[tuple[Table, APIClient]]]:
    """A running tournament, each table with its dealer signed in on a client."""
    tournament = seated_tournament(players=players, name="Sunday Major")
    tables = []
    for table in Table.objects.filter(tournament=tournament).order_by("number"):
        tables.append((table, signed_in(assign_dealer(table))))
    return tournament, tables


def folded_round(client: APIClient, table: Table) -> Hand:
    """A hand where everyone folds to the big blind."""
    tablet = start(client, table)
    while tablet.state["phase"] != "complete":
        tablet.ok(kind="fold")
    return Hand.objects.get(pk=tablet.state["hand"])


def make_short(table: Table, chips: int = 1500) -> int:
    """Give the table's lowest seat a short stack; its seat."""
    entry = Entry.objects.filter(table=table).order_by("seat").first()
    assert entry is not None
    entry_set_chips(entry=entry, chips=chips, note="set up")
    return int(entry.seat or 0)


def showdown(
    client: APIClient, table: Table, *, short: int | None = None, short_wins: bool = True
) -> Hand:
    """A hand to the river, every hand shown. With `short` (a seat), that player goes all in
    and the others bet 2000 on the flop for a side pot; the short stack holds aces with
    `short_wins`, else 5-4 high. Without it, every player checks or calls."""
    tablet = start(client, table)
    seats = [p["seat"] for p in tablet.state["players"]]
    deep = iter(["K", "Q", "T", "8", "6", "5"])
    holes = {}
    for seat in seats:
        rank = next(deep) if seat != short else ""
        holes[seat] = [f"{rank}h", f"{rank}d"] if rank else ["Ah", "Ad"]
    if short is not None and not short_wins:
        holes[short] = ["4c", "5c"]

    def decide(state: dict[str, Any]) -> dict[str, Any] | None:
        legal = state["legal"]
        if short is None:
            return None
        if legal["actor"] == short and not by_seat(state)[short]["all_in"]:
            return {"kind": "all_in"}
        if state["street"] == "flop" and legal["is_bet"]:
            return {"kind": "bet", "amount": 2000}
        return None

    play_out(tablet, BOARDS, holes, decide)
    return Hand.objects.get(pk=tablet.state["hand"])


def database_stacks(hand: Hand, history: HandHistory) -> list[int]:
    """The hand's finishing stacks as the database holds them, in the history's (PHH) order."""
    hand.refresh_from_db()
    assert history.seats is not None
    return [hand.state["finishing_stacks"][str(seat)] for seat in history.seats]


def replayed_stacks(hand: Hand, history: HandHistory) -> list[int]:
    """Our engine's replay of the history, under the rules the hand was played by."""
    return list(verify(history, hand_setup(hand).rules).stacks)


def body(response: Any) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode("utf-8")
    return response.content.decode("utf-8")


# --- one hand --------------------------------------------------------------------------------


def test_a_completed_hand_exports_and_replays_to_the_stacks_the_database_holds():
    tournament, [(table, client)] = tournament_with_tables(4)
    hand = showdown(client, table, short=make_short(table))  # a main pot and a side pot

    response = client.get(f"/api/hands/{hand.pk}/phh/")

    assert response.status_code == 200
    assert response["Content-Type"] == TOML
    assert response["Content-Disposition"] == (
        f'attachment; filename="tournament-{tournament.pk}-table-1-hand-1.phh"'
    )
    history = parse_phh(body(response))
    assert replayed_stacks(hand, history) == database_stacks(hand, history)
    assert history.finishing_stacks == database_stacks(hand, history)
    assert history.seats == [row["seat"] for row in hand.seats]
    assert history.players == [row["name"] for row in hand.seats]
    assert history.variant == "NT"
    assert history.min_bet == 200
    assert sorted(history.blinds_or_straddles) == [0, 0, 100, 200]
    assert history.starting_stacks == [row["stack"] for row in hand.seats]
    assert history.extra["event"] == "Sunday Major"
    assert history.extra["table"] == 1
    assert history.extra["hand"] == 1
    assert history.extra["level"] == 1
    assert history.extra["seat_count"] == table.seat_count
    assert history.extra["_hand_id"] == hand.pk
    started = timezone.localtime(hand.created_at)
    assert (history.extra["year"], history.extra["month"], history.extra["day"]) == (
        started.year,
        started.month,
        started.day,
    )
    assert history.extra["time"] == started.time().replace(microsecond=0)
    assert history.extra["time_zone"] == settings.TIME_ZONE
    assert any(action.endswith(" sm AhAd") for action in history.actions)


def test_an_exported_hand_replays_in_pokerkit_to_the_same_stacks():
    _, [(table, client)] = tournament_with_tables(3)
    hand = showdown(client, table, short=make_short(table))
    text = body(client.get(f"/api/hands/{hand.pk}/phh/"))

    assert pokerkit_stacks(text) == [database_stacks(hand, parse_phh(text))]


def test_a_director_reads_the_history_as_a_dealer_does():
    _, [(table, client)] = tournament_with_tables(3)
    hand = folded_round(client, table)

    director = signed_in(DirectorFactory())

    assert body(director.get(f"/api/hands/{hand.pk}/phh/")) == hand_phh(hand)


def test_the_public_and_users_without_a_role_may_not_read_a_history():
    tournament, [(table, client)] = tournament_with_tables(3)
    hand = folded_round(client, table)
    paths = [f"/api/hands/{hand.pk}/phh/", f"/api/tables/{table.pk}/phh/"]
    paths.append(f"/api/tournaments/{tournament.pk}/phh/")

    for path in paths:
        anonymous = APIClient().get(path)
        nobody = signed_in(UserFactory()).get(path)
        assert anonymous.status_code == 403
        assert anonymous.json()["code"] == "not_authenticated"
        assert nobody.status_code == 403
        assert nobody.json()["code"] == "permission_denied"


def test_unknown_hand_table_and_tournament_are_404_in_json():
    client = signed_in(DirectorFactory())
    for path in ("/api/hands/999999/phh/", "/api/tables/999999/phh/"):
        response = client.get(path, HTTP_ACCEPT="application/x-toml")
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["code"] == "not_found"
    assert client.get("/api/tournaments/999999/phh/").status_code == 404


def test_a_hand_in_progress_is_409_and_gives_none_of_its_cards():
    _, [(table, client)] = tournament_with_tables(3)
    tablet = start(client, table)
    seat = tablet.state["players"][0]["seat"]
    tablet.ok(kind="deal_hole", seat=seat, cards=["Qs", "Jc"])
    tablet.ok(kind="fold")

    response = client.get(f"/api/hands/{tablet.state['hand']}/phh/")

    assert response.status_code == 409
    assert response.json()["code"] == "hand_in_progress"
    assert "Hand 1 at table 1 is still being played" in response.json()["detail"]
    assert "Qs" not in response.content.decode()
    session = body(client.get(f"/api/tables/{table.pk}/phh/"))
    assert "Qs" not in session
    assert "[1]" not in session
    assert "Left out" not in session  # not a hand of the session yet


def misdeal(tablet: HandClient) -> Hand:
    tablet.ok(kind="misdeal", reason="a card exposed on the deal")
    return Hand.objects.get(pk=tablet.state["hand"])


def test_a_void_hand_is_409_alone_and_left_out_of_the_session():
    _, [(table, client)] = tournament_with_tables(3)
    void = misdeal(start(client, table))
    redeal = folded_round(client, table)

    response = client.get(f"/api/hands/{void.pk}/phh/")

    assert void.status == Hand.Status.VOID
    assert response.status_code == 409
    assert response.json()["code"] == "hand_void"
    session = body(client.get(f"/api/tables/{table.pk}/phh/"))
    assert [h.extra["hand"] for h in parse_phhs(session)] == [redeal.number]
    assert "Left out" not in session  # dealt again: the redeal is the hand


def test_a_dead_hand_cannot_be_said_in_phh_alone_and_is_a_comment_in_the_session():
    _, [(table, client)] = tournament_with_tables(3)
    folded_round(client, table)
    tablet = start(client, table)
    tablet.ok(kind="kill", player=0, reason="held too many cards")
    while tablet.state["phase"] != "complete":
        tablet.ok(kind="fold")
    killed = Hand.objects.get(pk=tablet.state["hand"])
    folded_round(client, table)

    response = client.get(f"/api/hands/{killed.pk}/phh/")

    assert response.status_code == 409
    assert response.json()["code"] == "not_representable"
    assert response.json()["detail"].startswith("Hand 2 at table 1 cannot be written as PHH: ")
    text = body(client.get(f"/api/tables/{table.pk}/phh/"))
    assert "# Left out (not_representable): Hand 2 at table 1" in text
    assert [h.extra["hand"] for h in parse_phhs(text)] == [1, 3]


# --- a table's session -----------------------------------------------------------------------


def test_a_session_is_every_completed_hand_in_order_each_replaying_to_its_stacks():
    tournament, [(table, client)] = tournament_with_tables(4)
    short = make_short(table)
    hands = [showdown(client, table, short=short), folded_round(client, table)]
    hands.append(showdown(client, table))
    start(client, table)  # the hand in progress is left out

    response = client.get(f"/api/tables/{table.pk}/phh/")
    text = body(response)

    assert response.status_code == 200
    assert response["Content-Type"] == TOML
    assert response["Content-Disposition"] == (
        f'attachment; filename="tournament-{tournament.pk}-table-1.phhs"'
    )
    histories = parse_phhs(text)
    assert [h.extra["hand"] for h in histories] == [1, 2, 3]
    for hand, history in zip(hands, histories, strict=True):
        assert replayed_stacks(hand, history) == database_stacks(hand, history)
    assert pokerkit_stacks(text) == [
        database_stacks(h, s) for h, s in zip(hands, histories, strict=True)
    ]
    assert text == table_phh(table)


def test_since_and_until_pick_hands_by_number_both_included():
    tournament, [(table, client)] = tournament_with_tables(3)
    for _ in range(4):
        folded_round(client, table)

    response = client.get(f"/api/tables/{table.pk}/phh/", {"since": 2, "until": 3})
    only_since = parse_phhs(body(client.get(f"/api/tables/{table.pk}/phh/", {"since": 3})))

    assert [h.extra["hand"] for h in parse_phhs(body(response))] == [2, 3]
    assert response["Content-Disposition"] == (
        f'attachment; filename="tournament-{tournament.pk}-table-1-hands-2-3.phhs"'
    )
    assert [h.extra["hand"] for h in only_since] == [3, 4]


@pytest.mark.parametrize(
    ("query", "field"),
    [({"since": 3, "until": 2}, "until"), ({"since": 0}, "since"), ({"until": "x"}, "until")],
)
def test_a_bad_span_is_400_with_the_field(query, field):
    _, [(table, client)] = tournament_with_tables(3)

    response = client.get(f"/api/tables/{table.pk}/phh/", query)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert field in response.json()["errors"]


def test_a_cash_session_exports_and_a_hand_with_dead_posts_is_left_out():
    table = returner_table()  # seat 4 came back owing both blinds: posts 2 live + 1 dead
    played = list(Hand.objects.filter(table=table).order_by("number"))
    owed = fold_out(Hand.objects.get(pk=hand_start(table=table).pk))
    client = signed_in(DirectorFactory())

    response = client.get(f"/api/tables/{table.pk}/phh/")
    text = body(response)

    assert response["Content-Disposition"] == (
        f'attachment; filename="cash-table-{table.number}.phhs"'
    )
    histories = parse_phhs(text)
    assert [h.extra["hand"] for h in histories] == [hand.number for hand in played]
    for hand, history in zip(played, histories, strict=True):
        assert replayed_stacks(hand, history) == database_stacks(hand, history)
        assert "level" not in history.extra
    assert f"# Left out (not_representable): Hand {owed.number} at table" in text
    assert client.get(f"/api/hands/{owed.pk}/phh/").json()["code"] == "not_representable"


# --- a tournament ----------------------------------------------------------------------------


def test_a_tournament_is_every_table_in_table_order_and_replays_to_the_stacks() -> None:
    tournament, tables = tournament_with_tables(12)
    assert len(tables) == 2
    played: list[Hand] = []
    for table, client in reversed(tables):  # table 2 plays first: the file is in table order
        played += [showdown(client, table), folded_round(client, table)]
    director = signed_in(DirectorFactory())

    response = director.get(f"/api/tournaments/{tournament.pk}/phh/")

    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == TOML
    assert response["Content-Disposition"] == (
        f'attachment; filename="tournament-{tournament.pk}.phhs"'
    )
    histories = parse_phhs(body(response))
    assert [(h.extra["table"], h.extra["hand"]) for h in histories] == [
        (1, 1),
        (1, 2),
        (2, 1),
        (2, 2),
    ]
    by_id = {hand.pk: hand for hand in played}
    for history in histories:
        hand_id = history.extra["_hand_id"]
        assert isinstance(hand_id, int)
        hand = by_id[hand_id]
        assert replayed_stacks(hand, history) == database_stacks(hand, history)
    assert tournament_phh(tournament) == body(
        director.get(f"/api/tournaments/{tournament.pk}/phh/")
    )


def export_queries(client: APIClient, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        body(client.get(path))
    return len(captured)


def test_a_tournament_export_reads_in_the_same_queries_for_more_hands():
    tournament, [(table, client)] = tournament_with_tables(3)
    director = signed_in(DirectorFactory())
    path = f"/api/tournaments/{tournament.pk}/phh/"
    folded_round(client, table)
    few = export_queries(director, path)
    for _ in range(4):
        folded_round(client, table)

    assert export_queries(director, path) == few


def test_hands_whose_stored_state_is_not_trusted_are_replayed_from_their_logs_read_together():
    tournament, [(table, client)] = tournament_with_tables(3)
    director = signed_in(DirectorFactory())
    path = f"/api/tournaments/{tournament.pk}/phh/"
    for _ in range(3):
        showdown(client, table)
    stored = body(director.get(path))
    trusted = export_queries(director, path)

    Hand.objects.filter(table=table).update(engine_state=None)  # e.g. after an engine change

    assert body(director.get(path)) == stored
    assert export_queries(director, path) == trusted + 1  # the logs: one query per CHUNK hands
    assert CHUNK >= 3


def test_a_finished_players_hands_stay_in_the_export_after_the_bust():
    tournament, [(table, client)] = tournament_with_tables(3)
    short = make_short(table)
    hand = showdown(client, table, short=short, short_wins=False)
    busted = Entry.objects.select_related("player").get(
        tournament=tournament, status=Entry.Status.BUSTED
    )

    histories = parse_phhs(tournament_phh(tournament))

    assert busted.status == Entry.Status.BUSTED
    assert [h.extra["_hand_id"] for h in histories] == [hand.pk]
    assert histories[0].players is not None
    assert busted.player.name in histories[0].players
    assert 0 in (histories[0].finishing_stacks or [])


# --- the schema ------------------------------------------------------------------------------


def test_the_schema_lists_the_three_paths_as_toml_files_with_json_errors():
    response = APIClient().get(
        reverse("api-schema"), HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )
    paths = response.json()["paths"]

    for path in ("/api/hands/{id}/phh/", "/api/tables/{id}/phh/", "/api/tournaments/{id}/phh/"):
        get = paths[path]["get"]
        assert get["tags"] == ["histories"]
        assert set(get["responses"]["200"]["content"]) == {"application/x-toml"}
        assert set(get["responses"]["404"]["content"]) == {"application/json"}
    table_parameters = {p["name"] for p in paths["/api/tables/{id}/phh/"]["get"]["parameters"]}
    assert {"since", "until"} <= table_parameters
    assert "409" in paths["/api/hands/{id}/phh/"]["get"]["responses"]
