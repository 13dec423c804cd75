"""Statistics of a league and of each player, season or all time. Reads only.

Everything is derived, nothing is stored twice: the hands as entered (``Hand.payload``) say
what a hand was (Re pair, solo type, announcements, special points, who revoked, bids); the
replay's cached figures (``HandResult``: who was active, delta, won, the round) say how it
ended; ``MeetingResult`` gives each evening's total and its pennant. Doppelkopf needs nothing
else. The other games' bids made or failed, jinks and matches exist only in a replay, so their
meetings are replayed here through ``scoring`` (no Django there, no queries).

The figures are counted evening by evening, and a season's are added to the ones before it
(``PlayerStats.absorb``: a winning run that spans them counts whole). What the evenings before
tonight add up to is kept in the table of derived figures (``leagues.derived_cache``) with the
mark of the last evening it holds (``leagues.evenings``): all time and that evening's season so
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

from scoring.errors import ScoringError
from scoring.sitting import calculate

from . import derived_cache
from .evenings import BY_SEASON, EVENINGS_AT_ONCE, Evenings, active_results, evenings_of, hands_in_play_order
from .models import League, Meeting, MeetingResult, Player, Season, Seat
from .selectors import is_race_game

# In the marks of the kept parts: raised whenever what a part holds changes (a field of
# PlayerStats or SeasonPart, a rule of counting), so that a part kept in the old shape, or
# counted the old way, is never read again: the parts outlive the process that wrote them.
VERSION = 3
TWO_PLACES = Decimal("0.01")

# Doppelkopf calls from lowest to highest (doppelkopf.md "What one game records").
CALL_LEVELS = {"re": 0, "kontra": 0, "keine_90": 1, "keine_60": 2, "keine_30": 3, "schwarz": 4}
SPECIAL_KINDS = ("doppelkopf", "fuchs", "karlchen")


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
        for name in ("party_games", "missed", "revokes", "games_won", "matches_won", "race_points"):
            setattr(self, name, getattr(self, name) + getattr(later, name))
        self.evening_rows = self.evening_rows + later.evening_rows

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
    parts: dict[tuple[int, bool], SeasonPart] = {}
    for start in range(0, len(fresh), EVENINGS_AT_ONCE):
        for group, part in evening_parts(league=league, groups=dict(fresh[start : start + EVENINGS_AT_ONCE])).items():
            if group in parts:
                parts[group].absorb(part)
            else:
                parts[group] = part
    closed = {sid: part for (sid, before), part in parts.items() if before}
    if closed or (stale and reached >= 0):
        _keep_on(league, evenings, kept, closed, reach=evenings.tonight - 1 if closed else reached)
    return kept, {sid: part for (sid, before), part in parts.items() if not before}


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
    whatever their number and size, six with a replay for the games other than Doppelkopf."""
    doppelkopf = league.game == "doppelkopf"
    # What a replay needs (rules, teams, start totals: JSON decoded per meeting) only when
    # there is one to run: Doppelkopf has none (module docstring).
    replay = () if doppelkopf else ("game", "variant", "rules", "teams", "start_totals")
    meetings = list(
        Meeting.objects.filter(league=league, pk__in=list(groups))
        .order_by(*BY_SEASON)
        .only("id", "date", "season_id", "imported_totals", "closed_at", *replay)
    )
    names = dict(Player.objects.filter(league=league).values_list("name", "id"))
    ids = [m.id for m in meetings]
    hands = hands_in_play_order(meetings=ids)
    by_hand = active_results(meetings=ids, seat_order=False)
    parts: dict[Any, SeasonPart] = {}
    for m in meetings:
        parts.setdefault(groups[m.id], SeasonPart()).meetings += 1

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
            _doppelkopf_hand(payload, rows, stats_in(meeting_id), names)
        else:
            _other_hand(rows, stats_in(meeting_id))
    _evenings(meetings, stats_in, race=is_race_game(league.game))
    if not doppelkopf:
        _replayed_figures(meetings, hands, stats_in, names)
    return parts


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


def _doppelkopf_hand(payload: dict, rows, stats_of, names: dict[str, int]) -> None:
    """Count one Doppelkopf hand for each active player (doppelkopf.md for every rule used)."""
    active = [r for r in rows if r[1]]
    if not active:
        return
    kind = payload.get("kind", "normal")
    re_ids = {names.get(n) for n in payload.get("re") or ()}
    solo = kind == "solo" or (kind == "hochzeit" and len(re_ids) == 1)
    solo_type = payload.get("solo") if kind == "solo" else "hochzeit"
    won_by = {pid: won for pid, _a, _d, won, _r, _g in active}
    delta_of = {pid: delta for pid, _a, delta, _w, _r, _g in active}
    sides: dict[int, str] = {}
    if kind == "revoke":
        revoker = names.get(payload.get("revoke_by"))
        sides = {pid: ("revoke" if pid == revoker else "others") for pid in won_by}
        if revoker is not None:
            stats_of(revoker).revokes += 1
    elif kind != "ramsch":
        sides = {pid: ("re" if pid in re_ids else "kontra") for pid in won_by}
    highest = _highest_calls(payload.get("announcements") or ())
    specials = payload.get("specials") or ()
    missed = _missed_absage(payload, won_by, sides)
    for pid, _active, delta, won, rnd, _g in active:
        stats = stats_of(pid)
        stats.count_game(delta, won)
        stats.rounds[rnd or "normal"].add(delta, won)
        stats.kinds[kind].add(delta, won)
        side = sides.get(pid)
        if side in ("re", "kontra"):
            stats.party_games += 1
            if solo:
                (stats.solo if side == "re" else stats.against_solo).add(delta, won)
                if side == "re":
                    stats.solo_types[solo_type].add(delta, won)
            else:
                (stats.re if side == "re" else stats.kontra).add(delta, won)
            call = highest.get(side)
            if call is not None:
                # A party's highest call counts; it is made exactly when the party reached
                # the target that call set, which is when it won (DDV §7.1, "Who wins").
                stats.announced.add(delta, won)
                stats.calls[call].add(delta, won)
            if missed.get(side):
                stats.missed += 1
            for special in specials:
                if special.get("kind") not in SPECIAL_KINDS:
                    continue
                mine = special.get("party") == side
                (stats.specials_made if mine else stats.specials_conceded)[special["kind"]] += 1
        # Partners: on the same side in the hand; opponents: on the other (Ramsch: everyone).
        for other in delta_of:
            if other == pid:
                continue
            same = side is not None and sides.get(other) == side
            (stats.partners if same else stats.opponents)[other].add(delta, won)


