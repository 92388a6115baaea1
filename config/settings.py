"""Django settings, read from the environment with defaults that run with no setup.

Unset, everything is embedded: a SQLite file, a local-memory cache and Celery tasks run
in-process. Production points ``DATABASE_URL`` at PostgreSQL and ``REDIS_URL`` at Redis.
The variables are listed in README.md ("Configuration").
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

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

DEBUG = env_bool("DEBUG", default=True)

_DEV_SECRET_KEY = "django-insecure-local-development-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default="127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default="")

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
    "rest_framework.authtoken",  # API tokens for tablets and other clients (docs/api.md)
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "tournaments",
    "dealer",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
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
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
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
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_WORKER_PREFETCH_MULTIPLIER = 1

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # Parallel test processes share one Redis, each with a test database of its own:
            # their keys (a tournament's version, answers by URL) are kept apart.
            "KEY_PREFIX": "floordesk" + os.environ.get("PYTEST_XDIST_WORKER", ""),
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

# --- Internationalization -------------------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files need `collectstatic`; local runs serve the files as they are.
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}

# --- API ------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # The browser's session (with its CSRF token), or an API token: `Authorization: Token <key>`.
    # The session comes first, so a request with neither answers 403 as before (not 401).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "config.authentication.TokenAuthentication",
    ],
    # Closed by default: public read-only views open themselves explicitly.
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
    ],
    # Every error is {"code", "detail"} (DESIGN.md "Interfaces"; config/exceptions.py).
    "EXCEPTION_HANDLER": "config.exceptions.floor_exception_handler",
}
# How long a worker process trusts an API token it has checked (config/authentication.py): a
# deleted token or a deactivated user is refused at once by the worker that made the change,
# and by the others within this many seconds. 0 checks the database on every request.
API_TOKEN_CACHE_SECONDS = float(os.environ.get("API_TOKEN_CACHE_SECONDS", "30"))

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

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
