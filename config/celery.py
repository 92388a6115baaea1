"""The Celery app.

Configured from Django settings under the ``CELERY_`` prefix. Without ``REDIS_URL`` tasks run
in-process (eager), so nothing outside the web process is needed; with it they go to Redis.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The heartbeat task and the signal handlers that record the worker's and beat's heartbeats.
import config.heartbeat  # noqa: E402, F401
