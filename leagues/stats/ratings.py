"""Skill ratings with openskill's Plackett-Luce model. Reads only.

Why Plackett-Luce: it rates teams of any size and any number of teams with ties, in one
update per hand, which is what a card table needs (TrueSkill-like models do too, but
openskill's Plackett-Luce is the one its authors recommend, free of TrueSkill's patent and
fastest for up to a few teams). Every hand is one match, rated in playing order (meetings by
date, then hand number), over every season (a rating is a player's, not a season's):

- Doppelkopf, a game with parties: Re against Kontra (the pairs change every hand); the
  winning party ranks first; a game without a winner (both parties missed their absagen) is
  a tie.
- A solo (a Hochzeit without partner too), 1 against 3: one match of the soloist against the
  three, the three rated as a team whose skill is the *mean* of theirs (``rate_match``).
  openskill's own team skill is the sum of its players': 75 against 25 expects the three to
  win almost always, every solo won is a big surprise, the soloist gains what each of the
  three loses (not three times it), and the sum of all ratings sinks with every solo
  (measured: four players at 25 who play only solos, each won half the time, fall to an
  average of about 0 after 300 hands). Against the mean an even solo is an even match, and
  with equal uncertainties the soloist wins or loses exactly what the three lose or win
  together, a third from each: the sheet's 3 against 1 of a solo's points, and the sum of
  the ratings stays put (tests/stats/test_ratings_solo.py). The two other readings were worse:
  openskill's ``weights`` only scale the update, not the expectation (still 75 against 25),
  and three duels rated one hand as three, each of the three against a soloist who had
  already moved.
- A revoke: counted as a solo lost (doppelkopf.md "Revoke"), so rated as one: the revoker
  loses against the three.
- Ramsch and every other game: every active player for himself, ranked by the hand's delta
  (the most points first, equal deltas tie): in Ramsch the loser pays, in the race games the
  points scored decide who played the hand best.
- Whoever sits out a hand (the dealer at a table of five or six) is not in its match.

The model starts everyone at mu 25, sigma 25/3; the ranking orders by the conservative
``ordinal`` (mu − 3·sigma, openskill's own), so that a newcomer with a lucky first evening does
not top the list. Recomputed from the hands on read (a correction anywhere changes every later
rating); the state after each season is kept with the fingerprints of the seasons up to it
(``league_ratings``), so only the seasons from the newest change on are rated again. Rating the
bench league's 32,000 hands from scratch takes about 1.4 s on this shared machine (2.8 s while
the state was deep-copied after every evening), half of it in openskill's ``rate``; the states
are kept in the database (``leagues.derived_cache``), so that is paid once, not once per worker and
again after every restart.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from openskill.models import PlackettLuce

from leagues.models import League, Meeting, Player, Season
from leagues.stats import derived_cache
from leagues.stats.statistics import active_results, hands_in_play_order, kept_mark, percent, season_fingerprints

MODEL = PlackettLuce()
# The same model without its dynamics term: ``rate_match`` adds tau itself before it scales a
# team down to its mean (added by openskill to the scaled sigma, it would count three times).
STILL = PlackettLuce(tau=0)
DISPLAY = Decimal("0.1")
# In the keys of the kept rating states: a change of how hands are rated (or of what a
# RatingState holds) is a new key, so no state rated the old way is read again; the states
# outlive the process that wrote them (a table, ``leagues.derived_cache``).
METHOD = 2


def matches_of_hand(payload: dict, rows, *, doppelkopf: bool, names: dict[str, int]) -> list[tuple[list, list]]:
    """The matches one hand is rated as: a list of (teams, ranks), teams being lists of player
    ids in seat order, ranks 1 for the best. ``rows``: (player id, active, delta, won, ...) of
    the hand's cached results, in seat order; only the active players are in a match."""
    active = [(row[0], row[2], row[3]) for row in rows if row[1]]
    if len(active) < 2:
        return []
    kind = payload.get("kind") if doppelkopf else None
    if doppelkopf and kind == "revoke":
        revoker = names.get(payload.get("revoke_by"))
        others = [pid for pid, _d, _w in active if pid != revoker]
        if len(others) == len(active):  # no active player of that name: nobody to rate
            return []
        return [([[revoker], others], [2, 1])]
    if doppelkopf and kind != "ramsch":
        re_ids = {names.get(n) for n in payload.get("re") or ()}
        re = [pid for pid, _d, _w in active if pid in re_ids]
        kontra = [pid for pid, _d, _w in active if pid not in re_ids]
        if not re or not kontra:
            return []
        re_won = any(won for pid, _d, won in active if pid in re_ids)
        kontra_won = any(won for pid, _d, won in active if pid not in re_ids)
        ranks = [1, 2] if re_won else [2, 1] if kontra_won else [1, 1]
        # A solo is one match like any other: rate_match rates unequal teams by their mean.
        return [([re, kontra], ranks)]
    # Everyone for himself: the highest delta ranks first, equal deltas share a rank.
    ordered = sorted({delta for _pid, delta, _w in active}, reverse=True)
    rank_of = {delta: i + 1 for i, delta in enumerate(ordered)}
    return [([[pid] for pid, _d, _w in active], [rank_of[delta] for _pid, delta, _w in active])]


