"""Every HTML form, sent hostile values: no answer is a 5xx (issue 12).

The pages come from the URL configuration (a page this module cannot name fails the test), with
ids from the demo floor (`load_demo`, `load_cash_demo`, plus a completed and a running hand at
the dealer's table). Each is fetched as a director, the table's dealer and an anonymous visitor;
every `<form>`, every element with `hx-get`/`hx-post` and every same-site link with a query is
read with its fields as the page filled them (`html.parser`), and each field is sent, one at a
time, with each hostile value: a NUL byte, non-ASCII digits, 5,000 digits, 10^30, -1, nothing,
10,000 characters, markup, "1e309", "nan", a broken formset count, an off-site `next`.

Each submission runs in a savepoint rolled back after it, with the client's cookies restored:
the submissions do not change one another's pages, and the run is the same every time (the
sample, when the plan is over budget, is seeded). An answer in the 4xx must have changed nothing.
"""

from __future__ import annotations

import io
import random
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import transaction
from django.db.models import Count, Sum
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.urls.exceptions import Resolver404

from dealer.cash.games.services import cash_game_create
from dealer.cash.games.waitlist import game_waitlist_join
from dealer.cash.models import CashSeat, WaitingListEntry
from dealer.models import Hand, HandEvent, ProcedureLog
from dealer.rotation.services import dealer_shift_start
from dealer.services import hand_record_action, hand_start
from tournaments.models import AuditEvent, BlindSchedule, ChipMove, Entry, Table, Tournament
from tournaments.services.access import device_sign_in

SEED = 20260512
NOW = datetime(2026, 5, 12, 18, 0, tzinfo=UTC)
BUDGET = 3000  # submissions (about 2,200 today: under a minute on an idle core); seeded sample

HOSTILE = (
    "a\x00b",
    "²",
    "٣",
    "9" * 5000,
    str(10**30),
    "-1",
    "",
    "x" * 10_000,
    "<script>alert(1)</script>",
    "1e309",
    "nan",
)
# A formset's management form: a count that is not one, negative, absurd.
MANAGEMENT = ("x", "-1", str(10**9), "²", "9" * 5000)
REDIRECTS = ("-1", "//evil.example", "https://evil.example/", "deal-table")

# URL names that are not pages of this project: Django's admin (but its login) and the API's
# schema and docs (fuzzed through the schema itself, tests/security/test_schema_fuzz.py).
NOT_PAGES = ("api-schema", "api-docs")
# Pages the demo floor offers no form or link to, and why.
UNREACHED: dict[str, str] = {}


# --- reading pages ---------------------------------------------------------------------------


