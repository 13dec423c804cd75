"""Meetings (evenings at the table), their reopenings, seats and hands with their history."""

from django.conf import settings
from django.db import models
from django.db.models import Exists, F, OuterRef, Q
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords
from simple_history.signals import pre_create_historical_record

from .league import GAME_CHOICES, League, Player, who_field
from .night import ClubNight
from .season import Season


class HistoryByName(models.Model):
    """The historical hand's name of who made the change, as text (``who_field``)."""

    history_user_name = who_field()

    class Meta:
        abstract = True


class MeetingQuerySet(models.QuerySet):
    def with_season_start(self):
        """Each meeting with ``opens_season``: whether no meeting of its season was played
        before it (date, then id), asked in the same query instead of one of its own (a
        replay of Doppelkopf asks it for the pennant's penalty soli,
        leagues.table.replay.compulsory_solos_for). The tables of a club night are one
        evening: each of them opens the season when the night does."""
        # The evening a meeting belongs to: its club night, else itself (its id negated).
        evening = Coalesce("club_night", -F("pk"))
        earlier = (
            self.model.objects.filter(season=OuterRef("season"))
            .filter(Q(date__lt=OuterRef("date")) | Q(date=OuterRef("date"), pk__lt=OuterRef("pk")))
            .annotate(evening=evening)
            .exclude(evening=Coalesce(OuterRef("club_night"), -OuterRef("pk")))
        )
        return self.annotate(opens_season=~Exists(earlier))


class Meeting(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="meetings")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="meetings")
    date = models.DateField(_("date"))
    # RESTRICT, not PROTECT: a player who sat at a meeting can never be deleted on his own
    # (his hands would point at nobody), but deleting the whole league takes its meetings
    # and players together (PROTECT refused even that, in the admin and in seed_demo --reset).
    host = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="hosted_meetings")
    end_time = models.TimeField(_("end time"), null=True, blank=True)
    # The pennant (Doppelkopf club rules): who had to bring it, and whether he forgot.
    pennant_holder = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("pennant holder")
    )
    pennant_forgotten = models.BooleanField(_("pennant forgotten"), default=False)
    # The rules in force, copied when the meeting starts, so later rule changes never
    # rewrite a played evening.
    game = models.CharField(max_length=20, choices=GAME_CHOICES)
    variant = models.CharField(max_length=30)
    rules = models.JSONField(default=dict)
    # The money rules in force (resolved), copied likewise when the meeting starts; None when
    # the league played for nothing then, so switching money on never bills old evenings.
    money_rules = models.JSONField(null=True, blank=True)
    # Partnerships (56 and the Maw games when played in teams): {team: [player names]}.
    teams = models.JSONField(null=True, blank=True)
    # A race game carried over from an earlier evening: {party: score}.
    start_totals = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    # The evening is over (leagues.table.meetings.close_meeting): its hands are read-only
    # until an admin reopens it (MeetingReopening keeps why). A replay of an earlier meeting
    # still rewrites its cached results: closing freezes what was entered, not what follows.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    closed_by_name = who_field()
    # Copied from a paper score sheet as each player's total (leagues/exchange/paper_import.py):
    # it has seats and no hands, and its MeetingResult rows hold the totals as written, so
    # every reader counts it; the writers keep those rows instead of summing no hands into zeros.
    imported_totals = models.BooleanField(_("imported totals"), default=False)
    # Derived (leagues/cashbox/open_mark.py): whether something of the closed evening's
    # settlement may still be open. Cleared only where the settlement was worked out with
    # nothing open, and worked out again whenever the evening's results or payments change,
    # so the reads of what is open skip the evenings long settled, however many there are.
    money_open = models.BooleanField(default=True)
    # A table of a club night (several tables at once), numbered from 1; both empty for an
    # evening at one table.
    club_night = models.ForeignKey(
        ClubNight, on_delete=models.CASCADE, null=True, blank=True, related_name="tables", verbose_name=_("club night")
    )
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    # A table of a tournament's round plays this many games and ends with the last of them
    # (leagues.table.evening); empty for every other evening.
    games_planned = models.PositiveSmallIntegerField(_("games planned"), null=True, blank=True)
    # A table of a tournament's round that plays matches instead (a robber of Maw pairs, a 56
    # match played with tokens) ends with the replay's ``matches_planned``-th finished match.
    matches_planned = models.PositiveSmallIntegerField(_("matches planned"), null=True, blank=True)

    objects = MeetingQuerySet.as_manager()

    class Meta:
        ordering = ["date", "id"]
        indexes = [
            # A league's meetings in playing order: its latest few (the league page), its last
            # (the host rotation), the one before or after one (carried rounds), read from the
            # end of the index instead of sorting all of a league's meetings.
            models.Index(fields=["league", "date", "id"], name="meeting_league_order"),
            # A league's evenings that may still have money open: only those, not its history.
            models.Index(
                fields=["league", "date", "id"],
                condition=models.Q(money_open=True, money_rules__isnull=False, closed_at__isnull=False),
                name="meeting_money_open",
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["club_night", "table_number"], name="one_meeting_per_table"),
            models.CheckConstraint(
                condition=Q(club_night__isnull=True, table_number__isnull=True)
                | Q(club_night__isnull=False, table_number__gte=1),
                name="a_table_has_a_number",
            ),
        ]

    def __str__(self):
        return f"{self.league} {self.date:%Y-%m-%d}"

    def get_absolute_url(self):
        return reverse("meeting", kwargs={"slug": self.league.slug, "pk": self.pk})


