"""The games and waiting lists (issue 15): the desk's pages and the public ones (mounted at the
site's root by dealer.urls), and their API twins (under /api/ by dealer.api.urls)."""

from __future__ import annotations

from django.urls import URLPattern, path

from dealer.cash.games import api, views

G = "cash-games/<int:pk>/"
E = G + "list/<int:entry_pk>/"

page_urlpatterns: list[URLPattern] = [
    path("cash/games/", views.game_list, name="cash-games"),
    path("cash/games/<int:pk>/", views.game_page, name="cash-game"),
    path("cash/games/<int:pk>/change/", views.game_change, name="cash-game-change"),
    path("cash/games/<int:pk>/stakes/", views.game_stakes, name="cash-game-stakes"),
    path("cash/games/<int:pk>/break/", views.game_break, name="cash-game-break"),
    path("cash/games/<int:pk>/tables/", views.game_table_attach, name="cash-game-table"),
    path("cash/games/<int:pk>/list/", views.game_list_add, name="cash-game-list-add"),
    path("cash/games/<int:pk>/call-next/", views.game_call_next, name="cash-game-call-next"),
    path(
        "cash/games/<int:pk>/list/<int:entry_pk>/",
        views.game_entry_change,
        name="cash-game-entry",
    ),
    path("cash/<int:pk>/stakes/", views.table_stakes, name="cash-table-stakes"),
    path("cash/<int:pk>/must-move/", views.table_must_move, name="cash-table-must-move"),
    path("cash/<int:pk>/close/", views.table_close, name="cash-table-close"),
    # The public: live games, joining a list from a phone, a place by its code.
    path("games/", views.live_games, name="live-games"),
    path("games/<int:pk>/join/", views.join_list, name="games-join"),
    path("lists/", views.list_lookup, name="list-lookup"),
    path("lists/<str:code>/", views.list_place, name="list-place"),
    path("lists/<str:code>/state/", views.list_place_state, name="list-place-state"),
    path("lists/<str:code>/leave/", views.list_leave, name="list-leave"),
]
api_urlpatterns: list[URLPattern] = [
    path("cash-games/", api.GamesApi.as_view(), name="api-cash-games"),
    path(G, api.GameDetailApi.as_view(), name="api-cash-game"),
    path(G + "open/", api.GameOpenApi.as_view(), name="api-cash-game-open"),
    path(G + "close/", api.GameCloseApi.as_view(), name="api-cash-game-close"),
    path(G + "stakes/", api.GameStakesApi.as_view(), name="api-cash-game-stakes"),
    path(G + "break/", api.GameBreakApi.as_view(), name="api-cash-game-break"),
    path(G + "tables/", api.GameTablesApi.as_view(), name="api-cash-game-tables"),
    path(G + "list/", api.GameListApi.as_view(), name="api-cash-game-list"),
    path(G + "call-next/", api.GameCallNextApi.as_view(), name="api-cash-game-call-next"),
    path(E + "seat/", api.EntrySeatApi.as_view(), name="api-cash-game-entry-seat"),
    path(E + "no-show/", api.EntryNoShowApi.as_view(), name="api-cash-game-entry-no-show"),
    path(E + "remove/", api.EntryRemoveApi.as_view(), name="api-cash-game-entry-remove"),
    path(
        "cash-tables/<int:pk>/stakes/", api.TableStakesApi.as_view(), name="api-cash-table-stakes"
    ),
    path(
        "cash-tables/<int:pk>/must-move/",
        api.TableMustMoveApi.as_view(),
        name="api-cash-table-must-move",
    ),
    path("cash-tables/<int:pk>/close/", api.TableCloseApi.as_view(), name="api-cash-table-close"),
    path("games/", api.LiveGamesApi.as_view(), name="api-live-games"),
    path("games/<int:pk>/list/", api.PublicJoinApi.as_view(), name="api-games-list"),
    path("lists/<str:code>/", api.PlaceApi.as_view(), name="api-list-place"),
    path("lists/<str:code>/leave/", api.PlaceLeaveApi.as_view(), name="api-list-leave"),
]
