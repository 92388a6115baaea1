"""ASGI entry point, for uvicorn: ``uvicorn config.asgi:application``.

A production start: it refuses the development defaults (config/production.py).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()

from config.production import refuse_unsafe_start  # noqa: E402 - after Django is set up

refuse_unsafe_start()
