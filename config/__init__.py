"""Project wiring: settings, URLs, the Celery app, WSGI/ASGI entry points."""

import os
import sys

from celery.signals import beat_init, worker_init
from django.core.exceptions import ImproperlyConfigured

from config.celery import app as celery_app

__all__ = ("celery_app",)


@worker_init.connect(weak=False)
@beat_init.connect(weak=False)
def _refuse_unsafe_start(**_: object) -> None:
    """A Celery worker or beat is a production process: the same refusal as gunicorn's. Celery
    logs and ignores a signal handler's errors, so the refusal ends the process itself."""
    from config.production import refuse_unsafe_start

    try:
        refuse_unsafe_start()
    except ImproperlyConfigured as refusal:
        # Straight to the error stream: Celery routes `print` through its logging, and beat
        # swallows SystemExit's message.
        os.write(sys.__stderr__.fileno() if sys.__stderr__ else 2, f"{refusal}\n".encode())
        raise SystemExit(1) from refusal
