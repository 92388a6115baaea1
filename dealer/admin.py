"""Admin for hands, their events and the procedure log (read-mostly: the log is append-only)."""

from django.contrib import admin

from dealer.models import Hand, HandEvent, ProcedureLog


class HandEventInline(admin.TabularInline):
    model = HandEvent
    extra = 0
    can_delete = False
    readonly_fields = ("seq", "kind", "payload", "client_id", "actor", "created_at")


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "status", "version", "button_seat", "created_at")
    list_filter = ("status", "table__tournament")
    inlines = (HandEventInline,)
    readonly_fields = ("version", "state")


@admin.register(ProcedureLog)
class ProcedureLogAdmin(admin.ModelAdmin):
    list_display = ("created_at", "table", "hand", "dealer", "title", "effect")
    list_filter = ("effect", "table__tournament")
