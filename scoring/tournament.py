"""A tournament's ranking: rounds ("Serien") of play at several tables, added up with tie-breaks.

A tournament is played in rounds; each round seats the parties (players, pairs or teams) at tables
by a seat draw (``scoring.seating``) and every table plays the same fixed amount: a Serie of games
at Doppelkopf, a robber for Maw pairs, a match for 56 teams. What a table reports per party is one
whole number, its score for the round; the ranking adds these up and breaks ties by further
figures, each higher-is-better, in the order the format names them. Parties equal in every figure
share a place. ``docs/rules/tournament.*.md`` says it in words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .errors import Problems, _

# A round's tables: each maps a party (player, pair or team name) to its score in that round.
Round = Sequence[Mapping[str, int]]


@dataclass(frozen=True)
class TournamentFormat:
    """One kind of tournament: its game, who is ranked, the tables and what a round plays."""

    key: str
    game: str
    parties: str  # "players", "pairs" or "teams"
    table_sizes: tuple[int, ...]  # parties at a table
    figures: tuple[str, ...]  # the ranking's figures, first the main one, then the tie-breaks
    games_per_round: dict[int, int] = field(default_factory=dict)  # per table size, where fixed
    robber_games: int | None = None  # games that win a robber (a Maw pairs round)


FORMATS: dict[str, TournamentFormat] = {
    # DDV Turnierspielregeln 8.3 and 8.5: tables of four, a Serie of 24 games. At a table of five the
    # dealer sits out; 30 games give each player 24 games as at a table of four (our decision).
    "ddv": TournamentFormat(
        key="ddv",
        game="doppelkopf",
        parties="players",
        table_sizes=(4, 5),
        figures=("points", "table_wins", "best_round"),
        games_per_round={4: 24, 5: 30},
    ),
    # Seed 000 (Forty-Five): a robber is won by the first pair to win three games; two or three
    # pairs at a table (partners opposite).
    "maw_pairs": TournamentFormat(
        key="maw_pairs",
        game="forty_five",
        parties="pairs",
        table_sizes=(2, 3),
        figures=("robbers", "games"),
        robber_games=3,
    ),
    # Seed 002 (56): two teams of three at a table play one match per round.
    "fifty_six_teams": TournamentFormat(
        key="fifty_six_teams",
        game="fifty_six",
        parties="teams",
        table_sizes=(2,),
        figures=("match_points", "difference", "points"),
    ),
}

MATCH_WIN, MATCH_DRAW = 2, 1  # match points for a 56 match won or drawn


@dataclass(frozen=True)
class Standing:
    """One row of the ranking: the place (shared when every figure ties), the party, its figures
    in the format's order and the rounds it played."""

    place: int
    party: str
    figures: dict[str, int]
    rounds: int


def tournament_format(key: str) -> TournamentFormat:
    """The format called ``key``; raises ScoringError for an unknown one."""
    if key not in FORMATS:
        problems = Problems()
        problems.add(None, "tournament", _("Unknown tournament format %(key)s."), key=key)
        problems.raise_if_any()
    return FORMATS[key]


def rank(*, tournament: str, rounds: Sequence[Round]) -> list[Standing]:
    """The ranking after all ``rounds``; raises ScoringError with every problem found."""
    form = tournament_format(tournament)
    _check(form, rounds)
    return _ranked(form, rounds)


def rank_after_each_round(*, tournament: str, rounds: Sequence[Round]) -> list[list[Standing]]:
    """The ranking after round 1, after rounds 1–2, … (what the big screen shows as play goes on)."""
    form = tournament_format(tournament)
    _check(form, rounds)
    return [_ranked(form, rounds[: count + 1]) for count in range(len(rounds))]


def _check(form: TournamentFormat, rounds: Sequence[Round]) -> None:
    problems = Problems()
    for number, tables in enumerate(rounds, start=1):
        seen: set[str] = set()
        for table_number, table in enumerate(tables, start=1):
            where = {"round": number, "table": table_number}
            if seen & set(table):
                problems.add(
                    None, "rounds", _("Round %(round)s, table %(table)s: a party plays twice in the round."), **where
                )
            seen |= set(table)
            for message, params in _table_problems(form, table):
                problems.add(None, "rounds", message, **where, **params)
    problems.raise_if_any()


def _table_problems(form: TournamentFormat, table: Mapping[str, int]) -> list[tuple[str, dict[str, object]]]:
    """What is wrong with one table of one round: its size, then its scores."""
    found: list[tuple[str, dict[str, object]]] = []
    if len(table) not in form.table_sizes:
        sizes = ", ".join(str(s) for s in form.table_sizes)
        found.append(
            (
                _("Round %(round)s, table %(table)s: a table seats %(sizes)s, not %(count)s."),
                {"sizes": sizes, "count": len(table)},
            )
        )
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in table.values()):
        found.append((_("Round %(round)s, table %(table)s: scores are whole numbers."), {}))
    elif table:
        message = _table_problem(form, table)
        if message:
            found.append((message, {}))
    return found


def _table_problem(form: TournamentFormat, table: Mapping[str, int]) -> str | None:
    """What is wrong with one table's scores under the format's rules, or None."""
    scores = list(table.values())
    if form.key == "ddv" and sum(scores) != 0:
        # Plus-minus (the ddv preset): every game's points add up to zero at the table.
        return _("Round %(round)s, table %(table)s: the points do not add up to zero.")
    if form.robber_games is not None:
        winners = [s for s in scores if s == form.robber_games]
        if len(winners) != 1 or any(s < 0 or s > form.robber_games for s in scores):
            return _("Round %(round)s, table %(table)s: exactly one pair wins the robber with three games.")
    if form.key == "fifty_six_teams" and any(s < 0 for s in scores):
        return _("Round %(round)s, table %(table)s: a team's points cannot be negative.")
    return None


def _ranked(form: TournamentFormat, rounds: Sequence[Round]) -> list[Standing]:
    figures: dict[str, dict[str, int]] = {}
    played: dict[str, int] = {}
    for tables in rounds:
        for table in tables:
            for party, row in _table_figures(form, table).items():
                mine = figures.setdefault(party, dict.fromkeys(form.figures, 0))
                for name, value in row.items():
                    if name == "best_round":  # the best single round, not a sum
                        mine[name] = max(mine[name], value) if party in played else value
                    else:
                        mine[name] += value
                played[party] = played.get(party, 0) + 1
    order = sorted(figures, key=lambda p: (tuple(-figures[p][f] for f in form.figures), p))
    standings: list[Standing] = []
    for index, party in enumerate(order):
        key = tuple(figures[party][f] for f in form.figures)
        tied = standings and tuple(standings[-1].figures[f] for f in form.figures) == key
        place = standings[-1].place if tied else index + 1
        standings.append(Standing(place=place, party=party, figures=figures[party], rounds=played[party]))
    return standings


def _table_figures(form: TournamentFormat, table: Mapping[str, int]) -> dict[str, dict[str, int]]:
    """Each party's figures from one table of one round."""
    top = max(table.values())
    if form.key == "ddv":
        # Every player with the table's highest score has won the table (shared).
        return {p: {"points": s, "table_wins": int(s == top), "best_round": s} for p, s in table.items()}
    if form.robber_games is not None:
        return {p: {"robbers": int(s == form.robber_games), "games": s} for p, s in table.items()}
    total = sum(table.values())
    drawn = len(set(table.values())) == 1
    return {
        p: {
            "match_points": (MATCH_DRAW if drawn else MATCH_WIN) if s == top else 0,
            "difference": s - (total - s),
            "points": s,
        }
        for p, s in table.items()
    }
