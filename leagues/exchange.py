"""A league's data out and in (issue 14 §4): everything as it was entered, nothing derived.

The JSON export holds the league, its players, its seasons, every meeting with its rules,
seats and hands (deleted ones too, each with its history of versions), the reopenings with
their reasons, and the stored bills. Derived figures (HandResult and the other caches) are not
in it: an import replays every meeting, so the imported league's standings, sheets and bills
are the engine's, not copied numbers. People are named by username for the record only: an
import never links a hand or a bill to an account of the instance it lands on (a username
there may be someone else); the importing user becomes the new league's admin.

The CSV export is for a spreadsheet: one row per live hand, each player's delta and running
total that evening.
"""

from __future__ import annotations

import csv
import datetime
import io
import uuid
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime, parse_time
from django.utils.translation import gettext as _

from . import services
from .models import (
    Hand,
    HandResult,
    League,
    Meeting,
    MeetingReopening,
    MeetingResult,
    Player,
    Season,
    SeasonBill,
    SeasonReopening,
    Seat,
)

FORMAT = "kartenliga-league"
VERSION = 1
NAME_MAX = Player._meta.get_field("name").max_length
REASON_LENGTH = Hand.history.model._meta.get_field("history_change_reason").max_length


def _user(user) -> str | None:
    return user.get_username() if user is not None else None


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def _money(value) -> str | None:
    return str(value) if value is not None else None


# --- out -----------------------------------------------------------------------------------


def export_league(*, league: League) -> dict[str, Any]:
    players = {p.pk: p.name for p in league.players.all()}
    meetings = (
        league.meetings.select_related("season", "closed_by", "created_by")
        .prefetch_related("seats", "reopenings__reopened_by", "reopenings__was_closed_by")
        .order_by("date", "id")
    )
    hands_of: dict[int, list[Hand]] = {}
    for hand in Hand.objects.filter(meeting__league=league).select_related("entered_by").order_by("position"):
        hands_of.setdefault(hand.meeting_id, []).append(hand)
    history_of: dict[int, list[Any]] = {}
    for record in (
        Hand.history.filter(meeting__league=league)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    ):
        history_of.setdefault(record.id, []).append(record)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "league": {
            "name": league.name,
            "slug": league.slug,
            "game": league.game,
            "variant": league.variant,
            "rule_overrides": league.rule_overrides,
        },
        "players": [{"name": p.name, "active": p.active} for p in league.players.order_by("name")],
        "seasons": [
            {
                "number": s.number,
                "started_on": _iso(s.started_on),
                "closed_on": _iso(s.closed_on),
                "locked_at": _iso(s.locked_at),
                "reopenings": [
                    {
                        "reason": r.reason,
                        "reopened_by": _user(r.reopened_by),
                        "reopened_at": _iso(r.reopened_at),
                        "was_locked_at": _iso(r.was_locked_at),
                    }
                    for r in s.reopenings.select_related("reopened_by")
                ],
                "bills": [_bill(b, players) for b in s.bills.select_related("settled_by").order_by("settled_at", "id")],
            }
            for s in league.seasons.order_by("number")
        ],
        "meetings": [_meeting(m, players, hands_of.get(m.pk, []), history_of) for m in meetings],
    }


def _bill(bill: SeasonBill, players: dict[int, str]) -> dict[str, Any]:
    return {
        "total": _money(bill.total),
        "tip_percent": _money(bill.tip_percent),
        "method": bill.method,
        "cents_per_point": _money(bill.cents_per_point),
        "paid_by": players.get(bill.paid_by_id),
        "paid": bill.paid,
        "total_with_tip": _money(bill.total_with_tip),
        "rate": _money(bill.rate),
        "shares": bill.shares,
        "transfers": bill.transfers,
        "scores": [list(pair) for pair in bill.score_map().items()],
        "chooser": players.get(bill.chooser_id),
        "settled_by": _user(bill.settled_by),
        "settled_at": _iso(bill.settled_at),
        "replaced_at": _iso(bill.replaced_at),
    }


