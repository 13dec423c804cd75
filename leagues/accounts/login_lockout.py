"""The login lockout: django-axes' database handler (settings.AXES_HANDLER) with two rules
beside its own, so that guessing is limited per account without letting a stranger lock the
owner out.

- A name from one address (axes' rule): AXES_FAILURE_LIMIT failures lock that pair out for
  AXES_COOLOFF_TIME. A guesser at the club's shared address locks only himself and whoever
  tries that name there from a browser the name never logged in with.
- A name from any address: after LOGIN_ACCOUNT_RATE failures (e.g. 30 an hour), browsers the
  name never logged in with are refused for the rest of that hour, whatever their address.
  Rotating addresses no longer buys a guesser more tries.
- A browser the name logged in with (a signed cookie naming it, set at each login) is spared
  both rules: the owner keeps logging in from his own phone while strangers guess. Its own
  failures lock that browser alone, after AXES_FAILURE_LIMIT of them in AXES_COOLOFF_TIME.
  A password reset by mail makes the browser it is done in a trusted one, the way in for an
  owner on a new device while his account is under attack.

The counts are in the database (axes' AccessAttempt, our RateCount), which every worker sees.
"""

import hashlib
import secrets

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.utils.crypto import salted_hmac

from leagues.accounts import throttling
from leagues.models import RateCount

BROWSER_COOKIE = "kl_browser"
_SALT = "kartenliga.login.browser"


def username(request, credentials=None):
    """The name a login tried, as the lockout counts it (settings.AXES_USERNAME_CALLABLE): as
    typed, but one longer than any account's name, or with a NUL, by a digest of it, since
    axes keeps it in a column of 255 characters and PostgreSQL takes no NUL."""
    if credentials:
        name = credentials.get(settings.AXES_USERNAME_FORM_FIELD)
    else:
        name = getattr(request, "data", request.POST).get(settings.AXES_USERNAME_FORM_FIELD)
    if name is None:
        return None
    name = str(name)
    if len(name) <= 150 and "\x00" not in name:
        return name
    return "sha256:" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()


def _browser_max_age():
    return settings.LOGIN_TRUSTED_BROWSER_DAYS * 86400


def _account_mark(user):
    # The cookie is signed, not encrypted: it names the account by a keyed digest, so that a
    # shared computer does not show whose browser it was. The digest takes in the password's
    # own (the session's auth hash): a new password ends every browser's trust, as it ends the
    # sessions and the API tokens.
    return salted_hmac(_SALT, f"{user.get_username()}:{user.get_session_auth_hash()}").hexdigest()[:32]


def _account_named(username):
    model = get_user_model()
    return model._default_manager.filter(**{model.USERNAME_FIELD: username}).first()


def trust_browser(response, user):
    """Marks the browser that gets ``response`` as one ``user`` logs in with (a new mark each
    time, so that its failure count starts again)."""
    value = signing.dumps({"u": _account_mark(user), "n": secrets.token_urlsafe(12)}, salt=_SALT)
    response.set_cookie(
        BROWSER_COOKIE,
        value,
        max_age=_browser_max_age(),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


def _trusted_browser(request, credentials):
    """The mark of this browser if the name being logged in logged in with it, else None."""
    value = request.COOKIES.get(BROWSER_COOKIE) if hasattr(request, "COOKIES") else None
    if not value:
        return None
    try:
        data = signing.loads(value, salt=_SALT, max_age=_browser_max_age())
    except signing.BadSignature:
        return None
    username = get_client_username(request, credentials)
    if not isinstance(data, dict) or not username:
        return None
    user = _account_named(username)
    if user is None or data.get("u") != _account_mark(user):
        return None
    return str(data.get("n", ""))


def _browser_limit():
    return settings.AXES_FAILURE_LIMIT, int(settings.AXES_COOLOFF_TIME.total_seconds())


def _account_limit():
    return throttling.parse_rate(throttling.rate("login_account"))


class LoginLockout(AxesDatabaseHandler):
    """Axes' handler with the account's and the trusted browser's rules. Why a request is locked
    out is left on it (``request.login_lockout``: the rule and the seconds to wait) for the page
    that says so (leagues/accounts/views/lockout.py)."""

    def is_locked(self, request, credentials=None):
        browser = _trusted_browser(request, credentials)
        if browser is not None:
            wait = throttling.limit_reached("login-browser", browser, *_browser_limit())
            if wait:
                request.login_lockout = ("browser", wait)
            return bool(wait)
        if super().is_locked(request, credentials):
            request.login_lockout = ("pair", int(settings.AXES_COOLOFF_TIME.total_seconds()))
            return True
        username = get_client_username(request, credentials)
        wait = username and throttling.limit_reached("login-account", username, *_account_limit())
        if wait:
            request.login_lockout = ("account", wait)
        return bool(wait)

    def reset_attempts(self, *, ip_address=None, username=None, ip_or_username=False):
        """Axes' resets (``manage.py axes_reset``, ``axes_reset_username``) lift the name's and
        the browsers' lockouts too: all of them, or the name's when one is given."""
        count = super().reset_attempts(ip_address=ip_address, username=username, ip_or_username=ip_or_username)
        if username:
            RateCount.objects.filter(scope="login-account", key=throttling.rate_key(username)).delete()
        elif not ip_address:
            RateCount.objects.filter(scope__in=["login-account", "login-browser"]).delete()
        return count

    def user_login_failed(self, sender, credentials, request=None, **kwargs):
        if request is None:
            return super().user_login_failed(sender, credentials, request=request, **kwargs)
        browser = _trusted_browser(request, credentials)
        if browser is not None:
            # A trusted browser's failures are its own: they count against neither the name
            # at this address nor the name as a whole.
            if not getattr(request, "axes_locked_out", False):
                throttling.hit("login-browser", browser, seconds=_browser_limit()[1])
                if self.is_locked(request, credentials):
                    request.axes_locked_out = True
            return None
        username = get_client_username(request, credentials)
        number, seconds = _account_limit()
        if username and number is not None and not getattr(request, "axes_locked_out", False):
            throttling.hit("login-account", username, seconds=seconds)
        super().user_login_failed(sender, credentials, request=request, **kwargs)
        # Axes marks a lockout by its own count only; the page says so for the name's too.
        if not getattr(request, "axes_locked_out", False) and self.is_locked(request, credentials):
            request.axes_locked_out = True
        return None
