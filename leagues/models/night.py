"""Club nights: one evening played at several tables at once.

Each table is a ``Meeting`` of its own (its seats, dealer, special rounds, sheet and end), so
everything an evening at one table does, a table of a club night does too, and a write locks
its table alone. The night holds what the tables share: the date, the host and how the tables
are combined into the evening's standings.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .league import Combine, League, Player
from .season import Season
from .tournament import Tournament


class ClubNight(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="club_nights")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="club_nights")
    date = models.DateField(_("date"))
    # The evening's host: every table's meeting names him, so the host rotation counts the
    # night once, whichever table he sits at.
    host = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="hosted_nights")
    # Copied from the league when the night starts, as the rules are: a later change of the
    # league's choice never reranks a played night.
    combine = models.CharField(_("tables combined by"), max_length=12, choices=Combine.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    # A round ("Serie") of a tournament, numbered from 1; both empty for a club's own night.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="rounds", verbose_name=_("tournament")
    )
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    # Chosen by the API client that opened the night (its Idempotency-Key), with what it sent
    # (``opened_with``), so that a retry after a lost answer gets this night, not a second one.
    idempotency_key = models.UUIDField(_("idempotency key"), null=True, blank=True)
    opened_with = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["date", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round_number"], name="one_night_per_round"),
            models.CheckConstraint(
                condition=models.Q(tournament__isnull=True, round_number__isnull=True)
                | models.Q(tournament__isnull=False, round_number__gte=1),
                name="a_round_has_a_number",
            ),
            models.UniqueConstraint(
                fields=["league", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="one_night_per_idempotency_key",
            ),
        ]

    def __str__(self):
        return f"{self.league} {self.date:%Y-%m-%d} ({_('club night')})"

    def get_absolute_url(self):
        return reverse("club_night", kwargs={"slug": self.league.slug, "pk": self.pk})
