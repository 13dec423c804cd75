"""What if: a season replayed in memory under other rules, beside the season as played.

The season as played is its stored results (the replay's rows, as the standings sum them);
every evening is replayed through scoring/ under the rules asked about (another preset, or
options changed). Nothing is written: the rows that replay gives are the unsaved HandResult
objects ``leagues.table.results.result_rows`` builds, summed here the way the standings sum
stored ones. An evening whose hands do not fit the other rules (a hand kind the other preset
does not know, say) is reported and left out of the what-if standings.

Special rounds carried from one evening to the next follow the chain within the season; into
its first evening they come as they did (when the other rules carry them too).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db.models import Prefetch

from leagues import exceptions, games, ranking
from leagues.clubs import services
from leagues.models import Hand, HandResult, Meeting, Player, Season, Seat
from leagues.ranking import StandingRow
from leagues.table import replay
from leagues.table import results as table_results


@dataclass
class Evening:
    meeting: Meeting
    played: dict[str, int]  # each player's total that evening, as played
    what_if: dict[str, int] | None  # under the other rules; None when it does not replay
    problem: str = ""

    @property
    def changes(self) -> list[tuple[str, int, int]]:
        """(name, as played, what if) of each player whose total differs."""
        if self.what_if is None:
            return []
        return [(n, t, self.what_if.get(n, 0)) for n, t in self.played.items() if self.what_if.get(n, 0) != t]


@dataclass
class WhatIf:
    played: list[StandingRow]
    what_if: list[StandingRow]
    evenings: list[Evening] = field(default_factory=list)

    @property
    def problems(self) -> list[Evening]:
        return [e for e in self.evenings if e.problem]

    def rows(self) -> list[dict[str, Any]]:
        """The two tables side by side, by the what-if ranking."""
        played = {row.player.pk: row for row in self.played}
        return [
            {"what_if": row, "played": played.get(row.player.pk), "moved": _moved(played.get(row.player.pk), row)}
            for row in self.what_if
        ]


def _moved(played: StandingRow | None, what_if: StandingRow) -> int:
    """Places gained (positive) or lost under the other rules."""
    return played.rank - what_if.rank if played is not None else 0


def _table(results, *, race) -> list[StandingRow]:
    """A ranked table from unsaved HandResult rows: the sums the standings make of stored HandResult rows."""
    rows: dict[int, StandingRow] = {}
    ended = {(r.meeting_id, r.number) for r in results if r.games_won}
    present = {(r.meeting_id, r.player_id, r.number) for r in results}
    for r in results:
        row = rows.setdefault(r.player_id, StandingRow(player=r.player))
        figures = {
            "total": r.delta,
            "games": int(r.active),
            "wins": int(r.active and r.won),
            "solos": int(r.solo),
            "solos_won": int(r.solo and r.won),
            "games_won": r.games_won,
        }
        if race:
            # As in the standings: a race game's deltas undo each finished game's score at
            # the next hand; the points scored add that score back.
            finished = (r.meeting_id, r.number) in ended and (r.meeting_id, r.player_id, r.number + 1) in present
            figures["points"] = r.delta + (r.total if finished else 0)
        row.add(figures)
    return ranking.ranked(list(rows.values()), race=race)


def _evening_totals(results) -> dict[str, int]:
    totals: dict[str, int] = {}
    for r in results:
        totals[r.player.name] = totals.get(r.player.name, 0) + r.delta
    return totals


def season_what_if(*, season: Season, variant: str, overrides: dict[str, Any]) -> WhatIf:
    """The season as played and under ``variant`` + ``overrides`` (the league form's shape).
    A fixed number of queries whatever the number of evenings (``_evenings_of``)."""
    league = season.league
    rules = (variant, services.resolved_rules(game=league.game, variant=variant, overrides=overrides))
    carries = bool(rules[1].get("carry_special_rounds"))
    race = games.is_race_game(league.game)
    played_rows, what_if_rows, evenings = [], [], []
    carried = None
    for number, (meeting, hands, seats, rows) in enumerate(_evenings_of(season)):
        played_rows += rows
        if number == 0:
            # Into the season's first evening the rounds come as they did (if these rules carry).
            carried = replay.carried_rounds_for(meeting) if carries else ()
        try:
            result = replay.calculate_meeting(
                meeting,
                payloads=[h.payload for h in hands],
                carried=carried,
                rules=rules,
                players=[seat.player for seat in seats],
            )
        except exceptions.InvalidInput as error:
            evenings.append(
                Evening(meeting, _evening_totals(rows), None, problem=" ".join(e["message"] for e in error.errors))
            )
            carried = ()
            continue
        other = table_results.result_rows(meeting, hands, result, seats=seats)
        what_if_rows += other
        carried = tuple(result["next"].get("queue_after_meeting") or ()) if carries else ()
        evenings.append(Evening(meeting, _evening_totals(rows), _evening_totals(other)))
    return WhatIf(played=_table(played_rows, race=race), what_if=_table(what_if_rows, race=race), evenings=evenings)


class Stored(NamedTuple):
    """A stored HandResult row, as ``_table`` and ``_evening_totals`` read it."""

    meeting_id: int
    number: int
    player: Player
    active: bool
    delta: int
    total: int
    won: bool
    games_won: int
    solo: bool

    @property
    def player_id(self) -> int:
        return self.player.pk


def _evenings_of(season: Season) -> list[tuple[Meeting, list[Hand], list[Seat], list[Stored]]]:
    """Each evening of ``season`` in playing order with its live hands, its seats (their
    players) and its stored results, the replay's rows as it was played (in the replay's
    order: the writer inserts a hand's rows so): four queries for the whole season."""
    meetings = list(
        season.meetings.with_season_start()
        .select_related("season", "league")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.in_order()))
        .order_by("date", "id")
    )
    hands: dict[int, list[Hand]] = defaultdict(list)
    live = Hand.objects.filter(meeting__season=season, deleted_at=None).order_by("meeting_id", "position")
    for hand in live.only("meeting_id", "payload"):
        hands[hand.meeting_id].append(hand)
    players = {seat.player.pk: seat.player for meeting in meetings for seat in meeting.seats.all()}
    results: dict[int, list[Stored]] = defaultdict(list)
    for meeting_id, number, player_id, *figures in (
        HandResult.objects.filter(season=season)
        .order_by("meeting_id", "number", "id")
        .values_list("meeting_id", "number", "player_id", "active", "delta", "total", "won", "games_won", "solo")
    ):
        results[meeting_id].append(Stored(meeting_id, number, players[player_id], *figures))
    return [(m, hands[m.id], list(m.seats.all()), results[m.id]) for m in meetings]
