"""Reading a paper season's CSV (leagues/exchange/paper_import.py) within the import's limits, into
the evenings of its two forms (totals, hands).

The file is hostile input like any form: it is read cell by cell within documented limits
(the README's "Limits"), and whatever the csv module cannot read, a cell too
long, a row too wide, a hand's JSON nested too deep, is a problem named by its row and
column, never an exception that escapes. The limits keep an import well inside a web
worker's time: the engine replays every hand and starts every evening as if entered at the
table, which takes some milliseconds each.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from leagues.table import meetings as table_meetings

# The file as uploaded, and as sent back with the confirmation.
MAX_BYTES = 300_000
# Rows below the header: evenings (totals) or hands (hands). Ten years of a club's evenings
# every fortnight, or a dozen evenings of hands; more is imported in several files, oldest
# first. Each row is an evening started or a hand replayed by the engine, some milliseconds
# each, and the whole file is worked through twice (preview, confirmation) within a worker's
# time.
MAX_ROWS = 500
# Different players named in one file (a club has some dozens).
MAX_PLAYERS = 2_000
# Cells in a row: the totals form's date and host, then one column per player.
MAX_COLUMNS = 2 + MAX_PLAYERS
# Characters in one cell: a name has at most 40, a hand as JSON some hundreds.
MAX_CELL = 5_000
# A hand as JSON: objects and lists inside each other (a hand's own shape is 3 deep).
MAX_JSON_DEPTH = 10
# Problems listed for one file: a file that wrong needs a look as a whole.
MAX_PROBLEMS = 100

# A new evening starts after this many hands: the engine replays an evening's sheet at each
# hand it enters, so a longer evening takes longer for every hand (a marathon weekend has 300).
MAX_HANDS_PER_EVENING = 300
# A total beyond this is a typing mistake (a Doppelkopf evening is some hundreds of points).
MAX_TOTAL = 1_000_000

# The hands form's columns. ``payload`` (a hand as JSON, the API's shape) serves every game;
# the others are Doppelkopf's fields written flat (the import page lists them).
HANDS_COLUMNS = (
    "date",
    "players",
    "kind",
    "re",
    "solo",
    "re_eyes",
    "re_tricks",
    "announcements",
    "specials",
    "revoke_by",
    "eyes",
    "tricks",
    "solo_outbid",
    "fuchs_wins_last_doppelkopf",
    "payload",
)
NAME_SEPARATOR = "|"
YES = {"1", "x", "yes", "ja", "true", "wahr", "j", "y"}
NO = {"", "0", "no", "nein", "false", "falsch", "n"}


@dataclass
class RowError:
    row: int | None  # the file's row (the header is row 1), None for the file as a whole
    column: str | None
    message: str

    def __str__(self):
        if self.row is None:
            return self.message
        if self.column is None:
            return _("Row %(row)s: %(message)s") % {"row": self.row, "message": self.message}
        return _("Row %(row)s, column “%(column)s”: %(message)s") % {
            "row": self.row,
            "column": self.column,
            "message": self.message,
        }


class PaperImportProblem(Exception):
    def __init__(self, errors: list[RowError]):
        super().__init__("; ".join(str(e) for e in errors[:MAX_PROBLEMS]))
        self.errors = errors


class Problems(list):
    """The problems found so far. At MAX_PROBLEMS the check stops and reports them: going
    on through a file that wrong only makes a longer list nobody reads."""

    def append(self, error: RowError) -> None:
        super().append(error)
        if len(self) >= MAX_PROBLEMS:
            more = _("There may be more problems: the first %(count)s are listed.") % {"count": MAX_PROBLEMS}
            raise PaperImportProblem([*self, RowError(None, None, more)])

    def extend(self, errors) -> None:
        for error in errors:
            self.append(error)

    def __iadd__(self, errors):
        self.extend(errors)
        return self


def column_letter(index: int) -> str:
    """A column as a spreadsheet names it (0: A, 26: AA), for a cell the header does not name."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _column(index: int, header: list[str] | None) -> str:
    if header and index < len(header) and header[index]:
        return header[index]
    return column_letter(index)


