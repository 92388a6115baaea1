"""URLs of the dealer's pages: the tables list, each table's tablet with its htmx writes, and the
cash tables' seats pages."""

from django.urls import path

from dealer.cash.seats import urls as cash_urls
from dealer.views import (
    desk_reopen,
    live,
    offline,
    procedure_log,
    procedures,
    rules,
    tables,
    tablet,
)

urlpatterns = [
    path("deal/", tables.table_list, name="deal-tables"),
    path(
        "desk/t/<int:pk>/hands/<int:hand_pk>/reopen/",
        desk_reopen.reopen_hand,
        name="hand-reopen",
    ),
    # The live updates of a tournament (the public pages' "Live" tab: dealer/story.py).
    path("t/<int:pk>/live/", live.live, name="public-live"),
    path("t/<int:pk>/live/state/", live.live_state, name="public-live-state"),
    path("t/<int:pk>/live.atom", live.live_atom, name="public-live-atom"),
    path("deal/sw.js", offline.service_worker, name="deal-service-worker"),
    path("desk/t/<int:pk>/procedures/", procedure_log.procedure_log, name="procedure-log"),
    path("deal/table/<int:pk>/", tablet.tablet_page, name="deal-table"),
    path("deal/table/<int:pk>/state/", tablet.tablet_state, name="deal-state"),
    path("deal/table/<int:pk>/start/", tablet.start_hand, name="deal-start"),
    path("deal/table/<int:pk>/action/", tablet.record_action, name="deal-action"),
    path("deal/table/<int:pk>/undo/", tablet.undo, name="deal-undo"),
    path("deal/table/<int:pk>/undo/sheet/", tablet.undo_sheet, name="deal-undo-sheet"),
    path("deal/table/<int:pk>/reopen/", tablet.reopen, name="deal-reopen"),
    path("deal/table/<int:pk>/history/", tablet.history_sheet, name="deal-history"),
    path("deal/table/<int:pk>/rules/", rules.rules_sheet, name="deal-rules"),
    path("deal/table/<int:pk>/procedures/", procedures.procedure_sheet, name="deal-procedures"),
    path("deal/table/<int:pk>/procedures/run/", procedures.run, name="deal-procedure-run"),
    *cash_urls.page_urlpatterns,
]
