"""A paper season into a league: what clubs have in their notebooks, as CSV.

Two forms, both checked whole before anything is stored, every problem named by its row (the
file's line, the header being row 1) and its column:

- **totals**: one row per evening, ``date, host`` and then one column per player with his
  total of the evening (an empty cell: not at the table). Stored as a meeting with its seats
  and no hands (``Meeting.imported_totals``), whose MeetingResult rows hold the totals as
  written, so the season and all-time standings count them like any evening, and the
  writers (services.write_results) keep them instead of summing no hands into zeros.
- **hands**: one row per hand (``HANDS_COLUMNS``), the evening's seat order in its first row;
  each evening is started with services.start_meeting and its hands entered with
  services.enter_hand, so the engine replays and checks every hand as if typed at the table.

Both run through the same function (``run``) inside one transaction: the preview runs it and
rolls it back (the figures it shows are the ones the engine worked out, and nothing is kept),
the confirmation runs it again and commits. Seasons follow the host rotation exactly as
evenings entered in the app do (start_meeting opens the next season once everybody hosted).

Where the evenings go: after the league's last evening (the seasons go on from the league's
current one), or, all of them dated before the league's first evening, in front of it: their
seasons come first and the league's are numbered after them (the last imported season is
closed, as when the next one starts); the evenings already there are then replayed from their
hands where the imported ones carry special rounds into them (chain.replay_later_meetings),
and the preview names those whose figures change. An evening between the league's first and
last is refused: it would change the seasons and the rounds carried into the evenings around it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count, F, Max, Min
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from leagues import exceptions, games
from leagues.clubs.names import NameProblem, Roster, check_new_name
from leagues.exchange.paper_reading import (
    MAX_PLAYERS,
    Evening,
    PaperImportProblem,
    Problems,
    RowError,
    parse_hands,
    parse_totals,
)
from leagues.models import Hand, League, Meeting, MeetingResult, Player, Season, Seat
from leagues.seasons import services as seasons_services
from leagues.table import chain as table_chain
from leagues.table import meetings as table_meetings
from leagues.table import replay
from leagues.table import results as table_results
from leagues.table import services as table_services

__all__ = ["PaperImportProblem", "RowError", "run"]

# While a paper season is imported in front, the league's seasons wait at numbers this much
# higher (a season's number is unique in its league), then follow the imported ones.
SEASONS_ASIDE = 1_000_000


@dataclass
class EveningOutcome:
    """What the import made of an evening: for the preview and the confirmation."""

    date: datetime.date
    host: str
    season: int
    hands: int
    imported_totals: bool
    totals: list[tuple[str, int]]  # seat order
    winner: str | None


@dataclass
class ChangedEvening:
    """An evening already in the league whose figures the import changes (rounds carried in)."""

    date: datetime.date
    host: str


@dataclass
class Outcome:
    evenings: list[EveningOutcome]
    new_players: list[str]
    in_front: bool = False  # before the league's first evening, in seasons of their own
    first: datetime.date | None = None  # the league's first evening, when in front
    changed: list[ChangedEvening] = field(default_factory=list)


# --- storing --------------------------------------------------------------------------------


def _players(league: League, evenings: list[Evening], errors: Problems) -> tuple[dict[str, Player], list[str]]:
    """Each name of the file mapped to the league's player (exact name, else the same but for
    case); names the league does not know become new players (listed in the preview).

    A new name passes the rules the league page keeps (leagues/clubs/names.py) against the league's
    players and the file's other new names; the names are read once and each one's look-alike
    keys worked out once, and the new players are stored together, so that a file of many
    players takes time in proportion to them."""
    # New players of one league are named one at a time (services.add_player takes the same lock).
    League.objects.select_for_update().get(pk=league.pk)
    known = {p.name: p for p in league.players.all()}
    folded = _folded(known)
    roster = Roster(known)
    found: dict[str, Player] = {}
    new: list[Player] = []
    for row, name in _names_by_row(evenings):
        if name in found:
            continue
        if len(found) == MAX_PLAYERS:
            errors.append(RowError(row, name, _("A file names at most %(max)s players.") % {"max": MAX_PLAYERS}))
            raise PaperImportProblem(errors)
        player = known.get(name) or folded.get(name.casefold())
        if player is None:
            player = _new_player(league, name, roster, row, errors)
            if player is None:
                continue
            new.append(player)
        found[name] = player
    if not errors:
        Player.objects.bulk_create(new)
    return found, [player.name for player in new]


def _folded(players: dict[str, Player]) -> dict[str, Player]:
    """The players by name in lower case, for a name written in other case in the file."""
    return {name.casefold(): player for name, player in players.items()}


def _names_by_row(evenings: list[Evening]):
    """Each evening's names, in the file's order, with the evening's row."""
    for evening in evenings:
        for name in evening.players:
            yield evening.row, name


