"""Seasons (the seed's Sequenz), their reopenings and the bills settled at their end."""

from fractions import Fraction

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .league import League, who_field


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
    # Closed for good (leagues.seasons.services): its evenings are closed and read-only, and its
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
    # What the league's cashbox paid of the total with tip (its "dinner" entry in the ledger);
    # the shares and transfers add up to the rest.
    from_cashbox = models.DecimalField(_("from the cashbox"), max_digits=9, decimal_places=2, default=0)
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

    def score_map(self) -> dict[str, int | Fraction]:
        """The standings it was split by, {name: score} in standings order (a score kept as
        text, "17/3", read back as the exact Fraction)."""
        pairs = self.scores.items() if isinstance(self.scores, dict) else self.scores  # dict: an early build
        return {name: read_score(score) for name, score in pairs}

    def stored_scores(self) -> list:
        """``scores`` as kept: [[name, score], ...], a score an int or an exact fraction in text."""
        return [[name, kept_score(score)] for name, score in self.score_map().items()]


def kept_score(score: int | Fraction) -> int | str:
    """A season's score as JSON keeps it: an int when whole, else the exact fraction in text
    ("17/3"), as the API gives a night's scores."""
    return int(score) if Fraction(score).denominator == 1 else str(score)


def read_score(kept: int | str) -> int | Fraction:
    """What ``kept_score`` kept, read back: an int, or the exact Fraction."""
    if isinstance(kept, str):
        score = Fraction(kept)
        return int(score) if score.denominator == 1 else score
    return kept
