"""URLs of the floor's pages: the landing page, sign-in, the director dashboard under /desk/ and
the public pages under /t/<id>/."""

from django.contrib.auth import views as auth_views
from django.urls import path

from tournaments.views import (
    audit,
    busts,
    clocks,
    counts,
    desk,
    events,
    flights,
    floor,
    home,
    knockouts,
    payouts,
    players,
    public,
    rules,
    satellites,
    schedules,
    screens,
    setup,
    sign_ins,
    tables,
)

director = [
    path("desk/", events.tournaments_page, name="tournament-list"),
    path("desk/schedules/", schedules.schedule_list, name="schedule-list"),
    path("desk/access/", sign_ins.access_page, name="sign-ins"),
    path(
        "desk/access/devices/<int:pk>/revoke/",
        sign_ins.device_revoke_page,
        name="device-revoke",
    ),
    path(
        "desk/access/users/<int:pk>/revoke/",
        sign_ins.user_devices_revoke_page,
        name="user-devices-revoke",
    ),
    path(
        "desk/access/lockouts/<str:lockout_id>/unlock/",
        sign_ins.lockout_unlock_page,
        name="lockout-unlock",
    ),
    path("desk/schedules/new/", schedules.schedule_create_page, name="schedule-create"),
    path("desk/schedules/<int:pk>/", schedules.schedule_edit_page, name="schedule-edit"),
    path("desk/t/<int:pk>/", events.dashboard, name="tournament-dashboard"),
    path("desk/t/<int:pk>/settings/", events.settings_page, name="tournament-settings"),
    path("desk/t/<int:pk>/reprice/", events.reprice_page, name="tournament-reprice"),
    path("desk/t/<int:pk>/rules/", rules.tournament_rules_page, name="tournament-rules"),
    path("desk/t/<int:pk>/open/", events.open_registration, name="tournament-open"),
    path("desk/t/<int:pk>/finish/", events.finish, name="tournament-finish"),
    path("desk/t/<int:pk>/entries/", desk.entries_page, name="entry-list"),
    path(
        "desk/t/<int:pk>/entries/<int:entry_pk>/unregister/",
        desk.unregister,
        name="entry-unregister",
    ),
    path("desk/t/<int:pk>/entries/<int:entry_pk>/rebuy/", desk.rebuy, name="entry-rebuy"),
    path("desk/t/<int:pk>/entries/<int:entry_pk>/addon/", desk.addon, name="entry-addon"),
    path("desk/t/<int:pk>/tables/", tables.tables_page, name="table-list"),
    path("desk/t/<int:pk>/tables/draw/", tables.draw_seats, name="seat-draw"),
    path("desk/t/<int:pk>/tables/confirm/", tables.confirm_moves, name="moves-confirm"),
    path(
        "desk/t/<int:pk>/tables/<int:table_pk>/counts/",
        counts.count_sheet,
        name="table-counts",
    ),
    path("desk/t/<int:pk>/seat-cards/", tables.seat_cards, name="seat-cards"),
    path("desk/tables/<int:table_pk>/dealer/", tables.assign_dealer, name="table-dealer"),
    path("desk/t/<int:pk>/clock/", clocks.clock_page, name="clock-control"),
    path("desk/t/<int:pk>/clock/start/", clocks.start, name="clock-start"),
    path("desk/t/<int:pk>/clock/pause/", clocks.pause, name="clock-pause"),
    path("desk/t/<int:pk>/clock/resume/", clocks.resume, name="clock-resume"),
    path("desk/t/<int:pk>/clock/add-time/", clocks.add_time, name="clock-add-time"),
    path("desk/t/<int:pk>/clock/level/", clocks.set_level, name="clock-set-level"),
    path("desk/t/<int:pk>/clock/hand-for-hand/", clocks.hand_for_hand, name="hand-for-hand"),
    path(
        "desk/t/<int:pk>/clock/hand-for-hand/hand/",
        clocks.hand_for_hand_hand,
        name="hand-for-hand-hand",
    ),
    path("desk/t/<int:pk>/busts/", busts.busts_page, name="bust-list"),
    path("desk/t/<int:pk>/busts/row/", busts.bust_row, name="bust-row"),
    path("desk/t/<int:pk>/busts/search/", busts.bust_search, name="bust-search"),
    path("desk/t/<int:pk>/busts/undo/", busts.undo, name="bust-undo"),
    path("desk/t/<int:pk>/payouts/", payouts.payouts_page, name="payout-list"),
    path("desk/t/<int:pk>/payouts/icm/", payouts.icm_deal, name="icm-deal"),
    path("desk/t/<int:pk>/payouts/deal/", payouts.accept_deal, name="deal-accept"),
    path("desk/t/<int:pk>/audit/", audit.audit_page, name="audit-log"),
]

public_pages = [
    path("t/<int:pk>/", public.standings, name="public-standings"),
    path("t/<int:pk>/state/", public.state, name="public-state"),
    path("t/<int:pk>/seat/", public.seat, name="public-seat-lookup"),
    path("t/<int:pk>/payouts/", public.payouts, name="public-payouts"),
    path("t/<int:pk>/structure/", public.structure, name="public-structure"),
    path("t/<int:pk>/clock/", public.clock, name="public-clock"),
]

urlpatterns = [
    path("", home.home, name="home"),
    path("login/", sign_ins.SignInView.as_view(), name="login"),
    path("signed-in/", home.after_login, name="after-login"),
    path("logout/", auth_views.LogoutView.as_view(next_page="home"), name="logout"),
    *director,
    *public_pages,
    # Series work (issue 14): each module lists its own pages.
    *knockouts.urls,
    *flights.urls,
    *satellites.urls,
    *players.urls,
    *setup.urls,
    *screens.urls,
    *floor.urls,
]