def _new_player(league: League, name: str, roster: Roster, row: int, errors: Problems) -> Player | None:
    """A player (not stored yet) for a name the league does not know; None when the name
    breaks the league's rules for names."""
    try:
        cleaned = check_new_name(name, roster)
    except NameProblem as problem:
        errors.append(RowError(row, name, problem.message))
        return None
    roster.add(cleaned)
    return Player(league=league, name=cleaned)


def _placement(league: League, evenings: list[Evening], errors: list[RowError]) -> datetime.date | None:
    """Where the file's evenings go: the date of the league's first evening when all of them
    come before it (in front), else None (after the league's last evening); an evening between
    the two is a problem named by its row."""
    bounds = Meeting.objects.filter(league=league).aggregate(first=Min("date"), last=Max("date"))
    if bounds["first"] is None:
        return None
    dates = [evening.date for evening in evenings if evening.date is not None]
    if dates and max(dates) < bounds["first"]:
        return bounds["first"]
    for evening in evenings:
        if evening.date is not None and evening.date < bounds["last"]:
            message = _(
                "The league's evenings run from %(first)s to %(last)s: imported evenings come all before "
                "the first or none before the last (one between them would change the seasons and "
                "carried rounds of the evenings around it)."
            )
            dates = {"first": date_format(bounds["first"]), "last": date_format(bounds["last"])}
            errors.append(RowError(evening.row, evening.date_column, message % dates))
    return None


def _start(league, evening, players, *, user, errors, after) -> Meeting | None:
    try:
        return table_meetings.start_meeting(
            league=league,
            date=evening.date,
            players=[players[name] for name in evening.players],
            user=user,
            after=after,
        )
    except exceptions.InvalidInput as error:
        errors += [RowError(evening.row, e.get("field") or None, e["message"]) for e in error.errors]
        return None


def _store_totals(meeting: Meeting, evening: Evening, players: dict[str, Player]) -> None:
    """An evening's totals as its MeetingResult rows; the writers keep them from now on."""
    table_results.store_imported_totals(
        meeting=meeting, totals={players[name].pk: total for name, total in evening.totals.items()}
    )
    # Its carried rounds (what an evening of no hands hands on), as for any evening.
    table_results.write_results(meeting, [], replay.calculate_meeting(meeting, payloads=[]))


def _enter_hands(meeting: Meeting, evening: Evening, *, user, errors: list[RowError]) -> None:
    for number, (row, payload, as_json) in enumerate(evening.hands, 1):
        try:
            table_services.enter_hand(meeting=meeting, payload=payload, by=user, number=number)
        except exceptions.InvalidInput as error:
            for e in error.errors:
                # The engine names the payload's field, which is the column of the same name
                # (a hand given as JSON: its payload column).
                column = "payload" if as_json else (e.get("field") or "kind")
                errors.append(RowError(row, column, e["message"]))
            return  # the hands after it would be replayed on a wrong sheet


def _close(meeting: Meeting, *, user) -> None:
    """A paper evening is over: closed as one the scorekeeper ended (an admin may reopen it,
    and a hand-imported one can then be corrected as any other)."""
    meeting.closed_at = timezone.now()
    meeting.closed_by = user
    meeting.save(update_fields=["closed_at", "closed_by"])


def _outcome(meetings: list[Meeting], new_players: list[str]) -> Outcome:
    """What the import made of its evenings, read for all of them at once."""
    results: dict[int, dict[int, MeetingResult]] = {}
    for row in MeetingResult.objects.filter(meeting__in=meetings).select_related("player"):
        results.setdefault(row.meeting_id, {})[row.player_id] = row
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(meeting__in=meetings).in_order().order_by("meeting", "position"):
        seats.setdefault(seat.meeting_id, []).append(seat)
    hands = dict(
        Hand.objects.filter(meeting__in=meetings)
        .live()
        .order_by()
        .values("meeting")
        .annotate(count=Count("pk"))
        .values_list("meeting", "count")
    )
    seasons = dict(Meeting.objects.filter(pk__in=[m.pk for m in meetings]).values_list("pk", "season__number"))
    evenings = []
    for meeting in meetings:
        rows = results.get(meeting.pk, {})
        table = seats[meeting.pk]
        evenings.append(
            EveningOutcome(
                date=meeting.date,
                host=table[0].player.name,
                season=seasons[meeting.pk],
                hands=hands.get(meeting.pk, 0),
                imported_totals=meeting.imported_totals,
                totals=[(s.player.name, rows[s.player_id].total if s.player_id in rows else 0) for s in table],
                winner=next((r.player.name for r in rows.values() if r.won_evening), None),
            )
        )
    return Outcome(evenings=evenings, new_players=new_players)


