# ruff: noqa: N999 - gunicorn's conventional file name
"""gunicorn's settings for production: `gunicorn -c config/gunicorn.conf.py config.wsgi`.

Every value can be changed from the environment (compose's `.env`): `PORT`, `WEB_CONCURRENCY`
(worker processes, default two per core), `WEB_THREADS`, `WEB_TIMEOUT`. gunicorn's own access
log is off: the application writes one access line per request with its id
(config/logs.py); gunicorn's error log (start, stop, a worker's timeout) is written in the same
format, JSON unless `LOG_FORMAT=text`.
"""

import multiprocessing
import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", str(2 * multiprocessing.cpu_count())))
threads = int(os.environ.get("WEB_THREADS", "1"))
# A request that takes this long is stuck: the worker is restarted (the database and lock
# timeouts are far shorter).
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = 20
# Heartbeat files in memory: a container's disk may be slow or read-only.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

# No `gunicornc` control socket: two servers on one host would share its path in $HOME.
control_socket_disable = True

accesslog = None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()

_json = os.environ.get("LOG_FORMAT", "json").strip().lower() == "json"
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": (
            {"()": "config.logs.JsonFormatter"}
            if _json
            else {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}
        ),
    },
    "handlers": {
        "error_console": {
            "class": "logging.StreamHandler",
            "formatter": "line",
            "stream": "ext://sys.stderr",
        },
    },
    # Until Django configures logging in each worker (settings.LOGGING) and takes the root over.
    "root": {"level": loglevel.upper(), "handlers": ["error_console"]},
    "loggers": {
        "gunicorn.error": {
            "level": loglevel.upper(),
            "handlers": ["error_console"],
            "propagate": False,  # once, not again through Django's root handler
        },
        "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": False},
    },
}
