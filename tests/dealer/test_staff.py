"""Staff accounts on the desk and the handover with the incoming dealer's PIN (issue 25): the
services, the API and the pages. Each bug of the issue is a test here: a dealer account made
only in the admin, a handover with no proof, a password typed on the shared tablet, and the
outgoing dealer starting a hand after the push."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password
from django.urls import reverse
from rest_framework.test import APIClient

from common.errors import FloorConflict, FloorForbidden, FloorInvalid
from common.roles import DEALER_GROUP, is_dealer, is_director
from dealer.models import DealerPin, Hand
from dealer.rotation import services, staff
from dealer.rotation.selectors import staff_list
from dealer.services import hand_start
from tests.dealer.test_cash_services import cash_table
from tests.factories import DealerFactory, DirectorFactory, make
from tournaments.models import DealerShift, Table
from tournaments.roles import may_deal

pytestmark = pytest.mark.django_db
NINE = datetime(2026, 11, 25, 21, 10, tzinfo=UTC)
PUSH = NINE + timedelta(minutes=20)  # 21:30, the second down
User = get_user_model()


def dealer_with_pin(username: str, name: str, pin: str) -> Any:
    return staff.staff_dealer_create(username=username, name=name, pin=pin, at=NINE)


@pytest.fixture
def evening() -> dict[str, Any]:
    """One cash table with four players, two dealers on shift (Ann, then Eve), 20-minute downs
    from 21:10: Ann signed in at 21:11; at 21:30 the push is due, Eve to table 1."""
    table = cash_table(number=1, name="1/2 NL")
    from dealer.cash.seats import services as cash

    for seat, name in enumerate(["Ana", "Bo", "Chloe", "Dmitri"], start=1):
        cash.cash_seat_take(table=table, seat=seat, player_name=name, buy_in=200)
    Table.objects.filter(pk=table.pk).update(button_seat=1)
    ann = dealer_with_pin("ann", "Ann", "1111")
    eve = dealer_with_pin("eve", "Eve", "2468")
    for minute, dealer in enumerate((ann, eve)):
        services.dealer_shift_start(dealer_id=dealer.pk, at=NINE - timedelta(minutes=5 - minute))
    services.rotation_plan_set(down_minutes=20, downs_before_break=4, break_minutes=20)
    services.rotation_start(at=NINE)
    services.down_sign_in(table=table, actor=ann, pin="1111", at=NINE + timedelta(minutes=1))
    return {"table": Table.objects.get(pk=table.pk), "ann": ann, "eve": eve}


# --- the accounts ------------------------------------------------------------------------------


def test_a_director_makes_a_dealer_with_a_hashed_pin() -> None:
    director = make(DirectorFactory)
    eve = staff.staff_dealer_create(username="eve", name="Eve", pin="2468", actor=director, at=NINE)
    assert is_dealer(User.objects.get(pk=eve.pk))
    assert not eve.is_staff
    assert eve.get_full_name() == "Eve"
    assert not eve.has_usable_password()  # a dealer signs in at the tablet with the PIN
    stored = DealerPin.objects.get(user=eve)
    assert "2468" not in stored.pin_hash
    assert check_password("2468", stored.pin_hash)
    assert not check_password("2469", stored.pin_hash)


def test_a_director_makes_a_floor_account() -> None:
    floor = staff.staff_floor_create(username="fran", name="Fran Ortiz", password="pit-boss-77")
    assert is_director(floor)
    assert floor.check_password("pit-boss-77")
    assert not DealerPin.objects.filter(user=floor).exists()


@pytest.mark.parametrize("pin", ["123", "1234567", "12a4", "١٢٣٤", "12 34", "", " 1234"])
def test_a_pin_is_four_to_six_ascii_digits(pin: str) -> None:
    with pytest.raises(FloorInvalid) as refused:
        dealer_with_pin("eve", "Eve", pin)
    assert refused.value.code == "bad_pin"
    assert "4 to 6 digits" in refused.value.detail
    assert not User.objects.filter(username="eve").exists()


def test_a_username_taken_is_refused_whatever_its_case() -> None:
    dealer_with_pin("eve", "Eve", "2468")
    with pytest.raises(FloorConflict) as refused:
        dealer_with_pin("EVE", "Eve again", "1357")
    assert refused.value.code == "username_taken"
    assert refused.value.detail == "There is already an account called EVE: pick another username."
    with pytest.raises(FloorInvalid) as bad:
        dealer_with_pin("eve smith", "Eve", "1357")
    assert bad.value.code == "bad_username"


def test_a_floor_password_must_pass_the_password_rules() -> None:
    with pytest.raises(FloorInvalid) as refused:
        staff.staff_floor_create(username="fran", name="Fran", password="1234")
    assert refused.value.code == "bad_password"
    assert not User.objects.filter(username="fran").exists()


def test_a_new_pin_replaces_the_old_one_and_unlocks() -> None:
    eve = dealer_with_pin("eve", "Eve", "2468")
    DealerPin.objects.filter(user=eve).update(failures=3, locked_until=NINE + timedelta(minutes=5))
    staff.dealer_pin_set(user_id=eve.pk, pin="97531", at=NINE)
    stored = DealerPin.objects.get(user=eve)
    assert check_password("97531", stored.pin_hash)
    assert (stored.failures, stored.locked_until) == (0, None)
    floor = make(DirectorFactory)
    with pytest.raises(FloorInvalid) as refused:
        staff.dealer_pin_set(user_id=floor.pk, pin="1234", at=NINE)
    assert refused.value.code == "not_a_dealer"


def test_a_deactivated_dealer_loses_the_tablets_and_the_shift_at_once(evening) -> None:
    table, ann = evening["table"], evening["ann"]
    director = make(DirectorFactory)
    assert may_deal(ann, table)
    staff.staff_deactivate(user_id=ann.pk, actor=director, at=NINE + timedelta(minutes=5))
    ann = User.objects.get(pk=ann.pk)
    assert not ann.is_active
    assert Table.objects.get(pk=table.pk).dealer_id is None
    assert not may_deal(ann, Table.objects.get(pk=table.pk))
    assert DealerShift.objects.get(dealer=ann).ends_at == NINE + timedelta(minutes=5)
    with pytest.raises(FloorConflict) as own:
        staff.staff_deactivate(user_id=director.pk, actor=director, at=NINE)
    assert own.value.code == "own_account"


def test_the_staff_list_shows_dealers_and_floor_accounts_never_a_pin() -> None:
    dealer_with_pin("eve", "Eve", "2468")
    staff.staff_floor_create(username="fran", name="Fran", password="pit-boss-77")
    make(DealerFactory, username="zed")
    User.objects.create_user("player-account", password="x")
    rows = {row.username: row for row in staff_list()}
    assert set(rows) == {"eve", "fran", "zed"}
    assert (rows["eve"].role, rows["eve"].has_pin, rows["eve"].name) == ("dealer", True, "Eve")
    assert (rows["fran"].role, rows["zed"].has_pin) == ("floor", False)
    assert "2468" not in repr(rows)


# --- the handover --------------------------------------------------------------------------------


def test_the_handover_needs_the_incoming_dealers_pin(evening) -> None:
    table, ann, eve = evening["table"], evening["ann"], evening["eve"]
    with pytest.raises(FloorForbidden) as refused:
        services.down_sign_in(table=table, actor=ann, pin="1111", at=PUSH)
    assert refused.value.code == "wrong_pin"
    assert refused.value.detail == "That PIN is not Eve's."
    assert Table.objects.get(pk=table.pk).dealer_id == ann.pk

    down = services.down_sign_in(table=table, actor=ann, pin="2468", at=PUSH)
    assert down.dealer_id == eve.pk
    assert Table.objects.get(pk=table.pk).dealer_id == eve.pk


def test_five_wrong_pins_in_a_row_lock_pin_sign_in_for_five_minutes(evening) -> None:
    table, ann, eve = evening["table"], evening["ann"], evening["eve"]
    for n in range(4):
        with pytest.raises(FloorForbidden):
            services.down_sign_in(
                table=table, actor=ann, pin="0000", at=PUSH + timedelta(seconds=n)
            )
    with pytest.raises(FloorForbidden) as fifth:
        services.down_sign_in(table=table, actor=ann, pin="0000", at=PUSH + timedelta(seconds=5))
    assert fifth.value.code == "wrong_pin"
    assert "locked for 5 minutes" in fifth.value.detail
    # Locked: even the right PIN is refused, with the time it opens again.
    with pytest.raises(FloorConflict) as locked:
        services.down_sign_in(table=table, actor=ann, pin="2468", at=PUSH + timedelta(minutes=4))
    assert locked.value.code == "pin_locked"
    assert "21:35" in locked.value.detail
    assert Table.objects.get(pk=table.pk).dealer_id == ann.pk
    services.down_sign_in(
        table=table, actor=ann, pin="2468", at=PUSH + timedelta(minutes=5, seconds=6)
    )
    assert Table.objects.get(pk=table.pk).dealer_id == eve.pk
    assert DealerPin.objects.get(user=eve).failures == 0


def test_a_right_pin_after_wrong_ones_starts_the_count_again(evening) -> None:
    table, ann, eve = evening["table"], evening["ann"], evening["eve"]
    Hand.objects.create(table=table, number=9, rules={}, stakes={}, seats=[], plan={})
    with pytest.raises(FloorConflict) as dealing:  # mid-hand, no PIN is even looked at
        services.down_sign_in(table=table, actor=ann, pin="0000", at=PUSH)
    assert dealing.value.code == "hand_in_progress"
    Hand.objects.filter(table=table).update(status=Hand.Status.COMPLETE)
    for _ in range(4):
        with pytest.raises(FloorForbidden):
            services.down_sign_in(table=table, actor=ann, pin="0000", at=PUSH)
    assert DealerPin.objects.get(user=eve).failures == 4
    services.down_sign_in(table=table, actor=ann, pin="2468", at=PUSH)
    assert DealerPin.objects.get(user=eve).failures == 0


def test_a_dealer_without_a_pin_is_told_to_ask_the_floor(evening) -> None:
    table, ann, eve = evening["table"], evening["ann"], evening["eve"]
    DealerPin.objects.filter(user=eve).delete()
    with pytest.raises(FloorConflict) as refused:
        services.down_sign_in(table=table, actor=ann, pin="2468", at=PUSH)
    assert refused.value.code == "no_pin"


# --- after the push ------------------------------------------------------------------------------


def test_the_outgoing_dealer_cannot_start_a_hand_after_the_push(evening) -> None:
    table, ann = evening["table"], evening["ann"]
    before = hand_start(table=table, actor=ann, now=PUSH - timedelta(minutes=2))
    Hand.objects.filter(pk=before.pk).update(status=Hand.Status.COMPLETE)
    with pytest.raises(FloorConflict) as refused:
        hand_start(table=table, actor=ann, now=PUSH)
    assert refused.value.code == "push_due"
    assert refused.value.detail == "Eve deals this table from 21:30: hand the table over first."
    hand = hand_start(table=table, actor=make(DirectorFactory), now=PUSH)  # the floor may
    assert hand.number == 2


# --- the API -------------------------------------------------------------------------------------


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> dict[str, datetime]:
    now = {"at": NINE}
    monkeypatch.setattr("config.request_time.now", lambda: now["at"])
    return now


def api_as(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_the_api_makes_and_keeps_staff_accounts(clock) -> None:
    desk = api_as(make(DirectorFactory))
    made = desk.post(
        "/api/staff/", {"role": "dealer", "username": "eve", "name": "Eve", "pin": "2468"}
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["username"], body["role"], body["has_pin"], body["is_active"]) == (
        "eve", "dealer", True, True,
    )  # fmt: skip
    assert "pin" not in body
    assert "2468" not in made.content.decode()
    again = desk.post(
        "/api/staff/", {"role": "dealer", "username": "eve", "name": "E", "pin": "1357"}
    )
    assert (again.status_code, again.json()["code"]) == (409, "username_taken")
    bad = desk.post("/api/staff/", {"role": "dealer", "username": "ed", "name": "Ed", "pin": "12"})
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_pin")
    floor = desk.post(
        "/api/staff/",
        {"role": "floor", "username": "fran", "name": "Fran", "password": "pit-boss-77"},
    )
    assert floor.status_code == 201
    assert "password" not in floor.json()

    listed = desk.get("/api/staff/").json()
    assert {"eve", "fran"} <= {row["username"] for row in listed}
    assert "pin_hash" not in str(listed)

    eve = body["id"]
    pin = desk.post(f"/api/staff/{eve}/pin/", {"pin": "97531"})
    assert pin.status_code == 200
    assert check_password("97531", DealerPin.objects.get(user_id=eve).pin_hash)
    assert desk.post(f"/api/staff/{eve}/pin/", {"pin": "x"}).json()["code"] == "bad_pin"
    assert desk.post("/api/staff/999999/pin/", {"pin": "1234"}).status_code == 404
    gone = desk.post(f"/api/staff/{eve}/deactivate/")
    assert (gone.status_code, gone.json()["is_active"]) == (200, False)


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"role": "boss", "username": "x"},
        {"role": "dealer", "username": "a\x00b", "name": "A", "pin": "1234"},
        {"role": "dealer", "username": "x" * 5000, "name": "A", "pin": "1234"},
        {"role": "dealer", "username": "ok", "name": "A" * 5000, "pin": "1234"},
        {"role": "dealer", "username": "ok", "name": "A", "pin": "9" * 5000},
        {"role": "floor", "username": "ok", "name": "A"},
        {"role": "floor", "username": "ok", "name": "A", "password": "x" * 10_000},
    ],
)
def test_the_api_refuses_bad_staff_bodies_without_a_500(clock, body: dict[str, Any]) -> None:
    answer = api_as(make(DirectorFactory)).post("/api/staff/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert "code" in answer.json()


def test_staff_accounts_are_for_directors_only(clock) -> None:
    dealer = make(DealerFactory)
    for client in (api_as(dealer), APIClient()):
        assert client.get("/api/staff/").status_code in (401, 403)
        made = client.post("/api/staff/", {"role": "dealer", "username": "x", "pin": "1234"})
        assert made.status_code in (401, 403)
        assert client.post(f"/api/staff/{dealer.pk}/deactivate/").status_code in (401, 403)
    assert User.objects.get(pk=dealer.pk).is_active
    page = APIClient()
    page.force_login(dealer)
    assert page.get(reverse("staff")).status_code == 403


def test_the_api_handover_takes_the_pin(evening, clock) -> None:
    table, ann, eve = evening["table"], evening["ann"], evening["eve"]
    clock["at"] = PUSH
    tablet = api_as(ann)
    start = tablet.post(f"/api/tables/{table.pk}/hands/", {"client_id": "s1"}, format="json")
    assert (start.status_code, start.json()["code"]) == (409, "push_due")
    wrong = tablet.post(f"/api/tables/{table.pk}/sign-in/", {"pin": "1111"}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (403, "wrong_pin")
    missing = tablet.post(f"/api/tables/{table.pk}/sign-in/", {}, format="json")
    assert missing.status_code == 400
    right = tablet.post(f"/api/tables/{table.pk}/sign-in/", {"pin": "2468"}, format="json")
    assert right.status_code == 200
    assert right.json()["dealer_id"] == eve.pk
    # The tablet's session is Eve's now: Ann's ended on it.
    assert int(tablet.session["_auth_user_id"]) == eve.pk


# --- the pages -----------------------------------------------------------------------------------


def test_the_staff_page_makes_a_dealer_sets_a_pin_and_deactivates(client) -> None:
    client.force_login(make(DirectorFactory))
    assert 'href="/staff/"' in client.get(reverse("floor-dealers")).content.decode()
    made = client.post(
        reverse("staff-create"), {"role": "dealer", "username": "eve", "name": "Eve", "pin": "2468"}
    )
    assert made.status_code == 302
    eve = User.objects.get(username="eve")
    assert eve.groups.filter(name=DEALER_GROUP).exists()
    page = client.get(reverse("staff")).content.decode()
    assert "Eve" in page
    assert "2468" not in page
    refused = client.post(
        reverse("staff-create"),
        {"role": "dealer", "username": "eve", "name": "E", "pin": "1"},
        follow=True,
    )
    text = refused.content.decode()
    assert "PIN is 4 to 6 digits" in text or "There is already an account called eve" in text
    client.post(reverse("staff-pin", args=[eve.pk]), {"pin": "13579"})
    assert check_password("13579", DealerPin.objects.get(user=eve).pin_hash)
    client.post(reverse("staff-deactivate", args=[eve.pk]))
    assert not User.objects.get(pk=eve.pk).is_active


def test_the_tablet_asks_the_incoming_dealers_pin_and_becomes_theirs(
    evening, clock, client
) -> None:
    table, ann, eve = evening["table"], evening["ann"], evening["eve"]
    clock["at"] = PUSH
    client.force_login(ann)
    tablet = client.get(reverse("deal-table", args=[table.pk])).content.decode()
    assert "Eve deals this table from 21:30" in tablet
    assert 'name="pin"' in tablet
    assert "Eve deals this table from 21:30: hand the table over first." in tablet  # no start
    started = client.post(reverse("deal-start", args=[table.pk]), {"last_hand": 0}, follow=True)
    assert "hand the table over first" in started.content.decode()
    assert not Hand.objects.filter(table=table).exists()

    wrong = client.post(reverse("deal-sign-in", args=[table.pk]), {"pin": "1111"}, follow=True)
    assert "That PIN is not Eve" in wrong.content.decode()
    assert int(client.session["_auth_user_id"]) == ann.pk
    client.post(reverse("deal-sign-in", args=[table.pk]), {"pin": "2468"})
    assert int(client.session["_auth_user_id"]) == eve.pk
    assert Table.objects.get(pk=table.pk).dealer_id == eve.pk
    tablet = client.get(reverse("deal-table", args=[table.pk])).content.decode()
    assert 'name="pin"' not in tablet
    assert "Start next hand" in tablet
