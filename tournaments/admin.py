"""Django admin for every floor model, for back-office fixes."""

from django.contrib import admin

from tournaments.models import (
    AuditEvent,
    BlindLevel,
    BlindSchedule,
    ButtonDraw,
    Entry,
    Player,
    Table,
    Tournament,
    TournamentLevel,
)


class BlindLevelInline(admin.TabularInline):
    model = BlindLevel
    extra = 0


class TournamentLevelInline(admin.TabularInline):
    model = TournamentLevel
    extra = 0


@admin.register(BlindSchedule)
class BlindScheduleAdmin(admin.ModelAdmin):
    inlines = (BlindLevelInline,)
    search_fields = ("name",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "status", "game", "structure", "created_at")
    list_filter = ("status", "game", "structure")
    search_fields = ("name",)
    inlines = (TournamentLevelInline,)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    search_fields = ("name",)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = (
        "player",
        "tournament",
        "number",
        "status",
        "chips",
        "table",
        "seat",
        "finishing_place",
        "prize",
    )
    list_filter = ("status", "tournament")
    search_fields = ("player__name",)
    raw_id_fields = ("player", "table")
    # Chips change only through the chip ledger (a count or correction on the desk or the API,
    # with who and why): the admin shows them, and where the latest figure came from.
    readonly_fields = ("chips", "chips_source", "chips_at", "live_hand")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("number", "tournament", "seat_count", "button_seat", "is_broken", "dealer")
    list_filter = ("tournament", "is_broken")


@admin.register(ButtonDraw)
class ButtonDrawAdmin(admin.ModelAdmin):
    list_display = ("table", "cards", "winner_seat", "tiebreak", "created_at")


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("created_at", "tournament", "actor", "action")
    list_filter = ("action", "tournament")
    readonly_fields = ("created_at", "tournament", "actor", "action", "detail")