def _highest_calls(announcements) -> dict[str, str]:
    """Each party's highest call (an absage implies its party's Re/Kontra)."""
    highest: dict[str, str] = {}
    for a in announcements:
        party, call = a.get("party"), a.get("call")
        if call not in CALL_LEVELS or party not in ("re", "kontra"):
            continue
        if party not in highest or CALL_LEVELS[call] > CALL_LEVELS[highest[party]]:
            highest[party] = call
    return highest


def _missed_absage(payload: dict, won_by: dict[int, bool], sides: dict[int, str]) -> dict[str, bool]:
    """{party: True} when the party won with a margin that an absage it did not say would have
    made: the loser under 90 / 60 / 30 eyes or without a trick (doppelkopf.md, item 2) above
    the party's own highest call (the club's "loser gets the points" punishes exactly this)."""
    if "re_eyes" not in payload or not sides:
        return {}
    re_eyes = payload["re_eyes"]
    for side in ("re", "kontra"):
        members = [pid for pid, s in sides.items() if s == side]
        if not members or not all(won_by[pid] for pid in members):
            continue
        loser_eyes = 240 - re_eyes if side == "re" else re_eyes
        tricks = payload.get("re_tricks")
        loser_tricks = (12 - tricks if side == "re" else tricks) if tricks is not None else None
        no_trick = loser_tricks == 0 if loser_tricks is not None else loser_eyes == 0
        reachable = 4 if no_trick else 3 if loser_eyes < 30 else 2 if loser_eyes < 60 else 1 if loser_eyes < 90 else 0
        said = CALL_LEVELS.get(_highest_calls(payload.get("announcements") or ()).get(side), 0)
        return {side: reachable > said}
    return {}


def _other_hand(rows, stats_of) -> None:
    for pid, active, delta, won, _rnd, games_won in rows:
        if not active:
            continue
        stats = stats_of(pid)
        stats.count_game(delta, won)
        stats.games_won += games_won


def _replayed_figures(meetings, hands, stats_in, names: dict[str, int]) -> None:
    """Bids made and failed by size, jinks and matches: figures only a replay has. Each meeting
    is replayed in process from what was already read (one more query: the seats)."""
    seats: dict[int, list[str]] = defaultdict(list)
    for meeting_id, name in (
        Seat.objects.filter(meeting__in=[m.id for m in meetings])
        .order_by("meeting_id", "position")
        .values_list("meeting_id", "player__name")
    ):
        seats[meeting_id].append(name)
    payloads: dict[int, list[Any]] = defaultdict(list)
    for _id, meeting_id, payload in hands:
        payloads[meeting_id].append(payload)
    for meeting in meetings:
        if not payloads.get(meeting.id):
            continue
        request: dict[str, Any] = {
            "game": meeting.game,
            "variant": meeting.variant,
            "rules": meeting.rules,
            "players": seats[meeting.id],
            "hands": payloads[meeting.id],
        }
        if meeting.teams:
            request["teams"] = meeting.teams
        if meeting.start_totals:
            request["start_totals"] = meeting.start_totals
        try:
            result = calculate(request)
        except ScoringError:
            continue  # a meeting that no longer adds up counts nothing here (verify_replays names it)
        members = meeting.teams or {}

        def ids(party, members=members):
            return [names[n] for n in members.get(party, [party]) if n in names]

        for payload, figures in zip(payloads[meeting.id], result["hands"], strict=False):
            bidder = payload.get("declarer") or payload.get("bidder") or payload.get("maker")
            bid = payload.get("bid")
            made = figures.get("made")
            if bidder and isinstance(bid, int) and made is not None:
                size = figures.get("contract", bid)
                # 56: the bidder is a player; his team's figure is the one that counts.
                for pid in [names[bidder]] if bidder in names else ids(bidder):
                    stats_in(meeting.id)(pid).bids.setdefault(size, [0, 0])[0 if made else 1] += 1
            if figures.get("jink") and payload.get("tricks"):
                jinker = names.get(payload["tricks"][0])
                if jinker is not None:
                    stats_in(meeting.id)(jinker).jinks[0 if figures["jink"] == "made" else 1] += 1
        for match in result.get("matches") or ():
            for pid in ids(match.get("winner")) if match.get("winner") else ():
                stats_in(meeting.id)(pid).matches_won += 1
