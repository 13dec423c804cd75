"""Reading a league export (leagues/exchange/league_file.py) as what it is: a file from anyone.

Any signed-up user can import a file, so nothing in it is taken on trust. Each value is read
through the rule that guards it where the app writes it itself:

- the file: at most ``MAX_FILE_BYTES``, JSON nested at most ``MAX_DEPTH`` deep (an export
  nests about ten deep), no NUL and no lone surrogate in any text or key (PostgreSQL refuses
  both, SQLite would keep the NUL), no NaN or Infinity (not JSON: no database keeps them in
  a JSON column) and no whole number beyond 64 bits (the API's export cannot write it);
- texts, amounts and whole numbers through the model field that keeps them (its own
  ``clean``: max_length, max_digits and decimal places), whole numbers also within their
  column's range as PostgreSQL has it (SQLite would keep a larger one, and the league could
  then never move to PostgreSQL);
- dates and times as the pages' forms read them (no 30 February, no 25:61), between
  1900-01-01 and a year from today: the range of a meeting's date on the page that starts
  one (``services.meeting_date_problem``). A time without an offset is the server's time
  zone, as in the forms;
- players' names, and the names of who did what, through leagues/clubs/names.py as on the league
  page; reasons as the reopening pages take them (``services.REASON_MAX``).

Each refusal is an ``ImportProblem`` naming its place in the file, lists counted from 1:
"meetings[3].closed_at: …".
"""

from __future__ import annotations

import datetime
import json
import math
import re
from collections.abc import Iterator
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues import exceptions
from leagues.clubs import names
from leagues.table import meetings as table_meetings

# The largest file the command takes (the page takes what fits in a request:
# settings.MAX_REQUEST_BODY_BYTES). An evening of 40 hands with their history is some 40 kB
# as the league page writes it (20 kB as the API does): this is over a thousand evenings,
# and the import holds about twice the file in memory (LeagueFile).
MAX_FILE_BYTES = 50_000_000
# An export nests about ten deep (meetings, a hand, its history, a payload's lists).
MAX_DEPTH = 32
# Strings no text of the database may hold: NUL, and the halves of a UTF-16 pair.
_REFUSED = {chr(0), *map(chr, range(0xD800, 0xE000))}
# The whole numbers a JSON column keeps and the export writes back (orjson: 64 bits).
_LARGEST = 2**63 - 1


class ImportProblem(exceptions.InvalidInput):
    """The file cannot be imported; ``errors`` name where in it (field "file")."""

    def __init__(self, where: str, message: str):
        text = f"{where}: {message}" if where else message
        super().__init__([{"hand": None, "field": "file", "message": text}])


class LeagueFile:
    """A league export as read from its file: ``head``, what the file holds but its list of
    meetings (its top-level object without them, when it is one), and ``meetings()``, that
    list's items. The meetings with their hands and the hands' history are nearly all of a
    file, and as Python objects several times its size: each meeting is kept as its text
    and decoded only when the import comes to it."""

    def __init__(self, head: Any, meetings: list[str] | None = None):
        self.head = head
        self._meetings = meetings

    def meeting_count(self) -> int:
        """The number of meetings (0 when the file has no list of them)."""
        return len(self._meetings) if self._meetings is not None else 0

    def meetings(self) -> Iterator[Any]:
        if self._meetings is None:  # none, or not a list: the import names the problem
            yield from items(self.head, "meetings", "")
            return
        for text in self._meetings:
            yield json.loads(text)


