"""Reads for what a page says about a hand's past: who entered or changed it, named as the
league knows him, and the hands deleted from an evening's sheet, each with the number it had
and its game in the players' words.

A member is named by the player he plays as in the league (the name on the sheets); a member
without a player of the league by the name he gave for the sheet, else by his username.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import OuterRef, Subquery

from leagues.models import Hand, Player
from leagues.table.hand_entry import form_module
from leagues.table.selectors import meeting_history
from leagues.table.sheet import describe_payload, history_entries, shown_name


def known_names(*, league, user_ids) -> dict[int, str]:
    """``{user id: how the league names him}`` (``sheet.shown_name``) of ``user_ids``: the
    users with the player each plays as in the league, in one query."""
    plays_as = Player.objects.filter(league=league, user=OuterRef("pk")).values("name")[:1]
    users = get_user_model().objects.filter(pk__in=user_ids).annotate(plays_as=Subquery(plays_as))
    return {user.pk: shown_name(user, {user.pk: user.plays_as} if user.plays_as else {}) for user in users}


def evening_history(*, meeting) -> list[dict]:
    """Who changed what on ``meeting``'s sheet and when, newest first
    (``sheet.history_entries``), in three queries: the live hands' numbers, every version
    of the evening's hands, and who saved them."""
    live = meeting.hands.live().values_list("pk", flat=True)
    records = meeting_history(meeting=meeting)
    return history_entries(
        records=records,
        live_numbers={pk: number for number, pk in enumerate(live, start=1)},
        module=form_module(meeting.game),
        names=known_names(league=meeting.league, user_ids={r.history_user_id for r in records if r.history_user_id}),
    )


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