def _import_evenings(league, kind, evenings, players, *, user, errors, front) -> list[Meeting]:
    """Each evening started (in front: in a chain of seasons of its own), filled and closed."""
    meetings: list[Meeting] = []
    after = None if front else table_meetings.CURRENT_SEASON
    for evening in evenings:
        if errors:
            break
        meeting = _start(league, evening, players, user=user, errors=errors, after=after)
        if meeting is None:
            break
        if kind == "totals":
            _store_totals(meeting, evening, players)
        else:
            _enter_hands(meeting, evening, user=user, errors=errors)
        _close(meeting, user=user)
        meetings.append(meeting)
        if front:
            after = Season.objects.get(pk=meeting.season_id)
    return meetings


def _totals_of(meeting_ids) -> dict[int, dict[int, int]]:
    totals: dict[int, dict[int, int]] = {}
    for meeting_id, player_id, total in MeetingResult.objects.filter(meeting__in=meeting_ids).values_list(
        "meeting_id", "player_id", "total"
    ):
        totals.setdefault(meeting_id, {})[player_id] = total
    return totals


def _in_front(league, kind, evenings, players, *, user, errors) -> tuple[list[Meeting], list[ChangedEvening]]:
    """The evenings as seasons of their own in front of the league's: the league's seasons
    wait aside meanwhile, then are numbered after them; the last imported season is closed;
    the league's evenings are replayed from their hands where rounds are carried into them."""
    theirs = list(league.seasons.values_list("pk", flat=True))
    own_meetings = list(Meeting.objects.filter(league=league).values_list("pk", flat=True))
    before = _totals_of(own_meetings)
    Season.objects.filter(pk__in=theirs).update(number=F("number") + SEASONS_ASIDE)
    meetings = _import_evenings(league, kind, evenings, players, user=user, errors=errors, front=True)
    if errors or not meetings:
        return meetings, []
    last = Season.objects.get(pk=meetings[-1].season_id)
    Season.objects.filter(pk__in=theirs).update(number=F("number") - SEASONS_ASIDE + last.number)
    seasons_services.close_followed_season(season=last, user=user)
    try:
        table_chain.replay_later_meetings(meetings[-1], replay.calculate_meeting(meetings[-1]))
    except exceptions.InvalidInput as error:
        errors += [RowError(None, None, e["message"]) for e in error.errors]
        return meetings, []
    after = _totals_of(own_meetings)
    changed = [
        ChangedEvening(date=m.date, host=m.host.name)
        for m in Meeting.objects.filter(pk__in=own_meetings).select_related("host").order_by("date", "id")
        if after.get(m.pk) != before.get(m.pk)
    ]
    return meetings, changed


def run(*, league: League, kind: str, text: str, user, commit: bool) -> Outcome:
    """Import ``text`` (``kind``: "totals" or "hands") into ``league``, all or nothing.

    ``commit`` False is the preview: everything is done as for real, then rolled back.
    PaperImportProblem names every problem by row and column; nothing is then stored."""
    if kind == "totals" and games.is_race_game(league.game):
        raise PaperImportProblem(
            [RowError(None, None, _("A race game ranks by games won: import its hands, not totals."))]
        )
    evenings = parse_totals(text) if kind == "totals" else parse_hands(text)
    evenings.sort(key=lambda e: e.date)
    errors = Problems()
    with transaction.atomic():
        players, new_players = _players(league, evenings, errors)
        first = _placement(league, evenings, errors)
        if errors:
            raise PaperImportProblem(errors)
        changed: list[ChangedEvening] = []
        if first is not None:
            meetings, changed = _in_front(league, kind, evenings, players, user=user, errors=errors)
        else:
            meetings = _import_evenings(league, kind, evenings, players, user=user, errors=errors, front=False)
        if errors:
            raise PaperImportProblem(errors)  # rolls the transaction back
        outcome = _outcome(meetings, new_players)
        outcome.in_front, outcome.first, outcome.changed = first is not None, first, changed
        if not commit:
            transaction.set_rollback(True)
    return outcome
