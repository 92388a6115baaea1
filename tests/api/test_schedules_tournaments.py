"""Blind schedules and tournaments through the API: create, read, edit, status changes."""

from datetime import UTC, datetime

import pytest

from config import request_time
from dealer.services import hand_start
from tests.factories import (
    BlindScheduleFactory,
    TournamentFactory,
    level_rows,
    seated_tournament,
)
from tournaments.models import AuditEvent, Entry, Table, Tournament
from tournaments.services.entries import entry_set_chips

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


@pytest.mark.django_db
def test_create_schedule_is_201_with_its_levels_in_order(director):
    response = director.post(
        "/api/schedules/", {"name": "Turbo", "levels": level_rows()}, format="json"
    )

    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "Turbo"
    assert [lv["order"] for lv in body["levels"]] == [0, 1, 2, 3, 4]
    assert body["levels"][2] == {
        "order": 2,
        "small_blind": 0,
        "big_blind": 0,
        "ante": 0,
        "bb_ante": False,
        "smallest_chip": 1,  # issue 26: the level's smallest chip, 1 when not given
        "duration": 600,
        "is_break": True,
        "note": "",
    }
    assert AuditEvent.objects.filter(action="schedule_create").count() == 1


@pytest.mark.django_db
def test_duplicate_schedule_name_is_409(director):
    BlindScheduleFactory(name="Turbo")
    response = director.post(
        "/api/schedules/", {"name": "Turbo", "levels": level_rows()}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["code"] == "duplicate_schedule"


@pytest.mark.django_db
def test_empty_schedule_is_400_empty_schedule(director):
    response = director.post("/api/schedules/", {"name": "None", "levels": []}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "empty_schedule"


@pytest.mark.django_db
def test_schedules_list_and_retrieve(director):
    schedule = BlindScheduleFactory(name="B")
    BlindScheduleFactory(name="A", levels=[(50, 100, 0, 900)])

    listed = director.get("/api/schedules/").json()
    one = director.get(f"/api/schedules/{schedule.pk}/").json()

    assert [s["name"] for s in listed] == ["A", "B"]
    assert len(listed[0]["levels"]) == 1
    assert one["id"] == schedule.pk
    assert len(one["levels"]) == 5


@pytest.mark.django_db
def test_replace_levels_changes_the_template_but_not_its_tournaments(director):
    schedule = BlindScheduleFactory()
    created = director.post(
        "/api/tournaments/", {"schedule": schedule.pk, "name": "Copy"}, format="json"
    ).json()

    response = director.put(
        f"/api/schedules/{schedule.pk}/levels/",
        {"levels": level_rows([(25, 50, 0, 600), (50, 100, 0, 600)])},
        format="json",
    )

    assert response.status_code == 200
    assert [lv["big_blind"] for lv in response.json()["levels"]] == [50, 100]
    assert len(director.get(f"/api/tournaments/{created['id']}/").json()["levels"]) == 5


@pytest.mark.django_db
def test_create_tournament_copies_the_levels_and_keeps_defaults(director):
    schedule = BlindScheduleFactory()
    response = director.post(
        "/api/tournaments/",
        {
            "schedule": schedule.pk,
            "name": "Main Event",
            "buy_in": "1000",
            "structure": "pot_limit",
            "payout_percentages": ["33.334", "33.333", "33.333"],
            "rule_overrides": {"button_mode": "dead"},
        },
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "planned"
    assert body["buy_in"] == "1000.00"
    assert body["structure"] == "pot_limit"
    assert body["starting_stack"] == 10000
    assert body["payout_percentages"] == [33.334, 33.333, 33.333]
    assert body["registration_open"] is False
    assert len(body["levels"]) == 5
    assert Tournament.objects.get().payout_percentages == [33.334, 33.333, 33.333]


@pytest.mark.django_db
def test_tournament_from_an_empty_schedule_is_409_empty_schedule(director):
    schedule = BlindScheduleFactory(levels=[])
    response = director.post(
        "/api/tournaments/", {"schedule": schedule.pk, "name": "X"}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["code"] == "empty_schedule"


@pytest.mark.django_db
def test_update_settings_changes_only_what_is_sent(director):
    tournament = TournamentFactory(name="Old", buy_in=100)
    response = director.patch(
        f"/api/tournaments/{tournament.pk}/",
        {"name": "New", "guarantee": "5000", "icm_enabled": False},
        format="json",
    )

    assert response.status_code == 200
    body = response.json()
    assert (body["name"], body["guarantee"], body["icm_enabled"]) == ("New", "5000.00", False)
    assert body["buy_in"] == "100.00"


@pytest.mark.django_db
def test_structure_cannot_change_once_started_409(director):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    response = director.patch(
        f"/api/tournaments/{tournament.pk}/", {"structure": "pot_limit"}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["code"] == "tournament_started"


@pytest.mark.django_db
def test_open_registration_then_finish(director):
    tournament = TournamentFactory(status=Tournament.Status.PLANNED)

    opened = director.post(f"/api/tournaments/{tournament.pk}/open-registration/").json()
    again = director.post(f"/api/tournaments/{tournament.pk}/open-registration/")
    finished = director.post(f"/api/tournaments/{tournament.pk}/finish/").json()

    assert opened["status"] == "registering"
    assert opened["registration_open"] is True
    assert again.status_code == 409
    assert again.json()["code"] == "bad_status"
    assert finished["status"] == "finished"


@pytest.mark.django_db
def test_finishing_a_finished_tournament_is_refused_and_audited_once(director):
    tournament = TournamentFactory(status=Tournament.Status.REGISTERING)
    assert director.post(f"/api/tournaments/{tournament.pk}/finish/").status_code == 200

    again = director.post(f"/api/tournaments/{tournament.pk}/finish/")

    assert (again.status_code, again.json()["code"]) == (409, "tournament_finished")
    assert AuditEvent.objects.filter(tournament=tournament, action="tournament_finish").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("operation", ["pause", "resume", "set-level", "add-time"])
def test_the_clock_of_a_finished_tournament_stays_off(director, operation):
    tournament = seated_tournament(players=4)
    # Four players left: a deal finishes the tournament (finishing alone waits for one left).
    deal = director.post(
        f"/api/tournaments/{tournament.pk}/deal/", {"method": "chip_chop"}, format="json"
    )
    assert deal.status_code == 200

    response = director.post(
        f"/api/tournaments/{tournament.pk}/clock/{operation}/",
        {"index": 1, "seconds": 60},
        format="json",
    )

    assert response.status_code == 409
    assert response.json()["code"] == "tournament_finished"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


# --- issue 10: a running tournament's settings; finishing and deals ----------------------------


@pytest.mark.django_db
def test_bug_a_running_tournament_accepts_its_whole_settings_back_with_a_new_name(director):
    tournament = seated_tournament(players=4)
    url = f"/api/tournaments/{tournament.pk}/"
    body = director.get(url).json()
    sent = {k: body[k] for k in ("game", "structure", "starting_stack", "buy_in", "guarantee")}

    response = director.patch(
        url, {**sent, "name": "Renamed", "levels": level_rows()}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["name"] == "Renamed"


@pytest.mark.django_db
def test_changing_the_starting_stack_of_a_running_tournament_is_409(director):
    tournament = seated_tournament(players=4)

    response = director.patch(
        f"/api/tournaments/{tournament.pk}/", {"starting_stack": 20000}, format="json"
    )

    assert (response.status_code, response.json()["code"]) == (409, "tournament_started")
    assert (
        "starting stack cannot change once the tournament has started"
        in (response.json()["detail"])
    )


@pytest.mark.django_db
def test_later_levels_change_over_the_api_but_not_the_level_in_play(director):
    tournament = seated_tournament(players=4)
    url = f"/api/tournaments/{tournament.pk}/"
    later = level_rows()
    later[3]["duration"] = 1800
    now_in_play = level_rows()
    now_in_play[0]["duration"] = 1800

    ok = director.patch(url, {"levels": later}, format="json")
    refused = director.patch(url, {"levels": now_in_play}, format="json")

    assert ok.status_code == 200
    assert ok.json()["levels"][3]["duration"] == 1800
    assert (refused.status_code, refused.json()["code"]) == (409, "level_played")


@pytest.mark.django_db
def test_bug_finishing_with_three_players_left_is_409(director):
    tournament = seated_tournament(players=3)

    response = director.post(f"/api/tournaments/{tournament.pk}/finish/")

    assert (response.status_code, response.json()) == (
        409,
        {
            "code": "players_left",
            "detail": "3 players are still in: finish when one is left, or accept a deal.",
        },
    )


@pytest.mark.django_db
def test_a_deal_over_the_api_writes_places_and_finishes(director):
    tournament = seated_tournament(players=3, payout_percentages=[50, 30, 20])
    icm = director.get(f"/api/tournaments/{tournament.pk}/icm/").json()

    response = director.post(
        f"/api/tournaments/{tournament.pk}/deal/", {"method": "icm"}, format="json"
    )
    payouts = director.get(f"/api/tournaments/{tournament.pk}/payouts/").json()

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "finished"
    assert body["deal"]["method"] == "icm"
    assert [p["amount"] for p in body["deal"]["players"]] == [row["icm"] for row in icm]
    assert all(len(place["players"]) == 1 for place in payouts["places"])
    assert AuditEvent.objects.filter(tournament=tournament, action="deal_accept").count() == 1


@pytest.mark.django_db
def test_a_deal_over_the_api_is_refused_in_a_hand_and_for_a_bad_method(director):
    tournament = seated_tournament(players=3)
    url = f"/api/tournaments/{tournament.pk}/deal/"
    bad = director.post(url, {"method": "coin_flip"}, format="json")
    hand_start(table=Table.objects.get(tournament=tournament, number=1), now=T0)

    in_hand = director.post(url, {"method": "chip_chop"}, format="json")

    assert bad.status_code == 400
    assert (in_hand.status_code, in_hand.json()["code"]) == (409, "in_hand")


@pytest.mark.django_db
def test_a_deal_is_refused_when_the_stacks_changed_since_it_was_shown(director):
    """The players agree on the amounts they were shown: a count (or a hand) since changes the
    deal on offer, so accepting the old one is refused instead of paying amounts nobody saw."""
    tournament = seated_tournament(players=3, payout_percentages=[50, 30, 20])
    shown = director.get(f"/api/tournaments/{tournament.pk}/icm/").json()
    chips = [row["chips"] for row in shown]
    leader = Entry.objects.get(tournament=tournament, player__name=shown[0]["name"])
    entry_set_chips(entry=leader, chips=leader.chips + 500, note="recount")
    url = f"/api/tournaments/{tournament.pk}/deal/"

    stale = director.post(url, {"method": "icm", "chips": chips}, format="json")
    chips[0] += 500
    fresh = director.post(url, {"method": "icm", "chips": chips}, format="json")

    assert stale.status_code == 409
    assert stale.json() == {
        "code": "deal_changed",
        "detail": "The chip counts have changed since this deal was shown: look at the new "
        "amounts and accept again.",
    }
    assert fresh.status_code == 200
    assert fresh.json()["status"] == "finished"
