"""A league's tournaments in its JSON export and back.

The file lists them under ``tournaments``, oldest first: the name, the format, the rounds
planned, the club's games per player and round (empty: the format's), the lot of the seat
draw (so that an imported tournament draws its next round as the original would), when it
was made and by whom, its entrants (the players' names, in the order the tournament keeps
them) and its pairs or teams with their players. Nothing of the ranking is in it: the ranking
is worked out from the rounds' tables, which travel as any table does.

A round is a club night (``night_file``) that names its tournament by its place in that list
(1 for the first, as the file's other references count) and its round number; a table of a
round says the games or the matches it plays (``games_planned``, ``matches_planned``). A file
without ``tournaments`` has none, and its nights are a club's own.

An import holds them to what the tournament's pages and the draw make
(``leagues.tournaments.services``): a format of the league's game with its rounds and games,
entrants who are players of the league entered once, a pair or team of the format's size
whose players are entrants and play in it alone, every entrant of a format of pairs or teams
in one, the rounds of a tournament numbered 1, 2, … up to its rounds planned, and games or
matches planned only at a table of a round, one of the two, at least one. Who made a
tournament is written as the league knows him; a tournament keeps only an account, so an
imported one names nobody.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from leagues.exceptions import InvalidInput
from leagues.exchange import import_checks as checks
from leagues.exchange.import_checks import ImportProblem
from leagues.models import ClubNight, League, Meeting, Tournament, TournamentParty, TournamentPlayer
from leagues.table import evening
from leagues.tournaments import services
from scoring.tournament import FORMATS

KEY = "tournaments"


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


# --- out -----------------------------------------------------------------------------------


def export_tournaments(league: League, players: dict[int, str], who) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """The league's tournaments as the file has them, and each one's place in that list by its
    id (for its rounds). Three queries, whatever the number of tournaments."""
    tournaments = list(league.tournaments.order_by("created_at", "id"))
    entrants: dict[int, list[str]] = defaultdict(list)
    members: dict[int, list[str]] = defaultdict(list)
    entries = TournamentPlayer.objects.filter(tournament__league=league).order_by("player__name", "id")
    for tournament_id, player_id, party_id in entries.values_list("tournament_id", "player_id", "party_id"):
        entrants[tournament_id].append(players[player_id])
        if party_id is not None:
            members[party_id].append(players[player_id])
    parties: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for pk, tournament_id, name in (
        TournamentParty.objects.filter(tournament__league=league)
        .order_by("name", "id")
        .values_list("pk", "tournament_id", "name")
    ):
        parties[tournament_id].append({"name": name, "players": members[pk]})
    items = [
        {
            "name": t.name,
            "format": t.format,
            "rounds_planned": t.rounds_planned,
            "games_per_player": t.games_per_player,
            "seed": t.seed,
            "created_at": _iso(t.created_at),
            "created_by": who(t.created_by_id),
            "entrants": entrants[t.pk],
            "parties": parties[t.pk],
        }
        for t in tournaments
    ]
    return items, {t.pk: i for i, t in enumerate(tournaments, start=1)}


def night_fields(night: ClubNight, places: dict[int, int]) -> dict[str, int | None]:
    """A night's tournament (its place in ``tournaments``) and round number; both None for a
    club's own night."""
    return {"tournament": places.get(night.tournament_id), "round_number": night.round_number}


def meeting_fields(meeting: Meeting) -> dict[str, int | None]:
    """The games or matches a table of a tournament's round plays (None elsewhere)."""
    return {"games_planned": meeting.games_planned, "matches_planned": meeting.matches_planned}


# --- in ------------------------------------------------------------------------------------


@dataclass
class _Read:
    """A tournament of the file as stored, and the round numbers its nights have named."""

    where: str
    row: Tournament
    rounds: set[int] = field(default_factory=set)


class Tournaments:
    """The file's tournaments, each stored with its entrants and parties as it is read; each
    night's round checked against them (``round_of``), and every tournament's rounds whole at
    the end (``check_complete``)."""

    def __init__(self, head: Any, league: League, player: checks.Players):
        self.read = [
            _Read(where=f"{KEY}[{i}]", row=_import_tournament(item, f"{KEY}[{i}]", league, player))
            for i, item in enumerate(checks.items(head, KEY, ""), start=1)
        ]

    def round_of(self, item: Any, where: str) -> tuple[Tournament | None, int | None]:
        """The tournament and round number the night ``item`` at ``where`` names (both None for
        a club's own night)."""
        place = checks.value(item, "tournament", where, int, required=False)
        if place is None:
            if checks.value(item, "round_number", where, None, required=False) is not None:
                raise ImportProblem(f"{where}.round_number", _("a round number without a tournament."))
            return None, None
        if not 1 <= place <= len(self.read):
            raise ImportProblem(f"{where}.tournament", _("not the place of a tournament in tournaments."))
        read = self.read[place - 1]
        number = checks.whole(item, "round_number", where, model=ClubNight, field="round_number", least=1)
        if number > read.row.rounds_planned:
            message = _("%(tournament)s plans %(count)s rounds.") % {
                "tournament": read.where,
                "count": read.row.rounds_planned,
            }
            raise ImportProblem(f"{where}.round_number", message)
        if number in read.rounds:
            message = _("%(tournament)s has a round %(number)s already.") % {"tournament": read.where, "number": number}
            raise ImportProblem(f"{where}.round_number", message)
        read.rounds.add(number)
        return read.row, number

    def check_complete(self) -> None:
        """Every tournament's rounds are numbered 1, 2, …, as the draw numbers them."""
        for read in self.read:
            if read.rounds != set(range(1, len(read.rounds) + 1)):
                raise ImportProblem(read.where, _("the rounds of a tournament are numbered 1, 2, … (club_nights)."))


