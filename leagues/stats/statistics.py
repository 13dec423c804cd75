"""Statistics of a league and of each player, season or all time. Reads only.

Everything is derived, nothing is stored twice: the hands as entered (``Hand.payload``) say
what a hand was (Re pair, solo type, announcements, special points, who revoked, bids); the
replay's cached figures (``HandResult``: who was active, delta, won, the round) say how it
ended; ``MeetingResult`` gives each evening's total and its pennant. Doppelkopf needs nothing
else. The other games' bids made or failed, jinks and matches exist only in a replay, so their
meetings are replayed here through ``scoring`` (no Django there, no queries).

The queries are a fixed number whatever the size of the league; the Python work grows with the
hands. Working all of a big league out (``python -m tests.bench.statistics_cold``) takes the
better part of a second, most of it reading the rows and counting the player-hands in
``_doppelkopf_hand``. So each season's part is kept with a fingerprint of its hands and
results (``season_fingerprints``), all time is the seasons' parts merged (and kept too): a page
read again reads no hand, and after a hand entered tonight only tonight's season is worked out
again. They are kept in the database (``leagues.derived_cache``): worked out once for every
worker and machine, and still there after a restart.
"""

from __future__ import annotations

import copy
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import Count, Max, Q, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.games import is_race_game
from leagues.models import Hand, HandResult, League, Meeting, MeetingResult, Player, Season, Seat
from leagues.stats import derived_cache
from scoring.errors import ScoringError
from scoring.sitting import calculate

# In the keys of the kept parts: raised whenever what a part holds changes (a field of
# PlayerStats or SeasonPart, a rule of counting), so that a part kept in the old shape, or
# counted the old way, is never read again: the parts outlive the process that wrote them.
VERSION = 2
TWO_PLACES = Decimal("0.01")

# Doppelkopf calls from lowest to highest (doppelkopf.md "What one game records").
CALL_LEVELS = {"re": 0, "kontra": 0, "keine_90": 1, "keine_60": 2, "keine_30": 3, "schwarz": 4}
# The absage a winner's margin would have made, by the loser's eyes (doppelkopf.md, item 2).
ABSAGE_BY_LEVEL = {1: "keine_90", 2: "keine_60", 3: "keine_30", 4: "schwarz"}
SOLO_TYPES = ("trumpf", "damen", "buben", "fleischlos", "stilles", "hochzeit")
SPECIAL_KINDS = ("doppelkopf", "fuchs", "karlchen")
ROUNDS = ("normal", "bock", "ramsch", "pflichtsolo", "penalty")


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
    date: Any
    total: int
    won: bool


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
    evenings: list[Evening] = field(default_factory=list)
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
        self.evenings = self.evenings + later.evenings

    @property
    def pennants(self) -> int:
        return sum(e.won for e in self.evenings)

    @property
    def best_evening(self) -> Evening | None:
        return max(self.evenings, key=lambda e: (e.total, e.date), default=None)

    @property
    def worst_evening(self) -> Evening | None:
        return min(self.evenings, key=lambda e: (e.total, e.date), default=None)

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


def season_fingerprints(league: League) -> dict[int, str]:
    """{season id: a digest that changes with every write of one of its hands (entered,
    corrected, deleted, restored: the newest ``changed_at`` and the counts) and of its cached
    results (the MeetingResult sums the single writer keeps with every HandResult write: a
    round carried in from an earlier evening, a rule or pennant that changes a replay without
    touching a hand) and of its meetings (an evening started has no hand yet, but counts
    and has its point on the ratings' chart; an evening closed or reopened gains or loses
    its winner: the closed ones' count and newest closing time)}. Three grouped queries, whatever the number of
    seasons, and the hands' one only when a hand anywhere changed since it was last asked
    (``_hand_prints``)."""
    figures: dict[int, list] = defaultdict(list)
    for sid, parts in _hand_prints(league).items():
        figures[sid].append(parts)
    for sid, count, last, closed, closed_last in (
        Meeting.objects.filter(league=league)
        .values("season_id")
        .annotate(
            count=Count("id"),
            last=Max("id"),
            closed=Count("id", filter=Q(closed_at__isnull=False)),
            closed_last=Max("closed_at"),
        )
        .order_by("season_id")
        .values_list("season_id", "count", "last", "closed", "closed_last")
    ):
        figures[sid].append(("meetings", str(count), str(last), str(closed), str(closed_last)))
    for row in (
        MeetingResult.objects.filter(league=league)
        .values("season_id")
        .annotate(
            rows=Count("id"),
            total=Sum("total"),
            games=Sum("games"),
            wins=Sum("wins"),
            solos=Sum("solos"),
            solos_won=Sum("solos_won"),
            games_won=Sum("games_won"),
            points=Sum("points"),
            evenings=Count("id", filter=Q(won_evening=True)),
            last=Max("id"),
        )
        .order_by("season_id")
        .values_list(
            "season_id",
            "rows",
            "total",
            "games",
            "wins",
            "solos",
            "solos_won",
            "games_won",
            "points",
            "evenings",
            "last",
        )
    ):
        figures[row[0]].append(tuple(str(v) for v in row[1:]))
    return {sid: hashlib.sha256(repr(parts).encode()).hexdigest()[:32] for sid, parts in figures.items()}


