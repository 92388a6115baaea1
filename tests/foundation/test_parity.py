"""Every write a page offers is in the API, and the other way round.

The pages' writes are read from the templates (each form that posts, each `hx-post`, with the URL
it posts to); the API's from the URL configuration (every view class with a `post`, `put`,
`patch` or `delete`). Each page write names its API twin here, and each API write is the twin
of a page write or says why it has none. A new form without a twin, a new endpoint without a
page, or a twin that is not a write, fails this test.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from tests.factories import DealerFactory, DirectorFactory, UserFactory, make, seated_tournament
from tournaments.models import Table

ROOT = Path(__file__).resolve().parents[2]
WRITES = ("post", "put", "patch", "delete")

# page write (URL name) -> the API write(s) doing the same through the same service
TWINS: dict[str, tuple[str, ...]] = {
    "login": ("api-token",),
    "tournament-list": ("api-tournaments",),
    "tournament-settings": ("api-tournament",),
    "tournament-reprice": ("api-tournament-reprice",),
    "tournament-rules": ("api-tournament-rules",),
    "cash-table-rules": ("api-cash-table-rules",),
    "tournament-open": ("api-tournament-open-registration",),
    "tournament-finish": ("api-tournament-finish",),
    "schedule-create": ("api-schedules",),
    "schedule-edit": ("api-schedule-levels",),
    "entry-list": ("api-entries",),
    "entry-unregister": ("api-entry-unregister",),
    "entry-rebuy": ("api-entry-rebuy",),
    "entry-addon": ("api-entry-addon",),
    "seat-draw": ("api-seat-draw",),
    "moves-confirm": ("api-balancing-confirm",),
    "table-counts": ("api-table-counts", "api-entry-chips"),
    "table-dealer": ("api-table-dealer",),
    "hand-reopen": ("api-hand-reopen",),
    "clock-start": ("api-clock-start",),
    "clock-pause": ("api-clock-pause",),
    "clock-resume": ("api-clock-resume",),
    "clock-add-time": ("api-clock-add-time",),
    "clock-set-level": ("api-clock-set-level",),
    "hand-for-hand": ("api-hand-for-hand",),
    "hand-for-hand-hand": ("api-hand-for-hand-hand",),
    "bust-list": ("api-busts",),
    "bust-undo": ("api-busts-undo",),
    "deal-accept": ("api-tournament-deal",),
    "deal-start": ("api-table-hands",),
    "deal-action": ("api-hand-actions",),
    "deal-undo": ("api-hand-undo",),
    "deal-reopen": ("api-hand-reopen",),
    "deal-procedure-run": ("api-hand-procedures",),
    "cash-tables": ("api-cash-tables",),
    "cash-seat": ("api-cash-seats",),
    "cash-seat-change": (
        "api-cash-seat-sit-out",
        "api-cash-seat-back",
        "api-cash-seat-top-up",
        "api-cash-seat-leave",
        "api-cash-seat-change",
    ),
    "cash-button-draw": ("api-cash-button-draw",),
    "cash-waitlist-add": ("api-cash-waitlist",),
    "cash-waitlist-remove": ("api-cash-waitlist-remove",),
    "device-revoke": ("api-device",),
    "user-devices-revoke": ("api-user-devices",),
    "lockout-unlock": ("api-lockout",),
    # the desk at scale (issue 14)
    "seat-move": ("api-entry-move",),
    "seat-lock": ("api-seat-locks",),
    "table-add": ("api-tables",),
    "table-close": ("api-table-close",),
    # multi-flight events (issue 14)
    "event-create": ("api-events",),
    "event-flight-add": ("api-event-flights",),
    "event-day-add": ("api-event-days",),
    "phase-bag": ("api-phase-bag",),
    "day-draw": ("api-day-draw",),
    # screens, players and satellites (issue 14)
    "floor-message": ("api-floor-message",),
    "screen-list": ("api-screens",),
    "screen-save": ("api-screen",),
    "screen-delete": ("api-screen",),
    "player-detail": ("api-player",),
    "player-merge": ("api-player-merge",),
    "series-list": ("api-series",),
    "satellite-register-winners": ("api-satellite-register-winners",),
    # games and waiting lists (issue 15)
    "cash-games": ("api-cash-games",),
    "cash-game-change": ("api-cash-game-open", "api-cash-game-close"),
    "cash-game-stakes": ("api-cash-game-stakes",),
    "cash-game-break": ("api-cash-game-break",),
    "cash-game-table": ("api-cash-game-tables",),
    "cash-game-list-add": ("api-cash-game-list",),
    "cash-game-call-next": ("api-cash-game-call-next",),
    "cash-game-entry": (
        "api-cash-game-entry-seat",
        "api-cash-game-entry-no-show",
        "api-cash-game-entry-remove",
    ),
    "cash-table-stakes": ("api-cash-table-stakes",),
    "cash-table-must-move": ("api-cash-table-must-move",),
    "games-join": ("api-games-list",),
    "list-leave": ("api-list-leave",),
    # rake and time (issue 15)
    "cash-seat-time": ("api-cash-seat-time",),
    "cash-seat-move": ("api-cash-seat-move",),
    "cash-seat-correct": ("api-cash-seat-correct",),
    "cash-table-time": ("api-cash-table-time",),
    "cash-table-close": ("api-cash-table-close",),
    # the dealer rotation (issue 15)
    "rotation-plan": ("api-rotation-plan",),
    "rotation-shift-add": ("api-rotation-shifts",),
    "rotation-shift-end": ("api-rotation-shift-end",),
    "rotation-start": ("api-rotation-start",),
    "deal-sign-in": ("api-table-sign-in",),
    # staff accounts (issue 25)
    "staff-create": ("api-staff",),
    "staff-pin": ("api-staff-pin",),
    "staff-deactivate": ("api-staff-deactivate",),
    # recurring work (issue 26)
    "schedule-generate": ("api-schedule-generate",),
    "schedule-copy": ("api-schedule-copy",),
    "tournament-copy": ("api-tournament-copy",),
    "tournament-archive": ("api-tournament-archive",),
    "tournament-delete": ("api-tournament",),
    "player-archive": ("api-player-archive",),
}
# page writes with no API twin, and why
PAGE_ONLY = {"logout": "a browser's session ends; an API token signs out with DELETE api-token"}
# API writes with no page, and why
API_ONLY: dict[str, str] = {}

FORM_TAG = re.compile(r"<[a-z]+\b[^>]*>", re.S)
# Django's `{% url 'name' ... %}`, and Jinja2's `url('name', ...)` (the tablet's templates,
# templates/jinja2/, config/jinja.py).
URL_TAG = re.compile(r"(?:\{% url |\burl\()'([a-z0-9-]+)'")


def page_writes() -> dict[str, list[str]]:
    """URL name -> the templates with a form or an htmx element that posts to it."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for tag in FORM_TAG.findall(path.read_text()):
            posts = re.search(r'method="post"', tag, re.I) or re.search(
                r"hx-(post|put|delete)", tag
            )
            if posts:
                for name in URL_TAG.findall(tag):
                    found.setdefault(name, []).append(str(path.relative_to(ROOT)))
    return found


