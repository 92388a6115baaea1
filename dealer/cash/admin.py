from django.contrib import admin

from dealer.cash.models import CashSeat, WaitingListEntry


@admin.register(CashSeat)
class CashSeatAdmin(admin.ModelAdmin):
    list_display = ("table", "seat", "player", "chips", "away", "new", "missed_small", "missed_big")
    list_filter = ("table", "away")


@admin.register(WaitingListEntry)
class WaitingListEntryAdmin(admin.ModelAdmin):
    list_display = ("table", "player", "status", "created_at")
    list_filter = ("table", "status")
