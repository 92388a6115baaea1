"""`/healthz`: can this web process reach the database, the cache and the Celery broker?

For the TLS proxy, an orchestrator and compose's healthcheck: no sign-in, no session, no
template, one round trip to each service, each bounded by a short timeout where the client
allows one. 200 names each check "ok" (the broker is "embedded" when tasks run in-process);
503 marks the failing ones "failed". Beside the checks, `worker` and `beat` give each
process's last heartbeat and whether it is recent ("ok") or "stale"; they inform, they do not
fail the check (the web process serves without them). The answer never carries an error's
text, which may hold an address or a password: that goes to the log, with the request's id.

Run as a module (`python -m config.health`), it is the probe compose's healthcheck runs inside
the web container: it asks gunicorn for `/healthz` with a host name the service answers to.
"""

from __future__ import annotations

import logging
import os
import sys
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config import heartbeat

logger = logging.getLogger("floordesk.health")

# Seconds a check may wait for the broker (connecting, then its answer).
BROKER_TIMEOUT = 1.5


def check_database() -> str:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def check_cache() -> str:
    # A key of its own per check: two checks at once never read each other's value.
    key = f"healthz:{uuid.uuid4().hex}"
    cache.set(key, "ok", timeout=10)
    value = cache.get(key)
    cache.delete(key)
    if value != "ok":
        raise RuntimeError("the cache did not give back the value just written")
    return "ok"


def check_broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "embedded"
    from kombu import Connection

    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS | {
        "socket_connect_timeout": BROKER_TIMEOUT,
        "socket_timeout": BROKER_TIMEOUT,
    }
    with Connection(
        settings.CELERY_BROKER_URL, connect_timeout=BROKER_TIMEOUT, transport_options=options
    ) as broker:
        broker.connect()  # the Redis transport pings the server here
    return "ok"


CHECKS: dict[str, Callable[[], str]] = {
    "database": check_database,
    "cache": check_cache,
    "broker": check_broker,
}


def background_processes() -> dict[str, dict[str, str | None]]:
    """The worker's and the beat's last heartbeat (config/heartbeat.py), each "ok", "stale"
    (none for `stale_after()` seconds, or none at all), "unknown" (the cache did not answer) or
    "embedded" (tasks run in the web process; there is no worker or beat)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {name: {"status": "embedded", "last_heartbeat": None} for name in heartbeat.KEYS}
    try:
        times = heartbeat.last_heartbeats()
    except Exception:
        logger.warning("could not read the heartbeats", exc_info=True)
        return {name: {"status": "unknown", "last_heartbeat": None} for name in heartbeat.KEYS}
    now = timezone.now()
    answer: dict[str, dict[str, str | None]] = {}
    for name, when in times.items():
        fresh = when is not None and (now - when).total_seconds() <= heartbeat.stale_after()
        answer[name] = {
            "status": "ok" if fresh else "stale",
            "last_heartbeat": when.isoformat() if when else None,
        }
    return answer


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when every check passes, else 503 naming the ones that failed. The worker's and the
    beat's heartbeats are reported beside the checks but never make it 503: this answer says
    whether this web process can serve, and a stale worker does not stop it serving."""
    checks: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            checks[name] = check()
        except Exception:
            logger.warning("health check %s failed", name, exc_info=True)
            checks[name] = "failed"
    healthy = "failed" not in checks.values()
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": checks} | background_processes(),
        status=200 if healthy else 503,
    )


def probe_host(allowed_hosts: str) -> str:
    """A host name from ALLOWED_HOSTS that Django accepts in the probe's Host header."""
    for host in (item.strip() for item in allowed_hosts.split(",")):
        if host and host != "*":
            return host.lstrip(".")
    return "localhost"


def probe(url: str = "") -> int:
    """Ask gunicorn (on `PORT`, or `url`) for the health answer; 0 when it is 200 (the exit
    status compose reads)."""
    url = url or f"http://127.0.0.1:{os.environ.get('PORT', '8000')}/healthz"
    host = probe_host(os.environ.get("ALLOWED_HOSTS", ""))
    request = urllib.request.Request(url, headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            print(answer.read().decode())
            return 0 if answer.status == 200 else 1
    except urllib.error.HTTPError as error:
        print(error.read().decode(errors="replace"))
    except OSError as error:
        print(f"{url}: {error}")
    return 1


if __name__ == "__main__":
    sys.exit(probe(*sys.argv[1:2]))