def _meeting(meeting: Meeting, players, hands, history_of) -> dict[str, Any]:
    return {
        "season": meeting.season.number,
        "date": _iso(meeting.date),
        "end_time": _iso(meeting.end_time),
        "seats": [players[s.player_id] for s in sorted(meeting.seats.all(), key=lambda s: s.position)],
        "pennant_holder": players.get(meeting.pennant_holder_id),
        "pennant_forgotten": meeting.pennant_forgotten,
        "game": meeting.game,
        "variant": meeting.variant,
        "rules": meeting.rules,
        "teams": meeting.teams,
        "start_totals": meeting.start_totals,
        "created_at": _iso(meeting.created_at),
        "closed_at": _iso(meeting.closed_at),
        "closed_by": _user(meeting.closed_by),
        "reopenings": [
            {
                "reason": r.reason,
                "reopened_by": _user(r.reopened_by),
                "reopened_at": _iso(r.reopened_at),
                "was_closed_at": _iso(r.was_closed_at),
            }
            for r in meeting.reopenings.all()
        ],
        "hands": [
            {
                "position": h.position,
                "number": h.number,
                "version": h.version,
                "idempotency_key": str(h.idempotency_key) if h.idempotency_key else None,
                "payload": h.payload,
                "entered_by": _user(h.entered_by),
                "entered_at": _iso(h.entered_at),
                "deleted_at": _iso(h.deleted_at),
                "history": [
                    {
                        "type": r.history_type,
                        "at": _iso(r.history_date),
                        "by": _user(r.history_user),
                        "version": r.version,
                        "payload": r.payload,
                        "deleted_at": _iso(r.deleted_at),
                        # why it changed, where a reason was kept (an offline hand kept,
                        # replaced or discarded after a conflict: leagues/outbox_choices.py)
                        "reason": r.history_change_reason,
                    }
                    for r in history_of.get(h.pk, [])
                ],
            }
            for h in hands
        ],
        # An evening copied from paper as each player's total (leagues/paper_import.py): the
        # totals are what was entered, since it has no hands to replay.
        "imported_totals": _imported_totals(meeting, players) if meeting.imported_totals else None,
    }


def _imported_totals(meeting: Meeting, players) -> dict[str, int]:
    rows = MeetingResult.objects.filter(meeting=meeting).values_list("player_id", "total")
    return {players[player_id]: total for player_id, total in rows}


def export_csv(*, league: League) -> str:
    """One row per live hand: the season, the evening, the hand number and round, then each
    player's delta and running total that evening (empty when not at the table)."""
    players = list(league.players.order_by("name").values_list("name", flat=True))
    rows: dict[tuple[int, int], dict[str, Any]] = {}
    results = (
        HandResult.objects.filter(league=league)
        .select_related("player", "meeting", "season", "meeting__host")
        .order_by("meeting__date", "meeting_id", "number")
    )
    for r in results:
        row = rows.setdefault(
            (r.meeting_id, r.number),
            {
                "season": r.season.number,
                "date": r.meeting.date.isoformat(),
                "host": r.meeting.host.name,
                "hand": r.number,
                "round": r.round,
            },
        )
        row[f"{r.player.name} delta"] = r.delta
        row[f"{r.player.name} total"] = r.total
    out = io.StringIO()
    header = ["season", "date", "host", "hand", "round"]
    for name in players:
        header += [f"{name} delta", f"{name} total"]
    writer = csv.DictWriter(out, fieldnames=header, extrasaction="ignore")
    writer.writeheader()
    for row in rows.values():
        writer.writerow(row)
    return out.getvalue()


# --- in ------------------------------------------------------------------------------------


class ImportProblem(services.InvalidInput):
    """The file cannot be imported; ``errors`` name where in it (field "file")."""

    def __init__(self, where: str, message: str):
        super().__init__([{"hand": None, "field": "file", "message": f"{where}: {message}"}])


