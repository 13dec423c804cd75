"""``verify_replays``' check of the club nights: the one winner of each, from the replays of its
tables (``night_winner``)."""

from __future__ import annotations

from django.db import transaction

from leagues import games
from leagues.models import ClubNight, Meeting, MeetingResult, Seat
from leagues.table.night_winner import Key, keep_night_winners, winner_key


class NightFigures:
    """The replayed figures of the tables of a league's club nights, gathered as
    ``verify_replays`` checks them one by one: {night id: {(meeting id, player id): (total,
    games won, games)}}, and which tables gave theirs (a table that no longer replays gives
    none, and its night is not checked)."""

    def __init__(self):
        self.fresh: dict[int, dict[Key, tuple[int, int, int]]] = {}
        self.tables: dict[int, set[int]] = {}

    def add(self, meeting: Meeting, rows: list[MeetingResult]) -> None:
        figures = self.fresh.setdefault(meeting.club_night_id, {})
        figures.update({(meeting.pk, r.player_id): (r.total, r.games_won, r.games) for r in rows})
        self.tables.setdefault(meeting.club_night_id, set()).add(meeting.pk)


def check_nights(nights: NightFigures, *, rebuild: bool, error_line) -> list[tuple[Meeting | None, str, str]]:
    """(the night's first table, kind, detail) for each night whose kept winner is not the
    replayed one, mended with ``rebuild``; kinds as ``verify.ReplayProblem``'s. Each night in a
    transaction of its own; whatever one raises is an "error" of that night."""
    problems = []
    for night_id in sorted(nights.fresh):
        try:
            with transaction.atomic():
                problem = _check_night(night_id, nights, rebuild=rebuild)
        except Exception as error:  # noqa: BLE001 (as verify_replays: one night spoils no other)
            problem = (None, "error", f"club night {night_id}: {error_line(error)}")
        if problem is not None:
            problems.append(problem)
    return problems


def _check_night(night_id: int, nights: NightFigures, *, rebuild: bool) -> tuple[Meeting, str, str] | None:
    night = ClubNight.objects.select_related("league").get(pk=night_id)
    tables = list(Meeting.objects.filter(club_night_id=night_id).select_related("league").order_by("table_number"))
    if not tables or any(table.pk not in nights.tables[night_id] for table in tables):
        return None  # a table that no longer replays is reported on its own
    seated: dict[int, dict[int, str]] = {}
    for meeting_id, player_id, name in (
        Seat.objects.filter(meeting__in=tables)
        .order_by("meeting_id", "position")
        .values_list("meeting_id", "player_id", "player__name")
    ):
        seated.setdefault(meeting_id, {})[player_id] = name
    replayed = None
    if all(table.closed_at is not None for table in tables):  # only a closed evening has a winner
        replayed = winner_key(
            method=night.combine,
            race=games.is_race_game(night.league.game),
            tables=[seated.get(table.pk, {}) for table in tables],
            meeting_ids=[table.pk for table in tables],
            figures=nights.fresh[night_id],
        )
    kept = set(
        MeetingResult.objects.filter(meeting__in=tables, won_evening=True).values_list("meeting_id", "player_id")
    )
    if kept == ({replayed} if replayed else set()):
        return None
    if rebuild:
        keep_night_winners(night_ids=[night_id])
    names = {player_id: name for players in seated.values() for player_id, name in players.items()}

    def named(keys):
        return ", ".join(sorted(names.get(player_id, f"player {player_id}") for _m, player_id in keys)) or "nobody"

    detail = (
        f"club night {night_id}: won_evening cached {named(kept)}, replayed {named([replayed] if replayed else [])}"
    )
    return tables[0], "differs", detail
