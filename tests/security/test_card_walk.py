"""No answer shows a card to a caller who may not see it (issue 23, `dealer.card_gate`).

Table 1 holds two hands with cards nobody has shown: a finished hand where one player folded
with cards entered and another mucked at showdown; and a hand in progress with an entry undone
and cards entered again, and a player's entered hand killed by the floor (a procedure). Every
URL of the project (`django.urls.get_resolver`) whose path the fixture can fill is read by each
role, and the API's query parameters come from its OpenAPI schema (the procedure previews, with
the held cards and others named in their details); the pages that take a procedure's question
are asked it too. Every key and value of each JSON answer, each page's text and each header is
scanned for the hidden cards, as codes ("Qs", and "QsQd" as PHH writes them), as the tablet
draws them ("Q♠") and in words ("Queen of spades"). Anonymous callers and another table's
dealer must find none of them; the refused writes they send, naming the held cards, must not
answer with them either. The table's dealer and the director must find every one of them
somewhere, so the scan is shown able to fail.

A URL whose path the fixture cannot fill is skipped only when `EXCLUDED` says why: a new URL
with a hand, table or tournament in its path fails the test until it is walked or excluded.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from dealer.engine.triggers import TRIGGERS
from dealer.models import Hand
from dealer.views.present import RANK_NAMES, RANK_TEXT, SUIT_NAMES, SUIT_SYMBOLS
from tests.dealer.test_api_hands import start
from tests.factories import DirectorFactory, assign_dealer, seated_tournament
from tournaments.models import ButtonDraw, Entry, Table

pytestmark = pytest.mark.django_db

FOLDED = ["7c", "7d"]  # hand 1: entered, then the player folds
MUCKED = ["9h", "9c"]  # hand 1: entered, then mucked at showdown
UNDONE = ["Qs", "Qd"]  # hand 2: entered, then undone
HELD = ["Jh", "Js"]  # hand 2: entered and in force
KILLED = ["8c", "8d"]  # hand 2: entered, then the floor kills that hand (a procedure)
HIDDEN = (*FOLDED, *MUCKED, *UNDONE, *HELD, *KILLED)
SHOWN = ["Ah", "Ad"]  # hand 1: shown at showdown, public
BOARD = [["2s", "3s", "8h"], ["5d"], ["Kc"]]
STREET_OF_BOARD = {0: 0, 3: 1, 4: 2}  # cards on the board -> the next deal

# Path segments naming what an `int:pk` that follows them is.
PK_KINDS = {
    "hands": "hand",
    "tables": "table",
    "table": "table",
    "tournaments": "tournament",
    "t": "tournament",
    "entries": "entry",
    "players": "player",
    "p": "player",
}
# Other path parameters the fixture fills, by name.
PARAM_KINDS = {"hand_pk": "hand", "table_pk": "table", "entry_pk": "entry"}

# URLs not walked, each with why: none carries a tournament table's hand or its cards.
EXCLUDED = {
    # Cash tables and games: their own ids (a cash table's hands are read through the same
    # `deal/table/<pk>/` and `api/hands/<pk>/` views walked here).
    **dict.fromkeys(
        [
            "api-cash-table",
            "api-cash-table-rules",
            "api-cash-button-draw",
            "api-cash-seats",
            "api-cash-seat-sit-out",
            "api-cash-seat-back",
            "api-cash-seat-top-up",
            "api-cash-seat-leave",
            "api-cash-waitlist",
            "api-cash-waitlist-remove",
            "api-cash-game",
            "api-cash-game-open",
            "api-cash-game-close",
            "api-cash-game-stakes",
            "api-cash-game-break",
            "api-cash-game-tables",
            "api-cash-game-list",
            "api-cash-game-call-next",
            "api-cash-game-entry-seat",
            "api-cash-game-entry-no-show",
            "api-cash-game-entry-remove",
            "api-cash-table-stakes",
            "api-cash-table-must-move",
            "api-cash-seat-time",
            "api-cash-seat-move",
            "api-cash-seat-correct",
            "api-cash-seat-change",
            "api-cash-table-close",
            "api-cash-table-time",
            "api-games-list",
            "cash-table",
            "cash-table-rules",
            "cash-seat",
            "cash-seat-change",
            "cash-button-draw",
            "cash-waitlist-add",
            "cash-waitlist-remove",
            "cash-game",
            "cash-game-change",
            "cash-game-stakes",
            "cash-game-break",
            "cash-game-table",
            "cash-game-list-add",
            "cash-game-call-next",
            "cash-game-entry",
            "cash-table-stakes",
            "cash-table-must-move",
            "cash-seat-time",
            "cash-seat-move",
            "cash-seat-correct",
            "cash-table-close",
            "cash-table-time",
            "games-join",
        ],
        "a cash table or game of its own id: its hands are the walked hand views'",
    ),
    # Waiting-list codes, sign-in lockouts, devices, users, schedules, events, screens and
    # dealers' shifts: records of their own, holding no hand.
    **dict.fromkeys(
        ["api-list-place", "list-place", "list-place-state", "list-leave", "api-list-leave"],
        "a waiting-list code: no hand",
    ),
    **dict.fromkeys(
        ["api-lockout", "lockout-unlock"], "a sign-in lockout: no hand, directors only"
    ),
    **dict.fromkeys(
        ["api-device", "api-user-devices", "device-revoke", "user-devices-revoke"],
        "a device or user's tokens: no hand, directors only",
    ),
    **dict.fromkeys(
        [
            "api-schedule",
            "api-schedule-levels",
            "api-schedule-copy",
            "schedule-edit",
            "schedule-copy",
        ],
        "a blind schedule: no hand",
    ),
    **dict.fromkeys(
        [
            "api-event",
            "api-event-flights",
            "api-event-days",
            "api-event-results",
            "event-page",
            "event-flight-add",
            "event-day-add",
            "event-results",
        ],
        "a multi-day event: its flights' standings and results, no hand",
    ),
    **dict.fromkeys(
        ["api-screen", "screen-save", "screen-delete", "public-screen"],
        "a screen of the tournament (clock, standings, payouts): no hand; the tournament's "
        "screens list (`api-screens`, `screen-list`) is walked",
    ),
    **dict.fromkeys(["api-rotation-shift-end", "rotation-shift-end"], "a dealer's shift: no hand"),
    **dict.fromkeys(
        ["api-staff-pin", "api-staff-deactivate", "staff-pin", "staff-deactivate"],
        "a staff account: no hand, directors only",
    ),
}

# The hidden cards as codes, alone or run together (PHH writes "QsQd").
CODE_RUNS = re.compile(r"(?<![A-Za-z0-9])((?:[2-9TJQKA][cdhs])+)(?![A-Za-z0-9])")


def card_forms(code: str) -> list[str]:
    """A card as the pages write it besides its code: "Q♠", and "Queen of spades"."""
    rank, suit = code[0], code[1]
    return [
        RANK_TEXT.get(rank, rank) + SUIT_SYMBOLS[suit],
        f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}",
    ]


def cards_in(text: str) -> set[str]:
    """The hidden cards `text` names, in any of the forms the app writes them."""
    found = {
        run[i : i + 2] for run in CODE_RUNS.findall(text) for i in range(0, len(run), 2)
    } & set(HIDDEN)
    return found | {code for code in HIDDEN if any(form in text for form in card_forms(code))}


def strings_of(value: Any) -> Iterator[str]:
    """Every key and every value of a JSON answer, at any depth."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_of(item)
    elif value is not None:
        yield str(value)


