"""The room's clients for locust, paced as the real pages are (issue 28, "Capacity").

`bench/room/run.py` starts locust on this file with the room's file (`ROOM_FILE`, written by
`bench/room/build.py`) and how many of each client to run (`ROOM_TABLES`, `ROOM_PHONES`,
`ROOM_SCREENS`, `ROOM_DESKS`, `ROOM_WAITING`); each class runs exactly that many users
(`fixed_count`). At the end the requests of the measured part (from `ROOM_WARMUP` seconds
after every user has started) go, summed up by name, into `ROOM_RESULT` (JSON).

- `Dealer`, one per table: taps the hand on the tablet page as the browser does (the htmx form
  post with the dealer's session and CSRF token: client id, hand, version, the action), one tap
  every 2 to 4 s, and starts the next hand on the page when one ends; the tablet polls its state
  every 3 s (`dealer/views/tablet.py`, POLL_SECONDS) with the ETag the last tap or poll gave it.
  The action is chosen from the hand's legal actions as `bench/bench_actions.py` chooses them,
  read after each tap through the hand API with the dealer's token: a read the real tablet does
  not make (it reads its buttons from the tap's HTML), named apart in the results.
- `Desk`, a director at a desk station: registers a name, busts an entry (the form, then the
  eliminations page it leads to), searches the bust picker, opens the day's tables page and
  dashboard; one request every 3 to 8 s.
- `Phone`, a player's phone on the standings page: the page once, a seat search for their own
  name, then every 10 s the polled standings part, the seat result and the clock feed, each
  with the ETag of its last answer (htmx and `static/js/clock.js` send `If-None-Match`).
- `Screen`, a big screen: the clock page once, then every 5 s the screen's board and the clock
  feed, with their ETags (`static/js/screen.js`, `clock.js`).
- `WaitingListPhone`, a phone following its place on a cash game's list: the page once, then
  its polled part every 10 s, with its ETag.

Every client asks for compressed answers, as browsers do. An answer other than the one expected
(a 4xx or 5xx, a tap refused) is a failure: the room passes only with none.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import statistics
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, cast
from urllib.parse import urlencode

import gevent  # type: ignore[import-untyped]  # locust's event loop: no type information
from locust import FastHttpUser, between, constant_pacing, events, task
from locust.contrib.fasthttp import ResponseContextManager

from bench.bench_actions import DECK, Tablet

if TYPE_CHECKING:
    from dealer.codec import HandSnapshot

TAP = "tablet tap"  # the figure the room is judged by: every write a dealer taps
READ = "bench: the hand's legal actions (API read, not a tablet's)"
TAP_PACE = (2.0, 4.0)
BUSTS_PER_RUN = 60
TABLET_POLL_SECONDS = 3.0
PHONE_POLL_SECONDS = 10.0
SCREEN_POLL_SECONDS = 5.0
BROWSER = {"Accept-Encoding": "gzip, deflate, br"}
FORM = "application/x-www-form-urlencoded"
CARD = re.compile(r"\b([2-9TJQKA][cdhs])\b")


def _room() -> dict[str, Any]:
    path = os.environ.get("ROOM_FILE")
    return json.loads(Path(path).read_text()) if path else {}


def _count(name: str) -> int:
    return int(os.environ.get(name, "0"))


ROOM = _room()
PATHS: dict[str, str] = ROOM.get("paths", {})
_tablets = itertools.count()
_phones = itertools.count()
_codes = itertools.count()
_busts = itertools.count()


Form = dict[str, object]  # a page's form fields, as posted


class RequestFigures(TypedDict):
    """One request name's figures in the measured window."""

    count: int
    failures: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    statuses: dict[str, int]
    examples: list[str]


class RoomSummary(TypedDict):
    """`ROOM_RESULT`: the window's length and each request name's figures."""

    seconds: float
    requests: dict[str, RequestFigures]


def _form(fields: Form) -> str:
    return urlencode(fields, doseq=True)


