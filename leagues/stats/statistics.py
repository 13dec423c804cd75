"""Statistics of a league and of each player, season or all time. Reads only.

Everything is derived, nothing is stored twice: the hands as entered (``Hand.payload``) say
what a hand was (Re pair, solo type, announcements, special points, who revoked, bids); the
replay's cached figures (``HandResult``: who was active, delta, won, the round) say how it
ended; ``MeetingResult`` gives each evening's total and its pennant. Doppelkopf needs nothing
else. The other games' bids made or failed, jinks and matches exist only in a replay, so their
meetings are replayed here through ``scoring`` (no Django there, no queries).

The figures are counted evening by evening, and a season's are added to the ones before it
(``PlayerStats.absorb``: a winning run that spans them counts whole); how each hand counts is
``leagues.stats.hand_counts``. What the evenings before
tonight add up to is kept in the table of derived figures (``leagues.stats.derived_cache``) with the
mark of the last evening it holds (``leagues.stats.evenings``): all time and that evening's season so
far in one row, and each season once it is over in a row of its own. A page reads them and
counts tonight's evenings afresh; when evenings closed since, the first page counts them once
and keeps them on. A correction of a closed evening (reopened by an admin) changes the marks
from that evening on: the seasons before it are read from their rows, the rest is counted
again and kept anew.
"""

from __future__ import annotations

import copy
import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from leagues.cashbox import settlement
from leagues.games import is_race_game
from leagues.models import League, Meeting, MeetingResult, Player, Season
from leagues.stats import derived_cache
from leagues.stats.evenings import (
    BY_SEASON,
    EVENINGS_AT_ONCE,
    Evenings,
    active_results,
    evenings_of,
    hands_in_play_order,
)
from leagues.stats.hand_counts import doppelkopf_hand, other_hand, replayed_figures

# In the marks of the kept parts: raised whenever what a part holds changes (a field of
# PlayerStats or SeasonPart, a rule of counting), so that a part kept in the old shape, or
# counted the old way, is never read again: the parts outlive the process that wrote them.
VERSION = 4
TWO_PLACES = Decimal("0.01")


def ratio(numerator: int, denominator: int) -> Decimal | None:
    """numerator / denominator to two places (exact decimal arithmetic), None when undefined."""
    if not denominator:
        return None
    return (Decimal(numerator) / Decimal(denominator)).quantize(TWO_PLACES, rounding=ROUND_HALF_UP)