def rate_match(teams: list[list], *, ranks: list[int]) -> list[list]:
    """openskill's update of one match. Teams of equal size (Re against Kontra, everyone for
    himself) as openskill rates them, a team's skill the sum of its players'. Teams of unequal
    size (a solo, a revoke: one against three) each rated by the mean of its players' skills:
    a player's rating enters divided by the size of his team (mu / n, sigma / n: the mean of n
    independent skills has mean sum/n and variance sum/n²) and his update is scaled back by n.
    With equal sigmas the update then moves the one by as much as the three together, a third
    of it from each of them, and keeps the sum of the ratings (module docstring)."""
    sizes = {len(team) for team in teams}
    if len(sizes) == 1:
        return MODEL.rate(teams, ranks=ranks)
    scaled = [
        [STILL.rating(mu=r.mu / len(team), sigma=math.hypot(r.sigma, MODEL.tau) / len(team)) for r in team]
        for team in teams
    ]
    rated = STILL.rate(scaled, ranks=ranks)
    for team, new in zip(teams, rated, strict=True):
        for rating in new:  # openskill's fresh copies, ours to scale back
            rating.mu *= len(team)
            rating.sigma *= len(team)
    return rated


@dataclass
class RatingRow:
    player: Player
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    rank: int = 0

    @property
    def win_rate(self) -> int | None:
        return percent(self.wins, self.games)

    def shown(self, value: float) -> Decimal:
        return Decimal(repr(value)).quantize(DISPLAY)

    @property
    def mu_shown(self) -> Decimal:
        return self.shown(self.mu)

    @property
    def sigma_shown(self) -> Decimal:
        return self.shown(self.sigma)

    @property
    def ordinal_shown(self) -> Decimal:
        return self.shown(self.ordinal)


@dataclass
class Ratings:
    rows: list[RatingRow]
    hands: int
    chart: dict[str, Any] = field(default_factory=dict)


@dataclass
class RatingState:
    """Where the ratings stand after some seasons: plain numbers, so that it pickles."""

    ratings: dict[int, tuple[float, float]] = field(default_factory=dict)  # mu, sigma
    games: dict[int, int] = field(default_factory=dict)
    wins: dict[int, int] = field(default_factory=dict)
    evenings: list[tuple[str, dict[int, float]]] = field(default_factory=list)  # date, ordinals after it
    rated: int = 0

    def copy(self) -> RatingState:
        """A copy to go on from: the evenings' entries are never changed once appended."""
        return RatingState(
            ratings=dict(self.ratings),
            games=dict(self.games),
            wins=dict(self.wins),
            evenings=list(self.evenings),
            rated=self.rated,
        )


def league_ratings(*, league: League) -> Ratings:
    """The ratings now. The state after each season is kept (one row a season, overwritten)
    with the fingerprints of that season and of all before it (a rating depends on every
    earlier hand), and read only while they still match: a hand entered tonight rates
    tonight's season again from the state the last season left, and a correction of an old
    evening rates again from that evening's season on. A fixed number of queries."""
    seasons = list(Season.objects.filter(league=league).order_by("number").values_list("id", flat=True))
    prints = season_fingerprints(league)
    chain = hashlib.sha256(kept_mark(league, league.game).encode())
    keys, marks = [], []
    for sid in seasons:
        chain.update(prints.get(sid, "-").encode())
        keys.append(f"kl-ratings-{METHOD}:{league.pk}:{sid}")
        marks.append(chain.hexdigest()[:32])
    done, state = 0, RatingState()
    # The newest state alone first: it is what a page read again needs, and each state holds
    # every evening before it (reading all twenty of the bench league's cost 5 ms a page).
    last = derived_cache.get(league, keys[-1]) if keys else None
    if last is not None and last[0] == marks[-1]:
        done, state = len(keys), last[1]
    elif keys:
        kept = derived_cache.get_many(league, keys)
        for i in range(len(keys), 0, -1):
            found = kept.get(keys[i - 1])
            if found is not None and found[0] == marks[i - 1]:
                done, state = i, found[1]
                break
    if done < len(seasons):
        states = rate_seasons(league=league, seasons=seasons[done:], state=state)
        derived_cache.set_many(
            league, {key: (mark, s) for key, mark, s in zip(keys[done:], marks[done:], states, strict=True)}
        )
        state = states[-1]
    return ratings_from(league=league, state=state)


