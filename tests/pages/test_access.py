"""Who sees which page: directors (staff) the dashboard, everyone the public pages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, freeze_pages, staff_client, tournament

# Dashboard pages that answer a GET (POST-only actions are tested with their forms).
DESK_PAGES = [
    "tournament-dashboard",
    "tournament-settings",
    "entry-list",
    "table-list",
    "seat-cards",
    "clock-control",
    "bust-list",
    "bust-row",
    "bust-search",
    "payout-list",
    "icm-deal",
    "audit-log",
]
DESK_LISTS = ["tournament-list", "schedule-list", "schedule-create"]
PUBLIC_PAGES = [
    "public-standings",
    "public-state",
    "public-seat-lookup",
    "public-payouts",
    "public-clock",
    "public-live",
    "public-live-state",
    "public-live-atom",
]


@pytest.fixture(autouse=True)
def _frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_pages(monkeypatch, NOW)


@pytest.mark.django_db
@pytest.mark.parametrize("name", DESK_PAGES)
def test_anonymous_users_are_sent_to_sign_in(client: Client, name: str) -> None:
    event = tournament(players=NAMES[:4], start=True)
    url = reverse(name, args=[event.pk])

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


@pytest.mark.django_db
@pytest.mark.parametrize("name", DESK_LISTS)
def test_anonymous_users_are_sent_to_sign_in_from_the_lists(client: Client, name: str) -> None:
    response = client.get(reverse(name))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.django_db
def test_post_actions_also_need_a_director(client: Client) -> None:
    event = tournament(players=NAMES[:4])

    response = client.post(reverse("seat-draw", args=[event.pk]))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not event.tables.exists()


@pytest.mark.django_db
def test_signed_in_users_who_are_not_staff_are_refused(client: Client) -> None:
    event = tournament(players=NAMES[:4])
    client.force_login(get_user_model().objects.create_user("player", password="x"))

    assert client.get(reverse("tournament-dashboard", args=[event.pk])).status_code == 403
    assert client.get(reverse("tournament-list")).status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize("name", DESK_PAGES)
def test_every_dashboard_page_renders_for_a_director(client: Client, name: str) -> None:
    event = tournament(players=NAMES[:6], start=True)
    staff_client(client)

    response = client.get(reverse(name, args=[event.pk]))

    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("status", ["planned", "registering"])
@pytest.mark.parametrize("name", DESK_PAGES)
def test_dashboard_pages_render_before_the_start(client: Client, name: str, status: str) -> None:
    event = tournament(players=NAMES[:3] if status != "planned" else (), status=status)
    staff_client(client)

    assert client.get(reverse(name, args=[event.pk])).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("name", DESK_LISTS)
def test_the_lists_render_for_a_director(client: Client, name: str) -> None:
    tournament(players=NAMES[:2])
    staff_client(client)

    assert client.get(reverse(name)).status_code == 200


@pytest.mark.django_db
def test_login_page_signs_a_director_in_and_lands_on_the_tournaments(client: Client) -> None:
    get_user_model().objects.create_user("td", password="a-long-pass-phrase", is_staff=True)

    page = client.get(reverse("login"))
    response = client.post(reverse("login"), {"username": "td", "password": "a-long-pass-phrase"})

    assert page.status_code == 200
    assert "autofocus" in page.content.decode()
    assert response.status_code == 302
    landing = client.get(response["Location"])
    assert landing.status_code == 302
    assert landing["Location"] == reverse("tournament-list")


@pytest.mark.django_db
def test_a_dealer_signing_in_lands_on_their_tables(client: Client) -> None:
    get_user_model().objects.create_user("dee", password="a-long-pass-phrase")
    response = client.post(reverse("login"), {"username": "dee", "password": "a-long-pass-phrase"})
    assert client.get(response["Location"])["Location"] == reverse("deal-tables")


@pytest.mark.django_db
def test_a_wrong_password_is_said_in_plain_words(client: Client) -> None:
    get_user_model().objects.create_user("td", password="a-long-pass-phrase", is_staff=True)

    response = client.post(reverse("login"), {"username": "td", "password": "nope"})

    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


@pytest.mark.django_db
def test_logout_signs_out(client: Client) -> None:
    staff_client(client)

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert client.get(reverse("tournament-list")).status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_public_pages_need_no_login(client: Client, name: str) -> None:
    event = tournament(players=NAMES[:6], start=True)

    response = client.get(reverse(name, args=[event.pk]), {"q": "Ann"})

    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_a_planned_tournament_is_not_public(client: Client, name: str) -> None:
    event = tournament(status="planned")

    assert client.get(reverse(name, args=[event.pk])).status_code == 404


@pytest.mark.django_db
def test_public_pages_show_names_and_no_other_personal_data(client: Client) -> None:
    event = tournament(players=NAMES[:6], start=True)
    staff_client(client, "floorboss")
    client.get(reverse("tournament-dashboard", args=[event.pk]))  # the director is about
    anonymous = Client()

    pages = [
        anonymous.get(reverse(name, args=[event.pk]), {"q": "an"}).content.decode()
        for name in PUBLIC_PAGES
    ]

    text = "".join(pages)
    for name in NAMES[:6]:
        assert name in pages[0]
    assert "floorboss" not in text  # no staff user names or e-mail addresses
    assert "@example.org" not in text
    assert "Sign out" not in pages[0]


@pytest.mark.django_db
def test_home_lists_the_tournaments_on_now_with_public_links(client: Client) -> None:
    running = tournament(players=NAMES[:4], start=True, name="Running one")
    tournament(name="Registering one")
    tournament(status="planned", name="Planned one")

    body = client.get(reverse("home")).content.decode()

    assert "Running one" in body
    assert "Registering one" in body
    assert "Planned one" not in body
    assert reverse("public-standings", args=[running.pk]) in body
    assert reverse("public-clock", args=[running.pk]) in body
    assert reverse("tournament-dashboard", args=[running.pk]) not in body


@pytest.mark.django_db
def test_home_links_directors_to_the_dashboards(client: Client) -> None:
    running = tournament(players=NAMES[:4], start=True)
    staff_client(client)

    body = client.get(reverse("home")).content.decode()

    assert reverse("tournament-dashboard", args=[running.pk]) in body
