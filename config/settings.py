"""Django settings, read from the environment with defaults that run with no setup.

Unset, everything is embedded: a SQLite file, a local-memory cache and Celery tasks run
in-process. Production points ``DATABASE_URL`` at PostgreSQL and ``REDIS_URL`` at Redis.
The variables are listed in README.md ("Configuration").
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, *, default: bool) -> bool:
    """Read a yes/no variable; anything but a clear yes or no is a configuration error."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a yes/no value (use 1/0, true/false).")


def env_list(name: str, *, default: str) -> list[str]:
    """Read a comma-separated variable."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# --- Core -----------------------------------------------------------------------------------

# Off unless asked for: `make run` (the development server) sets DEBUG=1. With DEBUG on, an error
# shows Django's debug page with the settings, the database and Redis addresses.
DEBUG = env_bool("DEBUG", default=False)

# The key published in this repository: good for `make run` and the tests, refused by a
# production start (config/production.py: gunicorn, the Celery worker) and by `check --deploy`.
DEVELOPMENT_SECRET_KEY = "django-insecure-local-development-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip() or DEVELOPMENT_SECRET_KEY
# Older keys still accepted for signed values (sessions, password resets) while rotating.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", default="")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default="127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default="")

# --- HTTPS ----------------------------------------------------------------------------------

# HTTPS=1: the service is reached over HTTPS through a TLS proxy that sets X-Forwarded-Proto
# (docs/operations.md). Cookies are then sent over HTTPS only, browsers are told to use HTTPS
# for the host (HSTS), plain HTTP is redirected, and Django's Referer check for HTTPS forms runs.
# Only set it behind a proxy that overwrites X-Forwarded-Proto: the header is trusted.
HTTPS = env_bool("HTTPS", default=False)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the proxy's and the orchestrator's health checks
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# What a browser may load and run on our pages (docs/operations.md, "Browser security headers"):
# only the site's own files. No inline script, no inline style, no eval: an injected tag or
# attribute does nothing. Pages keep their data in data-* attributes and json_script blocks
# (type application/json, which is never run); htmx is told to need none of it (base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],  # data: for the empty favicon and the admin's icons
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# The browser features no page of ours uses, turned off for them and anything they might embed
# (config/browser.py). An empty list is "()": no origin may use the feature.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    "camera": [],
    "microphone": [],
    "geolocation": [],
    "payment": [],
    "usb": [],
    "serial": [],
    "hid": [],
    "midi": [],
    "magnetometer": [],
    "gyroscope": [],
    "accelerometer": [],
    "display-capture": [],
    "browsing-topics": [],
}

INSTALLED_APPS = [
    # Serve static files through whitenoise under runserver too, as in production.
    "whitenoise.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",  # API tokens, one per device, stored as digests (config/authentication.py)
    "axes",  # sign-in lockouts (the "--- Auth ---" section)
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "csp",  # its system checks of CONTENT_SECURITY_POLICY
    "common.apps.CommonConfig",  # the kit both apps build on: roles, refusals, the API's base
    "tournaments",
    "dealer",
    "dealer.cash",
]

MIDDLEWARE = [
    # Every request's id (X-Request-ID), in its log lines and its answer (config/logs.py).
    "config.logs.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Gzip for the public pages and their JSON only, never an answer with a secret or a CSRF
    # token in it (BREACH; config/compression.py, docs/operations.md "Compression").
    "config.compression.PublicGZipMiddleware",
    # The browser's policies (Content-Security-Policy, Permissions-Policy) on every answer,
    # early 304s and outage pages included (config/browser.py).
    "csp.middleware.CSPMiddleware",
    "config.browser.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A poller's If-None-Match naming a remembered, current tag: 304 before anything else runs.
    "config.conditional.NotModifiedMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A view that meets a database outage answers 503 with Retry-After (config/outage.py).
    "config.outage.OutageMiddleware",
    # A sign-in refused by a lockout answers 429 (tournaments.views.sign_ins.lockout_response).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
# runserver's (`make run`); gunicorn serves config.wsgi, which refuses unsafe settings.
WSGI_APPLICATION = "config.devserver.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
    # The tablet's regions (templates/jinja2/dealer/, config/jinja.py): found by name after
    # Django's templates, which hold none of these names.
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "config.jinja.environment",
            "context_processors": ["config.jinja.csrf_once"],
        },
    },
]

# --- Database -------------------------------------------------------------------------------

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    ),
}
if DATABASES["default"].get("ENGINE") == "django.db.backends.postgresql":
    # The same backend with a health check that costs no round trip (config/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Sessions are read from the cache (Redis in production) and written through to the database:
# a tablet's request does not pay a session query.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# --- Cache and background work ----------------------------------------------------------------

REDIS_URL = os.environ.get("REDIS_URL", "")

CELERY_TIMEZONE = "UTC"
# A task is acknowledged when it has run, not when a worker takes it: a worker that dies holding
# it (killed, out of memory, machine lost) leaves it unacknowledged, and Redis hands it out again
# once it has been unacknowledged for the visibility timeout. Live workers look for such tasks
# every few seconds (the kombu default is an hour's timeout and a sweep every 100 s).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
_visibility_timeout = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "60"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _visibility_timeout,
    "unacked_restore_interval": max(1, min(10, _visibility_timeout // 4)),
    "unacked_restore_throttle": 1,
    # A connection that went quiet (a cut cable, a Redis that vanished without a reset) is
    # checked every 25 s and redone instead of waiting forever on a dead socket.
    "health_check_interval": 25,
    "socket_keepalive": True,
    "retry_on_timeout": True,
}
# A broker outage is waited out, however long (docs/operations.md, "Outages"): Celery's default
# gives up after 100 attempts (about 45 minutes, the attempts 2 s apart, then up to 30 s) and the
# worker exits. A task running when the connection drops is cancelled: being unacknowledged, it
# is handed out again once Redis is back, and must not run twice at once.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Storing a task's result retries a few times (a Redis restart) instead of failing the task.
CELERY_RESULT_BACKEND_ALWAYS_RETRY = True
CELERY_RESULT_BACKEND_MAX_RETRIES = 5
# The tasks are short (a level change is one locked row): a task still running at the visibility
# timeout would be handed out a second time, so the limits stay well below it (keep
# CELERY_VISIBILITY_TIMEOUT above the hard limit; docs/operations.md).
CELERY_TASK_TIME_LIMIT = 30
CELERY_TASK_SOFT_TIME_LIMIT = 20
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The worker and beat log through LOGGING below (JSON lines with the web's), not Celery's format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
HEARTBEAT_SECONDS = float(os.environ.get("HEARTBEAT_SECONDS", "30"))
# What the beat sends on its own. Each task decides whether anything is due, so a late, missed
# or repeated run is harmless: the rotation is written on before its downs run out, and the
# held seats whose time ran out are freed even if the task sent for a hold was lost.
CELERY_BEAT_SCHEDULE = {
    "rotation-extend": {"task": "dealer.tasks.rotation_extend_task", "schedule": 600.0},
    "waitlist-expire-calls": {"task": "dealer.tasks.waitlist_expire_calls_task", "schedule": 60.0},
    # The worker's and the beat's last signs of life, shown by /healthz (config/heartbeat.py).
    "heartbeat": {"task": "config.heartbeat.heartbeat_task", "schedule": HEARTBEAT_SECONDS},
}

# A cache read waits at most this long for Redis: a copy that does not answer is a miss, and
# the request goes on from the database.
CACHE_REDIS_OPTIONS = {
    "serializer": "config.cache.SignedSerializer",
    "socket_connect_timeout": float(os.environ.get("CACHE_TIMEOUT_SECONDS", "0.5")),
    "socket_timeout": float(os.environ.get("CACHE_TIMEOUT_SECONDS", "0.5")),
}

if REDIS_URL:
    CACHES = {
        "default": {
            # Django's RedisCache, with values signed by SECRET_KEY (an unsigned one is never
            # unpickled) and an outage read as a miss (config/cache.py, docs/operations.md).
            "BACKEND": "config.cache.TolerantRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": CACHE_REDIS_OPTIONS,
            # Parallel test processes share one Redis, each with a test database of its own:
            # their keys (a tournament's version, answers by URL) are kept apart; so are test
            # runs (`make test` sets CACHE_KEY_PREFIX per run): a test database numbers its rows
            # from 1 again, and an answer cached by an earlier run must not be served.
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "floordesk")
            + os.environ.get("PYTEST_XDIST_WORKER", ""),
        },
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "floordesk",
        },
    }
    # No broker: tasks run in the calling process, and their errors surface there.
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True

# --- Auth -----------------------------------------------------------------------------------

# Directors sign in at /login/ and land on their tournaments (tournaments/urls.py).
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "after-login"  # directors to the dashboard, dealers to their tables

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Every sign-in (the sign-in page, the admin's, the API's token endpoint) asks the sign-in gate
# first (config/sign_in_gate.py: django-axes' lockout, then the account's slowdown): a locked or
# slowed client is refused before its password is hashed. Then the users' table, with the
# dealer role read in the same query (config/authentication.py).
AUTHENTICATION_BACKENDS = [
    "config.sign_in_gate.SignInGateBackend",
    "config.authentication.FloorBackend",
]
# The policy (docs/operations.md, "Sign-in lockout policy"), three limits, none of which a
# stranger can turn against staff:
# - five failed sign-ins lock an account on one client (its address) for 15 minutes, counted
#   from the last failure; the same account from any other client is not concerned, and a
#   director unlocks at /desk/access/;
# - one client's sign-ins, on any accounts, are limited by a rate on every door (`sign_in`
#   below, config.authentication.SignInThrottle), not locked: the tablets of a venue behind
#   one address (a NAT) share it;
# - an account failing from many clients (`SIGN_IN_SLOW_AFTER`, 10, failures within the 15
#   minutes) is slowed down, never locked: a client that has failed on it waits before its next
#   try, 2 s then twice as long with each failure of the account, at most
#   `SIGN_IN_SLOW_MAX_SECONDS` (300); a client that has not failed on it signs in at once.
# On a network where every device has an address of its own, SIGN_IN_LOCK_DEVICES=1 also locks
# a device after five failures on any accounts.
AXES_FAILURE_LIMIT = int(os.environ.get("SIGN_IN_FAILURES", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("SIGN_IN_LOCK_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS: list[str | list[str]] = [["username", "ip_address"]]
if env_bool("SIGN_IN_LOCK_DEVICES", default=False):
    AXES_LOCKOUT_PARAMETERS.append("ip_address")
SIGN_IN_SLOW_AFTER = int(os.environ.get("SIGN_IN_SLOW_AFTER", "10"))
SIGN_IN_SLOW_MAX_SECONDS = int(os.environ.get("SIGN_IN_SLOW_MAX_SECONDS", "300"))
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # a locked client's tries write nothing
AXES_LOCKOUT_CALLABLE = "tournaments.views.sign_ins.lockout_response"
# The device is the client's address: `PROXY_COUNT` proxies (0: none) stand in front of the web
# processes, each appending the address it saw to X-Forwarded-For; the same rule for the API's
# throttles (REST_FRAMEWORK "NUM_PROXIES"). Set it behind a proxy, or every device is the proxy.
PROXY_COUNT = int(os.environ.get("PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "config.authentication.client_address"
AXES_VERBOSE = False  # no banner on every start; lockouts are still logged

# API tokens (django-rest-knox): one per sign-in, i.e. per device, stored as a digest, expiring
# `API_TOKEN_HOURS` after their last use; the expiry is moved on at most every 5 minutes (one
# UPDATE per active tablet and 5 minutes).
KNOX_TOKEN_MODEL = "knox.AuthToken"  # named by tournaments.Device's migration
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=float(os.environ.get("API_TOKEN_HOURS", "12"))),
    "AUTO_REFRESH": True,
    "MIN_REFRESH_INTERVAL": 300,
    "AUTH_HEADER_PREFIX": "Token",
}

# --- Internationalization -------------------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Hashed, compressed files once `collectstatic` has run (the image does: Dockerfile); before
# that (`make run`, the tests) the files are served as they are, straight from static/.
_MANIFEST = STATIC_ROOT / "staticfiles.json"
_HASHED_STATIC = not DEBUG and _MANIFEST.exists()
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if _HASHED_STATIC
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        ),
    },
}
WHITENOISE_USE_FINDERS = not _HASHED_STATIC
WHITENOISE_AUTOREFRESH = DEBUG

# --- API ------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # The browser's session (with its CSRF token), or an API token: `Authorization: Token <key>`.
    # The session comes first, so a request with neither answers 403 as before (not 401).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "config.authentication.TokenAuthentication",
    ],
    # Password guessing costs CPU (a hash per try): the token endpoint takes 20 tries a minute
    # from one client (`SignInThrottle`), on top of the lockouts ("--- Auth ---").
    # Players joining a cash game's waiting list without an account, per client
    # (`config.authentication.ListJoinThrottle`): a room's players may share its Wi-Fi address.
    "DEFAULT_THROTTLE_RATES": {
        "sign_in": os.environ.get("SIGN_IN_RATE", "20/min"),
        "list_join": os.environ.get("LIST_JOIN_RATE", "60/hour"),
        # Looking a place up by its list code (the code form, the place page, its poll, the
        # API; dealer/cash/games/lookups.py): codes on no list strictly, per client, so that nobody
        # guesses codes; a code the client already has loosely, per client and code, so that a
        # phone polling every 10 s is never refused.
        "list_lookup_miss": os.environ.get("LIST_LOOKUP_MISS_RATE", "30/hour"),
        "list_lookup": os.environ.get("LIST_LOOKUP_RATE", "30/min"),
    },
    "NUM_PROXIES": PROXY_COUNT,
    # Closed by default: public read-only views open themselves explicitly.
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
    ],
    # Every error is {"code", "detail"} (DESIGN.md "Interfaces"; config/exceptions.py).
    "EXCEPTION_HANDLER": "config.exceptions.floor_exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "FloorDesk API",
    "DESCRIPTION": "Tournament floor and dealer-assist API for live Texas Hold'em.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The venue may be offline: the API docs page uses assets shipped with the project.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Logging --------------------------------------------------------------------------------

# One line per record on standard error, with the request's id (config/logs.py): JSON lines for
# a log collector, or text for a terminal (`LOG_FORMAT=text`, the default when DEBUG is on).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEBUG else "json").strip().lower()
LOGGING = logging_config(log_format=LOG_FORMAT, level=os.environ.get("LOG_LEVEL", "INFO"))

# The dealer tablet ignores taps on a freshly drawn action bar, procedure sheet or start button
# for this long (static/js/tablet.js): a double tap must not land on the next player's button.
TABLET_TAP_GUARD_MS = int(os.environ.get("TABLET_TAP_GUARD_MS", "350"))
