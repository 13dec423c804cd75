"""Writes of a season: closing and reopening it, and storing its bill."""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from leagues.cashbox.services import pay_bill_share
from leagues.exceptions import InvalidInput, MidRound, SplitChanged, checked_reason, field_error, problems_as_errors
from leagues.locks import lock_league, lock_meeting, lock_season_row
from leagues.models import (
    League,
    Meeting,
    Membership,
    Role,
    Season,
    SeasonBill,
    SeasonReopening,
)
from leagues.models.season import kept_score
from leagues.seasons import selectors
from leagues.table.evening import games_left_in_round, mid_round, mid_round_message
from leagues.table.night_winner import keep_night_winners
from leagues.table.replay import live_hands, replay_of
from scoring.bill import split_bill
from scoring.errors import Problems, ScoringError


def _lock_season(season: Season, *, user, now) -> None:
    season.locked_at = now
    season.locked_by = user
    season.save(update_fields=["locked_at", "locked_by"])
    # Only the evenings still open are written: a closed one keeps who closed it and when.
    still_open = Meeting.objects.filter(season=season, closed_at=None)
    nights = list(still_open.exclude(club_night=None).order_by().values_list("club_night_id", flat=True).distinct())
    still_open.update(closed_at=now, closed_by=user)
    keep_night_winners(night_ids=nights)  # a club night closed with them has its winner now


@transaction.atomic
def close_season(*, season: Season, user, now=None) -> Season:
    """Close a complete season now (an admin's "Close the season"), with its open evenings."""
    season = lock_season_row(season.pk)
    if season.locked_at is not None:
        return season
    if season.closed_on is None:
        raise field_error("season", _("This season is still running: it ends when everyone has hosted."))
    _lock_season(season, user=user, now=now or timezone.now())
    return season


@transaction.atomic
def lock_season_if_done(*, season_id: int, user, now=None) -> bool:
    """Close the season when it is complete and every evening of it is closed (the last
    evening just ended). An admin's reopening keeps it open until its evenings are closed
    again. Returns whether it closed the season now."""
    season = lock_season_row(season_id)
    if season.locked_at is not None or season.closed_on is None:
        return False
    if season.meetings.filter(closed_at=None).exists():
        return False
    _lock_season(season, user=user, now=now or timezone.now())
    return True


@transaction.atomic
def reopen_season(*, season: Season, user, reason: str, now=None) -> SeasonReopening:
    """An admin reopens a closed season, saying why; its evenings stay closed until reopened
    one by one. Its stored bill stays what was paid: the bill page shows it beside the split
    by the new standings."""
    season = lock_season_row(season.pk)
    reason = checked_reason(reason, required=_("Say why the season is reopened."))
    if season.locked_at is None:
        raise field_error("season", _("This season is not closed."))
    reopening = SeasonReopening.objects.create(
        season=season,
        reason=reason,
        reopened_by=user,
        reopened_at=now or timezone.now(),
        was_locked_at=season.locked_at,
    )
    season.locked_at = None
    season.locked_by = None
    season.locked_by_name = None
    season.save(update_fields=["locked_at", "locked_by", "locked_by_name"])
    return reopening


def _decimal_or_none(value):
    return None if value is None else Decimal(str(value))


def split_season_bill(*, request: dict[str, Any]) -> dict[str, Any]:
    """split_bill's answer for a season's bill. With ``from_cashbox`` (an amount, as "25.00")
    the league's cashbox pays that much of the total with tip and the rest is split as
    without it (who paid, ``paid_by`` or ``paid``, paid the rest): the answer's ``total`` is
    the total with tip, its shares and transfers add up to ``rest``. Raises ScoringError,
    a share above the total with tip on the field ``from_cashbox``."""
    share = Decimal(str(request.get("from_cashbox") or 0))
    plain = {key: value for key, value in request.items() if key != "from_cashbox"}
    if not share:
        return split_bill(plain, exact_scores=True)
    whole = split_bill(
        {key: value for key, value in plain.items() if key not in ("paid", "paid_by")}, exact_scores=True
    )
    total = Decimal(whole["total"])
    if not 0 <= share <= total:
        problems = Problems()
        message = gettext_noop("The cashbox can pay from 0 to the total with tip, %(total)s.")
        problems.add(None, "from_cashbox", message, total=whole["total"])
        problems.raise_if_any()
    rest = {key: value for key, value in plain.items() if key != "tip_percent"}
    result = split_bill({**rest, "total": f"{total - share:.2f}"}, exact_scores=True)
    return {**result, "total": whole["total"], "rest": result["total"], "from_cashbox": f"{share:.2f}"}


def bill_digest(scores: dict, result: dict[str, Any]) -> str:
    """A short digest of what a split shows: the standings it is split by, in order (a score
    an int or an exact Fraction, written as the bill keeps it), and
    split_bill's answer (the total, the rate, the shares, who pays whom). The bill page sends
    it back with "Save", so that what is stored is the split that was shown."""
    shown = {
        "scores": [[name, kept_score(score)] for name, score in scores.items()],
        "total": result["total"],
        "rate": result.get("rate"),
        "shares": result["shares"],
        "transfers": result.get("transfers") or [],
        "from_cashbox": result.get("from_cashbox"),
    }
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:24]