def _expect(response: ResponseContextManager, *statuses: int) -> None:
    """Marks the answer failed unless its status is one of `statuses`, with the sentence it
    gave (a page's message or notice, an API error's detail) or the start of its body."""
    if response.status_code not in statuses:
        text = response.text or ""
        said = re.findall(
            r'class="(?:message|notice|form-errors|field__error)[^"]*"[^>]*>\s*(?:<p>)?(.*?)</',
            text,
            re.S,
        )
        said = said or re.findall(r'"detail":\s*"([^"]*)"', text)
        response.failure(f"{response.status_code} {' / '.join(said)[:300] or text[:300]!r}")


class Dealer(FastHttpUser):
    """One table's tablet, tapped by its dealer at a live pace (module docstring)."""

    fixed_count = _count("ROOM_TABLES")

    def on_start(self) -> None:
        index = next(_tablets)
        mine = ROOM["tablets"][index]
        self.table = mine["table"]
        self.brain = Tablet(0, self.table, {}, seed=index)  # only its choice of action
        self.page = {**BROWSER, "Cookie": mine["cookie"], "X-CSRFToken": mine["csrf"]}
        self.page |= {"HX-Request": "true"}
        self.api = {"Authorization": mine["token"], "Accept": "application/json"}
        self.etag: str | None = None
        self._read_state()
        now = time.monotonic()
        self.next_tap = now + random.uniform(0, TAP_PACE[1])
        self.next_poll = now + random.uniform(0, TABLET_POLL_SECONDS)

    def wait_time(self) -> float:
        return max(0.0, min(self.next_tap, self.next_poll) - time.monotonic())

    @task
    def tick(self) -> None:
        now = time.monotonic()
        if now >= self.next_poll:
            self.next_poll += TABLET_POLL_SECONDS
            self._poll()
        if now >= self.next_tap:
            self.next_tap = now + random.uniform(*TAP_PACE)
            self._tap()

    def _read_state(self, hand: int | None = None) -> None:
        """The hand's state after a tap (`hand`), or the table's hand in progress; with none in
        progress (the last run ended one), the latest hand's number from the tablet page."""
        path = f"/api/hands/{hand}/" if hand else f"/api/tables/{self.table}/hands/current/"
        with self.client.get(path, headers=self.api, name=READ, catch_response=True) as answer:
            if answer.status_code == 404 and hand is None:
                answer.success()
                # No hand in progress: only what the next tap reads (a start) is known.
                self.brain.state = cast(
                    "HandSnapshot", {"phase": "complete", "hand": self._latest_hand()}
                )
                return
            _expect(answer, 200)
            if answer.status_code == 200:
                self.brain.state = json.loads(answer.content)
                # The cards the hand holds already stay out of the deck (a hand this client
                # did not start, from the last run, has cards of another deck).
                seen = set(CARD.findall(answer.text or ""))
                self.brain.deck = [card for card in self.brain.deck if card not in seen]

    def _latest_hand(self) -> int:
        path = f"/deal/table/{self.table}/state/"
        with self.client.get(path, headers=self.page, name=READ, catch_response=True) as answer:
            _expect(answer, 200)
            found = re.search(r'data-hand="(\d+)"', answer.text or "")
            return int(found.group(1)) if found else 0

    def _poll(self) -> None:
        headers = dict(self.page)
        if self.etag:
            headers["If-None-Match"] = self.etag
        path = f"/deal/table/{self.table}/state/"
        with self.client.get(path, headers=headers, name="tablet poll", catch_response=True) as a:
            _expect(a, 200, 304)
            if a.status_code == 200:
                self.etag = a.headers.get("ETag") or self.etag

    def _tap(self) -> None:
        state = self.brain.state
        if state.get("phase") in ("complete", "void"):
            path = f"/deal/table/{self.table}/start/"
            fields: Form = {"last_hand": state["hand"]}
            self.brain.deck = self.brain.rng.sample(DECK, len(DECK))
        else:
            path = f"/deal/table/{self.table}/action/"
            fields = self._action_fields()
        headers = {**self.page, "Content-Type": FORM}
        with self.client.post(
            path, data=_form(fields), headers=headers, name=TAP, catch_response=True
        ) as answer:
            _expect(answer, 200)
            self.etag = answer.headers.get("ETag") or self.etag
        hand = fields.get("hand")  # an action's hand; a start reads the table's new one
        self._read_state(hand if isinstance(hand, int) else None)

    def _action_fields(self) -> Form:
        """The tablet page's form for the next action (as `bench/bench_write_cpu.py` posts it)."""
        brain = self.brain
        if not brain.deck:
            brain.deck = brain.rng.sample(DECK, len(DECK))
        action = brain.next_action()
        kind = action["kind"]
        fields: Form = {
            "client_id": uuid.uuid4().hex,
            "hand": brain.state["hand"],
            "version": brain.state["version"],
            "action": f"{kind}:{action['amount']}" if kind in ("bet", "raise") else kind,
        }
        if action.get("seat") is not None:
            fields["seat"] = action["seat"]
        if action.get("cards"):
            fields["cards"] = action["cards"]
        return fields


