"""Rake and time (issue 15): the seats page's time charge and the cage's report. Page URLs are
mounted at the site's root by dealer.urls, API URLs under /api/ by dealer.api.urls."""

from __future__ import annotations

from django.urls import URLPattern, path

from dealer.cash.takings import api as rake_api
from dealer.cash.takings import views as rake_views

page_urlpatterns: list[URLPattern] = [
    path(
        "cash/<int:pk>/seats/<int:seat_pk>/time/",
        rake_views.cash_seat_time,
        name="cash-seat-time",
    ),
    path("cash/<int:pk>/time/", rake_views.cash_table_time, name="cash-table-time"),
    path("cash/cage/", rake_views.cage_page, name="cash-cage"),
]
api_urlpatterns: list[URLPattern] = [
    path(
        "cash-tables/<int:pk>/seats/<int:seat_pk>/time/",
        rake_api.CashTimeChargeApi.as_view(),
        name="api-cash-seat-time",
    ),
    path(
        "cash-tables/<int:pk>/time/",
        rake_api.CashTableTimeApi.as_view(),
        name="api-cash-table-time",
    ),
    path("cash-cage/", rake_api.CageApi.as_view(), name="api-cash-cage"),
]
