"""The whole room's load (bench/room, issue 28): what it runs is what production runs, and its
clients poll at the pages' own pace. No server, no database: the bench itself is run by hand
(docs/performance.md, "A whole room").

locust patches the standard library with gevent when it is imported, so the locustfile is
imported in a process of its own, which reports its classes and paces as JSON.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bench.room.run import compose_commands
from tests.operations.processes import ROOT

CLIENTS = ("Dealer", "Desk", "Phone", "Screen", "WaitingListPhone")

REPORT = """
import json
import sys
from locust import User
import bench.room.locustfile as room
classes = {}
for name in sys.argv[1:]:
    cls = getattr(room, name)
    classes[name] = {
        "user": issubclass(cls, User),
        "abstract": cls.abstract,
        "tasks": len(cls.tasks),
        "fixed_count": cls.fixed_count,
    }
paces = {
    "tablet": room.TABLET_POLL_SECONDS,
    "phone": room.PHONE_POLL_SECONDS,
    "screen": room.SCREEN_POLL_SECONDS,
    "taps": list(room.TAP_PACE),
}
print(json.dumps({"classes": classes, "paces": paces}))
"""


@pytest.fixture(scope="module")
def locustfile() -> dict:
    env = {"PATH": str(Path(sys.executable).parent), "ROOM_TABLES": "3", "ROOM_PHONES": "7"}
    done = subprocess.run(
        [sys.executable, "-c", REPORT, *CLIENTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_every_client_is_a_locust_user_with_a_task_and_the_count_it_is_given(locustfile):
    classes = locustfile["classes"]
    assert set(classes) == set(CLIENTS)
    for name, cls in classes.items():
        assert cls["user"], name
        assert not cls["abstract"], name
        assert cls["tasks"] >= 1, name
    assert classes["Dealer"]["fixed_count"] == 3  # ROOM_TABLES: one tablet per table
    assert classes["Phone"]["fixed_count"] == 7
    assert classes["Screen"]["fixed_count"] == 0  # not given: none


def test_the_clients_poll_at_the_pages_own_pace(locustfile):
    from dealer.cash.games import views as list_views
    from dealer.views import tablet
    from tournaments.views import public, screens

    paces = locustfile["paces"]
    assert paces["tablet"] == tablet.POLL_SECONDS
    assert paces["phone"] == public.POLL_SECONDS == list_views.POLL_SECONDS
    assert paces["screen"] == screens.CLOCK_POLL_SECONDS
    assert paces["taps"] == [2.0, 4.0]  # the live pace: one tap every 2 to 4 s


def test_the_runner_starts_compose_s_own_commands(tmp_path):
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    commands = compose_commands(tmp_path)
    assert commands["web"][1:] == services["web"]["command"][1:]
    assert Path(commands["web"][0]).name == "gunicorn"
    assert commands["worker"][1:] == services["worker"]["command"][1:]
    assert commands["migrate"][0] == sys.executable
    beat = commands["beat"]
    # The beat's schedule file is the run's own; everything else is compose's.
    schedule = beat.index("--schedule")
    assert beat[schedule + 1] == str(tmp_path / "celerybeat-schedule")
    expected = list(services["beat"]["command"][1:])
    expected[schedule] = str(tmp_path / "celerybeat-schedule")
    assert beat[1:] == expected
