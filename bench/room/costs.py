"""What each of the room's requests costs the web process, in-process: CPU and SQL statements.

Run by `bench/room/run.py` on the room it built (before the servers start, `--costs`), or
alone: `python -m bench.room.costs ROOM_FILE` with the run's DATABASE_URL and REDIS_URL. Every
request goes straight into Django's WSGI handler (`DEBUG=0`, Redis as the cache, as in
production), so the CPU figure is this process's own, the one that noise on the machine moves
least: what the extrapolation to a large room multiplies by the requests per second.

The kinds: a tap on the tablet page (the htmx form post; a start when the hand is over) and the
tablet's poll (304 with the tap's ETag, 200 without); each public poll with the ETag of its last
answer (304), with a stale one while the answer of this version is cached (200, what all but
the first phone get after a change), and as the first request after the tournament's version
moved on (200, built); a phone's first load of the standings page; a waiting-list phone's poll.
"""

from __future__ import annotations

import io
import json
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from urllib.parse import urlencode, urlsplit

from bench.bench_actions import DECK, Tablet
from bench.room.build import Room
from bench.statements import StatementCount

Form = dict[str, object]  # a page's form fields, as posted
ExcInfo = tuple[type[BaseException], BaseException, TracebackType]
Measured = tuple[float, int, dict[str, str]]  # CPU (ms), SQL statements, the answer's headers

ROUNDS = 30