def seen(response: Any) -> set[str]:
    found: set[str] = set()
    for name, value in response.items():
        found |= cards_in(f"{name}: {value}")
    body = (
        b"".join(response.streaming_content) if response.streaming else response.content
    ).decode("utf-8", "replace")
    if response.get("Content-Type", "").startswith("application/json") and body:
        for text in strings_of(json.loads(body)):
            found |= cards_in(text)
    return found | cards_in(body)


# --- the hands --------------------------------------------------------------------------------


@dataclass
class Floor:
    ids: dict[str, list[int]]
    table: Table
    seat: int  # the player holding HELD in hand 2
    hands: list[int]
    users: dict[str, Any] = field(default_factory=dict)


def finished_hand(tablet: Any) -> None:
    """Hand 1: the first to act folds with FOLDED entered; the two last check it down, one
    shows SHOWN and the other, holding MUCKED, mucks."""
    folder = tablet.state["legal"]["actor"]
    tablet.ok(kind="deal_hole", seat=folder, cards=FOLDED)
    while sum(1 for p in tablet.state["players"] if not p["folded"]) > 2:
        tablet.ok(seat=tablet.state["legal"]["actor"], kind="fold")
    left = [p["seat"] for p in tablet.state["players"] if not p["folded"]]
    assert len(left) == 2
    assert folder not in left
    shower, mucker = left
    tablet.ok(kind="deal_hole", seat=mucker, cards=MUCKED)
    state = tablet.state
    for _ in range(40):
        if state["phase"] == "showdown":
            break
        if state["phase"] == "dealing":
            state = tablet.ok(kind="deal_board", cards=BOARD[STREET_OF_BOARD[len(state["board"])]])
            continue
        legal = state["legal"]
        state = tablet.ok(seat=legal["actor"], kind="check" if legal["can_check"] else "call")
    while tablet.state["phase"] == "showdown":
        seat = tablet.state["next_to_show"]
        if seat == shower:
            tablet.ok(kind="show", seat=seat, cards=SHOWN)
        else:
            tablet.ok(kind="muck", seat=seat)
    assert tablet.state["phase"] == "complete", tablet.state["phase"]