def kept_mark(league: League, fingerprint: str) -> str:
    """What a kept part is stored with and read back only when it still matches: the
    fingerprint of what it was worked out from, and the league's creation time, because the
    keys name the league and its seasons by id, and SQLite gives a deleted league's id (and its
    seasons') to the next one created."""
    return f"{league.created_at.isoformat()}|{fingerprint}"


def _hand_prints(league: League) -> dict[int, tuple]:
    """{season id: (hands, live hands, the newest change)}. Grouping the league's hands costs
    20 ms on the bench league, most of a page read from the cache; every write of a hand adds a
    row to its history (simple_history), so the newest history row, read from the primary key's
    index, says whether anything changed since the figures were kept. Its id *and its time*:
    after a restore from a backup the ids go on from the backup's newest, and the next write
    gets an id that a write before the restore had (with other hands behind it), never its time.
    And the league's creation time (``kept_mark``)."""
    newest = list(Hand.history.order_by("-history_id").values_list("history_id", "history_date")[:1])
    mark = kept_mark(league, repr(newest))
    key = f"kl-handprints-{VERSION}:{league.pk}"
    kept = derived_cache.get(league, key)
    if kept is not None and kept[0] == mark:
        found = kept[1]
    else:
        found = {
            sid: (str(rows), str(live), str(changed))
            for sid, rows, live, changed in Hand.objects.filter(meeting__league=league)
            .values("meeting__season_id")
            .annotate(rows=Count("id"), live=Count("id", filter=Q(deleted_at=None)), changed=Max("changed_at"))
            .order_by("meeting__season_id")
            .values_list("meeting__season_id", "rows", "live", "changed")
        }
        derived_cache.set_many(league, {key: (mark, found)})
    return found


@dataclass
class SeasonPart:
    """One season's statistics by player id (players unnamed: the names are read fresh)."""

    players: dict[int, PlayerStats]
    hands: int
    meetings: int


def league_statistics(*, league: League, season: Season | None = None) -> LeagueStatistics:
    """The statistics of ``league`` in ``season`` (None: all time, every season's merged in
    playing order). Each season's part is kept (``derived_cache``, one row a season, overwritten)
    with its fingerprint and read only while the fingerprint still matches, so that a hand
    entered tonight works out tonight's season again and reads the others (measured: see the
    module docstring). A fixed number of queries: seasons, players, the fingerprints, the kept
    parts, and for the seasons whose part is missing or outdated the five reads of
    ``season_parts`` and one write."""
    seasons = [season] if season is not None else list(Season.objects.filter(league=league).order_by("number"))
    prints = season_fingerprints(league)
    marks = {s.pk: kept_mark(league, prints.get(s.pk, "-")) for s in seasons}
    keys = {s.pk: f"kl-stats-{VERSION}:{league.pk}:{s.pk}" for s in seasons}
    # All time, merged, with the fingerprints of every season: a page read again merges nothing.
    every = hashlib.sha256(repr([(s.pk, marks[s.pk]) for s in seasons]).encode()).hexdigest()[:32]
    whole = f"kl-stats-{VERSION}-all:{league.pk}"
    if season is None:
        kept = derived_cache.get(league, whole)
        if kept is not None and kept[0] == every:
            return merged(league=league, season=season, parts=[kept[1]])
    kept = derived_cache.get_many(league, keys.values())
    parts = {sid: kept[key][1] for sid, key in keys.items() if key in kept and kept[key][0] == marks[sid]}
    missing = [s for s in seasons if s.pk not in parts]
    fresh = season_parts(league=league, seasons=missing) if missing else {}
    parts.update(fresh)
    write = {keys[sid]: (marks[sid], part) for sid, part in fresh.items()}
    if season is None:
        total = merged_part([parts[s.pk] for s in seasons])
        write[whole] = (every, total)
    derived_cache.set_many(league, write)
    if season is None:
        return merged(league=league, season=season, parts=[total])
    return merged(league=league, season=season, parts=[parts[s.pk] for s in seasons])


