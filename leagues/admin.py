from django.contrib import admin
from django.core.exceptions import PermissionDenied
from simple_history.admin import SimpleHistoryAdmin

from .models import Hand, HandResult, Invite, League, Meeting, MeetingReopening, Membership, Player, Season, Seat


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


class ReadOnlyMixin:
    """Readable here, never written: hands change only through leagues.services, which
    checks the version, keeps the live numbers and replays the meeting; its results are
    derived by that replay. A change here would leave the cached figures wrong."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    # Who sat where decides the dealers of every hand: fixed once the meeting started.
    model = Seat
    extra = 0


@admin.register(Meeting)
class MeetingAdmin(admin.ModelAdmin):
    list_display = ["league", "season", "date", "host"]
    list_filter = ["league"]
    inlines = [SeatInline]
    # Everything a replay reads (and the order of the league's evenings, which carries
    # special rounds from one to the next) stays as the meeting was started.
    readonly_fields = [
        "league",
        "season",
        "date",
        "game",
        "variant",
        "rules",
        "teams",
        "start_totals",
        "pennant_holder",
        "pennant_forgotten",
        # Closed and reopened through the app only, so that a reopening keeps its reason.
        "closed_at",
        "closed_by",
        # An evening copied from paper as totals is such by how it was stored (its result rows
        # are the totals, with no hands): the standings tell it by both, so it is not flipped.
        "imported_totals",
    ]

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        if change:
            # Only what the form changed: the rest of the row (the evening's closed state,
            # which the app writes under the meeting's lock) stays as it is in the database now,
            # not as this form read it.
            obj.save(update_fields=form.changed_data)
        else:
            super().save_model(request, obj, form, change)


@admin.register(MeetingReopening)
class MeetingReopeningAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["meeting", "reopened_at", "reopened_by", "reason"]
    list_filter = ["meeting__league"]


@admin.register(Hand)
class HandAdmin(ReadOnlyMixin, SimpleHistoryAdmin):
    list_display = ["meeting", "number", "position", "version", "entered_by", "entered_at", "deleted_at"]
    list_filter = ["meeting__league"]

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        # simple_history saves ("reverts to") a past version on POST to this page for anyone
        # who may view it: here it only shows that version.
        if request.method != "GET":
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)


@admin.register(HandResult)
class HandResultAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["meeting", "number", "player", "delta", "total"]
