"""URLs of the floor's REST API, mounted under /api/ (listed with who may call them in
docs/api.md)."""

from django.urls import path

from tournaments.api import (
    audit,
    auth,
    busts,
    clocks,
    counts,
    entries,
    events,
    results,
    rules,
    schedules,
    tables,
)

T = "tournaments/<int:pk>/"

urlpatterns = [
    path("auth/token/", auth.TokenApi.as_view(), name="api-token"),
    path("auth/devices/", auth.DevicesApi.as_view(), name="api-devices"),
    path("auth/devices/<int:pk>/", auth.DeviceApi.as_view(), name="api-device"),
    path("auth/users/<int:pk>/devices/", auth.UserDevicesApi.as_view(), name="api-user-devices"),
    path("auth/lockouts/", auth.LockoutsApi.as_view(), name="api-lockouts"),
    path("auth/lockouts/<str:lockout_id>/", auth.LockoutApi.as_view(), name="api-lockout"),
    path("schedules/", schedules.SchedulesApi.as_view(), name="api-schedules"),
    path("schedules/<int:pk>/", schedules.ScheduleApi.as_view(), name="api-schedule"),
    path(
        "schedules/<int:pk>/levels/",
        schedules.ScheduleLevelsApi.as_view(),
        name="api-schedule-levels",
    ),
    path("tournaments/", events.TournamentsApi.as_view(), name="api-tournaments"),
    path(T, events.TournamentApi.as_view(), name="api-tournament"),
    path(
        T + "open-registration/",
        events.TournamentOpenRegistrationApi.as_view(),
        name="api-tournament-open-registration",
    ),
    path(T + "finish/", events.TournamentFinishApi.as_view(), name="api-tournament-finish"),
    path(T + "deal/", events.TournamentDealApi.as_view(), name="api-tournament-deal"),
    path(T + "rules/", rules.TournamentRulesApi.as_view(), name="api-tournament-rules"),
    path(T + "entries/", entries.EntriesApi.as_view(), name="api-entries"),
    path(
        "entries/<int:pk>/unregister/",
        entries.EntryUnregisterApi.as_view(),
        name="api-entry-unregister",
    ),
    path("entries/<int:pk>/rebuy/", entries.EntryRebuyApi.as_view(), name="api-entry-rebuy"),
    path("entries/<int:pk>/addon/", entries.EntryAddonApi.as_view(), name="api-entry-addon"),
    path("entries/<int:pk>/chips/", entries.EntryChipsApi.as_view(), name="api-entry-chips"),
    path(T + "seat-draw/", tables.SeatDrawApi.as_view(), name="api-seat-draw"),
    path(T + "tables/", tables.TablesApi.as_view(), name="api-tables"),
    path("tables/<int:pk>/counts/", counts.TableCountsApi.as_view(), name="api-table-counts"),
    path("tables/<int:pk>/dealer/", tables.TableDealerApi.as_view(), name="api-table-dealer"),
    path(T + "balancing/", tables.BalancingPlanApi.as_view(), name="api-balancing"),
    path(
        T + "balancing/confirm/",
        tables.BalancingConfirmApi.as_view(),
        name="api-balancing-confirm",
    ),
    path(T + "clock/", clocks.ClockApi.as_view(), name="api-clock"),
    path(T + "clock/start/", clocks.ClockStartApi.as_view(), name="api-clock-start"),
    path(T + "clock/pause/", clocks.ClockPauseApi.as_view(), name="api-clock-pause"),
    path(T + "clock/resume/", clocks.ClockResumeApi.as_view(), name="api-clock-resume"),
    path(T + "clock/set-level/", clocks.ClockSetLevelApi.as_view(), name="api-clock-set-level"),
    path(T + "clock/add-time/", clocks.ClockAddTimeApi.as_view(), name="api-clock-add-time"),
    path(T + "hand-for-hand/", clocks.HandForHandApi.as_view(), name="api-hand-for-hand"),
    path(
        T + "hand-for-hand/hand/",
        clocks.HandForHandHandApi.as_view(),
        name="api-hand-for-hand-hand",
    ),
    path(T + "busts/", busts.BustsApi.as_view(), name="api-busts"),
    path(T + "busts/undo/", busts.BustsUndoApi.as_view(), name="api-busts-undo"),
    path(T + "standings/", results.StandingsApi.as_view(), name="api-standings"),
    path(T + "payouts/", results.PayoutsApi.as_view(), name="api-payouts"),
    path(T + "icm/", results.IcmApi.as_view(), name="api-icm"),
    path(T + "seats/", results.SeatLookupApi.as_view(), name="api-seat-lookup"),
    path(T + "results.csv", results.ResultsCsvApi.as_view(), name="api-results-csv"),
    path("audit/", audit.AuditLogApi.as_view(), name="api-audit"),
]
