"""What someone locked out of logging in sees (django-axes calls this, settings.AXES_LOCKOUT_CALLABLE):
the login page again with the reason and how long to wait, as a 429 with Retry-After. The
admin's login is locked by the same rules and answered with the same page. Which rule locked
the request out is left on it by the lockout handler (leagues/accounts/login_lockout.py)."""

import math

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render
from django.utils.translation import ngettext


def _message(rule, minutes):
    if rule == "account":
        # Said to whoever tries the name from a browser it never logged in with: the owner
        # learns how to get in at once, a guesser learns nothing he did not know.
        return ngettext(
            "Too many failed logins for this name from many addresses. From a browser that has not "
            "logged in with it before, please wait %(minutes)s minute, or reset your password by "
            "mail: the browser you do that in is let in at once.",
            "Too many failed logins for this name from many addresses. From a browser that has not "
            "logged in with it before, please wait %(minutes)s minutes, or reset your password by "
            "mail: the browser you do that in is let in at once.",
            minutes,
        ) % {"minutes": minutes}
    if rule == "browser":
        return ngettext(
            "Too many failed logins for this name in this browser. Please wait %(minutes)s minute and try again.",
            "Too many failed logins for this name in this browser. Please wait %(minutes)s minutes and try again.",
            minutes,
        ) % {"minutes": minutes}
    return ngettext(
        "Too many failed logins for this name from your address. Please wait %(minutes)s minute and try again.",
        "Too many failed logins for this name from your address. Please wait %(minutes)s minutes and try again.",
        minutes,
    ) % {"minutes": minutes}


def locked_out(request, _original_response=None, credentials=None):
    rule, seconds = getattr(request, "login_lockout", ("pair", int(settings.AXES_COOLOFF_TIME.total_seconds())))
    minutes = max(1, math.ceil(seconds / 60))
    # An unbound form: validating it would ask the authentication backends once more.
    form = AuthenticationForm(request, initial={"username": (credentials or {}).get("username", "")})
    context = {
        "form": form,
        "locked_out": _message(rule, minutes),
        "next": request.POST.get("next", request.GET.get("next", "")),
    }
    response = render(request, "registration/login.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)
    response["Retry-After"] = str(seconds)
    return response
