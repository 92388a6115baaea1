"""URLs of the dealer's REST API, mounted under /api/ (listed with who may call them in
docs/api.md, "Dealer")."""

from django.urls import path

from dealer.api import histories, live, procedures, views
from dealer.cash.seats import urls as cash_urls

H = "hands/<int:pk>/"

urlpatterns = [
    path("tables/<int:pk>/hands/", views.TableHandsApi.as_view(), name="api-table-hands"),
    *cash_urls.api_urlpatterns,  # the cash tables, and a cash table's next-hand plan
    path(
        "tables/<int:pk>/hands/current/",
        views.TableCurrentHandApi.as_view(),
        name="api-table-current-hand",
    ),
    path(H, views.HandApi.as_view(), name="api-hand"),
    path(H + "actions/", views.HandActionsApi.as_view(), name="api-hand-actions"),
    path(H + "undo/", views.HandUndoApi.as_view(), name="api-hand-undo"),
    path(H + "reopen/", views.HandReopenApi.as_view(), name="api-hand-reopen"),
    path(H + "events/", views.HandEventsApi.as_view(), name="api-hand-events"),
    path(H + "phh/", histories.HandPhhApi.as_view(), name="api-hand-phh"),
    path("tables/<int:pk>/phh/", histories.TablePhhApi.as_view(), name="api-table-phh"),
    path("tournaments/<int:pk>/live/", live.LiveApi.as_view(), name="api-live"),
    path(
        "tournaments/<int:pk>/phh/",
        histories.TournamentPhhApi.as_view(),
        name="api-tournament-phh",
    ),
    path(
        H + "procedures/preview/",
        procedures.ProcedurePreviewApi.as_view(),
        name="api-hand-procedure-preview",
    ),
    path(H + "procedures/", procedures.HandProceduresApi.as_view(), name="api-hand-procedures"),
    path("procedures/", procedures.ProcedureLogApi.as_view(), name="api-procedures"),
    path("procedures.csv", procedures.ProcedureLogCsvApi.as_view(), name="api-procedures-csv"),
]
