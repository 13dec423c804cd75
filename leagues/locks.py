"""The row locks a write takes before it reads what it changes. Lock order everywhere:
league, season, meeting, club night (``table.night_winner``: closing or reopening a table).
"""

from __future__ import annotations

from leagues.models import (
    League,
    Meeting,
    Season,
)
from leagues.table import selectors


def lock_meeting(meeting_id: int) -> Meeting:
    # On PostgreSQL this serialises writers of one meeting; SQLite serialises all writers.
    meeting = selectors.meeting_for_entry(pk=meeting_id)
    if meeting is None:
        raise Meeting.DoesNotExist(f"No meeting {meeting_id}.")
    return meeting


# --- the end of a season ----------------------------------------------------------------------
# A season is complete when everyone has hosted (``closed_on``, set when the last host's
# meeting starts) and closed (``locked_at``) when its last evening ends, when its bill is
# stored, or when the next season starts, whichever comes first. Closing it closes its
# evenings: from then on no hand of it changes, so neither do its standings nor its bill. An
# admin can reopen it with a reason (kept), and then reopen the evening to correct; the bill
# page then shows the stored bill beside the split by the new standings until a new one is
# stored. Lock order everywhere: league, season, meeting.


def lock_season_row(season_id: int) -> Season:
    return Season.objects.select_for_update().select_related("league").get(pk=season_id)


def lock_league(league: League) -> League:
    return League.objects.select_for_update().get(pk=league.pk)
