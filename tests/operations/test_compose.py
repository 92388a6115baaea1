"""compose.yaml: the production stack it describes, checked without Docker.

`docker compose up` is not available where the tests run. The file is read and checked (its
services, their commands, health checks and start order, the image and the `.env` template),
then its migrate, web, worker and beat commands are started as they are written, with the
environment compose would give them (`.env.example`, the services' own variables), pointed at
the machine's PostgreSQL and Redis: gunicorn must pass the web service's own health check, the
worker answer a ping, and beat start.
"""

from __future__ import annotations

import json
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from celery import Celery

from tests.operations.processes import (
    ROOT,
    Process,
    broker_database,
    database_url,
    need_services,
    production_env,
    redis_url,
    wait_until,
)
from tests.operations.servers import free_port

APP_SERVICES = ("migrate", "web", "worker", "beat")


def _compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def _services() -> dict[str, Any]:
    return _compose()["services"]


def _env_example() -> dict[str, str]:
    """The variables `.env.example` sets (commented-out lines are documentation)."""
    pairs = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            pairs[name.strip()] = value.strip()
    return pairs


def _interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's `${NAME}` and `${NAME:-default}` (defaults may nest), as far as this file uses
    them."""
    pattern = re.compile(r"\$\{(\w+)(?::-((?:[^{}]|\{[^{}]*\})*))?\}")
    while True:
        replaced = pattern.sub(lambda m: env.get(m[1]) or _interpolate(m[2] or "", env), value)
        if replaced == value:
            return value
        value = replaced


def test_compose_names_the_production_services_and_their_commands() -> None:
    services = _services()
    assert set(services) == {"postgres", "redis", *APP_SERVICES}
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    commands = {name: services[name]["command"] for name in APP_SERVICES}
    assert commands["migrate"] == ["python", "manage.py", "migrate", "--noinput"]
    assert commands["web"] == ["gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"]
    assert commands["worker"][:4] == ["celery", "-A", "config", "worker"]
    assert commands["beat"][:4] == ["celery", "-A", "config", "beat"]
    for name in APP_SERVICES:  # one image, one `.env`
        assert services[name]["build"] == "."
        assert services[name]["env_file"] == ".env"


def test_compose_starts_each_service_once_what_it_needs_is_healthy() -> None:
    services = _services()
    assert services["migrate"]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    for name in ("web", "worker", "beat"):
        assert services[name]["depends_on"] == {
            "migrate": {"condition": "service_completed_successfully"},
            "redis": {"condition": "service_healthy"},
        }
    for name in ("postgres", "redis", "web"):
        assert services[name]["healthcheck"]["test"]
    assert services["web"]["healthcheck"]["test"] == ["CMD", "python", "-m", "config.health"]
    # The data lives in named volumes, not in a container's disk.
    assert set(_compose()["volumes"]) == {"postgres-data", "redis-data"}


def test_compose_restarts_every_long_running_service_that_exits() -> None:
    services = _services()
    for name in ("postgres", "redis", "web", "worker", "beat"):
        assert services[name]["restart"] in {"unless-stopped", "always"}, name
    # The migration runs once per `up`: restarting it after it succeeded would loop.
    assert services["migrate"]["restart"] == "no"


def test_env_example_names_every_variable_compose_reads() -> None:
    text = (ROOT / "compose.yaml").read_text()
    used = set(re.findall(r"\$\{(\w+)", text))
    documented = set(re.findall(r"^#? ?(\w+)=", (ROOT / ".env.example").read_text(), re.M))
    assert used <= documented
    assert {"SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "HTTPS"} <= documented


def test_the_image_installs_the_locked_runtime_versions_as_a_user_without_rights() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim$", dockerfile, re.M)
    assert "pip install --require-hashes -r requirements/prod.txt" in dockerfile
    assert "collectstatic --noinput" in dockerfile
    assert re.search(r"^USER (?!root)\w+$", dockerfile, re.M)
    lock = (ROOT / "requirements" / "prod.txt").read_text()
    assert "--hash=sha256:" in lock
    assert "file:" not in lock  # nothing from this machine's own indexes


def _argv(command: list[str], schedule: Path) -> list[str]:
    """A compose command as this machine runs it: the project's Python and its packages."""
    program, *args = command
    if program in {"gunicorn", "celery"}:
        argv = [sys.executable, "-m", program, *args]
    else:
        assert program == "python"
        argv = [sys.executable, *args]
    if "--schedule" in argv:  # beat's state file: the test's own
        argv[argv.index("--schedule") + 1] = str(schedule)
    return argv


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db
def test_the_compose_commands_serve_healthz_run_a_worker_and_beat(tmp_path: Path) -> None:
    need_services()
    services = _services()
    port = free_port()
    broker = redis_url(broker_database(1))
    # What compose gives the containers...
    example = _env_example()
    compose_env = {
        name: _interpolate(value, example) for name, value in services["web"]["environment"].items()
    }
    env = production_env(**example, **compose_env)
    # ...with this machine's PostgreSQL and Redis, DEBUG off and a real key instead.
    env |= {
        "DATABASE_URL": database_url(),
        "REDIS_URL": broker,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
    }
    assert env["HTTPS"] == "1"  # as behind the TLS proxy: /healthz needs no redirect

    def run(name: str) -> Process:
        return Process(_argv(services[name]["command"], tmp_path / "beat-schedule"), env)

    migrate = subprocess.run(
        _argv(services["migrate"]["command"], tmp_path), cwd=ROOT, env=env, timeout=60
    )
    assert migrate.returncode == 0
    with run("web"), run("worker"), run("beat") as beat:
        health = _argv(services["web"]["healthcheck"]["test"][1:], tmp_path)
        answers: list[str] = []

        def web_healthy() -> bool:
            check = subprocess.run(health, cwd=ROOT, env=env, capture_output=True, text=True)
            answers.append(check.stdout)
            return check.returncode == 0

        wait_until(web_healthy, timeout=30, what="gunicorn passing compose's health check")
        answer = json.loads(answers[-1])
        assert (answer["status"], answer["checks"]) == (
            "ok",
            {"database": "ok", "cache": "ok", "broker": "ok"},
        )
        assert {answer["worker"]["status"], answer["beat"]["status"]} <= {"ok", "stale"}

        control = Celery("control", broker=broker, set_as_current=False)
        try:
            wait_until(
                lambda: control.control.ping(timeout=1.0),
                timeout=30,
                what="the worker answering a ping",
            )
        finally:
            control.close()
        wait_until(lambda: "beat: Starting" in beat.output(), timeout=20, what="beat starting")