def public_draws(tournament: Any) -> None:
    """The button draws' cards (dealt face up before the first hand, at random) set to cards no
    hand of the fixture uses: a public card must not be one of the hidden ones by chance."""
    spare = iter([f"{rank}{suit}" for suit in "shdc" for rank in "23456"])
    for draw in ButtonDraw.objects.filter(table__tournament=tournament):
        draw.cards = " ".join(next(spare) for _ in draw.cards.split())
        draw.save(update_fields=["cards"])


@pytest.fixture
def floor() -> Floor:
    tournament = seated_tournament(players=12)
    public_draws(tournament)
    table, other = Table.objects.filter(tournament=tournament).order_by("number")[:2]
    own = assign_dealer(table)
    client = APIClient()
    client.force_login(own)
    first = start(client, table)
    finished_hand(first)
    tablet = start(client, table)
    seat = tablet.state["legal"]["actor"]
    tablet.ok(kind="deal_hole", seat=seat, cards=UNDONE)
    assert tablet.undo().status_code == 200
    tablet.ok(kind="deal_hole", seat=seat, cards=HELD)
    killed = next(p["seat"] for p in tablet.state["players"] if p["seat"] != seat)
    tablet.ok(kind="deal_hole", seat=killed, cards=KILLED)
    body = {
        "client_id": "kill",
        "version": tablet.state["version"],
        "trigger": "floor_dead_hand",
        "seat": killed,
        "details": {"note": "the floor's decision"},
    }
    assert tablet.write("procedures/", body).status_code == 200
    entry = Entry.objects.get(table=table, seat=seat)
    hands = [first.state["hand"], tablet.state["hand"]]
    return Floor(
        ids={
            "hand": hands,
            "table": [table.pk],
            "tournament": [tournament.pk],
            "entry": [entry.pk],
            "player": [entry.player_id],
        },
        table=table,
        seat=seat,
        hands=hands,
        users={
            "anonymous": None,
            "other_dealer": assign_dealer(other),
            "own_dealer": own,
            "director": DirectorFactory(),
        },
    )


# --- the URLs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str
    path: str  # "api/hands/<int:pk>/events/"
    module: str  # the view's module


def routes() -> list[Route]:
    def walk(resolver: URLResolver, prefix: str) -> Iterator[Route]:
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                view = getattr(pattern.callback, "view_class", pattern.callback)
                module = getattr(view, "__module__", "")
                yield Route(pattern.name or "", prefix + str(pattern.pattern), module)

    return [r for r in walk(get_resolver(), "") if not r.path.startswith("admin/")]


PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")


def kinds_of(route: Route) -> dict[str, str] | None:
    """What each path parameter of the route is, or None when one is not the fixture's."""
    kinds: dict[str, str] = {}
    for match in PARAM.finditer(route.path):
        name = match.group(2)
        if name == "pk":
            segments = route.path[: match.start()].strip("/").split("/")
            kind = PK_KINDS.get(segments[-1]) if segments else None
        else:
            kind = PARAM_KINDS.get(name)
        if kind is None:
            return None
        kinds[name] = kind
    return kinds


def urls(route: Route, kinds: dict[str, str], floor: Floor) -> list[str]:
    """The route with its parameters filled in every way the fixture can."""
    filled = ["/" + route.path]
    for name, kind in kinds.items():
        pattern = re.compile(rf"<(?:\w+:)?{name}>")
        filled = [pattern.sub(str(pk), url) for url in filled for pk in floor.ids[kind]]
    return filled


def schema_queries() -> dict[str, list[str]]:
    """The query parameters of each API path (GET), as `/api/...{pk}/` -> names, from the
    schema the API serves."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        path: [p["name"] for p in op["get"].get("parameters", ()) if p["in"] == "query"]
        for path, op in schema["paths"].items()
        if "get" in op
    }


def schema_path(route: Route) -> str:
    """The route as the schema names it: `/api/hands/{id}/events/` (a `pk` is its `id`)."""
    name = {"pk": "id"}
    return "/" + PARAM.sub(lambda m: "{" + name.get(m.group(2), m.group(2)) + "}", route.path)


def procedure_questions(floor: Floor) -> Iterator[dict[str, str]]:
    """Each procedure that names cards, asked about the held cards and about a card nobody
    holds (a refusal then compares it with the cards entered): as the API's details and as the
    tablet sheet's fields."""
    for trigger, info in TRIGGERS.items():
        if not info.cards:
            continue
        for cards in (HELD[0], "2h", " ".join(HELD)):
            yield {
                "trigger": str(trigger),
                "seat": str(floor.seat),
                "cards": cards,
                "details": json.dumps({"cards": cards}),
            }


