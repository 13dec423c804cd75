"""An evening replayed through scoring/: the request it is replayed from, and the special rounds
an earlier evening carried into it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

import orjson
from django.db.models import Q
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from leagues.exceptions import InvalidInput, field_error, problems_as_errors
from leagues.models import (
    Hand,
    Meeting,
    MeetingCarry,
    Player,
)
from leagues.table.selectors import seats_of
from scoring.errors import ScoringError
from scoring.registry import COMPULSORY_SOLOS, get_game
from scoring.sitting import parse_request

# --- replay ---------------------------------------------------------------------------------


def seated_players(meeting: Meeting) -> list[Player]:
    return [seat.player for seat in meeting.seats.in_order()]


def compulsory_solos_for(
    meeting: Meeting, players: list[Player], *, forgotten: dict[int, list[str]] | None = None
) -> list[str]:
    """Penalty soli (the pennant): owed by whoever forgot it in the previous season, played
    at the start of the first meeting of the next season, in the order they arose.

    A player who is not at that meeting cannot play his; it is dropped (the spec leaves this
    open, and a scorekeeper would not carry a penalty into a season it does not belong to).
    ``forgotten``: the league's ``forgotten_pennants``, when a writer of many meetings read
    them once.
    """
    if COMPULSORY_SOLOS not in get_game(meeting.game).extra_fields:
        return []  # only a game with penalty soli (Doppelkopf) knows the pennant
    # A write's meeting was read with it (``_lock``: Meeting.objects.with_season_start()).
    # Asked before the season's number, so that a page runs as many queries in the first
    # season as in the twentieth (tests/test_query_counts.py).
    opens = getattr(meeting, "opens_season", None)
    if opens is None:  # the season's first evening, every table of a club night that is
        first = meeting.season.meetings.order_by("date", "id").values_list("id", "club_night_id").first()
        opens = first is not None and (
            first[0] == meeting.id or (first[1] is not None and first[1] == meeting.club_night_id)
        )
    if not opens or meeting.season.number <= 1:
        return []
    if forgotten is None:
        forgotten = forgotten_pennants(league_id=meeting.league_id, season_number=meeting.season.number - 1)
    present = {p.name for p in players}
    return [name for name in forgotten.get(meeting.season.number - 1, ()) if name in present]


def forgotten_pennants(*, league_id: int, season_number: int | None = None) -> dict[int, list[str]]:
    """{season number: the holders who forgot the pennant in it, in playing order} of a
    league (of its season ``season_number`` alone, when given): one query."""
    meetings = Meeting.objects.filter(league=league_id, pennant_forgotten=True).exclude(pennant_holder=None)
    if season_number is not None:
        meetings = meetings.filter(season__number=season_number)
    forgotten: dict[int, list[str]] = {}
    for number, name in meetings.order_by("date", "id").values_list("season__number", "pennant_holder__name"):
        forgotten.setdefault(number, []).append(name)
    return forgotten


def meeting_request(
    meeting: Meeting,
    *,
    payloads: list[Any] | None = None,
    rules: tuple[str, dict] | None = None,
    players: list[Player] | None = None,
    forgotten: dict[int, list[str]] | None = None,
) -> dict[str, Any]:
    """The calculate request that replays ``meeting`` (or it with other ``payloads``, or
    under other ``rules``: (variant, full rule set), for "what if"). ``players``: its seated
    players, when the caller read them already; ``forgotten``: ``forgotten_pennants``, likewise."""
    if players is None:
        players = seats_of(meeting)  # as values: the names are all a replay reads of them
    if payloads is None:
        payloads = list(meeting.hands.live().values_list("payload", flat=True))
    variant, rule_set = rules or (meeting.variant, meeting.rules)
    request: dict[str, Any] = {
        "game": meeting.game,
        "variant": variant,
        "rules": rule_set,
        "players": [p.name for p in players],
        "hands": payloads,
    }
    if meeting.teams:
        request["teams"] = meeting.teams
    if meeting.start_totals:
        request["start_totals"] = meeting.start_totals
    solos = compulsory_solos_for(meeting, players, forgotten=forgotten)
    if solos:
        request["compulsory_solos"] = solos
    return request


def carries_rounds(meeting: Meeting) -> bool:
    # An option of the game's rules (Doppelkopf declares it); games without it never carry.
    # A table of a club night neither takes nor leaves rounds: its tables are not played one
    # after another, and rounds left open at one of them would belong to nobody at the next
    # evening (docs/decisions.md).
    return meeting.club_night_id is None and bool(meeting.rules.get("carry_special_rounds"))


def outgoing_queue(result: dict[str, Any]) -> tuple[str, ...]:
    return tuple(result["next"].get("queue_after_meeting") or ())


def _carry_of(meeting: Meeting) -> MeetingCarry | None:
    """``meeting``'s cached carried rounds (None when none was written yet)."""
    try:
        return meeting.carry
    except MeetingCarry.DoesNotExist:
        return None