def _cells_read(record: str, end: int, delimiter: str) -> list[str] | None:
    try:
        return next(csv.reader(io.StringIO(record[:end]), delimiter=delimiter), [])
    except csv.Error:
        return None


def _unreadable(row: int, record: str, delimiter: str, header: list[str] | None, error: csv.Error) -> RowError:
    """What the csv module could not read in ``record`` (the row's text), named by row and
    column. The column is the last cell of the longest start of the row that still reads
    (a bisection over its length): the csv module says what went wrong, not where."""
    good, bad = 0, len(record)
    while bad - good > 1:
        middle = (good + bad) // 2
        if _cells_read(record, middle, delimiter) is None:
            bad = middle
        else:
            good = middle
    index = max(len(_cells_read(record, good, delimiter) or []) - 1, 0)
    text = str(error)
    if "field larger" in text:
        message = _("A cell holds at most %(max)s characters.") % {"max": MAX_CELL}
    elif "new-line" in text:
        message = _("This cell holds a line break outside quotes: put the cell in double quotes, or remove the break.")
    else:
        message = _("This cell cannot be read as CSV (%(error)s).") % {"error": text}
    return RowError(row, _column(index, header), message)


def _source(text: str) -> io.StringIO:
    # A file whose lines end in a carriage return alone (old Mac spreadsheets) is read by
    # those; anywhere else a carriage return alone is a problem in the cell that holds it.
    return io.StringIO(text, newline="" if "\n" not in text else "\n")


def read_rows(text: str) -> list[tuple[int, list[str]]]:
    """The file's rows as (row number, cells stripped), blank rows left out. The delimiter is
    the header's: a comma, a semicolon (a German spreadsheet's CSV) or a tab."""
    text = text.lstrip("\ufeff")
    if len(text.encode()) > MAX_BYTES:
        raise PaperImportProblem([RowError(None, None, _("The file is too large (at most 300 kB)."))])
    rows: list[tuple[int, list[str]]] = []
    errors = Problems()
    for number, cells in _records(text, rows, errors):
        if len(rows) > MAX_ROWS:
            message = _("A file holds at most %(max)s rows below the first: please import the rest in a second file.")
            errors.append(RowError(number, None, message % {"max": MAX_ROWS}))
            raise PaperImportProblem(errors)
        if _row_fits(number, cells, rows[0][1] if rows else None, errors):
            rows.append((number, [cell.strip() for cell in cells]))
    if errors:
        raise PaperImportProblem(errors)
    if not rows:
        raise PaperImportProblem([RowError(None, None, _("The file is empty."))])
    return rows


def _records(text: str, rows: list[tuple[int, list[str]]], errors: Problems):
    """The file's rows that are not blank, as (row number, cells); what the csv module cannot
    read stops the file with a problem named by row and column (``rows``, as read so far,
    gives the header's names for it)."""
    first = re.split("[\r\n]", text, maxsplit=1)[0]
    delimiter = max([",", ";", "\t"], key=first.count)
    record: list[str] = []  # the lines of the row being read, for a problem's column

    def lines():
        for line in _source(text):
            record.append(line)
            yield line

    reader = csv.reader(lines(), delimiter=delimiter)
    number = 0
    while True:
        number += 1
        record.clear()
        try:
            cells = next(reader, None)
        except csv.Error as error:
            errors.append(_unreadable(number, "".join(record), delimiter, rows[0][1] if rows else None, error))
            raise PaperImportProblem(errors) from error
        if cells is None:
            return
        if any(cell.strip() for cell in cells):
            yield number, cells


def _row_fits(number: int, cells: list[str], header: list[str] | None, errors: Problems) -> bool:
    """Whether the row has room in the limits: a row too wide is left out, a cell too long is
    named (the row is kept, so that the rows after it are still checked)."""
    if len(cells) > MAX_COLUMNS:
        message = _("A row has at most %(max)s cells (a file names at most %(players)s players).") % {
            "max": MAX_COLUMNS,
            "players": MAX_PLAYERS,
        }
        errors.append(RowError(number, _column(MAX_COLUMNS, header), message))
        return False
    for index, cell in enumerate(cells):
        if len(cell) > MAX_CELL:
            message = _("A cell holds at most %(max)s characters.") % {"max": MAX_CELL}
            errors.append(RowError(number, _column(index, header), message))
    return True


