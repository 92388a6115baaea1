"""Players' privacy (issue 23): a player exists publicly (`/p/<id>/`, `GET
/api/players/{id}/results/`) only with a result the public may see, an entry in a tournament
that is not planned. Someone who only joined a cash waiting list, or only entered an event still
planned, answers exactly as an id nobody has. Directors see every player."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.test import APIClient

from dealer.cash.games.services import cash_game_create
from dealer.cash.games.waitlist import game_waitlist_join
from dealer.cash.models import CashGame, WaitingListEntry
from tests.dealer.test_cash_games import game_table
from tests.factories import DealerFactory, DirectorFactory, EntryFactory, TournamentFactory, make
from tournaments.models import Entry, Player, Tournament
from tournaments.services.players import player_get_or_create

pytestmark = pytest.mark.django_db

MISSING = 999_999


@pytest.fixture
def game() -> CashGame:
    return cash_game_create(name="1/2 NL", small_blind=1, big_blind=2, hold_seconds=180)


@pytest.fixture
def joiner(game: CashGame) -> Player:
    """Someone who only put their name on a cash game's list."""
    return game_waitlist_join(game=game, player_name="Paula Reyes").player


def _played(name: str, status: str) -> Player:
    player = player_get_or_create(name=name)
    event = make(TournamentFactory, name=f"Event of {name}", status=status)
    make(EntryFactory, tournament=event, player=player, finishing_place=1, prize=Decimal("300"))
    return player


def _answers(client: Client | APIClient, pk: int) -> list[tuple[int, bytes]]:
    page = client.get(f"/p/{pk}/")
    api = client.get(f"/api/players/{pk}/results/")
    return [(page.status_code, page.content), (api.status_code, api.content)]


def _signed_in(factory: type) -> APIClient:
    client = APIClient()
    client.force_login(make(factory))
    return client


@pytest.mark.parametrize("who", ["anonymous", "dealer"])
def test_a_cash_list_joiner_answers_as_a_missing_player(who: str, joiner: Player) -> None:
    client = APIClient() if who == "anonymous" else _signed_in(DealerFactory)

    joined, missing = _answers(client, joiner.pk), _answers(client, MISSING)

    assert [status for status, _ in joined] == [404, 404]
    assert joined == missing  # the same status and the same body, byte for byte
    assert b"Paula Reyes" not in b"".join(body for _, body in joined)


def test_an_entry_only_in_a_planned_event_is_not_a_public_result() -> None:
    planned = _played("Ann Lee", Tournament.Status.PLANNED)
    unregistered = _played("Bob Kay", Tournament.Status.FINISHED)
    Entry.objects.filter(player=unregistered).update(status=Entry.Status.UNREGISTERED)
    client = APIClient()

    assert _answers(client, planned.pk) == _answers(client, MISSING)
    assert _answers(client, unregistered.pk) == _answers(client, MISSING)


@pytest.mark.parametrize(
    "status", [Tournament.Status.REGISTERING, Tournament.Status.RUNNING, Tournament.Status.FINISHED]
)
def test_a_player_of_an_event_the_public_sees_has_a_public_page(status: str) -> None:
    player = _played("Cy Young", status)

    answers = _answers(APIClient(), player.pk)

    assert [code for code, _ in answers] == [200, 200]
    assert all(b"Cy Young" in body for _, body in answers)


def test_a_director_still_sees_every_player(joiner: Player) -> None:
    director = _signed_in(DirectorFactory)

    assert [code for code, _ in _answers(director, joiner.pk)] == [200, 200]
    assert director.get(f"/api/players/{joiner.pk}/results/").json()["name"] == "Paula Reyes"
    assert [code for code, _ in _answers(director, MISSING)] == [404, 404]


# --- joining a list from a phone: a name is never checked in public -------------------------


def _public_join(game: CashGame, name: str, address: str) -> tuple[int, dict[str, object]]:
    answer = APIClient(REMOTE_ADDR=address).post(
        f"/api/games/{game.pk}/list/", {"player_name": name}, format="json"
    )
    return answer.status_code, answer.json()


def _shape(body: dict[str, object]) -> dict[str, object]:
    """What a join answers, but for what differs between any two joins (code, name, place)."""
    return {k: v for k, v in body.items() if k not in ("code", "player", "place")}


