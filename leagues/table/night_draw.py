"""The tables Kartenliga proposes for a club night: sizes the league's game allows, and a seat
draw that splits last evening's table-mates where the numbers allow (``scoring.seating``)."""

from __future__ import annotations

import secrets

from scoring import seating


def new_seed() -> int:
    """A fresh seed for a draw, so that each "draw again" gives another draw."""
    return secrets.randbits(32)


def proposed_tables(*, game: str, players: list, last_tables: list[list[int]], seed: int) -> list[list]:
    """``players`` (Player objects) at the tables proposed for ``game``, each table in seat
    order, drawn with ``seed`` so that players who shared a table of ``last_tables`` (player
    ids) sit together again as rarely as the numbers allow. Raises ``ScoringError`` when the
    players cannot be split into tables the game allows."""
    sizes = seating.propose_tables(game=game, count=len(players))
    by_key = {str(player.pk): player for player in players}
    met = seating.table_mates([[str(pk) for pk in table] for table in last_tables])
    drawn = seating.draw_seats(players=list(by_key), sizes=sizes, seed=seed, met=met)
    return [[by_key[key] for key in table] for table in drawn]


def host_first(table: list, host) -> list:
    """The seat order of ``table`` turned to start with ``host`` when he sits at it: the host
    deals first at his table, as at an evening of one table."""
    if host not in table:
        return list(table)
    start = table.index(host)
    return table[start:] + table[:start]
