"""URLs of the floor's REST API, mounted under /api/."""

from django.urls import path  # noqa: F401 - filled by the API views

urlpatterns: list[object] = []
