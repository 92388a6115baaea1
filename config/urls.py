"""Top-level URLs: the floor's pages, the admin, the API and its schema with its docs page."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.health import healthz
from tournaments.views.sign_ins import throttled_sign_in

# The admin's sign-in, with the same rate per client as the floor's (config.authentication);
# set before `admin.site.urls` is read, which routes "admin:login" to it.
admin.site.login = throttled_sign_in(admin.site.login)  # type: ignore[method-assign]

# An address under /api/ that no view answers is JSON too (config/exceptions.py).
handler404 = "config.exceptions.not_found"
handler400 = "config.exceptions.bad_request"
handler500 = "config.exceptions.server_error"

urlpatterns = [
    path("healthz", healthz, name="healthz"),  # no sign-in: for the proxy and compose
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Its script is a file of its own (?script) and its page our template with no inline style:
    # the page needs nothing the Content-Security-Policy refuses.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="api/swagger_ui.html"
        ),
        name="api-docs",
    ),
    path("api/", include("dealer.api.urls")),
    path("api/", include("tournaments.api.urls")),
    path("", include("tournaments.urls")),
    path("", include("dealer.urls")),
]
