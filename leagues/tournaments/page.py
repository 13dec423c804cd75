"""What a tournament's pages show, shaped from the selectors' reads: the ranking as rows with
the format's figures and each round's score, the rounds' tables, the entrants."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from leagues.tournaments import selectors
from scoring.tournament import tournament_format

FIGURE_LABELS = {
    "points": _("Points"),
    "table_wins": _("Table wins"),
    "best_round": _("Best round"),
    "robbers": _("Robbers"),
    "games": _("Games"),
    "match_points": _("Match points"),
    "difference": _("Difference"),
}


@dataclass
class RankRow:
    place: int
    party: str
    figures: list[int]
    rounds: list[int | None]  # the score of each finished round, None where it did not play
    places: list[int | None]  # the place after each finished round
    members: list[str] = field(default_factory=list)  # a pair's or team's players


@dataclass
class TableRow:
    """A table of a round as the pages list it: its players (or parties) with their scores."""

    number: int
    meeting_id: int
    closed: bool
    games_planned: int | None
    hands: int
    scores: list[tuple[str, int]]


def tournament_view(tournament, *, entrants=None) -> dict:
    """Everything a tournament's pages show: the format's figures, the rounds with their tables,
    the current round (the last, while a table of it still plays), the ranking's rows and the
    entrants. A fixed number of queries (``selectors.rounds``, and the entrants when not given)."""
    form = tournament_format(tournament.format)
    played = selectors.rounds(tournament=tournament)
    ranking = selectors.ranking(tournament=tournament, played=played)
    if entrants is None:
        entrants = selectors.entrants(tournament=tournament)
    members: dict[str, list[str]] = {}
    party_ids: dict[str, int] = {}
    for entry in entrants:
        if entry.party is not None:
            members.setdefault(entry.party.name, []).append(entry.player.name)
            party_ids[entry.party.name] = entry.party.pk
    race = form.robber_games is not None
    rounds = [(round_, [_table_row(table, race) for table in round_.tables]) for round_ in played]
    current = rounds[-1] if rounds and not played[-1].finished else None
    return {
        "format": form,
        "figure_labels": [FIGURE_LABELS.get(name, name) for name in form.figures],
        "rounds": rounds,
        "current": current,
        "ranking": ranking,
        "rows": _rank_rows(form, ranking, members),
        "entrants": entrants,
        "parties": [(party_ids[name], name, names) for name, names in sorted(members.items())],
        "drawn": len(played),
        "finished": bool(played) and len(played) == tournament.rounds_planned and played[-1].finished,
        "may_draw": len(played) < tournament.rounds_planned and (not played or played[-1].finished),
    }


def _table_row(table: selectors.Table, race: bool) -> TableRow:
    scores = table.scores(race)
    order = list(table.teams) if table.teams else table.names
    return TableRow(
        number=table.number,
        meeting_id=table.meeting_id,
        closed=table.closed,
        games_planned=table.games_planned,
        hands=table.hands,
        scores=[(party, scores.get(party, 0)) for party in order],
    )


def _rank_rows(form, ranking: selectors.Ranking, members: dict[str, list[str]]) -> list[RankRow]:
    places = selectors.place_after(ranking)
    return [
        RankRow(
            place=row.place,
            party=row.party,
            figures=[row.figures[name] for name in form.figures],
            rounds=ranking.by_round.get(row.party, []),
            places=places.get(row.party, []),
            members=members.get(row.party, []),
        )
        for row in ranking.rows
    ]
