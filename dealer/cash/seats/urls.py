"""The cash tables' URLs: the seats pages (mounted by `dealer.urls`) and their REST API twins
(mounted under /api/ by `dealer.api.urls`, listed in docs/api.md, "Cash tables")."""

from django.urls import path

from dealer.cash import rotation_urls
from dealer.cash.games import urls as games_urls
from dealer.cash.seats import api, views
from dealer.cash.takings import urls as rake_urls

C = "cash-tables/<int:pk>/"
SEAT = C + "seats/<int:seat_pk>/"

page_urlpatterns = [
    path("cash/", views.cash_table_list, name="cash-tables"),
    path("cash/<int:pk>/", views.cash_table_page, name="cash-table"),
    path("cash/<int:pk>/rules/", views.cash_table_rules_page, name="cash-table-rules"),
    path("cash/<int:pk>/seat/", views.cash_seat_take, name="cash-seat"),
    path("cash/<int:pk>/seats/<int:seat_pk>/", views.cash_seat_change, name="cash-seat-change"),
    path("cash/<int:pk>/seats/<int:seat_pk>/move/", views.cash_seat_move, name="cash-seat-move"),
    path(
        "cash/<int:pk>/seats/<int:seat_pk>/correct/",
        views.cash_seat_correct,
        name="cash-seat-correct",
    ),
    path("cash/<int:pk>/button-draw/", views.cash_button_draw, name="cash-button-draw"),
    path("cash/<int:pk>/waiting/", views.cash_waitlist_add, name="cash-waitlist-add"),
    path(
        "cash/<int:pk>/waiting/<int:entry_pk>/remove/",
        views.cash_waitlist_remove,
        name="cash-waitlist-remove",
    ),
    # The cash floor (issue 15): each part lists its own pages.
    *games_urls.page_urlpatterns,
    *rake_urls.page_urlpatterns,
    *rotation_urls.page_urlpatterns,
]

api_urlpatterns = [
    path("cash-tables/", api.CashTablesApi.as_view(), name="api-cash-tables"),
    path(C, api.CashTableApi.as_view(), name="api-cash-table"),
    path(C + "rules/", api.CashTableRulesApi.as_view(), name="api-cash-table-rules"),
    path(C + "button-draw/", api.CashButtonDrawApi.as_view(), name="api-cash-button-draw"),
    path(C + "seats/", api.CashSeatsApi.as_view(), name="api-cash-seats"),
    path(SEAT + "sit-out/", api.CashSeatSitOutApi.as_view(), name="api-cash-seat-sit-out"),
    path(SEAT + "back/", api.CashSeatBackApi.as_view(), name="api-cash-seat-back"),
    path(SEAT + "top-up/", api.CashSeatTopUpApi.as_view(), name="api-cash-seat-top-up"),
    path(SEAT + "leave/", api.CashSeatLeaveApi.as_view(), name="api-cash-seat-leave"),
    path(SEAT + "correct/", api.CashSeatCorrectApi.as_view(), name="api-cash-seat-correct"),
    path(SEAT + "move/", api.CashSeatMoveApi.as_view(), name="api-cash-seat-move"),
    path(SEAT + "seat-change/", api.CashSeatChangeApi.as_view(), name="api-cash-seat-change"),
    path(C + "waiting/", api.CashWaitlistApi.as_view(), name="api-cash-waitlist"),
    path(
        C + "waiting/<int:entry_pk>/remove/",
        api.CashWaitlistRemoveApi.as_view(),
        name="api-cash-waitlist-remove",
    ),
    # The tablet's read before a cash hand, next to the table's hands.
    path("tables/<int:pk>/next-hand/", api.CashNextHandApi.as_view(), name="api-table-next-hand"),
    # The cash floor (issue 15): each part lists its own endpoints.
    *games_urls.api_urlpatterns,
    *rake_urls.api_urlpatterns,
    *rotation_urls.api_urlpatterns,
]
