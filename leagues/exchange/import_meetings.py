"""The seasons and meetings of a league export (leagues/exchange/league_file.py), each read and stored as
the pages store them: a meeting with its seats, rules, reopenings, hands and the hands'
history, or with the totals of an evening copied from paper. Every value goes through
leagues/exchange/import_checks.py; the replay that makes the figures comes after (exchange.import_league).
"""

from __future__ import annotations

import uuid

from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from leagues import exceptions
from leagues.cashbox.rules import money_on
from leagues.clubs import services
from leagues.exchange import import_checks as checks
from leagues.exchange import paper_reading, tournament_file
from leagues.exchange.import_checks import ImportProblem
from leagues.models import Hand, Meeting, MeetingReopening, Player, Season, SeasonReopening, Seat
from leagues.table import guest_marks, outbox_choices, results
from scoring.errors import ScoringError
from scoring.money_rules import resolve_money_rules
from scoring.registry import get_game

REASON_LENGTH = Hand.history.model._meta.get_field("history_change_reason").max_length


def import_season(item, where, league, *, taken) -> Season:
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
    except exceptions.InvalidInput as error:
        raise ImportProblem(f"{where}.rules", " ".join(e["message"] for e in error.errors)) from error


def checked_money_rules(item, where, *, resolved: bool) -> dict | None:
    """The money rules under ``money_rules`` (none when absent), checked as the house rules
    form checks them: a league's as its overrides, a meeting's resolved (None when they
    cost nothing, as a meeting that starts copies them)."""
    money = checks.value(item, "money_rules", where, dict, required=False)
    if money is None:
        return None
    try:
        rules = resolve_money_rules(money)
    except ScoringError as error:
        raise ImportProblem(f"{where}.money_rules", " ".join(p.render(gettext) for p in error.problems)) from error
    if resolved:
        return rules if money_on(rules) else None
    return {name: rules[name] for name in money}  # the overrides, the rate in its canonical form


def import_meeting(item, where, league, seasons, player, nights) -> Meeting:
    """The meeting ``item`` at ``where``; ``nights`` (``night_file.Nights``): the file's club
    nights, of which it may be a table. A table's host is its night's; an evening at one table
    is hosted by the first in seat order, as the start page opens it. A table of a
    tournament's round may plan its games or matches."""
    number = checks.value(item, "season", where, int)
    if number not in seasons:
        raise ImportProblem(f"{where}.season", _("no such season in the file."))
    seats = _seated(item, where, league, player)
    season, date = seasons[number][0], checks.day(item, "date", where)
    table = nights.table(item, where, season=season, date=date, seats=seats)
    in_round = table is not None and table.night.tournament_id is not None
    planned = tournament_file.planned(item, where, in_round=in_round)
    variant, rules = _meeting_rules(item, where, league)
    closed_at = checks.moment(item, "closed_at", where, required=False)
    meeting = Meeting.objects.create(
        league=league,
        season=season,
        date=date,
        host=seats[0] if table is None else table.host,
        club_night=None if table is None else table.night,
        table_number=None if table is None else table.number,
        **planned,
        end_time=checks.clock(item, "end_time", where),
        pennant_holder=player(item.get("pennant_holder"), f"{where}.pennant_holder", required=False),
        pennant_forgotten=checks.flag(item, "pennant_forgotten", where, default=False),
        game=league.game,
        variant=variant,
        rules=rules,
        money_rules=checked_money_rules(item, where, resolved=True),
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
    return meeting


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
    _check_hands([hand for hand, _h, _at in read], f"{where}.hands")
    # bulk_create: the history of each hand comes from the file, not from these inserts.
    Hand.objects.bulk_create([hand for hand, _h, _at in read])
    History = Hand.history.model
    records, entered_at = [], []
    for hand, h, at in read:
        entered = checks.moment(h, "entered_at", at, required=False)
        if entered is not None:
            hand.entered_at = entered  # after the insert, which sets it to now (auto_now_add)
            entered_at.append(hand)
        records += [
            _history_record(History, r, f"{at}.history[{k}]", hand, entered)
            for k, r in enumerate(checks.items(h, "history", at), start=1)
        ]
    Hand.objects.bulk_update(entered_at, ["entered_at"])
    History.objects.bulk_create(records)


def _check_hands(hands: list[Hand], where: str) -> None:
    """An evening's hands hold their places: positions and keys of their own, the live ones
    numbered as the sheet has them."""
    if len({h.position for h in hands}) != len(hands):
        raise ImportProblem(where, _("each hand has a position of its own."))
    keys = [h.idempotency_key for h in hands if h.idempotency_key]
    if len(set(keys)) != len(keys):
        raise ImportProblem(where, _("each idempotency key belongs to one hand."))
    live = sorted((h for h in hands if h.deleted_at is None), key=lambda h: h.position)
    if [h.number for h in live] != list(range(1, len(live) + 1)):
        raise ImportProblem(where, _("the live hands are numbered 1, 2, … in the order of their positions."))


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
    """A history record's reason: the offline outbox's choice it records, or the guest's
    scorer link that entered it (the only reasons the app writes: leagues/table/
    outbox_choices.py, guest_marks.py), as short as the column that keeps it."""
    reason = checks.value(record, "reason", where, str, required=False)
    known = reason is not None and (outbox_choices.parse(reason) is not None or guest_marks.link_id(reason) is not None)
    if reason is not None and (len(reason) > REASON_LENGTH or not known):
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
        if abs(total) > paper_reading.MAX_TOTAL:
            raise ImportProblem(
                f"{where}.{name}", _("a total from −%(max)s to %(max)s.") % {"max": paper_reading.MAX_TOTAL}
            )
        sums[who.pk] = total
    if not sums:
        raise ImportProblem(where, _("no totals."))
    results.store_imported_totals(meeting=meeting, totals=sums)
