"""URLs of the dealer's pages: the tables list and each table's tablet with its htmx writes."""

from django.urls import path

from dealer.views import floor, procedures, tables, tablet

urlpatterns = [
    path("deal/", tables.table_list, name="deal-tables"),
    path("desk/t/<int:pk>/procedures/", floor.procedure_log, name="procedure-log"),
    path("deal/table/<int:pk>/", tablet.tablet_page, name="deal-table"),
    path("deal/table/<int:pk>/state/", tablet.tablet_state, name="deal-state"),
    path("deal/table/<int:pk>/start/", tablet.start_hand, name="deal-start"),
    path("deal/table/<int:pk>/action/", tablet.record_action, name="deal-action"),
    path("deal/table/<int:pk>/undo/", tablet.undo, name="deal-undo"),
    path("deal/table/<int:pk>/undo/sheet/", tablet.undo_sheet, name="deal-undo-sheet"),
    path("deal/table/<int:pk>/history/", tablet.history_sheet, name="deal-history"),
    path("deal/table/<int:pk>/procedures/", procedures.procedure_sheet, name="deal-procedures"),
    path("deal/table/<int:pk>/procedures/run/", procedures.run, name="deal-procedure-run"),
]