def compute_ratings(*, league: League) -> Ratings:
    """The ratings worked out from the first hand, without the cache."""
    seasons = list(Season.objects.filter(league=league).order_by("number").values_list("id", flat=True))
    states = rate_seasons(league=league, seasons=seasons, state=RatingState())
    return ratings_from(league=league, state=states[-1] if states else RatingState())


def rate_seasons(*, league: League, seasons: list[int], state: RatingState) -> list[RatingState]:
    """Rate the hands of ``seasons`` (ids, in order) on from ``state``; the state after each
    season (four queries whatever their number)."""
    start, state = state, state.copy()  # a season without a meeting leaves the state as it was
    names = dict(Player.objects.filter(league=league).values_list("name", "id"))
    meetings = list(
        Meeting.objects.filter(league=league, season__in=seasons)
        .order_by("date", "id")
        .values_list("id", "date", "season_id")
    )
    hands_of: dict[int, list[tuple]] = defaultdict(list)
    for hand_id, meeting_id, payload in hands_in_play_order(seasons=seasons):
        hands_of[meeting_id].append((hand_id, payload))
    by_hand = active_results(seasons=seasons)
    doppelkopf = league.game == "doppelkopf"
    ratings = {pid: MODEL.rating(mu=mu, sigma=sigma) for pid, (mu, sigma) in state.ratings.items()}
    after_season: dict[int, RatingState] = {}
    for index, (meeting_id, date, season_id) in enumerate(meetings):
        ordinals: dict[int, float] = {}
        for hand_id, payload in hands_of.get(meeting_id, ()):
            rows = by_hand.get(hand_id, ())
            for pid, _active, _delta, won, *_rest in rows:
                state.games[pid] = state.games.get(pid, 0) + 1
                state.wins[pid] = state.wins.get(pid, 0) + int(won)
            matches = matches_of_hand(payload, rows, doppelkopf=doppelkopf, names=names)
            for teams, ranks in matches:
                before = [
                    [ratings.get(pid) or ratings.setdefault(pid, MODEL.rating()) for pid in team] for team in teams
                ]
                for team, new in zip(teams, rate_match(before, ranks=ranks), strict=True):
                    for pid, rating in zip(team, new, strict=True):
                        ratings[pid] = rating
                        ordinals[pid] = rating.ordinal()
            state.rated += bool(matches)
        state.evenings.append((date.isoformat(), ordinals))
        if index + 1 == len(meetings) or meetings[index + 1][2] != season_id:
            # The season's last meeting so far (in date order): its state, copied once here
            # (copied after every meeting, the states cost most of a cold read).
            state.ratings = {pid: (r.mu, r.sigma) for pid, r in ratings.items()}
            after_season[season_id] = state.copy()
    states, last = [], start
    for sid in seasons:
        last = after_season.get(sid, last)
        states.append(last)
    return states


def ratings_from(*, league: League, state: RatingState) -> Ratings:
    """The ranking (by ordinal) and the chart of a state, with today's players."""
    players = {p.id: p for p in Player.objects.filter(league=league)}
    rows = []
    for pid, (mu, sigma) in state.ratings.items():
        if pid not in players:
            continue
        rating = MODEL.rating(mu=mu, sigma=sigma)
        rows.append(
            RatingRow(
                player=players[pid],
                mu=mu,
                sigma=sigma,
                ordinal=rating.ordinal(),
                games=state.games.get(pid, 0),
                wins=state.wins.get(pid, 0),
            )
        )
    rows.sort(key=lambda r: (-r.ordinal, r.player.name.lower()))
    for i, row in enumerate(rows, 1):
        row.rank = i
    chart = {
        "labels": [date for date, _ordinals in state.evenings],
        "datasets": [
            {"label": row.player.name, "data": _carried_forward(state.evenings, row.player.id)} for row in rows
        ],
    }
    return Ratings(rows=rows, hands=state.rated, chart=chart)


def _carried_forward(evenings, pid: int) -> list[float | None]:
    """One value per evening: the player's rating after it, kept through evenings he missed
    (None before his first), to one decimal for the chart."""
    values, last = [], None
    for _date, ordinals in evenings:
        if pid in ordinals:
            last = round(ordinals[pid], 1)
        values.append(last)
    return values
