"""Reads of tournaments: the rounds with their tables and scores, and the ranking they make.

Everything comes from the rounds' tables as stored: the meetings, their seats and their
``MeetingResult`` rows (one query each, whatever the number of rounds, tables and hands), so a
tournament's page costs the same after the first round as after the last. The ranking is
``scoring.tournament``'s, worked out from the rounds whose tables have all ended.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.db.models import Q

from leagues.exceptions import problems_as_errors
from leagues.models import Meeting, MeetingResult, Seat, Tournament, TournamentPlayer
from scoring.errors import ScoringError
from scoring.tournament import Standing, rank_after_each_round, tournament_format


@dataclass
class Table:
    """One table of a round: its meeting, its parties' scores (seat order) and its state."""

    number: int
    meeting_id: int
    closed: bool
    games_planned: int | None
    names: list[str] = field(default_factory=list)  # the players in seat order
    teams: dict[str, list[str]] | None = None  # pairs or teams: {party: [players]}
    figures: dict[str, tuple[int, int]] = field(default_factory=dict)  # player: (total, games won)
    hands: int = 0
    tokens: int = 0  # the tokens each team starts a 56 match with (the rule ``tables``), else 0

    def scores(self, race: bool) -> dict[str, int]:
        """Each party's score at this table: the points (DDV, 56), the tokens held at the end
        of a 56 match played with tokens (a total is what a team won or lost of them), or the
        games won (a robber)."""
        which, start = (1, 0) if race else (0, self.tokens)
        if self.teams:
            return {party: start + self.figures.get(members[0], (0, 0))[which] for party, members in self.teams.items()}
        return {name: start + self.figures.get(name, (0, 0))[which] for name in self.names}


@dataclass
class Round:
    number: int
    night_id: int
    date: object
    tables: list[Table] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """Every table has ended (played its games, or ended by its scorer)."""
        return all(table.closed for table in self.tables)


@dataclass
class Ranking:
    """The ranking after the finished rounds: ``rows`` (the last), ``after`` (after each
    round), each party's score per round (``by_round``, None where it did not play), and
    the problems that kept it from being worked out (a table's scores that do not fit)."""

    rounds: int = 0
    rows: list[Standing] = field(default_factory=list)
    after: list[list[Standing]] = field(default_factory=list)
    by_round: dict[str, list[int | None]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def tournament_of(*, league, pk) -> Tournament | None:
    """The tournament ``pk`` of ``league``, or None."""
    tournament = Tournament.objects.filter(league=league, pk=pk).first()
    if tournament is not None:
        tournament.league = league
    return tournament


def tournaments(*, league) -> list[Tournament]:
    return list(league.tournaments.all())


def entrants(*, tournament) -> list[TournamentPlayer]:
    """The registered players with their pair or team, by name."""
    return list(tournament.entrants.select_related("player", "party").order_by("player__name"))


def rounds(*, tournament) -> list[Round]:
    """The rounds drawn so far with their tables, seats and stored results: three queries."""
    found: dict[int, Round] = {}
    tables: dict[int, Table] = {}
    meetings = (
        Meeting.objects.filter(club_night__tournament=tournament)
        .order_by("club_night__round_number", "table_number")
        .values_list(
            "pk",
            "club_night_id",
            "club_night__round_number",
            "club_night__date",
            "table_number",
            "closed_at",
            "games_planned",
            "teams",
            "rules__tables",
        )
    )
    for pk, night_id, number, date, table_number, closed_at, planned, teams, tokens in meetings:
        round_ = found.setdefault(number, Round(number=number, night_id=night_id, date=date))
        table = Table(
            number=table_number,
            meeting_id=pk,
            closed=closed_at is not None,
            games_planned=planned,
            teams=teams,
            tokens=tokens or 0,
        )
        tables[pk] = table
        round_.tables.append(table)
    seats = Seat.objects.filter(meeting__club_night__tournament=tournament).order_by("meeting", "position")
    for meeting_id, name in seats.values_list("meeting_id", "player__name"):
        tables[meeting_id].names.append(name)
    results = MeetingResult.objects.filter(meeting__club_night__tournament=tournament)
    for meeting_id, name, total, won, hands in results.values_list(
        "meeting_id", "player__name", "total", "games_won", "hands"
    ):
        tables[meeting_id].figures[name] = (total, won)
        tables[meeting_id].hands = max(tables[meeting_id].hands, hands)
    return list(found.values())


def ranking(*, tournament, played: list[Round]) -> Ranking:
    """The ranking after each round whose tables have all ended, in the format's figures and
    tie-breaks (``scoring.tournament.rank_after_each_round``), from the rounds as ``rounds``
    read them. A round still played is left out until its last table ends."""
    race = tournament_format(tournament.format).robber_games is not None
    finished = []
    for round_ in played:
        if not round_.finished:
            break
        finished.append(round_)
    scores = [[table.scores(race) for table in round_.tables] for round_ in finished]
    try:
        after = rank_after_each_round(tournament=tournament.format, rounds=scores)
    except ScoringError as error:
        return Ranking(rounds=len(finished), problems=[e["message"] for e in problems_as_errors(error)])
    by_round: dict[str, list[int | None]] = {}
    for index, tables in enumerate(scores):
        for table in tables:
            for party, score in table.items():
                by_round.setdefault(party, [None] * len(scores))[index] = score
    return Ranking(rounds=len(finished), rows=after[-1] if after else [], after=after, by_round=by_round)


def place_after(ranking: Ranking) -> dict[str, list[int | None]]:
    """Each party's place after each finished round (None before it first played)."""
    places: dict[str, list[int | None]] = {}
    for index, rows in enumerate(ranking.after):
        for row in rows:
            places.setdefault(row.party, [None] * len(ranking.after))[index] = row.place
    return places


# --- the big screen's mark ----------------------------------------------------------------------
# What the tournament's screen shows that can change while it is up: the rounds drawn, each
# table's hands (the digest its writer keeps in MeetingCarry) and whether it ended.
MARK_FIELDS = ("rounds__pk", "rounds__tables__pk", "rounds__tables__carry__hands_digest", "rounds__tables__closed_at")


def live_mark(*, pk, language, user=None, slug=None, token=None) -> str | None:
    """The mark of tournament ``pk`` as its big screen shows it, in one query; None when the
    reader may not see it (not a member of league ``slug``, or ``token`` is not its league's
    public link)."""
    found = Tournament.objects.filter(pk=pk)
    if token is not None:
        found = found.filter(league__public_token=token)
        kind = "public"
    else:
        found = found.filter(Q(league__slug=slug) & Q(league__memberships__user=user))
        kind = "member"
    rows = list(found.order_by(*MARK_FIELDS[:2]).values_list(*MARK_FIELDS))
    if not rows:
        return None
    return hashlib.sha256(repr((rows, language, kind)).encode()).hexdigest()[:32]
