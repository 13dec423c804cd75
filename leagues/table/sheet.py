"""The evening's sheet and its history, shaped for the pages: rows, hands in the players' words,
who did what.
"""

import hashlib

from django.utils.translation import gettext_lazy

from leagues.table import guest_marks, outbox_choices
from leagues.table.hand_entry import FORMS, form_module, game_end_line
from leagues.table.selectors import ROUND_LABELS

# --- the evening's sheet and its history, shaped for the pages ----------------------------


def sheet_mark(live_hands) -> str:
    """A mark of the sheet a phone shows: which hands are live and in which version. The
    phone sends it back with the next hand; when another phone corrected, deleted or
    restored a hand meanwhile, the marks differ and the answer is the whole sheet rather
    than one appended row over stale ones."""
    seen = ",".join(f"{hand.pk}.{hand.version}" for hand in live_hands)
    return hashlib.sha256(seen.encode()).hexdigest()[:16]


def sheet_rows(*, result, live_hands):
    """One row per live hand like the paper sheet: each party's figure for the hand and its
    running total.

    The cell's ``delta`` is what the hand itself scored: in race games the replay's per-hand
    ``scored``, not the change of the shown totals (which includes the reset to 0 after a
    won game), so that a winner's cell never reads "−30". A hand that ended a game or a match
    carries ``game_end``, the lines drawn across the sheet under it ("Aoife wins game 2");
    the totals of the next hand start from 0 as the replay gives them. ``breakdown`` is the
    game module's figures for the why dialog (None for a game without one). Both come from
    the game's hand-entry module, which reads its engine's fields: no rule is decided here.
    """
    parties = result["parties"]
    members = result.get("team_members")
    by_player = not members
    module = form_module(result["game"]) if result.get("game") in FORMS else None
    game_end = getattr(module, "game_end", None)
    breakdown = getattr(module, "breakdown", None)
    numbers = {"game": 0, "match": 0}
    rows = []
    for hand, figures in zip(live_hands, result["hands"], strict=True):
        round_kind = figures.get("round") or "normal"
        ends = []
        for kind, winner, games in game_end(figures, result) if game_end else ():
            numbers[kind] += 1
            ends.append(game_end_line(kind=kind, winner=winner, number=numbers[kind], games=games, members=members))
        rows.append(
            {
                "hand": hand,
                "number": figures["number"],
                "dealer": figures.get("dealer"),
                "round": round_kind,
                "round_label": ROUND_LABELS.get(round_kind, ""),
                "multiplier": figures.get("multiplier"),
                "triggers": figures.get("triggers") or [],
                "game_end": ends,
                "breakdown": breakdown(figures, hand.payload, result) if breakdown else None,
                "cells": _cells(figures, parties, by_player=by_player),
            }
        )
    return rows


def _cells(figures, parties, *, by_player):
    """Each party's cell of one hand's row: what the hand scored, the running total, whether
    the player sat out (games played by players, not teams) and whether he played alone."""
    active = set(figures.get("active", parties))
    shown = figures.get("scored") or figures["deltas"]
    return [
        {
            "party": party,
            "delta": shown[party],
            "total": figures["totals"][party],
            "out": by_player and party not in active,
            "solo": figures.get("soloist") == party,
        }
        for party in parties
    ]


def describe_payload(*, module, payload):
    """The hand as entered, as (label, value) lines: the module's own words if it has them.

    A hand's past versions are kept as they were stored and never replayed, so one may be of
    a shape the game no longer reads (or never did, from an imported file): that one is shown
    as it is stored, field by field, rather than not at all."""
    describe = getattr(module, "describe", None)
    if describe is not None:
        try:
            return describe(payload)
        except (AttributeError, KeyError, IndexError, TypeError, ValueError):
            pass
    if not isinstance(payload, dict):
        return [("", str(payload))] if payload is not None else []
    return [(key, _stored_value(value)) for key, value in payload.items()]


def _stored_value(value):
    """One field of a stored hand as text: a mapping as "key: value" pairs, a list item by item."""
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(
            " ".join(str(v) for v in item.values()) if isinstance(item, dict) else str(item) for item in value
        )
    return value


class VersionLines:
    """``describe_payload`` of the many versions a page shows, each payload of a hand described
    once: a hand's versions repeat its payloads (deleted and restored, corrected and corrected
    back, saved unchanged), and a description is a dozen translations."""

    def __init__(self):
        self.seen = {}  # hand id: [(payload, its lines)]

    def __call__(self, version, *, module):
        payload = version.payload or {}
        known = self.seen.setdefault(version.id, [])
        for kept, lines in known:
            if kept == payload:
                return lines
        lines = describe_payload(module=module, payload=payload)
        known.append((payload, lines))
        return lines


def shown_name(user, names):
    """How a page names ``user``, who entered or changed something: the player he plays as
    (``names``: {user id: player name}), else the name he gave for the sheet, else his
    username."""
    return names.get(user.pk) or user.get_short_name() or user.get_username()