_JSON_MARKS = re.compile(r'["\\\[\]{}]')


def json_too_deep(text: str) -> bool:
    """Whether ``text`` nests objects and lists more than MAX_JSON_DEPTH deep, told in one
    pass without recursion, before json.loads recurses into it (as deep as Python lets it,
    then RecursionError)."""
    depth, in_string, escaped_until = 0, False, -1
    for mark in _JSON_MARKS.finditer(text):
        at, char = mark.start(), mark.group()
        if at < escaped_until:
            continue
        if in_string:
            if char == "\\":
                escaped_until = at + 2
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def hand_json(value: str) -> object:
    """A payload cell's JSON; ValueError with the message for its cell when it is not JSON
    or nests too deep."""
    if json_too_deep(value):
        raise ValueError(_("A hand in JSON nests at most %(max)s levels deep.") % {"max": MAX_JSON_DEPTH})
    try:
        return json.loads(value)
    except ValueError as error:
        raise ValueError(_("This is not a hand in JSON.")) from error


@dataclass
class Evening:
    """One evening read from the file (names as written, in seat order, the host first)."""

    row: int
    date: datetime.date
    players: list[str]
    date_column: str = "date"  # as the file's header names it
    totals: dict[str, int] = field(default_factory=dict)  # totals form
    # Hands form: (row, payload, whether the row gave it as JSON in the payload column).
    hands: list[tuple[int, dict[str, Any], bool]] = field(default_factory=list)


# --- reading the file -----------------------------------------------------------------------


def parse_date(value: str) -> datetime.date:
    """2024-03-15 (ISO) or 15.03.2024 (as written in a German notebook)."""
    for pattern in ("%Y-%m-%d", "%d.%m.%Y"):
        try:
            return datetime.datetime.strptime(value, pattern).date()
        except ValueError:
            continue
    raise ValueError(value)


def _cell(cells: list[str], index: int | None) -> str:
    return cells[index] if index is not None and index < len(cells) else ""


def _date_cell(value: str, row: int, column: str, errors: list[RowError]) -> datetime.date | None:
    if not value:
        errors.append(RowError(row, column, _("A date is needed here.")))
        return None
    try:
        date = parse_date(value)
    except ValueError:
        errors.append(
            RowError(row, column, _("“%(value)s” is not a date (2024-03-15 or 15.03.2024).") % {"value": value})
        )
        return None
    problem = table_meetings.meeting_date_problem(date)
    if problem:
        errors.append(RowError(row, column, problem))
        return None
    return date


def _integer(value: str) -> int:
    value = value.replace("−", "-").replace(" ", "")
    if not value.lstrip("+-").isdigit():
        raise ValueError(value)
    return int(value)


def parse_totals(text: str) -> list[Evening]:
    """The totals form: ``date, host, <player>, <player>, ...``."""
    rows = read_rows(text)
    (header_row, header), body = rows[0], rows[1:]
    errors = Problems()
    seen = _totals_header(header_row, header, errors)
    evenings = []
    for row, cells in body:
        if len(cells) > len(header):
            errors.append(RowError(row, None, _("This row has more cells than the first row has columns.")))
            continue
        evening = _totals_row(row, cells, header, seen, errors)
        if evening is not None:
            evenings.append(evening)
    if not body:
        errors.append(RowError(None, None, _("The file has no evening below its first row.")))
    if errors:
        raise PaperImportProblem(errors)
    return evenings


def _totals_header(row: int, header: list[str], errors: Problems) -> dict[str, str]:
    """The players' columns of the totals form's first row, by name folded to lower case."""
    if len(header) < 3 or header[0].casefold() not in {"date", "datum"}:
        errors.append(RowError(row, None, _("The first row names the columns: date, host, then one per player.")))
        raise PaperImportProblem(errors)
    seen: dict[str, str] = {}
    for name in header[2:]:
        if not name:
            errors.append(RowError(row, None, _("Every player column needs the player's name in this row.")))
        elif name.casefold() in seen:
            errors.append(RowError(row, name, _("This player has two columns.")))
        seen[name.casefold()] = name
    if errors:
        raise PaperImportProblem(errors)
    return seen


