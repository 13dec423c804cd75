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
  the ratings stays put (tests/test_ratings_solo.py). The two other readings were worse:
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
not top the list. A correction anywhere changes every later rating, so the state after an
evening stands on every evening before it: the state after the evening before tonight is kept
in the table of derived figures (``leagues.stats.derived_cache``) with that evening's mark
(``leagues.stats.evenings``), and so is the state after each season's last evening. A page rates
tonight on from the kept state; the first page after evenings closed rates them once and
keeps the state after them; after a correction of a closed evening (reopened by an admin) the
page rates on from the latest season whose state still matches.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from openskill.models import PlackettLuce

from leagues.models import League, Meeting, Player
from leagues.stats import derived_cache
from leagues.stats.evenings import (
    BY_DATE,
    EVENINGS_AT_ONCE,
    Evenings,
    Played,
    active_results,
    evenings_of,
    hands_in_play_order,
)
from leagues.stats.statistics import percent

MODEL = PlackettLuce()
# The same model without its dynamics term: ``rate_match`` adds tau itself before it scales a
# team down to its mean (added by openskill to the scaled sigma, it would count three times).
STILL = PlackettLuce(tau=0)
DISPLAY = Decimal("0.1")
# In the keys of the kept rating states: a change of how hands are rated (or of what a
# RatingState holds) is a new key, so no state rated the old way is read again; the states
# outlive the process that wrote them (a table, ``leagues.stats.derived_cache``).
METHOD = 3


def matches_of_hand(payload: dict, rows, *, doppelkopf: bool, names: dict[str, int]) -> list[tuple[list, list]]:
    """The matches one hand is rated as: a list of (teams, ranks), teams being lists of player
    ids in seat order, ranks 1 for the best. ``rows``: (player id, active, delta, won, ...) of
    the hand's cached results, in seat order; only the active players are in a match."""
    active = [(row[0], row[2], row[3]) for row in rows if row[1]]
    if len(active) < 2:
        return []
    kind = payload.get("kind") if doppelkopf else None
    if doppelkopf and kind == "revoke":
        return _revoke(active, names.get(payload.get("revoke_by")))
    if doppelkopf and kind != "ramsch":
        return _re_against_kontra(active, {names.get(n) for n in payload.get("re") or ()})
    # Everyone for himself: the highest delta ranks first, equal deltas share a rank.
    ordered = sorted({delta for _pid, delta, _w in active}, reverse=True)
    rank_of = {delta: i + 1 for i, delta in enumerate(ordered)}
    return [([[pid] for pid, _d, _w in active], [rank_of[delta] for _pid, delta, _w in active])]


def _revoke(active, revoker) -> list[tuple[list, list]]:
    """A revoke: the revoker against the three others, who win."""
    others = [pid for pid, _d, _w in active if pid != revoker]
    if len(others) == len(active):  # no active player of that name: nobody to rate
        return []
    return [([[revoker], others], [2, 1])]


def _re_against_kontra(active, re_ids: set) -> list[tuple[list, list]]:
    """Re against Kontra, the winning party first; a game without a winner is a tie. A solo is
    one match like any other: rate_match rates unequal teams by their mean."""
    re = [pid for pid, _d, _w in active if pid in re_ids]
    kontra = [pid for pid, _d, _w in active if pid not in re_ids]
    if not re or not kontra:
        return []
    re_won = any(won for pid, _d, won in active if pid in re_ids)
    kontra_won = any(won for pid, _d, won in active if pid not in re_ids)
    ranks = [1, 2] if re_won else [2, 1] if kontra_won else [1, 1]
    return [([re, kontra], ranks)]


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
    """Where the ratings stand after some evenings: plain numbers, so that it pickles."""

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
    """The ratings now: the state after the evening before tonight, kept, and tonight rated on
    from it (module docstring). When evenings closed since, the first page rates them once
    and keeps the state after them, and after each season they end, so that a correction of
    a closed evening rates again from the season before it. A fixed number of queries."""
    evenings = evenings_of(league, order=BY_DATE, tag=f"ratings-{METHOD}-{league.game}")
    key = f"kl-ratings-{METHOD}:{league.pk}"
    reached, state = _kept_state(league, evenings, key)
    if reached + 1 == len(evenings.rows):
        return ratings_from(league=league, state=state)
    # Kept: the state after each season that ended since, and after the evening before tonight.
    stops = {i: [f"{key}:{sid}"] for sid, i in evenings.season_ends.items() if reached < i < evenings.tonight}
    if reached < evenings.tonight - 1:
        stops.setdefault(evenings.tonight - 1, []).append(key)
    marks = {evenings.mark(i): names for i, names in stops.items()}
    state, kept = rate_evenings(
        league=league, evenings=evenings.after(reached), state=state, keep={pk for pk, _mark in marks}
    )
    rows = {name: (pk, mark, kept[pk]) for (pk, mark), names in marks.items() for name in names}
    if rows:
        derived_cache.set_many(league, rows)
    return ratings_from(league=league, state=state)


