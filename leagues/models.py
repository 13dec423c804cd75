"""The league domain: leagues, players, roles, invites, seasons, meetings and hands.

A hand is stored exactly as entered (its JSON payload). Everything derived from hands
(points, totals, dealers, special rounds) comes from replaying the meeting through
``scoring/``; ``HandResult`` caches that replay for fast standings and is only ever written
by ``services.replay_meeting``.
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.registry import game_names


def new_token():
    return secrets.token_urlsafe(24)


def who_field():
    """Who did it, as text, where no account of this instance is linked: the name an imported
    league's file gives (leagues/exchange.py). Shown when the user beside it is empty.

    NULL when there is none, not "": the column came without a default (migration 0017)."""
    return models.CharField(_("by (as imported)"), max_length=40, null=True, blank=True)


class HistoryByName(models.Model):
    """The historical hand's name of who made the change, as text (``who_field``)."""

    history_user_name = who_field()

    class Meta:
        abstract = True


GAME_LABELS = {
    "doppelkopf": _("Doppelkopf"),
    "thousand": _("1000"),
    "fifty_six": _("56"),
    "twenty_five": _("Twenty-Five"),
    "forty_five": _("Forty-Five"),
    "one_ten": _("One-Hundred-and-Ten"),
    "auction_45": _("Auction 45s"),
    "spoil_five": _("Spoil Five"),
}
GAME_CHOICES = [(name, GAME_LABELS.get(name, name)) for name in game_names()]


class League(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES)
    variant = models.CharField(_("rule set"), max_length=30)
    # Only the options the league changed from its preset; the rest follow the preset.
    rule_overrides = models.JSONField(_("house rules"), default=dict, blank=True)
    # Anyone holding this token may read standings and sheets; None means no public link.
    public_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Who changed the rules and when (the activity page reads it). The public link's token is
    # not kept: a revoked link must not live on in a table.
    history = HistoricalRecords(excluded_fields=["public_token"])

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("league", kwargs={"slug": self.slug})


class Role(models.TextChoices):
    ADMIN = "admin", _("admin")
    SCOREKEEPER = "scorekeeper", _("scorekeeper")
    MEMBER = "member", _("member")


# What each role may do, from most to least.
ROLE_RANK = {Role.ADMIN: 3, Role.SCOREKEEPER: 2, Role.MEMBER: 1}


