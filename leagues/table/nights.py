"""Writes of club nights: opening an evening played at several tables at once.

Each table is a meeting of its own, opened the way ``meetings.start_meeting`` opens one, in
the same season and under the same host, so that the host rotation counts the night once.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from leagues.exceptions import IdempotencyKeyReused, InvalidInput
from leagues.locks import lock_league
from leagues.models import ClubNight, League, Player
from leagues.table.meetings import (
    CURRENT_SEASON,
    close_season_if_hosted,
    new_meeting,
    season_to_start,
    table_problems,
)


@transaction.atomic
def open_club_night(
    *,
    league: League,
    date,
    host: Player,
    tables: list[list[Player]],
    end_time=None,
    pennant_holder: Player | None = None,
    pennant_forgotten: bool = False,
    user=None,
    after=CURRENT_SEASON,
    key=None,
    opened_with=None,
) -> ClubNight:
    """Open a club night of ``tables`` (each its players in seat order) hosted by ``host``.

    Every table is checked as a table of the league's game; a problem names its table. The
    pennant's holder and whether he forgot it are kept at the table he sits at, where his
    penalty solos are played. All or nothing: one table refused opens none. ``key``: the
    client's idempotency key, kept with what it sent (``opened_with``) for ``opened_before``."""
    league, season = season_to_start(league=league, date=date, user=user, after=after)
    _check(league, host=host, tables=tables)
    night = ClubNight.objects.create(
        league=league,
        season=season,
        date=date,
        host=host,
        combine=league.combine_tables,
        created_by=user,
        idempotency_key=key,
        opened_with=opened_with if key is not None else None,
    )
    for number, players in enumerate(tables, start=1):
        holds_pennant = pennant_holder is not None and pennant_holder in players
        new_meeting(
            league=league,
            season=season,
            date=date,
            host=host,
            players=players,
            user=user,
            end_time=end_time,
            pennant_holder=pennant_holder if holds_pennant else None,
            pennant_forgotten=pennant_forgotten and holds_pennant,
            club_night=night,
            table_number=number,
        )
    close_season_if_hosted(season, date=date)
    return night


def opened_before(*, league: League, key, opened_with) -> ClubNight | None:
    """The night of ``league`` a client opened before with the idempotency ``key`` (a UUID
    it chose), or None (always None without a key). ``opened_with``: what it sends now, as
    JSON; the same key sent with anything else is IdempotencyKeyReused, since a key names one
    night only. Locks the league first, as the opening does (``season_to_start``): call it in
    the transaction that opens the night, so that two retries at once open one."""
    if key is None:
        return None
    lock_league(league)
    earlier = ClubNight.objects.filter(league=league, idempotency_key=key).first()
    if earlier is not None and earlier.opened_with != opened_with:
        raise IdempotencyKeyReused(night=earlier)
    return earlier


def _check(league: League, *, host: Player, tables: list[list[Player]]) -> None:
    """Refuse a night of fewer than two tables, a player at two tables, a table the game does
    not allow, and a host who is not one of the league's players."""
    errors = []
    if len(tables) < 2:
        errors.append({"hand": None, "field": "tables", "message": _("A club night has at least two tables.")})
    everyone = [player.pk for players in tables for player in players]
    if len(set(everyone)) != len(everyone):
        errors.append({"hand": None, "field": "tables", "message": _("Each player can sit at one table only.")})
    if host.league_id != league.pk:
        errors.append({"hand": None, "field": "host", "message": _("The host must be a player of this league.")})
    for number, players in enumerate(tables, start=1):
        for problem in table_problems(league, players):
            message = _("Table %(number)s: %(problem)s") % {"number": number, "problem": problem["message"]}
            errors.append({**problem, "field": "tables", "message": message})
    if errors:
        raise InvalidInput(errors)