def _kept_state(league: League, evenings: Evenings, key: str) -> tuple[int, RatingState]:
    """(the index of the last evening it holds, the state) kept before tonight, or made again
    from the seasons' states (and kept again, before tonight is rated on from it)."""
    row = derived_cache.get(league, key)
    reached = evenings.reached(row)
    if reached >= 0:
        return reached, row[2]
    reached, state = _from_seasons(league, evenings)
    if reached >= max(evenings.tonight - 1, 0):
        derived_cache.set_many(league, {key: (*evenings.mark(reached), state)})
    return reached, state


def _from_seasons(league: League, evenings: Evenings) -> tuple[int, RatingState]:
    """When the state before tonight no longer matches (or was never kept): the state after
    the latest season that still matches; (the index of its last evening, the state)."""
    ends = sorted((i, sid) for sid, i in evenings.season_ends.items())
    keys = [f"kl-ratings-{METHOD}:{league.pk}:{sid}" for _i, sid in ends]
    rows = derived_cache.get_many(league, keys)
    for (i, _sid), key in reversed(list(zip(ends, keys, strict=True))):
        if evenings.reached(rows.get(key)) == i:
            return i, rows[key][2]
    return -1, RatingState()


def compute_ratings(*, league: League) -> Ratings:
    """The ratings worked out from the first hand, without the kept states."""
    evenings = [
        Played(id=pk, date=date, season_id=sid)
        for pk, date, sid in Meeting.objects.filter(league=league)
        .order_by(*BY_DATE)
        .values_list("id", "date", "season_id")
    ]
    state, _kept = rate_evenings(league=league, evenings=evenings, state=RatingState(), keep=set())
    return ratings_from(league=league, state=state)


def rate_evenings(
    *, league: League, evenings: list[Played], state: RatingState, keep: set[int]
) -> tuple[RatingState, dict[int, RatingState]]:
    """Rate the hands of ``evenings`` (in playing order) on from ``state`` (changed in place);
    the state after them and {meeting id: a copy of the state after it} of those in ``keep``.
    Three queries, two more for every ``EVENINGS_AT_ONCE`` evenings after the first ones."""
    names = dict(Player.objects.filter(league=league).values_list("name", "id"))
    doppelkopf = league.game == "doppelkopf"
    ratings = {pid: MODEL.rating(mu=mu, sigma=sigma) for pid, (mu, sigma) in state.ratings.items()}
    kept = {}
    for start in range(0, len(evenings), EVENINGS_AT_ONCE):
        some = evenings[start : start + EVENINGS_AT_ONCE]
        ids = [e.id for e in some]
        hands_of: dict[int, list[tuple]] = defaultdict(list)
        for hand_id, meeting_id, payload in hands_in_play_order(meetings=ids):
            hands_of[meeting_id].append((hand_id, payload))
        by_hand = active_results(meetings=ids)
        for evening in some:
            ordinals: dict[int, float] = {}
            for hand_id, payload in hands_of.get(evening.id, ()):
                rows = by_hand.get(hand_id, ())
                matches = matches_of_hand(payload, rows, doppelkopf=doppelkopf, names=names)
                _rate_hand(state, ratings, ordinals, rows, matches)
            state.evenings.append((evening.date.isoformat(), ordinals))
            if evening.id in keep:
                state.ratings = {pid: (r.mu, r.sigma) for pid, r in ratings.items()}
                kept[evening.id] = state.copy()
    state.ratings = {pid: (r.mu, r.sigma) for pid, r in ratings.items()}
    return state, kept


def _rate_hand(state: RatingState, ratings: dict, ordinals: dict[int, float], rows, matches) -> None:
    """One hand counted (games, wins) and its matches rated: the players' ratings and their
    ordinals after it updated."""
    for pid, _active, _delta, won, *_rest in rows:
        state.games[pid] = state.games.get(pid, 0) + 1
        state.wins[pid] = state.wins.get(pid, 0) + int(won)
    for teams, ranks in matches:
        before = [[ratings.get(pid) or ratings.setdefault(pid, MODEL.rating()) for pid in team] for team in teams]
        for team, new in zip(teams, rate_match(before, ranks=ranks), strict=True):
            for pid, rating in zip(team, new, strict=True):
                ratings[pid] = rating
                ordinals[pid] = rating.ordinal()
    state.rated += bool(matches)


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
    evenings = _by_date(state.evenings)
    chart = {
        "labels": [date for date, _ordinals in evenings],
        "datasets": [{"label": row.player.name, "data": _carried_forward(evenings, row.player.id)} for row in rows],
    }
    return Ratings(rows=rows, hands=state.rated, chart=chart)


def _by_date(evenings) -> list[tuple[str, dict[int, float]]]:
    """The chart's points: one per date, so that a club night's tables (one evening, each
    rated as it was played) make one point, every player's rating after his own table."""
    merged: list[tuple[str, dict[int, float]]] = []
    for date, ordinals in evenings:
        if merged and merged[-1][0] == date:
            merged[-1] = (date, {**merged[-1][1], **ordinals})
        else:
            merged.append((date, ordinals))
    return merged


def _carried_forward(evenings, pid: int) -> list[float | None]:
    """One value per evening: the player's rating after it, kept through evenings he missed
    (None before his first), to one decimal for the chart."""
    values, last = [], None
    for _date, ordinals in evenings:
        if pid in ordinals:
            last = round(ordinals[pid], 1)
        values.append(last)
    return values
