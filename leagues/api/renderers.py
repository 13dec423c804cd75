"""orjson for the API: the calculate endpoint's body and answer are its largest cost after
the replay itself (a 40-hand meeting answers ~20 kB), and orjson is several times faster
than the standard library at both."""

from decimal import Decimal

import orjson
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer


def _default(value):
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError


class ORJSONRenderer(BaseRenderer):
    media_type = "application/json"
    format = "json"
    charset = None

    def render(self, data, _accepted_media_type=None, _renderer_context=None):
        if data is None:
            return b""
        return orjson.dumps(data, default=_default, option=orjson.OPT_NON_STR_KEYS)


class ORJSONParser(BaseParser):
    media_type = "application/json"

    def parse(self, stream, _media_type=None, _parser_context=None):
        try:
            return orjson.loads(stream.read())
        except (orjson.JSONDecodeError, UnicodeDecodeError) as error:
            raise ParseError(_("The request body is not valid JSON.")) from error