def percent(numerator: int, denominator: int) -> int | None:
    """A whole percentage (half up), None when undefined."""
    if not denominator:
        return None
    return int((Decimal(100 * numerator) / Decimal(denominator)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


@dataclass
class Tally:
    """Games, wins and points of one player in some kind of game."""

    games: int = 0
    wins: int = 0
    points: int = 0

    def add(self, delta: int, won: bool) -> None:
        self.games += 1
        self.wins += int(won)
        self.points += delta

    def absorb(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.points += other.points

    @property
    def per_game(self) -> Decimal | None:
        return ratio(self.points, self.games)

    @property
    def win_rate(self) -> int | None:
        return percent(self.wins, self.games)


@dataclass
class Evening:
    meeting_id: int
    date: datetime.date
    total: int
    won: bool

    @classmethod
    def of(cls, row: tuple[int, int, int, bool]) -> Evening:
        meeting_id, day, total, won = row
        return cls(meeting_id=meeting_id, date=datetime.date.fromordinal(day), total=total, won=won)


@dataclass
class PlayerStats:
    player: Player | None
    games: Tally = field(default_factory=Tally)
    # Doppelkopf
    re: Tally = field(default_factory=Tally)
    kontra: Tally = field(default_factory=Tally)
    solo: Tally = field(default_factory=Tally)  # as the soloist, any type
    against_solo: Tally = field(default_factory=Tally)
    solo_types: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    rounds: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    kinds: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    party_games: int = 0  # games with parties (Re/Kontra, solos): where one may announce
    announced: Tally = field(default_factory=Tally)  # games in which the player's party announced
    calls: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))  # by highest call
    missed: int = 0  # won with a margin an unsaid absage would have made
    specials_made: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    specials_conceded: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    revokes: int = 0
    partners: dict[int, Tally] = field(default_factory=lambda: defaultdict(Tally))
    opponents: dict[int, Tally] = field(default_factory=lambda: defaultdict(Tally))
    streak: int = 0  # longest run of won games in a row
    run: int = 0  # games won in a row at the end
    lead: int = 0  # games won in a row at the start
    lost: bool = False  # any game lost (else lead == run == games)
    # (meeting id, the day as date.toordinal(), total, won) of each evening in playing order:
    # plain tuples, since a part is kept pickled and read back by every page.
    evening_rows: list[tuple[int, int, int, bool]] = field(default_factory=list)
    # Other games
    games_won: int = 0  # Partien
    matches_won: int = 0
    race_points: int = 0
    bids: dict[int, list[int]] = field(default_factory=dict)  # size: [made, failed]
    jinks: list[int] = field(default_factory=lambda: [0, 0])  # made, failed
    # Money: the sum of the player's nets (received − paid, fees included) over the closed
    # evenings played for money, by their settlements; and how many such evenings he sat at.
    money_cents: int = 0
    money_evenings: int = 0

    def count_game(self, delta: int, won: bool) -> None:
        self.games.add(delta, won)
        self.run = self.run + 1 if won else 0
        self.streak = max(self.streak, self.run)
        if not won:
            self.lost = True
        elif not self.lost:
            self.lead += 1

    def absorb(self, later: PlayerStats) -> None:
        """Add the figures of a later stretch of games (the next season) to these."""
        self.streak = max(self.streak, later.streak, self.run + later.lead)
        self.lead = self.lead + later.lead if not self.lost else self.lead
        self.run = self.run + later.run if not later.lost else later.run
        self.lost = self.lost or later.lost
        for name in ("games", "re", "kontra", "solo", "against_solo", "announced"):
            getattr(self, name).absorb(getattr(later, name))
        for name in ("solo_types", "rounds", "kinds", "calls", "partners", "opponents"):
            mine = getattr(self, name)
            for key, tally in getattr(later, name).items():
                mine[key].absorb(tally)
        for name in ("specials_made", "specials_conceded"):
            mine = getattr(self, name)
            for key, count in getattr(later, name).items():
                mine[key] += count
        for size, (made, failed) in later.bids.items():
            counts = self.bids.setdefault(size, [0, 0])
            counts[0] += made
            counts[1] += failed
        self.jinks = [self.jinks[0] + later.jinks[0], self.jinks[1] + later.jinks[1]]
        for name in (
            "party_games",
            "missed",
            "revokes",
            "games_won",
            "matches_won",
            "race_points",
            "money_cents",
            "money_evenings",
        ):
            setattr(self, name, getattr(self, name) + getattr(later, name))
        self.evening_rows = self.evening_rows + later.evening_rows

    @property
    def money(self) -> Decimal:
        """Won (above 0) or lost in euros over the evenings played for money."""
        return Decimal(self.money_cents) / 100

    @property
    def evenings(self) -> list[Evening]:
        return [Evening.of(row) for row in self.evening_rows]

    @property
    def pennants(self) -> int:
        return sum(won for *_rest, won in self.evening_rows)

    @property
    def best_evening(self) -> Evening | None:
        best = max(self.evening_rows, key=lambda e: (e[2], e[1]), default=None)
        return Evening.of(best) if best else None

    @property
    def worst_evening(self) -> Evening | None:
        worst = min(self.evening_rows, key=lambda e: (e[2], e[1]), default=None)
        return Evening.of(worst) if worst else None

    @property
    def announce_rate(self) -> int | None:
        return percent(self.announced.games, self.party_games)

    @property
    def specials_made_total(self) -> int:
        return sum(self.specials_made.values())

    @property
    def specials_conceded_total(self) -> int:
        return sum(self.specials_conceded.values())

    @property
    def race_points_per_hand(self) -> Decimal | None:
        return ratio(self.race_points, self.games.games)

    @property
    def bids_by_size(self) -> list[tuple[int, int, int]]:
        return [(size, made, failed) for size, (made, failed) in sorted(self.bids.items())]

    @property
    def bids_made(self) -> int:
        return sum(made for made, _failed in self.bids.values())

    @property
    def bids_failed(self) -> int:
        return sum(failed for _made, failed in self.bids.values())


@dataclass
class LeagueStatistics:
    league: League
    season: Season | None  # None: all time
    doppelkopf: bool
    race: bool
    players: list[PlayerStats]
    hands: int
    meetings: int

    def of(self, player_id: int) -> PlayerStats | None:
        return next((p for p in self.players if p.player.id == player_id), None)

    @property
    def money(self) -> bool:
        """Whether any evening counted was played for money (the money column shows)."""
        return any(p.money_evenings for p in self.players)


@dataclass
class SeasonPart:
    """The statistics of some evenings by player id (players unnamed: the names are read fresh)."""

    players: dict[int, PlayerStats] = field(default_factory=dict)
    hands: int = 0
    meetings: int = 0

    def absorb(self, later: SeasonPart) -> None:
        """Add the figures of later evenings to these (``later`` itself stays as it was)."""
        for pid, stats in later.players.items():
            if pid in self.players:
                self.players[pid].absorb(stats)
            else:
                self.players[pid] = copy.deepcopy(stats)
        self.hands += later.hands
        self.meetings += later.meetings


@dataclass
class Kept:
    """The statistics of every evening up to one: all time, and that evening's season so far."""

    all: SeasonPart = field(default_factory=SeasonPart)
    season_id: int | None = None
    season: SeasonPart = field(default_factory=SeasonPart)


def league_statistics(*, league: League, season: Season | None = None) -> LeagueStatistics:
    """The statistics of ``league`` in ``season`` (None: all time, the seasons in their order):
    what is kept of the evenings before tonight, and tonight counted afresh (module
    docstring). A fixed number of queries, and a season over since before tonight is read
    from its own row."""
    evenings = evenings_of(league, order=BY_SEASON, tag=f"statistics-{VERSION}")
    ends = evenings.season_ends
    if season is not None and ends.get(season.pk, -1) < evenings.tonight:
        return merged(league=league, season=season, part=_season_over(league, evenings, season.pk))
    kept, tonight = _kept_and_tonight(league, evenings)
    if season is None:
        part = kept.all
        for later in tonight.values():
            part.absorb(later)
    else:
        part = kept.season if kept.season_id == season.pk else SeasonPart()
        part.absorb(tonight.get(season.pk, SeasonPart()))
    return merged(league=league, season=season, part=part)


def _season_over(league: League, evenings: Evenings, season_id: int) -> SeasonPart:
    """A season whose evenings are all before tonight: its row, or counted and kept."""
    end = evenings.season_ends.get(season_id)
    if end is None:
        return SeasonPart()  # a season without an evening
    key = f"kl-stats-{VERSION}:{league.pk}:{season_id}"
    row = derived_cache.get(league, key)
    if evenings.reached(row) == end:
        return row[2]
    groups = dict.fromkeys(evenings.of_season(season_id), season_id)
    part = evening_parts(league=league, groups=groups)[season_id]
    derived_cache.set_many(league, {key: (*evenings.mark(end), part)})
    return part


def _kept_and_tonight(league: League, evenings: Evenings) -> tuple[Kept, dict[int, SeasonPart]]:
    """What is kept of the evenings before tonight (brought up to the evening before tonight
    and kept again when evenings closed since), and tonight's parts by season, in order."""
    row = derived_cache.get(league, f"kl-stats-{VERSION}:{league.pk}")
    reached = evenings.reached(row)
    kept = row[2] if reached >= 0 else None
    stale = kept is None
    if stale:
        reached, kept = _from_seasons(league, evenings)
    fresh = [(e.id, (e.season_id, i < evenings.tonight)) for i, e in enumerate(evenings.after(reached), reached + 1)]
    parts = _counted(league, fresh)
    closed = {sid: part for (sid, before), part in parts.items() if before}
    if closed or (stale and reached >= 0):
        _keep_on(league, evenings, kept, closed, reach=evenings.tonight - 1 if closed else reached)
    return kept, {sid: part for (sid, before), part in parts.items() if not before}


def _counted(league: League, groups: list[tuple[int, Any]]) -> dict[Any, SeasonPart]:
    """``evening_parts`` of many evenings ((meeting id, group), in order), read some at a time."""
    parts: dict[Any, SeasonPart] = {}
    for start in range(0, len(groups), EVENINGS_AT_ONCE):
        for group, part in evening_parts(league=league, groups=dict(groups[start : start + EVENINGS_AT_ONCE])).items():
            if group in parts:
                parts[group].absorb(part)
            else:
                parts[group] = part
    return parts


def _keep_on(league: League, evenings: Evenings, kept: Kept, closed: dict[int, SeasonPart], *, reach: int) -> None:
    """Add the parts of the evenings closed since (by season, in order) to ``kept`` and keep
    it as reaching evening ``reach``, with each season that is over now in a row of its own."""
    ends = evenings.season_ends
    rows = {}
    for sid, part in closed.items():
        if sid == kept.season_id:
            kept.season.absorb(part)
        else:
            kept.season_id, kept.season = sid, part
        kept.all.absorb(part)
        if ends[sid] < evenings.tonight:
            rows[f"kl-stats-{VERSION}:{league.pk}:{sid}"] = (*evenings.mark(ends[sid]), kept.season)
    rows[f"kl-stats-{VERSION}:{league.pk}"] = (*evenings.mark(reach), kept)
    derived_cache.set_many(league, rows)


def _from_seasons(league: League, evenings: Evenings) -> tuple[int, Kept]:
    """When what was kept up to tonight no longer matches (or was never kept): the seasons
    that still match, from the first on, merged; (the index of their last evening, them)."""
    ends = evenings.season_ends
    keys = {sid: f"kl-stats-{VERSION}:{league.pk}:{sid}" for sid in ends}
    rows = derived_cache.get_many(league, list(keys.values()))
    reached, kept = -1, Kept()
    for sid, key in keys.items():
        if evenings.reached(rows.get(key)) != ends[sid]:
            break
        reached, kept.season_id, kept.season = ends[sid], sid, rows[key][2]
        kept.all.absorb(kept.season)
    return reached, kept


def compute_statistics(*, league: League, season: Season | None = None) -> LeagueStatistics:
    """Work the statistics out afresh, without the kept parts."""
    ids = Meeting.objects.filter(league=league).order_by(*BY_SEASON)
    if season is not None:
        ids = ids.filter(season=season)
    parts = evening_parts(league=league, groups={pk: sid for pk, sid in ids.values_list("pk", "season_id")})
    total = SeasonPart()
    for part in parts.values():
        total.absorb(part)
    return merged(league=league, season=season, part=total)


def merged(*, league: League, season: Season | None, part: SeasonPart) -> LeagueStatistics:
    """A part as the statistics of ``season`` (None: all time), with today's players."""
    players = {p.id: p for p in Player.objects.filter(league=league)}
    for pid, stats in part.players.items():
        stats.player = players.get(pid)
    played = sorted(
        (p for p in part.players.values() if p.player is not None and p.games.games),
        key=lambda p: p.player.name.lower(),
    )
    return LeagueStatistics(
        league=league,
        season=season,
        doppelkopf=league.game == "doppelkopf",
        race=is_race_game(league.game),
        players=played,
        hands=part.hands,
        meetings=part.meetings,
    )


def evening_parts(*, league: League, groups: dict[int, Any]) -> dict[Any, SeasonPart]:
    """Count the evenings ``groups`` names ({meeting id: the part it counts in}), each part's
    evenings in playing order; the parts in the order of their first evening (seasons in
    their order). Five queries
    whatever their number and size, six with a replay for the games other than Doppelkopf,
    three or four more where some were played for money (their settlements)."""
    doppelkopf = league.game == "doppelkopf"
    # What a replay needs (rules, teams, start totals: JSON decoded per meeting) only when
    # there is one to run: Doppelkopf has none (module docstring).
    replay = () if doppelkopf else ("game", "variant", "teams", "start_totals")
    meetings = list(
        Meeting.objects.filter(league=league, pk__in=list(groups))
        .order_by(*BY_SEASON)
        .only("id", "date", "season_id", "imported_totals", "closed_at", "table_number", *MONEY_FIELDS, *replay)
    )
    names = dict(Player.objects.filter(league=league).values_list("name", "id"))
    ids = [m.id for m in meetings]
    hands = hands_in_play_order(meetings=ids)
    by_hand = active_results(meetings=ids, seat_order=False)
    parts: dict[Any, SeasonPart] = {}
    for m in meetings:
        # A club night is one evening: counted at its first table.
        parts.setdefault(groups[m.id], SeasonPart()).meetings += int(m.table_number in (None, 1))

    def stats_in(meeting_id):
        table = parts[groups[meeting_id]].players

        def get(pid):
            if pid not in table:
                table[pid] = PlayerStats(player=None)
            return table[pid]

        return get

    for hand_id, meeting_id, payload in hands:
        parts[groups[meeting_id]].hands += 1
        rows = by_hand.get(hand_id, ())
        if doppelkopf:
            doppelkopf_hand(payload, rows, stats_in(meeting_id), names)
        else:
            other_hand(rows, stats_in(meeting_id))
    _evenings(meetings, stats_in, race=is_race_game(league.game))
    if not doppelkopf:
        replayed_figures(meetings, hands, stats_in, names)
    _money(meetings, stats_in)
    return parts


# What an evening's settlement reads of its meeting (the rules: how many games make a match).
MONEY_FIELDS = ("money_rules", "rules", "pennant_holder", "pennant_forgotten")


def _money(meetings: list[Meeting], stats_in) -> None:
    """Each player's net of the closed evenings played for money, from their settlements (a
    few queries for them all; none when no evening was played for money)."""
    for meeting_id, evening in settlement.settlements(meetings=meetings).items():
        ids = {player.name: player.pk for player in evening.players}
        for name, cents in evening.settlement.nets.items():
            stats = stats_in(meeting_id)(ids[name])
            stats.money_cents += cents
            stats.money_evenings += 1


def _evenings(meetings: list[Meeting], stats_in, *, race: bool) -> None:
    """Each player's evenings (total, pennant) in playing order, and the points they add."""
    by_id = {m.id: m for m in meetings}
    order = {m.id: i for i, m in enumerate(meetings)}
    touched = {}
    for meeting_id, player_id, total, points, won in (
        MeetingResult.objects.filter(meeting__in=list(by_id))
        .order_by()
        .values_list("meeting_id", "player_id", "total", "points", "won_evening")
    ):
        meeting = by_id[meeting_id]
        stats = stats_in(meeting_id)(player_id)
        touched[id(stats)] = stats
        # Only a closed evening has a winner (league.md, the pennant).
        won = won and meeting.closed_at is not None
        stats.evening_rows.append((meeting_id, meeting.date.toordinal(), total, won))
        if not meeting.imported_totals:  # an evening copied from paper has no hands behind it
            stats.race_points += points if race else total
    for stats in touched.values():
        stats.evening_rows.sort(key=lambda e: order[e[0]])