def _patterns(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, prefix + str(entry.pattern))
        else:
            yield prefix + str(entry.pattern), entry


def api_views() -> dict[str, Any]:
    """API URL name -> its view class."""
    views: dict[str, Any] = {}
    for route, pattern in _patterns(get_resolver()):
        cls = getattr(pattern.callback, "cls", None)
        if route.startswith("api/") and pattern.name and cls is not None:
            views[pattern.name] = cls
    return views


def api_writes() -> set[str]:
    return {name for name, cls in api_views().items() if any(hasattr(cls, verb) for verb in WRITES)}


def test_every_page_write_has_an_api_twin() -> None:
    writes = page_writes()
    assert writes, "no page writes found: the template scan is broken"
    missing = sorted(set(writes) - TWINS.keys() - PAGE_ONLY.keys())
    assert not missing, f"page writes without an API twin: { {n: writes[n] for n in missing} }"
    gone = sorted((TWINS.keys() | PAGE_ONLY.keys()) - set(writes))
    assert not gone, f"listed here but no page posts to them any more: {gone}"


def test_every_api_twin_is_an_api_write() -> None:
    writes = api_writes()
    not_writes = sorted({api for twins in TWINS.values() for api in twins} - writes)
    assert not not_writes, f"named as twins but no API write: {not_writes}"


