"""A league's data out and in: everything as it was entered, nothing derived.

The JSON export holds the league, its players, its seasons, its tournaments with their
entrants and pairs or teams (leagues/exchange/tournament_file.py), its club nights (evenings
at several tables, a tournament's rounds among them: leagues/exchange/night_file.py), every
meeting with its rules, seats and hands
(deleted ones too, each with its history of versions), the reopenings with their reasons, the
stored bills, and the league's money: the cashbox's ledger and counts and
the payments ticked (leagues/exchange/money_file.py; never a member's bank account). Derived figures (HandResult and the other caches) are not
in it: an import replays every meeting, so the imported league's standings, sheets and bills
are the engine's, not copied numbers. Who entered, changed, closed, reopened and settled what
is named as the league knows him (his player's name, else his login name): an import keeps
those names as text (the ``*_name`` columns, shown on the activity page), never as a link to
an account of the instance it lands on (a name there may be someone else's); the importing
user becomes the new league's admin.

An import is hostile input (anyone signed up can make one): leagues/exchange/import_checks.py says
how each value is read.

The CSV export is for a spreadsheet: one row per live hand, each player's delta and running
total that evening, its texts made safe for a spreadsheet (leagues/exchange/spreadsheet.py).

Both exports are written as they are read, some evenings at a time, in pieces of text that
the views stream; an import decodes one meeting of its file at a time. A league's whole
history is never in memory at once, so a league of any size exports and imports alike.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from leagues import exceptions
from leagues.clubs import names, services
from leagues.exchange import import_bills, import_meetings, money_file, night_file, spreadsheet, tournament_file
from leagues.exchange import import_checks as checks
from leagues.models import Hand, HandResult, League, Meeting, MeetingCarry, MeetingResult, Player, Season, SeasonBill
from leagues.stats import ratings, statistics
from leagues.table import results as table_results
from scoring.registry import game_names

# The CSV's first columns and its names for a hand's round, in the reader's language.
CSV_COLUMNS = (
    pgettext_lazy("a CSV column", "season"),
    pgettext_lazy("a CSV column", "date"),
    pgettext_lazy("a CSV column", "host"),
    # The table of a club night (empty for an evening at one table).
    pgettext_lazy("a CSV column", "table"),
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

# A hand's result as the CSV reads it: the hand, then its evening, then the player's figures.
_CSV_FIELDS = ("meeting_id", "number", "season__number", "meeting__date", "meeting__host__name")
_CSV_FIELDS += ("meeting__table_number", "round")
_CSV_FIELDS += ("player__name", "delta", "total")

FORMAT = "kartenliga-league"
VERSION = 1
# The evenings an export reads at once (an evening with its hands and their history is some
# 40 kB of JSON), and the hands' results its CSV reads at once (four or five a hand).
MEETINGS_AT_ONCE = 25
CSV_RESULTS_AT_ONCE = 2000
# An import tells its progress every so many evenings (manage.py import_league prints it).
PROGRESS_EVERY = 40


class _Who:
    """Who did something (his account's id), as the league knows him: the name of his player
    in the league, else his login name (cut to a player name's length); where no account is
    linked, the name an import kept as text. None when nobody is known. The few accounts of
    a league are each looked up once, not with every hand."""

    def __init__(self, league: League):
        self.names = dict(league.players.filter(user__isnull=False).values_list("user_id", "name"))

    def __call__(self, user_id: int | None, kept: str | None = None) -> str | None:
        if user_id is not None and user_id not in self.names:
            self.names[user_id] = self._login_name(user_id)
        name = self.names.get(user_id)
        return (kept or None) if name is None else name or None

    @staticmethod
    def _login_name(user_id: int) -> str | None:
        """The account's login name as a player's name ("" when it cannot be one: a login name
        from before names were checked); None for an account that is gone."""
        User = get_user_model()
        login = User.objects.filter(pk=user_id).values_list(User.USERNAME_FIELD, flat=True).first()
        if login is None:
            return None
        try:
            return names.clean_name(str(login)[: names.MAX_LENGTH])
        except names.NameProblem:
            return ""


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def _money(value) -> str | None:
    return str(value) if value is not None else None


# --- out -----------------------------------------------------------------------------------


def export_json(*, league: League, compact: bool = False) -> Iterator[str]:
    """The league's export as JSON text, in pieces that join to what ``json.dumps`` writes of
    the whole: indented by one space (the file the league page downloads), or ``compact``
    (the API's answer). The league, its players and seasons are read at once; the meetings,
    the bulk of a league, some evenings at a time as the pieces are asked for."""
    players = dict(league.players.values_list("pk", "name"))
    who = _Who(league)
    seasons = league.seasons.order_by("number")
    tournaments, tournament_places = tournament_file.export_tournaments(league, players, who)
    nights, night_places = night_file.export_nights(league, players, who, tournament_places)
    head = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "league": {
            "name": league.name,
            "slug": league.slug,
            "game": league.game,
            "variant": league.variant,
            "rule_overrides": league.rule_overrides,
            "money_rules": league.money_rules,
            "combine_tables": league.combine_tables,
        },
        "players": [{"name": p.name, "active": p.active} for p in league.players.order_by("name")],
        "seasons": [_season(s, players, who) for s in seasons],
        # Tournaments with their entrants and pairs or teams; each round names its tournament.
        tournament_file.KEY: tournaments,
        # Evenings played at several tables at once; each table names its night.
        night_file.KEY: nights,
        # The cashbox's ledger and counts and the payments ticked (never a bank account).
        **money_file.export_money(league, players, who),
    }
    meetings = _meetings(league, players, who, night_places)
    return _json_pieces(head, "meetings", meetings, indent=None if compact else 1)


def _json_pieces(head: dict, key: str, items: Iterator[Any], *, indent: int | None) -> Iterator[str]:
    """``head`` with a list of ``items`` under ``key`` last, in the pieces of its JSON: the
    head, then an item at a time, written as ``json.dumps`` of the whole would write them."""

    def dumps(value):
        separators = None if indent else (",", ":")
        return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False, indent=indent, separators=separators)

    end = "\n}" if indent else "}"
    yield dumps({**head, key: []})[: -len("[]" + end)]
    # An item sits two levels deep: each of its lines moves in twice (a line break inside a
    # text is written escaped, so every line break is the layout's).
    step = "\n" + " " * 2 * indent if indent else ""
    opened = False
    for item in items:
        yield ("," if opened else "[") + step + dumps(item).replace("\n", step)
        opened = True
    yield (step[: len(step) - (indent or 0)] + "]" if opened else "[]") + end


def _meetings(league: League, players: dict[int, str], who: _Who, nights: dict[int, int]) -> Iterator[dict[str, Any]]:
    """Each meeting of the league as the export has it, in playing order, read
    ``MEETINGS_AT_ONCE`` at a time with their hands and the hands' history. ``nights``: each
    club night's place in the file, by its id."""
    meetings = (
        league.meetings.select_related("season")
        .prefetch_related("seats", "reopenings")
        .order_by("date", "id")
        .iterator(chunk_size=MEETINGS_AT_ONCE)
    )
    while batch := list(itertools.islice(meetings, MEETINGS_AT_ONCE)):
        hands_of = _hands_of([meeting.pk for meeting in batch], who)
        for meeting in batch:
            yield _meeting(meeting, players, hands_of[meeting.pk], who, nights)


# What the export reads of a hand and of each of its versions.
_HISTORY_FIELDS = ("id", "history_type", "history_date", "history_user_id", "history_user_name", "version")
_HISTORY_FIELDS += ("payload", "deleted_at", "history_change_reason")
_HAND_FIELDS = ("id", "meeting_id", "position", "number", "version", "idempotency_key", "payload")
_HAND_FIELDS += ("entered_by_id", "entered_at", "deleted_at")


def _hands_of(meeting_ids: list[int], who: _Who) -> dict[int, list[dict[str, Any]]]:
    """The hands of these meetings as the export has them, deleted ones too, each with the
    history of its versions, by meeting. Read as rows, not model instances: a big league has
    tens of thousands of each."""
    history_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    records = Hand.history.filter(meeting_id__in=meeting_ids).order_by("history_date", "history_id")
    for r in records.values(*_HISTORY_FIELDS):
        history_of[r["id"]].append(
            {
                "type": r["history_type"],
                "at": _iso(r["history_date"]),
                "by": who(r["history_user_id"], r["history_user_name"]),
                "version": r["version"],
                "payload": r["payload"],
                "deleted_at": _iso(r["deleted_at"]),
                # why it changed, where a reason was kept (an offline hand kept, replaced or
                # discarded after a conflict: leagues/table/outbox_choices.py)
                "reason": r["history_change_reason"],
            }
        )
    hands_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for h in Hand.objects.filter(meeting_id__in=meeting_ids).order_by("position").values(*_HAND_FIELDS):
        hands_of[h["meeting_id"]].append(
            {
                "position": h["position"],
                "number": h["number"],
                "version": h["version"],
                "idempotency_key": str(h["idempotency_key"]) if h["idempotency_key"] else None,
                "payload": h["payload"],
                "entered_by": who(h["entered_by_id"]),
                "entered_at": _iso(h["entered_at"]),
                "deleted_at": _iso(h["deleted_at"]),
                "history": history_of.get(h["id"], []),
            }
        )
    return hands_of


def _season(season: Season, players: dict[int, str], who: _Who) -> dict[str, Any]:
    bills = season.bills.order_by("settled_at", "id")
    return {
        "number": season.number,
        "started_on": _iso(season.started_on),
        "closed_on": _iso(season.closed_on),
        "locked_at": _iso(season.locked_at),
        "locked_by": who(season.locked_by_id, season.locked_by_name) if season.locked_at else None,
        "reopenings": [
            {
                "reason": r.reason,
                "reopened_by": who(r.reopened_by_id, r.reopened_by_name),
                "reopened_at": _iso(r.reopened_at),
                "was_locked_at": _iso(r.was_locked_at),
            }
            for r in season.reopenings.all()
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
        "from_cashbox": _money(bill.from_cashbox),
        "rate": _money(bill.rate),
        "shares": bill.shares,
        "transfers": bill.transfers,
        "scores": bill.stored_scores(),
        "chooser": players.get(bill.chooser_id),
        "settled_by": who(bill.settled_by_id, bill.settled_by_name),
        "settled_at": _iso(bill.settled_at),
        "replaced_at": _iso(bill.replaced_at),
    }


def _meeting(meeting: Meeting, players, hands, who: _Who, nights: dict[int, int]) -> dict[str, Any]:
    return {
        "season": meeting.season.number,
        "date": _iso(meeting.date),
        # A table of a club night: the night's place in club_nights and the table's number.
        **night_file.meeting_fields(meeting, nights),
        # A table of a tournament's round: the games or the matches it plays.
        **tournament_file.meeting_fields(meeting),
        "end_time": _iso(meeting.end_time),
        "seats": [players[s.player_id] for s in sorted(meeting.seats.all(), key=lambda s: s.position)],
        "pennant_holder": players.get(meeting.pennant_holder_id),
        "pennant_forgotten": meeting.pennant_forgotten,
        "game": meeting.game,
        "variant": meeting.variant,
        "rules": meeting.rules,
        "money_rules": meeting.money_rules,
        "teams": meeting.teams,
        "start_totals": meeting.start_totals,
        "created_at": _iso(meeting.created_at),
        "closed_at": _iso(meeting.closed_at),
        "closed_by": who(meeting.closed_by_id, meeting.closed_by_name) if meeting.closed_at else None,
        "reopenings": [
            {
                "reason": r.reason,
                "reopened_by": who(r.reopened_by_id, r.reopened_by_name),
                "reopened_at": _iso(r.reopened_at),
                "was_closed_at": _iso(r.was_closed_at),
                "was_closed_by": who(r.was_closed_by_id, r.was_closed_by_name),
            }
            for r in meeting.reopenings.all()
        ],
        "hands": hands,
        # An evening copied from paper as each player's total (leagues/exchange/paper_import.py): the
        # totals are what was entered, since it has no hands to replay.
        "imported_totals": _imported_totals(meeting, players) if meeting.imported_totals else None,
    }


def _imported_totals(meeting: Meeting, players) -> dict[str, int]:
    rows = MeetingResult.objects.filter(meeting=meeting).values_list("player_id", "total")
    return {players[player_id]: total for player_id, total in rows}


def export_csv(*, league: League, language: str | None = None) -> Iterator[str]:
    """One row per live hand: the season, the evening (its date, host and, at a club night, its
    table), the hand number and round, then each player's delta and running total that evening
    (empty when not at the table). Headers, dates, rounds and the spreadsheet's dialect in
    ``language`` (default: the active one). The text in pieces, the hands' figures read as
    they are written."""
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
    header = list(columns)
    for name in players:
        header += of_player[name]
    results = (
        HandResult.objects.filter(league=league)
        .order_by("meeting__date", "meeting_id", "number")
        .values_list(*_CSV_FIELDS)
        .iterator(chunk_size=CSV_RESULTS_AT_ONCE)
    )
    rows = _csv_rows(results, columns=columns, rounds=rounds, of_player=of_player, day=dialect.day)
    return spreadsheet.csv_chunks(header, rows, dialect=dialect)


def _csv_rows(results, *, columns, rounds, of_player, day) -> Iterator[dict[str, Any]]:
    """A row per hand from its players' results, which come one after another."""
    for (_meeting_id, number), of_hand in itertools.groupby(results, key=lambda r: r[:2]):
        row = None
        for _m, _n, season, date, host, table, kind, player, delta, total in of_hand:
            if row is None:
                cells = (season, date.strftime(day), host, table or "", number, rounds.get(kind, kind))
                row = dict(zip(columns, cells, strict=True))
            row.update(zip(of_player[player], (delta, total), strict=True))
        yield row


# --- in ------------------------------------------------------------------------------------
# Every value is read through leagues/exchange/import_checks.py (the rules the pages keep), and all of
# it in one transaction: a refusal anywhere stores nothing.

ImportProblem = checks.ImportProblem


@transaction.atomic
def import_league(*, data: checks.LeagueFile, user, name: str, slug: str, progress=None) -> League:
    """A new league from an export (``import_checks.read_json``), ``user`` its admin; every
    meeting replayed in playing order. ImportProblem (nothing stored) when the file does not
    fit or a meeting does not replay under its own rules. ``progress(step, done, total)``,
    when given, hears of the evenings "stored" and "replayed", ``PROGRESS_EVERY`` at a time."""
    head = data.head
    if checks.value(head, "format", "", str) != FORMAT:
        raise ImportProblem("format", _("this is not a Kartenliga league export."))
    if checks.value(head, "version", "", int) != VERSION:
        raise ImportProblem("version", _("this export's version cannot be read here."))
    league = _import_league_row(head, user=user, name=name, slug=slug)
    # create_league makes a player for its founder; the export's players are the league's.
    league.players.filter(user=user).delete()
    player = _import_players(head, league)
    seasons = _import_seasons(head, league)
    nights = night_file.Nights(head, league, player, tournament_file.Tournaments(head, league, player))
    places = {}  # each stored meeting's number in the file
    for i, item in enumerate(data.meetings(), start=1):
        places[import_meetings.import_meeting(item, f"meetings[{i}]", league, seasons, player, nights).pk] = i
        _tell(progress, "stored", i, data.meeting_count())
    nights.check_complete()
    # A season starts with its first evening (services.start_meeting): the pages of a season
    # without one have nothing to show.
    played = set(league.meetings.values_list("season_id", flat=True))
    for season, _item, where in seasons.values():
        if season.pk not in played:
            raise ImportProblem(where, _("a season without evenings."))
    _replay_in_order(league, places, progress)
    bills = {}
    for season, item, where in seasons.values():
        bills.update(_import_bills(item, where, season, player))
    at = money_file.Places(
        meetings={i: pk for pk, i in places.items()}, seasons=_by_number(seasons), bills=bills, player=player
    )
    money_file.import_money(head, league, at)
    # Counted once here, as a played league counts its evenings as they close: the first
    # statistics and ratings pages read them instead of counting the whole league.
    statistics.league_statistics(league=league)
    ratings.league_ratings(league=league)
    return league


def _import_players(head, league: League) -> checks.Players:
    player = checks.Players()
    for i, item in enumerate(checks.items(head, "players", ""), start=1):
        where = f"players[{i}]"
        player_name = player.check_new(checks.value(item, "name", where, str), f"{where}.name")
        active = checks.flag(item, "active", where, default=True)
        player.by_name[player_name] = Player.objects.create(league=league, name=player_name, active=active)
    return player


def _import_seasons(head, league: League) -> dict:
    """The league's seasons by number, each with its item and place in the file."""
    seasons = {}
    for i, item in enumerate(checks.items(head, "seasons", ""), start=1):
        season = import_meetings.import_season(item, f"seasons[{i}]", league, taken=seasons)
        seasons[season.number] = (season, item, f"seasons[{i}]")
    return seasons


def _import_bills(item, where, season, player) -> dict:
    """The season's stored bills, by (season number, place in its ``bills``)."""
    bills = checks.items(item, "bills", where)
    if sum(1 for bill in bills if not isinstance(bill, dict) or bill.get("replaced_at") is None) > 1:
        raise ImportProblem(f"{where}.bills", _("only one bill of a season is not replaced."))
    return {
        (season.number, j): import_bills.import_bill(bill, f"{where}.bills[{j}]", season, player)
        for j, bill in enumerate(bills, start=1)
    }


def _by_number(seasons: dict) -> dict:
    return {number: season for number, (season, _item, _where) in seasons.items()}


def _import_league_row(head, *, user, name, slug) -> League:
    source = checks.value(head, "league", "", dict)
    game = checks.value(source, "game", "league", str)
    if game not in game_names():
        raise ImportProblem("league.game", _("not a game of this app."))
    money = import_meetings.checked_money_rules(source, "league", resolved=False) or {}
    try:
        league = services.create_league(
            name=name,
            slug=slug,
            game=game,
            variant=checks.value(source, "variant", "league", str),
            rule_overrides=checks.value(source, "rule_overrides", "league", dict, required=False) or {},
            user=user,
        )
    except exceptions.InvalidInput as error:
        raise ImportProblem("league", " ".join(e["message"] for e in error.errors)) from error
    league.money_rules = money
    league.combine_tables = night_file.league_combine(source)
    league.save(update_fields=["money_rules", "combine_tables"])
    return league


def _replay_in_order(league: League, places: dict[int, int], progress) -> None:
    """Every meeting replayed in playing order, as the app would have: the cached figures are
    the engine's. A meeting that no longer replays stops the import. Read some evenings at a
    time: a big league's meetings with their rules are not all held at once."""
    order = list(league.meetings.order_by("date", "id").values_list("pk", flat=True))
    for start in range(0, len(order), MEETINGS_AT_ONCE):
        batch = Meeting.objects.with_season_start().select_related("season")
        batch = batch.in_bulk(order[start : start + MEETINGS_AT_ONCE])
        for done, pk in enumerate(order[start : start + MEETINGS_AT_ONCE], start=start + 1):
            meeting = batch[pk]
            result = None
            if not _replayed_already(meeting):
                try:
                    result = table_results.replay_meeting(meeting=meeting)
                except exceptions.InvalidInput as error:
                    raise ImportProblem(f"meetings[{places[pk]}]", _replay_problems(error)) from error
            if problem := tournament_file.past_the_end(meeting, result):
                raise ImportProblem(f"meetings[{places[pk]}].hands", problem)
            _tell(progress, "replayed", done, len(order))


def _replayed_already(meeting: Meeting) -> bool:
    """Whether the replay of an evening before it replayed this one too: a replay goes on into
    the evenings it carries its open rounds into (chain.replay_later_meetings), and each
    replay leaves its MeetingCarry. Asked so that each evening is replayed once, not once
    for every evening before it."""
    return bool(meeting.rules.get("carry_special_rounds")) and MeetingCarry.objects.filter(meeting=meeting).exists()


def _tell(progress, step: str, done: int, total: int) -> None:
    if progress is not None and (done % PROGRESS_EVERY == 0 or done == total):
        progress(step, done, total)


def _replay_problems(error: exceptions.InvalidInput) -> str:
    """The engine's problems with a meeting, each with the number of its hand on the sheet."""
    return " ".join(
        e["message"]
        if e.get("hand") is None
        else _("hand %(n)s: %(message)s") % {"n": e["hand"], "message": e["message"]}
        for e in error.errors
    )
