"""The league domain: leagues, players, roles, invites, seasons, meetings and hands.

A hand is stored exactly as entered (its JSON payload). Everything derived from hands
(points, totals, dealers, special rounds) comes from replaying the meeting through
``scoring/``; ``HandResult`` caches that replay for fast standings and is only ever written
by ``leagues.table.results.replay_meeting``.
"""

from .accounts import ApiToken, RateCount
from .league import (
    GAME_LABELS,
    ROLE_RANK,
    Combine,
    Invite,
    League,
    Membership,
    Player,
    Role,
    invite_expiry,
    new_token,
)
from .meeting import Hand, Meeting, MeetingReopening, Seat
from .money import MONEY_IN, MONEY_OUT, BankAccount, CashboxEntry, CashCount, EntryKind, PaidHow, Payment
from .night import ClubNight
from .results import DerivedFigure, HandResult, MeetingCarry, MeetingResult
from .scorer import ScorerLink
from .season import Season, SeasonBill, SeasonReopening, everyone_hosted
from .tournament import Tournament, TournamentParty, TournamentPlayer

__all__ = [
    "GAME_LABELS",
    "ROLE_RANK",
    "MONEY_IN",
    "MONEY_OUT",
    "ApiToken",
    "BankAccount",
    "CashCount",
    "CashboxEntry",
    "ClubNight",
    "Combine",
    "DerivedFigure",
    "EntryKind",
    "Hand",
    "HandResult",
    "Invite",
    "League",
    "Meeting",
    "MeetingCarry",
    "MeetingReopening",
    "MeetingResult",
    "PaidHow",
    "Payment",
    "Membership",
    "Player",
    "RateCount",
    "Role",
    "ScorerLink",
    "Season",
    "SeasonBill",
    "SeasonReopening",
    "Seat",
    "Tournament",
    "TournamentParty",
    "TournamentPlayer",
    "everyone_hosted",
    "invite_expiry",
    "new_token",
]
