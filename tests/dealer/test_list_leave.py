"""A player leaves a waiting list from their phone (issue 27), with the code the phone has: the
page and the API through the one waitlist service; a called player's held seat goes to the next
player; a second leave, a code on no list or one that cannot be a code is refused in a
sentence (409, 404, 400), never a 500."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from dealer.cash.games import waitlist
from dealer.cash.games.selectors import cash_game_view
from dealer.cash.models import WaitingListEntry
from tests.dealer.test_cash_games import game_table, join, one_two, state
from tournaments.models import AuditEvent

pytestmark = pytest.mark.django_db
Status = WaitingListEntry.Status


def _listed(game: object) -> list[str]:
    return [e.player for e in cash_game_view(game).entries]  # type: ignore[arg-type]


def test_leaving_from_the_place_page_takes_the_player_off_the_floors_list() -> None:
    game = one_two()
    game_table(game, 4, players=9)
    ann, _bob = join(game, "Ann", "Bob")

    answer = Client().post(reverse("list-leave", args=[ann.code.lower()]))

    assert answer.status_code == 302
    assert answer["Location"] == reverse("list-place", args=[ann.code])
    assert _listed(game) == ["Bob"]
    assert state(ann)[0] == Status.REMOVED
    assert AuditEvent.objects.filter(action="cash_waitlist_leave").count() == 1
    page = Client().get(answer["Location"]).content.decode()
    assert "You are off the list." in page
    assert "Leave the list" not in page


def test_a_called_player_who_leaves_gives_the_held_seat_to_the_next() -> None:
    game = one_two()
    table = game_table(game, 4, players=8)
    ann, bob = join(game, "Ann", "Bob")
    waitlist.game_waitlist_call_next(game=game)
    assert state(ann) == (Status.CALLED, table.number, 9)

    answer = APIClient().post(f"/api/lists/{ann.code}/leave/")

    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == Status.REMOVED
    assert state(bob) == (Status.CALLED, table.number, 9)


def test_a_second_leave_says_the_player_is_off_the_list_already() -> None:
    game = one_two()
    game_table(game, 4, players=9)
    (ann,) = join(game, "Ann")
    assert APIClient().post(f"/api/lists/{ann.code}/leave/").status_code == 200

    api = APIClient().post(f"/api/lists/{ann.code}/leave/")
    page = Client().post(reverse("list-leave", args=[ann.code]))

    assert api.status_code == 409
    assert api.json()["code"] == "not_on_list"
    assert api.json()["detail"] == "You are off the list already."
    assert page.status_code == 409
    assert "You are off the list already." in page.content.decode()


def test_a_seated_player_cannot_leave_and_is_told_why() -> None:
    game = one_two()
    game_table(game, 4, players=9)
    (ann,) = join(game, "Ann")
    WaitingListEntry.objects.filter(pk=ann.pk).update(status=Status.SEATED)

    api = APIClient().post(f"/api/lists/{ann.code}/leave/")

    assert api.status_code == 409
    assert "seated" in api.json()["detail"]


@pytest.mark.parametrize(("code", "status"), [("NOSUCH", 404), ("not-a-code!", 400)])
def test_a_code_on_no_list_or_no_code_is_refused_without_a_500(code: str, status: int) -> None:
    one_two()

    api = APIClient().post(f"/api/lists/{code}/leave/")
    page = Client().post(reverse("list-leave", args=[code]))

    assert api.status_code == status
    assert page.status_code == status
    if status == 400:
        assert api.json()["code"] == "bad_code"
        assert "A list code is six letters and digits." in page.content.decode()


def test_the_service_refuses_what_cannot_be_a_code() -> None:
    from common.errors import FloorInvalid

    with pytest.raises(FloorInvalid, match="six letters and digits"):
        waitlist.game_waitlist_leave(code="a b")