def client_for(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def get(client: Client, url: str, query: dict[str, str] | None = None) -> Any:
    response = client.get(url, query or {})
    assert response.status_code < 500, (url, query, response.status_code)
    return response


def walk(floor: Floor, role: str) -> dict[str, set[str]]:
    """Every answer the role gets that names a hidden card: {"GET url?query": cards}."""
    client = client_for(floor.users[role])
    queries = schema_queries()
    found: dict[str, set[str]] = {}
    unplaced: list[str] = []
    walked = set()
    for route in routes():
        kinds = kinds_of(route)
        if route.name in EXCLUDED:
            continue
        if kinds is None:
            unplaced.append(f"{route.name}: {route.path}")
            continue
        walked.add(schema_path(route))
        takes = set(queries.get(schema_path(route), ()))
        # The tablet's procedure sheet is the pages' twin of the preview: the same questions.
        asks = "trigger" in takes or route.module == "dealer.views.procedures"
        for url in urls(route, kinds, floor):
            answers = [(url, get(client, url))]
            if asks:
                answers += [(f"{url}?{q}", get(client, url, q)) for q in procedure_questions(floor)]
            for where, response in answers:
                if cards := seen(response):
                    found[where] = cards
    assert not unplaced, "URLs neither walked nor EXCLUDED with a reason: " + ", ".join(unplaced)
    unwalked = {path for path in queries if path not in walked}
    excluded_paths = {schema_path(r) for r in routes() if r.name in EXCLUDED}
    assert unwalked <= excluded_paths, f"schema paths not walked: {unwalked - excluded_paths}"
    return found


def refused_writes(floor: Floor, role: str) -> dict[str, set[str]]:
    """Every hand write and tablet write, sent by the role naming the held cards: what the
    refusals name."""
    client = client_for(floor.users[role])
    hand = Hand.objects.get(pk=floor.hands[1])
    api_body = {
        "client_id": uuid.uuid4().hex,
        "version": hand.version,
        "action": {"kind": "show", "seat": floor.seat, "cards": HELD},
        "trigger": "other_hole_card_exposed",
        "seat": floor.seat,
        "details": {"cards": "2h"},
        "reason": "Wrong cards",
    }
    form = {
        "client_id": uuid.uuid4().hex,
        "hand": str(hand.pk),
        "version": str(hand.version),
        "action": "show",
        "seat": str(floor.seat),
        "cards": " ".join(HELD),
        "trigger": "other_hole_card_exposed",
        "reason": "Wrong cards",
        "last_hand": str(hand.pk),
    }
    found: dict[str, set[str]] = {}
    for route in routes():
        kinds = kinds_of(route)
        if route.name in EXCLUDED or kinds is None:
            continue
        tablet = route.module in ("dealer.views.tablet", "dealer.views.procedures")
        if "hand" not in kinds.values() and not tablet:
            continue
        for url in urls(route, kinds, floor):
            if url.startswith("/api/"):
                response = client.post(url, api_body, content_type="application/json")
            else:
                response = client.post(url, form, headers={"HX-Request": "true"})
            assert response.status_code < 500, (url, response.status_code)
            if cards := seen(response):
                found[f"POST {url}"] = cards
    return found


# --- the rules --------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["anonymous", "other_dealer"])
def test_no_answer_shows_a_hidden_card_to_a_caller_who_may_not_see_it(floor, role) -> None:
    versions = dict(Hand.objects.filter(pk__in=floor.hands).values_list("pk", "version"))
    assert walk(floor, role) == {}
    assert refused_writes(floor, role) == {}
    # The refused writes changed nothing.
    assert dict(Hand.objects.filter(pk__in=floor.hands).values_list("pk", "version")) == versions


@pytest.mark.parametrize("role", ["own_dealer", "director"])
def test_the_tables_dealer_and_directors_read_every_card_entered(floor, role) -> None:
    found = walk(floor, role)
    assert set().union(*found.values()) == set(HIDDEN)
    # The previews answer them, about the cards entered (a refusal may name them to these).
    assert any("procedures" in where for where in found)


def test_every_exclusion_names_a_url_that_exists() -> None:
    names = {route.name for route in routes()}
    assert set(EXCLUDED) <= names, set(EXCLUDED) - names


def test_the_scan_reads_every_form_the_app_writes_a_card_in() -> None:
    assert cards_in('{"cards": ["Qs", "Qd"]}') == {"Qs", "Qd"}
    assert cards_in("d dh p1 JhJs") == {"Jh", "Js"}
    assert cards_in("<span>7♣</span> 9 of hearts") == {"7c", "9h"}
    assert cards_in("Qsx 7cards JhJsQ") == set()
