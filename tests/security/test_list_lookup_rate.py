"""The list-code lookups are rate-limited per client (issue 23): the code form, the place page,
its poll and the API. Wrong codes are counted strictly (`LIST_LOOKUP_MISS_RATE`, 30 an hour):
past it a client gets 429 for every code, a right one included, so guessing stops. A code this
client has already looked up or joined with is counted apart and loosely (`LIST_LOOKUP_RATE`,
30 a minute per code): a phone polling its place every 10 s is never refused, whatever its
neighbours on the room's Wi-Fi type. Time is injected into the throttles, never slept."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from config.authentication import ClientThrottle
from dealer.cash.models import CashGame
from tests.dealer.test_cash_games import game_table, one_two

pytestmark = pytest.mark.django_db

REFUSAL = "Too many list codes looked up from this device."


class Clock:
    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def pass_(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The throttles' time, moved by the test (DRF's throttles read `timer`). The counts live
    in the cache, which outlives a test: each test looks up from addresses of its own."""
    found = Clock()
    monkeypatch.setattr(ClientThrottle, "timer", lambda self: found.now)
    return found


@pytest.fixture
def game() -> CashGame:
    made = one_two()
    game_table(made, 4, players=9)
    return made


def join(game: CashGame, name: str, address: str) -> str:
    answer = APIClient(REMOTE_ADDR=address).post(
        f"/api/games/{game.pk}/list/", {"player_name": name}, format="json"
    )
    assert answer.status_code == 201
    return str(answer.json()["code"])


def doors(code: str, address: str) -> dict[str, Any]:
    """Every way of looking a code up, from one client."""
    page, api = Client(REMOTE_ADDR=address), APIClient(REMOTE_ADDR=address)
    return {
        "form": page.get("/lists/", {"code": code}),
        "page": page.get(f"/lists/{code}/"),
        "poll": page.get(f"/lists/{code}/state/"),
        "api": api.get(f"/api/lists/{code}/"),
    }


def test_wrong_codes_past_the_miss_rate_are_refused_429_on_every_door(
    clock: Clock, game: CashGame
) -> None:
    code = join(game, "Ann", "10.7.0.9")  # someone else's code, right but never seen here
    guesser = APIClient(REMOTE_ADDR="10.7.0.1")
    misses = [guesser.get(f"/api/lists/ZZZZ{n:02d}/").status_code for n in range(30)]
    assert misses == [404] * 30

    refused = doors("ZZZZ99", "10.7.0.1")
    assert {door: answer.status_code for door, answer in refused.items()} == {
        "form": 429,
        "page": 429,
        "poll": 429,
        "api": 429,
    }
    right = doors(code, "10.7.0.1")  # a right code is refused as well: no guessing goes on
    assert {answer.status_code for answer in right.values()} == {429}
    assert right["api"].json()["code"] == "throttled"
    assert right["api"].json()["detail"].startswith(REFUSAL)
    for answer in (*refused.values(), *right.values()):
        assert int(answer["Retry-After"]) > 0
    assert REFUSAL in refused["page"].content.decode()
    assert REFUSAL in refused["poll"].content.decode()
    assert "Ann" not in "".join(a.content.decode() for a in right.values())

    # Another client is not concerned; and an hour later this one may look up again.
    assert doors(code, "10.7.0.2")["api"].status_code == 200
    clock.pass_(3601)
    assert doors(code, "10.7.0.1")["api"].status_code == 200


def test_the_page_and_its_poll_count_wrong_codes_as_the_api_does(
    clock: Clock, game: CashGame
) -> None:
    phone = Client(REMOTE_ADDR="10.7.1.1")
    pages = [phone.get(f"/lists/ZZZZ{n:02d}/").status_code for n in range(15)]
    polls = [phone.get(f"/lists/YYYY{n:02d}/state/").status_code for n in range(15)]
    assert pages + polls == [404] * 30
    assert phone.get("/lists/XXXXXX/").status_code == 429


def test_a_phone_polling_its_code_every_10_seconds_is_never_refused(
    clock: Clock, game: CashGame
) -> None:
    """Even while a neighbour behind the same address has used up the wrong codes' rate."""
    code = join(game, "Ann", "10.7.2.1")
    neighbour = APIClient(REMOTE_ADDR="10.7.2.1")
    for n in range(31):
        neighbour.get(f"/api/lists/ZZZZ{n:02d}/")
    assert neighbour.get(f"/api/lists/ZZZZ{99}/").status_code == 429

    phone, app = Client(REMOTE_ADDR="10.7.2.1"), APIClient(REMOTE_ADDR="10.7.2.1")
    assert phone.get(f"/lists/{code}/").status_code == 200
    answers = set()
    for tick in range(360):  # an hour
        clock.pass_(10)
        if tick % 2:
            answers.add(phone.get(f"/lists/{code}/state/").status_code)
        else:
            answers.add(app.get(f"/api/lists/{code}/").status_code)
    assert answers == {200}


def test_a_client_hammering_a_known_code_is_refused_past_the_lookup_rate(
    clock: Clock, game: CashGame
) -> None:
    code = join(game, "Ann", "10.7.3.1")
    app = APIClient(REMOTE_ADDR="10.7.3.1")
    answers = [app.get(f"/api/lists/{code}/").status_code for _ in range(31)]
    assert answers == [200] * 30 + [429]
    assert Client(REMOTE_ADDR="10.7.3.1").get(f"/lists/{code}/state/").status_code == 429
    clock.pass_(61)
    assert app.get(f"/api/lists/{code}/").status_code == 200


def test_a_code_first_looked_up_by_typing_it_is_then_polled_loosely(
    clock: Clock, game: CashGame
) -> None:
    """A phone that lost its page types its code in: from then on it is this phone's code."""
    code = join(game, "Ann", "10.7.4.9")
    phone = Client(REMOTE_ADDR="10.7.4.1")
    typed = phone.get("/lists/", {"code": code.lower()})
    assert typed.status_code == 302
    assert phone.get(typed["Location"]).status_code == 200
    for n in range(30):
        phone.get(f"/lists/ZZZZ{n:02d}/")
    assert phone.get("/lists/ZZZZ99/").status_code == 429
    assert phone.get(f"/lists/{code}/state/").status_code == 200
