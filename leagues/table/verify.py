"""Checks the kept results against a fresh replay of every evening, and mends them on request."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db import transaction

from leagues.exceptions import InvalidInput
from leagues.locks import lock_meeting
from leagues.models import (
    Hand,
    HandResult,
    League,
    Meeting,
    MeetingCarry,
    MeetingResult,
    Seat,
)
from leagues.table.replay import (
    calculate_meeting,
    carries_rounds,
    hands_digest,
    live_hands,
    outgoing_queue,
    seated_players,
)
from leagues.table.results import (
    RESULT_FIGURES,
    meeting_figures,
    meeting_result_rows,
    result_rows,
    write_results,
)
from leagues.table.verify_nights import NightFigures, check_nights

# --- checking the cached results ------------------------------------------------------------


@dataclasses.dataclass
class ReplayProblem:
    """A meeting whose cached results are not what a fresh replay gives."""

    meeting: Meeting
    # "differs", "broken" (no longer replays), "numbers" (sheet numbers wrong), "error" (the
    # check itself raised: a row that does not read, a rebuild the database refused)
    kind: str
    detail: str

    def __str__(self):
        # A meeting whose row did not read has no date: it is named by its id.
        date = f" ({self.meeting.date})" if self.meeting.date else ""
        return f"{self.meeting.league.slug} meeting {self.meeting.pk}{date}: {self.kind}: {self.detail}"


def _number_problem(hands: list[Hand]) -> str | None:
    """Whether every live hand carries its number on the sheet (1, 2, ... by position)."""
    for expected, hand in enumerate(hands, 1):
        if hand.number != expected:
            return f"hand id {hand.pk} at position {hand.position} has number {hand.number}, expected {expected}"
    return None


def _result_difference(meeting: Meeting, hands: list[Hand], result: dict[str, Any]) -> str | None:
    """How the cached HandResult rows of ``meeting`` differ from ``result``, or None."""
    names = {p.pk: p.name for p in seated_players(meeting)}
    fresh = {
        (r.hand_id, r.player_id): {f: getattr(r, f) for f in RESULT_FIGURES}
        for r in result_rows(meeting, hands, result)
    }
    stored = {
        (row["hand_id"], row["player_id"]): {f: row[f] for f in RESULT_FIGURES}
        for row in HandResult.objects.filter(meeting=meeting).values("hand_id", "player_id", *RESULT_FIGURES)
    }

    def where(key):
        hand_id, player_id = key
        return f"hand id {hand_id}, {names.get(player_id, f'player {player_id}')}"

    return _summary(_differences(stored, fresh, where, row="row"))


def _cache_difference(
    meeting: Meeting, hands: list[Hand], result: dict[str, Any], carried: tuple[str, ...]
) -> str | None:
    """How ``meeting``'s MeetingResult rows and MeetingCarry differ from ``result``, or None.
    A meeting without a MeetingCarry yet is fine (carried_rounds_for fills it when needed)."""
    names = {p.pk: p.name for p in seated_players(meeting)}
    figures = meeting_figures(meeting)  # a table of a club night: the night has the winner (_check_nights)
    fresh = {r.player_id: {f: getattr(r, f) for f in figures} for r in fresh_meeting_rows(meeting, hands, result)}
    stored = {
        row["player_id"]: {f: row[f] for f in figures}
        for row in MeetingResult.objects.filter(meeting=meeting).values("player_id", *figures)
    }
    if meeting.imported_totals:  # its rows are the totals copied from paper: nothing to sum
        fresh = stored

    def where(player_id):
        return names.get(player_id, f"player {player_id}")

    problems = _differences(stored, fresh, where, row="meeting result", figure="meeting ")
    return _summary(problems + _carry_differences(meeting, hands, result, carried))


def fresh_meeting_rows(meeting: Meeting, hands: list[Hand], result: dict[str, Any]) -> list[MeetingResult]:
    """The MeetingResult rows (unsaved) a replay of ``meeting``'s live ``hands`` gives."""
    seat_order = dict(Seat.objects.filter(meeting=meeting).values_list("player_id", "position"))
    return meeting_result_rows(meeting, result_rows(meeting, hands, result), seat_order=seat_order)


def _carry_differences(
    meeting: Meeting, hands: list[Hand], result: dict[str, Any], carried: tuple[str, ...]
) -> list[str]:
    """How ``meeting``'s MeetingCarry differs from the rounds carried in and handed on."""
    carry = MeetingCarry.objects.filter(meeting=meeting).first()
    if carry is None:
        return []
    expected = {
        "carried_in": list(carried),
        "queue_after": list(outgoing_queue(result)),
        "hands_digest": hands_digest([h.payload for h in hands]),
    }
    return [
        f"carried rounds: {field} cached {getattr(carry, field)!r}, replayed {value!r}"
        for field, value in expected.items()
        if getattr(carry, field) != value
    ]


