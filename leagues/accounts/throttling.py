"""Who a client is, for the login lockout (django-axes) and the API's rate limits (DRF).

Both use DRF's rule (`REST_FRAMEWORK["NUM_PROXIES"]`, from KARTENLIGA_PROXY_COUNT): behind N
reverse proxies that append to X-Forwarded-For, the client is the N-th address from the right;
with no proxy it is REMOTE_ADDR. Anything further left in X-Forwarded-For was written by the
client and would let it pose as a new address on every request.

Below them, counts per window of time that every worker shares (``hit``, ``over_rate``): DRF's
rate limits count in the cache, which is each worker's own, so a guesser spread over the workers
would get their number times the limit. Failed logins per account, invented API tokens per
address and reset mails per account and address are counted in the database instead.
"""

import hashlib
import math
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from rest_framework import throttling
from rest_framework.settings import api_settings

from leagues.models import RateCount


def client_ip(request):
    """The client's address as the lockout and the rate limits see it (takes an HttpRequest)."""
    return throttling.BaseThrottle().get_ident(request)


class RatesFromSettings:
    """DRF binds THROTTLE_RATES when it is imported; these read the rates at each request, so
    a test can set its own, and a rate of None (KARTENLIGA_THROTTLE_*=off) switches one off."""

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class AnonRateThrottle(RatesFromSettings, throttling.AnonRateThrottle):
    """Requests without a login, per client address: the stateless calculate, bill-split and
    ping endpoints (they never authenticate) and anonymous calls to the others."""


class UserRateThrottle(RatesFromSettings, throttling.UserRateThrottle):
    """Requests of a logged-in user, per user, whatever address they come from."""


# Counts every worker shares (RateCount rows): for the doors an attacker knocks on from many
# addresses or through many workers, where a count per process would not hold.


def parse_rate(rate_):
    """(number, seconds) of a DRF rate like "3/hour", or (None, None) for a limit switched off."""
    return throttling.SimpleRateThrottle.parse_rate(None, rate_)


def rate_key(value):
    """The key as stored: itself, or a digest of one too long for the column or holding a NUL."""
    value = str(value)
    if len(value) <= 200 and "\x00" not in value:
        return value
    return "sha256:" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def _window(seconds, now=None):
    """The start of the window of ``seconds`` that ``now`` falls in (windows start at the epoch)."""
    stamp = (now or timezone.now()).timestamp()
    return datetime.fromtimestamp(stamp - stamp % seconds, tz=dt_timezone.utc)


def seconds_left(seconds, now=None):
    """How long until the current window of ``seconds`` ends: what a refused client waits."""
    now = now or timezone.now()
    return max(1, math.ceil((_window(seconds, now) + timedelta(seconds=seconds) - now).total_seconds()))


def hits(scope, key, *, seconds):
    """How often ``scope`` happened for ``key`` in the current window of ``seconds``."""
    row = RateCount.objects.filter(scope=scope, key=rate_key(key), window_start=_window(seconds)).first()
    return row.hits if row else 0


def hit(scope, key, *, seconds):
    """Counts one more for ``key`` in the current window and answers the count so far."""
    key, start = rate_key(key), _window(seconds)
    rows = RateCount.objects.filter(scope=scope, key=key, window_start=start)
    with transaction.atomic():
        if not rows.update(hits=F("hits") + 1):
            try:
                with transaction.atomic():
                    RateCount.objects.create(scope=scope, key=key, window_start=start, hits=1)
            except IntegrityError:  # another worker made the window's row a moment ago
                rows.update(hits=F("hits") + 1)
            else:
                # A new window: the windows before the last one are no longer read.
                RateCount.objects.filter(scope=scope, window_start__lt=start - timedelta(seconds=seconds)).delete()
        return rows.values_list("hits", flat=True).first() or 0


def over_rate(scope, key):
    """Counts one for ``key`` against the rate of ``scope`` ("3/hour"): the seconds to wait if
    that was one too many, else None. A rate switched off never refuses."""
    number, seconds = parse_rate(rate(scope))
    if number is None:
        return None
    if hit(scope, key, seconds=seconds) > number:
        return seconds_left(seconds)
    return None


def limit_reached(scope, key, number, seconds):
    """The seconds to wait if ``key`` has had ``number`` already in this window of ``seconds``,
    else None. A number of None never refuses."""
    if number is None or hits(scope, key, seconds=seconds) < number:
        return None
    return seconds_left(seconds)


def rate(scope):
    """The rate of ``scope`` in THROTTLE_RATES, read at each request like the API's (None: off)."""
    return api_settings.DEFAULT_THROTTLE_RATES.get(scope)
