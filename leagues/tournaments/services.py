"""Writes of tournaments: creating one, registering its players, pairs or teams, drawing a round.

A round is a club night (``leagues.table.nights.open_club_night``) whose tables the seat draw
fills (``scoring.seating.draw_seats``), given every earlier round's tables so that nobody
meets an old table-mate again where the numbers allow, pairs and teams kept at one table. Each
table is a meeting that plays the round's games (``Meeting.games_planned``) or its robber or
match (``Meeting.matches_planned``) and ends with the last of them. Lock order as everywhere: the league first, then the tournament.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from leagues.exceptions import InvalidInput, field_error, problems_as_errors
from leagues.locks import lock_league
from leagues.models import (
    GAME_LABELS,
    ClubNight,
    League,
    Meeting,
    Player,
    Tournament,
    TournamentParty,
    TournamentPlayer,
)
from leagues.table.nights import open_club_night
from leagues.tournaments import selectors
from scoring import seating
from scoring.errors import ScoringError
from scoring.tournament import FORMATS, tournament_format

MAX_ROUNDS = 20
# A club may play shorter or longer Serien than the DDV's 24 games: a multiple of four, so that
# a table of four and a table of five both play whole rounds of deals.
GAMES_STEP, MOST_GAMES = 4, 96
PARTY_SIZE = {"players": 1, "pairs": 2, "teams": 3}
# Formats whose rounds Kartenliga runs, each table ending by itself: a DDV Serie at its last
# game, a Maw pairs robber (the league's rules set to three games a match) at the game that
# wins it, a 56 match at its last game, or where the league plays with tokens at the hand
# that wins it (docs/decisions.md, "Tournaments").
OFFERED = ("ddv", "maw_pairs", "fifty_six_teams")
# A 56 match of a fixed number of games: a multiple of six, so that everyone deals as often;
# 24 (four deals each) when the tournament names none.
MATCH_STEP, MATCH_GAMES = 6, 24


def _locked(tournament: Tournament) -> Tournament:
    """The tournament's row, locked (its league's first, in the lock order)."""
    lock_league(tournament.league)
    return Tournament.objects.select_for_update().select_related("league").get(pk=tournament.pk)


@transaction.atomic
def create_tournament(
    *, league: League, name: str, format: str, rounds_planned: int, games_per_player: int | None = None, user=None
) -> Tournament:
    """A tournament of ``league`` in ``format``; the format's game must be the league's."""
    name = (name or "").strip()
    errors = []
    if not name:
        errors.append({"hand": None, "field": "name", "message": _("Name: give the tournament a name.")})
    if format not in OFFERED:
        errors.append({"hand": None, "field": "format", "message": _("Format: choose one of the list.")})
    elif FORMATS[format].game != league.game:
        game = GAME_LABELS.get(FORMATS[format].game, FORMATS[format].game)
        message = _("Format: this tournament is played in a league of %(game)s.") % {"game": game}
        errors.append({"hand": None, "field": "format", "message": message})
    if not 1 <= rounds_planned <= MAX_ROUNDS:
        message = _("Rounds: from 1 to %(most)s.") % {"most": MAX_ROUNDS}
        errors.append({"hand": None, "field": "rounds_planned", "message": message})
    errors += _games_problems(format, games_per_player)
    if errors:
        raise InvalidInput(errors)
    return Tournament.objects.create(
        league=league,
        name=name,
        format=format,
        rounds_planned=rounds_planned,
        games_per_player=games_per_player,
        created_by=user,
    )


def _games_problems(format: str, games: int | None) -> list[dict]:
    if games is None:
        return []
    if format == "fifty_six_teams":
        if MATCH_STEP <= games <= MOST_GAMES and games % MATCH_STEP == 0:
            return []
        message = _("Games per player: a multiple of %(step)s from %(step)s to %(most)s.") % {
            "step": MATCH_STEP,
            "most": MOST_GAMES,
        }
    elif format != "ddv":
        message = _("Games per player: a round of this format is a whole robber or match.")
    elif not (GAMES_STEP <= games <= MOST_GAMES and games % GAMES_STEP == 0):
        message = _("Games per player: a multiple of %(step)s from %(step)s to %(most)s.") % {
            "step": GAMES_STEP,
            "most": MOST_GAMES,
        }
    else:
        return []
    return [{"hand": None, "field": "games_per_player", "message": message}]


def games_planned(tournament: Tournament, seats: int) -> int | None:
    """The games a table of ``seats`` plays in a round: the format's (DDV: 24 at four, 30 at
    five, so that everyone plays 24), or the club's own number per player, a quarter more at
    five. None where a round is not a number of games (a robber, a match)."""
    fixed = tournament_format(tournament.format).games_per_round.get(seats)
    if fixed is None:
        return None
    if tournament.games_per_player is None:
        return fixed
    return tournament.games_per_player * seats // 4


@transaction.atomic
def register_players(*, tournament: Tournament, players: list[Player]) -> list[TournamentPlayer]:
    """Make ``players`` the tournament's entrants (a format of single players). A player taken
    off keeps the rounds he played; he is not drawn again."""
    tournament = _locked(tournament)
    if tournament_format(tournament.format).parties != "players":
        raise field_error("players", _("Players: this tournament is played by pairs or teams; register those."))
    if any(player.league_id != tournament.league_id for player in players):
        raise field_error("players", _("Players: choose players of this league."))
    chosen = {player.pk for player in players}
    tournament.entrants.exclude(player_id__in=chosen).delete()
    have = set(tournament.entrants.values_list("player_id", flat=True))
    TournamentPlayer.objects.bulk_create(
        TournamentPlayer(tournament=tournament, player_id=pk) for pk in sorted(chosen - have)
    )
    return list(tournament.entrants.select_related("player"))


@transaction.atomic
def add_party(*, tournament: Tournament, name: str, players: list[Player]) -> TournamentParty:
    """Register a pair or a team: its name and its players, none of them in another party."""
    tournament = _locked(tournament)
    kind = tournament_format(tournament.format).parties
    name = (name or "").strip()
    if kind == "players":
        raise field_error("name", _("Name: this tournament is played by single players; register them."))
    if not name:
        raise field_error("name", _("Name: give the pair or team a name."))
    size = PARTY_SIZE[kind]
    if len({p.pk for p in players}) != size or any(p.league_id != tournament.league_id for p in players):
        raise field_error("players", _("Players: choose %(count)s players of this league.") % {"count": size})
    if tournament.entrants.filter(player__in=players).exists():
        raise field_error("players", _("Players: a player plays in one pair or team only."))
    try:
        with transaction.atomic():
            party = TournamentParty.objects.create(tournament=tournament, name=name)
    except IntegrityError:
        raise field_error("name", _("Name: another pair or team has this name.")) from None
    TournamentPlayer.objects.bulk_create(
        TournamentPlayer(tournament=tournament, player=player, party=party) for player in players
    )
    return party


@transaction.atomic
def remove_party(*, tournament: Tournament, party_id: int) -> None:
    """Take a pair or team off; the rounds it played keep it in the ranking."""
    tournament = _locked(tournament)
    tournament.parties.filter(pk=party_id).delete()


@transaction.atomic
def draw_round(*, tournament: Tournament, date, host: Player, user=None) -> ClubNight:
    """Draw the next round and open it as a club night: its tables filled by the seat draw,
    each playing the round's games. Refused while a table of the round before still plays,
    after the last round planned, and when the entrants do not fill two tables."""
    tournament = _locked(tournament)
    played = selectors.rounds(tournament=tournament)
    if len(played) >= tournament.rounds_planned:
        raise field_error("round", _("All %(count)s rounds have been drawn.") % {"count": tournament.rounds_planned})
    if played and not played[-1].finished:
        raise field_error("round", _("Round %(number)s is still being played.") % {"number": played[-1].number})
    number = len(played) + 1
    tables = _drawn_tables(tournament, played, number)
    night = open_club_night(league=tournament.league, date=date, host=host, tables=tables, user=user)
    ClubNight.objects.filter(pk=night.pk).update(tournament=tournament, round_number=number)
    night.tournament, night.round_number = tournament, number
    _plan_tables(tournament, night, tables)
    return night


def _drawn_tables(tournament: Tournament, played: list[selectors.Round], number: int) -> list[list[Player]]:
    """The seat draw of round ``number``: the entrants at tables of the format's sizes, as few
    old table-mates together as the numbers allow."""
    form = tournament_format(tournament.format)
    entrants = list(tournament.entrants.select_related("player", "party").order_by("player__name"))
    by_name = {entry.player.name: entry.player for entry in entrants}
    groups: dict[str, list[str]] = {}
    for entry in entrants:
        if entry.party is not None:
            groups.setdefault(entry.party.name, []).append(entry.player.name)
    width = PARTY_SIZE[form.parties]
    parties = len(entrants) if width == 1 else len(groups)
    try:
        sizes = seating.split_players(parties, sizes=form.table_sizes)
        if len(sizes) < 2:
            raise field_error("players", _("Players: a round needs at least two tables."))
        met = seating.table_mates(table.names for past in played for table in past.tables)
        drawn = seating.draw_seats(
            players=sorted(by_name),
            sizes=[size * width for size in sizes],
            seed=f"{tournament.seed}:{number}",
            met=met,
            together=[groups[name] for name in sorted(groups)],
        )
    except ScoringError as error:
        raise InvalidInput(problems_as_errors(error)) from None
    return [[by_name[name] for name in table] for table in drawn]


def _plan_tables(tournament: Tournament, night: ClubNight, tables: list[list[Player]]) -> None:
    """Each table's games (a DDV Serie), robber or match, the pairs or teams as the table's
    teams as the draw seated them (partners opposite, a 56 team on every second seat)."""
    form = tournament_format(tournament.format)
    if form.parties == "players":
        for seats in sorted({len(players) for players in tables}):
            numbers = [n for n, players in enumerate(tables, start=1) if len(players) == seats]
            night.tables.filter(table_number__in=numbers).update(games_planned=games_planned(tournament, seats))
        return
    party_of = dict(tournament.entrants.values_list("player_id", "party__name"))
    for meeting in night.tables.all():
        players = tables[meeting.table_number - 1]
        teams: dict[str, list[str]] = {}
        for player in players:
            teams.setdefault(party_of[player.pk], []).append(player.name)
        rules = dict(meeting.rules)
        Meeting.objects.filter(pk=meeting.pk).update(teams=teams, rules=rules, **_round_of(tournament, rules))


def _round_of(tournament: Tournament, rules: dict) -> dict[str, int | None]:
    """What a table of pairs or teams plays in a round, as the meeting's planned games or
    matches (``rules``: the table's, set here to a robber's games): Maw pairs one robber,
    the first pair to three games; 56 teams one match, until a team has lost its tokens
    where the league plays with them, else of the tournament's games."""
    form = tournament_format(tournament.format)
    if form.robber_games is not None:
        rules["match_games"] = form.robber_games
        return {"matches_planned": 1, "games_planned": None}
    if rules.get("tables"):
        return {"matches_planned": 1, "games_planned": None}
    return {"matches_planned": None, "games_planned": tournament.games_per_player or MATCH_GAMES}