def _import_tournament(item: Any, where: str, league: League, player: checks.Players) -> Tournament:
    """The tournament ``item``, made as its page makes one, with its lot, time, entrants and
    parties."""
    name = checks.text(item, "name", where, model=Tournament, field="name")
    format = checks.value(item, "format", where, str)
    rounds = checks.whole(item, "rounds_planned", where, model=Tournament, field="rounds_planned")
    games = checks.whole(item, "games_per_player", where, model=Tournament, field="games_per_player", required=False)
    seed = checks.text(item, "seed", where, model=Tournament, field="seed")
    created_at = checks.moment(item, "created_at", where, required=False)
    checks.who(item, "created_by", where)  # a name as any other, though a tournament keeps none
    try:
        tournament = services.create_tournament(
            league=league, name=name, format=format, rounds_planned=rounds, games_per_player=games
        )
    except InvalidInput as error:
        first = error.errors[0]
        raise ImportProblem(f"{where}.{first['field']}", first["message"]) from error
    tournament.seed = seed
    if created_at is not None:
        tournament.created_at = created_at  # after the insert, which sets it to now (auto_now_add)
    tournament.save(update_fields=["seed", "created_at"])
    _import_entrants(item, where, tournament, player)
    return tournament


def _import_entrants(item: Any, where: str, tournament: Tournament, player: checks.Players) -> None:
    """The entrants, each a player of the league entered once, and the pairs or teams of the
    format's size, each of entrants who play in it alone; in a format of pairs or teams every
    entrant plays in one."""
    entered: dict[str, Any] = {}
    for j, name in enumerate(checks.items(item, "entrants", where), start=1):
        found = player(name, f"{where}.entrants[{j}]")
        if found.name in entered:
            raise ImportProblem(f"{where}.entrants[{j}]", _("%(name)s is entered twice.") % {"name": found.name})
        entered[found.name] = found
    kind = FORMATS[tournament.format].parties
    party_of: dict[str, TournamentParty] = {}
    parties = checks.items(item, "parties", where)
    if kind == "players" and parties:
        raise ImportProblem(f"{where}.parties", _("a tournament of single players has no pairs or teams."))
    names: set[str] = set()
    for j, party in enumerate(parties, start=1):
        at = f"{where}.parties[{j}]"
        row = _party(party, at, tournament, names)
        members = checks.value(party, "players", at, list)
        if len(members) != services.PARTY_SIZE[kind]:
            message = _("a pair or team of %(count)s players.") % {"count": services.PARTY_SIZE[kind]}
            raise ImportProblem(f"{at}.players", message)
        for k, name in enumerate(members, start=1):
            member = player(name, f"{at}.players[{k}]")
            if member.name not in entered:
                raise ImportProblem(f"{at}.players[{k}]", _("%(name)s is not an entrant.") % {"name": member.name})
            if member.name in party_of:
                message = _("%(name)s plays in another pair or team.") % {"name": member.name}
                raise ImportProblem(f"{at}.players[{k}]", message)
            party_of[member.name] = row
    alone = [name for name in entered if name not in party_of]
    if kind != "players" and alone:
        message = _("%(name)s plays in no pair or team.") % {"name": alone[0]}
        raise ImportProblem(f"{where}.entrants", message)
    TournamentPlayer.objects.bulk_create(
        TournamentPlayer(tournament=tournament, player=p, party=party_of.get(name)) for name, p in entered.items()
    )


def _party(item: Any, where: str, tournament: Tournament, names: set[str]) -> TournamentParty:
    """A pair or team, its name as the registration takes it and no other's."""
    name = (checks.text(item, "name", where, model=TournamentParty, field="name") or "").strip()
    if not name:
        raise ImportProblem(f"{where}.name", _("Name: give the pair or team a name."))
    if name in names:
        raise ImportProblem(f"{where}.name", _("Name: another pair or team has this name."))
    names.add(name)
    return TournamentParty.objects.create(tournament=tournament, name=name)


def planned(item: Any, where: str, *, in_round: bool) -> dict[str, int | None]:
    """The games or matches the meeting ``item`` plays: only a table of a tournament's round
    (``in_round``) has them, one of the two, at least one."""
    found = {
        key: checks.whole(item, key, where, model=Meeting, field=key, required=False, least=1)
        for key in ("games_planned", "matches_planned")
    }
    given = [key for key, number in found.items() if number is not None]
    if given and not in_round:
        raise ImportProblem(f"{where}.{given[0]}", _("only a table of a tournament's round plays a planned number."))
    if len(given) > 1:
        raise ImportProblem(f"{where}.matches_planned", _("a table plays its games planned or a match, not both."))
    return found


def past_the_end(meeting: Meeting, result: dict[str, Any] | None) -> str:
    """Why a table of a round holds more hands than it plays ("" when it does not): hands
    after its last planned game, or after the hand that wins its match (``result``: its
    replay, None where an earlier evening's replay replayed it)."""
    if meeting.games_planned is None and meeting.matches_planned is None:
        return ""
    if result is None:
        result = {"hands": list(meeting.hands.live().values_list("pk", flat=True))}
    return evening.past_the_end(meeting, result)