class Membership(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_league")]

    def __str__(self):
        return f"{self.user} in {self.league} ({self.role})"

    def allows(self, role):
        return ROLE_RANK[self.role] >= ROLE_RANK[role]


class Player(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="players"
    )
    active = models.BooleanField(_("plays in this league"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="unique_player_name_per_league"),
            models.UniqueConstraint(
                fields=["league", "user"], condition=Q(user__isnull=False), name="one_player_per_user_per_league"
            ),
        ]

    def __str__(self):
        return self.name


def invite_expiry():
    return timezone.now() + timedelta(days=settings.INVITE_VALID_DAYS)


class InviteQuerySet(models.QuerySet):
    def open(self):
        """Neither used, revoked nor expired (the league page's list of open invites)."""
        return self.filter(used_at=None, expires_at__gt=timezone.now())


class Invite(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.MEMBER)
    # Joining through this invite links the new member to this player, if set.
    player = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(default=invite_expiry)
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    objects = InviteQuerySet.as_manager()

    def __str__(self):
        return f"Invite to {self.league} as {self.role}"

    def get_absolute_url(self):
        return reverse("accept_invite", kwargs={"token": self.token})

    def problem(self) -> str | None:
        """Why this invite cannot be used now ("used", "revoked", "expired", "wrong_league",
        "player_taken"), or None. A revoked invite is marked used by nobody."""
        if self.used_at is not None:
            return "used" if self.used_by_id else "revoked"
        if self.expires_at <= timezone.now():
            return "expired"
        if self.player is not None and self.player.league_id != self.league_id:
            return "wrong_league"
        if self.player is not None and self.player.user_id is not None:
            return "player_taken"
        return None

    def is_usable(self) -> bool:
        return self.problem() is None


def everyone_hosted(*, players, hosts) -> bool:
    """The seed's end of a Sequenz: every active player of the league (ids) has hosted (ids).
    The one rule for "season complete", used on stored seasons and on the rotation page."""
    players = set(players)
    return bool(players) and players <= set(hosts)


class Season(models.Model):
    """The seed's Sequenz: meetings until every player of the league has hosted once."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveIntegerField(_("number"))
    started_on = models.DateField(_("started on"))
    # Set when every player has hosted; the next meeting then opens the next season.
    closed_on = models.DateField(_("closed on"), null=True, blank=True)
    # Closed for good (services.lock_season): its evenings are closed and read-only, and its
    # bill can be stored. Set when the last evening of a complete season ends, when its bill
    # is stored, or when the next season starts; cleared only by an admin's reopening
    # (SeasonReopening keeps why), since every change to its hands changes the bill.
    locked_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    locked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    locked_by_name = who_field()

    class Meta:
        ordering = ["league", "number"]
        constraints = [models.UniqueConstraint(fields=["league", "number"], name="unique_season_number")]

    def __str__(self):
        return _("Season %(number)s") % {"number": self.number}

    def everyone_hosted(self) -> bool:
        return everyone_hosted(
            players=self.league.players.filter(active=True).values_list("id", flat=True),
            hosts=self.meetings.values_list("host_id", flat=True),
        )

    @property
    def locked(self) -> bool:
        return self.locked_at is not None


class SeasonReopening(models.Model):
    """An admin reopened a closed season: why, who and when, and the closing it undid."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="reopenings")
    reason = models.TextField(_("reason"))
    reopened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    reopened_by_name = who_field()
    reopened_at = models.DateTimeField(_("reopened at"))
    was_locked_at = models.DateTimeField(_("was closed at"))

    class Meta:
        ordering = ["season", "reopened_at", "id"]

    def __str__(self):
        return f"{self.season} {self.reopened_at:%Y-%m-%d %H:%M}"


class SeasonBillQuerySet(models.QuerySet):
    def current(self):
        """The bill in force (the one not replaced by a later one)."""
        return self.filter(replaced_at=None)


class SeasonBill(models.Model):
    """The restaurant bill as it was settled: the inputs, scoring.bill.split_bill's answer and
    the standings it was split by. Stored, not recomputed, so that a later change to the
    season's hands (after an admin reopened it) cannot silently change what people paid; the
    bill page then shows this one beside a split by today's standings. A corrected bill
    replaces it (``replaced_at``); the old one is kept."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="bills")
    # The inputs as typed: the bill, the tip, the method and the rate asked for.
    total = models.DecimalField(_("the bill"), max_digits=9, decimal_places=2)
    tip_percent = models.DecimalField(_("tip (%)"), max_digits=5, decimal_places=2, null=True, blank=True)
    method = models.CharField(_("how to split"), max_length=20)
    cents_per_point = models.DecimalField(_("cents per point"), max_digits=7, decimal_places=2, null=True, blank=True)
    # Who paid: one player (paid_by), or several with their amounts ({name: "12.30"}).
    paid_by = models.ForeignKey(
        "Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("who paid")
    )
    paid = models.JSONField(_("amounts paid"), null=True, blank=True)
    # split_bill's answer: the total with tip, the rate applied (euros per point, lowered when
    # it would give money back), the shares and transfers by player name, in standings order.
    total_with_tip = models.DecimalField(_("total with tip"), max_digits=9, decimal_places=2)
    rate = models.DecimalField(_("rate"), max_digits=12, decimal_places=6, null=True, blank=True)
    shares = models.JSONField(_("shares"))
    transfers = models.JSONField(_("transfers"), default=list)
    # The season's standings figure the bill was split by: [[name, score], ...] in standings
    # order (a list: PostgreSQL's jsonb keeps no key order).
    scores = models.JSONField(_("standings"))
    chooser = models.ForeignKey(
        "Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("chose the restaurant"),
    )
    settled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    settled_by_name = who_field()
    settled_at = models.DateTimeField(_("settled at"))
    replaced_at = models.DateTimeField(_("replaced at"), null=True, blank=True)

    objects = SeasonBillQuerySet.as_manager()

    class Meta:
        ordering = ["season", "settled_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["season"], condition=Q(replaced_at=None), name="one_current_bill_per_season"
            )
        ]

    def __str__(self):
        return f"{self.season}: {self.total_with_tip} €"

    def score_map(self) -> dict[str, int]:
        """The standings it was split by, {name: score} in standings order."""
        if isinstance(self.scores, dict):  # stored by an early build of this feature
            return dict(self.scores)
        return {name: score for name, score in self.scores}


class MeetingQuerySet(models.QuerySet):
    def with_season_start(self):
        """Each meeting with ``opens_season``: whether no meeting of its season was played
        before it (date, then id), asked in the same query instead of one of its own (a
        replay of Doppelkopf asks it for the pennant's penalty soli, services.compulsory_solos_for)."""
        earlier = self.model.objects.filter(season=OuterRef("season")).filter(
            Q(date__lt=OuterRef("date")) | Q(date=OuterRef("date"), pk__lt=OuterRef("pk"))
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
    # Partnerships (56 and the Maw games when played in teams): {team: [player names]}.
    teams = models.JSONField(null=True, blank=True)
    # A race game carried over from an earlier evening: {party: score}.
    start_totals = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    # The evening is over (services.close_meeting): its hands are read-only until an admin
    # reopens it (MeetingReopening keeps why). A replay of an earlier meeting still rewrites
    # its cached results: closing freezes what was entered, not what follows from it.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    closed_by_name = who_field()
    # Copied from a paper score sheet as each player's total (leagues/paper_import.py): it has
    # seats and no hands, and its MeetingResult rows hold the totals as written, so every
    # reader counts it; the writers keep those rows instead of summing no hands into zeros.
    imported_totals = models.BooleanField(_("imported totals"), default=False)

    objects = MeetingQuerySet.as_manager()

    class Meta:
        ordering = ["date", "id"]
        indexes = [
            # A league's meetings in playing order: its latest few (the league page), its last
            # (the host rotation), the one before or after one (carried rounds), read from the
            # end of the index instead of sorting all of a league's meetings.
            models.Index(fields=["league", "date", "id"], name="meeting_league_order"),
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
        another phone took its number (services.discard_offline_hand). Any hand that was live
        once has a version above 1 by the time it is deleted."""
        return self.deleted_at is not None and self.version == 1


class HandResult(models.Model):
    """Derived: one row per live hand and player, written only by services.replay_meeting."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="results")
    meeting = models.ForeignKey(Meeting, on_delete=models.CASCADE, related_name="results")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="results")
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    number = models.PositiveIntegerField()  # 1-based hand number in the meeting
    active = models.BooleanField(default=True)
    delta = models.IntegerField()
    total = models.IntegerField()  # running total in the meeting (race games: the game in progress)
    # Doppelkopf, 56, Spoil Five: this hand's game was won. Race games (25, 45, 110, Auction
    # 45s, 1000): the number of games (Partien) this player's party won at this hand.
    won = models.BooleanField(default=False)
    games_won = models.PositiveSmallIntegerField(default=0)
    solo = models.BooleanField(default=False)  # this player was the soloist (Doppelkopf)
    # Doppelkopf: the round the game belonged to (normal, bock, ramsch, pflichtsolo, penalty),
    # so read-only sheets can mark rows without a replay; blank for other games.
    round = models.CharField(max_length=12, blank=True, default="")

    class Meta:
        ordering = ["meeting", "number", "player"]
        constraints = [models.UniqueConstraint(fields=["hand", "player"], name="one_result_per_hand_player")]
        indexes = [models.Index(fields=["season", "player"]), models.Index(fields=["league", "player"])]

    def __str__(self):
        return f"{self.player} hand {self.number}: {self.delta:+d}"


class MeetingResult(models.Model):
    """Derived: one row per meeting and player, the sums of that player's HandResult rows of
    the meeting, written with them by services.write_results (only rows that change) and
    checked by ``manage.py verify_replays``. The standings, the league page and the season
    chart read these, so that their cost grows with meetings, not hands."""

    meeting = models.ForeignKey(Meeting, on_delete=models.CASCADE, related_name="player_results")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="meeting_results")
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="meeting_results")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="meeting_results")
    total = models.IntegerField(default=0)  # sum of deltas
    games = models.PositiveIntegerField(default=0)  # hands in which the player was active
    wins = models.PositiveIntegerField(default=0)
    solos = models.PositiveIntegerField(default=0)
    solos_won = models.PositiveIntegerField(default=0)
    games_won = models.PositiveIntegerField(default=0)  # race games: Partien won
    # Race games: points scored in all hands of the meeting, resets undone (the final score of
    # each finished game followed by another hand, added back to the sum of deltas).
    points = models.IntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)  # the meeting's live hands (its last number)
    won_evening = models.BooleanField(default=False)  # the winner of the meeting (the pennant)

    class Meta:
        ordering = ["meeting", "player"]
        constraints = [models.UniqueConstraint(fields=["meeting", "player"], name="one_result_per_meeting_player")]
        indexes = [models.Index(fields=["season", "player"]), models.Index(fields=["league", "player"])]

    def __str__(self):
        return f"{self.player} at {self.meeting}: {self.total:+d}"


