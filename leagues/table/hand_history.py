"""Reads for what a page says about a hand's past: who entered or changed it, named as the
league knows him, and the hands deleted from an evening's sheet, each with the number it had
and its game in the players' words.

A member is named by the player he plays as in the league (the name on the sheets); a member
without a player of the league by the name he gave for the sheet, else by his username.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from leagues.models import Hand, Player
from leagues.table.sheet import describe_payload, shown_name


def member_names(*, league) -> dict[int, str]:
    """``{user id: name of the player he plays as}`` in ``league`` (one query)."""
    return dict(Player.objects.filter(league=league, user__isnull=False).values_list("user_id", "name"))


def plays_as(user, league) -> str:
    """How a page names one user (``selectors.shown_name``): one query, kept on the user
    object for the rest of the request."""
    kept = user.__dict__.setdefault("_kartenliga_plays_as", {})
    if league.pk not in kept:
        name = Player.objects.filter(league=league, user=user).values_list("name", flat=True).first()
        kept[league.pk] = shown_name(user, {user.pk: name} if name else {})
    return kept[league.pk]


def former_numbers(*, hand_ids) -> dict[int, int]:
    """``{hand id: the number it had on the sheet last}`` of hands that have been on it (one
    query over their history; a hand discarded from the offline outbox never was)."""
    numbers = {}
    versions = Hand.history.filter(id__in=list(hand_ids), number__isnull=False).order_by("history_date", "history_id")
    for hand_id, number in versions.values_list("id", "number"):
        numbers[hand_id] = number
    return numbers


@dataclass(frozen=True)
class DeletedHand:
    """A deleted hand as the sheet lists it below its rows."""

    pk: int
    version: int
    deleted_at: datetime.datetime
    discarded: bool
    number: int | None  # the number it had on the sheet; None for one that never was on it
    summary: str  # the hand as entered, in the game's words


def deleted_hands(*, hands, module) -> list[DeletedHand]:
    """The deleted ones of a meeting's ``hands`` (``selectors.meeting_hands``), in playing
    order; one query, and none without a deleted hand."""
    deleted = [hand for hand in hands if hand.deleted_at is not None]
    numbers = former_numbers(hand_ids=[hand.pk for hand in deleted]) if deleted else {}
    return [
        DeletedHand(
            pk=hand.pk,
            version=hand.version,
            deleted_at=hand.deleted_at,
            discarded=hand.discarded,
            number=numbers.get(hand.pk),
            summary=" · ".join(str(value) for _label, value in describe_payload(module=module, payload=hand.payload)),
        )
        for hand in deleted
    ]
