"""CSV that is safe to open in a spreadsheet (every CSV the app writes goes through here).

A spreadsheet reads a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and, in some, a tab or
a carriage return before one of them) as a formula: a player named ``=cmd|' /C calc'!A0``
would run a command on the computer of whoever opens the league's CSV. OWASP's advice ("CSV
Injection") is to begin such a text cell with a single quote, which spreadsheets show as
text. Numbers are written as numbers: a score of -3 stays -3, a figure to add up.

Written here rather than taken from ``defusedcsv``: that package also quotes the end of the
cell and escapes every ``|``, which changes a name that is only text ("Anna|Ben") for no gain.

A CSV is written in its reader's dialect (``dialect_for`` the page's language): a spreadsheet
in German (Excel, LibreOffice) splits cells at semicolons, reads a comma as the decimal mark
and reads the file as UTF-8 only after a byte order mark; given commas it puts every row into
one column. English stays with commas, decimal points and no mark.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Dialect:
    """How a spreadsheet of one language reads a CSV."""

    delimiter: str = ","
    bom: bool = False  # a UTF-8 byte order mark first
    decimal_comma: bool = False
    day: str = "%Y-%m-%d"  # how a date is written (strftime)


ENGLISH = Dialect()
GERMAN = Dialect(delimiter=";", bom=True, decimal_comma=True, day="%d.%m.%Y")


def dialect_for(language: str | None) -> Dialect:
    """The dialect of a language code ("de", "de-at", "en"); English for any other."""
    return GERMAN if (language or "").lower().split("-")[0] == "de" else ENGLISH


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet should show it: a text that would start a formula begins
    with a single quote; anything else (numbers included) is left as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _written(value: Any, dialect: Dialect) -> Any:
    """A cell as ``dialect`` writes it: a Decimal with the dialect's decimal mark (a number
    still: a leading minus is no formula), text made safe (``safe_cell``)."""
    if isinstance(value, Decimal) and dialect.decimal_comma:
        return str(value).replace(".", ",")
    return safe_cell(value)


def csv_chunks(
    header: Sequence[str], rows: Iterable[Mapping[str, Any]], *, dialect: Dialect = ENGLISH, rows_per_chunk: int = 500
) -> Iterator[str]:
    """The CSV of ``rows`` (mappings by the names of ``header``; a missing one is empty),
    every cell through ``safe_cell``, the header's too, in ``dialect``: written as the rows
    come, some hundred rows a piece, so that a league's whole history is never held at once."""
    out = io.StringIO()
    if dialect.bom:
        out.write("\ufeff")
    writer = csv.writer(out, delimiter=dialect.delimiter)
    writer.writerow([safe_cell(name) for name in header])
    for count, row in enumerate(rows, start=1):
        writer.writerow([_written(row.get(name, ""), dialect) for name in header])
        if count % rows_per_chunk == 0:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()