class Desk(FastHttpUser):
    """A director at a desk station (module docstring)."""

    fixed_count = _count("ROOM_DESKS")
    wait_time = between(3, 8)

    def on_start(self) -> None:
        desk = ROOM["desk"]
        self.headers = {**BROWSER, "Cookie": desk["cookie"], "X-CSRFToken": desk["csrf"]}
        self.flight = desk["tournament"]
        self.day = ROOM["tournament"]

    def _post(self, path: str, fields: Form, name: str, status: int) -> None:
        headers = {**self.headers, "Content-Type": FORM}
        if status == 200:
            headers["HX-Request"] = "true"
        with self.client.post(
            path,
            data=_form({**fields, "form_token": uuid.uuid4().hex}),
            headers=headers,
            name=name,
            allow_redirects=False,
            catch_response=True,
        ) as answer:
            _expect(answer, status)

    def _get(self, path: str, name: str, htmx: bool = False) -> None:
        headers = {**self.headers, "HX-Request": "true"} if htmx else self.headers
        with self.client.get(path, headers=headers, name=name, catch_response=True) as answer:
            _expect(answer, 200)

    @task(3)
    def register(self) -> None:
        name = f"Late Player {uuid.uuid4().hex[:10]}"
        path = f"/desk/t/{self.flight}/entries/"
        self._post(path, {"name": name}, "desk: register (htmx form)", 200)

    @task(2)
    def bust(self) -> None:
        busts = ROOM["desk"]["busts"]
        # Each run busts entries of its own: the last run's are out already.
        entry, chips = busts[(next(_busts) + BUSTS_PER_RUN * _count("ROOM_STEP")) % len(busts)]
        path = f"/desk/t/{self.flight}/busts/"
        self._post(path, {"entry": entry, "stack": chips}, "desk: bust (form)", 302)
        self._get(path, "desk: eliminations page", htmx=True)

    @task(2)
    def bust_search(self) -> None:
        query = f"player {random.randrange(100)}"
        self._get(f"/desk/t/{self.day}/busts/search/?{urlencode({'q': query})}", "desk: search")

    @task(1)
    def tables_page(self) -> None:
        self._get(f"/desk/t/{self.day}/tables/", "desk: tables page")

    @task(1)
    def dashboard(self) -> None:
        self._get(f"/desk/t/{self.day}/", "desk: dashboard")


class _Poller(FastHttpUser):
    """A public page's client: its ETags by path, sent back as `If-None-Match`."""

    abstract = True
    period = PHONE_POLL_SECONDS

    def on_start(self) -> None:
        self.etags: dict[str, str] = {}
        gevent.sleep(random.uniform(0, self.period))  # the room's phones are not in step

    def poll(self, path: str, name: str, **headers: str) -> None:
        sent = {**BROWSER, **headers}
        if path in self.etags:
            sent["If-None-Match"] = self.etags[path]
        with self.client.get(path, headers=sent, name=name, catch_response=True) as answer:
            _expect(answer, 200, 304)
            if answer.status_code == 200 and answer.headers.get("ETag"):
                self.etags[path] = answer.headers["ETag"]


