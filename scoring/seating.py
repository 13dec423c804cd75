"""Tables for an evening or a tournament round: how many players each table takes, and who sits where.

Two questions, answered without Django:

- ``split_players``: how N players split into tables the game allows, with the fewest tables and,
  among those, sizes as even as possible (9 Doppelkopf players are 5 + 4, 10 Maw players 5 + 5).
- ``draw_seats``: who sits at which table and in which seat, drawn with a seeded random generator
  so that the same seed gives the same draw. The draw keeps pairs and teams together and avoids
  seating two players together again who shared a table before (in an earlier round or evening).

The seat draw first builds a greedy draw (each party to the table where it meets the fewest old
table-mates, then swaps that lower the repeats), then searches all draws exactly, table by table,
for one with fewer repeats, within a bound on the search's steps. For club-sized numbers (up to
about 16 players) the exact search finishes, so a draw without repeats is always found when one
exists; past the bound the best draw found so far is kept, which is never worse than the greedy one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .errors import Problem, ScoringError, _

# Table sizes a split may propose, per game (the API's game names).
# Doppelkopf: the spec allows 4, 5 or 6 at a table; a split proposes 4 and 5 only (with 5 the dealer
# sits out, with 6 two players sit out every game, which no club chooses when it can split).
# 1000: three play, a fourth deals and sits out (spec: thousand.md).
# 56: six players in two teams of three (spec: fifty-six.md; the engine takes exactly six).
# The Maw family: "3 bis 9" may play (seed 000); ten are two tables of five. Pairs sit opposite each
# other, so a table of pairs has an even number of seats: 4, 6 or 8 ("bei 4 oder 6 (oder 8 …)").
MAW_GAMES = ("twenty_five", "forty_five", "one_ten", "auction_45", "spoil_five")
TABLE_SIZES: dict[str, tuple[int, ...]] = {
    "doppelkopf": (4, 5),
    "thousand": (3, 4),
    "fifty_six": (6,),
    **{game: (3, 4, 5, 6, 7, 8, 9) for game in MAW_GAMES},
}
PAIR_TABLE_SIZES: dict[str, tuple[int, ...]] = {game: (4, 6, 8) for game in MAW_GAMES}
# Sizes taken only when the sizes above cannot seat everyone: 6 or 11 Doppelkopf players.
FALLBACK_SIZES: dict[str, tuple[int, ...]] = {"doppelkopf": (6,)}

# The exact search stops after this many steps and keeps its best draw (see the module's docstring).
SEARCH_STEPS = 200_000


def table_sizes(game: str, *, pairs: bool = False) -> tuple[int, ...]:
    """The sizes a table of ``game`` may have in a split (of pairs, for the Maw family's pairs)."""
    sizes = PAIR_TABLE_SIZES.get(game) if pairs else TABLE_SIZES.get(game)
    if sizes is None:
        what = _("%(game)s is not played in pairs.") if pairs else _("Unknown game %(game)s.")
        raise ScoringError([Problem(None, "game", what, {"game": game})])
    return sizes


def propose_tables(*, game: str, count: int, pairs: bool = False) -> list[int]:
    """Table sizes for ``count`` players of ``game``: by ``split_players`` over the game's sizes, and
    over its fallback sizes too only when those alone cannot seat everyone."""
    sizes = table_sizes(game, pairs=pairs)
    try:
        return split_players(count, sizes=sizes)
    except ScoringError:
        if pairs or game not in FALLBACK_SIZES:
            raise
    return split_players(count, sizes=sizes + FALLBACK_SIZES[game])


def split_players(count: int, *, sizes: Sequence[int]) -> list[int]:
    """Table sizes for ``count`` players: the fewest tables, then the smallest gap between the
    largest and the smallest table, largest tables first. Raises ScoringError when no split exists."""
    allowed = tuple(sorted(set(sizes), reverse=True))
    if count > 0 and allowed and allowed[-1] > 0:
        for tables in range(-(-count // allowed[0]), count // allowed[-1] + 1):
            best = _evenest(count, tables, allowed)
            if best:
                return list(best)
    raise ScoringError(
        [
            Problem(
                None,
                "players",
                _("%(count)s players cannot be split into tables of %(sizes)s."),
                {"count": count, "sizes": ", ".join(str(s) for s in sorted(set(sizes)))},
            )
        ]
    )


def _evenest(count: int, tables: int, allowed: tuple[int, ...]) -> tuple[int, ...] | None:
    """The evenest ``tables`` sizes from ``allowed`` adding up to ``count``, or None."""
    for gap in range(allowed[0] - allowed[-1] + 1):
        for low in sorted(allowed, reverse=True):
            window = tuple(s for s in allowed if low <= s <= low + gap)
            found = _compose(count, tables, window)
            if found:
                return found
    return None


@lru_cache(maxsize=4096)
def _compose(count: int, tables: int, sizes: tuple[int, ...]) -> tuple[int, ...] | None:
    """``tables`` sizes from ``sizes`` (descending) adding up to ``count``, largest first, or None."""
    if tables == 0:
        return () if count == 0 else None
    for size in sizes:
        if size <= count:
            rest = _compose(count - size, tables - 1, tuple(s for s in sizes if s <= size))
            if rest is not None:
                return (size, *rest)
    return None


def table_mates(tables: Iterable[Iterable[str]]) -> Counter[frozenset[str]]:
    """How often each pair of players shared a table in ``tables`` (of one or several rounds)."""
    met: Counter[frozenset[str]] = Counter()
    for table in tables:
        seated = list(table)
        for i, first in enumerate(seated):
            for second in seated[i + 1 :]:
                met[frozenset((first, second))] += 1
    return met


@dataclass
class _Search:
    """The state of one seat draw: the parties to seat, the tables, the best draw so far."""

    parties: list[tuple[str, ...]]
    sizes: list[int]
    cost: list[list[int]]  # cost[a][b]: how often a member of party a met one of party b before
    best: list[int] | None = None  # the table of each party
    best_cost: int = 0
    steps: int = 0


def draw_seats(
    *,
    players: Sequence[str],
    sizes: Sequence[int],
    seed: int | str,
    met: Mapping[frozenset[str], int] | None = None,
    together: Iterable[Sequence[str]] = (),
) -> list[list[str]]:
    """Seat ``players`` at tables of ``sizes`` (in that order), each table as a list in seat order.

    ``met`` counts how often two players shared a table before (``table_mates`` of earlier
    rounds); the draw seats as few of them together again as it can, none when that is possible
    (within the search's bound). ``together`` names pairs or teams that sit at one table: a table
    of such parties only seats them alternately (partners opposite, 56's teams on every second
    seat). The same arguments and ``seed`` give the same draw.
    """
    parties = _parties(players, sizes, together)
    rng = random.Random(seed)
    rng.shuffle(parties)
    parties.sort(key=len, reverse=True)
    search = _Search(parties=parties, sizes=list(sizes), cost=_costs(parties, met or {}))
    search.best = _greedy(search, rng)
    if search.best is None:
        raise _problem(_("Those pairs or teams do not fit at tables of %(sizes)s."), sizes)
    search.best_cost = _total_cost(search, search.best)
    if search.best_cost:
        _exact(search, [-1] * len(parties), [0] * len(sizes), 0, 0)
    return [_seat_order(search, table, rng) for table in range(len(sizes))]


def _problem(message: str, sizes: Sequence[int]) -> ScoringError:
    return ScoringError([Problem(None, "players", message, {"sizes": ", ".join(str(s) for s in sizes)})])


def _parties(players: Sequence[str], sizes: Sequence[int], together: Iterable[Sequence[str]]) -> list[tuple[str, ...]]:
    """The players as parties: each pair or team that stays together, then everyone else alone."""
    if len(set(players)) != len(players):
        raise _problem(_("A player is named twice."), sizes)
    if sum(sizes) != len(players) or any(size < 1 for size in sizes):
        raise _problem(_("The tables of %(sizes)s do not seat exactly the players named."), sizes)
    grouped: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for group in together:
        members = tuple(group)
        if not members or seen & set(members) or not set(members) <= set(players) or len(set(members)) != len(members):
            raise _problem(_("Each pair or team must name players at the table, each once."), sizes)
        seen |= set(members)
        grouped.append(members)
    return grouped + [(player,) for player in sorted(players) if player not in seen]


def _costs(parties: list[tuple[str, ...]], met: Mapping[frozenset[str], int]) -> list[list[int]]:
    return [
        [
            sum(met.get(frozenset((x, y)), 0) for x in first for y in second) if a != b else 0
            for b, second in enumerate(parties)
        ]
        for a, first in enumerate(parties)
    ]


def _total_cost(search: _Search, tables: list[int]) -> int:
    n = len(tables)
    return sum(search.cost[a][b] for a in range(n) for b in range(a + 1, n) if tables[a] == tables[b])


def _added(search: _Search, tables: list[int], party: int, table: int) -> int:
    """The repeats ``party`` adds at ``table``, given the parties already placed in ``tables``."""
    return sum(search.cost[party][other] for other, at in enumerate(tables) if at == table and other != party)


def _greedy(search: _Search, rng: random.Random) -> list[int] | None:
    """Each party (largest first) to the open table where it adds the fewest repeats, then swaps."""
    tables = [-1] * len(search.parties)
    free = list(search.sizes)
    for party, members in enumerate(search.parties):
        open_tables = [t for t, room in enumerate(free) if room >= len(members)]
        if not open_tables:
            return _first_fit(search)
        rng.shuffle(open_tables)
        table = min(open_tables, key=lambda t: (_added(search, tables, party, t), -free[t]))
        tables[party] = table
        free[table] -= len(members)
    _improve(search, tables)
    return tables


def _first_fit(search: _Search) -> list[int] | None:
    """Any placement of the parties that fits, by the exact search without regard to repeats."""
    probe = _Search(parties=search.parties, sizes=search.sizes, cost=[[0] * len(search.parties)] * len(search.parties))
    probe.best_cost = 1
    _exact(probe, [-1] * len(search.parties), [0] * len(search.sizes), 0, 0)
    return probe.best


def _improve(search: _Search, tables: list[int]) -> None:
    """Swap two parties of the same size at different tables while a swap lowers the repeats."""
    better = True
    while better:
        better = False
        for a in range(len(tables)):
            for b in range(a + 1, len(tables)):
                if tables[a] == tables[b] or len(search.parties[a]) != len(search.parties[b]):
                    continue
                before = _added(search, tables, a, tables[a]) + _added(search, tables, b, tables[b])
                tables[a], tables[b] = tables[b], tables[a]
                after = _added(search, tables, a, tables[a]) + _added(search, tables, b, tables[b])
                if after < before:
                    better = True
                else:
                    tables[a], tables[b] = tables[b], tables[a]


def _exact(search: _Search, tables: list[int], filled: list[int], party: int, cost: int) -> None:
    """Place parties ``party``… one by one (depth first), pruning any branch no better than the best."""
    if search.best_cost == 0 or search.steps >= SEARCH_STEPS:
        return
    search.steps += 1
    if party == len(search.parties):
        search.best, search.best_cost = list(tables), cost
        return
    width = len(search.parties[party])
    tried_empty: set[int] = set()
    for table, size in enumerate(search.sizes):
        if filled[table] + width > size:
            continue
        if filled[table] == 0:
            # Two empty tables of one size are the same choice: try only the first.
            if size in tried_empty:
                continue
            tried_empty.add(size)
        added = _added(search, tables, party, table)
        if cost + added >= search.best_cost:
            continue
        tables[party], filled[table] = table, filled[table] + width
        _exact(search, tables, filled, party + 1, cost + added)
        tables[party], filled[table] = -1, filled[table] - width


def _seat_order(search: _Search, table: int, rng: random.Random) -> list[str]:
    """The seats of one table: parties of two or more alternate round the table, others are drawn."""
    assert search.best is not None
    at_table = [search.parties[p] for p, t in enumerate(search.best) if t == table]
    rng.shuffle(at_table)
    widths = {len(party) for party in at_table}
    if len(widths) == 1 and widths != {1}:
        width = widths.pop()
        return [party[seat] for seat in range(width) for party in at_table]
    seats = [player for party in at_table for player in party]
    if widths == {1}:
        rng.shuffle(seats)
    return seats
