"""What replays derive from the hands, kept so that pages need not replay: per hand, per
evening, the special rounds an evening carries, and the statistics' stored figures."""

from django.db import models

from .league import League, Player
from .meeting import Hand, Meeting
from .season import Season


class HandResult(models.Model):
    """Derived: one row per live hand and player, written only by leagues.table.results.replay_meeting."""

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
    the meeting, written with them by leagues.table.results.write_results (only rows that change) and
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
    restarts and shared by every worker (leagues/stats/derived_cache.py). Stored with the
    fingerprint of what it was worked out from and read only while that still matches;
    never edited, worked out again when missing. Its league's deletion takes it along."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200, unique=True)
    value = models.BinaryField()

    def __str__(self):
        return self.key