def test_every_api_write_is_a_page_write_too() -> None:
    twinned = {api for twins in TWINS.values() for api in twins}
    alone = sorted(api_writes() - twinned - API_ONLY.keys())
    assert not alone, f"API writes that no page offers: {alone}"


def test_the_scan_sees_a_form_and_an_htmx_post() -> None:
    tag = '<form method="post" action="{% url \'entry-rebuy\' tournament.pk entry.pk %}">'
    assert URL_TAG.findall(tag) == ["entry-rebuy"]
    jinja = '<form hx-post="{{ url(\'deal-start\', table.pk) }}" hx-target="#tablet">'
    assert URL_TAG.findall(jinja) == ["deal-start"]
    assert {"deal-action", "entry-rebuy", "cash-seat"} <= page_writes().keys()
    # the tablet's forms, in its Jinja2 templates
    assert "templates/jinja2/dealer/_next_hand.html" in page_writes()["deal-start"]


# --- one twin, checked end to end: the table's dealer --------------------------------------------


@pytest.mark.django_db
def test_the_desk_and_the_api_assign_a_dealer_through_the_same_service() -> None:
    tournament = seated_tournament(players=12)
    first, second = Table.objects.filter(tournament=tournament).order_by("number")[:2]
    director = make(DirectorFactory)
    dealer, stranger = make(DealerFactory), make(UserFactory)
    desk, api = APIClient(), APIClient()
    desk.force_login(director)
    api.force_login(director)

    by_page = desk.post(
        reverse("table-dealer", args=[first.pk]), {"dealer": dealer.pk, "next": "/desk/"}
    )
    by_api = api.put(f"/api/tables/{second.pk}/dealer/", {"dealer": dealer.pk}, format="json")
    refused = api.put(f"/api/tables/{second.pk}/dealer/", {"dealer": stranger.pk}, format="json")

    assert by_page.status_code == 302
    assert by_api.status_code == 200
    assert by_api.json()["dealer_name"] == dealer.username
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.dealer_id, second.dealer_id) == (dealer.pk, dealer.pk)
    assert (refused.status_code, refused.json()["code"]) == (400, "not_a_dealer")


@pytest.mark.django_db
def test_the_schema_lists_the_cash_procedure_and_hand_history_endpoints() -> None:
    schema = APIClient().get(reverse("api-schema"), HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = schema.json()["paths"]

    for path, verb in [
        ("/api/cash-tables/", "post"),
        ("/api/cash-tables/{id}/seats/", "post"),
        ("/api/cash-tables/{id}/seats/{seat_pk}/top-up/", "post"),
        ("/api/cash-tables/{id}/waiting/", "post"),
        ("/api/cash-tables/{id}/button-draw/", "post"),
        ("/api/hands/{id}/procedures/", "post"),
        ("/api/procedures/", "get"),
        ("/api/hands/{id}/phh/", "get"),
        ("/api/tables/{id}/phh/", "get"),
        ("/api/tournaments/{id}/phh/", "get"),
        ("/api/tables/{id}/dealer/", "put"),
    ]:
        assert verb in paths.get(path, {}), f"{verb.upper()} {path} is not in the schema"
