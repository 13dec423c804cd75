"""What the bill page reads besides the split (views/bill.py): the evenings that saving the
bill closes, each with its state, and who saved or reopened what, as the league knows him."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues import exceptions
from leagues.models import League, Meeting, MeetingReopening, Season
from leagues.table import evening, hand_history, replay


@dataclass(frozen=True)
class OpenEvening:
    """An evening still open that saving the bill closes."""

    meeting: Meeting
    hands: int
    rounds: bool  # the game plays in rounds (Doppelkopf)
    mid_round: bool  # a round begun and not finished (services.mid_round): saving waits
    games_left: int | None  # in that round
    reopened: bool  # an admin reopened it to correct it

    @property
    def state(self) -> str:
        """Its state in words: "4 hands, the round is finished"."""
        if not self.hands:
            return _("no hand yet")
        parts = [ngettext("%(count)s hand", "%(count)s hands", self.hands) % {"count": self.hands}]
        if self.reopened:
            parts.append(_("reopened for a correction"))
        elif self.mid_round:
            left = self.games_left
            parts.append(
                ngettext("%(count)s game left in the round", "%(count)s games left in the round", left)
                % {"count": left}
            )
        elif self.rounds:
            parts.append(_("the round is finished"))
        return ", ".join(parts)

    @property
    def problem(self) -> str | None:
        """Why the bill is not saved yet because of this evening, or None."""
        return evening.mid_round_message(self.meeting, self.games_left) if self.mid_round else None


def open_evenings(season: Season) -> list[OpenEvening]:
    """The evenings of ``season`` still open, in playing order, with their state (none once
    the season is closed: closing it closed them)."""
    if season.locked:
        return []
    meetings = list(season.meetings.filter(closed_at=None).select_related("host").order_by("date", "id"))
    reopened = set(MeetingReopening.objects.filter(meeting__in=meetings).values_list("meeting_id", flat=True))
    evenings = []
    for meeting in meetings:
        try:
            result = replay.calculate_meeting(meeting)
        except exceptions.InvalidInput:  # a sheet that no longer adds up has no round to finish
            result = {"hands": [], "next": {}}
        mid = evening.mid_round(meeting, result) and meeting.pk not in reopened
        evenings.append(
            OpenEvening(
                meeting=meeting,
                hands=len(result["hands"]),
                rounds=evening.has_rounds(result),
                mid_round=mid,
                games_left=evening.games_left_in_round(result) if mid else None,
                reopened=meeting.pk in reopened,
            )
        )
    return evenings


def known_as(league: League, user, kept: str | None = None) -> str:
    """Who did something, as the league knows him (hand_history.plays_as: his player's name,
    else the name he gave, else his login name); without an account, the name an import
    kept; "?" when nobody is known."""
    if user is None:
        return kept or "?"
    return hand_history.plays_as(user, league)