def read_json(file) -> LeagueFile:
    """The league export in ``file`` (opened binary), refused when too large, not JSON, or
    not what any JSON export may hold (``check_document``)."""
    raw = file.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise ImportProblem("", _("The file is too large (at most %(mb)s MB).") % {"mb": MAX_FILE_BYTES // 1_000_000})
    try:
        text = raw.decode("utf-8")
        del raw  # the file is held once, as text, while it is split
        return _split(text)
    except RecursionError as error:
        raise ImportProblem("", _("The file is nested too deep.")) from error
    except (UnicodeDecodeError, ValueError) as error:
        raise ImportProblem("", _("This file is not a league export (JSON).")) from error


_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")


def _split(text: str) -> LeagueFile:
    """``text`` read as ``json.loads`` reads it (ValueError where it would refuse it), each
    value checked as it is read; a list of meetings kept as the text of each."""
    at = _SPACE.match(text).end()
    if not text.startswith("{", at):
        whole = _DECODER.decode(text)
        check_document(whole)
        return LeagueFile(whole)
    head, meetings, keys = {}, None, 0
    at = _SPACE.match(text, at + 1).end()
    while not text.startswith("}", at):
        if keys:
            at = _SPACE.match(text, _expect(text, at, ",")).end()
        keys += 1
        if not text.startswith('"', at):
            raise ValueError("a key expected")
        key, at = _DECODER.raw_decode(text, at)
        _check_key(key, key)
        at = _SPACE.match(text, _expect(text, _SPACE.match(text, at).end(), ":")).end()
        if key == "meetings" and text.startswith("[", at):
            meetings, at = _items(text, at, key)
            head.pop(key, None)
        else:
            head[key], at = _DECODER.raw_decode(text, at)
            check_document(head[key], key, 2)
        at = _SPACE.match(text, at).end()
    if _SPACE.match(text, at + 1).end() != len(text):
        raise ValueError("extra data")
    return LeagueFile(head, meetings if "meetings" not in head else None)


def _items(text: str, at: int, where: str) -> tuple[list[str], int]:
    """The text of each item of the list at ``at``, each checked; and where the list ends."""
    found = []
    at = _SPACE.match(text, at + 1).end()
    while not text.startswith("]", at):
        if found:
            at = _SPACE.match(text, _expect(text, at, ",")).end()
        item, end = _DECODER.raw_decode(text, at)
        check_document(item, f"{where}[{len(found) + 1}]", 3)
        found.append(text[at:end])
        at = _SPACE.match(text, end).end()
    return found, at + 1


def _expect(text: str, at: int, mark: str) -> int:
    if not text.startswith(mark, at):
        raise ValueError(f"{mark} expected")
    return at + 1


def check_document(data: Any, where: str = "", depth: int = 1) -> None:
    """Depth, NUL and surrogates, over a whole value at once (without recursion, so that no
    file can exhaust the stack), ``data`` found at ``where``, ``depth`` deep; the first
    problem in the file's order names its place."""
    stack = [(data, where, depth)]
    while stack:
        node, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ImportProblem(where, _("nested more than %(n)s deep.") % {"n": MAX_DEPTH})
        if isinstance(node, dict | list):
            stack.extend(reversed(_children(node, where, depth)))
        else:
            _check_scalar(node, where)


def _children(node: dict | list, where: str, depth: int) -> list[tuple[Any, str, int]]:
    """An object's or a list's values, each with its place, one deeper (keys checked)."""
    if isinstance(node, list):
        return [(value, f"{where}[{i}]", depth + 1) for i, value in enumerate(node, start=1)]
    children = []
    for key, value in node.items():
        at = f"{where}.{key}" if where else key
        _check_key(key, at)
        children.append((value, at, depth + 1))
    return children


def _check_scalar(node: Any, where: str) -> None:
    if isinstance(node, str) and _REFUSED.intersection(node):
        raise ImportProblem(_printable(where), _("a NUL or an invalid character in a text."))
    if isinstance(node, float) and not math.isfinite(node):  # Python's json reads NaN
        raise ImportProblem(where, _("not a number."))
    if isinstance(node, int) and not -_LARGEST <= node <= _LARGEST:
        raise ImportProblem(where, _("a number too large."))


def _check_key(key: str, at: str) -> None:
    if _REFUSED.intersection(key):
        raise ImportProblem(_printable(at), _("a NUL or an invalid character in a key."))


def _printable(where: str) -> str:
    return "".join("?" if c in _REFUSED else c for c in where)[:200]


def value(data: Any, key: str, where: str, kind, *, required=True):
    """``data[key]`` of the JSON type ``kind`` (None: any); missing or null is None when not
    ``required``."""
    if not isinstance(data, dict):
        raise ImportProblem(where, _("an object was expected."))
    at = f"{where}.{key}" if where else key  # a key of the file's top level is named alone
    if data.get(key) is None:
        if required:
            raise ImportProblem(at, _("missing."))
        return None
    found = data[key]
    if kind is not None and (not isinstance(found, kind) or (kind in (int, (int,)) and isinstance(found, bool))):
        raise ImportProblem(at, _("not the expected kind of value."))
    return found


def items(data: Any, key: str, where: str) -> list:
    return value(data, key, where, list, required=False) or []


def flag(data: Any, key: str, where: str, *, default: bool) -> bool:
    found = value(data, key, where, bool, required=False)
    return default if found is None else found


def _field_clean(field, found, where: str):
    """``found`` through a form field (``clean(value)``) or a model field (``clean(value,
    instance)``), its ValidationError as the file's problem at ``where``."""
    try:
        return field.clean(found) if isinstance(field, forms.Field) else field.clean(found, None)
    except ValidationError as error:
        raise ImportProblem(where, " ".join(error.messages)) from error


def text(data: Any, key: str, where: str, *, model, field: str, required=True) -> str | None:
    """A text as the model's field keeps it (its length)."""
    found = value(data, key, where, str, required=required)
    return None if found is None else _field_clean(model._meta.get_field(field), found, f"{where}.{key}")


def whole(data: Any, key: str, where: str, *, model, field: str, required=True, least=None) -> int | None:
    """A whole number within its column (PostgreSQL's range on every database)."""
    found = value(data, key, where, int, required=required)
    if found is None:
        return None
    column = model._meta.get_field(field)
    low, high = BaseDatabaseOperations.integer_field_ranges[column.get_internal_type()]
    low = low if least is None else max(low, least)
    if not low <= found <= high:
        raise ImportProblem(
            f"{where}.{key}", _("a whole number from %(low)s to %(high)s.") % {"low": low, "high": high}
        )
    return _field_clean(column, found, f"{where}.{key}")


def amount(data: Any, key: str, where: str, *, model, field: str, required=False):
    """An amount as its column keeps it ("187.40"; no NaN, no more digits than it holds)."""
    found = value(data, key, where, str, required=required)
    return None if found is None else _field_clean(model._meta.get_field(field), found, f"{where}.{key}")


def _latest() -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=table_meetings.MEETING_DAYS_AHEAD)


def _out_of_range(where: str) -> ImportProblem:
    return ImportProblem(
        where,
        _("a date from %(first)s to %(last)s.")
        % {"first": table_meetings.EARLIEST_MEETING.isoformat(), "last": _latest().isoformat()},
    )


def day(data: Any, key: str, where: str, *, required=True) -> datetime.date | None:
    """A date ("2026-05-01") in the pages' range."""
    found = value(data, key, where, str, required=required)
    if found is None:
        return None
    parsed = _field_clean(forms.DateField(input_formats=["%Y-%m-%d"]), found, f"{where}.{key}")
    if not table_meetings.EARLIEST_MEETING <= parsed <= _latest():
        raise _out_of_range(f"{where}.{key}")
    return parsed


def moment(data: Any, key: str, where: str, *, required=True) -> datetime.datetime | None:
    """A time stamp (ISO 8601, "2026-05-01T21:30:00+00:00") in the pages' range of dates."""
    found = value(data, key, where, str, required=required)
    if found is None:
        return None
    parsed = _field_clean(forms.DateTimeField(), found, f"{where}.{key}")
    # Compared before converting: a year 1 at +14:00 is no date at all in UTC.
    first = datetime.datetime.combine(table_meetings.EARLIEST_MEETING, datetime.time(), datetime.timezone.utc)
    last = datetime.datetime.combine(_latest(), datetime.time.max, datetime.timezone.utc)
    if not first <= parsed <= last:
        raise _out_of_range(f"{where}.{key}")
    return parsed.astimezone(datetime.timezone.utc)


def clock(data: Any, key: str, where: str) -> datetime.time | None:
    """A time of day ("23:30" or "23:30:00"), as the start page's end time."""
    found = value(data, key, where, str, required=False)
    return None if found is None else _field_clean(forms.TimeField(), found, f"{where}.{key}")


def reason(data: Any, key: str, where: str) -> str:
    """Why an admin reopened something, as the reopening pages take it."""
    found = (value(data, key, where, str) or "").strip()
    if not found or len(found) > exceptions.REASON_MAX:
        raise ImportProblem(
            f"{where}.{key}", _("a reason of 1 to %(max)s characters.") % {"max": exceptions.REASON_MAX}
        )
    return found


def who(data: Any, key: str, where: str) -> str:
    """The name of who did something, kept as text ("" when the file names nobody): a name
    as the league page takes a player's (a longer login name cut to its length, as a
    league's founder's player name is)."""
    found = value(data, key, where, str, required=False)
    if found is None:
        return ""
    try:
        return names.clean_name(found[: names.MAX_LENGTH])
    except names.NameProblem as problem:
        raise ImportProblem(f"{where}.{key}", problem.message) from problem


class Players:
    """The file's players, each name checked as the league page checks a new player's
    (leagues/clubs/names.py: invisible characters, look-alikes, case and width)."""

    def __init__(self):
        self.by_name: dict[str, Any] = {}
        self._roster = names.Roster()

    def check_new(self, name: str, where: str) -> str:
        try:
            name = names.check_new_name(name, self._roster)
        except names.NameProblem as problem:
            raise ImportProblem(where, problem.message) from problem
        self._roster.add(name)
        return name

    def __call__(self, name: Any, where: str, *, required=True):
        """The player the file calls ``name``."""
        if name is None and not required:
            return None
        if not isinstance(name, str) or name not in self.by_name:
            raise ImportProblem(where, _("%(name)s is not one of the players.") % {"name": str(name)[:40]})
        return self.by_name[name]
