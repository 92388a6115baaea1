"""Settings come from the environment, with embedded defaults that need no services."""

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from django.core.exceptions import ImproperlyConfigured

SETTINGS_FILE = Path(__file__).resolve().parents[2] / "config" / "settings.py"
VARIABLES = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS")


def load_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> ModuleType:
    """Execute config/settings.py afresh under the given environment (and only it)."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("settings_under_test", SETTINGS_FILE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_defaults_are_embedded(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(monkeypatch)

    assert settings.DEBUG is False  # on only when asked for (`make run` asks)
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(settings.DATABASES["default"]["NAME"]) == SETTINGS_FILE.parents[1] / "db.sqlite3"
    assert settings.CACHES["default"]["BACKEND"].endswith("LocMemCache")
    assert settings.CELERY_TASK_ALWAYS_EAGER is True
    assert settings.CELERY_TASK_EAGER_PROPAGATES is True


def test_real_services_come_from_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)  # a test process's own prefix
    monkeypatch.delenv("CACHE_KEY_PREFIX", raising=False)  # a test run's own prefix
    settings = load_settings(
        monkeypatch,
        DATABASE_URL="postgres://floor@db.example:5432/floordesk",
        REDIS_URL="redis://cache.example:6379/2",
    )

    database = settings.DATABASES["default"]
    assert database["ENGINE"] == "config.postgresql"  # Django's, with a cheaper health check
    assert (database["HOST"], database["NAME"]) == ("db.example", "floordesk")
    assert settings.CACHES["default"] == {
        "BACKEND": "config.cache.TolerantRedisCache",
        "LOCATION": "redis://cache.example:6379/2",
        "OPTIONS": {
            "serializer": "config.cache.SignedSerializer",
            "socket_connect_timeout": 0.5,
            "socket_timeout": 0.5,
        },
        "KEY_PREFIX": "floordesk",
    }
    assert settings.CELERY_BROKER_URL == "redis://cache.example:6379/2"
    assert settings.CELERY_RESULT_BACKEND == "redis://cache.example:6379/2"
    assert settings.CELERY_TASK_ALWAYS_EAGER is False


def test_settings_read_the_secret_key_and_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(monkeypatch, DEBUG="false", SECRET_KEY="s3cret", ALLOWED_HOSTS="a,b")
    assert settings.DEBUG is False
    assert settings.SECRET_KEY == "s3cret"
    assert settings.ALLOWED_HOSTS == ["a", "b"]


def test_without_a_secret_key_the_settings_carry_the_development_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The tests and management commands load; a production start refuses it
    # (tests/security/test_production_defaults.py).
    settings = load_settings(monkeypatch)
    assert settings.SECRET_KEY == settings.DEVELOPMENT_SECRET_KEY


def test_unclear_debug_value_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        load_settings(monkeypatch, DEBUG="maybe")


def test_celery_app_reads_django_settings() -> None:
    from django.conf import settings

    from config import celery_app

    assert celery_app.main == "config"
    assert celery_app.conf.task_always_eager is settings.CELERY_TASK_ALWAYS_EAGER
    assert celery_app.conf.broker_url == settings.CELERY_BROKER_URL
