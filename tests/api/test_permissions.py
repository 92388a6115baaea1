"""Who may call what: directors write and read everything, dealers read the tables, the public
reads standings, payouts, seat lookup, the clock and the tournaments, and nothing else."""

from datetime import UTC, datetime

import pytest
from rest_framework.test import APIClient

from config import request_time
from tests.api.test_robustness import READS, WRITES
from tests.factories import (
    BlindScheduleFactory,
    DealerFactory,
    DirectorFactory,
    TournamentFactory,
    UserFactory,
    seated_tournament,
)
from tournaments.models import AuditEvent, Entry, Tournament

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
PUBLIC_READS = [
    "/api/tournaments/",
    "/api/tournaments/{t}/",
    "/api/tournaments/{t}/clock/",
    "/api/tournaments/{t}/standings/",
    "/api/tournaments/{t}/payouts/",
    "/api/tournaments/{t}/seats/?q=Player",
]
DIRECTOR_READS = [path for path in READS if path not in {p.split("?")[0] for p in PUBLIC_READS}]


@pytest.fixture
def ids(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)
    tournament = seated_tournament(players=6)
    return {
        "t": tournament.pk,
        "schedule": BlindScheduleFactory().pk,
        "entry": Entry.objects.filter(tournament=tournament).first().pk,
    }


def _client(user=None):
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path"), WRITES)
def test_anonymous_writes_are_403_and_change_nothing(ids, method, path):
    events = AuditEvent.objects.count()
    response = getattr(_client(), method)(path.format(**ids), {}, format="json")

    assert response.status_code == 403
    assert response.json()["code"] == "not_authenticated"
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path"), WRITES)
def test_writes_by_a_dealer_are_403_permission_denied(ids, method, path):
    response = getattr(_client(DealerFactory()), method)(path.format(**ids), {}, format="json")

    assert response.status_code == 403
    assert response.json() == {
        "code": "permission_denied",
        "detail": "Only a tournament director may do this.",
    }


@pytest.mark.django_db
@pytest.mark.parametrize("path", PUBLIC_READS)
def test_public_reads_are_200_for_anyone(ids, path):
    assert _client().get(path.format(**ids)).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("path", DIRECTOR_READS)
def test_director_reads_are_403_for_the_public_and_200_for_a_director(ids, path):
    url = path.format(**ids)
    assert _client().get(url).status_code == 403
    assert _client(UserFactory()).get(url).status_code == 403
    assert _client(DirectorFactory()).get(url).status_code == 200


@pytest.mark.django_db
def test_dealers_read_the_tables_but_not_the_desk(ids):
    dealer = _client(DealerFactory())

    assert dealer.get(f"/api/tournaments/{ids['t']}/tables/").status_code == 200
    assert dealer.get(f"/api/tournaments/{ids['t']}/entries/").status_code == 403
    assert dealer.get("/api/audit/").status_code == 403


@pytest.mark.django_db
def test_the_public_list_leaves_out_planned_tournaments():
    shown = TournamentFactory(status=Tournament.Status.RUNNING)
    hidden = TournamentFactory(status=Tournament.Status.PLANNED)

    public = {t["id"] for t in _client().get("/api/tournaments/").json()}
    director = {t["id"] for t in _client(DirectorFactory()).get("/api/tournaments/").json()}

    assert public == {shown.pk}
    assert director == {shown.pk, hidden.pk}


@pytest.mark.django_db
def test_a_planned_tournament_polls_404_for_the_public_and_200_for_a_director():
    hidden = TournamentFactory(status=Tournament.Status.PLANNED)
    public, director = _client(), _client(DirectorFactory())

    for path in ("standings/", "clock/"):
        url = f"/api/tournaments/{hidden.pk}/{path}"
        assert public.get(url).status_code == 404, url
        assert director.get(url).status_code == 200, url


@pytest.mark.django_db
def test_public_answers_carry_player_names_and_nothing_personal_beyond(ids):
    client = _client()
    t = ids["t"]
    standings = client.get(f"/api/tournaments/{t}/standings/").json()
    seats = client.get(f"/api/tournaments/{t}/seats/?q=Player").json()
    detail = client.get(f"/api/tournaments/{t}/").json()

    # Each count says where it came from and when ("after hand 41 at table 3"), not who made it.
    assert set(standings["rows"][0]) == {
        "rank",
        "entry_id",
        "name",
        "chips",
        "chips_source",
        "chips_at",
        "table",
        "seat",
        "bounty_won",  # public: what the player's knockouts paid (bounty events)
        "head",  # public: the bounty on the player's head (progressive knockouts)
        "estimated_since",  # public: the bust whose chips the stack was credited with (KO-4)
    }
    assert set(seats[0]) == {"name", "table", "seat", "status", "place", "prize"}
    text = str([standings, seats, detail, client.get(f"/api/tournaments/{t}/clock/").json()])
    for private in ("actor", "username", "email", "phone", "director", "dealer"):
        assert private not in text
