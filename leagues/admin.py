"""The Django admin (staff only): a door as strict as the league's own pages.

What the app checks, the admin checks with the app's own code (the house rules by the engine's
option checks, a change of role or a removal by the services that keep a league's last admin);
what the app never changes once made (which league a thing belongs to, the numbers and
payloads a replay reads, who a membership or a player is) the admin shows read-only; what
only the league's pages make (leagues, seasons, meetings, players, members, invites) is not
added here, and what they keep (seasons, meetings, players, invites, hands, the last admin)
is not deleted here.
"""

from datetime import timedelta

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms.models import BaseInlineFormSet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timezone import localdate
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from simple_history.admin import SimpleHistoryAdmin

from leagues import exceptions
from leagues.clubs import services
from leagues.clubs.names import visible_name
from leagues.fields import installed_game, preset_choices
from leagues.models import (
    Hand,
    HandResult,
    Invite,
    League,
    Meeting,
    MeetingReopening,
    Membership,
    Player,
    Role,
    Season,
    Seat,
)

# The services' own words for the rules they keep (translated there already).
NEEDS_AN_ADMIN = gettext_noop("A league needs at least one admin: make someone else admin first.")
ONLY_ADMINS_REMOVE = gettext_noop("Only an admin of the league can remove members.")
INVITE_DAYS_AT_MOST = 365


class WritableOnly:
    """Every field of the model read-only but ``writable``: a field added to a model later is
    shown, not written, until someone decides the admin may write it and how it is checked."""

    writable: tuple[str, ...] = ()

    def get_readonly_fields(self, request, obj=None):
        parent = getattr(self, "parent_model", None)  # an inline's link to its page's object
        return [
            field.name
            for field in self.model._meta.get_fields()
            if field.concrete
            and not field.auto_created
            and field.name not in self.writable
            and field.name not in (self.exclude or ())
            and not (field.is_relation and field.related_model is parent)
        ]


class MembershipFormSet(BaseInlineFormSet):
    """A league's members with their roles: a league keeps at least one admin, as on its page.

    Checked with the league's row locked (the admin's save runs in one transaction), the lock
    ``services.change_role`` and ``services.remove_member`` take, which then write it."""

    acting = None  # the user saving the form, set by MembershipInline.get_formset

    def clean(self):
        super().clean()
        if any(self.errors) or self.instance.pk is None:
            return
        league = League.objects.select_for_update().get(pk=self.instance.pk)
        before = set(league.memberships.filter(role=Role.ADMIN).values_list("pk", flat=True))
        if before and not self._admins_after(before):
            raise ValidationError(_(NEEDS_AN_ADMIN))
        removing = any(self._should_delete_form(form) for form in self.initial_forms)
        if removing and not (self.acting.is_superuser or self.acting.pk in _admins_of(league)):
            raise ValidationError(_(ONLY_ADMINS_REMOVE))

    def _admins_after(self, before: set[int]) -> set[int]:
        """The league's admins (memberships) once the forms are saved."""
        after = set(before)
        for form in self.initial_forms:
            if self._should_delete_form(form) or form.cleaned_data.get("role") != Role.ADMIN:
                after.discard(form.instance.pk)
            else:
                after.add(form.instance.pk)
        return after

    def save(self, commit=True):
        """Roles and removals through the services, in the order ``clean`` judged them by:
        promotions first, so that handing the admin role over in one save never leaves the
        league without one in between; removals next, while the one saving is still the
        admin ``clean`` saw; demotions last."""
        self.new_objects, self.changed_objects, self.deleted_objects = [], [], []
        changed = [
            form for form in self.initial_forms if not self._should_delete_form(form) and "role" in form.changed_data
        ]
        promoted = [form for form in changed if form.cleaned_data["role"] == Role.ADMIN]
        self._change_roles(promoted)
        for form in self.deleted_forms:
            services.remove_member(membership=form.instance, by=self.acting)
            self.deleted_objects.append(form.instance)
        self._change_roles([form for form in changed if form not in promoted])
        return [membership for membership, _fields in self.changed_objects]

    def _change_roles(self, forms):
        for form in forms:
            # A fresh row: the form's instance holds the new role already, and the service
            # decides by the role the member has now.
            membership = Membership.objects.get(pk=form.instance.pk)
            self.changed_objects.append(
                (services.change_role(membership=membership, role=form.cleaned_data["role"]), ["role"])
            )


def _admins_of(league) -> set[int]:
    return set(league.memberships.filter(role=Role.ADMIN).values_list("user_id", flat=True))


class MembershipInline(WritableOnly, admin.TabularInline):
    # Members join through an invite, which gives them their player; the account of a
    # membership is who it is. Its role changes, or it goes, as on the league page.
    model = Membership
    formset = MembershipFormSet
    extra = 0
    writable = ("role",)

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        formset.acting = request.user
        return formset

    def has_add_permission(self, request, obj=None):
        return False


