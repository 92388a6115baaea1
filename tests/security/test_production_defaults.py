"""Production defaults (issue 12): DEBUG off unless asked for, the published development key
refused by a production start, and `check --deploy` clean with the documented production
settings (docs/operations.md, "Configure")."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    # The documented production settings (docs/operations.md, .env.example).
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "floor.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://floor.example.com",
    "HTTPS": "1",
}
SETTING_VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "HTTPS",
    "DATABASE_URL",
    "REDIS_URL",
)


def _run(code_or_args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in SETTING_VARIABLES}
    clean.pop("DJANGO_SETTINGS_MODULE", None)
    clean.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set for the browser tests' live server
    return subprocess.run(
        [sys.executable, *code_or_args],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _start_wsgi(**env: str) -> subprocess.CompletedProcess[str]:
    """What gunicorn does first: import the WSGI application."""
    return _run(["-c", "import config.wsgi"], **env)


def test_debug_is_off_when_nobody_turns_it_on() -> None:
    result = _run(
        [
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(settings.DEBUG)",
        ],
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_make_run_turns_debug_on_for_the_development_server_only() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "run: export DEBUG = 1" in makefile
    assert "DEBUG" not in makefile.split("\ntest:")[1].split("\nbench:")[0]


def test_the_development_server_of_make_run_starts_with_debug_and_the_development_key() -> None:
    # runserver loads WSGI_APPLICATION: not the production entry point, which would refuse.
    result = _run(
        [
            "-c",
            "import django; django.setup(); "
            "from django.core.servers.basehttp import get_internal_wsgi_application; "
            "get_internal_wsgi_application()",
        ],
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="1",
    )
    assert result.returncode == 0, result.stderr


def test_a_production_start_refuses_a_missing_secret_key() -> None:
    result = _start_wsgi(DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY is missing or is the development key" in result.stderr


def test_a_production_start_refuses_the_published_development_key() -> None:
    from django.conf import settings

    result = _start_wsgi(DEBUG="0", SECRET_KEY=settings.DEVELOPMENT_SECRET_KEY)
    assert result.returncode != 0
    assert "development key" in result.stderr


def test_a_production_start_refuses_debug() -> None:
    result = _start_wsgi(DEBUG="1", SECRET_KEY=PRODUCTION["SECRET_KEY"])
    assert result.returncode != 0
    assert "DEBUG is on" in result.stderr


def test_a_production_start_refuses_a_short_key() -> None:
    result = _start_wsgi(DEBUG="0", SECRET_KEY="s3cret")
    assert result.returncode != 0
    assert "too weak" in result.stderr


def test_a_production_start_accepts_the_documented_settings() -> None:
    result = _start_wsgi(**PRODUCTION)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "process",
    [
        ["worker", "--pool=solo", "--without-heartbeat", "--without-mingle", "--without-gossip"],
        ["beat", "--schedule=/tmp/floordesk-test-beat-schedule"],
    ],
    ids=["worker", "beat"],
)
def test_a_celery_process_refuses_the_development_key(process: list[str]) -> None:
    # No REDIS_URL: the in-memory broker, so the process would start without any service.
    result = _run(["-m", "celery", "-A", "config", *process, "--loglevel=ERROR"], DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY is missing or is the development key" in result.stderr


def test_check_deploy_is_clean_with_the_documented_production_settings() -> None:
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"SECRET_KEY": ""}, "floordesk.E"),
        ({"HTTPS": "0"}, "security.W004"),  # no HSTS without HTTPS
        ({"DEBUG": "1"}, "floordesk.E"),
    ],
)
def test_check_deploy_fails_on_unsafe_settings(change: dict[str, str], message: str) -> None:
    result = _run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **(PRODUCTION | change)
    )
    assert result.returncode != 0
    assert message in result.stdout + result.stderr
