"""What a production start refuses, and the matching `check --deploy` errors.

The development defaults (`DEBUG`, the `SECRET_KEY` published in this repository) let `make run`
and the tests work with no set-up. A production process must not start with them: gunicorn
(config/wsgi.py, config/asgi.py) and the Celery worker (`worker_init`, connected in
config/__init__.py) call `refuse_unsafe_start`, which stops the start with the reason. The same
reasons are errors of `manage.py check --deploy` (registered by `tournaments.apps`).

With the published key anyone can forge a session cookie (sign in as a director) or any other
value the service signs; with DEBUG on any error page shows the settings.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.apps import AppConfig
from django.conf import LazySettings
from django.core.checks import Error, Tags, register
from django.core.exceptions import ImproperlyConfigured

MIN_SECRET_KEY_LENGTH = 50
MIN_SECRET_KEY_CHARACTERS = 5


def unsafe_settings(settings: LazySettings) -> list[str]:
    """Why these settings must not serve real players (empty when they may)."""
    reasons = []
    if settings.DEBUG:
        reasons.append(
            "DEBUG is on: any error would show the settings to the visitor. Unset DEBUG "
            "(it is off by default) or set DEBUG=0."
        )
    key = settings.SECRET_KEY
    if key == settings.DEVELOPMENT_SECRET_KEY or key.startswith("django-insecure"):
        reasons.append(
            "SECRET_KEY is missing or is the development key published with the code. Set "
            "SECRET_KEY to a new random value: python -c 'import secrets; "
            "print(secrets.token_urlsafe(50))'."
        )
    elif len(key) < MIN_SECRET_KEY_LENGTH or len(set(key)) < MIN_SECRET_KEY_CHARACTERS:
        reasons.append(
            f"SECRET_KEY is too weak: use at least {MIN_SECRET_KEY_LENGTH} random characters."
        )
    return reasons


def refuse_unsafe_start() -> None:
    """Stop a production process (gunicorn, a Celery worker) that would run on unsafe settings."""
    from django.conf import settings

    reasons = unsafe_settings(settings)
    if reasons:
        raise ImproperlyConfigured(
            "FloorDesk refuses to start with unsafe settings:\n- " + "\n- ".join(reasons)
        )


@register(Tags.security, deploy=True)
def check_production_settings(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: object
) -> list[Error]:
    from django.conf import settings

    return [
        Error(reason, id=f"floordesk.E{number:03d}")
        for number, reason in enumerate(unsafe_settings(settings), start=1)
    ]
