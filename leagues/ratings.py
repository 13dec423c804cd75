"""Skill ratings (issue 14 §2) with openskill's Plackett-Luce model. Reads only.

Why Plackett-Luce: it rates teams of any size and any number of teams with ties, in one
update per hand, which is what a card table needs (TrueSkill-like models do too, but
openskill's Plackett-Luce is the one its authors recommend, free of TrueSkill's patent and
fastest for up to a few teams). Every hand is one match, rated in playing order (meetings by
date, then hand number), over every season (a rating is a player's, not a season's):

- Doppelkopf, a game with parties: Re against Kontra (the pairs change every hand), a soloist
  alone against the three (a Hochzeit without partner too); the winning party ranks first;
  a game without a winner (both parties missed their absagen) is a tie.
- A revoke: the revoker alone against the three others, who rank first.
- Ramsch and every other game: every active player for himself, ranked by the hand's delta
  (the most points first, equal deltas tie): in Ramsch the loser pays, in the race games the
  points scored decide who played the hand best.
- Whoever sits out a hand (the dealer at a table of five or six) is not in its match.

The model starts everyone at mu 25, sigma 25/3; the ranking orders by the conservative
``ordinal`` (mu − 3·sigma, openskill's own), so that a newcomer with a lucky first evening does
not top the list. Recomputed from the hands on read (a correction anywhere changes every later
rating) and cached per league under the statistics' fingerprint of the newest change.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from openskill.models import PlackettLuce

from .models import Hand, HandResult, League, Meeting, Player
from .statistics import CACHE_SECONDS, league_fingerprint, percent

MODEL = PlackettLuce()
DISPLAY = Decimal("0.1")


def matches_of_hand(payload: dict, rows, *, doppelkopf: bool, names: dict[str, int]) -> tuple[list, list] | None:
    """The teams (lists of player ids) and their ranks (1 best) of one hand, or None when it
    rates nobody. ``rows``: (player id, active, delta, won) of the hand's cached results."""
    active = [(pid, delta, won) for pid, is_active, delta, won in rows if is_active]
    if len(active) < 2:
        return None
    kind = payload.get("kind") if doppelkopf else None
    if doppelkopf and kind == "revoke":
        revoker = names.get(payload.get("revoke_by"))
        others = [pid for pid, _d, _w in active if pid != revoker]
        return [[revoker], others], [2, 1]
    if doppelkopf and kind != "ramsch":
        re_ids = {names.get(n) for n in payload.get("re") or ()}
        re = [pid for pid, _d, _w in active if pid in re_ids]
        kontra = [pid for pid, _d, _w in active if pid not in re_ids]
        if not re or not kontra:
            return None
        re_won = any(won for pid, _d, won in active if pid in re_ids)
        kontra_won = any(won for pid, _d, won in active if pid not in re_ids)
        ranks = [1, 2] if re_won else [2, 1] if kontra_won else [1, 1]
        return [re, kontra], ranks
    # Everyone for himself: the highest delta ranks first, equal deltas share a rank.
    ordered = sorted({delta for _pid, delta, _w in active}, reverse=True)
    rank_of = {delta: i + 1 for i, delta in enumerate(ordered)}
    return [[pid] for pid, _d, _w in active], [rank_of[delta] for _pid, delta, _w in active]


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


def league_ratings(*, league: League) -> Ratings:
    key = f"kl-ratings:{league.pk}:{league_fingerprint(league)}"
    found = cache.get(key)
    if found is None:
        found = compute_ratings(league=league)
        cache.set(key, found, CACHE_SECONDS)
    return found


def compute_ratings(*, league: League) -> Ratings:
    """Every hand of the league in playing order through the model (four queries)."""
    players = {p.id: p for p in Player.objects.filter(league=league)}
    names = {p.name: pid for pid, p in players.items()}
    meetings = list(Meeting.objects.filter(league=league).order_by("date", "id").values_list("id", "date"))
    order = {mid: i for i, (mid, _date) in enumerate(meetings)}
    hands = sorted(
        Hand.objects.live().filter(meeting__league=league).values_list("id", "meeting_id", "number", "payload"),
        key=lambda h: (order[h[1]], h[2]),
    )
    by_hand: dict[int, list[tuple]] = defaultdict(list)
    for hand_id, *row in HandResult.objects.filter(league=league).values_list(
        "hand_id", "player_id", "active", "delta", "won"
    ):
        by_hand[hand_id].append(tuple(row))
    doppelkopf = league.game == "doppelkopf"
    ratings: dict[int, Any] = {}
    games: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = defaultdict(int)
    # The chart: each player's ordinal after each evening he played.
    history: dict[int, dict[int, float]] = defaultdict(dict)
    rated = 0
    for hand_id, meeting_id, _number, payload in hands:
        rows = by_hand.get(hand_id, ())
        for pid, is_active, _delta, won in rows:
            if is_active:
                games[pid] += 1
                wins[pid] += int(won)
        match = matches_of_hand(payload, rows, doppelkopf=doppelkopf, names=names)
        if match is None:
            continue
        teams, ranks = match
        before = [[ratings.setdefault(pid, MODEL.rating(name=str(pid))) for pid in team] for team in teams]
        after = MODEL.rate(before, ranks=ranks)
        for team, new in zip(teams, after, strict=True):
            for pid, rating in zip(team, new, strict=True):
                ratings[pid] = rating
                history[pid][order[meeting_id]] = rating.ordinal()
        rated += 1
    rows = [
        RatingRow(
            player=players[pid],
            mu=r.mu,
            sigma=r.sigma,
            ordinal=r.ordinal(),
            games=games[pid],
            wins=wins[pid],
        )
        for pid, r in ratings.items()
        if pid in players
    ]
    rows.sort(key=lambda r: (-r.ordinal, r.player.name.lower()))
    for i, row in enumerate(rows, 1):
        row.rank = i
    chart = {
        "labels": [date.isoformat() for _mid, date in meetings],
        "datasets": [
            {
                "label": row.player.name,
                "data": _carried_forward(history[row.player.id], len(meetings)),
            }
            for row in rows
        ],
    }
    return Ratings(rows=rows, hands=rated, chart=chart)


def _carried_forward(points: dict[int, float], count: int) -> list[float | None]:
    """One value per evening: the rating after it, kept through evenings the player missed
    (None before his first), to one decimal for the chart."""
    values, last = [], None
    for i in range(count):
        if i in points:
            last = round(points[i], 1)
        values.append(last)
    return values
