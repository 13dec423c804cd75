"""What kind of game a league plays, as pages and writes ask it: a race to a target, host
rounds, a pennant.
"""

import functools

from scoring.registry import COMPULSORY_SOLOS, START_TOTALS, get_game
from scoring.sitting import calculate

# --- standings, host rotation and sheets ---------------------------
#
# Every figure comes from HandResult (written by replay), summed by the database. Each
# function below runs a fixed number of queries, whatever the number of hands or meetings.


def is_race_game(game):
    """Games played to a target (a Partie): the table ranks by games won, points second.

    Asked of scoring/, not listed here: exactly these games take the scores of a game in
    progress (calculate-api.md, ``start_totals``: "race games")."""
    return START_TOTALS in get_game(game).extra_fields


@functools.cache
def has_host_rounds(game):
    """Whether ``game``'s evenings are played in host rounds, so that the end time finishes
    the round in progress (Doppelkopf; the other games have none): asked of scoring/'s replay
    of an evening without hands, as ``services.has_rounds`` asks it of a real one."""
    spec = get_game(game)
    players = [f"P{number}" for number in range(1, spec.min_players + 1)]
    empty = calculate({"game": game, "variant": spec.default_preset, "players": players, "hands": []})
    return "host_round_games_left" in (empty.get("next") or {})


def has_pennant(game):
    """The pennant and its penalty soli (league.md): games whose engine plays compulsory
    soli (Doppelkopf); the same games have soloists, hence a solo column."""
    return COMPULSORY_SOLOS in get_game(game).extra_fields
