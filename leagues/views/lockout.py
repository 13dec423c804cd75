"""What someone locked out of logging in sees (django-axes calls this, settings.AXES_LOCKOUT_CALLABLE):
the login page again with the reason and how long to wait, as a 429 with Retry-After. The
admin's login is locked by the same rule and answered with the same page."""

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render
from django.utils.translation import ngettext


def locked_out(request, original_response=None, credentials=None):
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    message = ngettext(
        "Too many failed logins for this name from your address. Please wait %(minutes)s minute and try again.",
        "Too many failed logins for this name from your address. Please wait %(minutes)s minutes and try again.",
        minutes,
    ) % {"minutes": minutes}
    # An unbound form: validating it would ask the authentication backends once more.
    form = AuthenticationForm(request, initial={"username": (credentials or {}).get("username", "")})
    context = {"form": form, "locked_out": message, "next": request.POST.get("next", request.GET.get("next", ""))}
    response = render(request, "registration/login.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response
