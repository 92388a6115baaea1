"""WSGI entry point, for gunicorn: ``gunicorn config.wsgi``.

A production start: it refuses the development defaults (config/production.py).
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

from config.production import refuse_unsafe_start  # noqa: E402 - after Django is set up

refuse_unsafe_start()