def _get(data: Any, key: str, where: str, kind, *, required=True):
    if not isinstance(data, dict):
        raise ImportProblem(where, _("an object was expected."))
    if key not in data or data[key] is None:
        if required:
            raise ImportProblem(f"{where}.{key}", _("missing."))
        return None
    value = data[key]
    if kind is not None and not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ImportProblem(f"{where}.{key}", _("not the expected kind of value."))
    return value


def _reason(record: dict, where: str) -> str | None:
    """A history record's reason, as short as the column that keeps it."""
    reason = _get(record, "reason", where, str, required=False)
    if reason is not None and len(reason) > REASON_LENGTH:
        raise ImportProblem(f"{where}.reason", _("at most %(n)s characters.") % {"n": REASON_LENGTH})
    return reason


def _parsed(parse, value, where: str):
    if value is None:
        return None
    parsed = parse(value) if isinstance(value, str) else None
    if parsed is None:
        raise ImportProblem(where, _("not a valid date or time: %(value)s") % {"value": str(value)[:40]})
    if isinstance(parsed, datetime.datetime) and timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, datetime.timezone.utc)
    return parsed


def _decimal(value, where: str, *, required=False):
    if value is None and not required:
        return None
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError) as error:
        raise ImportProblem(where, _("not an amount.")) from error


def _list(data, key, where):
    return _get(data, key, where, list, required=False) or []


@transaction.atomic
def import_league(*, data: Any, user, name: str, slug: str) -> League:
    """A new league from an export, ``user`` its admin; every meeting replayed in playing
    order. ImportProblem (nothing stored) when the file does not fit or a meeting does not
    replay under its own rules."""
    if _get(data, "format", "", str) != FORMAT:
        raise ImportProblem("format", _("this is not a Kartenliga league export."))
    if _get(data, "version", "", int) != VERSION:
        raise ImportProblem("version", _("this export's version cannot be read here."))
    source = _get(data, "league", "", dict)
    game = _get(source, "game", "league", str)
    variant = _get(source, "variant", "league", str)
    overrides = _get(source, "rule_overrides", "league", dict, required=False) or {}
    try:
        league = services.create_league(
            name=name, slug=slug, game=game, variant=variant, rule_overrides=overrides, user=user
        )
    except services.InvalidInput as error:
        raise ImportProblem("league", " ".join(e["message"] for e in error.errors)) from error
    # create_league makes a player for its founder; the export's players are the league's.
    league.players.filter(user=user).delete()
    players: dict[str, Player] = {}
    for i, item in enumerate(_list(data, "players", ""), start=1):
        where = f"players[{i}]"
        player_name = _get(item, "name", where, str)
        if not player_name.strip() or len(player_name) > NAME_MAX or player_name in players:
            raise ImportProblem(where, _("a name is empty, too long or given twice."))
        players[player_name] = Player.objects.create(
            league=league, name=player_name, active=bool(item.get("active", True))
        )

    def player(value, where, *, required=True):
        if value is None and not required:
            return None
        if value not in players:
            raise ImportProblem(where, _("%(name)s is not one of the players.") % {"name": str(value)[:40]})
        return players[value]

    seasons: dict[int, Season] = {}
    for i, item in enumerate(_list(data, "seasons", ""), start=1):
        where = f"seasons[{i}]"
        number = _get(item, "number", where, int)
        if number in seasons or number < 1:
            raise ImportProblem(where, _("season numbers must be distinct and from 1."))
        seasons[number] = Season.objects.create(
            league=league,
            number=number,
            started_on=_parsed(parse_date, _get(item, "started_on", where, str), f"{where}.started_on"),
            closed_on=_parsed(parse_date, item.get("closed_on"), f"{where}.closed_on"),
            locked_at=_parsed(parse_datetime, item.get("locked_at"), f"{where}.locked_at"),
        )
        for j, r in enumerate(_list(item, "reopenings", where), start=1):
            at = f"{where}.reopenings[{j}]"
            SeasonReopening.objects.create(
                season=seasons[number],
                reason=_get(r, "reason", at, str),
                reopened_at=_parsed(parse_datetime, _get(r, "reopened_at", at, str), f"{at}.reopened_at"),
                was_locked_at=_parsed(parse_datetime, _get(r, "was_locked_at", at, str), f"{at}.was_locked_at"),
            )

    meetings = []
    for i, item in enumerate(_list(data, "meetings", ""), start=1):
        meetings.append(_import_meeting(item, f"meetings[{i}]", league, seasons, player))

    # Replay every meeting in playing order, as the app would have: the cached figures are
    # the engine's. A meeting that no longer replays stops the import.
    for meeting in sorted(meetings, key=lambda m: (m.date, m.pk)):
        try:
            services.replay_meeting(meeting=meeting)
        except services.InvalidInput as error:
            where = f"meetings ({meeting.date.isoformat()})"
            raise ImportProblem(where, " ".join(e["message"] for e in error.errors)) from error

    for number, season in seasons.items():
        item = next(s for s in _list(data, "seasons", "") if s.get("number") == number)
        for j, bill in enumerate(_list(item, "bills", f"seasons[{number}]"), start=1):
            _import_bill(bill, f"seasons[{number}].bills[{j}]", season, player)
    return league