def hands_digest(payloads: list[Any]) -> str:
    """A digest of a meeting's live payloads in order, written as JSON with sorted keys (a
    payload read from PostgreSQL's jsonb has its keys in another order than the one saved).
    Written by orjson, as migration 0015 wrote the stored digests: another writer would change
    every stored digest. What orjson cannot write (an integer beyond 64 bits) is written by
    json."""
    try:
        blob = orjson.dumps(list(payloads), option=orjson.OPT_SORT_KEYS)
    except TypeError:
        blob = json.dumps(list(payloads), sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()


def _queue_left_by(previous: Meeting, *, payloads: list[Any] | None = None) -> tuple[str, ...] | None:
    """What ``previous`` leaves open, from its cache (one query for its hands, unless the
    caller read its live ``payloads``), replaying only ``previous`` itself when its hands
    changed since the cache was written; None when nothing was cached for it."""
    cached = _carry_of(previous)
    if cached is None:
        return None
    if payloads is None:
        payloads = _live_payloads(previous.pk)
    if hands_digest(payloads) == cached.hands_digest:
        return tuple(cached.queue_after)
    given = tuple(cached.carried_in) if carries_rounds(previous) else ()
    return outgoing_queue(_replay_for_carry(previous, payloads=payloads, carried=given))


def _live_payloads(meeting_id: int) -> list[Any]:
    """The live hands' payloads of a meeting in playing order."""
    return list(Hand.objects.filter(meeting_id=meeting_id).live().values_list("payload", flat=True))


def _played_before(meeting: Meeting):
    """The league's meetings played before ``meeting`` (date, then id), the latest first. The
    date's bound alone lets the database read the index on (league, date, id) backwards from
    that date, however many evenings the league has. The tables of club nights are not in the
    chain of carried rounds: it passes them by (``carries_rounds``)."""
    return (
        Meeting.objects.filter(league=meeting.league_id, date__lte=meeting.date, club_night=None)
        .filter(Q(date__lt=meeting.date) | Q(date=meeting.date, pk__lt=meeting.pk))
        .order_by("-date", "-id")
    )


def played_after(meeting: Meeting):
    """The league's meetings played after ``meeting`` (date, then id), the next first
    (``_played_before``'s bound, the other way)."""
    return (
        Meeting.objects.filter(league=meeting.league_id, date__gte=meeting.date, club_night=None)
        .filter(Q(date__gt=meeting.date) | Q(date=meeting.date, pk__gt=meeting.pk))
        .order_by("date", "id")
    )


def _previous_carry(meeting: Meeting) -> tuple[int, str | None, list[str] | None, list[Any]] | None:
    """The meeting played before ``meeting`` in its league: its id, its MeetingCarry's digest
    and queue (None, None without one) and its live hands' payloads in playing order (what
    the digest is checked against); None for the first meeting. Two queries."""
    previous = _played_before(meeting).values_list("id", "carry__hands_digest", "carry__queue_after").first()
    if previous is None:
        return None
    previous_id, digest, queue = previous
    return previous_id, digest, queue, _live_payloads(previous_id)


def _replay_for_carry(previous: Meeting, *, payloads=None, carried: tuple[str, ...]) -> dict[str, Any]:
    try:
        return calculate_meeting(previous, payloads=payloads, carried=carried)
    except InvalidInput as error:
        message = _(
            "The evening of %(date)s no longer adds up, so the rounds it left open are unknown: correct it first."
        )
        raise field_error("carried_rounds", message % {"date": date_format(previous.date)}) from error


def carried_rounds_for(meeting: Meeting) -> tuple[str, ...]:
    """Special rounds left over from the previous meeting, where the rules carry them.

    What the previous meeting left open is cached with its results (``MeetingCarry``, kept
    by ``write_results``), so this reads the previous meeting alone instead of replaying the
    league's history. Only where no cache was written yet (a meeting never
    replayed since it was started) is the chain replayed forward, from the last meeting that
    has one or that started from nothing (a loop, not a recursion: years of evenings must
    not hit Python's recursion limit).
    """
    if not carries_rounds(meeting):
        return ()
    # The previous meeting's id and cached digest and queue only; the meeting itself is read
    # only when its hands changed since its cache was written.
    previous = _previous_carry(meeting)
    if previous is None:
        return ()
    cached = _cached_queue(*previous)
    if cached is not None:
        return cached
    return _replay_chain(*_uncached_chain(meeting))


def _cached_queue(previous_id: int, digest: str | None, queue_after, payloads: list[Any]) -> tuple[str, ...] | None:
    """What the previous meeting left open, from its MeetingCarry: as cached while its hands
    are those the digest was made of, else replayed from the rounds carried into it; None
    without a cache."""
    if digest is None:
        return None
    if hands_digest(payloads) == digest:
        return tuple(queue_after)
    return _queue_left_by(Meeting.objects.select_related("season", "carry").get(pk=previous_id), payloads=payloads)


def _uncached_chain(meeting: Meeting) -> tuple[list[Meeting], tuple[str, ...]]:
    """The meetings before ``meeting`` without a usable cache, latest first, back to one
    that has one (whose queue is returned with them) or that starts from nothing."""
    chain, carried = [], ()
    for earlier in _played_before(meeting).select_related("season", "carry").iterator(chunk_size=20):
        left = _queue_left_by(earlier)
        if left is not None:
            carried = left
            break
        chain.append(earlier)
        if not carries_rounds(earlier):
            break  # it starts from nothing
    return chain, carried


def _replay_chain(chain: list[Meeting], carried: tuple[str, ...]) -> tuple[str, ...]:
    """Replay ``chain`` (latest first) forward from the rounds ``carried`` into its first
    meeting; returns what its last one leaves open."""
    for previous in reversed(chain):
        given = carried if carries_rounds(previous) else ()
        payloads = list(previous.hands.live().values_list("payload", flat=True))
        carried = outgoing_queue(_replay_for_carry(previous, payloads=payloads, carried=given))
        # Cached on the way (a meeting from before the cache existed), so that the next page
        # reads it; a writer's own row wins, and the digest catches a hand changed meanwhile.
        MeetingCarry.objects.bulk_create(
            [
                MeetingCarry(
                    meeting=previous,
                    carried_in=list(given),
                    queue_after=list(carried),
                    hands_digest=hands_digest(payloads),
                )
            ],
            ignore_conflicts=True,
        )
    return carried


def calculate_meeting(
    meeting: Meeting,
    *,
    payloads: list[Any] | None = None,
    carried: tuple[str, ...] | None = None,
    rules: tuple[str, dict] | None = None,
    players: list[Player] | None = None,
) -> dict[str, Any]:
    """Replay a meeting through scoring/; raises InvalidInput when a hand doesn't fit.

    ``carried``: the special rounds the previous meeting left open, when the caller knows
    them already (None: worked out here). ``rules``: (variant, full rule set) instead of the
    meeting's own (what if). ``players``: its seated players in seat order (anything with
    their name), when the caller read them."""
    return calculate_with_given(meeting, payloads=payloads, carried=carried, rules=rules, players=players)[0]


def calculate_with_given(
    meeting: Meeting,
    *,
    payloads: list[Any] | None = None,
    carried: tuple[str, ...] | None = None,
    rules: tuple[str, dict] | None = None,
    players: list[Player] | None = None,
    request: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``calculate_meeting``, and the special rounds the replay was given: a writer hands them
    on to ``write_results`` instead of working them out a second time. ``request``: the
    meeting's request (``meeting_request``), when the writer built it already."""
    if request is None:
        request = meeting_request(meeting, payloads=payloads, rules=rules, players=players)
    if carried is None and not carries_rounds(meeting):
        carried = ()  # what carried_rounds_for answers, without asking it
    parsed = None
    try:
        if carried is None:
            parsed = parse_request(request)  # its problems come before those of the carried rounds
            carried = carried_rounds_for(meeting)
        spec, variant, sitting = parsed or parse_request(request)
        if carried:
            sitting = dataclasses.replace(sitting, carried_rounds=carried)
        result = spec.replay(sitting)
    except ScoringError as error:
        raise InvalidInput(problems_as_errors(error)) from error
    result = {"game": spec.key, "variant": variant, "rules": sitting.rules, **result}
    result["team_members"] = dict(sitting.teams) if sitting.teams else None
    return result, carried


def party_members(result: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    teams = result.get("team_members")
    if teams:
        return {party: tuple(members) for party, members in teams.items()}
    return {party: (party,) for party in result["parties"]}


def live_hands(meeting: Meeting) -> list[Hand]:
    return list(meeting.hands.live())


def replay_of(
    meeting: Meeting, hands: list[Hand], *, players: list[Player] | None = None, carried: tuple[str, ...] | None = None
) -> dict[str, Any]:
    return calculate_meeting(meeting, payloads=[h.payload for h in hands], players=players, carried=carried)
