"""The one winner of a club night, kept on its tables' stored results.

An evening at one table is won by the first of its own standings (``results.meeting_sums``).
A club night is one evening: it has one winner, the first of the night's standings
(``scoring.club_night.winner``), and only once every table of it is closed. So a table's own
replay never marks a winner at a table of a night (``results.write_results`` leaves its
``won_evening`` alone); ``keep_night_winners`` gives the mark to the night's winner's row and
takes it from every other row of the night's tables. It runs when a table closes or is
reopened, when a season closes its open tables, and when a closed table's results are
rewritten (``verify_replays --rebuild``, an import): never for a hand entered, so the tables
never wait for each other while the night is played. It takes the nights' row locks (lock
order: league, season, meeting, club night), so that two tables closing at once do not each
find the other still open, and it writes a row only where the winner changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from leagues import games
from leagues.models import ClubNight, Meeting, MeetingResult, Seat
from scoring import club_night

# (meeting id, player id): the row of a night's winner.
Key = tuple[int, int]


def winner_key(
    *, method: str, race: bool, tables: list[Mapping[int, str]], meeting_ids: list[int], figures: Mapping[Key, tuple]
) -> Key | None:
    """The row of the night's winner: ``tables`` in table order, each its players ({player id:
    name}, in seat order), ``meeting_ids`` their meetings, ``figures`` {(meeting id, player id):
    (total, games won, games)} of the rows stored (or replayed). The first of the standings who
    has a row (a table at which no hand was played has none); None when no one has."""
    played = []
    where = {}
    for meeting_id, players in zip(meeting_ids, tables, strict=True):
        table = {}
        for player_id, name in players.items():
            total, games_won, count = figures.get((meeting_id, player_id), (0, 0, 0))
            table[name] = club_night.Played(games_won if race else total, count)
            where[name] = (meeting_id, player_id)
        played.append(table)
    for row in club_night.combine(method=method, tables=played):
        if where[row.player] in figures:
            return where[row.player]
    return None


@dataclass
class _Read:
    """What the winners of some nights are worked out from."""

    nights: list[tuple[int, str, str]]  # (id, how its tables are combined, the league's game)
    tables: dict[int, list[tuple[int, bool]]]  # night id: [(meeting id, closed)] in table order
    seated: dict[int, dict[int, str]]  # meeting id: {player id: name} in seat order
    rows: list[tuple]  # (pk, meeting id, player id, total, games won, games, won_evening)


def _read(night_ids: list[int], *, lock: bool) -> _Read:
    """The nights ``night_ids`` (locked with ``lock``), their tables, seats and stored
    results: four queries."""
    nights = ClubNight.objects.filter(pk__in=night_ids).order_by("pk")
    if lock:
        nights = nights.select_for_update(of=("self",))
    tables: dict[int, list[tuple[int, bool]]] = {}
    for meeting_id, night_id, closed_at in (
        Meeting.objects.filter(club_night_id__in=night_ids)
        .order_by("club_night_id", "table_number")
        .values_list("id", "club_night_id", "closed_at")
    ):
        tables.setdefault(night_id, []).append((meeting_id, closed_at is not None))
    seated: dict[int, dict[int, str]] = {}
    for meeting_id, player_id, name in (
        Seat.objects.filter(meeting__club_night_id__in=night_ids)
        .order_by("meeting_id", "position")
        .values_list("meeting_id", "player_id", "player__name")
    ):
        seated.setdefault(meeting_id, {})[player_id] = name
    rows = MeetingResult.objects.filter(meeting__club_night_id__in=night_ids).values_list(
        "pk", "meeting_id", "player_id", "total", "games_won", "games", "won_evening"
    )
    return _Read(list(nights.values_list("pk", "combine", "league__game")), tables, seated, list(rows))


def _winners(read: _Read, *, closed_only: bool = True) -> dict[int, Key]:
    """{night id: its winner's row} of the nights read, those with a table open left out
    unless not ``closed_only`` (who wins if the night ends as it stands)."""
    figures = {(m, p): (total, won, count) for _pk, m, p, total, won, count, _mark in read.rows}
    winners = {}
    for night_id, method, game in read.nights:
        tables = read.tables.get(night_id, [])
        if not tables or (closed_only and not all(closed for _id, closed in tables)):
            continue  # only a closed evening has a winner
        ids = [meeting_id for meeting_id, _closed in tables]
        key = winner_key(
            method=method,
            race=games.is_race_game(game),
            tables=[read.seated.get(meeting_id, {}) for meeting_id in ids],
            meeting_ids=ids,
            figures={k: v for k, v in figures.items() if k[0] in ids},
        )
        if key is not None:
            winners[night_id] = key
    return winners


def keep_night_winners(*, night_ids: Iterable[int]) -> None:
    """Mark the winner of each of the nights ``night_ids`` whose tables are all closed, and
    nobody at the others: a fixed number of queries however many nights and tables (the
    nights locked with their tables, seats and stored results; two writes at most)."""
    night_ids = sorted(set(night_ids))
    if night_ids:
        read = _read(night_ids, lock=True)
        _mark(read.rows, set(_winners(read).values()))


def night_leader(*, night_id: int) -> tuple[int, str] | None:
    """(player id, name) of who wins the night ``night_id`` if it ends as its tables stand,
    open or closed: what "End the evening?" names at its last open table. Four queries."""
    read = _read([night_id], lock=False)
    key = _winners(read, closed_only=False).get(night_id)
    return None if key is None else (key[1], read.seated[key[0]][key[1]])


def _mark(rows: list[tuple], wanted: set[Key]) -> None:
    """Give ``won_evening`` to the rows ``wanted`` and take it from the others of ``rows``
    (pk, meeting id, player id, ..., won_evening): only the rows that change are written."""
    unmark = [row[0] for row in rows if row[-1] and (row[1], row[2]) not in wanted]
    mark = [row[0] for row in rows if not row[-1] and (row[1], row[2]) in wanted]
    if unmark:
        MeetingResult.objects.filter(pk__in=unmark).update(won_evening=False)
    if mark:
        MeetingResult.objects.filter(pk__in=mark).update(won_evening=True)


def keep_night_winner(meeting: Meeting) -> None:
    """``keep_night_winners`` for the night ``meeting`` is a table of (nothing for an evening
    at one table)."""
    if meeting.club_night_id is not None:
        keep_night_winners(night_ids=[meeting.club_night_id])
