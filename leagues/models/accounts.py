"""Personal API tokens and the shared counts behind rate limits."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ApiTokenQuerySet(models.QuerySet):
    def live(self):
        """Neither revoked nor expired."""
        return self.filter(revoked_at=None).filter(Q(expires_at=None) | Q(expires_at__gt=timezone.now()))


class RateCount(models.Model):
    """How often something happened for one key in one window of time (leagues/accounts/throttling.py):
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
    """A personal API token (leagues/accounts/tokens.py): the API accepts ``Authorization: Bearer
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
