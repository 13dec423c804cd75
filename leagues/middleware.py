"""A cap on the size of every request body, before anything reads it.

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

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from scoring.numbers import whole_number


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
