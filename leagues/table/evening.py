"""What an evening's replay says of its state: its rounds, whether it may end, whether it is over.

Seed 003: "Ist sie erreicht, wird die laufende Runde zu Ende gespielt": once the end time has
passed and the round in progress is done, the evening is over.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues.models import (
    Meeting,
)

# --- the end of the evening ------------------------------------------------------------------
# Seed 003: "Ist sie erreicht, wird die laufende Runde zu Ende gespielt". Doppelkopf's replay
# says how many games are left until the player before the host has dealt
# (``next.host_round_games_left``, a whole round at a boundary); once the end time has passed
# and the round in progress is done, the evening is over. The hand that finishes it closes
# the meeting. A scorekeeper also ends an evening with "End the evening" at any round's end,
# with or without an end time and before it too (a table that stops early, or one that set
# none). Race games (1000, 56, the Maw family) have no rounds: a game is played out whatever
# the clock says, so their evening ends only by that button, after any stored hand. The end
# time can be set, changed or cleared while the evening is open (``set_end_time``). A closed
# meeting's hands are read-only until an admin reopens it with a reason; after a reopening
# the evening is over again only when closed again (the next round finished after the end
# time, or the button).


def end_time_passed(meeting: Meeting, now=None) -> bool:
    """Whether the meeting's end time has passed. An end time before noon is taken to be
    after midnight (a card evening "until 1 o'clock" ends the next morning)."""
    if meeting.end_time is None:
        return False
    now = now or timezone.now()
    try:
        day = meeting.date
        if meeting.end_time < datetime.time(12, 0):
            day += datetime.timedelta(days=1)
        end = datetime.datetime.combine(day, meeting.end_time, tzinfo=timezone.get_current_timezone())
        return now >= end
    except OverflowError:
        # A date at the edge of the calendar (9999-12-31, stored before dates were checked):
        # there is no next day to end on; such an evening is not over yet.
        return False


def has_rounds(result: dict[str, Any]) -> bool:
    """Whether the game's replay knows host rounds (it tells how many games are left in the
    host's round: Doppelkopf does): only then does the end time end the evening by itself.
    Asked of scoring/'s answer, not of the game's name."""
    return "host_round_games_left" in (result.get("next") or {})


def round_complete(meeting: Meeting, result: dict[str, Any]) -> bool:
    """At least one hand, and (games with rounds) the last seat has dealt the round's last
    game: the next one would be the host's deal again."""
    if not result.get("hands"):
        return False
    if not has_rounds(result):
        return True
    nxt = result.get("next") or {}
    return nxt.get("host_round_games_left") == len(result.get("parties") or ())


def last_round_done(meeting: Meeting, result: dict[str, Any], *, now=None) -> bool:
    """The end time has passed and the round in progress is finished (games with rounds)."""
    return has_rounds(result) and end_time_passed(meeting, now) and round_complete(meeting, result)


# --- a table of a tournament's round ---------------------------------------------------------
# It plays ``Meeting.games_planned`` games (the DDV's Serie: 24 at a table of four, 30 at five;
# a 56 match of a fixed number of games) or ``Meeting.matches_planned`` matches (a robber of
# Maw pairs: the first pair to three games; a 56 match played with tokens), and no more: the
# hand that completes them ends the table, a further one is refused even after an admin
# reopened it to correct a hand, and the table cannot be ended before. A match is finished
# when the replay says so (its ``matches``): nothing here counts games beside it.


def games_done(meeting: Meeting, result: dict[str, Any] | None) -> bool:
    """Whether a table with planned games has played them all (never for other evenings)."""
    planned = meeting.games_planned
    return planned is not None and result is not None and len(result.get("hands") or ()) >= planned


def games_full_message(meeting: Meeting) -> str:
    """Why a table with all its planned games refuses another hand."""
    return _("This table has played its %(games)s games: the round is over here.") % {"games": meeting.games_planned}


def last_match(meeting: Meeting, result: dict[str, Any] | None) -> dict[str, Any] | None:
    """The replay's match that completes a table's planned matches (``{"winner", "hand"}``),
    or None while they are not all played (and for every other evening)."""
    planned = meeting.matches_planned
    matches = (result or {}).get("matches") or ()
    if planned is None or len(matches) < planned:
        return None
    return matches[planned - 1]


def table_done(meeting: Meeting, result: dict[str, Any] | None) -> bool:
    """Whether a tournament's table has played what its round plays: its games or matches."""
    return games_done(meeting, result) or last_match(meeting, result) is not None


def _plays_robbers(meeting: Meeting) -> bool:
    """A table of the Maw family plays robbers; 56 plays matches."""
    return meeting.game != "fifty_six"


def match_won_message(meeting: Meeting, match: dict[str, Any]) -> str:
    """Why a table whose match (a robber) is won refuses another hand, naming the winner."""
    if _plays_robbers(meeting):
        text = _("%(winner)s has won the robber at this table: the round is over here.")
    else:
        text = _("%(winner)s has won the match at this table: the round is over here.")
    return text % {"winner": match["winner"]}