class App:
    """Django's WSGI handler, called as gunicorn calls it; counts the SQL statements run."""

    def __init__(self) -> None:
        from django.core.wsgi import get_wsgi_application
        from django.db import connection

        self.app = get_wsgi_application()
        self.counted = StatementCount()
        self.requests = 0
        connection.execute_wrappers.append(self.counted)

    @property
    def statements(self) -> int:
        return self.counted.statements

    def __call__(
        self, method: str, path: str, headers: dict[str, str], form: Form | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        self.requests += 1
        body = urlencode(form, doseq=True).encode() if form is not None else b""
        parts = urlsplit(path)
        environ: dict[str, object] = {
            "REQUEST_METHOD": method,
            "PATH_INFO": parts.path,
            "QUERY_STRING": parts.query,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "HTTP_HOST": "127.0.0.1",
            # An address per request: the lookups' rates per client (a phone polls its list
            # place six times a minute) are not what is measured here.
            "REMOTE_ADDR": f"10.{self.requests // 65536 % 256}.{self.requests // 256 % 256}."
            f"{self.requests % 256}",
            "CONTENT_LENGTH": str(len(body)),
            "wsgi.input": io.BytesIO(body),
            "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "wsgi.version": (1, 0),
        }
        if form is not None:
            environ["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
        for name, value in headers.items():
            environ["HTTP_" + name.upper().replace("-", "_")] = value
        answer: list[tuple[int, dict[str, str]]] = []

        def start_response(
            line: str,
            pairs: list[tuple[str, str]],
            exc_info: ExcInfo | tuple[None, None, None] | None = None,
        ) -> Callable[[bytes], None]:
            answer[:] = [(int(line.split()[0]), dict(pairs))]
            return lambda data: None

        chunks = self.app(environ, start_response)
        try:
            content = b"".join(chunks)
        finally:
            getattr(chunks, "close", lambda: None)()
        status, headers_sent = answer[0]
        return status, headers_sent, content


def _measure(app: App, request: Callable[[], tuple[int, dict[str, str], bytes]], expect: int):
    """One request's CPU (ms) and statements; refuses an answer of another status."""
    statements = app.statements
    started = time.process_time()
    status, headers, content = request()
    cpu = (time.process_time() - started) * 1000
    if status != expect:
        raise RuntimeError(f"{status} (not {expect}): {content[:300]!r}")
    return cpu, app.statements - statements, headers


def _median(rows: list[Measured]) -> tuple[float, float]:
    return statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows)


def tablet_costs(app: App, room: Room, rounds: int) -> dict[str, tuple[float, float]]:
    """Taps on the tablet page at the room's tables in turn, and the tablet's polls."""
    from dealer.models import Hand

    taps, polls_304, polls_200 = [], [], []
    tablets = room["tablets"]
    brains = [Tablet(0, t["table"], {}, seed=i) for i, t in enumerate(tablets)]
    for index in range(rounds * 2):
        mine, brain = tablets[index % len(tablets)], brains[index % len(tablets)]
        page = {"Cookie": mine["cookie"], "X-CSRFToken": mine["csrf"], "HX-Request": "true"}
        table = mine["table"]
        hand = Hand.objects.filter(table_id=table).order_by("-pk").first()
        assert hand is not None
        brain.state = hand.state
        if brain.state["phase"] in ("complete", "void"):
            form: Form = {"last_hand": hand.pk}
            path = f"/deal/table/{table}/start/"
            brain.deck = brain.rng.sample(DECK, len(DECK))
        else:
            held = set(json.dumps(brain.state).replace('"', " ").split())
            brain.deck = [c for c in brain.deck or brain.rng.sample(DECK, 52) if c not in held]
            action = brain.next_action()
            kind = action["kind"]
            form = {
                "client_id": uuid.uuid4().hex,
                "hand": hand.pk,
                "version": brain.state["version"],
                "action": f"{kind}:{action['amount']}" if kind in ("bet", "raise") else kind,
                **({"seat": action["seat"]} if action.get("seat") is not None else {}),
                **({"cards": action["cards"]} if action.get("cards") else {}),
            }
            path = f"/deal/table/{table}/action/"
        tap = _measure(app, lambda: app("POST", path, page, form), 200)  # noqa: B023
        taps.append(tap)
        state = f"/deal/table/{table}/state/"
        tagged = {**page, "If-None-Match": tap[2].get("ETag", "")}
        polls_304.append(_measure(app, lambda: app("GET", state, tagged), 304))  # noqa: B023
        polls_200.append(_measure(app, lambda: app("GET", state, page), 200))  # noqa: B023
    return {
        "tablet tap (page)": _median(taps),
        "tablet poll, 304": _median(polls_304),
        "tablet poll, 200": _median(polls_200),
    }


def _public_cases(room: Room) -> list[tuple[str, str, dict[str, str]]]:
    paths, browser = room["paths"], {"Accept-Encoding": "gzip, deflate, br"}
    htmx, data = {**browser, "HX-Request": "true"}, {**browser, "Accept": "application/json"}
    return [
        ("phone: standings poll", paths["state"], htmx),
        ("phone: seat poll", f"{paths['seat']}?{urlencode({'q': room['players'][0]})}", htmx),
        ("phone / screen: clock feed", paths["clock"], data),
        ("screen: board", paths["board"], data),
        ("waiting list: place poll", f"/lists/{room['waiting_codes'][0]}/state/", htmx),
    ]


def public_costs(app: App, room: Room, rounds: int) -> dict[str, tuple[float, float]]:
    """Each public poll: 304, 200 from the cache, 200 built after a change; the page's load."""
    from django.db import transaction

    from tournaments.services.versions import tournament_bump

    out = {}
    for name, path, headers in _public_cases(room):
        first = _measure(app, lambda: app("GET", path, headers), 200)  # noqa: B023
        tagged = {**headers, "If-None-Match": first[2].get("ETag", "")}
        stale = {**headers, "If-None-Match": '"an-answer-from-before"'}
        hits = [_measure(app, lambda: app("GET", path, tagged), 304) for _ in range(rounds)]  # noqa: B023
        out[f"{name}, 304"] = _median(hits)
        if name.startswith("waiting list"):
            continue  # its answer is the place's, not the tournament's version
        cached = [_measure(app, lambda: app("GET", path, stale), 200) for _ in range(rounds)]  # noqa: B023
        out[f"{name}, 200 from the cache"] = _median(cached)
        built = []
        for _ in range(rounds):
            with transaction.atomic():
                tournament_bump(room["tournament"])
            built.append(_measure(app, lambda: app("GET", path, stale), 200))  # noqa: B023
        out[f"{name}, 200 built after a change"] = _median(built)
    page = room["paths"]["standings"]
    loads = [_measure(app, lambda: app("GET", page, {}), 200) for _ in range(rounds)]
    out["phone: standings page (first load)"] = _median(loads)
    return out


def room_costs(room: Room) -> dict[str, tuple[float, float]]:
    app = App()
    # Each kind a few times first: imports, template compiles, the connection.
    tablet_costs(app, room, 3)
    public_costs(app, room, 3)
    return {**tablet_costs(app, room, ROUNDS), **public_costs(app, room, ROUNDS)}


def main() -> None:
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    room = json.loads(Path(sys.argv[1]).read_text())
    costs = room_costs(room)
    print("CPU per request in the web process (in-process, medians of", ROUNDS, "requests):")
    for name, (cpu, statements) in costs.items():
        print(f"  {name:58} {cpu:6.2f} ms CPU  {statements:4.0f} SQL statements")
    if len(sys.argv) > 2:
        Path(sys.argv[2]).write_text(json.dumps(costs))


if __name__ == "__main__":
    main()
