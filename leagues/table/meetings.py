"""Writes of an evening as a whole: starting it, ending it, its end time, reopening it."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from leagues.cashbox import open_mark
from leagues.cashbox.rules import money_on
from leagues.clubs.services import resolved_rules
from leagues.exceptions import InvalidInput, MeetingClosed, checked_reason, field_error
from leagues.locks import lock_meeting
from leagues.models import (
    GAME_LABELS,
    League,
    Meeting,
    MeetingReopening,
    Player,
    Season,
    Seat,
)
from leagues.seasons.services import close_previous, current_season, lock_season_if_done
from leagues.table import night_winner
from leagues.table.evening import close_problem
from leagues.table.replay import calculate_meeting, live_hands, replay_of
from scoring.money_rules import resolve_money_rules
from scoring.registry import get_game


def refuse_if_closed(meeting: Meeting) -> None:
    if meeting.imported_totals:  # a hand would replace the totals copied from paper
        raise MeetingClosed(_("This evening was copied from paper as totals: it has no hands to enter or change."))
    if meeting.closed_at is not None:
        # Read afresh: the season read with the meeting's lock may be from before the wait
        # for it (a season closed meanwhile closes its evenings too).
        meeting.season.refresh_from_db(fields=["locked_at"])
        if meeting.season.locked_at is not None:
            raise MeetingClosed(
                _("%(season)s is closed: its hands can no longer be changed. An admin can reopen it.")
                % {"season": meeting.season}
            )
        raise MeetingClosed(_("This evening is closed: its hands can no longer be changed. An admin can reopen it."))


def close_meeting_row(meeting: Meeting, *, user, now=None) -> None:
    meeting.closed_at = now or timezone.now()
    meeting.closed_by = user
    meeting.save(update_fields=["closed_at", "closed_by"])
    open_mark.keep_mark(meeting)  # what the evening leaves to pay
    night_winner.keep_night_winner(meeting)  # the last table of a club night gives it its winner
    # The last evening of a complete season closes the season too. Done after this
    # transaction, in one of its own, so that a writer never holds a meeting's lock while it
    # waits for its season's (lock_season takes the season's, then its meetings').
    season_id, closed_at = meeting.season_id, meeting.closed_at
    transaction.on_commit(lambda: lock_season_if_done(season_id=season_id, user=user, now=closed_at))


@transaction.atomic
def close_meeting(*, meeting: Meeting, user, now=None) -> Meeting:
    """End the evening ("End the evening"): refused while a round is still to be played."""
    meeting = lock_meeting(meeting.pk)
    if meeting.closed_at is not None:
        return meeting
    result = replay_of(meeting, live_hands(meeting))
    problem = close_problem(meeting, result, now=now)
    if problem:
        raise MeetingClosed(problem)
    close_meeting_row(meeting, user=user, now=now)
    return meeting


@transaction.atomic
def set_end_time(*, meeting: Meeting, end_time: datetime.time | None) -> Meeting:
    """Set, change or clear (None) the end time of an open evening. One that has passed with
    the round complete makes the evening over (no further hand; "End the evening" closes it);
    one in the future, or none, lets it go on. Refused once the evening is closed."""
    meeting = lock_meeting(meeting.pk)
    if meeting.closed_at is not None:
        raise MeetingClosed(_("This evening is closed: its end time can no longer be changed. An admin can reopen it."))
    if meeting.imported_totals:
        raise MeetingClosed(_("This evening was copied from paper as totals: it has no end time to change."))
    meeting.end_time = end_time
    meeting.save(update_fields=["end_time"])
    return meeting


@transaction.atomic
def reopen_meeting(*, meeting: Meeting, user, reason: str, now=None) -> MeetingReopening:
    """An admin reopens a closed meeting; the reason, who and when are kept (the history page
    shows them). Later meetings are replayed after each change, as always."""
    meeting = lock_meeting(meeting.pk)
    reason = checked_reason(reason, required=_("Say why the evening is reopened."))
    if meeting.closed_at is None:
        raise field_error("meeting", _("This evening is not closed."))
    if Season.objects.filter(pk=meeting.season_id, locked_at__isnull=False).exists():
        raise field_error(
            "meeting",
            _("%(season)s is closed: an admin reopens the season first.") % {"season": meeting.season},
        )
    reopening = MeetingReopening.objects.create(
        meeting=meeting,
        reason=reason,
        reopened_by=user,
        reopened_at=now or timezone.now(),
        was_closed_at=meeting.closed_at,
        was_closed_by=meeting.closed_by,
        was_closed_by_name=meeting.closed_by_name,  # who closed it, in an imported league
    )
    meeting.closed_at = None
    meeting.closed_by = None
    meeting.closed_by_name = None
    meeting.money_open = True  # its money is worked out again when it closes
    meeting.save(update_fields=["closed_at", "closed_by", "closed_by_name", "money_open"])
    night_winner.keep_night_winner(meeting)  # a club night with a table open has no winner
    return reopening


# --- seasons and meetings -------------------------------------------------------------------


# ``start_meeting``'s default: the meeting follows the league's current season.
CURRENT_SEASON = object()


# The dates a meeting can have: a club may copy old paper sheets in, back to 1900, and plan
# its evenings up to a year ahead. Past these a date is a typing mistake (a year 9999 also
# broke the meeting page: its end time "after midnight" is a day past the last date).
EARLIEST_MEETING = datetime.date(1900, 1, 1)
MEETING_DAYS_AHEAD = 366


def meeting_date_problem(date) -> str | None:
    """Why ``date`` cannot be a meeting's date, or None (translated, for the date field)."""
    latest = timezone.localdate() + datetime.timedelta(days=MEETING_DAYS_AHEAD)
    if date < EARLIEST_MEETING:
        return _("A meeting cannot be dated before %(date)s.") % {"date": date_format(EARLIEST_MEETING)}
    if date > latest:
        return _("A meeting can be dated at most a year ahead (until %(date)s).") % {"date": date_format(latest)}
    return None


