"""The tablet's service worker: a reload while the Wi-Fi is down still shows the tablet.

Served from a view at /deal/sw.js rather than from /static/, so that its scope is /deal/ (a
worker may control only the pages under its own path) without a `Service-Worker-Allowed`
header on the static files. What it keeps and when: `templates/dealer/tablet_sw.js`.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The worker's script: the same for everyone (it holds no data), read again by the browser
    on each tablet page it controls (`no-cache`), so a new version takes over at once."""
    response = render(request, "dealer/tablet_sw.js", content_type="text/javascript")
    patch_cache_control(response, no_cache=True)
    return response
