"""Top-level URLs: the floor's pages, the admin, the API and its schema with its docs page."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("dealer.api.urls")),
    path("api/", include("tournaments.api.urls")),
    path("", include("tournaments.urls")),
    path("", include("dealer.urls")),
]
