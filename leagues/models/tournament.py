"""Tournaments: an event of rounds ("Serien") played at several tables, in a league.

A tournament belongs to a league: a club's own tournament, or a league made for the
tournament when it stands alone. Each round is a club night (``ClubNight.tournament``,
``round_number``), so every table of a round is a meeting with its sheet, entry, big screen
and lock as at any club night; a table plays a fixed number of games
(``Meeting.games_planned``) or one robber or match (``Meeting.matches_planned``). The ranking
is worked out from the tables' stored results by ``scoring.tournament``; nothing of it is
stored here.
"""

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.tournament import FORMATS

from .league import League, Player

FORMAT_LABELS = {
    "ddv": _("Doppelkopf (DDV): a Serie a round"),
    "maw_pairs": _("Maw pairs: a robber a round"),
    "fifty_six_teams": _("56 teams: a match a round"),
}
FORMAT_CHOICES = [(key, FORMAT_LABELS.get(key, key)) for key in FORMATS]


def new_seed() -> str:
    return secrets.token_hex(8)


class Tournament(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=80)
    format = models.CharField(_("format"), max_length=20, choices=FORMAT_CHOICES)
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"))
    # Games each player plays in a round where the club plays shorter Serien than the format's
    # (a multiple of four: a table of five then plays a quarter more); empty: the format's.
    games_per_player = models.PositiveSmallIntegerField(_("games per player and round"), null=True, blank=True)
    # The lot of the seat draw: round n is drawn with "<seed>:<n>", so the same tournament
    # always draws the same tables from the same players.
    seed = models.CharField(max_length=32, default=new_seed)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("tournament", kwargs={"slug": self.league.slug, "pk": self.pk})


class TournamentParty(models.Model):
    """A pair or a team that plays the tournament together (formats with pairs or teams)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="parties")
    name = models.CharField(_("name"), max_length=40)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="one_party_name_per_tournament")]

    def __str__(self):
        return self.name


class TournamentPlayer(models.Model):
    """A player registered for a tournament, with his pair or team where the format has them."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="tournament_entries")
    party = models.ForeignKey(TournamentParty, on_delete=models.CASCADE, null=True, blank=True, related_name="players")

    class Meta:
        ordering = ["tournament", "player__name"]
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player")]

    def __str__(self):
        return f"{self.player} in {self.tournament}"
