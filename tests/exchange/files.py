"""A league's export as a test reads it, and a file imported as the pages read one."""

import io
import json

from leagues.exchange import import_checks
from leagues.exchange import league_file as exchange


def exported(league) -> dict:
    """The league's JSON export, as its file holds it."""
    return json.loads("".join(exchange.export_json(league=league)))


def read(data) -> import_checks.LeagueFile:
    """``data`` written to a file as JSON, and read and checked as the import reads a file."""
    return import_checks.read_json(io.BytesIO(json.dumps(data).encode()))


def imported(data, **kwargs):
    """A new league from ``data`` (``exchange.import_league``'s arguments), read as a file."""
    return exchange.import_league(data=read(data), **kwargs)