class Phone(_Poller):
    """A player's phone on the standings page (module docstring)."""

    fixed_count = _count("ROOM_PHONES")
    wait_time = constant_pacing(PHONE_POLL_SECONDS)

    def on_start(self) -> None:
        super().on_start()
        players = ROOM["players"]
        query = urlencode({"q": players[next(_phones) % len(players)]})
        self.seat = f"{PATHS['seat']}?{query}"
        self.poll(PATHS["standings"], "phone: standings page")
        self.poll(self.seat, "phone: seat search", **{"HX-Request": "true"})

    @task
    def tick(self) -> None:
        self.poll(PATHS["state"], "phone: standings poll", **{"HX-Request": "true"})
        self.poll(self.seat, "phone: seat poll", **{"HX-Request": "true"})
        self.poll(PATHS["clock"], "phone: clock feed", Accept="application/json")


class Screen(_Poller):
    """A big screen (module docstring)."""

    fixed_count = _count("ROOM_SCREENS")
    period = SCREEN_POLL_SECONDS
    wait_time = constant_pacing(SCREEN_POLL_SECONDS)

    def on_start(self) -> None:
        super().on_start()
        self.poll(PATHS["screen"], "screen: page")

    @task
    def tick(self) -> None:
        self.poll(PATHS["board"], "screen: board", Accept="application/json")
        self.poll(PATHS["clock"], "screen: clock feed", Accept="application/json")


class WaitingListPhone(_Poller):
    """A phone following its place on a cash game's list (module docstring)."""

    fixed_count = _count("ROOM_WAITING")
    wait_time = constant_pacing(PHONE_POLL_SECONDS)

    def on_start(self) -> None:
        super().on_start()
        codes = ROOM["waiting_codes"]
        code = codes[next(_codes) % len(codes)]
        self.place = f"/lists/{code}/state/"
        self.poll(f"/lists/{code}/", "waiting list: place page")

    @task
    def tick(self) -> None:
        self.poll(self.place, "waiting list: place poll", **{"HX-Request": "true"})


# --- the measured part, summed up ------------------------------------------------------------

_times: defaultdict[str, list[float]] = defaultdict(list)
_statuses: defaultdict[str, Counter[int]] = defaultdict(Counter)
_failures: defaultdict[str, list[str]] = defaultdict(list)
_failed: Counter[str] = Counter()
_window = {"start": 0.0}


def _measure_from_now() -> None:
    _times.clear()
    _statuses.clear()
    _failures.clear()
    _failed.clear()
    _window["start"] = time.time()


@events.spawning_complete.add_listener
def _measure_soon(user_count: int, **_: object) -> None:
    """Everyone has started; `ROOM_WARMUP` seconds later (10: every phone has loaded its page
    and polled once) the measure starts: what came before is the warm-up."""
    gevent.spawn_later(float(os.environ.get("ROOM_WARMUP", "10")), _measure_from_now)


@events.request.add_listener
def _record(
    name: str, response_time: float, exception: object, response: object = None, **_: object
) -> None:
    if not _window["start"]:
        return
    _times[name].append(response_time)
    _statuses[name][getattr(response, "status_code", 0) or 0] += 1
    if exception is not None:
        _failed[name] += 1
        if len(_failures[name]) < 5:
            _failures[name].append(str(exception)[:300])


def summary() -> RoomSummary:
    """Per request name: how many, failures, p50/p99/max in ms, statuses; the window's length."""
    seconds = time.time() - _window["start"] if _window["start"] else 0.0
    names: dict[str, RequestFigures] = {}
    for name, times in _times.items():
        ordered = sorted(times)
        cuts = statistics.quantiles(ordered, n=100, method="inclusive") if len(ordered) > 1 else []
        names[name] = {
            "count": len(ordered),
            "failures": _failed[name],
            "p50_ms": cuts[49] if cuts else ordered[0],
            "p99_ms": cuts[98] if cuts else ordered[0],
            "max_ms": ordered[-1],
            "statuses": {str(s): n for s, n in _statuses[name].items()},
            "examples": _failures.get(name, []),
        }
    return {"seconds": seconds, "requests": names}


@events.quitting.add_listener
def _write_summary(**_: object) -> None:
    path = os.environ.get("ROOM_RESULT")
    if path:
        Path(path).write_text(json.dumps(summary()))