class PlayerInline(WritableOnly, admin.TabularInline):
    model = Player
    extra = 0
    # Stored hands name players as entered ("re": ["Ben", "Dora"]): renaming one here would
    # leave his hands pointing at nobody. Players are added on the league page, linked to an
    # account by an invite, and stay (the sheets and standings name them); whether one still
    # plays is the admin's to say.
    writable = ("active",)
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class LeagueForm(forms.ModelForm):
    """The house rules as stored (only the options changed from the preset), checked as the
    league's rules page checks them: by ``services.resolved_rules``, the engine's checks of
    each option, so that what is saved here the league's pages can show and play."""

    class Meta:
        model = League
        fields = ["name", "slug", "variant", "rule_overrides"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        spec = installed_game(self.instance.game) if self.instance.pk else None
        if spec is not None and "variant" in self.fields:
            self.fields["variant"] = forms.ChoiceField(label=self.fields["variant"].label, choices=preset_choices(spec))
        if "name" in self.fields:
            # The characters the league's own pages refuse in its name.
            self.fields["name"].validators.append(visible_name)

    def clean_rule_overrides(self):
        # An empty field is no house rules (the preset as it is), as on the rules page.
        value = self.cleaned_data.get("rule_overrides")
        return {} if value is None else value

    def clean(self):
        cleaned = super().clean()
        if "variant" in self.errors or "rule_overrides" in self.errors:
            return cleaned
        try:
            services.resolved_rules(
                game=self.instance.game, variant=cleaned.get("variant"), overrides=cleaned.get("rule_overrides")
            )
        except exceptions.InvalidInput as error:
            for item in error.errors:
                self.add_error("variant" if item["field"] == "variant" else "rule_overrides", item["message"])
        return cleaned


@admin.register(League)
class LeagueAdmin(WritableOnly, admin.ModelAdmin):
    form = LeagueForm
    list_display = ["name", "slug", "game", "variant"]
    search_fields = ["name", "slug"]
    inlines = [MembershipInline, PlayerInline]
    # The game of a league never changes (its meetings and rules are of it); the public link
    # is made and revoked on the league page, a fresh unguessable token each time.
    writable = ("name", "slug", "variant", "rule_overrides")

    def has_add_permission(self, request):
        # A league is made on the site, whose maker becomes its first admin and player.
        return False

    def save_model(self, request, obj, form, change):
        # The house rules as the league's page writes them, when they differ from the stored
        # ones (not by the form's changed_data: for the rules that compares with the value the
        # page posts back as it loaded it); the rest only where the form changed it, so that
        # what the app wrote meanwhile (the public link) stays.
        stored = League.objects.filter(pk=obj.pk).values_list("variant", "rule_overrides").get()
        if (obj.variant, obj.rule_overrides) != stored:
            services.change_rules(league=obj, variant=obj.variant, rule_overrides=obj.rule_overrides)
        rest = [name for name in form.changed_data if name not in ("variant", "rule_overrides")]
        if rest:
            obj.save(update_fields=rest)


class InviteForm(forms.ModelForm):
    class Meta:
        model = Invite
        fields = ["role", "expires_at"]

    def clean_expires_at(self):
        # Not before it was made (an invite that should no longer work expires now), and
        # at most a year ahead, as an evening may be dated: a date beyond what the database's
        # and the pages' clocks can hold would stop the league page.
        value = self.cleaned_data["expires_at"]
        latest = timezone.now() + timedelta(days=INVITE_DAYS_AT_MOST)
        if value > latest:
            raise ValidationError(
                _("An invite can hold at most a year (until %(date)s).") % {"date": date_format(localdate(latest))}
            )
        if value < self.instance.created_at.replace(second=0, microsecond=0):  # typed to the minute
            made = date_format(localdate(self.instance.created_at))
            raise ValidationError(_("An invite cannot expire before it was made (%(date)s).") % {"date": made})
        return value


@admin.register(Invite)
class InviteAdmin(WritableOnly, admin.ModelAdmin):
    # Made on the league page (which shows the link to send) and used or revoked there: here
    # only its role and how long it holds can change.
    form = InviteForm
    list_display = ["league", "role", "created_at", "expires_at", "used_at"]
    writable = ("role", "expires_at")
    exclude = ["token"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        # A revoked or used invite stays as the record of who was invited by whom.
        return False


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


@admin.register(Season)
class SeasonAdmin(ReadOnlyMixin, admin.ModelAdmin):
    # A season is opened by the meeting that starts it, numbered in its league, closed and
    # reopened on the league's pages (a reopening keeps its reason): its standings, report
    # and bill read its league's meetings by its number.
    list_display = ["league", "number", "started_on", "closed_on"]
    list_filter = ["league"]


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    # Who sat where decides the dealers of every hand: fixed once the meeting started.
    model = Seat
    extra = 0


@admin.register(Meeting)
class MeetingAdmin(WritableOnly, admin.ModelAdmin):
    list_display = ["league", "season", "date", "host"]
    list_filter = ["league"]
    inlines = [SeatInline]
    # Only when the evening ends. Everything a replay reads (the rules, teams, start totals,
    # pennant, and the order of the league's evenings, which carries special rounds from one
    # to the next) stays as the meeting was started, in its league and season, with its host
    # at seat 0 (he counts for the season's rotation). It is closed and reopened through the
    # app only, so that a reopening keeps its reason. An evening copied from paper as totals
    # is such by how it was stored (its result rows are the totals, with no hands): the
    # standings tell it by both, so it is not flipped.
    writable = ("end_time",)

    def has_add_permission(self, request):
        # A meeting is started on the league page, with its seats, rules and season.
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        # Only what the form changed: the rest of the row (the evening's closed state,
        # which the app writes under the meeting's lock) stays as it is in the database now,
        # not as this form read it.
        obj.save(update_fields=form.changed_data)


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


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    """Django's own admin of accounts, except that the last admin of a league keeps his
    account: deleting it would take his membership with it, which the league page refuses.
    When he joined and last logged in are facts Django records, not figures to type."""

    readonly_fields = ["last_login", "date_joined"]

    def get_deleted_objects(self, objs, request):
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        leaving = {user.pk for user in objs}
        for membership in Membership.objects.filter(user__in=leaving, role=Role.ADMIN).select_related("league"):
            others = membership.league.memberships.filter(role=Role.ADMIN).exclude(user__in=leaving)
            if not others.exists():
                protected.append(f"{membership}: {_(NEEDS_AN_ADMIN)}")
        return deleted, counts, perms_needed, protected