def _import_meeting(item, where, league, seasons, player) -> Meeting:
    number = _get(item, "season", where, int)
    if number not in seasons:
        raise ImportProblem(f"{where}.season", _("no such season in the file."))
    seats = [player(name, f"{where}.seats") for name in _get(item, "seats", where, list)]
    if not seats or len(set(seats)) != len(seats):
        raise ImportProblem(f"{where}.seats", _("each player sits at one seat only."))
    meeting = Meeting.objects.create(
        league=league,
        season=seasons[number],
        date=_parsed(parse_date, _get(item, "date", where, str), f"{where}.date"),
        host=seats[0],
        end_time=_parsed(parse_time, item.get("end_time"), f"{where}.end_time"),
        pennant_holder=player(item.get("pennant_holder"), f"{where}.pennant_holder", required=False),
        pennant_forgotten=bool(item.get("pennant_forgotten")),
        game=_get(item, "game", where, str),
        variant=_get(item, "variant", where, str),
        rules=_get(item, "rules", where, dict),
        teams=_get(item, "teams", where, dict, required=False),
        start_totals=_get(item, "start_totals", where, dict, required=False),
        closed_at=_parsed(parse_datetime, item.get("closed_at"), f"{where}.closed_at"),
    )
    if meeting.game != league.game:
        raise ImportProblem(f"{where}.game", _("a meeting of another game than its league's."))
    Seat.objects.bulk_create(Seat(meeting=meeting, player=p, position=i) for i, p in enumerate(seats))
    if item.get("imported_totals") is not None:
        if _list(item, "hands", where):
            raise ImportProblem(f"{where}.hands", _("an evening imported as totals has no hands."))
        _import_totals(meeting, _get(item, "imported_totals", where, dict), f"{where}.imported_totals", player)
    for j, r in enumerate(_list(item, "reopenings", where), start=1):
        at = f"{where}.reopenings[{j}]"
        MeetingReopening.objects.create(
            meeting=meeting,
            reason=_get(r, "reason", at, str),
            reopened_at=_parsed(parse_datetime, _get(r, "reopened_at", at, str), f"{at}.reopened_at"),
            was_closed_at=_parsed(parse_datetime, _get(r, "was_closed_at", at, str), f"{at}.was_closed_at"),
        )
    hands, records = [], []
    for j, h in enumerate(_list(item, "hands", where), start=1):
        at = f"{where}.hands[{j}]"
        deleted_at = _parsed(parse_datetime, h.get("deleted_at"), f"{at}.deleted_at")
        key = h.get("idempotency_key")
        try:
            key = uuid.UUID(key) if key else None
        except (ValueError, TypeError, AttributeError) as error:
            raise ImportProblem(f"{at}.idempotency_key", _("not a UUID.")) from error
        hand = Hand(
            meeting=meeting,
            position=_get(h, "position", at, int),
            number=None if deleted_at else _get(h, "number", at, int),
            version=_get(h, "version", at, int, required=False) or 1,
            idempotency_key=key,
            payload=_get(h, "payload", at, None),
            deleted_at=deleted_at,
        )
        hands.append((hand, h, at))
    # bulk_create: the history of each hand comes from the file, not from these inserts.
    Hand.objects.bulk_create([hand for hand, _item, _at in hands])
    History = Hand.history.model
    for hand, h, at in hands:
        entered = _parsed(parse_datetime, h.get("entered_at"), f"{at}.entered_at")
        if entered is not None:
            Hand.objects.filter(pk=hand.pk).update(entered_at=entered)
        for k, r in enumerate(_list(h, "history", at), start=1):
            rat = f"{at}.history[{k}]"
            kind = _get(r, "type", rat, str)
            if kind not in ("+", "~", "-"):
                raise ImportProblem(f"{rat}.type", _("one of +, ~ and -."))
            records.append(
                History(
                    id=hand.pk,
                    meeting_id=meeting.pk,
                    position=hand.position,
                    number=hand.number,
                    version=_get(r, "version", rat, int, required=False) or 1,
                    idempotency_key=hand.idempotency_key,
                    payload=_get(r, "payload", rat, None),
                    entered_at=entered or timezone.now(),
                    changed_at=_parsed(parse_datetime, _get(r, "at", rat, str), f"{rat}.at"),
                    deleted_at=_parsed(parse_datetime, r.get("deleted_at"), f"{rat}.deleted_at"),
                    history_date=_parsed(parse_datetime, _get(r, "at", rat, str), f"{rat}.at"),
                    history_type=kind,
                    history_change_reason=_reason(r, rat),
                )
            )
    History.objects.bulk_create(records)
    return meeting