def _refuse_mid_round(season: Season) -> None:
    """MidRound when an open evening of ``season`` is in the middle of a round (taken in the
    lock order: the season's is held, then each meeting's). An evening an admin reopened to
    correct is not being played: it is no obstacle."""
    problems = []
    for meeting_id in season.meetings.filter(closed_at=None).order_by("date", "id").values_list("pk", flat=True):
        meeting = lock_meeting(meeting_id)
        try:
            result = replay_of(meeting, live_hands(meeting))
        except InvalidInput:
            continue  # a sheet that no longer adds up has no round to finish
        if mid_round(meeting, result) and not meeting.reopenings.exists():
            message = mid_round_message(meeting, games_left_in_round(result))
            problems.append({"hand": None, "field": "season", "message": message})
    if problems:
        raise MidRound(problems)


@transaction.atomic
def settle_bill(*, season: Season, bill: dict[str, Any], user, now=None, seen: str | None = None) -> SeasonBill:
    """Store the season's bill and close the season (with any evening still open).

    ``bill`` is a split_season_bill request without its scores (calculate-api.md: total,
    method, cents_per_point, tip_percent, paid_by or paid; and from_cashbox); the scores
    are the season's standings, read here under the locks of the season and its open
    evenings. ``seen``: the
    ``bill_digest`` of the split the page showed; SplitChanged when this split is another
    (None: not asked). MidRound while an open evening is in the middle of a round. A bill
    stored before is kept, marked replaced. The cashbox's share goes out of the league's
    cashbox in the same transaction (the league's lock is taken first for it).
    """
    lock_league(season.league)
    season = lock_season_row(season.pk)
    if Decimal(str(bill.get("from_cashbox") or 0)) and not _keeps_the_money(user, season.league):
        raise PermissionDenied(_("From the cashbox: only an admin takes money out of the cashbox."))
    if season.closed_on is None:
        raise field_error("season", _("This season is still running: its bill is split when everyone has hosted."))
    if season.locked_at is None:
        # Its open evenings are locked (and refused mid-round) before the standings are read:
        # a hand written meanwhile is in them, and none can be written until the bill is stored.
        _refuse_mid_round(season)
    scores = selectors.season_scores(season=season)
    try:
        result = split_season_bill(request={**bill, "scores": scores})
    except ScoringError as error:
        raise InvalidInput(problems_as_errors(error)) from error
    if seen is not None and seen != bill_digest(scores, result):
        raise SplitChanged([{"hand": None, "field": "seen", "message": _("This is not the split that was shown.")}])
    return _store_bill(season, bill, result, scores, user=user, now=now or timezone.now())


def _keeps_the_money(user, league: League) -> bool:
    """Whether ``user`` may take money out of ``league``'s cashbox: an admin of it, or the
    system itself (an import, the demo: no user)."""
    if user is None:
        return True
    membership = Membership.objects.filter(league=league, user=user).first()
    return membership is not None and membership.allows(Role.ADMIN)


def _store_bill(season: Season, bill: dict[str, Any], result, scores, *, user, now) -> SeasonBill:
    players = {p.name: p for p in season.league.players.all()}
    # Who paid what; those who paid nothing are left out.
    paid = {name: amount for name, amount in (bill.get("paid") or {}).items() if Decimal(amount)} or None
    if bill.get("paid_by"):
        paid = {bill["paid_by"]: result.get("rest", result["total"])}  # the cashbox paid its share
    season.bills.current().update(replaced_at=now)
    stored = SeasonBill.objects.create(
        season=season,
        total=Decimal(bill["total"]),
        tip_percent=_decimal_or_none(bill.get("tip_percent")),
        method=bill.get("method") or "per_point",
        cents_per_point=_decimal_or_none(bill.get("cents_per_point")),
        paid_by=players.get(bill.get("paid_by")),
        paid=paid,
        total_with_tip=Decimal(result["total"]),
        from_cashbox=Decimal(result.get("from_cashbox") or 0),
        rate=_decimal_or_none(result.get("rate")),
        shares=result["shares"],
        transfers=result.get("transfers") or [],
        scores=[[name, kept_score(score)] for name, score in scores.items()],
        chooser=players.get(result["chooses_restaurant"]),
        settled_by=user,
        settled_at=now,
    )
    pay_bill_share(bill=stored, user=user, now=now)
    if season.locked_at is None:
        _lock_season(season, user=user, now=now)
    return stored


def stored_bill_request(bill: SeasonBill) -> dict[str, Any]:
    """The split_season_bill request of a stored bill without its scores: to split it again by
    today's standings (the bill page after a reopening)."""
    request: dict[str, Any] = {"total": f"{bill.total:.2f}", "method": bill.method}
    if bill.tip_percent:
        request["tip_percent"] = str(bill.tip_percent)
    if bill.cents_per_point is not None and bill.method == "per_point":
        request["cents_per_point"] = str(bill.cents_per_point)
    if bill.paid_by is not None:
        request["paid_by"] = bill.paid_by.name
    elif bill.paid:
        request["paid"] = dict(bill.paid)
    if bill.from_cashbox:
        request["from_cashbox"] = f"{bill.from_cashbox:.2f}"
    return request


def current_season(league: League) -> Season | None:
    return league.seasons.order_by("-number").first()


def close_followed_season(*, season: Season, user) -> None:
    """``season`` is followed by another already (the league's, after a paper season imported
    in front of it): closed as when the next season starts."""
    close_previous(season, user=user)


def close_previous(season: Season, *, user) -> None:
    """The next season has started: the one before it is closed now, its last evening too
    (a race game's evening ends by a button a club may never have pressed)."""
    season = lock_season_row(season.pk)
    if season.closed_on is None:
        last = season.meetings.order_by("-date").values_list("date", flat=True).first()
        season.closed_on = last or season.started_on
        season.save(update_fields=["closed_on"])
    if season.locked_at is None:
        _lock_season(season, user=user, now=timezone.now())
