"""A league's data out and in: everything as it was entered, nothing derived.

The JSON export holds the league, its players, its seasons, every meeting with its rules,
seats and hands (deleted ones too, each with its history of versions), the reopenings with
their reasons, and the stored bills. Derived figures (HandResult and the other caches) are not
in it: an import replays every meeting, so the imported league's standings, sheets and bills
are the engine's, not copied numbers. Who entered, changed, closed, reopened and settled what
is named as the league knows him (his player's name, else his login name): an import keeps
those names as text (the ``*_name`` columns, shown on the activity page), never as a link to
an account of the instance it lands on (a name there may be someone else's); the importing
user becomes the new league's admin.

An import is hostile input (anyone signed up can make one): leagues/import_checks.py says
how each value is read.

The CSV export is for a spreadsheet: one row per live hand, each player's delta and running
total that evening, its texts made safe for a spreadsheet (leagues/spreadsheet.py).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from scoring.registry import game_names, get_game

from . import import_bills, names, outbox_choices, paper_import, services, spreadsheet
from . import import_checks as checks
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

# The kinds of round a CSV row names (HandResult.round), in the reader's language.
# The CSV's first columns and its names for a hand's round, in the reader's language.
CSV_COLUMNS = (
    pgettext_lazy("a CSV column", "season"),
    pgettext_lazy("a CSV column", "date"),
    pgettext_lazy("a CSV column", "host"),
    pgettext_lazy("a CSV column", "hand"),
    pgettext_lazy("a CSV column", "round"),
)
CSV_ROUNDS = {
    "normal": pgettext_lazy("a round in a CSV", "normal"),
    "bock": pgettext_lazy("a round in a CSV", "bock"),
    "ramsch": pgettext_lazy("a round in a CSV", "ramsch"),
    "pflichtsolo": pgettext_lazy("a round in a CSV", "pflichtsolo"),
    "penalty": pgettext_lazy("a round in a CSV", "penalty"),
}

FORMAT = "kartenliga-league"
VERSION = 1
REASON_LENGTH = Hand.history.model._meta.get_field("history_change_reason").max_length


class _Who:
    """Who did something, as the league knows him: the name of his player in the league, else
    his login name (cut to a player name's length); where no account is linked, the name an
    import kept as text. None when nobody is known."""

    def __init__(self, league: League):
        self.players = dict(league.players.filter(user__isnull=False).values_list("user_id", "name"))

    def __call__(self, user, kept: str | None = None) -> str | None:
        if user is None:
            return kept or None
        try:
            return self.players.get(user.pk) or names.clean_name(user.get_username()[: names.MAX_LENGTH])
        except names.NameProblem:  # a login name from before names were checked
            return None


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def _money(value) -> str | None:
    return str(value) if value is not None else None


# --- out -----------------------------------------------------------------------------------


def export_league(*, league: League) -> dict[str, Any]:
    players = {p.pk: p.name for p in league.players.all()}
    who = _Who(league)
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
    seasons = league.seasons.select_related("locked_by").order_by("number")
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
        "seasons": [_season(s, players, who) for s in seasons],
        "meetings": [_meeting(m, players, hands_of.get(m.pk, []), history_of, who) for m in meetings],
    }


def _season(season: Season, players: dict[int, str], who: _Who) -> dict[str, Any]:
    bills = season.bills.select_related("settled_by").order_by("settled_at", "id")
    return {
        "number": season.number,
        "started_on": _iso(season.started_on),
        "closed_on": _iso(season.closed_on),
        "locked_at": _iso(season.locked_at),
        "locked_by": who(season.locked_by, season.locked_by_name) if season.locked_at else None,
        "reopenings": [
            {
                "reason": r.reason,
                "reopened_by": who(r.reopened_by, r.reopened_by_name),
                "reopened_at": _iso(r.reopened_at),
                "was_locked_at": _iso(r.was_locked_at),
            }
            for r in season.reopenings.select_related("reopened_by")
        ],
        "bills": [_bill(b, players, who) for b in bills],
    }


def _bill(bill: SeasonBill, players: dict[int, str], who: _Who) -> dict[str, Any]:
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
        "settled_by": who(bill.settled_by, bill.settled_by_name),
        "settled_at": _iso(bill.settled_at),
        "replaced_at": _iso(bill.replaced_at),
    }


def _meeting(meeting: Meeting, players, hands, history_of, who: _Who) -> dict[str, Any]:
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
        "closed_by": who(meeting.closed_by, meeting.closed_by_name) if meeting.closed_at else None,
        "reopenings": [
            {
                "reason": r.reason,
                "reopened_by": who(r.reopened_by, r.reopened_by_name),
                "reopened_at": _iso(r.reopened_at),
                "was_closed_at": _iso(r.was_closed_at),
                "was_closed_by": who(r.was_closed_by, r.was_closed_by_name),
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
                "entered_by": who(h.entered_by),
                "entered_at": _iso(h.entered_at),
                "deleted_at": _iso(h.deleted_at),
                "history": [
                    {
                        "type": r.history_type,
                        "at": _iso(r.history_date),
                        "by": who(r.history_user, r.history_user_name),
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


def export_csv(*, league: League, language: str | None = None) -> str:
    """One row per live hand: the season, the evening, the hand number and round, then each
    player's delta and running total that evening (empty when not at the table). Headers,
    dates, rounds and the spreadsheet's dialect in ``language`` (default: the active one)."""
    language = language or translation.get_language()
    dialect = spreadsheet.dialect_for(language)
    players = list(league.players.order_by("name").values_list("name", flat=True))
    with translation.override(language):
        columns = [str(name) for name in CSV_COLUMNS]
        rounds = {code: str(name) for code, name in CSV_ROUNDS.items()}
        of_player = {
            name: (
                pgettext("a CSV column", "%(name)s delta") % {"name": name},
                pgettext("a CSV column", "%(name)s total") % {"name": name},
            )
            for name in players
        }
    rows: dict[tuple[int, int], dict[str, Any]] = {}
    results = (
        HandResult.objects.filter(league=league)
        .select_related("player", "meeting", "season", "meeting__host")
        .order_by("meeting__date", "meeting_id", "number")
    )
    for r in results:
        row = rows.setdefault(
            (r.meeting_id, r.number),
            dict(
                zip(
                    columns,
                    (
                        r.season.number,
                        r.meeting.date.strftime(dialect.day),
                        r.meeting.host.name,
                        r.number,
                        rounds.get(r.round, r.round),
                    ),
                    strict=True,
                )
            ),
        )
        delta, total = of_player[r.player.name]
        row[delta] = r.delta
        row[total] = r.total
    header = list(columns)
    for name in players:
        header += of_player[name]
    return spreadsheet.csv_text(header, rows.values(), dialect=dialect)


# --- in ------------------------------------------------------------------------------------
# Every value is read through leagues/import_checks.py (the rules the pages keep), and all of
# it in one transaction: a refusal anywhere stores nothing.

ImportProblem = checks.ImportProblem


@transaction.atomic
def import_league(*, data: Any, user, name: str, slug: str) -> League:
    """A new league from an export, ``user`` its admin; every meeting replayed in playing
    order. ImportProblem (nothing stored) when the file does not fit or a meeting does not
    replay under its own rules."""
    checks.check_document(data)
    if checks.value(data, "format", "", str) != FORMAT:
        raise ImportProblem("format", _("this is not a Kartenliga league export."))
    if checks.value(data, "version", "", int) != VERSION:
        raise ImportProblem("version", _("this export's version cannot be read here."))
    source = checks.value(data, "league", "", dict)
    game = checks.value(source, "game", "league", str)
    if game not in game_names():
        raise ImportProblem("league.game", _("not a game of this app."))
    try:
        league = services.create_league(
            name=name,
            slug=slug,
            game=game,
            variant=checks.value(source, "variant", "league", str),
            rule_overrides=checks.value(source, "rule_overrides", "league", dict, required=False) or {},
            user=user,
        )
    except services.InvalidInput as error:
        raise ImportProblem("league", " ".join(e["message"] for e in error.errors)) from error
    # create_league makes a player for its founder; the export's players are the league's.
    league.players.filter(user=user).delete()
    player = checks.Players()
    for i, item in enumerate(checks.items(data, "players", ""), start=1):
        where = f"players[{i}]"
        player_name = player.check_new(checks.value(item, "name", where, str), f"{where}.name")
        active = checks.flag(item, "active", where, default=True)
        player.by_name[player_name] = Player.objects.create(league=league, name=player_name, active=active)
    seasons = {}
    for i, item in enumerate(checks.items(data, "seasons", ""), start=1):
        season = _import_season(item, f"seasons[{i}]", league, taken=seasons)
        seasons[season.number] = (season, item, f"seasons[{i}]")
    meetings = [
        _import_meeting(item, f"meetings[{i}]", league, seasons, player)
        for i, item in enumerate(checks.items(data, "meetings", ""), start=1)
    ]
    # A season starts with its first evening (services.start_meeting): the pages of a season
    # without one have nothing to show.
    played = {meeting.season.number for meeting, _where in meetings}
    for number, (_season, _item, where) in seasons.items():
        if number not in played:
            raise ImportProblem(where, _("a season without evenings."))
    # Replay every meeting in playing order, as the app would have: the cached figures are
    # the engine's. A meeting that no longer replays stops the import.
    for meeting, where in sorted(meetings, key=lambda m: (m[0].date, m[0].pk)):
        try:
            services.replay_meeting(meeting=meeting)
        except services.InvalidInput as error:
            raise ImportProblem(where, _replay_problems(error)) from error
    for season, item, where in seasons.values():
        bills = checks.items(item, "bills", where)
        if sum(1 for bill in bills if not isinstance(bill, dict) or bill.get("replaced_at") is None) > 1:
            raise ImportProblem(f"{where}.bills", _("only one bill of a season is not replaced."))
        for j, bill in enumerate(bills, start=1):
            import_bills.import_bill(bill, f"{where}.bills[{j}]", season, player)
    return league


def _replay_problems(error: services.InvalidInput) -> str:
    """The engine's problems with a meeting, each with the number of its hand on the sheet."""
    return " ".join(
        e["message"]
        if e.get("hand") is None
        else _("hand %(n)s: %(message)s") % {"n": e["hand"], "message": e["message"]}
        for e in error.errors
    )


def _import_season(item, where, league, *, taken) -> Season:
    number = checks.whole(item, "number", where, model=Season, field="number", least=1)
    if number in taken:
        raise ImportProblem(f"{where}.number", _("season numbers must be distinct."))
    season = Season.objects.create(
        league=league,
        number=number,
        started_on=checks.day(item, "started_on", where),
        closed_on=checks.day(item, "closed_on", where, required=False),
        locked_at=checks.moment(item, "locked_at", where, required=False),
    )
    if season.locked_at is not None:
        season.locked_by_name = checks.who(item, "locked_by", where) or None
        season.save(update_fields=["locked_by_name"])
    for j, r in enumerate(checks.items(item, "reopenings", where), start=1):
        at = f"{where}.reopenings[{j}]"
        SeasonReopening.objects.create(
            season=season,
            reason=checks.reason(r, "reason", at),
            reopened_by_name=checks.who(r, "reopened_by", at) or None,
            reopened_at=checks.moment(r, "reopened_at", at),
            was_locked_at=checks.moment(r, "was_locked_at", at),
        )
    return season


def _seated(item, where, league, player) -> list[Player]:
    seats = [player(name, f"{where}.seats") for name in checks.value(item, "seats", where, list)]
    if not seats or len(set(seats)) != len(seats):
        raise ImportProblem(f"{where}.seats", _("each player sits at one seat only."))
    spec = get_game(league.game)
    if not spec.min_players <= len(seats) <= spec.max_players:
        raise ImportProblem(
            f"{where}.seats",
            _("%(min)s to %(max)s players at the table.") % {"min": spec.min_players, "max": spec.max_players},
        )
    return seats


def _meeting_rules(item, where, league) -> tuple[str, dict]:
    """The meeting's game, rule set and rules, checked as a league's house rules are."""
    if checks.value(item, "game", where, str) != league.game:
        raise ImportProblem(f"{where}.game", _("a meeting of another game than its league's."))
    variant = checks.value(item, "variant", where, str)
    rules = checks.value(item, "rules", where, dict)
    try:
        return variant, services.resolved_rules(game=league.game, variant=variant, overrides=rules)
    except services.InvalidInput as error:
        raise ImportProblem(f"{where}.rules", " ".join(e["message"] for e in error.errors)) from error


def _import_meeting(item, where, league, seasons, player) -> tuple[Meeting, str]:
    number = checks.value(item, "season", where, int)
    if number not in seasons:
        raise ImportProblem(f"{where}.season", _("no such season in the file."))
    seats = _seated(item, where, league, player)
    variant, rules = _meeting_rules(item, where, league)
    closed_at = checks.moment(item, "closed_at", where, required=False)
    meeting = Meeting.objects.create(
        league=league,
        season=seasons[number][0],
        date=checks.day(item, "date", where),
        host=seats[0],
        end_time=checks.clock(item, "end_time", where),
        pennant_holder=player(item.get("pennant_holder"), f"{where}.pennant_holder", required=False),
        pennant_forgotten=checks.flag(item, "pennant_forgotten", where, default=False),
        game=league.game,
        variant=variant,
        rules=rules,
        teams=checks.value(item, "teams", where, dict, required=False),
        start_totals=checks.value(item, "start_totals", where, dict, required=False),
        closed_at=closed_at,
        closed_by_name=(checks.who(item, "closed_by", where) or None) if closed_at else None,
    )
    Seat.objects.bulk_create(Seat(meeting=meeting, player=p, position=i) for i, p in enumerate(seats))
    if item.get("imported_totals") is not None:
        if checks.items(item, "hands", where):
            raise ImportProblem(f"{where}.hands", _("an evening imported as totals has no hands."))
        totals = checks.value(item, "imported_totals", where, dict)
        _import_totals(meeting, totals, f"{where}.imported_totals", player)
    for j, r in enumerate(checks.items(item, "reopenings", where), start=1):
        at = f"{where}.reopenings[{j}]"
        MeetingReopening.objects.create(
            meeting=meeting,
            reason=checks.reason(r, "reason", at),
            reopened_by_name=checks.who(r, "reopened_by", at) or None,
            reopened_at=checks.moment(r, "reopened_at", at),
            was_closed_at=checks.moment(r, "was_closed_at", at),
            was_closed_by_name=checks.who(r, "was_closed_by", at) or None,
        )
    _import_hands(item, where, meeting)
    return meeting, where


def _read_hand(h, at, meeting) -> Hand:
    deleted_at = checks.moment(h, "deleted_at", at, required=False)
    key = checks.value(h, "idempotency_key", at, str, required=False)
    try:
        key = uuid.UUID(key) if key else None
    except ValueError as error:
        raise ImportProblem(f"{at}.idempotency_key", _("not a UUID.")) from error
    return Hand(
        meeting=meeting,
        position=checks.whole(h, "position", at, model=Hand, field="position"),
        # Live hands are numbered 1, 2, ... as the sheet has them (checked below).
        number=None if deleted_at else checks.whole(h, "number", at, model=Hand, field="number", least=1),
        version=checks.whole(h, "version", at, model=Hand, field="version", least=1, required=False) or 1,
        idempotency_key=key,
        payload=_shown(h, at),
        deleted_at=deleted_at,
    )


def _import_hands(item, where, meeting) -> None:
    read = [(_read_hand(h, f"{where}.hands[{j}]", meeting), h, f"{where}.hands[{j}]")
            for j, h in enumerate(checks.items(item, "hands", where), start=1)]  # fmt: skip
    hands = [hand for hand, _h, _at in read]
    if len({h.position for h in hands}) != len(hands):
        raise ImportProblem(f"{where}.hands", _("each hand has a position of its own."))
    keys = [h.idempotency_key for h in hands if h.idempotency_key]
    if len(set(keys)) != len(keys):
        raise ImportProblem(f"{where}.hands", _("each idempotency key belongs to one hand."))
    live = sorted((h for h in hands if h.deleted_at is None), key=lambda h: h.position)
    if [h.number for h in live] != list(range(1, len(live) + 1)):
        raise ImportProblem(f"{where}.hands", _("the live hands are numbered 1, 2, … in the order of their positions."))
    # bulk_create: the history of each hand comes from the file, not from these inserts.
    Hand.objects.bulk_create(hands)
    History = Hand.history.model
    records = []
    for hand, h, at in read:
        entered = checks.moment(h, "entered_at", at, required=False)
        if entered is not None:
            Hand.objects.filter(pk=hand.pk).update(entered_at=entered)
        for k, r in enumerate(checks.items(h, "history", at), start=1):
            records.append(_history_record(History, r, f"{at}.history[{k}]", hand, entered))
    History.objects.bulk_create(records)


def _history_record(History, r, at, hand, entered):
    kind = checks.value(r, "type", at, str)
    if kind not in ("+", "~", "-"):
        raise ImportProblem(f"{at}.type", _("one of +, ~ and -."))
    when = checks.moment(r, "at", at)
    return History(
        id=hand.pk,
        meeting_id=hand.meeting_id,
        position=hand.position,
        number=hand.number,
        version=checks.whole(r, "version", at, model=Hand, field="version", least=1, required=False) or 1,
        idempotency_key=hand.idempotency_key,
        payload=_shown(r, at),
        entered_at=entered or timezone.now(),
        changed_at=when,
        deleted_at=checks.moment(r, "deleted_at", at, required=False),
        history_date=when,
        history_type=kind,
        history_user_name=checks.who(r, "by", at) or None,
        history_change_reason=_reason(r, at),
    )


def _shown(item, where) -> dict:
    """A hand's payload, or one of its earlier versions: a JSON object. The replay checks the
    live hands as the engine reads them; a deleted hand or an earlier version is only ever
    shown, and a shape the game cannot read is shown field by field (selectors.describe_payload)."""
    return checks.value(item, "payload", where, dict)


def _reason(record: dict, where: str) -> str | None:
    """A history record's reason: the offline outbox's choice it records (the only reason the
    app writes: leagues/outbox_choices.py), as short as the column that keeps it."""
    reason = checks.value(record, "reason", where, str, required=False)
    if reason is not None and (len(reason) > REASON_LENGTH or outbox_choices.parse(reason) is None):
        raise ImportProblem(f"{where}.reason", _("not a reason this app writes."))
    return reason


def _import_totals(meeting: Meeting, totals: dict, where: str, player) -> None:
    """An evening imported from paper as totals: its MeetingResult rows, which the replay
    that follows keeps (services.write_results). Totals as the paper import takes them."""
    seat_order = dict(meeting.seats.values_list("player_id", "position"))
    sums = {}
    for name, total in totals.items():
        who = player(name, where)
        if who.pk not in seat_order or not isinstance(total, int) or isinstance(total, bool):
            raise ImportProblem(f"{where}.{name}", _("a total of a player not at the table, or not a whole number."))
        if abs(total) > paper_import.MAX_TOTAL:
            raise ImportProblem(
                f"{where}.{name}", _("a total from −%(max)s to %(max)s.") % {"max": paper_import.MAX_TOTAL}
            )
        sums[who.pk] = total
    if not sums:
        raise ImportProblem(where, _("no totals."))
    services.store_imported_totals(meeting=meeting, totals=sums)
