"""The hostile values the import must refuse (each a change to a real export), and the pages
an imported league must show: shared by the tests of this folder."""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse

INT32 = 2**31


def renamed(data: Any, old: str, new: str) -> Any:
    """``data`` with the player ``old`` called ``new`` everywhere (keys and values)."""
    text = json.dumps(data, ensure_ascii=False)
    return json.loads(text.replace(json.dumps(old, ensure_ascii=False), json.dumps(new, ensure_ascii=False)))


def _set(path: str, value: Any):
    """A change setting ``path`` (keys and list indexes, dot-separated) to ``value``."""

    def change(data):
        *parents, last = path.split(".")
        node = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[int(last) if isinstance(node, list) else last] = value
        return data

    return change


def _add_player(name: str):
    def change(data):
        data["players"].append({"name": name, "active": True})
        return data

    return change


def _add_season(number):
    def change(data):
        data["seasons"].append({"number": number, "started_on": "2026-11-01", "reopenings": [], "bills": []})
        return data

    return change


def _rename(new: str):
    return lambda data: renamed(data, "Birgit", new)


def _reopened(reason: str):
    def change(data):
        data["seasons"][0]["reopenings"].append(
            {
                "reason": reason,
                "reopened_by": "demo",
                "reopened_at": "2026-11-01T10:00:00+00:00",
                "was_locked_at": "2026-10-01T10:00:00+00:00",
            }
        )
        return data

    return change


BILL = "seasons.0.bills.0"
HAND = "meetings.0.hands.0"

# The list: (what, change of the demo league's export). Each must be refused (4xx).
HOSTILE = [
    ("closed_at in year 1 at +14:00", _set("meetings.0.closed_at", "0001-01-01T00:00:00+14:00")),
    ("closed_at in year 9999", _set("meetings.0.closed_at", "9999-12-31T23:59:59")),
    ("a bill settled in year 9999", _set(f"{BILL}.settled_at", "9999-12-31T23:59:59")),
    ("a date of 30 February", _set("meetings.0.date", "2026-02-30")),
    ("an end time of 25:61", _set("meetings.0.end_time", "25:61")),
    ("a history time of 30 February", _set(f"{HAND}.history.0.at", "2026-02-30T10:00:00+00:00")),
    ("position 2^31", _set(f"{HAND}.position", INT32)),
    ("position -1", _set(f"{HAND}.position", -1)),
    ("a season number 2^31", _add_season(INT32)),
    ("hand number 0", _set(f"{HAND}.number", 0)),
    ("hand number 2^31", _set(f"{HAND}.number", INT32)),
    ("hand numbers not 1, 2, ...", _set(f"{HAND}.number", 7)),
    ("a version 2^31", _set(f"{HAND}.version", INT32)),
    ("NUL in a name", _rename("Bir\x00git")),
    ("NUL in a reason", _reopened("weil\x00so")),
    ("NUL in a history reason", _set(f"{HAND}.history.0.reason", "outbox\x00")),
    ("NUL in a payload", _set(f"{HAND}.payload.note", "a\x00b")),
    ("a lone surrogate in a name", _rename("Bir\ud800git")),
    ("bill total NaN", _set(f"{BILL}.total", "NaN")),
    ("bill total Infinity", _set(f"{BILL}.total", "Infinity")),
    ("bill total beyond its column", _set(f"{BILL}.total", "99999999999.99")),
    ("bill total_with_tip NaN", _set(f"{BILL}.total_with_tip", "NaN")),
    ("bill method over 20 characters", _set(f"{BILL}.method", "per_point" * 3)),
    ("bill scores [1, 2]", _set(f"{BILL}.scores", [1, 2])),
    ("bill shares a list", _set(f"{BILL}.shares", ["Birgit"])),
    ("bill shares changed by hand", _set(f"{BILL}.shares.Birgit", "0.01")),
    ("pennant_holder []", _set("meetings.0.pennant_holder", [])),
    ("rules of a meeting a list", _set("meetings.0.rules", [])),
    ("an unknown rule in a meeting", _set("meetings.0.rules.no_such_rule", 1)),
    ("a reopening reason over 500 characters", _reopened("x" * 501)),
    ("an empty reopening reason", _reopened("  ")),
    ("an RTL override in a name", _rename("Bir\u202egit")),
    ("a zero-width space in a name", _rename("Bir\u200bgit")),
    ("a newline in a name", _rename("Bir\ngit")),
    ("a tab in a name", _rename("Bir\tgit")),
    ("a Cyrillic look-alike beside the name", _add_player("B\u0456rgit")),
    ("the name in small letters beside it", _add_player("birgit")),
    ("the name in full width beside it", _add_player("\uff22irgit")),
    ("a name of 41 characters", _add_player("x" * 41)),
    ("a meeting dated 1899", _set("meetings.0.date", "1899-12-31")),
    ("a meeting dated 2200", _set("meetings.0.date", "2200-01-01")),
]


def _doubled(path: str):
    """A change repeating the first item of the list at ``path``."""

    def change(data):
        node = data
        for key in path.split("."):
            node = node[int(key)] if isinstance(node, list) else node[key]
        node.append(json.loads(json.dumps(node[0])))
        return data

    return change


# Found by the mutation fuzzer (tests/fuzz/import_mutations.py) after the list was
# refused: each gave a 500 at import or on a page of the imported league.
FUZZED = [
    ("a season twice", _doubled("seasons")),
    ("a bill twice", _doubled(f"{BILL[: -len('.0')]}")),
    ("NaN in a payload", _set(f"{HAND}.payload.re_eyes", float("nan"))),
    ("Infinity in a history payload", _set(f"{HAND}.history.0.payload.re_eyes", float("inf"))),
    ("2^64 in a history payload", _set(f"{HAND}.history.0.payload.re_eyes", 2**64)),
    ("a history payload a list", _set(f"{HAND}.history.0.payload", [])),
    ("a name in the bill's scores a list", _set(f"{BILL}.scores.0.0", [])),
    ("a season without evenings", _add_season(3)),
]


def failing_pages(client, league) -> list[str]:
    """The pages of ``league`` (``league_pages``) that do not answer 200, each read to its end:
    an export is streamed, and fails, if at all, while it is written."""
    failing = []
    for url in league_pages(league):
        response = client.get(url)
        if response.streaming:
            response.getvalue()
        if response.status_code != 200:
            failing.append(url)
    return failing


def league_pages(league) -> list[str]:
    """Every page of a league a member can open (with its exports)."""
    slug = league.slug
    urls = [
        reverse(name, kwargs={"slug": slug})
        for name in (
            "league",
            "standings",
            "league_activity",
            "league_statistics",
            "league_ratings",
            "league_rules",
            "league_export_json",
            "league_export_csv",
        )
    ]
    for season in league.seasons.all():
        for name in ("season_bill", "season_report", "season_what_if"):
            urls.append(reverse(name, kwargs={"slug": slug, "number": season.number}))
    for meeting in league.meetings.all():
        for name in ("meeting", "meeting_history", "meeting_rules"):
            urls.append(reverse(name, kwargs={"slug": slug, "pk": meeting.pk}))
    for player in league.players.all():
        urls.append(reverse("player_statistics", kwargs={"slug": slug, "pk": player.pk}))
    return urls
