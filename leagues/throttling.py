"""Who a client is, for the login lockout (django-axes) and the API's rate limits (DRF).

Both use DRF's rule (`REST_FRAMEWORK["NUM_PROXIES"]`, from KARTENLIGA_PROXY_COUNT): behind N
reverse proxies that append to X-Forwarded-For, the client is the N-th address from the right;
with no proxy it is REMOTE_ADDR. Anything further left in X-Forwarded-For was written by the
client and would let it pose as a new address on every request.
"""

from rest_framework import throttling
from rest_framework.settings import api_settings


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
