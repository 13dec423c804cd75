"""Our middleware: a cap on the size of every request body (below), Django's authentication
taking the user its session read along (AuthenticationMiddleware) and django-csp's policy
built once (ContentSecurityPolicyMiddleware); each says why.

A cap on the size of every request body, before anything reads it.

Django's DATA_UPLOAD_MAX_MEMORY_SIZE only guards ``request.POST`` and ``request.body``; the
API's parser (DRF) reads the stream itself, so a 60 MB body used to be parsed in full. This
middleware answers 413 from the declared ``Content-Length`` alone, without reading a byte of
the body: with a JSON error in the API's shape under /api/, a plain page elsewhere. Under
WSGI (gunicorn, the README's production setup) a body without a Content-Length is never read
by Django at all (it reads exactly Content-Length bytes), so the header is all there is to
check.

The cap is ``settings.MAX_REQUEST_BODY_BYTES`` (1,000,000 bytes unless the environment says
otherwise): a calculate request of 2,000 hands, the most scoring/ takes, is about 250 kB; an
evening of 40 hands about 5 kB.
"""

import functools

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthenticationMiddleware
from django.dispatch import receiver
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.test.signals import setting_changed
from django.utils.formats import number_format
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from scoring.numbers import whole_number

from . import sessions


def body_too_large(request) -> bool:
    declared = request.META.get("CONTENT_LENGTH") or ""
    if not declared.strip():
        return False
    size = whole_number(declared)
    # A length that is not a number is refused as well: nothing could read the body safely.
    return size is None or size < 0 or size > settings.MAX_REQUEST_BODY_BYTES


class RequestSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if body_too_large(request):
            return too_large(request)
        return self.get_response(request)


def too_large(request):
    limit = settings.MAX_REQUEST_BODY_BYTES
    message = _("The request is too large: at most %(limit)s bytes are accepted.") % {
        "limit": number_format(limit, force_grouping=True)
    }
    if request.path.startswith("/api/"):
        return JsonResponse({"errors": [{"hand": None, "field": None, "message": message}]}, status=413)
    # Rendered without the request: the middlewares that fill in the user and the session
    # have not run yet, and nothing of them is needed to say this.
    return HttpResponse(render_to_string("413.html", {"message": message}), status=413)


class AuthenticationMiddleware(DjangoAuthenticationMiddleware):
    """Django's, but the logged-in user is the one the session read along with it
    (leagues/sessions.py: one query for both). Django's get_user() decides as ever
    whether that user is logged in; only its read of the user row is spared."""

    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _user(request))


def _user(request):
    # As django.contrib.auth.middleware.get_user, with the session's read handed on.
    if not hasattr(request, "_cached_user"):
        session = request.session
        session._get_session()  # loads it (and with it the user), if nothing did yet
        with sessions.preloaded(session):
            request._cached_user = auth.get_user(request)
    return request._cached_user


# What a view may set on its answer to change the policy (django-csp's decorators).
_PER_VIEW = ("_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro")
_PER_VIEW += ("_csp_exempt", "_csp_exempt_ro")


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's, but the policy is built once per process. Without a nonce and without a
    view's own changes (we use neither) it depends on the settings alone, and building it and
    the report-only one on every answer was 3 % of a busy server's time. Anything
    else (a nonce asked for, a decorated view, Django's debug pages) goes django-csp's way."""

    def process_response(self, request, response):
        if (
            getattr(request, "_csp_nonce", None) is not None
            or any(hasattr(response, name) for name in _PER_VIEW)
            or settings.DEBUG
            or _policy_headers() is None
        ):
            return super().process_response(request, response)
        for header, value in _policy_headers():
            if header not in response:
                response[header] = value
        # As django-csp does: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response


@functools.cache
def _policy_headers():
    """The headers django-csp writes when no view changes them, or None when the settings
    exclude some addresses (then each answer is django-csp's to decide)."""
    headers = []
    for setting, header, report_only in (
        ("CONTENT_SECURITY_POLICY", HEADER, False),
        ("CONTENT_SECURITY_POLICY_REPORT_ONLY", HEADER_REPORT_ONLY, True),
    ):
        if (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES"):
            return None
        value = build_policy(report_only=report_only)
        if value:
            headers.append((header, value))
    return tuple(headers)


@receiver(setting_changed)
def _forget_policy(*, setting, **kwargs):
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _policy_headers.cache_clear()
