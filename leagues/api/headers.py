"""What a hand's write says in its headers and keys, read before anything is written: the
version the client saw (If-Match or the body's ``version``) and the key of a new hand
(Idempotency-Key or the body's ``idempotency_key``). A value that cannot be one is a 400
naming its field, never a 500: a version is a whole number within its column."""

import uuid

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.response import Response

from leagues.api.serializers import MAX_VERSION
from scoring.numbers import whole_number


def error(field, message, status_code=status.HTTP_400_BAD_REQUEST):
    return Response({"errors": [{"hand": None, "field": field, "message": message}]}, status=status_code)


class Invalid(Exception):
    """A request the API refuses before any write, as a ready response."""

    def __init__(self, response):
        super().__init__()
        self.response = response


def if_match(request):
    """The version named by an If-Match header ("3", W/"3" or 3), None without one."""
    header = request.headers.get("If-Match")
    if header is None:
        return None
    value = header.strip().removeprefix("W/").strip('"')
    # Only ASCII digits: int() would take "١٢" or " 3_0" too, and stop at 4,301 digits with
    # Python's digit limit; a version is never beyond its column's range.
    version = whole_number(value) if value.isascii() and value.isdigit() else None
    if version is None or not 1 <= version <= MAX_VERSION:
        message = _('If-Match must name one version of the hand, e.g. "3".')
        raise Invalid(error("version", message))
    return version


def version_seen(request, body_version=None):
    """The version of the hand the client saw: the body's ``version`` or If-Match (a 400
    naming ``version`` when neither says it, or they differ)."""
    header = if_match(request)
    if header is not None and body_version is not None and header != body_version:
        raise Invalid(error("version", _("The version field and the If-Match header name different versions.")))
    version = body_version if body_version is not None else header
    if version is None:
        message = _("Say which version of the hand you saw: the version field or an If-Match header.")
        raise Invalid(error("version", message))
    return version


def idempotency_key(request, body_key, *, field="idempotency_key"):
    """The client's key for a new hand (or club night): the body's ``idempotency_key`` or the
    header. ``field``: what a refusal names (the header itself where the body has no key)."""
    header = request.headers.get("Idempotency-Key")
    if header is None:
        return body_key
    try:
        key = uuid.UUID(header.strip())
    except ValueError:
        raise Invalid(error(field, _("The Idempotency-Key header must be a UUID."))) from None
    if body_key is not None and body_key != key:
        message = _("The idempotency_key field and the Idempotency-Key header differ.")
        raise Invalid(error("idempotency_key", message))
    return key


def entry_key(request, data):
    """The key of a new hand (``idempotency_key``). A client sends it or the hand's number,
    or both: with neither, a retry after a lost answer would enter the hand a second time
    (the pages always send both)."""
    key = idempotency_key(request, data.get("idempotency_key"))
    if key is None and data.get("number") is None:
        message = _(
            "Send the number of the hand you are entering or an idempotency key (a UUID of your choice): "
            "without either, a retry could enter the hand twice."
        )
        raise Invalid(error("idempotency_key", message))
    return key


IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    description='The version of the hand the client saw, as its ETag ("3"); or the body\'s "version".',
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    description="A UUID the client chose for this hand; or the body's idempotency_key.",
)
NIGHT_IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    description=(
        "A UUID the client chose for this night: sent again with the same body, the night it opened (200), "
        "never a second one; with another body, 409."
    ),
)
# A DELETE has no body, so there If-Match is the only way to name the version: required.
IF_MATCH_REQUIRED = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description='The version of the hand the client saw, as its ETag ("3").',
)
ETAG = OpenApiParameter(
    "ETag", str, OpenApiParameter.HEADER, response=[200, 409], description='The hand\'s version, e.g. "3".'
)
NEW_ETAG = OpenApiParameter(
    "ETag", str, OpenApiParameter.HEADER, response=[200, 201], description='The hand\'s version, e.g. "1".'
)