def test_the_join_api_answers_a_seated_or_waiting_name_as_a_new_one(game: CashGame) -> None:
    game_table(game, 4, players=2)  # P4-1 and P4-2 play
    game_waitlist_join(game=game, player_name="Ann")

    new = _public_join(game, "Zed", "10.8.0.1")
    seated = _public_join(game, "P4-1", "10.8.0.2")
    waiting = _public_join(game, "ann", "10.8.0.3")

    assert [status for status, _ in (new, seated, waiting)] == [201, 201, 201]
    assert _shape(seated[1]) == _shape(new[1]) | {"waiting": 3}
    assert _shape(waiting[1]) == _shape(new[1]) | {"waiting": 4}
    assert (new[1]["place"], seated[1]["place"], waiting[1]["place"]) == (2, 3, 4)
    assert seated[1]["status"] == waiting[1]["status"] == "waiting"
    codes = set(WaitingListEntry.objects.filter(player__name="Ann").values_list("code", flat=True))
    assert len(codes) == 2  # a code of its own: the first Ann's is never handed out
    assert waiting[1]["code"] in codes


def test_the_join_page_answers_a_seated_or_waiting_name_as_a_new_one(game: CashGame) -> None:
    game_table(game, 4, players=2)
    game_waitlist_join(game=game, player_name="Ann")

    for name in ("Zed", "P4-1", "ANN"):
        page = Client().post(f"/games/{game.pk}/join/", {"player_name": name})
        assert page.status_code == 302
        entry = WaitingListEntry.objects.filter(player__name__iexact=name).latest("pk")
        assert page["Location"] == f"/lists/{entry.code}/"
        assert "already" not in Client().get(page["Location"]).content.decode()


def test_the_desk_is_still_told_who_waits_or_plays(game: CashGame) -> None:
    game_table(game, 4, players=2)
    game_waitlist_join(game=game, player_name="Ann")
    desk = _signed_in(DirectorFactory)

    for name, refusal in (("ann", "already_waiting"), ("P4-1", "already_seated")):
        answer = desk.post(f"/api/cash-games/{game.pk}/list/", {"player_name": name}, format="json")
        assert (answer.status_code, answer.json()["code"]) == (409, refusal)


def test_the_desk_sees_a_phone_join_of_a_seated_or_waiting_player_marked(game: CashGame) -> None:
    game_table(game, 4, players=2)
    game_waitlist_join(game=game, player_name="Ann")
    _public_join(game, "P4-1", "10.8.1.1")
    _public_join(game, "Ann", "10.8.1.2")
    _public_join(game, "Zed", "10.8.1.3")
    desk = _signed_in(DirectorFactory)

    entries = desk.get(f"/api/cash-games/{game.pk}/").json()["entries"]
    page = desk.get(f"/cash/games/{game.pk}/").content.decode()

    marks = [(e["player"], e["seated_at"], e["also_waiting"]) for e in entries]
    assert marks == [
        ("Ann", None, True),
        ("P4-1", 4, False),
        ("Ann", None, True),
        ("Zed", None, False),
    ]
    assert "plays at table 4" in page
    assert "on the list twice" in page


def test_a_phone_is_answered_the_name_as_it_typed_it_never_the_rooms_spelling(
    game: CashGame,
) -> None:
    """A name typed in other capitals than the room's record of it would come back corrected:
    that told a stranger the room knows this person."""
    game_waitlist_join(game=game, player_name="Paula Reyes")
    _, known = _public_join(game, "paula  reyes", "10.8.2.1")
    _, new = _public_join(game, "nora quinn", "10.8.2.2")

    assert (known["player"], new["player"]) == ("paula reyes", "nora quinn")
    place = Client().get(f"/lists/{known['code']}/").content.decode()
    assert "paula reyes" in place
    assert "Paula Reyes" not in place
    desk = _signed_in(DirectorFactory).get(f"/api/cash-games/{game.pk}/").json()
    assert [e["player"] for e in desk["entries"]] == ["Paula Reyes", "Paula Reyes", "nora quinn"]


def test_a_phone_cannot_join_by_player_number(game: CashGame) -> None:
    """At the desk "#1042" is the card holder; from a phone it would tell their name, or
    whether the number exists."""
    carded = player_get_or_create(name="Card Holder")
    Player.objects.filter(pk=carded.pk).update(number="1042")

    answers = [_public_join(game, "#1042", "10.8.3.1"), _public_join(game, "#9999", "10.8.3.2")]

    assert [status for status, _ in answers] == [400, 400]
    assert answers[0][1] == answers[1][1]
    assert "Card Holder" not in str(answers[0][1])
    assert not WaitingListEntry.objects.filter(game=game).exists()
