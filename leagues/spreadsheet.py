"""CSV that is safe to open in a spreadsheet (every CSV the app writes goes through here).

A spreadsheet reads a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and, in some, a tab or
a carriage return before one of them) as a formula: a player named ``=cmd|' /C calc'!A0``
would run a command on the computer of whoever opens the league's CSV. OWASP's advice ("CSV
Injection") is to begin such a text cell with a single quote, which spreadsheets show as
text. Numbers are written as numbers: a score of -3 stays -3, a figure to add up.

Written here rather than taken from ``defusedcsv``: that package also quotes the end of the
cell and escapes every ``|``, which changes a name that is only text ("Anna|Ben") for no gain.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet should show it: a text that would start a formula begins
    with a single quote; anything else (numbers included) is left as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(header: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> str:
    """The CSV of ``rows`` (mappings by the names of ``header``; a missing one is empty),
    every cell through ``safe_cell``, the header's too."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([safe_cell(name) for name in header])
    for row in rows:
        writer.writerow([safe_cell(row.get(name, "")) for name in header])
    return out.getvalue()
