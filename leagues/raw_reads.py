"""Model instances read by SQL of their own, converted exactly as the ORM converts them: what
leagues/sessions.py and leagues/backends.py read the logged-in user with."""

import functools

from django.db import connections


def columns(model, alias, table) -> str:
    """The SELECT list of every concrete field of ``model`` from the table aliased ``table``."""
    quote = connections[alias].ops.quote_name
    return ", ".join(f"{table}.{quote(field.column)}" for field in model._meta.concrete_fields)


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
        converters.append(tuple((converter, expression) for converter in found))
    return names, converters
