"""Reading a paper season's CSV (leagues/paper_import.py) within the import's limits.

The file is hostile input like any form: it is read cell by cell within documented limits
(the README's "Limits"), and whatever the csv module cannot read, a cell too
long, a row too wide, a hand's JSON nested too deep, is a problem named by its row and
column, never an exception that escapes. The limits keep an import well inside a web
worker's time: the engine replays every hand and starts every evening as if entered at the
table, which takes some milliseconds each.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

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
    first = re.split("[\r\n]", text, maxsplit=1)[0]
    delimiter = max([",", ";", "\t"], key=first.count)
    record: list[str] = []  # the lines of the row being read, for a problem's column

    def lines():
        for line in _source(text):
            record.append(line)
            yield line

    reader = csv.reader(lines(), delimiter=delimiter)
    rows: list[tuple[int, list[str]]] = []
    errors = Problems()
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
            break
        if not any(cell.strip() for cell in cells):
            continue
        if len(rows) > MAX_ROWS:
            message = _("A file holds at most %(max)s rows below the first: please import the rest in a second file.")
            errors.append(RowError(number, None, message % {"max": MAX_ROWS}))
            raise PaperImportProblem(errors)
        header = rows[0][1] if rows else None
        if len(cells) > MAX_COLUMNS:
            message = _("A row has at most %(max)s cells (a file names at most %(players)s players).") % {
                "max": MAX_COLUMNS,
                "players": MAX_PLAYERS,
            }
            errors.append(RowError(number, _column(MAX_COLUMNS, header), message))
            continue
        for index, cell in enumerate(cells):
            if len(cell) > MAX_CELL:
                message = _("A cell holds at most %(max)s characters.") % {"max": MAX_CELL}
                errors.append(RowError(number, _column(index, header), message))
        rows.append((number, [cell.strip() for cell in cells]))
    if errors:
        raise PaperImportProblem(errors)
    if not rows:
        raise PaperImportProblem([RowError(None, None, _("The file is empty."))])
    return rows


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