class MeetingReopening(models.Model):
    """An admin reopened a closed meeting: why, who and when, and the closing it undid."""

    meeting = models.ForeignKey(Meeting, on_delete=models.CASCADE, related_name="reopenings")
    reason = models.TextField(_("reason"))
    reopened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    reopened_by_name = who_field()
    reopened_at = models.DateTimeField(_("reopened at"))
    was_closed_at = models.DateTimeField(_("was closed at"))
    was_closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    was_closed_by_name = who_field()

    class Meta:
        ordering = ["meeting", "reopened_at", "id"]

    def __str__(self):
        return f"{self.meeting} {self.reopened_at:%Y-%m-%d %H:%M}"


class SeatQuerySet(models.QuerySet):
    def in_order(self):
        """Seat order, the host first, with each seat's player (the order of the replay)."""
        return self.select_related("player").order_by("position")


class Seat(models.Model):
    """A player present at a meeting, in seat order (the host at position 0)."""

    meeting = models.ForeignKey(Meeting, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["meeting", "position"]
        constraints = [
            models.UniqueConstraint(fields=["meeting", "position"], name="unique_seat_position"),
            models.UniqueConstraint(fields=["meeting", "player"], name="one_seat_per_player"),
        ]

    def __str__(self):
        return f"{self.player} at seat {self.position}"


class HandQuerySet(models.QuerySet):
    def live(self):
        """The hands on the sheet (not deleted), in playing order: what a replay reads."""
        return self.filter(deleted_at=None).order_by("position")


class Hand(models.Model):
    """One game as the scorekeeper entered it. Never hard-deleted: ``deleted_at`` marks a
    deletion (which can be restored) and ``history`` keeps every earlier version.

    ``number`` is the hand's number on the sheet (1, 2, ... over the live hands in position
    order; NULL while deleted), kept by the services, so that the database itself refuses two
    live hands of one number in a meeting, whatever two phones do at once. ``version`` counts
    the writes of the hand (entered: 1, then +1 on every correction, deletion and restore):
    a writer names the version it saw, and a write over a newer one is refused.
    """

    meeting = models.ForeignKey(Meeting, on_delete=models.CASCADE, related_name="hands")
    # Orders hands within the meeting; never reused, so a deleted hand can come back in place.
    position = models.PositiveIntegerField()
    number = models.PositiveIntegerField(_("number"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    # Chosen by the client that entered the hand, so that a retry returns this hand instead of
    # entering it twice (offline entry sends its queue again until it gets an answer).
    idempotency_key = models.UUIDField(_("idempotency key"), null=True, blank=True)
    payload = models.JSONField()
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    entered_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords(bases=[HistoryByName])

    objects = HandQuerySet.as_manager()

    class Meta:
        ordering = ["meeting", "position"]
        constraints = [
            models.UniqueConstraint(fields=["meeting", "position"], name="unique_hand_position"),
            # A partial unique index: SQLite and PostgreSQL both have them.
            models.UniqueConstraint(
                fields=["meeting", "number"], condition=Q(deleted_at__isnull=True), name="one_live_hand_per_number"
            ),
            models.CheckConstraint(
                condition=Q(deleted_at__isnull=True, number__isnull=False)
                | Q(deleted_at__isnull=False, number__isnull=True),
                name="live_hand_has_a_number",
            ),
            models.UniqueConstraint(
                fields=["meeting", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="one_hand_per_idempotency_key",
            ),
        ]

    def __str__(self):
        return f"{self.meeting} #{self.position}"

    @property
    def discarded(self):
        """Stored deleted from the start, never on the sheet: an offline hand discarded after
        another phone took its number (leagues.table.services.discard_offline_hand). Any hand
        that was live once has a version above 1 by the time it is deleted."""
        return self.deleted_at is not None and self.version == 1


def _name_who_without_account(*, instance, history_instance, **_signal):
    """A change made by someone without an account (a guest scorer) names him on its
    historical record: the writer gives the name as ``instance._history_user_name``."""
    name = getattr(instance, "_history_user_name", None)
    if name:
        history_instance.history_user_name = name


pre_create_historical_record.connect(_name_who_without_account, sender=Hand.history.model)