def _totals_row(row: int, cells: list[str], header: list[str], seen: dict[str, str], errors: Problems):
    """One evening of the totals form, the host first; None when its date or host is wrong."""
    date_column, host_column, names = header[0], header[1], header[2:]
    date = _date_cell(_cell(cells, 0), row, date_column, errors)
    totals = _row_totals(row, cells, names, errors)
    host = _cell(cells, 1)
    match = seen.get(host.casefold())
    if not host:
        errors.append(RowError(row, host_column, _("Who hosted? Write his name as in his column.")))
    elif match is None:
        errors.append(RowError(row, host_column, _("“%(name)s” has no column.") % {"name": host}))
    elif match not in totals:
        errors.append(RowError(row, host_column, _("The host has no total in this row.")))
    if date is None or match not in totals:
        return None
    seats = [match] + [name for name in names if name in totals and name != match]
    return Evening(row=row, date=date, players=seats, totals=totals, date_column=date_column)


def _row_totals(row: int, cells: list[str], names: list[str], errors: Problems) -> dict[str, int]:
    """Each player's total in the row; an empty cell: he was not at the table."""
    totals = {}
    for index, name in enumerate(names, 2):
        value = _cell(cells, index)
        if not value:
            continue
        try:
            total = _integer(value)
        except ValueError:
            errors.append(RowError(row, name, _("“%(value)s” is not a whole number.") % {"value": value}))
            continue
        if abs(total) > MAX_TOTAL:
            errors.append(RowError(row, name, _("A total lies between −%(max)s and %(max)s.") % {"max": MAX_TOTAL}))
            continue
        totals[name] = total
    return totals


def _names(value: str) -> list[str]:
    return [name.strip() for name in value.split(NAME_SEPARATOR) if name.strip()]


def _by_name(value: str, row: int, column: str, errors: list[RowError]) -> dict[str, int]:
    """``Anna=60|Ben=80``: a number per player (a Ramsch hand's eyes or tricks)."""
    figures = {}
    for part in _names(value):
        name, _sep, number = part.partition("=")
        try:
            figures[name.strip()] = _integer(number)
        except ValueError:
            errors.append(RowError(row, column, _("Write each player as Name=number, e.g. Anna=60.")))
    return figures


def _calls(value: str, row: int, column: str, errors: list[RowError], *, flags: tuple[str, ...]) -> list[dict]:
    """``re:re kontra:keine_90`` or ``re:fuchs+last_trick``: party:what, in order, by spaces."""
    calls = []
    for part in value.split():
        what, *extra = part.split("+")
        party, _sep, name = what.partition(":")
        if not name or any(flag not in flags for flag in extra):
            errors.append(RowError(row, column, _("“%(part)s” is not party:call (e.g. re:keine_90).") % {"part": part}))
            continue
        item = {"party": party, "call" if column == "announcements" else "kind": name}
        item.update(dict.fromkeys(extra, True))
        calls.append(item)
    return calls


def hand_payload(cells: dict[str, str], row: int, errors: list[RowError]) -> dict[str, Any] | None:
    """One hand's payload from its row's cells (by column name); None when the row has no hand."""
    if cells.get("payload"):
        return _json_payload(cells["payload"], row, errors)
    if not cells.get("kind"):
        errors.append(RowError(row, "kind", _("Which game was it? (normal, hochzeit, solo, ...)")))
        return None
    payload: dict[str, Any] = {"kind": cells["kind"]}
    _add_parties(payload, cells, row, errors)
    _add_calls_and_counts(payload, cells, row, errors)
    flag = cells.get("fuchs_wins_last_doppelkopf", "").casefold()
    if flag in YES:
        payload["fuchs_wins_last_doppelkopf"] = True
    elif flag not in NO:
        errors.append(RowError(row, "fuchs_wins_last_doppelkopf", _("Write 1 (yes) or leave it empty.")))
    return payload


def _json_payload(value: str, row: int, errors: list[RowError]) -> dict[str, Any] | None:
    try:
        payload = hand_json(value)
    except ValueError as error:
        errors.append(RowError(row, "payload", str(error)))
        return None
    if not isinstance(payload, dict):
        errors.append(RowError(row, "payload", _("This is not a hand in JSON.")))
        return None
    return payload


