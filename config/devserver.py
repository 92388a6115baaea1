"""The development server's WSGI application (`WSGI_APPLICATION`, read by `manage.py runserver`
under `make run`): the same application as config/wsgi.py, without the production start's
refusal of DEBUG and the development key, which `make run` uses on purpose. Production serves
``config.wsgi`` (gunicorn), never this module.
"""

from django.core.wsgi import get_wsgi_application

application = get_wsgi_application()