class MeetingCarry(models.Model):
    """Derived: the special rounds a meeting was given by the one before it and those it
    leaves open (``carry_special_rounds``), as its last replay saw them. Kept so that no page
    replays the league's history to learn what an evening starts with, and so that a
    correction stops replaying at the first later meeting whose carried rounds are unchanged."""

    meeting = models.OneToOneField(Meeting, on_delete=models.CASCADE, related_name="carry")
    carried_in = models.JSONField(default=list)
    queue_after = models.JSONField(default=list)
    # A digest of the live hands' payloads it was replayed from: a hand changed outside the
    # writer (an old row, a repair by hand) makes the cache stale, and it is replayed again.
    hands_digest = models.CharField(max_length=64, default="")

    def __str__(self):
        return f"{self.meeting}: {self.carried_in} -> {self.queue_after}"


class DerivedFigure(models.Model):
    """Derived: a league's statistics' season part or rating state (pickled), kept across
    restarts and shared by every worker (leagues/derived_cache.py). Stored with the
    fingerprint of what it was worked out from and read only while that still matches;
    never edited, worked out again when missing. Its league's deletion takes it along."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200, unique=True)
    value = models.BinaryField()

    def __str__(self):
        return self.key


class ApiTokenQuerySet(models.QuerySet):
    def live(self):
        """Neither revoked nor expired."""
        return self.filter(revoked_at=None).filter(Q(expires_at=None) | Q(expires_at__gt=timezone.now()))


class RateCount(models.Model):
    """How often something happened for one key in one window of time (leagues/throttling.py):
    failed logins of an account, invented API tokens from an address, reset mails asked for.
    Kept in the database because every worker process must see the same count; the cache is
    each worker's own."""

    scope = models.CharField(max_length=30)
    key = models.CharField(max_length=200)
    window_start = models.DateTimeField()
    hits = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key", "window_start"], name="ratecount_once_per_window")
        ]
        indexes = [models.Index(fields=["scope", "window_start"], name="ratecount_scope_window")]

    def __str__(self):
        return f"{self.scope} {self.key} {self.window_start:%Y-%m-%d %H:%M}: {self.hits}"


class ApiToken(models.Model):
    """A personal API token (leagues/tokens.py): the API accepts ``Authorization: Bearer
    <token>`` as its owner. Only a SHA-256 digest of the token is stored; the token itself is
    shown once, when it is made. Revoked tokens are kept (revoked_at) so the list says when."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    digest = models.CharField(max_length=64, unique=True)
    # The token's first characters, so its owner can tell his tokens apart.
    prefix = models.CharField(max_length=12)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    # Chosen by the owner when he makes the token; none: valid until revoked.
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.user} {self.prefix}… ({self.name})"

    @property
    def is_expired(self):
        return self.expires_at is not None and self.expires_at <= timezone.now()
