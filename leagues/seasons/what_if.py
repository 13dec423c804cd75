"""What if: a season replayed under other rules, beside the season as played.

The season as played is its stored results (the replay's HandResult rows); under the rules
asked about (another preset, or options changed) every evening is replayed through scoring/
and the rows that replay gives (``leagues.table.results.figure_rows``, never saved) are taken
the same way. Both are summed per evening and player as the writer sums an evening for the
standings (``results.meeting_sums``), and the evenings' sums make the two tables. An evening
whose hands do not fit the other rules (a hand kind the other preset does not know, say) is
reported and left out of the what-if standings.

Special rounds carried from one evening to the next follow the chain within the season; into
its first evening they come as they did (when the other rules carry them too).

What an evening comes to is kept in the table of derived figures (``leagues.stats.derived_cache``)
under the fingerprint of the rules asked about (the preset and every option): its sums as
played and under those rules, the rounds it carries on under them, or why it did not replay.
Each is kept with the evening's mark (``leagues.stats.evenings.season_evenings``), a chain over
the season's evenings up to it (the digest of each one's live hands, whether it is closed)
from a tag that holds what comes into the season's first evening from before: the rounds
carried in (as its results were written with, and as the other rules take them) and the
penalty solos of the pennants forgotten the season before. So a correction in an earlier
evening changes the marks from there on. A page reads every evening's row in one query and
replays only the evenings whose mark changed (tonight's, after each hand), reading the hands
and results of those alone: its cost, and the number of its queries, are about the same
whatever the season's length. An evening whose hands changed while the page read them is
shown but not kept. What else a replay reads of an evening (its seats, teams and start
totals) is fixed when the evening starts. Nothing of the season is written.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db.models import F
from django.utils.translation import gettext

from leagues import exceptions, games, ranking
from leagues.clubs import services
from leagues.models import Hand, HandResult, Meeting, Player, Season, Seat
from leagues.ranking import StandingRow
from leagues.stats import derived_cache
from leagues.stats.evenings import season_evenings, with_own_marks
from leagues.table import replay
from leagues.table import results as table_results
from scoring.errors import Problem

# In the keys and marks of the kept outcomes: raised whenever what an Outcome holds or how it
# is worked out changes, so that an outcome kept the old way is never read again.
VERSION = 1
KIND = "kl-what-if-"
# The figures of an evening's sums, per player, as the standings add them up.
SUMMED = ("total", "games", "wins", "solos", "solos_won", "games_won", "points")


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
    by_score: bool = False  # both tables rank by the season's score (``ranking.EveningScores``)

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


class Outcome(NamedTuple):
    """What one evening comes to under one rule set, kept as a plain tuple (pickled)."""

    mark: str
    played: tuple[tuple[int, ...], ...]  # (player id, *SUMMED) per player, in the replay's order
    what_if: tuple[tuple[int, ...], ...] | None  # the same under the other rules; None: no replay
    queue: tuple[str, ...]  # the special rounds it carries on into the next evening
    problems: tuple[tuple, ...]  # why it did not replay: (hand, field, message, params) or (text,)


@dataclass(frozen=True)
class Asked:
    """The rules asked about: (variant, full rule set), their fingerprint, and what follows."""

    rules: tuple[str, dict]
    fingerprint: str
    carries: bool
    race: bool


def season_what_if(*, season: Season, variant: str, overrides: dict[str, Any]) -> WhatIf:
    """The season as played and under ``variant`` + ``overrides`` (the league form's shape):
    the kept outcome of each evening whose mark still matches, the others replayed and kept
    (module docstring). A fixed number of queries whatever the number of evenings."""
    league = season.league
    rules = (variant, services.resolved_rules(game=league.game, variant=variant, overrides=overrides))
    asked = Asked(
        rules=rules,
        fingerprint=_fingerprint(league.game, rules),
        carries=bool(rules[1].get("carry_special_rounds")),
        race=games.is_race_game(league.game),
    )
    meetings = _meetings_of(season)
    players = {p.pk: p for p in Player.objects.filter(league=league)}
    if not meetings:
        return WhatIf(played=[], what_if=[])
    carried = _carried_into(meetings[0]) if asked.carries else ()
    outcomes = _outcomes(league, meetings, asked=asked, carried=carried, players=players)
    said: dict[str, str] = {}
    # Both tables rank alike, by the score when an evening of the season counts otherwise
    # than by the points as scored, even one the rules asked about leave out.
    by_score = ranking.ranks_by_score(m.night_combine or league.combine_tables for m in meetings)
    table = {"players": players, "race": asked.race, "method": league.combine_tables, "by_score": by_score}
    return WhatIf(
        played=_table(meetings, [o.played for o in outcomes], **table),
        what_if=_table(meetings, [o.what_if for o in outcomes], **table),
        evenings=[_evening(m, o, players, said=said) for m, o in zip(meetings, outcomes, strict=True)],
        by_score=by_score,
    )


def _fingerprint(game: str, rules: tuple[str, dict]) -> str:
    """The rules asked about (preset and every option) as a short digest."""
    blob = json.dumps([game, *rules], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


def _meetings_of(season: Season) -> list[Meeting]:
    """The season's evenings in playing order, each with what its mark reads, the rounds its
    results were written with (``carried_in``) and whether it opens the season: one query."""
    # Their rules are not read: they are replayed under the rules asked about.
    meetings = season.meetings.annotate(carried_in=F("carry__carried_in"), night_combine=F("club_night__combine"))
    meetings = meetings.select_related("season").defer("rules")
    meetings = list(with_own_marks(meetings).order_by("date", "id"))
    first = meetings[0] if meetings else None
    for meeting in meetings:
        # What ``Meeting.objects.with_season_start`` says, known here from the order (a replay
        # asks it for the pennant's penalty solos): the first evening, every table of a night.
        meeting.opens_season = meeting is first or (
            first.club_night_id is not None and meeting.club_night_id == first.club_night_id
        )
    return meetings


def _carried_into(first: Meeting) -> tuple[str, ...]:
    """The rounds that came into the season's first evening, as its results were written with
    (``MeetingCarry.carried_in``, which the writer keeps in step with the evenings before it):
    worked out only for an evening never replayed yet."""
    if first.carried_in is None:
        return replay.carried_rounds_for(first)
    return tuple(first.carried_in)


def _tag(asked: Asked, first: Meeting, carried: tuple[str, ...], players: dict[int, Player]) -> str:
    """What the season's marks start from: the rules asked about and what comes into its
    first evening from before it (the rounds it was given, those the rules asked about give
    it, and the penalty solos of the pennants forgotten the season before: who of them plays
    his depends on the seats, which are fixed, so the league's players stand in for them)."""
    forgotten = replay.compulsory_solos_for(first, list(players.values()))
    return json.dumps(["what-if", VERSION, asked.fingerprint, first.carried_in, list(carried), forgotten])


def _outcomes(league, meetings: list[Meeting], *, asked: Asked, carried, players) -> list[Outcome]:
    """Each evening's outcome, in order: kept while its mark matches, else replayed (given
    what the evening before it carries on) and kept anew. The kept outcomes are read in one
    query; the evenings replayed, whatever their number, read in three and are written in one."""
    evenings = season_evenings(meetings, tag=_tag(asked, meetings[0], carried, players))
    keys = {m.id: f"{KIND}{VERSION}:{league.pk}:{asked.fingerprint}:{m.id}" for m in meetings}
    found = derived_cache.get_many(league, keys.values())
    kept = {m.id: _matching(found.get(keys[m.id]), evenings.mark(i)[1]) for i, m in enumerate(meetings)}
    read = _read_evenings([m.id for m in meetings if kept[m.id] is None], players)
    outcomes, written = [], {}
    for i, meeting in enumerate(meetings):
        outcome = kept[meeting.id]
        if outcome is None:
            outcome = _replayed(meeting, read, mark=evenings.mark(i)[1], carried=carried, asked=asked)
            if replay.hands_digest(read.payloads[meeting.id]) == meeting.hands_digest:
                # Else a hand was written since the mark was read: shown, not kept.
                written[keys[meeting.id]] = tuple(outcome)
        carried = outcome.queue
        outcomes.append(outcome)
    derived_cache.set_many(league, written)
    return outcomes


def _matching(value, mark: str) -> Outcome | None:
    """A kept outcome while its mark is ``mark``; None when there is none or it is stale."""
    try:
        outcome = Outcome(*value) if value is not None else None
    except TypeError:  # kept in another shape
        return None
    return outcome if outcome is not None and outcome.mark == mark else None


class Read(NamedTuple):
    """What a replay of some evenings reads, by meeting id."""

    payloads: dict[int, list[Any]]  # the live hands' payloads in playing order
    seated: dict[int, list[Player]]  # in seat order
    stored: dict[int, list[table_results.Figures]]  # the stored results, in the writer's order


def _read_evenings(ids: list[int], players: dict[int, Player]) -> Read:
    """The hands, seats and stored results of the evenings ``ids``: three queries, none
    without an evening. The stored rows come in the replay's order (by hand, then as the
    writer inserted a hand's rows)."""
    read = Read(defaultdict(list), defaultdict(list), defaultdict(list))
    if not ids:
        return read
    stored = HandResult.objects.filter(meeting__in=ids).order_by("meeting_id", "number", "id")
    for meeting_id, *figures in stored.values_list("meeting_id", "player_id", *table_results.RESULT_FIGURES):
        read.stored[meeting_id].append(table_results.Figures(*figures))
    seats = Seat.objects.filter(meeting__in=ids).order_by("meeting_id", "position")
    for meeting_id, player_id in seats.values_list("meeting_id", "player_id"):
        read.seated[meeting_id].append(players[player_id])
    # The hands last: a hand written after the results were read changes their digest, and
    # the evening is not kept (``_outcomes``).
    live = Hand.objects.filter(meeting__in=ids, deleted_at=None).order_by("meeting_id", "position")
    for meeting_id, payload in live.values_list("meeting_id", "payload"):
        read.payloads[meeting_id].append(payload)
    return read


def _replayed(meeting: Meeting, read: Read, *, mark: str, carried: tuple[str, ...], asked: Asked) -> Outcome:
    """The outcome of ``meeting`` replayed under the rules asked about, given ``carried``."""
    played = _sums(read.stored[meeting.id], race=asked.race)
    payloads, seated = read.payloads[meeting.id], read.seated[meeting.id]
    try:
        result = replay.calculate_meeting(
            meeting, payloads=payloads, carried=carried, rules=asked.rules, players=seated
        )
    except exceptions.InvalidInput as error:
        return Outcome(mark, played, None, (), _problems(error))
    rows = table_results.figure_rows(payloads, result, players=seated)
    queue = tuple(result["next"].get("queue_after_meeting") or ()) if asked.carries else ()
    return Outcome(mark, played, _sums(rows, race=asked.race), queue, ())


def _sums(rows, *, race: bool) -> tuple[tuple[int, ...], ...]:
    """An evening's result rows summed per player, in the order the players first come."""
    sums = table_results.meeting_sums(rows, race=race, seat_order={})
    return tuple((player_id, *(figures[name] for name in SUMMED)) for player_id, figures in sums.items())


def _problems(error: exceptions.InvalidInput) -> tuple[tuple, ...]:
    """Why an evening did not replay, kept untranslated so that each reader is told in his
    language: the engine's problems as they are, any other message as it was said."""
    said = []
    for e in error.errors:
        problem = getattr(e, "problem", None)
        if problem is not None:
            said.append((problem.hand, problem.field, problem.message, dict(problem.params)))
        else:
            said.append((str(e["message"]),))
    return tuple(said)


def _said(problems: tuple[tuple, ...], *, said: dict[str, str]) -> str:
    """The problems in the reader's language (``said``: the messages translated so far; an
    evening that does not fit says the same few things of many hands)."""

    def translate(message: str) -> str:
        if message not in said:
            said[message] = gettext(message)
        return said[message]

    return " ".join(Problem(*p).render(translate=translate) if len(p) == 4 else p[0] for p in problems)


def _table(meetings, evenings, *, players: dict[int, Player], race: bool, method: str, by_score: bool) -> list:
    """A ranked table from the evenings' sums (None: an evening left out), what the standings
    make of stored rows, each evening counted by its combined score (``EveningScores``;
    ``method``: the league's way at one table), ranked by that score when ``by_score``. The
    figures of a game that is not a race have no points."""
    rows: dict[int, StandingRow] = {}
    scores = ranking.EveningScores(race=race, league_method=method)
    for meeting, sums in zip(meetings, evenings, strict=True):
        for player_id, *figures in sums or ():
            row = rows.get(player_id)
            if row is None:
                row = rows[player_id] = StandingRow(player=players[player_id])
            summed = dict(zip(SUMMED, figures, strict=True))
            row.add(summed)
            scores.add(
                meeting_id=meeting.id,
                night_id=meeting.club_night_id,
                night_method=meeting.night_combine,
                player_id=player_id,
                total=summed["total"],
                games_won=summed["games_won"],
                games=summed["games"],
            )
    return scores.rank(list(rows.values()), by_score=by_score)


def _totals(sums, players: dict[int, Player]) -> dict[str, int]:
    """Each player's total of an evening by name."""
    return {players[player_id].name: total for player_id, total, *_rest in sums}


def _evening(meeting: Meeting, outcome: Outcome, players: dict[int, Player], *, said: dict[str, str]) -> Evening:
    played = _totals(outcome.played, players)
    if outcome.what_if is None:
        return Evening(meeting, played, None, problem=_said(outcome.problems, said=said))
    return Evening(meeting, played, _totals(outcome.what_if, players))


def forget() -> None:
    """Forget every kept outcome of every league: they replay the engine under rules that no
    stored result checks (``verify_replays --rebuild``, after an upgrade)."""
    derived_cache.forget(prefix=KIND)