def money_in_force(league: League) -> dict | None:
    """The league's money rules resolved, to copy into a meeting; None when they play for nothing."""
    rules = resolve_money_rules(league.money_rules or {})
    return rules if money_on(rules) else None


@transaction.atomic
def start_meeting(
    *,
    league: League,
    date,
    players: list[Player],
    end_time=None,
    pennant_holder: Player | None = None,
    pennant_forgotten: bool = False,
    teams: dict | None = None,
    start_totals: dict | None = None,
    user=None,
    after: Season | None | object = CURRENT_SEASON,
) -> Meeting:
    """Open a meeting; ``players`` in seat order, the host first.

    The rules are copied from the league now. When the current season is complete the
    meeting opens the next one. ``after``: the season it follows where that is not the
    league's current one (a paper season imported in front of the league's evenings,
    leagues/exchange/paper_import.py: None before its first season).
    """
    league, season = season_to_start(league=league, date=date, user=user, after=after)
    errors = table_problems(league, players)
    if errors:
        raise InvalidInput(errors)
    meeting = new_meeting(
        league=league,
        season=season,
        date=date,
        host=players[0],
        players=players,
        user=user,
        end_time=end_time,
        pennant_holder=pennant_holder,
        pennant_forgotten=pennant_forgotten,
        teams=teams,
        start_totals=start_totals,
    )
    close_season_if_hosted(season, date=date)
    return meeting


def season_to_start(*, league: League, date, user, after=CURRENT_SEASON) -> tuple[League, Season]:
    """The league, locked, and the season an evening of ``date`` opens in: the current one,
    or the next when the current one is complete (which then closes)."""
    problem = meeting_date_problem(date)
    if problem:
        raise field_error("date", problem)
    league = League.objects.select_for_update().get(pk=league.pk)
    season = current_season(league) if after is CURRENT_SEASON else after
    if season is None:
        season = Season.objects.create(league=league, number=1, started_on=date)
    elif season.closed_on is not None or season.everyone_hosted():
        previous = season
        season = Season.objects.create(league=league, number=season.number + 1, started_on=date)
        close_previous(previous, user=user)
    return league, season


def new_meeting(
    *, league: League, season: Season, date, host: Player, players: list[Player], user, **fields
) -> Meeting:
    """A meeting with the league's rules copied and ``players`` seated in order, checked the
    way a replay will see it (teams, start totals). ``fields``: the rest of the meeting's
    fields (end time, pennant, teams, start totals, its club night and table number)."""
    meeting = Meeting.objects.create(
        league=league,
        season=season,
        date=date,
        host=host,
        game=league.game,
        variant=league.variant,
        rules=resolved_rules(game=league.game, variant=league.variant, overrides=league.rule_overrides),
        money_rules=money_in_force(league),
        created_by=user,
        **fields,
    )
    Seat.objects.bulk_create(Seat(meeting=meeting, player=p, position=i) for i, p in enumerate(players))
    calculate_meeting(meeting, payloads=[])
    return meeting


def close_season_if_hosted(season: Season, *, date) -> None:
    """The last host of the season has hosted: the season closes with this evening, and its
    bill can be split; the next evening opens the next season."""
    if season.everyone_hosted():
        season.closed_on = date
        season.save(update_fields=["closed_on"])


def table_problems(league: League, players: list[Player]) -> list[dict[str, Any]]:
    """What is wrong with ``players`` as a table of the league's game (none: an empty list)."""
    spec = get_game(league.game)
    errors = []
    if not spec.min_players <= len(players) <= spec.max_players:
        errors.append(
            {
                "hand": None,
                "field": "players",
                "message": _("%(game)s needs %(min)s to %(max)s players at the table.")
                % {"game": GAME_LABELS.get(spec.key, spec.key), "min": spec.min_players, "max": spec.max_players},
            }
        )
    if len({p.pk for p in players}) != len(players) or any(p.league_id != league.pk for p in players):
        errors.append({"hand": None, "field": "players", "message": _("Each player can sit at one seat only.")})
    return errors
