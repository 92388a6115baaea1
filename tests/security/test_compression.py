"""Public answers go gzipped; an answer with a secret in it never does (BREACH).

docs/operations.md, "Compression": the public pages and their JSON are compressed for a client
that accepts gzip and sent no credentials; a signed-in client's answer, an API call with a
token, the desk, the sign-in page and anything whose rendering used the CSRF token go as they
are. A compressed answer's ETag turns weak, and a poll naming it still gets its 304.
"""

from __future__ import annotations

import gzip
import json

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import resolve, reverse

from config.compression import compressible
from tests.pages import NAMES, NOW, freeze_pages, tournament
from tournaments.models import Tournament
from tournaments.services.screens import screen_create

pytestmark = pytest.mark.django_db
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.fixture(autouse=True)
def _frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_pages(monkeypatch, NOW)


@pytest.fixture
def event() -> Tournament:
    # Eight places paid: every answer is long enough to compress (under 200 bytes none is).
    return tournament(
        players=NAMES[:12], start=True, payout_percentages=[30, 20, 15, 10, 8, 7, 5, 5]
    )


def _public(event: Tournament) -> dict[str, str]:
    screen = screen_create(tournament=event, name="Bar TV", layout="sidebar")
    pk = event.pk
    return {
        "standings": reverse("public-standings", args=[pk]),
        "state": reverse("public-state", args=[pk]),
        "seat": reverse("public-seat-lookup", args=[pk]) + "?q=ann",
        "payouts": reverse("public-payouts", args=[pk]),
        "clock": reverse("public-clock", args=[pk]) + "?layout=sidebar",
        "screen": reverse("public-screen", args=[pk, screen.pk]),
        "api-clock": reverse("api-clock", args=[pk]),
        "api-board": reverse("api-screen-board", args=[pk]),
        "api-standings": reverse("api-standings", args=[pk]),
        "api-payouts": reverse("api-payouts", args=[pk]),
    }


def test_the_public_pages_and_their_json_go_gzipped(event: Tournament) -> None:
    for name, url in _public(event).items():
        response = Client().get(url, headers=GZIP)

        assert response.status_code == 200, name
        assert response["Content-Encoding"] == "gzip", name
        assert "Accept-Encoding" in response["Vary"], name
        body = gzip.decompress(response.content).decode()
        assert len(response.content) < len(body), name
        # No secret to guess at: no CSRF token in the page, no cookie set with it.
        assert "csrf" not in body.lower(), name
        assert settings.CSRF_COOKIE_NAME not in response.cookies, name
        if name.startswith("api-"):
            json.loads(body)
        elif name != "seat":
            assert "Ann Lee" in body or "<title>" in body, name


def test_a_client_that_does_not_accept_gzip_gets_the_plain_answer(event: Tournament) -> None:
    response = Client().get(reverse("public-standings", args=[event.pk]))
    assert not response.has_header("Content-Encoding")
    assert "Ann Lee" in response.content.decode()


def test_a_signed_in_client_or_a_token_gets_nothing_compressed(
    event: Tournament, director: Client
) -> None:
    for name, url in _public(event).items():
        signed_in = director.get(url, headers=GZIP)
        with_token = Client().get(url, headers={**GZIP, "Authorization": "Token 0123456789abcdef"})

        assert signed_in.status_code == 200, name
        assert not signed_in.has_header("Content-Encoding"), name
        assert not with_token.has_header("Content-Encoding"), name
    # The desk's pages, with their forms and their tokens, are never compressed.
    desk = director.get(reverse("clock-control", args=[event.pk]), headers=GZIP)
    assert desk.status_code == 200
    assert "csrfmiddlewaretoken" in desk.content.decode()
    assert not desk.has_header("Content-Encoding")


def test_the_sign_in_page_with_its_csrf_token_is_not_compressed() -> None:
    response = Client().get(reverse("login"), headers=GZIP)
    assert response.status_code == 200
    assert "csrfmiddlewaretoken" in response.content.decode()
    assert not response.has_header("Content-Encoding")


def test_a_public_answer_that_used_the_csrf_token_is_not_compressed(event: Tournament) -> None:
    url = reverse("public-standings", args=[event.pk])
    request = RequestFactory().get(url, headers=GZIP)
    request.resolver_match = resolve(url)
    plain = HttpResponse("x" * 500)
    with_token = HttpResponse("x" * 500)
    with_token.set_cookie(settings.CSRF_COOKIE_NAME, "secret")

    assert compressible(request, plain)
    assert not compressible(request, with_token)


def test_a_poll_naming_the_weak_etag_of_a_compressed_answer_gets_its_304(
    event: Tournament,
) -> None:
    for url in (reverse("public-state", args=[event.pk]), reverse("api-clock", args=[event.pk])):
        client = Client()
        first = client.get(url, headers=GZIP)
        assert first["Content-Encoding"] == "gzip"
        assert first["ETag"].startswith('W/"')

        again = client.get(url, headers={**GZIP, "If-None-Match": first["ETag"]})

        assert again.status_code == 304, url
