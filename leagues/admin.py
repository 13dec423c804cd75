from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Hand, HandResult, Invite, League, Meeting, Membership, Player, Season, Seat


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    # Stored hands name players as entered ("re": ["Ben", "Dora"]): renaming one here would
    # leave his hands pointing at nobody. Players are added on the league page.
    readonly_fields = ["name"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "game", "variant"]
    search_fields = ["name", "slug"]
    inlines = [MembershipInline, PlayerInline]


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ["league", "role", "created_at", "expires_at", "used_at"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["league", "number", "started_on", "closed_on"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Meeting)
class MeetingAdmin(admin.ModelAdmin):
    list_display = ["league", "season", "date", "host"]
    list_filter = ["league"]
    inlines = [SeatInline]


@admin.register(Hand)
class HandAdmin(SimpleHistoryAdmin):
    list_display = ["meeting", "position", "entered_by", "entered_at", "deleted_at"]
    list_filter = ["meeting__league"]


@admin.register(HandResult)
class HandResultAdmin(admin.ModelAdmin):
    # Derived by replay: readable here, never edited by hand.
    list_display = ["meeting", "number", "player", "delta", "total"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
