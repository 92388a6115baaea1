"""URLs of the dealer's pages: the tables list, each table's tablet with its htmx writes, and the
cash tables' seats pages."""

from django.urls import path

from dealer.views import cash, floor, procedures, tables, tablet

urlpatterns = [
    path("deal/", tables.table_list, name="deal-tables"),
    path("desk/t/<int:pk>/procedures/", floor.procedure_log, name="procedure-log"),
    path("deal/table/<int:pk>/", tablet.tablet_page, name="deal-table"),
    path("deal/table/<int:pk>/state/", tablet.tablet_state, name="deal-state"),
    path("deal/table/<int:pk>/start/", tablet.start_hand, name="deal-start"),
    path("deal/table/<int:pk>/action/", tablet.record_action, name="deal-action"),
    path("deal/table/<int:pk>/undo/", tablet.undo, name="deal-undo"),
    path("deal/table/<int:pk>/undo/sheet/", tablet.undo_sheet, name="deal-undo-sheet"),
    path("deal/table/<int:pk>/reopen/", tablet.reopen, name="deal-reopen"),
    path("deal/table/<int:pk>/history/", tablet.history_sheet, name="deal-history"),
    path("deal/table/<int:pk>/procedures/", procedures.procedure_sheet, name="deal-procedures"),
    path("deal/table/<int:pk>/procedures/run/", procedures.run, name="deal-procedure-run"),
    path("cash/", cash.cash_table_list, name="cash-tables"),
    path("cash/<int:pk>/", cash.cash_table_page, name="cash-table"),
    path("cash/<int:pk>/seat/", cash.cash_seat_take, name="cash-seat"),
    path("cash/<int:pk>/seats/<int:seat_pk>/", cash.cash_seat_change, name="cash-seat-change"),
    path("cash/<int:pk>/button-draw/", cash.cash_button_draw, name="cash-button-draw"),
    path("cash/<int:pk>/waiting/", cash.cash_waitlist_add, name="cash-waitlist-add"),
    path(
        "cash/<int:pk>/waiting/<int:entry_pk>/remove/",
        cash.cash_waitlist_remove,
        name="cash-waitlist-remove",
    ),
]