@dataclass
class Form:
    """What a browser would send: the method, the URL and the fields as the page filled them
    (`names`: every field, sent or not, such as an unchecked box or an unpressed button)."""

    method: str
    url: str
    htmx: bool
    fields: list[tuple[str, str]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    button: tuple[str, str] | None = None

    def name(self, name: str) -> None:
        if name and name not in self.names:
            self.names.append(name)

    def data(self) -> list[tuple[str, str]]:
        return self.fields + ([self.button] if self.button else [])


class FormReader(HTMLParser):
    """The forms of a page, its hx-get/hx-post elements outside forms and its links with a
    query string."""

    def __init__(self, page_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_url = page_url
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: tuple[str, list[str], list[str]] | None = None  # name, options, selected
        self.textarea: tuple[str, list[str]] | None = None

    def _url(self, raw: str | None) -> str:
        return urljoin(self.page_url, raw or self.page_url).split("#")[0]

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in attrs_list}
        htmx = next((m for m in ("hx-post", "hx-get") if m in attrs), None)
        if tag == "form":
            method = htmx[3:] if htmx else (attrs.get("method") or "get").lower()
            url = self._url(attrs[htmx] if htmx else attrs.get("action"))
            self.form = Form(method=method, url=url, htmx=bool(htmx))
            self.forms.append(self.form)
            return
        if htmx and self.form is None:
            self._htmx_element(htmx, attrs)
        if tag == "a" and "?" in attrs.get("href", ""):
            self._link(attrs["href"])
        if self.form is None:
            return
        name = attrs.get("name", "")
        if tag == "input":
            self._input(name, attrs)
        elif tag == "button" and name and attrs.get("type", "submit") == "submit":
            self.form.name(name)
            if self.form.button is None:
                self.form.button = (name, attrs.get("value", ""))
        elif tag == "select" and name:
            self.select = (name, [], [])
        elif tag == "option" and self.select is not None:
            self.select[1].append(attrs.get("value", ""))
            if "selected" in attrs:
                self.select[2].append(attrs.get("value", ""))
        elif tag == "textarea" and name:
            self.textarea = (name, [])

    def _input(self, name: str, attrs: dict[str, str]) -> None:
        assert self.form is not None
        kind = attrs.get("type", "text").lower()
        if not name or kind in ("reset", "image", "button", "file"):
            return
        self.form.name(name)
        if kind == "submit":
            if self.form.button is None:
                self.form.button = (name, attrs.get("value", ""))
        elif kind not in ("checkbox", "radio") or "checked" in attrs:
            self.form.fields.append((name, attrs.get("value", "on" if kind == "checkbox" else "")))

    def _htmx_element(self, htmx: str, attrs: dict[str, str]) -> None:
        form = Form(method=htmx[3:], url=self._url(attrs[htmx]), htmx=True)
        if attrs.get("name"):
            form.name(attrs["name"])
            form.fields.append((attrs["name"], attrs.get("value", "")))
        self.forms.append(form)

    def _link(self, href: str) -> None:
        url = self._url(href)
        parts = urlsplit(url)
        if parts.netloc not in ("", "testserver"):
            return
        form = Form(method="get", url=parts.path, htmx=False)
        for name, value in parse_qsl(parts.query, keep_blank_values=True):
            form.name(name)
            form.fields.append((name, value))
        self.forms.append(form)

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.textarea[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select" and self.select is not None and self.form is not None:
            name, options, selected = self.select
            self.form.name(name)
            chosen = selected[:1] or options[:1]
            self.form.fields.extend((name, value) for value in chosen)
            self.select = None
        elif tag == "textarea" and self.textarea is not None and self.form is not None:
            name, text = self.textarea
            self.form.name(name)
            self.form.fields.append((name, "".join(text)))
            self.textarea = None


def forms_of(url: str, html: str) -> list[Form]:
    reader = FormReader(url)
    reader.feed(html)
    return reader.forms


# --- the floor and its pages -----------------------------------------------------------------


def _fold_around(hand: Hand) -> Hand:
    state = hand.state
    while state["status"] == Hand.Status.IN_PROGRESS:
        result = hand_record_action(
            hand=hand,
            action={"kind": "fold", "seat": state["actor_seat"]},
            client_id=uuid.uuid4().hex,
            version=state["version"],
        )
        hand, state = result.hand, result.answer
    return hand


@dataclass
class Floor:
    tournament: Tournament
    table: Table  # the dealer's tournament table, a hand in progress
    cash: Table
    done_hand: Hand

    def kwargs(self, name: str, route: str) -> list[dict[str, Any]]:  # ids, and a list's code
        """The ids a page's URL takes, on this floor (several where the page differs); none
        for a page whose ids this floor has not (it must be reached through a form)."""
        entry = Entry.objects.filter(tournament=self.tournament, status="active").first()
        seat = CashSeat.objects.filter(table=self.cash).order_by("seat").first()
        waiting = WaitingListEntry.objects.filter(table=self.cash).first()
        assert entry is not None
        assert seat is not None
        assert waiting is not None
        listed = WaitingListEntry.objects.filter(game__isnull=False).order_by("pk").first()
        found: dict[str, Any]
        if name == "games-join" and listed is not None:  # a game's public list (issue 15)
            found = {"pk": listed.game_id}
        elif name.startswith("list-place") and listed is not None:
            found = {"code": listed.code}
        elif name.startswith("cash-game-") and listed is not None:  # a game's desk pages
            found = {"pk": listed.game_id, "entry_pk": listed.pk}
        elif name == "rotation-shift-end":
            found = {"dealer_id": User.objects.get(username="dealer").pk}
        elif name.startswith("cash-"):
            found = {"pk": self.cash.pk, "seat_pk": seat.pk, "entry_pk": waiting.pk}
        elif name.startswith("deal-") and "<int:pk>" in route:
            return [{"pk": self.table.pk}, {"pk": self.cash.pk}]
        elif name == "schedule-edit":
            found = {"pk": BlindSchedule.objects.get(name="Demo deepstack").pk}
        elif name in ("player-detail", "public-player"):  # a player's pages (issue 14)
            found = {"pk": entry.player_id}
        elif name.startswith("event-") and "<int:pk>" in route:  # a multi-flight event's pages
            found = {"pk": Tournament.objects.get(kind=Tournament.Kind.EVENT).pk}
        elif route.startswith("desk/t/") or route.startswith("t/") or "table_pk" in route:
            found = {
                "pk": self.tournament.pk,
                "entry_pk": entry.pk,
                "hand_pk": self.done_hand.pk,
                "table_pk": self.table.pk,
                "screen_pk": self.tournament.screens.latest("pk").pk,
            }
        else:
            found = {}
        wanted = set(re.findall(r"<(?:\w+:)?(\w+)>", route))
        if not wanted <= found.keys():
            return []
        return [{k: v for k, v in found.items() if k in wanted}]


def _patterns(resolver: URLResolver, prefix: str = "", ns: str = "") -> Iterator[tuple[str, str]]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{ns}{entry.namespace}:" if entry.namespace else ns
            yield from _patterns(entry, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern) and entry.name:
            yield prefix + str(entry.pattern), ns + entry.name


def page_names() -> dict[str, str]:
    """Every page of the project (of the admin, its login): URL name -> route."""
    return {
        name: route
        for route, name in _patterns(get_resolver())
        if not route.startswith("api/")
        and name not in NOT_PAGES
        and (not name.startswith("admin:") or name == "admin:login")
    }


def page_urls(floor: Floor) -> list[str]:
    """Every page whose ids the floor has, with those ids."""
    return [
        reverse(name, kwargs=kwargs)
        for name, route in page_names().items()
        for kwargs in floor.kwargs(name, route)
    ]


def url_name(url: str) -> str | None:
    try:
        return resolve(urlsplit(url).path).view_name
    except Resolver404:
        return None


def build_floor() -> Floor:
    call_command("load_demo", stdout=open_null())
    call_command("load_cash_demo", stdout=open_null())
    tournament = Tournament.objects.get(name="FloorDesk Demo Deepstack")
    table = Table.objects.get(tournament=tournament, number=1)
    done = _fold_around(hand_start(table=table))
    hand_start(table=table)
    cash = Table.objects.get(tournament=None, number=20)
    # The demo holds a multi-flight event and screens, and the cash demo a game ("1/2 NL", two
    # tables, three waiting): their pages are fuzzed too. A second game, tableless, with a player
    # on its list, and a dealer on the shift list, for the cash floor's pages.
    game = cash_game_create(name="2/5 NL", small_blind=2, big_blind=5)
    game_waitlist_join(game=game, player_name="Lena Park", now=NOW)
    dealer_shift_start(dealer_id=User.objects.get(username="dealer").pk, at=NOW)
    # The access page's rows: a tablet signed in, and an account locked out by wrong passwords.
    device_sign_in(user=User.objects.get(username="dealer"), label="Table 1 tablet", now=NOW)
    stranger = Client()
    for _ in range(getattr(settings, "AXES_FAILURE_LIMIT", 5) + 1):
        stranger.post(reverse("login"), {"username": "ghost", "password": "wrong"})
    return Floor(tournament=tournament, table=table, cash=cash, done_hand=done)


def open_null() -> Any:
    return io.StringIO()


def fingerprint() -> tuple[Any, ...]:
    """What a write changes, in a few cheap reads."""
    return (
        list(Tournament.objects.order_by("pk").values_list("version", "status", "clock_level")),
        Hand.objects.aggregate(n=Count("pk"), v=Sum("version")),
        HandEvent.objects.count(),
        Entry.objects.aggregate(n=Count("pk"), chips=Sum("chips"), seats=Sum("seat")),
        ChipMove.objects.count(),
        CashSeat.objects.aggregate(n=Count("pk"), chips=Sum("chips")),
        WaitingListEntry.objects.count(),
        AuditEvent.objects.count(),
        ProcedureLog.objects.count(),
        list(Table.objects.order_by("pk").values_list("dealer_id", "is_open", "button_seat")),
        BlindSchedule.objects.count(),
    )


# --- the plan and the run --------------------------------------------------------------------


@dataclass(frozen=True)
class Submission:
    role: str
    method: str
    url: str
    htmx: bool
    data: tuple[tuple[str, str], ...]
    changed: str  # the field given a hostile value, for the report


def hostile_values(name: str) -> tuple[str, ...]:
    if name.endswith(("_FORMS", "_NUM_FORMS")):
        return HOSTILE + MANAGEMENT
    if name == "next":
        return HOSTILE + REDIRECTS
    return HOSTILE


def shape(name: str) -> str:
    """A field's name without its numbers: a formset's rows and a count sheet's players are the
    same field many times over, fuzzed once."""
    return re.sub(r"\d+", "#", name)


def submissions(role: str, form: Form) -> Iterator[Submission]:
    base = form.data()
    shapes: set[str] = set()
    for name in form.names:
        if shape(name) in shapes:
            continue
        shapes.add(shape(name))
        kept = [(k, v) for k, v in base if k != name]
        for value in hostile_values(name):
            data = (*kept, (name, value))
            yield Submission(role, form.method, form.url, form.htmx, data, f"{name}={value[:20]!r}")


def _form_key(form: Form) -> tuple[Any, ...] | None:
    """Forms are fuzzed once per URL name and fields (one rebuy form for 45 entries; the tablet's
    forms as its dealer, not again as a director)."""
    name = url_name(form.url)
    return None if name is None else (form.method, name, tuple(sorted(form.names)))


def send(client: Client, sub: Submission) -> Any:
    headers = {"HX-Request": "true"} if sub.htmx else {}
    if sub.method == "get":
        return client.get(sub.url, list(sub.data), headers=headers)
    data: dict[str, list[str]] = {}
    for name, value in sub.data:
        data.setdefault(name, []).append(value)
    return client.post(sub.url, data, headers=headers)


def clients(floor: Floor) -> dict[str, Client]:
    made = {}
    for role, username in (("dealer", "dealer"), ("director", "director"), ("anonymous", None)):
        client = Client(raise_request_exception=False)
        if username:
            client.force_login(User.objects.get(username=username))
        made[role] = client
    return made


def collect_forms(floor: Floor, made: dict[str, Client]) -> tuple[list[tuple[str, Form]], set[str]]:
    """Every form on every page, per role, and on the htmx partials those pages load; with the
    URL names fetched or posted to."""
    seen: set[tuple[Any, ...]] = set()
    found: list[tuple[str, Form]] = []
    reached: set[str] = set()
    for role, client in made.items():
        queue = [(url, False) for url in page_urls(floor)]
        fetched: set[str] = set()
        while queue:
            url, htmx = queue.pop(0)
            if url in fetched:
                continue
            fetched.add(url)
            reached.add(url_name(url) or "")
            response = client.get(url, headers={"HX-Request": "true"} if htmx else {})
            assert response.status_code < 500, f"GET {url} as {role}: {response.status_code}"
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            for form in forms_of(url, response.content.decode()):
                if form.htmx and form.method == "get" and len(fetched) < 400:
                    query = urlencode(form.fields)
                    queue.append((form.url + ("?" + query if query else ""), True))
                key = _form_key(form)
                if key is not None and key not in seen:
                    seen.add(key)
                    reached.add(key[1])
                    found.append((role, form))
    return found, reached


@pytest.mark.django_db
def test_no_hostile_form_input_answers_a_server_error() -> None:
    floor = build_floor()
    made = clients(floor)
    forms, reached = collect_forms(floor, made)
    missed = sorted(page_names().keys() - reached - UNREACHED.keys())
    assert not missed, f"pages neither fetched nor posted to (name their ids in Floor): {missed}"
    plan = [sub for role, form in forms for sub in submissions(role, form)]
    if len(plan) > BUDGET:
        plan = [plan[i] for i in sorted(random.Random(SEED).sample(range(len(plan)), BUDGET))]
    before = fingerprint()
    errors: list[str] = []
    changed: list[str] = []
    for sub in plan:
        client = made[sub.role]
        cookies = client.cookies
        client.cookies = cookies.__class__(cookies)  # a logout or a message leaves no trace
        with transaction.atomic():
            response = send(client, sub)
            if response.status_code >= 500:
                errors.append(f"{sub.role} {sub.method.upper()} {sub.url} {sub.changed}")
            elif 400 <= response.status_code < 500 and fingerprint() != before:
                changed.append(f"{response.status_code} {sub.method} {sub.url} {sub.changed}")
            transaction.set_rollback(True)
        client.cookies = cookies
    assert not errors, f"{len(errors)} of {len(plan)} answered 5xx:\n" + "\n".join(errors[:60])
    assert not changed, "refused, yet data changed:\n" + "\n".join(changed[:60])
