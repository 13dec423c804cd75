"""Personal API tokens: made and revoked by their owner (leagues/accounts/views/tokens.py), accepted
by the stateful API as ``Authorization: Bearer <token>`` (``BearerTokenAuthentication``).

A token is 32 random bytes (``secrets.token_urlsafe``) with a ``kl_`` prefix, so a leaked one
is recognisable in a log or a repository. Only its SHA-256 digest is stored: the token is
shown once, when it is made. A fast hash is enough here (no salt, no key stretching), since
the token is random and long, not a password a person chose; the digest also lets the
lookup be one indexed query.

A token may expire (chosen when it is made), and all of a user's tokens end when his password
changes (``EndTokensOnPasswordChange``): a token must not outlive the password that let its
maker in. Tokens that fail are counted per client address (leagues/accounts/throttling.py); past
THROTTLE_RATES["invalid_token"] that address gets 429 for every token until the window ends.
"""

import hashlib
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions, status
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from leagues.accounts import throttling
from leagues.models import ApiToken

PREFIX = "kl_"
# How many tokens one account may hold at once (live ones): enough for every script.
MAX_LIVE_TOKENS = 20


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def create_token(*, user, name: str, days: int | None = None) -> tuple[ApiToken, str]:
    """A new token for ``user``, valid for ``days`` (None: until revoked): (its row, the token
    itself, which is not stored)."""
    token = PREFIX + secrets.token_urlsafe(32)
    expires_at = timezone.now() + timedelta(days=days) if days else None
    row = ApiToken.objects.create(user=user, name=name, digest=digest(token), prefix=token[:10], expires_at=expires_at)
    return row, token


def revoke_token(*, token: ApiToken) -> ApiToken:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def end_tokens(*, user) -> int:
    """Revokes every token of ``user`` not revoked yet; answers how many."""
    return ApiToken.objects.filter(user=user, revoked_at=None).update(revoked_at=timezone.now())


class EndTokensOnPasswordChange:
    """Ends a user's API tokens whenever his password changes: on the password pages, by a
    reset mail, in the admin or by ``manage.py changepassword``. Django tells every entry of
    AUTH_PASSWORD_VALIDATORS of a new password (and not of a mere rehash of the old one), so
    this hook sits there; it refuses no password, and its help text says so on the pages where
    a password is chosen."""

    def validate(self, password, user=None):
        return None

    def password_changed(self, password, user=None):
        if user is not None and user.pk is not None:
            end_tokens(user=user)

    def get_help_text(self):
        return gettext("A new password ends the API tokens made before it.")


class InvalidToken(exceptions.APIException):
    """A 401 with ``WWW-Authenticate: Bearer``. Not an AuthenticationFailed: DRF turns that
    into a 403 when the view's first authenticator (the session) names no scheme, and a
    client holding a revoked token must learn that the token, not its role, is the problem."""

    status_code = status.HTTP_401_UNAUTHORIZED
    default_detail = _("The API token is unknown, revoked or expired.")
    default_code = "invalid_token"
    auth_header = 'Bearer error="invalid_token"'


class BearerTokenAuthentication(BaseAuthentication):
    """``Authorization: Bearer <token>``: the token's owner, or a 401 for a token that is
    unknown, revoked or expired, or a 429 for an address that sent too many of those lately.
    A request without that header is left to the session."""

    keyword = b"bearer"

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword:
            return None
        address = throttling.client_ip(request)
        number, seconds = throttling.parse_rate(throttling.rate("invalid_token"))
        wait = throttling.limit_reached("invalid_token", address, number, seconds)
        if wait:
            raise exceptions.Throttled(wait=wait)
        row = self._row(parts)
        if row is None or row.revoked_at is not None or not row.user.is_active or row.is_expired:
            if number is not None:
                throttling.hit("invalid_token", address, seconds=seconds)
            raise _refusal(row)
        _note_use(row)
        return row.user, row

    def _row(self, parts):
        if len(parts) != 2:
            return None
        try:
            token = parts[1].decode("ascii")
        except UnicodeDecodeError:
            return None
        return ApiToken.objects.select_related("user").filter(digest=digest(token)).first()

    def authenticate_header(self, request):
        # None keeps a request without any login answered 403, as the API documents it; a bad
        # token answers 401 by its own exception.
        return None


def _refusal(row: ApiToken | None) -> InvalidToken:
    """The 401 for a token that does not log in: an expired one says since when."""
    if row is not None and row.revoked_at is None and row.is_expired:
        when = formats.date_format(timezone.localtime(row.expires_at), "DATETIME_FORMAT")
        return InvalidToken(gettext("The API token expired on %(when)s.") % {"when": when})
    return InvalidToken()


def _note_use(row: ApiToken) -> None:
    now = timezone.now()
    # Written at most once a minute, so that a busy script does not write on every call.
    if row.last_used_at is None or (now - row.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """The scheme in the OpenAPI schema (drf-spectacular finds it by being imported)."""

    target_class = "leagues.accounts.tokens.BearerTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, _auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": str(
                _(
                    "A personal API token, made under “API tokens” in the account menu: "
                    "send it as “Authorization: Bearer <token>”. A revoked or expired token is answered 401; "
                    "an address that sent many bad tokens lately gets 429 for a while."
                )
            ),
        }