def past_the_end(meeting: Meeting, result: dict[str, Any]) -> str:
    """Why a write that leaves ``result`` (a replay of all the live hands) would put hands
    after a tournament table's last game or after its match: a correction that wins the
    robber earlier, a hand brought back. "" when it does not."""
    count = len(result.get("hands") or ())
    if meeting.games_planned is not None and count > meeting.games_planned:
        return games_full_message(meeting)
    match = last_match(meeting, result)
    if match is None or match["hand"] >= count:
        return ""
    what = {"winner": match["winner"], "hand": match["hand"], "last": count}
    if _plays_robbers(meeting):
        text = _("With this, %(winner)s wins the robber at hand %(hand)s, but the sheet goes on to hand %(last)s.")
    else:
        text = _("With this, %(winner)s wins the match at hand %(hand)s, but the sheet goes on to hand %(last)s.")
    return text % what + " " + _("Delete the hands after it first.")


def evening_over(meeting: Meeting, result: dict[str, Any] | None, *, now=None) -> bool:
    """No further hand: the meeting is closed, a tournament's table has played its games or
    its match, or its last round is done and no admin has reopened it since."""
    if meeting.closed_at is not None or table_done(meeting, result):
        return True
    if result is None or not last_round_done(meeting, result, now=now):
        return False
    return not meeting.reopenings.exists()


def can_close(meeting: Meeting, result: dict[str, Any] | None, *, now=None) -> bool:
    """Whether "End the evening" may be used: open, and at a round's end (Doppelkopf: the last
    seat dealt the round's last game; race games: after any stored hand), whatever the end
    time; a reopened evening also mid-round once its end time has passed. A tournament's
    table: only once it has played its games or its match."""
    if meeting.closed_at is not None or result is None:
        return False
    if meeting.games_planned is not None or meeting.matches_planned is not None:
        return table_done(meeting, result)
    if has_rounds(result):
        if round_complete(meeting, result):
            return True
        # An evening an admin reopened to correct it (it may have been closed mid-round, when
        # the next season started) closes by the button once the end time has passed; asked
        # last, so that an evening in progress costs no query for it.
        return end_time_passed(meeting, now) and bool(result.get("hands")) and meeting.reopenings.exists()
    # Race games: the button closes the evening once a hand is stored.
    return round_complete(meeting, result)


def close_problem(meeting: Meeting, result: dict[str, Any] | None, *, now=None) -> str:
    """Why "End the evening" cannot be used now ("" when it can): the round is not finished,
    or no hand was played."""
    if can_close(meeting, result, now=now):
        return ""
    if meeting.closed_at is not None:
        return _("This evening is closed: its hands can no longer be changed. An admin can reopen it.")
    if meeting.games_planned is not None:
        left = meeting.games_planned - len((result or {}).get("hands") or ())
        return ngettext(
            "This table plays %(games)s games: %(left)s game is left.",
            "This table plays %(games)s games: %(left)s games are left.",
            left,
        ) % {"games": meeting.games_planned, "left": left}
    if meeting.matches_planned is not None:
        return _match_to_play(meeting)
    if result is not None and has_rounds(result) and result.get("hands"):
        return _("The round is not finished yet: the player before the host deals its last game.")
    return _("No hand has been played tonight yet.")


def _match_to_play(meeting: Meeting) -> str:
    """Why a tournament's table that plays a robber or a match cannot be ended yet."""
    if _plays_robbers(meeting):
        games = meeting.rules.get("match_games")
        return _("This table plays a robber: it ends when a pair has won %(games)s games.") % {"games": games}
    return _("This table plays a match: it ends when a team has lost its tokens.")


def mid_round(meeting: Meeting, result: dict[str, Any]) -> bool:
    """Whether ``meeting`` is in the middle of a round: a game with rounds (Doppelkopf), a
    hand stored and the round not finished. Race games have no rounds (a game in progress is
    carried into the next evening by its start totals): never."""
    return has_rounds(result) and bool(result.get("hands")) and not round_complete(meeting, result)


def games_left_in_round(result: dict[str, Any]) -> int:
    """Games until the round in progress is finished (``mid_round``)."""
    return result["next"]["host_round_games_left"]


def mid_round_message(meeting: Meeting, left: int) -> str:
    """Why the bill is not saved while ``meeting`` is ``left`` games short of a round's end."""
    return ngettext(
        "The evening of %(date)s is in the middle of a round (%(left)s game left). "
        "Saving the bill ends the evening: finish the round first.",
        "The evening of %(date)s is in the middle of a round (%(left)s games left). "
        "Saving the bill ends the evening: finish the round first.",
        left,
    ) % {"date": date_format(meeting.date), "left": left}