HISTORY_LABELS = {
    "entered": gettext_lazy("entered"),
    "corrected": gettext_lazy("corrected"),
    "deleted": gettext_lazy("deleted"),
    "restored": gettext_lazy("restored"),
    "removed": gettext_lazy("removed for good"),
    # A hand entered offline whose number another phone took meanwhile.
    "kept": gettext_lazy("kept as the next hand"),
    "replaced": gettext_lazy("replaced"),
    "discarded": gettext_lazy("discarded"),
}
# What the history says of the scorekeeper's choice for a hand from the offline outbox.
OUTBOX_NOTES = {
    "kept": gettext_lazy(
        "Entered offline as hand %(number)s, which another phone had entered meanwhile: kept as the next hand."
    ),
    "replaced": gettext_lazy(
        "Replaced by the hand entered offline as hand %(number)s, in place of the one another phone had entered."
    ),
    "discarded": gettext_lazy(
        "Entered offline as hand %(number)s, which another phone had entered meanwhile: discarded, not on the sheet."
    ),
}
# Who entered a hand by a guest's scorer link (leagues/table/scorer_links.py).
GUEST_NAME = gettext_lazy("Guest: %(name)s")
# Kinds whose record shows what changed, before and after.
CHANGING_KINDS = ("corrected", "replaced")


def outbox_note(record):
    """The history's words for the outbox choice ``record`` made (keep, replace, discard),
    "" for any other record."""
    choice = outbox_choices.parse(record.history_change_reason)
    return OUTBOX_NOTES[choice.kind] % {"number": choice.entered_as} if choice is not None else ""


def recorded_name(record) -> str | None:
    """Who made ``record`` as its text says where no account is linked: a guest scorer
    ("Guest: Jonas", leagues/table/guest_marks.py), or the name an imported league's file
    gave; None when there is none."""
    name = record.history_user_name
    if name and record.history_user_id is None and guest_marks.link_id(record.history_change_reason) is not None:
        return GUEST_NAME % {"name": name}
    return name


def history_kind(record, before):
    """What a historical record of a hand did, given the record before it: entered,
    corrected, deleted, restored or removed (for good); or, for a hand from the offline
    outbox whose number was taken, kept, replaced or discarded (its change reason says so)."""
    choice = outbox_choices.parse(getattr(record, "history_change_reason", None))
    if choice is not None:
        return choice.kind
    if record.history_type == "+":
        return "entered"
    if record.history_type == "-":
        return "removed"
    was_deleted = before is not None and before.deleted_at is not None
    if not was_deleted and record.deleted_at is not None:
        return "deleted"
    if was_deleted and record.deleted_at is None:
        return "restored"
    return "corrected"


def history_entries(*, records, live_numbers, module, names=None):
    """Who changed what and when, newest first, from the hands' historical records (oldest
    first), in the game's words. A save that changed nothing a player can see is left out.

    ``number`` is a live hand's number now; ``former`` a deleted hand's number when it was
    last on the sheet. ``by``: who did it, as the league knows him (``names``: {user id: his
    name}, hand_history.known_names), or the name an imported league's file gave; None for the
    system."""
    names = names or {}
    previous = {}
    entries = []
    last_number = {record.id: record.number for record in records if record.number is not None}
    lines_of = VersionLines()
    for record in records:
        before = previous.get(record.id)
        kind = history_kind(record, before)
        lines = lines_of(record, module=module)
        if kind in CHANGING_KINDS:
            old = lines_of(before, module=module) if before is not None else describe_payload(module=module, payload={})
            changes = _changes(old, lines)
        else:
            changes = []
        if kind != "corrected" or changes:
            number = live_numbers.get(record.id)
            former = None if record.id in live_numbers else last_number.get(record.id)
            entries.append(
                _history_entry(record, kind, names=names, numbers=(number, former), lines=lines, changes=changes)
            )
        previous[record.id] = record
    _mark_latest(entries)
    entries.reverse()
    return entries


def _changes(old_lines, lines):
    """What a correction changed, line by line in the game's words: the new lines' order,
    then lines the new version no longer has."""
    old = dict(old_lines)
    new = dict(lines)
    labels = list(new) + [label for label in old if label not in new]
    return [
        {"field": label, "old": old.get(label), "new": new.get(label)}
        for label in labels
        if old.get(label) != new.get(label)
    ]


def _history_entry(record, kind, *, names, numbers, lines, changes):
    """One line of the history for ``record``, which did ``kind``; ``numbers``: the hand's
    number now and, once deleted, its number when it was last on the sheet."""
    return {
        "when": record.history_date,
        "by": names.get(record.history_user_id) or recorded_name(record),
        "kind": kind,
        "what": HISTORY_LABELS[kind],
        "hand_id": record.id,
        "version": record.version,
        "number": numbers[0],
        "former": numbers[1],
        "note": outbox_note(record),
        "changes": changes,
        "summary": " · ".join(str(value) for _label, value in lines),
        "is_latest": False,
    }


def _mark_latest(entries):
    """Mark each hand's newest entry (``entries`` oldest first)."""
    seen = set()
    for entry in reversed(entries):
        entry["is_latest"] = entry["hand_id"] not in seen
        seen.add(entry["hand_id"])