def _add_parties(payload: dict[str, Any], cells: dict[str, str], row: int, errors: list[RowError]) -> None:
    """Who played Re (or the solo, or revoked), and the Re party's eyes and tricks."""
    if cells.get("re"):
        payload["re"] = _names(cells["re"])
    for column in ("solo", "revoke_by"):
        if cells.get(column):
            payload[column] = cells[column]
    for column in ("re_eyes", "re_tricks"):
        if cells.get(column):
            try:
                payload[column] = _integer(cells[column])
            except ValueError:
                errors.append(RowError(row, column, _("“%(value)s” is not a whole number.") % {"value": cells[column]}))


def _add_calls_and_counts(payload: dict[str, Any], cells: dict[str, str], row: int, errors: list[RowError]) -> None:
    """Announcements and specials by party, eyes and tricks by player, the outbid solo players."""
    if cells.get("announcements"):
        payload["announcements"] = _calls(cells["announcements"], row, "announcements", errors, flags=())
    if cells.get("specials"):
        payload["specials"] = _calls(cells["specials"], row, "specials", errors, flags=("last_trick", "doppel"))
    for column in ("eyes", "tricks"):
        if cells.get(column):
            payload[column] = _by_name(cells[column], row, column, errors)
    if cells.get("solo_outbid"):
        payload["solo_outbid"] = _names(cells["solo_outbid"])


def parse_hands(text: str) -> list[Evening]:
    """The hands form: one row per hand, ``HANDS_COLUMNS``; an evening's first row names its
    players in seat order (the host first, separated by |), its other rows leave that cell empty."""
    rows = read_rows(text)
    (header_row, header), body = rows[0], rows[1:]
    columns = [name.casefold() for name in header]
    errors = Problems()
    _check_hands_header(header_row, header, columns, errors)
    evenings: list[Evening] = []
    for row, values in body:
        if len(values) > len(header):
            errors.append(RowError(row, None, _("This row has more cells than the first row has columns.")))
            continue
        cells = {name: _cell(values, index) for index, name in enumerate(columns)}
        if not _place_row(row, cells, evenings, errors):
            continue
        if len(evenings[-1].hands) >= MAX_HANDS_PER_EVENING:
            message = _(
                "An imported evening holds at most %(max)s hands: start the next one here by naming its players."
            )
            errors.append(RowError(row, "players", message % {"max": MAX_HANDS_PER_EVENING}))
            continue
        payload = hand_payload(cells, row, errors)
        if payload is not None:
            evenings[-1].hands.append((row, payload, bool(cells.get("payload"))))
    if not body:
        errors.append(RowError(None, None, _("The file has no hand below its first row.")))
    if errors:
        raise PaperImportProblem(errors)
    return evenings


def _check_hands_header(row: int, header: list[str], columns: list[str], errors: Problems) -> None:
    errors += [RowError(row, name, _("Unknown column.")) for name in header if name.casefold() not in HANDS_COLUMNS]
    for needed in ("date", "players"):
        if needed not in columns:
            errors.append(RowError(row, needed, _("This column is missing.")))
    if errors:
        raise PaperImportProblem(errors)


def _place_row(row: int, cells: dict[str, str], evenings: list[Evening], errors: Problems) -> bool:
    """Start an evening at a row that names its players, else check the row's date against its
    evening's; False when the row comes before any evening."""
    if cells["players"]:
        date = _date_cell(cells["date"], row, "date", errors)
        players = _names(cells["players"])
        if len({p.casefold() for p in players}) != len(players):
            errors.append(RowError(row, "players", _("A player is named twice.")))
        evenings.append(Evening(row=row, date=date, players=players))
    elif not evenings:
        errors.append(RowError(row, "players", _("The first row of an evening names its players, the host first.")))
        return False
    elif cells["date"]:
        date = _date_cell(cells["date"], row, "date", errors)
        if date is not None and evenings[-1].date is not None and date != evenings[-1].date:
            errors.append(
                RowError(row, "date", _("An evening's rows share its date; a new evening names its players."))
            )
    return True
