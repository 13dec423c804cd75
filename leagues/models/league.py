"""Leagues, their members and roles, players and invites."""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.registry import game_names


def new_token():
    return secrets.token_urlsafe(24)


def who_field():
    """Who did it, as text, where no account of this instance is linked: the name an imported
    league's file gives (leagues/exchange/). Shown when the user beside it is empty.

    NULL when there is none, not "": the column came without a default (migration 0017)."""
    return models.CharField(_("by (as imported)"), max_length=40, null=True, blank=True)


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


class Combine(models.TextChoices):
    """How a night's tables make one evening's standings (``scoring.club_night``)."""

    POINTS = "points", _("points as scored")
    PER_GAME = "per_game", _("points per game played")
    PLACINGS = "placings", _("placing at the table")


class League(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES)
    variant = models.CharField(_("rule set"), max_length=30)
    # Only the options the league changed from its preset; the rest follow the preset.
    rule_overrides = models.JSONField(_("house rules"), default=dict, blank=True)
    # What the table plays for (scoring/money_rules.py): only what the league changed from
    # the defaults, which play for nothing.
    money_rules = models.JSONField(_("money rules"), default=dict, blank=True)
    # Anyone holding this token may read standings and sheets; None means no public link.
    public_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # How an evening at several tables makes one evening's standings (``Combine``).
    combine_tables = models.CharField(
        _("tables combined by"), max_length=12, choices=Combine.choices, default=Combine.POINTS
    )
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