def _differences(stored: dict, fresh: dict, where, *, row: str, figure: str = "") -> list[str]:
    """A line for each cached row the replay lacks, each replayed row not cached and each
    figure that differs; ``where(key)`` names the row in the players' terms."""
    problems = []
    for key in sorted(set(fresh) | set(stored)):
        cached, replayed = stored.get(key), fresh.get(key)
        if cached is None:
            problems.append(f"{where(key)}: no cached {row}")
        elif replayed is None:
            problems.append(f"{where(key)}: a cached {row} the replay does not have")
        else:
            problems += [
                f"{where(key)}: {figure}{field} cached {value!r}, replayed {replayed[field]!r}"
                for field, value in cached.items()
                if value != replayed[field]
            ]
    return problems


def _summary(problems: list[str]) -> str | None:
    """The first difference and how many more there are, or None when there is none."""
    if not problems:
        return None
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return problems[0] + more


def verify_replays(*, league: League | None = None, rebuild: bool = False) -> tuple[int, list[ReplayProblem]]:
    """Replay every meeting (of ``league``, or of all leagues) in playing order and compare
    with the cached results (HandResult, MeetingResult, MeetingCarry); returns (meetings
    checked, problems). Writes nothing, unless ``rebuild``: then each meeting whose caches
    differ gets them rewritten from the replay (through ``write_results``, their only
    writer), and is still reported.

    Special rounds carried from one evening to the next (``carry_special_rounds``) are handed
    along the chain as ``carried_rounds_for`` does; an evening after one that no longer
    replays cannot be checked when it carries, and is reported as such.

    One bad row never stops the check: a meeting whose row does not read, that the engine
    cannot take or whose rebuild the database refuses is reported as an "error" with what
    was raised, and the others are checked all the same. Each meeting is checked in a
    transaction of its own, so that a database error in one (PostgreSQL then refuses every
    further statement of the transaction) spoils no other."""
    if league is not None:
        leagues = [(league.pk, league.slug)]
    else:  # by id and short name only: a league row that does not read spoils none of its meetings
        leagues = list(League.objects.order_by("slug").values_list("pk", "slug"))
    checked, problems = 0, []
    for league_id, slug in leagues:
        meeting_ids = Meeting.objects.filter(league_id=league_id).order_by("date", "id").values_list("pk", flat=True)
        queue: tuple[str, ...] | None = ()
        nights = NightFigures()
        for meeting_id in list(meeting_ids):
            checked += 1
            try:
                with transaction.atomic():
                    queue = _verify_meeting(meeting_id, queue, problems, rebuild=rebuild, nights=nights)
            # Whatever one meeting raises (a row that does not read, rules of the wrong shape,
            # a write the database refuses) is that meeting's problem, not the whole check's.
            except Exception as error:  # noqa: BLE001
                stand_in = Meeting(pk=meeting_id, league=League(pk=league_id, slug=slug), date=None)
                problems.append(ReplayProblem(stand_in, "error", _error_line(error)))
                queue = None
        for meeting, kind, detail in check_nights(nights, rebuild=rebuild, error_line=_error_line):
            problems.append(ReplayProblem(meeting or Meeting(league=League(pk=league_id, slug=slug)), kind, detail))
    return checked, problems


def _error_line(error: Exception) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"[:500]


def _verify_meeting(
    meeting_id: int,
    queue: tuple[str, ...] | None,
    problems: list[ReplayProblem],
    *,
    rebuild: bool,
    nights: NightFigures,
) -> tuple[str, ...] | None:
    """Check (and with ``rebuild`` mend) one meeting given the rounds carried into it;
    returns the rounds it hands on (None when it no longer replays). A table of a club night
    leaves its replayed figures in ``nights`` (none when it no longer replays)."""
    meeting = Meeting.objects.select_related("league", "season").get(pk=meeting_id)
    carries = carries_rounds(meeting)
    if carries and queue is None:
        problems.append(ReplayProblem(meeting, "broken", "the evening before it no longer replays"))
        return None
    hands = live_hands(meeting)
    given = queue if carries else ()
    try:
        result = calculate_meeting(meeting, payloads=[h.payload for h in hands], carried=given)
    except InvalidInput as error:
        problems.append(ReplayProblem(meeting, "broken", "; ".join(e["message"] for e in error.errors)))
        return None
    numbers = _number_problem(hands)
    if numbers:
        problems.append(ReplayProblem(meeting, "numbers", numbers))
    _check_caches(meeting, hands, result, given, problems, rebuild=rebuild)
    if meeting.club_night_id is not None:
        nights.add(meeting, fresh_meeting_rows(meeting, hands, result))
    return outgoing_queue(result)


def _check_caches(
    meeting: Meeting,
    hands: list[Hand],
    result: dict[str, Any],
    given: tuple[str, ...],
    problems: list[ReplayProblem],
    *,
    rebuild: bool,
) -> None:
    """Report where ``meeting``'s cached results differ from its replay, and with
    ``rebuild`` rewrite them from it."""
    difference = _result_difference(meeting, hands, result) or _cache_difference(meeting, hands, result, given)
    if not difference:
        return
    if rebuild:
        with transaction.atomic():
            lock_meeting(meeting.pk)
            write_results(meeting, hands, result, carried=given)
    problems.append(ReplayProblem(meeting, "differs", difference))
