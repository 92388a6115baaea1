"""The tests that wait run in lanes of their own in a parallel run (tests/workers.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from tests.workers import LaneScheduling, lane

ROOT = Path(__file__).resolve().parents[2]

# A throwaway project laid out as ours: the browser tests, the production-process tests and
# tests of another kind, each recording the process it ran in. The first test of the other
# kind waits (20 s at most) until another process has run one of its kind: handed out one at a
# time, the others go to the lanes' processes as these run out of work; left to timing, the
# third process could run all six before the lanes' processes asked for more (seen on a loaded
# machine), which proved nothing about how they are handed out.
TEST_FILE = """
import os, pathlib, time, pytest

@pytest.mark.parametrize("n", range(6))
def test_one(n):
    time.sleep(0.05)
    here = os.environ["PYTEST_XDIST_WORKER"]
    out = pathlib.Path(os.environ["LANE_OUT"])
    (out / (__name__ + str(n))).write_text(here)
    if __name__ == "test_api" and n == 0:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(
            p.read_text() not in ("", here) for p in out.glob("test_api*")
        ):
            time.sleep(0.02)
"""
CONFTEST = """
def pytest_xdist_make_scheduler(config, log):
    from tests.workers import LaneScheduling
    return LaneScheduling(config, log)
"""


def test_a_browser_test_and_a_process_test_are_each_given_their_directorys_lane() -> None:
    split = LaneScheduling._split_scope  # the scheduler's unit of work for a test id

    def unit(nodeid: str) -> str:
        return split(LaneScheduling.__new__(LaneScheduling), nodeid)

    assert unit("tests/browser/test_tablet.py::test_undo") == "browser"
    assert unit("tests/browser/test_csp.py::test_public[390]") == "browser"
    assert unit("tests/operations/test_compose.py::test_up") == "processes"
    assert unit("tests/api/test_counts.py::test_a") == "tests/api/test_counts.py::test_a"
    assert lane("tests/security/test_form_fuzz.py::test_no_hostile") == ""


def test_each_lane_runs_in_one_process_and_the_other_tests_in_every_process(tmp_path) -> None:
    project = tmp_path / "project"
    for folder in ("tests/browser", "tests/operations", "tests/api"):
        (project / folder).mkdir(parents=True)
        (project / folder / f"test_{folder.split('/')[1]}.py").write_text(TEST_FILE)
    (project / "conftest.py").write_text(CONFTEST)
    (project / "pytest.ini").write_text("[pytest]\n")
    out = tmp_path / "out"
    out.mkdir()
    # Only pytest-xdist is loaded, not the suite's other plugins (Django's among them).
    env = {**os.environ, "LANE_OUT": str(out), "PYTHONPATH": str(ROOT)}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "xdist.plugin"]
    run = subprocess.run(
        [*command, "-n", "3", "--dist", "loadgroup"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr

    ran: dict[str, set[str]] = defaultdict(set)
    for record in out.iterdir():
        ran[record.name.rstrip("0123456789")].add(record.read_text())
    assert len(ran["test_browser"]) == 1, ran
    assert len(ran["test_operations"]) == 1, ran
    assert ran["test_browser"] != ran["test_operations"], ran
    assert len(ran["test_api"]) >= 2, ran  # handed out one at a time, not a lane
