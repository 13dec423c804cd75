"""Mutations of a JSON document, for the import fuzzer (tests/fuzz/import_mutations.py).

A document is walked into its nodes, each named by its path (``meetings[2].hands[1].payload``)
and by its pattern, the path with every index a star (``meetings[*].hands[*].payload``). The
exhaustive part gives every mutation of the catalogue that fits a node's kind (a number, a
date, a name, a list ...) to the first node of each pattern, and drops or doubles it; the
random part (a seeded ``random.Random``) gives one to three mutations at a time to nodes picked
anywhere. A mutation is a ``Mutation``: where, what, and the document it makes (built on
demand, so that thousands of them cost no memory).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re
from collections.abc import Iterator
from typing import Any

Path = tuple[Any, ...]  # keys (str) and indices (int) from the root

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T")
TIME = re.compile(r"^\d{2}:\d{2}(:\d{2})?$")
AMOUNT = re.compile(r"^-?\d+\.\d+$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-")

LOOK_ALIKES = str.maketrans("aeopcxyAEOPCXHKMT", "аеорсхуАЕОРСХНКМТ")  # Latin to Cyrillic


def text_values(s: str) -> dict[str, Any]:
    """A text's hostile twins: control, invisible, look-alike, bidi and oversized text."""
    first = s[:1] or "A"
    return {
        "empty": "",
        "blank": "   ",
        "nul inside": s[:1] + "\x00" + s[1:],
        "nul only": "\x00",
        "zero-width space": s[:1] + "\u200b" + s[1:],
        "zero-width joiner": s + "\u200d",
        "rtl override": "\u202e" + s,
        "cyrillic look-alike": s.translate(LOOK_ALIKES) if s.translate(LOOK_ALIKES) != s else "А" + s,
        "full-width": chr(ord(first) + 0xFEE0) + s[1:] if "!" <= first <= "~" else "Ａ" + s,
        "lower case": s.lower() if s.lower() != s else s.upper(),
        "newline": s + "\nX",
        "tab": "\t" + s,
        "padded": f"  {s}  ",
        "combining accent": s + "\u0301",
        "lone surrogate": s + "\ud800",
        "emoji": s + "\U0001f0a1",
        "html": f"<b>{s}</b>",
        "csv formula": "=cmd|' /C calc'!A0",
        "long (1,000)": (s or "x") * (1000 // max(len(s), 1) + 1),
        "huge (200,000)": "x" * 200_000,
    }


def date_values() -> dict[str, Any]:
    return {
        "30 February": "2026-02-30",
        "month 13": "2026-13-01",
        "year 0": "0000-01-01",
        "year 1": "0001-01-01",
        "year 9999": "9999-12-31",
        "year 10000": "10000-01-01",
        "before 1900": "1899-12-31",
        "german": "30.11.2026",
        "slashes": "2026/11/30",
        "compact": "20261130",
        "with a time": "2026-11-30T10:00:00",
        "week date": "2026-W48-5",
    }


def datetime_values() -> dict[str, Any]:
    return {
        "year 1 at +14:00": "0001-01-01T00:00:00+14:00",
        "year 9999 at -14:00": "9999-12-31T23:59:59-14:00",
        "year 9999 naive": "9999-12-31T23:59:59",
        "30 February": "2026-02-30T10:00:00+00:00",
        "25:61": "2026-11-30T25:61:00+00:00",
        "offset +99:00": "2026-11-30T10:00:00+99:00",
        "zulu": "2026-11-30T10:00:00Z",
        "space, no seconds": "2026-11-30 10:00",
        "date only": "2026-11-30",
        "epoch": "1970-01-01T00:00:00+00:00",
        "seven decimals": "2026-11-30T10:00:00.1234567+00:00",
        "unix time": "1764496800",
    }


def time_values() -> dict[str, Any]:
    return {
        "25:61": "25:61",
        "24:00": "24:00",
        "leap second": "23:59:60",
        "negative": "-01:00",
        "with an offset": "23:30:00+14:00",
        "english": "7pm",
        "microseconds": "23:30:00.999999",
    }


def amount_values() -> dict[str, Any]:
    return {
        "NaN": "NaN",
        "Infinity": "Infinity",
        "-Infinity": "-Infinity",
        "negative": "-0.01",
        "zero": "0",
        "too many digits": "99999999999.99",
        "exponent 400": "1e400",
        "exponent": "1E+2",
        "three decimals": "0.001",
        "comma": "1,5",
        "sNaN": "sNaN",
    }


def number_values(n: int) -> dict[str, Any]:
    return {
        "zero": 0,
        "minus one": -1,
        "plus one": n + 1,
        "minus": -n,
        "2^31-1": 2**31 - 1,
        "2^31": 2**31,
        "-2^31-1": -(2**31) - 1,
        "2^63": 2**63,
        "2^64": 2**64,
        "10^100": 10**100,
        "as text": str(n),
        "as float": n + 0.5,
        "as float .0": float(n),
    }


def type_swaps() -> dict[str, Any]:
    """Any node replaced by a value of every other JSON kind (NaN too: Python reads it)."""
    return {
        "null": None,
        "true": True,
        "zero": 0,
        "2^63": 2**63,
        "float": 1.5,
        "NaN": float("nan"),
        "Infinity": float("inf"),
        "text": "x",
        "empty list": [],
        "empty object": {},
    }


# A past version of a hand (its history) is kept as it was and shown, never replayed: inside
# it, what a store or a page can trip on is enough (its fields are those of the hand's own
# payload, which gets the whole catalogue).
KEPT_AS_IS = {"null", "NaN", "2^63", "nul inside", "lone surrogate", "huge (200,000)", "nested 900 deep"}


def nested(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def container_values(value: Any) -> dict[str, Any]:
    shapes = {"nested 100 deep": nested(100), "nested 900 deep": nested(900)}
    if isinstance(value, list):
        shapes["reversed"] = list(reversed(value))
        if value:
            shapes["first twice"] = [value[0], *value]
            shapes["first 300 times"] = [value[0]] * 300
            shapes["as object"] = {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        shapes["extra key"] = {**value, "unexpected": 1}
        shapes["nul key"] = {**value, "\x00": 1}
        shapes["as list"] = list(value.values())
        shapes["2,000 extra keys"] = {**value, **{f"k{i}": i for i in range(2000)}}
    return shapes


def values_for(value: Any) -> dict[str, Any]:
    """Every replacement of the catalogue that fits ``value``'s kind."""
    found = type_swaps()
    if isinstance(value, bool):
        found["false"] = False
    elif isinstance(value, int):
        found.update(number_values(value))
    elif isinstance(value, str):
        found.update(text_values(value))
        for pattern, extra in ((DATE, date_values), (DATETIME, datetime_values), (TIME, time_values)):
            if pattern.match(value):
                found.update(extra())
        if AMOUNT.match(value):
            found.update(amount_values())
        if UUID.match(value):
            found["uppercase uuid"] = value.upper()
            found["uuid without dashes"] = value.replace("-", "")
    else:
        found.update(container_values(value))
    return found


def walk(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every node of the document with its path, parents before children."""
    yield path, value
    if isinstance(value, dict):
        for key, child in value.items():
            yield from walk(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from walk(child, (*path, index))


def path_text(path: Path) -> str:
    parts = []
    for step in path:
        parts.append(f"[{step}]" if isinstance(step, int) else f".{step}")
    return "".join(parts).lstrip(".") or "(the file)"


def pattern_of(path: Path, names: frozenset[str] = frozenset()) -> str:
    """``path`` with every index a star and every key that is a player's name ``<player>``
    (a bill's shares, a hand's eyes per player: one field, whoever it is)."""
    steps = tuple("*" if isinstance(step, int) else "<player>" if step in names else step for step in path)
    return path_text(steps).replace(".*", "[*]")


def player_names(base: Any) -> frozenset[str]:
    players = base.get("players") if isinstance(base, dict) else None
    return frozenset(p["name"] for p in players or [] if isinstance(p, dict) and isinstance(p.get("name"), str))


@dataclasses.dataclass(frozen=True)
class Mutation:
    """One change (or a few) to the base document; ``raw`` for a whole file that is no JSON."""

    where: str
    what: str
    changes: tuple[tuple[Path, str, Any], ...] = ()  # (path, "set" | "drop" | "double", value)
    raw: bytes | None = None

    def document(self, base: Any) -> Any:
        data = copy.deepcopy(base)
        for path, action, value in self.changes:
            data = applied(data, path, action, value)
        return data

    def file(self, base: Any) -> bytes:
        if self.raw is not None:
            return self.raw
        document = self.document(base)
        try:
            return json.dumps(document, ensure_ascii=False).encode()
        except UnicodeEncodeError:  # a lone surrogate: as a JSON escape, which Python reads
            return json.dumps(document).encode()


def applied(data: Any, path: Path, action: str, value: Any) -> Any:
    """``data`` with one change; unchanged where an earlier change of the same mutation took
    the path away (a list item dropped before it, a parent that is no longer a list)."""
    if not path:
        return value if action == "set" else data
    parent = data
    try:
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]]
    except (KeyError, IndexError, TypeError):
        return data
    last = path[-1]
    if action == "set":
        parent[last] = value
    elif action == "drop":
        del parent[last]
    elif action == "double" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    return data


def whole_files() -> list[Mutation]:
    """Files that are no export at all, or that no JSON reader should read whole."""
    files = {
        "200,000 [": b"[" * 200_000,
        "200,000 {": b'{"a":' * 200_000,
        "empty": b"",
        "not JSON": b"format,version\nkartenliga-league,1\n",
        "a byte-order mark": b'\xef\xbb\xbf{"format": "kartenliga-league", "version": 1}',
        "UTF-16": '{"format": "kartenliga-league"}'.encode("utf-16"),
        "Latin-1": '{"format": "kartenliga-league", "x": "Jörg"}'.encode("latin-1"),
        "a JSON list": b"[]",
        "a JSON number": b"1e999999",
        "an integer of 5,000 digits": b"9" * 5000,
    }
    return [Mutation("(the file)", what, raw=raw) for what, raw in files.items()]


def exhaustive(base: Any) -> list[Mutation]:
    """Every catalogue value on the first node of each pattern; each node of such a pattern
    also dropped (its key missing, its list item gone) and, in a list, doubled."""
    seen: set[str] = set()
    names = player_names(base)
    found = whole_files()
    for path, value in walk(base):
        pattern = pattern_of(path, names)
        if pattern in seen:
            continue
        seen.add(pattern)
        where = path_text(path)
        values = values_for(value)
        if "history[*].payload." in pattern:
            values = {what: new for what, new in values.items() if what in KEPT_AS_IS}
        for what, new in values.items():
            found.append(Mutation(where, what, ((path, "set", new),)))
        if path:
            found.append(Mutation(where, "dropped", ((path, "drop", None),)))
            if isinstance(path[-1], int):
                found.append(Mutation(where, "doubled", ((path, "double", None),)))
    return found


def seeded(base: Any, *, count: int, seed: int) -> list[Mutation]:
    """``count`` mutations of one to three changes each, at nodes picked anywhere."""
    rng = random.Random(seed)
    nodes = [(path, value) for path, value in walk(base) if path]
    found = []
    for _ in range(count):
        picked = sorted(rng.sample(nodes, rng.randint(1, 3)), key=lambda node: -len(node[0]))
        changes, names = [], []
        for path, value in picked:
            choices = values_for(value)
            what = rng.choice([*choices, "dropped"])
            changes.append((path, "drop", None) if what == "dropped" else (path, "set", choices[what]))
            names.append(f"{path_text(path)}: {what}")
        # The deepest first, so that a change above does not move or remove what is below.
        found.append(Mutation("; ".join(n.split(": ")[0] for n in names), "; ".join(names), tuple(changes)))
    return found
