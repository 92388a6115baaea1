"""The dealer rotation through the services, the API and the pages: the shift list, the
schedule written, the push on the tablet (permissions follow, refused mid-hand), the board."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from common.errors import FloorConflict, FloorForbidden, FloorInvalid
from dealer.models import Hand
from dealer.rotation import services, staff
from dealer.rotation.selectors import push_due, rotation_board
from tests.factories import DealerFactory, DirectorFactory, make
from tournaments.models import DealerDown, DealerShift, Table
from tournaments.roles import may_deal

pytestmark = pytest.mark.django_db
SIX = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)
PIN = "4321"  # every dealer's here: the handover checks it (tests/dealer/test_staff.py)


def cash_tables(count: int) -> list[Table]:
    return [
        Table.objects.create(
            tournament=None, number=n, small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200
        )
        for n in range(1, count + 1)
    ]


def on_shift(count: int) -> list[Any]:
    dealers = [make(DealerFactory, username=f"dealer-{chr(65 + i)}") for i in range(count)]
    for dealer in dealers:
        staff.dealer_pin_set(user_id=dealer.pk, pin=PIN, at=SIX)
    for minute, dealer in enumerate(dealers):
        services.dealer_shift_start(dealer_id=dealer.pk, at=SIX - timedelta(minutes=10 - minute))
    return dealers


@pytest.fixture
def room() -> tuple[list[Table], list[Any]]:
    """Four cash tables, five dealers on shift, 20-minute downs and a break after four, the
    rotation started at six."""
    tables = cash_tables(4)
    dealers = on_shift(5)
    services.rotation_plan_set(down_minutes=20, downs_before_break=4, break_minutes=20)
    services.rotation_start(at=SIX)
    return tables, dealers


def test_the_start_writes_the_worked_example_downs(room) -> None:
    _tables, dealers = room
    names = {d.pk: d.username[-1] for d in dealers}
    first_two_pushes = DealerDown.objects.filter(starts_at__lt=SIX + timedelta(minutes=40))
    at_tables = [
        (f"{d.starts_at:%H:%M}", d.table.number, names[d.dealer_id])  # type: ignore[union-attr]
        for d in first_two_pushes.filter(table__isnull=False).order_by("starts_at", "table__number")
    ]
    assert at_tables == [
        ("18:00", 1, "A"), ("18:00", 2, "B"), ("18:00", 3, "C"), ("18:00", 4, "D"),
        ("18:20", 1, "E"), ("18:20", 2, "A"), ("18:20", 3, "B"), ("18:20", 4, "C"),
    ]  # fmt: skip
    # Eight hours of downs are written ahead, 24 pushes of four tables.
    assert DealerDown.objects.filter(table__isnull=False).count() == 24 * 4


def test_the_push_signs_the_incoming_dealer_in_and_permissions_follow(room) -> None:
    tables, (a, _b, _c, _d, _e) = room
    services.down_sign_in(table=tables[0], actor=a, pin=PIN, at=SIX + timedelta(minutes=1))
    assert may_deal(a, Table.objects.get(pk=tables[0].pk))

    twenty = SIX + timedelta(minutes=20, seconds=30)
    due = push_due(Table.objects.get(pk=tables[1].pk), twenty)
    assert due is not None
    assert due.dealer_id == a.pk
    down = services.down_sign_in(table=tables[1], actor=a, pin=PIN, at=twenty)

    assert down.signed_in_at == twenty
    first, second = Table.objects.get(pk=tables[0].pk), Table.objects.get(pk=tables[1].pk)
    assert second.dealer_id == a.pk
    # A deals table 2 now, and no longer table 1 (E signs in there).
    assert first.dealer_id is None
    assert may_deal(a, second)
    assert not may_deal(a, first)
    assert push_due(second, twenty) is None


def test_the_handover_is_refused_while_a_hand_is_dealt(room) -> None:
    tables, (a, *_) = room
    Hand.objects.create(table=tables[0], number=12, rules={}, stakes={}, seats=[], plan={})
    with pytest.raises(FloorConflict) as refused:
        services.down_sign_in(table=tables[0], actor=a, pin=PIN, at=SIX)
    assert refused.value.code == "hand_in_progress"
    assert "Hand 12 is still being dealt" in refused.value.detail
    assert Table.objects.get(pk=tables[0].pk).dealer_id is None


def test_only_the_incoming_dealer_the_tables_dealer_or_the_floor_sign_in(room) -> None:
    tables, (a, b, *_) = room
    with pytest.raises(FloorForbidden) as refused:
        services.down_sign_in(table=tables[0], actor=b, pin=PIN, at=SIX)
    assert refused.value.code == "not_your_push"
    services.down_sign_in(table=tables[0], actor=make(DirectorFactory), pin=PIN, at=SIX)
    with pytest.raises(FloorConflict) as again:
        services.down_sign_in(table=tables[0], actor=a, pin=PIN, at=SIX)
    assert again.value.code == "no_push_due"


def test_a_dealer_not_signed_in_five_minutes_after_the_push_is_late(room) -> None:
    tables, (_a, *_) = room
    on_time, late = (push_due(tables[0], SIX + timedelta(minutes=m)) for m in (4, 5))
    assert on_time is not None
    assert late is not None
    assert (on_time.late, late.late) == (False, True)
    row = rotation_board(at=SIX + timedelta(minutes=6)).tables[0]
    assert (row.due, row.late, row.next_dealer) == ("dealer-A", True, "dealer-E")


def test_the_board_shows_the_next_push_and_who_is_on_a_break(room) -> None:
    board = rotation_board(at=SIX + timedelta(minutes=25))
    assert board.next_push_at == SIX + timedelta(minutes=40)
    assert [(r.dealer, r.until) for r in board.breaks] == [
        ("dealer-D", SIX + timedelta(minutes=40))
    ]
    assert [r.next_dealer for r in board.tables] == ["dealer-D", "dealer-E", "dealer-A", "dealer-B"]


def test_a_dealer_leaving_the_shift_is_dropped_from_the_next_push(room) -> None:
    _tables, (_a, _b, c, _d, _e) = room
    services.dealer_shift_end(dealer_id=c.pk, at=SIX + timedelta(minutes=5))
    later = DealerDown.objects.filter(dealer=c, starts_at__gte=SIX + timedelta(minutes=20))
    assert not later.exists()
    # Four dealers left for four tables: each goes on from where they stand (A from table 1 to
    # table 2), no table waits until the first is due a break.
    push = {
        d.table.number: d.dealer.username  # type: ignore[union-attr]
        for d in DealerDown.objects.filter(
            starts_at=SIX + timedelta(minutes=20), table__isnull=False
        )
    }
    assert push[2] == "dealer-A"
    assert push[3] == "dealer-B"
    assert DealerShift.objects.get(dealer=c).ends_at == SIX + timedelta(minutes=5)


def test_the_last_dealer_leaving_stops_the_rotation_at_the_next_push(room) -> None:
    _tables, dealers = room
    for dealer in dealers:
        services.dealer_shift_end(dealer_id=dealer.pk, at=SIX + timedelta(minutes=5))
    assert not DealerDown.objects.filter(ends_at__gt=SIX + timedelta(minutes=20)).exists()
    assert rotation_board(at=SIX + timedelta(minutes=25)).next_push_at is None


def test_a_running_rotation_is_written_on_before_its_downs_run_out(room) -> None:
    """Eight hours are written at the start; the room runs longer. With more than two hours
    left nothing is written; with less, the schedule goes on from the next push, each dealer
    from where they stand, so the board never runs dry."""
    tables, dealers = room
    last = DealerDown.objects.order_by("-ends_at").first()
    assert last is not None
    assert last.ends_at == SIX + timedelta(hours=8)
    assert services.rotation_extend(at=SIX + timedelta(hours=5, minutes=30)) == 0
    assert DealerDown.objects.filter(table__isnull=False).count() == 24 * 4

    at = SIX + timedelta(hours=6, minutes=5)  # 1 h 55 left: due

    def push_at(start: datetime) -> dict[int | None, int]:
        rows = DealerDown.objects.filter(starts_at=start, table__isnull=False)
        return {d.table_id: d.dealer_id for d in rows}

    pushes_before = {n: push_at(SIX + timedelta(hours=6, minutes=20 * n)) for n in range(6)}
    written = services.rotation_extend(at=at)
    assert written > 0
    last = DealerDown.objects.order_by("-ends_at").first()
    assert last is not None
    assert last.ends_at >= SIX + timedelta(hours=6, minutes=20) + timedelta(hours=8)
    # The down in progress is kept, and the pushes already written come out the same: each
    # dealer goes on from where they stand (breaks included), the rotation's order unbroken.
    pushes_after = {n: push_at(SIX + timedelta(hours=6, minutes=20 * n)) for n in range(6)}
    assert pushes_after == pushes_before
    pushes = DealerDown.objects.filter(starts_at__gte=at, table__isnull=False)
    assert {d.starts_at for d in pushes} >= {
        SIX + timedelta(hours=6, minutes=20) + timedelta(minutes=20 * n) for n in range(24)
    }
    # Every table has a dealer at every push of the new hours, never one dealer at two tables.
    for start in {d.starts_at for d in pushes}:
        at_push = pushes.filter(starts_at=start)
        assert at_push.count() == len(tables)
        assert len({d.dealer_id for d in at_push}) == len(tables)
    assert services.rotation_extend(at=at) == 0  # written on: nothing due again
    assert {d.dealer_id for d in pushes} <= {d.pk for d in dealers}


def test_the_push_sign_in_writes_the_rotation_on_when_it_is_due(room) -> None:
    """The embedded mode has no beat: a sign-in at a push looks ahead too."""
    tables, _dealers = room
    at = SIX + timedelta(hours=6, minutes=20, seconds=30)
    down = DealerDown.objects.get(starts_at=SIX + timedelta(hours=6, minutes=20), table=tables[0])
    services.down_sign_in(table=tables[0], actor=None, pin=PIN, at=at)
    last = DealerDown.objects.order_by("-ends_at").first()
    assert last is not None
    assert last.ends_at > SIX + timedelta(hours=8)
    down.refresh_from_db()
    assert down.signed_in_at == at  # the down signed in is kept as it was


def test_a_stopped_rotation_is_not_started_again_by_the_look_ahead(room) -> None:
    _tables, dealers = room
    for dealer in dealers:
        services.dealer_shift_end(dealer_id=dealer.pk, at=SIX + timedelta(minutes=5))
    assert services.rotation_extend(at=SIX + timedelta(minutes=10)) == 0
    assert services.rotation_extend(at=SIX + timedelta(hours=7)) == 0
    assert not DealerDown.objects.filter(ends_at__gt=SIX + timedelta(minutes=20)).exists()


def test_the_plan_keeps_downs_between_20_and_30_minutes() -> None:
    with pytest.raises(FloorInvalid) as refused:
        services.rotation_plan_set(down_minutes=45, downs_before_break=3, break_minutes=15)
    assert refused.value.code == "bad_down"


# --- the API ---------------------------------------------------------------------------------


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> dict[str, datetime]:
    now = {"at": SIX}
    monkeypatch.setattr("config.request_time.now", lambda: now["at"])
    return now


def api_as(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_the_api_runs_the_rotation_from_the_shift_list_to_the_push(clock) -> None:
    tables = cash_tables(2)
    director = api_as(make(DirectorFactory))
    a, b = make(DealerFactory), make(DealerFactory)
    for dealer in (a, b):
        staff.dealer_pin_set(user_id=dealer.pk, pin=PIN, at=SIX)
    plan = {"down_minutes": 30, "downs_before_break": 3, "break_minutes": 15}
    assert director.put("/api/rotation/plan/", plan, format="json").status_code == 200
    assert director.post("/api/rotation/start/").json()["code"] == "no_dealers_on_shift"
    for dealer in (a, b):
        added = director.post("/api/rotation/shifts/", {"dealer": dealer.pk}, format="json")
        assert added.status_code == 201
    again = director.post("/api/rotation/shifts/", {"dealer": a.pk}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "already_on_shift")

    started = director.post("/api/rotation/start/")
    assert started.status_code == 200
    board = started.json()
    assert board["next_push_at"].startswith("2026-11-25T18:30")
    assert [r["due"] for r in board["tables"]] == [a.username, b.username]

    signed = api_as(a).post(f"/api/tables/{tables[0].pk}/sign-in/", {"pin": PIN})
    assert signed.status_code == 200
    assert signed.json()["dealer_id"] == a.pk
    refused = api_as(a).post(f"/api/tables/{tables[1].pk}/sign-in/", {"pin": PIN})
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_push")
    board = api_as(b).get("/api/rotation/").json()
    assert [r["dealing"] for r in board["tables"]] == [a.username, ""]

    Hand.objects.create(table=tables[1], number=3, rules={}, stakes={}, seats=[], plan={})
    mid_hand = api_as(b).post(f"/api/tables/{tables[1].pk}/sign-in/", {"pin": PIN})
    assert (mid_hand.status_code, mid_hand.json()["code"]) == (409, "hand_in_progress")

    off = director.post(f"/api/rotation/shifts/{b.pk}/end/")
    assert off.status_code == 200
    assert director.post(f"/api/rotation/shifts/{b.pk}/end/").status_code == 404


def test_the_api_refuses_a_bad_plan_and_dealers_writing_the_shift_list(clock) -> None:
    director, dealer = api_as(make(DirectorFactory)), make(DealerFactory)
    bad = director.put(
        "/api/rotation/plan/",
        {"down_minutes": 10, "downs_before_break": 3, "break_minutes": 15},
        format="json",
    )
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_down")
    by_dealer = api_as(dealer).post("/api/rotation/shifts/", {"dealer": dealer.pk}, format="json")
    assert by_dealer.status_code == 403
    assert api_as(dealer).get("/api/rotation/").status_code == 200
    assert APIClient().get("/api/rotation/").status_code in (401, 403)


# --- the pages -------------------------------------------------------------------------------


def test_the_board_page_and_the_tablet_show_the_push(clock, client) -> None:
    tables = cash_tables(1)
    director = make(DirectorFactory)
    dealer = make(DealerFactory, username="dana")
    staff.dealer_pin_set(user_id=dealer.pk, pin=PIN, at=SIX)
    client.force_login(director)
    client.post(reverse("rotation-shift-add"), {"dealer": dealer.pk})
    client.post(reverse("rotation-start"))
    page = client.get(reverse("floor-dealers")).content.decode()
    assert "Next push at" in page
    assert "dana" in page

    client.force_login(dealer)
    tablet = client.get(reverse("deal-table", args=[tables[0].pk])).content.decode()
    assert "Sign in: dana" in tablet
    client.post(reverse("deal-sign-in", args=[tables[0].pk]), {"pin": PIN})
    assert Table.objects.get(pk=tables[0].pk).dealer_id == dealer.pk
    tablet = client.get(reverse("deal-table", args=[tables[0].pk])).content.decode()
    assert "Sign in: dana" not in tablet
    assert client.get(reverse("floor-dealers")).status_code == 403
