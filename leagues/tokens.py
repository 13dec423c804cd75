"""Personal API tokens: made and revoked by their owner (leagues/views/tokens.py), accepted
by the stateful API as ``Authorization: Bearer <token>`` (``BearerTokenAuthentication``).

A token is 32 random bytes (``secrets.token_urlsafe``) with a ``kl_`` prefix, so a leaked one
is recognisable in a log or a repository. Only its SHA-256 digest is stored: the token is
shown once, when it is made. A fast hash is enough here (no salt, no key stretching), since
the token is random and long, not a password a person chose; the digest also lets the
lookup be one indexed query.
"""

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions, status
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from .models import ApiToken

PREFIX = "kl_"
# How many tokens one account may hold at once (live ones): enough for every script.
MAX_LIVE_TOKENS = 20


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def create_token(*, user, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user``: (its row, the token itself, which is not stored)."""
    token = PREFIX + secrets.token_urlsafe(32)
    row = ApiToken.objects.create(user=user, name=name, digest=digest(token), prefix=token[:10])
    return row, token


def revoke_token(*, token: ApiToken) -> ApiToken:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


class InvalidToken(exceptions.APIException):
    """A 401 with ``WWW-Authenticate: Bearer``. Not an AuthenticationFailed: DRF turns that
    into a 403 when the view's first authenticator (the session) names no scheme, and a
    client holding a revoked token must learn that the token, not its role, is the problem."""

    status_code = status.HTTP_401_UNAUTHORIZED
    default_detail = _("The API token is unknown or revoked.")
    default_code = "invalid_token"
    auth_header = 'Bearer error="invalid_token"'


class BearerTokenAuthentication(BaseAuthentication):
    """``Authorization: Bearer <token>``: the token's owner, or a 401 for a token that is
    unknown or revoked. A request without that header is left to the session."""

    keyword = b"bearer"

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword:
            return None
        if len(parts) != 2:
            raise InvalidToken()
        try:
            token = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise InvalidToken() from None
        row = ApiToken.objects.live().select_related("user").filter(digest=digest(token)).first()
        if row is None or not row.user.is_active:
            raise InvalidToken()
        now = timezone.now()
        # Written at most once a minute, so that a busy script does not write on every call.
        if row.last_used_at is None or (now - row.last_used_at).total_seconds() > 60:
            ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
        return row.user, row

    def authenticate_header(self, request):
        # None keeps a request without any login answered 403, as the API documents it; a bad
        # token answers 401 by its own exception.
        return None


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """The scheme in the OpenAPI schema (drf-spectacular finds it by being imported)."""

    target_class = "leagues.tokens.BearerTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": str(
                _(
                    "A personal API token, made under “API tokens” in the account menu: "
                    "send it as “Authorization: Bearer <token>”. A revoked token is answered 401."
                )
            ),
        }