def _import_totals(meeting: Meeting, totals: dict, where: str, player) -> None:
    """An evening imported from paper as totals: its MeetingResult rows, which the replay
    that follows keeps (services.write_results)."""
    seat_order = dict(meeting.seats.values_list("player_id", "position"))
    sums = {}
    for name, total in totals.items():
        who = player(name, where)
        if who.pk not in seat_order or not isinstance(total, int) or isinstance(total, bool):
            raise ImportProblem(f"{where}.{name}", _("a total of a player not at the table, or not a whole number."))
        sums[who.pk] = total
    if not sums:
        raise ImportProblem(where, _("no totals."))
    services.store_imported_totals(meeting=meeting, totals=sums)


def _import_bill(item, where, season, player) -> SeasonBill:
    return SeasonBill.objects.create(
        season=season,
        total=_decimal(_get(item, "total", where, str), f"{where}.total", required=True),
        tip_percent=_decimal(item.get("tip_percent"), f"{where}.tip_percent"),
        method=_get(item, "method", where, str),
        cents_per_point=_decimal(item.get("cents_per_point"), f"{where}.cents_per_point"),
        paid_by=player(item.get("paid_by"), f"{where}.paid_by", required=False),
        paid=_get(item, "paid", where, dict, required=False),
        total_with_tip=_decimal(_get(item, "total_with_tip", where, str), f"{where}.total_with_tip", required=True),
        rate=_decimal(item.get("rate"), f"{where}.rate"),
        shares=_get(item, "shares", where, dict),
        transfers=_get(item, "transfers", where, list, required=False) or [],
        scores=_get(item, "scores", where, list),
        chooser=player(item.get("chooser"), f"{where}.chooser", required=False),
        settled_at=_parsed(parse_datetime, _get(item, "settled_at", where, str), f"{where}.settled_at"),
        replaced_at=_parsed(parse_datetime, item.get("replaced_at"), f"{where}.replaced_at"),
    )