def compute_statistics(*, league: League, season: Season | None = None) -> LeagueStatistics:
    """Work the statistics out afresh, without the cache."""
    seasons = [season] if season is not None else list(Season.objects.filter(league=league).order_by("number"))
    parts = season_parts(league=league, seasons=seasons)
    return merged(league=league, season=season, parts=[parts[s.pk] for s in seasons])


def merged_part(parts: list[SeasonPart]) -> SeasonPart:
    """The seasons' parts, in playing order, as one (the parts themselves stay as they were)."""
    total: dict[int, PlayerStats] = {}
    for part in parts:
        for pid, stats in part.players.items():
            if pid in total:
                total[pid].absorb(stats)
            else:
                total[pid] = copy.deepcopy(stats)
    return SeasonPart(players=total, hands=sum(p.hands for p in parts), meetings=sum(p.meetings for p in parts))


def merged(*, league: League, season: Season | None, parts: list[SeasonPart]) -> LeagueStatistics:
    """The seasons' parts, in playing order, as one set of statistics with today's players."""
    players = {p.id: p for p in Player.objects.filter(league=league)}
    part = merged_part(parts) if len(parts) != 1 else parts[0]
    total = part.players
    for pid, stats in total.items():
        stats.player = players.get(pid)
    played = sorted(
        (p for p in total.values() if p.player is not None and p.games.games), key=lambda p: p.player.name.lower()
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


def season_parts(*, league: League, seasons: list[Season]) -> dict[int, SeasonPart]:
    """Work out the statistics of ``seasons`` (five queries whatever their number and size,
    six with a replay for the games other than Doppelkopf)."""
    ids = [s.pk for s in seasons]
    doppelkopf = league.game == "doppelkopf"
    # What a replay needs (rules, teams, start totals: JSON decoded per meeting) only when
    # there is one to run: Doppelkopf has none (module docstring).
    replay = () if doppelkopf else ("game", "variant", "rules", "teams", "start_totals")
    meetings = list(
        Meeting.objects.filter(league=league, season__in=ids)
        .order_by("date", "id")
        .only("id", "date", "season_id", "imported_totals", "closed_at", *replay)
    )
    order = {m.id: i for i, m in enumerate(meetings)}
    names = dict(Player.objects.filter(league=league).values_list("name", "id"))
    hands = hands_in_play_order(seasons=ids)
    by_hand = active_results(seasons=ids, seat_order=False)
    race = is_race_game(league.game)
    season_of = {m.id: m.season_id for m in meetings}
    players: dict[int, dict[int, PlayerStats]] = {sid: {} for sid in ids}

    def stats_of(season_id):
        table = players[season_id]

        def get(pid):
            if pid not in table:
                table[pid] = PlayerStats(player=None)
            return table[pid]

        return get

    counts: dict[int, list[int]] = {sid: [0, 0] for sid in ids}  # hands, meetings
    for m in meetings:
        counts[m.season_id][1] += 1
    getters = {sid: stats_of(sid) for sid in ids}
    for hand_id, meeting_id, payload in hands:
        sid = season_of[meeting_id]
        counts[sid][0] += 1
        rows = by_hand.get(hand_id, ())
        if doppelkopf:
            _doppelkopf_hand(payload, rows, getters[sid], names)
        else:
            _other_hand(rows, getters[sid])
    for meeting_id, player_id, total, points, won in (
        MeetingResult.objects.filter(season__in=ids)
        .order_by()
        .values_list("meeting_id", "player_id", "total", "points", "won_evening")
    ):
        if meeting_id not in order:
            continue
        meeting = meetings[order[meeting_id]]
        stats = stats_of(meeting.season_id)(player_id)
        # Only a closed evening has a winner (league.md, the pennant).
        won = won and meeting.closed_at is not None
        stats.evenings.append(Evening(meeting_id=meeting_id, date=meeting.date, total=total, won=won))
        if not meeting.imported_totals:  # an evening copied from paper has no hands behind it
            stats.race_points += points if race else total
    if not doppelkopf:
        _replayed_figures(meetings, hands, lambda mid: stats_of(season_of[mid]), names)
    for table in players.values():
        for stats in table.values():
            stats.evenings.sort(key=lambda e: order[e.meeting_id])
    return {sid: SeasonPart(players=players[sid], hands=counts[sid][0], meetings=counts[sid][1]) for sid in ids}


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


def chart_by_role(stats: LeagueStatistics) -> dict[str, Any]:
    """Bar chart data: each player's points per game as Re, as Kontra and as soloist."""
    labels = [p.player.name for p in stats.players]

    def series(name):
        return [float(getattr(p, name).per_game or 0) for p in stats.players]

    return {
        "labels": labels,
        "datasets": [
            {"label": _("Re"), "data": series("re")},
            {"label": _("Kontra"), "data": series("kontra")},
            {"label": _("Solo"), "data": series("solo")},
        ],
    }


def chart_evenings(player: PlayerStats) -> dict[str, Any]:
    """Line chart data: a player's total per evening."""
    return {
        "labels": [e.date.isoformat() for e in player.evenings],
        "datasets": [{"label": player.player.name, "data": [e.total for e in player.evenings]}],
    }


SOLO_LABELS = {
    "trumpf": gettext_lazy("Trump solo"),
    "damen": gettext_lazy("Queen solo"),
    "buben": gettext_lazy("Jack solo"),
    "fleischlos": gettext_lazy("Fleischlos"),
    "stilles": gettext_lazy("Silent wedding"),
    "hochzeit": gettext_lazy("Wedding without partner"),
}
KIND_LABELS = {"hochzeit": gettext_lazy("Wedding (with partner)"), "trumpfabgabe": gettext_lazy("Trumpfabgabe")}
ROUND_LABELS = {
    "bock": gettext_lazy("Bock round"),
    "ramsch": gettext_lazy("Ramsch round"),
    "pflichtsolo": gettext_lazy("Pflichtsolo round"),
    "penalty": gettext_lazy("Penalty solo"),
}
CALL_LABELS = {
    "re": gettext_lazy("Re"),
    "kontra": gettext_lazy("Kontra"),
    "keine_90": gettext_lazy("No 90"),
    "keine_60": gettext_lazy("No 60"),
    "keine_30": gettext_lazy("No 30"),
    "schwarz": gettext_lazy("Schwarz"),
}
SPECIAL_LABELS = {
    "doppelkopf": gettext_lazy("Doppelkopf"),
    "fuchs": gettext_lazy("Fox caught"),
    "karlchen": gettext_lazy("Karlchen"),
}


def doppelkopf_categories(player: PlayerStats) -> list[tuple[Any, Tally]]:
    """A player's (label, tally) by kind of game, those he played, for his page."""
    rows: list[tuple[Any, Tally]] = [
        (gettext_lazy("As Re"), player.re),
        (gettext_lazy("As Kontra"), player.kontra),
        (gettext_lazy("As soloist"), player.solo),
    ]
    rows += [(SOLO_LABELS[t], player.solo_types[t]) for t in SOLO_TYPES if t in player.solo_types]
    rows.append((gettext_lazy("Against a solo"), player.against_solo))
    rows += [(label, player.kinds[k]) for k, label in KIND_LABELS.items() if k in player.kinds]
    rows += [(label, player.rounds[r]) for r, label in ROUND_LABELS.items() if r in player.rounds]
    return [(label, tally) for label, tally in rows if tally.games]


def call_rows(player: PlayerStats) -> list[tuple[Any, Tally]]:
    """(label, tally of the games whose party's highest call it was), lowest call first."""
    return [(label, player.calls[c]) for c, label in CALL_LABELS.items() if c in player.calls]


def special_rows(player: PlayerStats) -> list[tuple[Any, int, int]]:
    return [
        (label, player.specials_made.get(k, 0), player.specials_conceded.get(k, 0))
        for k, label in SPECIAL_LABELS.items()
        if player.specials_made.get(k) or player.specials_conceded.get(k)
    ]


# --- reading the hands (shared with leagues.ratings) -------------------------------------------


def hands_in_play_order(*, seasons: list[int]) -> list[tuple[int, int, dict]]:
    """(hand id, meeting id, payload) of the live hands of ``seasons`` in playing order: the
    meetings by date (then id), each meeting's hands by position (the sheet's order)."""
    return list(
        Hand.objects.filter(meeting__season__in=seasons, deleted_at=None)
        .order_by("meeting__date", "meeting_id", "position")
        .values_list("id", "meeting_id", "payload")
    )


def active_results(*, seasons: list[int], seat_order: bool = True) -> dict[int, list[tuple]]:
    """{hand id: [(player id, active, delta, won, round, games_won), ...]} of the players
    active in each hand of ``seasons`` (who sat out is in no statistic and no match), with
    ``seat_order`` in seat order: by id, as the single writer inserts a hand's rows in the
    replay's party order (sorting them costs a tenth of the read; the statistics need no order)."""
    by_hand: dict[int, list[tuple]] = defaultdict(list)
    rows = HandResult.objects.filter(season__in=seasons, active=True).order_by(*(["id"] if seat_order else []))
    for row in rows.values_list("hand_id", "player_id", "active", "delta", "won", "round", "games_won"):
        by_hand[row[0]].append(row[1:])
    return by_hand
