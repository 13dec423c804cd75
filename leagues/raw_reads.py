"""Model instances read by SQL of our own, converted exactly as the ORM converts them.

On the hottest paths (every member page, every write) Django's building and compiling of a
queryset cost more than PostgreSQL's running it: the meeting with its season and host 0.5 ms
against 0.2 ms, the logged-in user 0.25 against 0.1 (issue 12). These reads send their SQL,
built once per model from its table and column names, and turn each row into instances with
``Model.from_db`` after the converters the ORM's compiler would apply (SQLite gives a datetime
naive and a boolean as 0 or 1; a JSON field comes as text). Tests hold each read equal to the
ORM's, field by field, on SQLite and PostgreSQL.
"""

import functools
import re

import orjson
from django.db import connections, models


def columns(model, alias, table) -> str:
    """The SELECT list of every concrete field of ``model`` from the table aliased ``table``."""
    quote = connections[alias].ops.quote_name
    return ", ".join(f"{table}.{quote(field.column)}" for field in model._meta.concrete_fields)


def fits_pk(model, alias, value) -> bool:
    """Whether ``value`` fits the column of ``model``'s pk: a number from a URL may not, and
    SQLite's driver raises on it (the ORM answers such a lookup with no row; so do the reads
    here, by asking this first)."""
    low, high = connections[alias].ops.integer_field_range(model._meta.pk.get_internal_type())
    return (low is None or value >= low) and (high is None or value <= high)


def width(model) -> int:
    return len(model._meta.concrete_fields)


def instance(model, alias, values):
    """An instance of ``model`` from the values of its ``columns`` (as the database gave them)."""
    connection = connections[alias]
    names, converters = _converters(model, alias)
    converted = []
    for value, found in zip(values, converters, strict=True):
        for converter, expression in found:
            value = converter(value, expression, connection)
        converted.append(value)
    return model.from_db(alias, names, converted)


# A run of 19 digits or more: a number orjson may not read as json reads it (an integer
# beyond 64 bits comes back as a float), so such a text is left to json.
_LONG_NUMBER = re.compile(r"\d{19}")


def json_value(field, value, expression, connection):
    """What the JSON ``field``'s ``from_db_value`` makes of ``value``, by orjson where it
    reads the text as json does (issue 12: json.loads was 0.06 ms of the 40 payloads every
    entry and sheet reads, orjson 0.016). Anything orjson refuses (NaN, a lone surrogate, a
    number out of range, text that is not JSON at all), a long number, a field with its own
    decoder and a value that is not text go to the field itself, so the answer is always the
    field's own."""
    if type(value) is str and field.decoder is None and not _LONG_NUMBER.search(value):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            pass
    return field.from_db_value(value, expression, connection)


def _converter(converter):
    """``converter``, or the same conversion by ``json_value`` for a JSON field's own."""
    field = getattr(converter, "__self__", None)
    if isinstance(field, models.JSONField) and converter.__func__ is models.JSONField.from_db_value:
        return functools.partial(json_value, field)
    return converter


@functools.cache
def _converters(model, alias):
    """The field names of ``model`` and, for each, the converters the ORM's compiler applies."""
    connection = connections[alias]
    opts = model._meta
    names, converters = [], []
    for field in opts.concrete_fields:
        expression = field.get_col(opts.db_table)
        found = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
        names.append(field.attname)
        converters.append(tuple((_converter(converter), expression) for converter in found))
    return names, converters


def converted_rows(model, alias, names, rows) -> list[list]:
    """``rows`` of the columns of ``model``'s fields ``names`` (as the database gave them),
    each a list of values converted as the ORM's compiler converts them, without building
    instances (for reads that need a few attributes of many rows)."""
    connection = connections[alias]
    found = [
        (i, converters) for i, converters in enumerate(_field_converters(model, alias, tuple(names))) if converters
    ]
    converted = []
    for row in rows:
        values = list(row)
        for i, converters in found:
            value = values[i]
            for converter, expression in converters:
                value = converter(value, expression, connection)
            values[i] = value
        converted.append(values)
    return converted


@functools.cache
def _field_converters(model, alias, names):
    all_names, converters = _converters(model, alias)
    by_name = dict(zip(all_names, converters, strict=True))
    opts = model._meta
    return tuple(by_name[opts.get_field(name).attname] for name in names)
