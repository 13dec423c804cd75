"""Writes. Every change to hands goes through here, inside a transaction, and ends with a
replay of the meeting so that the derived results can never drift from the hands."""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
import pickle
import threading
from collections import OrderedDict, defaultdict, namedtuple
from decimal import Decimal
from typing import Any

import orjson
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.bill import split_bill
from scoring.errors import Problem, Problems, ScoringError
from scoring.options import resolve_rules
from scoring.registry import COMPULSORY_SOLOS, get_game
from scoring.sitting import parse_request

from . import names, outbox_choices, selectors
from .models import (
    GAME_LABELS,
    ROLE_RANK,
    Hand,
    HandResult,
    Invite,
    League,
    Meeting,
    MeetingCarry,
    MeetingReopening,
    MeetingResult,
    Membership,
    Player,
    Role,
    Season,
    SeasonBill,
    SeasonReopening,
    Seat,
    new_token,
)


class HandConflict(Exception):
    """Someone else entered a hand at the same moment; the caller should refresh."""

    def __init__(self, number):
        super().__init__(number)
        self.number = number


class InvalidInput(Exception):
    """Bad input, with every problem as {"hand", "field", "message"} (already translated)."""

    def __init__(self, errors):
        super().__init__("; ".join(e["message"] for e in errors))
        self.errors = errors


class MeetingClosed(InvalidInput):
    """A write to the hands of a meeting that is over (closed, or its last round played after
    the end time): nothing changes. An InvalidInput, so that every caller that already answers
    a refused hand with a 4xx and its message answers this one too."""

    def __init__(self, message):
        super().__init__([{"hand": None, "field": "meeting", "message": message}])


class ProblemError(dict):
    """One of the engine's problems as {"hand", "field", "message"}, the message with the
    payload's own names (as the API says it), keeping the Problem itself so that an HTML
    page can say it in its form's words (leagues/field_labels.py, ``page_errors``)."""

    def __init__(self, problem: Problem):
        super().__init__(problem.as_dict(translate=_))
        self.problem = problem


def problems_as_errors(error: ScoringError) -> list[dict[str, Any]]:
    return [ProblemError(p) for p in error.problems]


# --- rules ---------------------------------------------------------------------------------


def resolved_rules(*, game: str, variant: str, overrides: Any) -> dict[str, Any]:
    """The full rule set of a preset plus overrides; InvalidInput when they don't fit."""
    spec = get_game(game)
    if variant not in spec.presets:
        raise InvalidInput([{"hand": None, "field": "variant", "message": _("Unknown rule set.")}])
    problems = Problems()
    rules = resolve_rules(options=spec.options, preset=spec.presets[variant], overrides=overrides, problems=problems)
    if problems:
        raise InvalidInput(problems_as_errors(ScoringError(problems.items)))
    return rules


@transaction.atomic
def create_league(*, name: str, slug: str, game: str, variant: str, rule_overrides: dict, user) -> League:
    resolved_rules(game=game, variant=variant, overrides=rule_overrides)
    league = League.objects.create(name=name, slug=slug, game=game, variant=variant, rule_overrides=rule_overrides)
    Membership.objects.create(league=league, user=user, role=Role.ADMIN)
    Player.objects.create(league=league, name=_first_player_name(user), user=user)
    return league


def _first_player_name(user) -> str:
    """The founder's player name: his name at the table, or else his login name (which
    Django allows letters, digits and @.+-_ only), cut to a player name's length. An account
    made before names were checked may hold a name that is refused now."""
    for candidate in (user.get_short_name(), user.get_username()):
        try:
            return names.clean_name(candidate)
        except names.NameProblem:
            continue
    return names.clean_name(user.get_username()[: names.MAX_LENGTH])


# --- replay ---------------------------------------------------------------------------------


def seated_players(meeting: Meeting) -> list[Player]:
    return [seat.player for seat in meeting.seats.in_order()]


# A seated player as a write needs him: his id, his name and his seat's position.
# The seated players as values: a read, so it lives in selectors (the public sheet uses it
# too); the writers read them once each through it.
_Seated = selectors.Seated
seats_of = selectors.seats_of


def compulsory_solos_for(meeting: Meeting, players: list[Player]) -> list[str]:
    """Penalty soli (the pennant): owed by whoever forgot it in the previous season, played
    at the start of the first meeting of the next season, in the order they arose.

    A player who is not at that meeting cannot play his; it is dropped (the spec leaves this
    open, and a scorekeeper would not carry a penalty into a season it does not belong to).
    """
    if COMPULSORY_SOLOS not in get_game(meeting.game).extra_fields:
        return []  # only a game with penalty soli (Doppelkopf) knows the pennant
    # A write's meeting was read with it (``_lock``: Meeting.objects.with_season_start()).
    # Asked before the season's number, so that a page runs as many queries in the first
    # season as in the twentieth (tests/test_league_size_queries.py).
    opens = getattr(meeting, "opens_season", None)
    if opens is None:
        opens = meeting.season.meetings.order_by("date", "id").values_list("id", flat=True).first() == meeting.id
    if not opens or meeting.season.number <= 1:
        return []
    forgotten = (
        Meeting.objects.filter(
            league=meeting.league_id, season__number=meeting.season.number - 1, pennant_forgotten=True
        )
        .exclude(pennant_holder=None)
        .order_by("date", "id")
        .values_list("pennant_holder__name", flat=True)
    )
    present = {p.name for p in players}
    return [name for name in forgotten if name in present]


def meeting_request(
    meeting: Meeting,
    *,
    payloads: list[Any] | None = None,
    rules: tuple[str, dict] | None = None,
    players: list[Player] | None = None,
) -> dict[str, Any]:
    """The calculate request that replays ``meeting`` (or it with other ``payloads``, or
    under other ``rules``: (variant, full rule set), for "what if"). ``players``: its seated
    players, when the caller read them already."""
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
    solos = compulsory_solos_for(meeting, players)
    if solos:
        request["compulsory_solos"] = solos
    return request


def _carries(meeting: Meeting) -> bool:
    # An option of the game's rules (Doppelkopf declares it); games without it never carry.
    return bool(meeting.rules.get("carry_special_rounds"))


def _queue_after(result: dict[str, Any]) -> tuple[str, ...]:
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
    Written by orjson: json.dumps with sorted keys was 0.05 ms of the 40 payloads each write
    and each carrying page digests, orjson 0.005 (issue 12; migration 0015 wrote the stored
    digests anew). What orjson cannot write (an integer beyond 64 bits) is written by json."""
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
    given = tuple(cached.carried_in) if _carries(previous) else ()
    return _queue_after(_replay_for_carry(previous, payloads=payloads, carried=given))


def _live_payloads(meeting_id: int) -> list[Any]:
    """The live hands' payloads of a meeting in playing order."""
    return list(Hand.objects.filter(meeting_id=meeting_id).live().values_list("payload", flat=True))


def _played_before(meeting: Meeting):
    """The league's meetings played before ``meeting`` (date, then id), the latest first. The
    date's bound alone lets the database read the index on (league, date, id) backwards from
    that date, however many evenings the league has."""
    return (
        Meeting.objects.filter(league=meeting.league_id, date__lte=meeting.date)
        .filter(Q(date__lt=meeting.date) | Q(date=meeting.date, pk__lt=meeting.pk))
        .order_by("-date", "-id")
    )


def _played_after(meeting: Meeting):
    """The league's meetings played after ``meeting`` (date, then id), the next first
    (``_played_before``'s bound, the other way)."""
    return (
        Meeting.objects.filter(league=meeting.league_id, date__gte=meeting.date)
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
        raise _error("carried_rounds", message % {"date": date_format(previous.date)}) from error


def carried_rounds_for(meeting: Meeting) -> tuple[str, ...]:
    """Special rounds left over from the previous meeting, where the rules carry them.

    What the previous meeting left open is cached with its results (``MeetingCarry``, kept
    by ``write_results``), so this reads the previous meeting alone instead of replaying the
    league's history. Only where no cache was written yet (a meeting never
    replayed since it was started) is the chain replayed forward, from the last meeting that
    has one or that started from nothing (a loop, not a recursion: years of evenings must
    not hit Python's recursion limit).
    """
    if not _carries(meeting):
        return ()
    # The previous meeting's id and cached digest and queue only; the meeting itself is read
    # only when its hands changed since its cache was written.
    previous = _previous_carry(meeting)
    if previous is None:
        return ()
    previous_id, digest, queue_after, payloads = previous
    if digest is not None:
        if hands_digest(payloads) == digest:
            return tuple(queue_after)
        left = _queue_left_by(Meeting.objects.select_related("season", "carry").get(pk=previous_id), payloads=payloads)
        if left is not None:
            return left
    chain, carried = [], ()
    for earlier in _played_before(meeting).select_related("season", "carry").iterator(chunk_size=20):
        left = _queue_left_by(earlier)
        if left is not None:
            carried = left
            break
        chain.append(earlier)
        if not _carries(earlier):
            break  # it starts from nothing
    for previous in reversed(chain):
        given = carried if _carries(previous) else ()
        payloads = list(previous.hands.live().values_list("payload", flat=True))
        carried = _queue_after(_replay_for_carry(previous, payloads=payloads, carried=given))
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


def replay_later_meetings(meeting: Meeting, result: dict[str, Any]) -> None:
    """After ``meeting`` changed: rewrite the results of the meetings after it whose special
    rounds it carried into (directly or through others), so no cached figure goes stale.

    It stops at the first later meeting that is given the same rounds as its cached results
    were replayed with: from there on nothing changes (a correction of the first evening
    does not rewrite every evening after it)."""
    carried = _queue_after(result)
    current = meeting
    while True:
        # Its own writers hold this lock while they replace its results; without it, both
        # would write a full set of rows for it. Locks are taken in playing order, so two
        # writers of one chain never wait for each other in a circle. Only its id, its rules
        # and what it was given are read here (most writes stop here); the meeting itself
        # only when it is replayed.
        next_one = (
            _played_after(current)
            .select_for_update(of=("self",))
            .values_list("id", "rules", "carry__carried_in")
            .first()
        )
        if next_one is None or not next_one[1].get("carry_special_rounds"):
            return  # the chain is broken here: nothing after it depends on ``meeting`` (_carries)
        later_id, _rules, given = next_one
        if given is not None and tuple(given) == carried:
            return  # given what it was given before: its results (and all after it) stand
        later = Meeting.objects.select_related("season").with_season_start().get(pk=later_id)
        hands = _live_hands(later)
        seated = seats_of(later)
        try:
            later_result = calculate_meeting(
                later, payloads=[h.payload for h in hands], carried=carried, players=seated
            )
        except InvalidInput as error:
            message = _(
                "This would change the rounds carried into the evening of %(date)s, which would then no longer add up."
            )
            raise _error("carried_rounds", message % {"date": date_format(later.date)}) from error
        write_results(later, hands, later_result, carried=carried, seated=seated)
        carried = _queue_after(later_result)
        current = later


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
    return _replayed(meeting, payloads=payloads, carried=carried, rules=rules, players=players)[0]


def _replayed(
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
    if carried is None and not _carries(meeting):
        carried = ()  # what carried_rounds_for answers, without asking it
    parsed = key = None
    try:
        if carried is None:
            parsed = parse_request(request)  # its problems come before those of the carried rounds
            carried = carried_rounds_for(meeting)
        key = _replay_key(request, carried)
        kept = _kept_replay(key)
        if kept is not None:
            return kept, carried
        spec, variant, sitting = parsed or parse_request(request)
        if carried:
            sitting = dataclasses.replace(sitting, carried_rounds=carried)
        result = spec.replay(sitting)
    except ScoringError as error:
        raise InvalidInput(problems_as_errors(error)) from error
    result = {"game": spec.key, "variant": variant, "rules": sitting.rules, **result}
    result["team_members"] = dict(sitting.teams) if sitting.teams else None
    _keep_replay(key, result)
    return result, carried


# Replays kept per process, keyed by a digest of their whole input: the request
# (game, variant, rules, players, hands, teams, start totals, penalty soli), the carried
# rounds and the language. A replay is a function of exactly these, so a kept one is never
# stale; it is kept pickled, so each caller gets its own copy to change. The meeting page
# after a hand and the next hand's form replay what the write just replayed: 0.36 ms for
# 40 hands, against 0.08 ms for the key and the copy.
_REPLAYS: OrderedDict[bytes, bytes] = OrderedDict()
_REPLAYS_KEPT = 256
_REPLAYS_LOCK = threading.Lock()


def _replay_key(request: dict[str, Any], carried: tuple[str, ...]) -> bytes | None:
    try:
        # Keys sorted: a meeting read from PostgreSQL (jsonb) and one built in Python hold the
        # same rules and payloads with their keys in another order.
        blob = orjson.dumps([request, list(carried), translation.get_language()], option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return None  # something orjson cannot write (not from the database): not kept
    return hashlib.blake2b(blob, digest_size=32).digest()


def _kept_replay(key: bytes | None) -> dict[str, Any] | None:
    if key is None:
        return None
    with _REPLAYS_LOCK:
        kept = _REPLAYS.get(key)
        if kept is None:
            return None
        _REPLAYS.move_to_end(key)
    return pickle.loads(kept)


def _kept_replay_of(request: dict[str, Any], carried: tuple[str, ...]) -> dict[str, Any] | None:
    """The replay of ``request`` (``meeting_request``) given ``carried``, when this process
    kept one, else None: never replays, and asks nothing of the database."""
    return _kept_replay(_replay_key(request, carried))


def _keep_replay(key: bytes | None, result: dict[str, Any]) -> None:
    if key is None:
        return
    kept = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
    with _REPLAYS_LOCK:
        _REPLAYS[key] = kept
        _REPLAYS.move_to_end(key)
        while len(_REPLAYS) > _REPLAYS_KEPT:
            _REPLAYS.popitem(last=False)


def party_members(result: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    teams = result.get("team_members")
    if teams:
        return {party: tuple(members) for party, members in teams.items()}
    return {party: (party,) for party in result["parties"]}


def result_rows(
    meeting: Meeting, hands: list[Hand], result: dict[str, Any], *, seats: list[Seat] | None = None
) -> list[HandResult]:
    """The cached results of a replay of ``meeting``'s live ``hands`` (unsaved), each with its
    hand and player."""
    if seats is None:
        seats = list(meeting.seats.in_order())
    return [
        HandResult(
            meeting=meeting,
            season_id=meeting.season_id,
            league_id=meeting.league_id,
            hand=hand,
            player=player,
            **figures,
        )
        for hand, player, figures in _result_figures(hands, result, players=[seat.player for seat in seats])
    ]


def _result_figures(hands: list[Hand], result: dict[str, Any], *, players: list):
    """(hand, player, {figure: value}) for each HandResult row of a replay of a meeting's
    live ``hands`` (``players``: its seated players, anything with their pk and name)."""
    players = {p.name: p for p in players}
    members = party_members(result)
    games_at: dict[tuple[int, str], int] = defaultdict(int)
    for game in result.get("games") or ():
        if game.get("winner") is not None and game.get("hand") is not None:
            games_at[(game["hand"], game["winner"])] += game.get("games", 1)
    for hand, figures in zip(hands, result["hands"], strict=True):
        active = set(figures.get("active", players))
        for party, delta in figures["deltas"].items():
            for name in members[party]:
                yield (
                    hand,
                    players[name],
                    {
                        "number": figures["number"],
                        "active": name in active,
                        "delta": delta,
                        "total": figures["totals"][party],
                        "won": _won(figures, party, delta),
                        "games_won": games_at.get((figures["number"], party), 0),
                        "solo": figures.get("soloist") == name,
                        "round": figures.get("round") or "",
                    },
                )


def store_imported_totals(*, meeting: Meeting, totals: dict[int, int]) -> None:
    """An evening copied from paper as each player's total ({player id: total}, players at
    its table): its MeetingResult rows, with the evening's winner by the usual rule. The
    writers keep such rows (write_results), verify_replays takes them as they are, and no
    hand can be entered into the evening (_refuse_if_closed)."""
    seat_order = dict(meeting.seats.values_list("player_id", "position"))
    sums = {player_id: {"total": total, "games_won": 0, "points": 0} for player_id, total in totals.items()}
    winner = selectors.evening_winner(sums, seat_order, race=False)
    meeting.imported_totals = True
    meeting.save(update_fields=["imported_totals"])
    MeetingResult.objects.bulk_create(
        MeetingResult(
            meeting=meeting,
            season_id=meeting.season_id,
            league_id=meeting.league_id,
            player_id=player_id,
            total=total,
            won_evening=player_id == winner,
        )
        for player_id, total in totals.items()
    )


# The figures of a HandResult row that a replay decides.
RESULT_FIGURES = ("number", "active", "delta", "total", "won", "games_won", "solo", "round")


def write_results(
    meeting: Meeting,
    hands: list[Hand],
    result: dict[str, Any],
    *,
    carried: tuple[str, ...] | None = None,
    seated: list[_Seated] | None = None,
) -> None:
    """Bring the meeting's cached results in line with a replay of its live ``hands`` (never
    edited otherwise): its HandResult rows, its MeetingResult rows (their sums per player) and
    its MeetingCarry (``carried``: the rounds the replay was given; None: worked out here).
    ``seated``: the meeting's seated players (``seats_of``), when the writer read them already
    for its replay (one read per write).

    Only the rows whose figures changed are written: a new hand inserts its own rows and
    updates nothing before it, a correction updates the rows it changed. Rewriting every row
    of the meeting on each hand left some twenty dead row versions per live one on
    PostgreSQL, which slowed every standings query until a vacuum."""
    if seated is None:
        seated = seats_of(meeting)
    wanted = {(hand.pk, player.pk): figures for hand, player, figures in _result_figures(hands, result, players=seated)}
    _sync_rows(
        HandResult.objects.filter(meeting=meeting),
        wanted,
        key_fields=("hand_id", "player_id"),
        figures=RESULT_FIGURES,
        build=lambda key, figures: HandResult(
            meeting=meeting,
            season_id=meeting.season_id,
            league_id=meeting.league_id,
            hand_id=key[0],
            player_id=key[1],
            **figures,
        ),
    )
    if not meeting.imported_totals:  # those rows are the totals copied from paper, no sums
        rows = [_Figures(player_id, **figures) for (_hand, player_id), figures in wanted.items()]
        race = selectors.is_race_game(meeting.game)
        sums = meeting_sums(rows, race=race, seat_order={player.pk: player.position for player in seated})
        _sync_rows(
            MeetingResult.objects.filter(meeting=meeting),
            {(player_id,): figures for player_id, figures in sums.items()},
            key_fields=("player_id",),
            figures=MEETING_FIGURES,
            build=lambda key, figures: MeetingResult(
                meeting=meeting, season_id=meeting.season_id, league_id=meeting.league_id, player_id=key[0], **figures
            ),
        )
    if carried is None:
        carried = carried_rounds_for(meeting)
    write_carry(
        meeting,
        carried=carried if _carries(meeting) else (),
        queue_after=_queue_after(result),
        digest=hands_digest([h.payload for h in hands]),
    )


# What meeting_sums reads of a HandResult row, without building the model instance.
_Figures = namedtuple("_Figures", ("player_id", *RESULT_FIGURES))


def only_appends(before: dict[str, Any], result: dict[str, Any]) -> bool:
    """Whether ``result``, a replay with one hand more than ``before``, gives every earlier
    hand the figures ``before`` gave it: the same hands' entries, the same parties, and the
    same games ended at those hands (all that ``_result_figures`` reads of a replay). Every
    game's replay is played forward, so this holds for a hand entered at the end; it is
    checked all the same, and when it fails the rows are compared with what is stored."""
    earlier = before.get("hands") or []
    count = len(earlier)
    later = result.get("hands") or []
    return (
        len(later) == count + 1
        and later[:count] == earlier
        and party_members(result) == party_members(before)
        and _games_until(result, count) == _games_until(before, count)
    )


def _games_until(result: dict[str, Any], number: int) -> list[tuple]:
    return [
        (game["hand"], game["winner"], game.get("games", 1))
        for game in result.get("games") or ()
        if game.get("winner") is not None and game.get("hand") is not None and game["hand"] <= number
    ]


def _sync_rows(stored_rows, wanted, *, key_fields, figures, build) -> None:
    """Make the rows of ``stored_rows`` (a queryset) equal ``wanted`` ({key: {figure:
    value}}, the key the values of ``key_fields``), writing only what differs: new rows
    inserted, changed ones updated in the figures that changed, rows no longer wanted
    deleted. ``build(key, figures)`` makes the unsaved row of a key."""
    width = len(key_fields)
    stored = {
        values[:width]: (values[width], values[width + 1 :])
        for values in stored_rows.order_by().values_list(*key_fields, "pk", *figures)
    }
    created, changed, fields = [], [], set()
    for key, new in wanted.items():
        old = stored.pop(key, None)
        if old is None:
            created.append(build(key, new))
            continue
        pk, old_values = old
        differ = [name for name, value in zip(figures, old_values, strict=True) if new[name] != value]
        if differ:
            row = build(key, new)
            row.pk = pk
            changed.append(row)
            fields.update(differ)
    if stored:  # rows of hands deleted since, or of players no longer in a hand
        stored_rows.filter(pk__in=[pk for pk, _values in stored.values()]).delete()
    if changed:
        stored_rows.model.objects.bulk_update(changed, [name for name in figures if name in fields])
    if created:
        stored_rows.model.objects.bulk_create(created)


# The figures of a MeetingResult row, all decided by the meeting's HandResult rows.
MEETING_FIGURES = ("total", "games", "wins", "solos", "solos_won", "games_won", "points", "hands", "won_evening")


def meeting_sums(rows, *, race: bool, seat_order: dict[int, int]) -> dict[int, dict[str, Any]]:
    """A meeting's HandResult ``rows`` summed per player: {player id: MEETING_FIGURES}, the
    same sums the standings made of HandResult before. Pure, so that the data
    migration that fills MeetingResult uses it too.

    Race games' points: the sum of deltas plus each reset, the final score of a game that
    ended at a hand (any player's games_won) followed by another hand of that player. The
    evening's winner is the standings' (``selectors.evening_winner``)."""
    ended = {r.number for r in rows if r.games_won}
    present = {(r.player_id, r.number) for r in rows}
    hands = max((r.number for r in rows), default=0)
    sums: dict[int, dict[str, Any]] = {}
    for r in rows:
        m = sums.get(r.player_id)
        if m is None:
            m = sums[r.player_id] = dict.fromkeys(MEETING_FIGURES, 0)
            m.update(hands=hands, won_evening=False)
        m["total"] += r.delta
        m["games"] += int(r.active)
        m["wins"] += int(r.active and r.won)
        m["solos"] += int(r.solo)
        m["solos_won"] += int(r.solo and r.won)
        m["games_won"] += r.games_won
        if race and r.number in ended and (r.player_id, r.number + 1) in present:
            m["points"] += r.total
    if race:
        for m in sums.values():
            m["points"] += m["total"]
    winner = selectors.evening_winner(sums, seat_order, race=race)
    if winner is not None:
        sums[winner]["won_evening"] = True
    return sums


def meeting_result_rows(meeting: Meeting, rows: list[HandResult], *, seat_order: dict[int, int]) -> list[MeetingResult]:
    """The MeetingResult rows (unsaved) that sum a meeting's HandResult ``rows``, one per
    player with a row."""
    sums = meeting_sums(rows, race=selectors.is_race_game(meeting.game), seat_order=seat_order)
    return [
        MeetingResult(
            meeting_id=meeting.pk,
            season_id=meeting.season_id,
            league_id=meeting.league_id,
            player_id=player_id,
            **figures,
        )
        for player_id, figures in sums.items()
    ]


def write_carry(meeting: Meeting, *, carried: tuple[str, ...], queue_after: tuple[str, ...], digest: str) -> None:
    """Keep what ``meeting`` was given and what it leaves open: the fields that changed, and
    nothing when none did (a long queue left as it was is not written again)."""
    values = {"carried_in": list(carried), "queue_after": list(queue_after), "hands_digest": digest}
    cached = MeetingCarry.objects.filter(meeting=meeting).first()
    if cached is None:
        # An upsert: a page may have cached this meeting a moment ago (carried_rounds_for).
        MeetingCarry.objects.bulk_create(
            [MeetingCarry(meeting=meeting, **values)],
            update_conflicts=True,
            unique_fields=["meeting"],
            update_fields=list(values),
        )
        return
    changed = [name for name, value in values.items() if getattr(cached, name) != value]
    for name in changed:
        setattr(cached, name, values[name])
    if changed:
        cached.save(update_fields=changed)


def _won(figures: dict[str, Any], party: str, _delta: int) -> bool:
    """Whether ``party`` won this hand: one of its ``hand_winners``, the key every game
    fills (scoring/results.py says who that is in each game). Never the sign of the delta:
    under Doppelkopf's "loser gets the points" the winners pay, and a race game's deltas
    include the reset to 0."""
    return party in figures["hand_winners"]


@transaction.atomic
def replay_meeting(*, meeting: Meeting) -> dict[str, Any]:
    hands = list(meeting.hands.live())
    seated = seats_of(meeting)
    result, carried = _replayed(meeting, payloads=[h.payload for h in hands], players=seated)
    write_results(meeting, hands, result, carried=carried, seated=seated)
    replay_later_meetings(meeting, result)
    return result


# --- hands ----------------------------------------------------------------------------------
#
# Every write below takes the meeting's lock first and only then reads the hand it changes
# (never an object the caller loaded earlier: a correction and a deletion of one hand would
# otherwise each save their own stale copy over the other's). The caller names the version of
# the hand it saw; a write over a newer version raises StaleHand and changes nothing.


class StaleHand(Exception):
    """The hand changed since the writer saw it (another phone corrected, deleted or restored
    it); nothing was saved. ``hand`` is the hand as it is now, ``changed_by`` and
    ``changed_at`` say who changed it last and when."""

    def __init__(self, hand: Hand, *, changed_by=None, changed_at=None):
        super().__init__(hand.pk)
        self.hand = hand
        self.changed_by = changed_by
        self.changed_at = changed_at


class IdempotencyKeyReused(Exception):
    """The idempotency key already names another hand of the meeting (``hand``)."""

    def __init__(self, hand: Hand):
        super().__init__(hand.pk)
        self.hand = hand


def _lock(meeting_id: int) -> Meeting:
    # On PostgreSQL this serialises writers of one meeting; SQLite serialises all writers.
    meeting = selectors.meeting_for_entry(pk=meeting_id)
    if meeting is None:
        raise Meeting.DoesNotExist(f"No meeting {meeting_id}.")
    return meeting


def _live_hands(meeting: Meeting) -> list[Hand]:
    return list(meeting.hands.live())


def hands_with(meeting: Meeting, hand_id: int) -> tuple[list[Hand], Hand]:
    """The live hands of the locked ``meeting`` in playing order, and its hand ``hand_id``
    (live or deleted) as it is now: one query. Read under the meeting's lock, which every
    writer of a hand holds (the hand's own row lock added nothing to it, and cost a query);
    Hand.DoesNotExist when the meeting has no such hand."""
    rows = list(meeting.hands.filter(Q(deleted_at=None) | Q(pk=hand_id)).order_by("position"))
    hand = next((h for h in rows if h.pk == hand_id), None)
    if hand is None:
        raise Hand.DoesNotExist(f"meeting {meeting.pk} has no hand {hand_id}")
    return [h for h in rows if h.deleted_at is None], hand


def last_change(hand: Hand) -> tuple[Any, Any]:
    """Who wrote ``hand`` last and when, from its history: (user or None, datetime)."""
    last = hand.history.select_related("history_user").order_by("-history_date", "-history_id").first()
    if last is None:
        return hand.entered_by, hand.changed_at
    return last.history_user, last.history_date


def _check_version(hand: Hand, version: int) -> None:
    if hand.version != version:
        changed_by, changed_at = last_change(hand)
        raise StaleHand(hand, changed_by=changed_by, changed_at=changed_at)


def _renumber(hands: list[Hand], *, skip: Hand | None = None) -> None:
    """Give the live ``hands`` (in position order) the numbers 1, 2, ... on the sheet.

    Only rows whose number really changes are written (PostgreSQL here runs without
    autovacuum: an unchanged row rewritten is dead weight). They are written one at a time, in
    an order in which no two live hands ever share a number: SQLite and PostgreSQL check the
    unique index row by row, so one UPDATE shifting many numbers could collide with itself.
    ``skip``: a hand the caller saves itself afterwards (a restored one).
    """
    target = {hand.pk: number for number, hand in enumerate(hands, 1)}
    moves = [h for h in hands if h.number != target[h.pk] and (skip is None or h.pk != skip.pk)]
    down = sorted((h for h in moves if h.number is not None and target[h.pk] < h.number), key=lambda h: target[h.pk])
    up = sorted((h for h in moves if h not in down), key=lambda h: -target[h.pk])
    for hand in down + up:
        Hand.objects.filter(pk=hand.pk).update(number=target[hand.pk])
        hand.number = target[hand.pk]


def _same_json(a: Any, b: Any) -> bool:
    # As stored: JSON with sorted keys tells true from 1 and 1 from 1.0, as a client would.
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _entered_before(meeting: Meeting, idempotency_key, payload: Any, *, hands: list | None = None) -> Hand | None:
    """The hand entered earlier with ``idempotency_key`` as it is now, or None. A retry sends
    the payload the hand was entered with, whatever was corrected, replaced or deleted
    since, and gets that hand; IdempotencyKeyReused when the payload is neither that one nor
    the hand's present one (a key must name one hand only). ``hands``: every hand of the
    meeting (deleted ones too), when the writer read them already."""
    if idempotency_key is None:
        return None
    if hands is None:
        earlier = Hand.objects.filter(meeting=meeting, idempotency_key=idempotency_key).first()
    else:
        key = Hand._meta.get_field("idempotency_key").to_python(idempotency_key)
        earlier = next((h for h in hands if h.idempotency_key == key), None)
    if earlier is None or _same_json(earlier.payload, payload):
        return earlier
    if not _same_json(_entered_payload(earlier), payload):
        raise IdempotencyKeyReused(earlier)
    return earlier


def _entered_payload(hand: Hand) -> Any:
    """The payload ``hand`` was entered with: its first history record's (a hand without
    one, its present payload)."""
    first = hand.history.filter(history_type="+").order_by("history_id").values_list("payload", flat=True).first()
    return hand.payload if first is None else first


def add_hand(
    *, meeting: Meeting, payload: Any, user, number: int | None = None, idempotency_key=None, now=None
) -> Hand:
    """Append a hand (see ``enter_hand``)."""
    return enter_hand(
        meeting=meeting, payload=payload, user=user, number=number, idempotency_key=idempotency_key, now=now
    )[0]


def enter_hand(
    *, meeting: Meeting, payload: Any, user, number: int | None = None, idempotency_key=None, now=None
) -> tuple[Hand, bool]:
    """Append a hand; returns (hand, created) (see ``enter_hand_replayed``)."""
    hand, created, _result = enter_hand_replayed(
        meeting=meeting, payload=payload, user=user, number=number, idempotency_key=idempotency_key, now=now
    )
    return hand, created


def enter_hand_replayed(
    *, meeting: Meeting, payload: Any, user, number: int | None = None, idempotency_key=None, now=None
) -> tuple[Hand, bool, dict[str, Any] | None]:
    """Append a hand; returns (hand, created, the replay of the meeting with it), the replay
    None when nothing was saved (the key named a hand entered before): the API answers with
    the write's own replay instead of replaying the meeting once more.

    ``number`` is the hand number the scorekeeper saw as next; when another phone got there
    first, HandConflict says which hand it entered, and nothing is saved.
    ``idempotency_key`` (a UUID the client chose for this hand): when a hand of the meeting
    already has it, that hand is the answer (created False) and nothing is saved, so a retry
    never enters a hand twice; IdempotencyKeyReused when that hand had another payload.
    MeetingClosed when the meeting is closed or its evening is over (``evening_over``); the
    hand that makes it over closes it (``now``: the time it is saved, for tests).
    """
    try:
        with transaction.atomic():
            meeting = _lock(meeting.pk)
            # Every hand of it, deleted ones too, in one query: the key's earlier hand, the
            # live hands and the last position.
            return enter_locked_hand(
                meeting=meeting,
                every=selectors.meeting_hands(meeting=meeting, entered_by=False),
                seated=seats_of(meeting),
                payload=payload,
                user=user,
                number=number,
                idempotency_key=idempotency_key,
                now=now,
            )
    except IntegrityError as error:
        return entered_meanwhile(meeting, idempotency_key, payload, error)


def enter_locked_hand(
    *,
    meeting: Meeting,
    every: list,
    seated: list[_Seated],
    payload: Any,
    user,
    number: int | None = None,
    idempotency_key=None,
    now=None,
    carried: tuple[str, ...] | None = None,
    before: dict[str, Any] | None = None,
) -> tuple[Hand, bool, dict[str, Any] | None]:
    """``enter_hand_replayed`` for a writer that holds the meeting's lock already and read
    what the entry needs under it: inside a transaction, ``meeting`` from
    ``selectors.meeting_for_entry``, ``every`` hand of it in playing order, deleted ones too
    (``selectors.meeting_hands``), and its ``seated`` players (``seats_of``). The meeting
    page's entry reads them once, under the lock, for its form, this write and its answer.
    ``carried``: ``carried_rounds_for(meeting)``, when the writer asked it already (None:
    asked here, by each replay that needs it). ``before``: the replay of the live hands, when
    the writer made it (the meeting page's form is read against it); else this process's kept
    copy of it, if it has one. An IntegrityError is the caller's to answer
    (``entered_meanwhile``), once its transaction is rolled back."""
    earlier = _entered_before(meeting, idempotency_key, payload, hands=every)
    if earlier is not None:
        return earlier, False, None
    _refuse_if_closed(meeting)
    hands = [h for h in every if h.deleted_at is None]
    if number is not None and number != len(hands) + 1:
        raise HandConflict(len(hands))
    payloads = [h.payload for h in hands]
    if hands and end_time_passed(meeting, now):
        if before is None:
            before = _replay_of(meeting, hands, players=seated, carried=carried)
        if evening_over(meeting, before, now=now):
            raise MeetingClosed(_("The evening is over: its last round was played after the end time."))
    request = meeting_request(meeting, payloads=payloads, players=seated)
    result, carried = _replayed(meeting, request={**request, "hands": payloads + [payload]}, carried=carried)
    if before is None:
        before = _kept_replay_of(request, carried)
    hand = Hand(
        meeting=meeting,
        position=(every[-1].position if every else 0) + 1,
        number=len(hands) + 1,
        payload=payload,
        entered_by=user,
        idempotency_key=idempotency_key,
    )
    hand._history_user = user
    hand.save()
    write_results(meeting, hands + [hand], result, carried=carried, seated=seated)
    if before is None or _queue_after(before) != _queue_after(result):
        # The rounds this evening leaves open changed: a later evening may take them. (When
        # they did not, every later evening was given them already: nothing to look at.)
        replay_later_meetings(meeting, result)
    if last_round_done(meeting, result, now=now):
        # The hand that finishes the last round after the end time ends the evening.
        _close(meeting, user=user, now=now)
    return hand, True, result


def entered_meanwhile(meeting: Meeting, idempotency_key, payload: Any, error: IntegrityError):
    """The answer to an entry that a unique index refused (SQLite: a writer the lock did not
    catch), after its transaction was rolled back: the hand the same key entered a moment
    ago (created False), else HandConflict (someone else took the position or the number)."""
    earlier = _entered_before(meeting, idempotency_key, payload)
    if earlier is not None:
        return earlier, False, None
    raise HandConflict(meeting.hands.live().count()) from error


def change_hand(*, hand: Hand, payload: Any, user, version: int) -> Hand:
    """Correct a live hand that the writer saw at ``version``; everything after it is replayed."""
    return change_hand_replayed(hand=hand, payload=payload, user=user, version=version)[0]


@transaction.atomic
def change_hand_replayed(*, hand: Hand, payload: Any, user, version: int) -> tuple[Hand, dict[str, Any]]:
    """``change_hand``, returning the replay of the meeting with the correction too (for the
    API's answer, as ``enter_hand_replayed``)."""
    meeting = _lock(hand.meeting_id)
    hands, hand = hands_with(meeting, hand.pk)
    return change_locked_hand(
        meeting=meeting, hands=hands, hand=hand, seated=seats_of(meeting), payload=payload, user=user, version=version
    )


def change_locked_hand(
    *,
    meeting: Meeting,
    hands: list[Hand],
    hand: Hand,
    seated: list[_Seated],
    payload: Any,
    user,
    version: int,
    carried: tuple[str, ...] | None = None,
) -> tuple[Hand, dict[str, Any]]:
    """``change_hand_replayed`` for a writer that holds the meeting's lock already and read
    what the correction needs under it, in a transaction that rolls back if this raises (it
    may raise after writing: a later evening that would no longer add up): ``meeting`` from
    ``selectors.meeting_for_entry``, its live ``hands`` and the ``hand`` to correct as
    ``hands_with`` gives them (whole instances: the hand is saved and its history written),
    and its ``seated`` players. The meeting page's correction reads them once, under the lock,
    for its form and this write. ``carried``: ``carried_rounds_for(meeting)``, when
    the writer asked it already."""
    _refuse_if_closed(meeting)
    _check_version(hand, version)
    if hand.deleted_at is not None:
        raise InvalidInput(
            [{"hand": None, "field": "payload", "message": _("Restore this hand before correcting it.")}]
        )
    stored = meeting_request(meeting, payloads=[h.payload for h in hands], players=seated)
    payloads = [payload if h.pk == hand.pk else h.payload for h in hands]
    result, carried = _replayed(meeting, request={**stored, "hands": payloads}, carried=carried)
    # The evening as stored, when this process kept its replay: what it left open for later
    # evenings (a correction that leaves that as it was looks at none of them).
    before = _kept_replay_of(stored, carried)
    hand.payload = payload
    hand.version += 1
    hand._history_user = user
    hand.save(update_fields=["payload", "version", "changed_at"])
    write_results(meeting, [hand if h.pk == hand.pk else h for h in hands], result, carried=carried, seated=seated)
    if before is None or _queue_after(before) != _queue_after(result):
        replay_later_meetings(meeting, result)
    return hand, result


@transaction.atomic
def delete_hand(*, hand: Hand, user, version: int) -> Hand:
    """Mark a hand deleted (it stays in the history and can be restored); the hands after it
    move up one number. Deleting a hand the writer saw deleted already changes nothing."""
    meeting = _lock(hand.meeting_id)
    _refuse_if_closed(meeting)
    live, hand = hands_with(meeting, hand.pk)
    _check_version(hand, version)
    if hand.deleted_at is not None:
        return hand
    hands = [h for h in live if h.pk != hand.pk]
    seated = seats_of(meeting)
    result, carried = _replayed(meeting, payloads=[h.payload for h in hands], players=seated)
    hand.deleted_at = timezone.now()
    hand.number = None
    hand.version += 1
    hand._history_user = user
    hand.save()
    _renumber(hands)
    write_results(meeting, hands, result, carried=carried, seated=seated)
    replay_later_meetings(meeting, result)
    return hand


@transaction.atomic
def restore_hand(*, hand: Hand, user, version: int) -> Hand:
    """Bring a deleted hand back in its place; the hands after it move down one number.
    Restoring a hand the writer saw live already changes nothing."""
    meeting = _lock(hand.meeting_id)
    _refuse_if_closed(meeting)
    live, hand = hands_with(meeting, hand.pk)
    _check_version(hand, version)
    if hand.deleted_at is None:
        return hand
    hands = sorted(live + [hand], key=lambda h: h.position)
    seated = seats_of(meeting)
    result, carried = _replayed(meeting, payloads=[h.payload for h in hands], players=seated)
    _renumber(hands, skip=hand)
    hand.deleted_at = None
    hand.number = hands.index(hand) + 1
    hand.version += 1
    hand._history_user = user
    hand.save()
    write_results(meeting, hands, result, carried=carried, seated=seated)
    replay_later_meetings(meeting, result)
    return hand


# --- the offline outbox's choices ------------------------------------------------
# A hand entered without signal whose number another phone took meanwhile is never saved
# without the scorekeeper's choice: keep it as the next hand, let it replace theirs, or
# discard it. Each goes through the writes above (the entry, the correction with its version
# check) and leaves its mark on the hand's history record (``outbox_choices``), so that the
# evening's history says what was chosen and by whom.


def _mark_latest(hand: Hand, text: str) -> None:
    """Give the hand's newest history record (the one the write just made, in this
    transaction) the change reason ``text``."""
    latest = hand.history.order_by("-history_date", "-history_id").values_list("history_id", flat=True).first()
    Hand.history.filter(history_id=latest).update(history_change_reason=text)


def keep_offline_hand(
    *, meeting: Meeting, payload: Any, user, number: int, idempotency_key, entered_as: int, now=None
) -> tuple[Hand, bool, dict[str, Any] | None]:
    """Enter a hand kept as the next hand (``enter_hand_replayed``: ``number`` is the sheet's
    next one, HandConflict when that was taken too); its history says the number it was
    entered as. The same key again: the hand kept before, nothing written."""
    with transaction.atomic():
        hand, created, result = enter_hand_replayed(
            meeting=meeting, payload=payload, user=user, number=number, idempotency_key=idempotency_key, now=now
        )
        if created:
            _mark_latest(hand, outbox_choices.reason(choice=outbox_choices.KEEP, entered_as=entered_as))
    return hand, created, result


def _replaced_before(meeting: Meeting, idempotency_key, payload: Any) -> Hand | None:
    """The hand replaced earlier with ``idempotency_key`` (found by its history record), or
    None; IdempotencyKeyReused when that replacement had another payload."""
    record = (
        Hand.history.filter(
            meeting_id=meeting.pk, history_change_reason__endswith=outbox_choices.replaced_with_key(idempotency_key)
        )
        .order_by("-history_id")
        .first()
    )
    if record is None:
        return None
    hand = Hand.objects.get(pk=record.id)
    if not _same_json(record.payload, payload):
        raise IdempotencyKeyReused(hand)
    return hand


@transaction.atomic
def replace_hand_replayed(
    *, hand: Hand, payload: Any, user, version: int, idempotency_key, entered_as: int | None = None
) -> tuple[Hand, dict[str, Any] | None]:
    """A hand entered offline takes the place of ``hand`` (the one another phone stored
    under its number): a correction at the ``version`` the scorekeeper saw beside his own
    (``change_hand_replayed``: StaleHand when it changed since), every later figure replayed.
    ``idempotency_key`` is the waiting hand's: sent again, the hand as it is now and None for
    the replay, nothing written twice. Returns (hand, the replay of the meeting)."""
    meeting = _lock(hand.meeting_id)
    earlier = _replaced_before(meeting, idempotency_key, payload)
    if earlier is not None:
        return earlier, None
    entered = Hand.objects.filter(meeting=meeting, idempotency_key=idempotency_key).first()
    if entered is not None:
        # That hand is on the sheet already as a hand of its own: it cannot also replace one.
        raise IdempotencyKeyReused(entered)
    try:
        hand, result = change_hand_replayed(hand=hand, payload=payload, user=user, version=version)
    except StaleHand:
        # Two sends of one replacement at once: the first one's version check stops the
        # second (SQLite has no row lock); its record answers.
        earlier = _replaced_before(meeting, idempotency_key, payload)
        if earlier is None:
            raise
        return earlier, None
    reason = outbox_choices.reason(
        choice=outbox_choices.REPLACE, entered_as=entered_as or hand.number, key=idempotency_key
    )
    _mark_latest(hand, reason)
    return hand, result


def discard_offline_hand(
    *, meeting: Meeting, payload: Any, user, idempotency_key, entered_as: int, now=None
) -> tuple[Hand, bool]:
    """Discard a hand entered offline (the same game as the one another phone stored under
    its number): it is kept as a deleted hand (never on the sheet, restorable like any deleted
    hand), so the history shows what was thrown away, by whom, and the number it was entered
    as. Nothing is replayed: no live hand changes. The same key again: that hand, nothing
    written (created False)."""
    try:
        with transaction.atomic():
            meeting = _lock(meeting.pk)
            earlier = Hand.objects.filter(meeting=meeting, idempotency_key=idempotency_key).first()
            if earlier is not None:
                if earlier.deleted_at is None:
                    raise IdempotencyKeyReused(earlier)  # on the sheet: not discarded
                return earlier, False
            last = meeting.hands.order_by("-position").values_list("position", flat=True).first() or 0
            hand = Hand(
                meeting=meeting,
                position=last + 1,
                number=None,
                deleted_at=now or timezone.now(),
                payload=payload,
                entered_by=user,
                idempotency_key=idempotency_key,
            )
            hand._history_user = user
            hand._change_reason = outbox_choices.reason(choice=outbox_choices.DISCARD, entered_as=entered_as)
            hand.save()
            return hand, True
    except IntegrityError:
        # The same discard sent twice at once (SQLite): the first one stored it.
        earlier = Hand.objects.filter(meeting=meeting, idempotency_key=idempotency_key).first()
        if earlier is None:
            raise
        return earlier, False


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


def _replay_of(
    meeting: Meeting, hands: list[Hand], *, players: list[Player] | None = None, carried: tuple[str, ...] | None = None
) -> dict[str, Any]:
    return calculate_meeting(meeting, payloads=[h.payload for h in hands], players=players, carried=carried)


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


def evening_over(meeting: Meeting, result: dict[str, Any] | None, *, now=None) -> bool:
    """No further hand: the meeting is closed, or its last round is done and no admin has
    reopened it since."""
    if meeting.closed_at is not None:
        return True
    if result is None or not last_round_done(meeting, result, now=now):
        return False
    return not meeting.reopenings.exists()


def can_close(meeting: Meeting, result: dict[str, Any] | None, *, now=None) -> bool:
    """Whether "End the evening" may be used: open, and at a round's end (Doppelkopf: the last
    seat dealt the round's last game; race games: after any stored hand), whatever the end
    time; a reopened evening also mid-round once its end time has passed."""
    if meeting.closed_at is not None or result is None:
        return False
    if has_rounds(result):
        if round_complete(meeting, result):
            return True
        # An evening an admin reopened to correct it (it may have been closed mid-round, when
        # the next season started) closes by the button once the end time has passed; asked
        # last, so that an evening in progress costs no query for it.
        return end_time_passed(meeting, now) and bool(result.get("hands")) and meeting.reopenings.exists()
    # Race games: the button closes the evening once a hand is stored.
    return round_complete(meeting, result)


def _refuse_if_closed(meeting: Meeting) -> None:
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


def _close(meeting: Meeting, *, user, now=None) -> None:
    meeting.closed_at = now or timezone.now()
    meeting.closed_by = user
    meeting.save(update_fields=["closed_at", "closed_by"])
    # The last evening of a complete season closes the season too. Done after this
    # transaction, in one of its own, so that a writer never holds a meeting's lock while it
    # waits for its season's (lock_season takes the season's, then its meetings').
    season_id, closed_at = meeting.season_id, meeting.closed_at
    transaction.on_commit(lambda: lock_season_if_done(season_id=season_id, user=user, now=closed_at))


@transaction.atomic
def close_meeting(*, meeting: Meeting, user, now=None) -> Meeting:
    """End the evening ("End the evening"): refused while a round is still to be played."""
    meeting = _lock(meeting.pk)
    if meeting.closed_at is not None:
        return meeting
    result = _replay_of(meeting, _live_hands(meeting))
    problem = close_problem(meeting, result, now=now)
    if problem:
        raise MeetingClosed(problem)
    _close(meeting, user=user, now=now)
    return meeting


def close_problem(meeting: Meeting, result: dict[str, Any] | None, *, now=None) -> str:
    """Why "End the evening" cannot be used now ("" when it can): the round is not finished,
    or no hand was played."""
    if can_close(meeting, result, now=now):
        return ""
    if meeting.closed_at is not None:
        return _("This evening is closed: its hands can no longer be changed. An admin can reopen it.")
    if result is not None and has_rounds(result) and result.get("hands"):
        return _("The round is not finished yet: the player before the host deals its last game.")
    return _("No hand has been played tonight yet.")


@transaction.atomic
def set_end_time(*, meeting: Meeting, end_time: datetime.time | None) -> Meeting:
    """Set, change or clear (None) the end time of an open evening. One that has passed with
    the round complete makes the evening over (no further hand; "End the evening" closes it);
    one in the future, or none, lets it go on. Refused once the evening is closed."""
    meeting = _lock(meeting.pk)
    if meeting.closed_at is not None:
        raise MeetingClosed(_("This evening is closed: its end time can no longer be changed. An admin can reopen it."))
    if meeting.imported_totals:
        raise MeetingClosed(_("This evening was copied from paper as totals: it has no end time to change."))
    meeting.end_time = end_time
    meeting.save(update_fields=["end_time"])
    return meeting


REASON_MAX = 500


@transaction.atomic
def reopen_meeting(*, meeting: Meeting, user, reason: str, now=None) -> MeetingReopening:
    """An admin reopens a closed meeting; the reason, who and when are kept (the history page
    shows them). Later meetings are replayed after each change, as always."""
    meeting = _lock(meeting.pk)
    reason = _reason(reason, required=_("Say why the evening is reopened."))
    if meeting.closed_at is None:
        raise _error("meeting", _("This evening is not closed."))
    if Season.objects.filter(pk=meeting.season_id, locked_at__isnull=False).exists():
        raise _error(
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
    meeting.save(update_fields=["closed_at", "closed_by", "closed_by_name"])
    return reopening


def _reason(reason: str, *, required: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise _error("reason", required)
    if len(reason) > REASON_MAX:
        raise _error("reason", _("At most %(max)s characters.") % {"max": REASON_MAX})
    return reason


# --- the end of a season ----------------------------------------------------------------------
# A season is complete when everyone has hosted (``closed_on``, set when the last host's
# meeting starts) and closed (``locked_at``) when its last evening ends, when its bill is
# stored, or when the next season starts, whichever comes first. Closing it closes its
# evenings: from then on no hand of it changes, so neither do its standings nor its bill. An
# admin can reopen it with a reason (kept), and then reopen the evening to correct; the bill
# page then shows the stored bill beside the split by the new standings until a new one is
# stored. Lock order everywhere: league, season, meeting.


def _lock_season_row(season_id: int) -> Season:
    return Season.objects.select_for_update().select_related("league").get(pk=season_id)


def _lock_season(season: Season, *, user, now) -> None:
    season.locked_at = now
    season.locked_by = user
    season.save(update_fields=["locked_at", "locked_by"])
    # Only the evenings still open are written: a closed one keeps who closed it and when.
    Meeting.objects.filter(season=season, closed_at=None).update(closed_at=now, closed_by=user)


@transaction.atomic
def close_season(*, season: Season, user, now=None) -> Season:
    """Close a complete season now (an admin's "Close the season"), with its open evenings."""
    season = _lock_season_row(season.pk)
    if season.locked_at is not None:
        return season
    if season.closed_on is None:
        raise _error("season", _("This season is still running: it ends when everyone has hosted."))
    _lock_season(season, user=user, now=now or timezone.now())
    return season


@transaction.atomic
def lock_season_if_done(*, season_id: int, user, now=None) -> bool:
    """Close the season when it is complete and every evening of it is closed (the last
    evening just ended). An admin's reopening keeps it open until its evenings are closed
    again. Returns whether it closed the season now."""
    season = _lock_season_row(season_id)
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
    season = _lock_season_row(season.pk)
    reason = _reason(reason, required=_("Say why the season is reopened."))
    if season.locked_at is None:
        raise _error("season", _("This season is not closed."))
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


class MidRound(InvalidInput):
    """The bill is not saved: an evening of the season is in the middle of a round, and
    saving the bill would end it there."""


class SplitChanged(InvalidInput):
    """The bill is not saved: the split it would store is not the split that was shown
    (the standings changed since, or none was shown)."""


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


def bill_digest(scores: dict[str, int], result: dict[str, Any]) -> str:
    """A short digest of what a split shows: the standings it is split by, in order, and
    split_bill's answer (the total, the rate, the shares, who pays whom). The bill page sends
    it back with "Save", so that what is stored is the split that was shown."""
    shown = {
        "scores": list(scores.items()),
        "total": result["total"],
        "rate": result.get("rate"),
        "shares": result["shares"],
        "transfers": result.get("transfers") or [],
    }
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:24]


def _refuse_mid_round(season: Season) -> None:
    """MidRound when an open evening of ``season`` is in the middle of a round (taken in the
    lock order: the season's is held, then each meeting's). An evening an admin reopened to
    correct is not being played: it is no obstacle."""
    problems = []
    for meeting_id in season.meetings.filter(closed_at=None).order_by("date", "id").values_list("pk", flat=True):
        meeting = _lock(meeting_id)
        try:
            result = _replay_of(meeting, _live_hands(meeting))
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

    ``bill`` is a split_bill request without its scores (calculate-api.md: total, method,
    cents_per_point, tip_percent, paid_by or paid); the scores are the season's standings,
    read here under the locks of the season and its open evenings. ``seen``: the
    ``bill_digest`` of the split the page showed; SplitChanged when this split is another
    (None: not asked). MidRound while an open evening is in the middle of a round. A bill
    stored before is kept, marked replaced.
    """
    season = _lock_season_row(season.pk)
    if season.closed_on is None:
        raise _error("season", _("This season is still running: its bill is split when everyone has hosted."))
    if season.locked_at is None:
        # Its open evenings are locked (and refused mid-round) before the standings are read:
        # a hand written meanwhile is in them, and none can be written until the bill is stored.
        _refuse_mid_round(season)
    scores = selectors.season_scores(season=season)
    try:
        result = split_bill({**bill, "scores": scores})
    except ScoringError as error:
        raise InvalidInput(problems_as_errors(error)) from error
    if seen is not None and seen != bill_digest(scores, result):
        raise SplitChanged([{"hand": None, "field": "seen", "message": _("This is not the split that was shown.")}])
    return _store_bill(season, bill, result, scores, user=user, now=now or timezone.now())


def _store_bill(season: Season, bill: dict[str, Any], result, scores, *, user, now) -> SeasonBill:
    players = {p.name: p for p in season.league.players.all()}
    # Who paid what; those who paid nothing are left out.
    paid = {name: amount for name, amount in (bill.get("paid") or {}).items() if Decimal(amount)} or None
    if bill.get("paid_by"):
        paid = {bill["paid_by"]: result["total"]}
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
        rate=_decimal_or_none(result.get("rate")),
        shares=result["shares"],
        transfers=result.get("transfers") or [],
        scores=[[name, score] for name, score in scores.items()],
        chooser=players.get(result["chooses_restaurant"]),
        settled_by=user,
        settled_at=now,
    )
    if season.locked_at is None:
        _lock_season(season, user=user, now=now)
    return stored


def stored_bill_request(bill: SeasonBill) -> dict[str, Any]:
    """The split_bill request of a stored bill without its scores: to split it again by
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
    return request


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

    def key(row):
        return (row["hand_id"], row["player_id"])

    fresh = {
        (r.hand_id, r.player_id): {f: getattr(r, f) for f in RESULT_FIGURES}
        for r in result_rows(meeting, hands, result)
    }
    stored = {
        key(row): {f: row[f] for f in RESULT_FIGURES}
        for row in HandResult.objects.filter(meeting=meeting).values("hand_id", "player_id", *RESULT_FIGURES)
    }
    problems = []
    for hand_id, player_id in sorted(set(fresh) | set(stored)):
        who = names.get(player_id, f"player {player_id}")
        cached, replayed = stored.get((hand_id, player_id)), fresh.get((hand_id, player_id))
        if cached is None:
            problems.append(f"hand id {hand_id}, {who}: no cached row")
        elif replayed is None:
            problems.append(f"hand id {hand_id}, {who}: a cached row the replay does not have")
        else:
            problems += [
                f"hand id {hand_id}, {who}: {field} cached {cached[field]!r}, replayed {replayed[field]!r}"
                for field in RESULT_FIGURES
                if cached[field] != replayed[field]
            ]
    if not problems:
        return None
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return problems[0] + more


def _cache_difference(
    meeting: Meeting, hands: list[Hand], result: dict[str, Any], carried: tuple[str, ...]
) -> str | None:
    """How ``meeting``'s MeetingResult rows and MeetingCarry differ from ``result``, or None.
    A meeting without a MeetingCarry yet is fine (carried_rounds_for fills it when needed)."""
    names = {p.pk: p.name for p in seated_players(meeting)}
    seat_order = dict(Seat.objects.filter(meeting=meeting).values_list("player_id", "position"))
    fresh = {
        r.player_id: {f: getattr(r, f) for f in MEETING_FIGURES}
        for r in meeting_result_rows(meeting, result_rows(meeting, hands, result), seat_order=seat_order)
    }
    stored = {
        row["player_id"]: {f: row[f] for f in MEETING_FIGURES}
        for row in MeetingResult.objects.filter(meeting=meeting).values("player_id", *MEETING_FIGURES)
    }
    if meeting.imported_totals:  # its rows are the totals copied from paper: nothing to sum
        fresh = stored
    problems = []
    for player_id in sorted(set(fresh) | set(stored)):
        who = names.get(player_id, f"player {player_id}")
        cached, replayed = stored.get(player_id), fresh.get(player_id)
        if cached is None:
            problems.append(f"{who}: no cached meeting result")
        elif replayed is None:
            problems.append(f"{who}: a cached meeting result the replay does not have")
        else:
            problems += [
                f"{who}: meeting {field} cached {cached[field]!r}, replayed {replayed[field]!r}"
                for field in MEETING_FIGURES
                if cached[field] != replayed[field]
            ]
    carry = MeetingCarry.objects.filter(meeting=meeting).first()
    if carry is not None:
        expected = {
            "carried_in": list(carried),
            "queue_after": list(_queue_after(result)),
            "hands_digest": hands_digest([h.payload for h in hands]),
        }
        problems += [
            f"carried rounds: {field} cached {getattr(carry, field)!r}, replayed {value!r}"
            for field, value in expected.items()
            if getattr(carry, field) != value
        ]
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
        for meeting_id in list(meeting_ids):
            checked += 1
            try:
                with transaction.atomic():
                    queue = _verify_meeting(meeting_id, queue, problems, rebuild=rebuild)
            # Whatever one meeting raises (a row that does not read, rules of the wrong shape,
            # a write the database refuses) is that meeting's problem, not the whole check's.
            except Exception as error:  # noqa: BLE001
                stand_in = Meeting(pk=meeting_id, league=League(pk=league_id, slug=slug), date=None)
                problems.append(ReplayProblem(stand_in, "error", _error_line(error)))
                queue = None
    return checked, problems


def _error_line(error: Exception) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"[:500]


def _verify_meeting(
    meeting_id: int, queue: tuple[str, ...] | None, problems: list[ReplayProblem], *, rebuild: bool
) -> tuple[str, ...] | None:
    """Check (and with ``rebuild`` mend) one meeting given the rounds carried into it;
    returns the rounds it hands on (None when it no longer replays)."""
    meeting = Meeting.objects.select_related("league", "season").get(pk=meeting_id)
    carries = _carries(meeting)
    if carries and queue is None:
        problems.append(ReplayProblem(meeting, "broken", "the evening before it no longer replays"))
        return None
    hands = _live_hands(meeting)
    given = queue if carries else ()
    try:
        result = calculate_meeting(meeting, payloads=[h.payload for h in hands], carried=given)
    except InvalidInput as error:
        problems.append(ReplayProblem(meeting, "broken", "; ".join(e["message"] for e in error.errors)))
        return None
    numbers = _number_problem(hands)
    if numbers:
        problems.append(ReplayProblem(meeting, "numbers", numbers))
    difference = _result_difference(meeting, hands, result) or _cache_difference(meeting, hands, result, given)
    if difference:
        if rebuild:
            with transaction.atomic():
                _lock(meeting.pk)
                write_results(meeting, hands, result, carried=given)
        problems.append(ReplayProblem(meeting, "differs", difference))
    return _queue_after(result)


# --- seasons and meetings -------------------------------------------------------------------


# ``start_meeting``'s default: the meeting follows the league's current season.
CURRENT_SEASON = object()


def current_season(league: League) -> Season | None:
    return league.seasons.order_by("-number").first()


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
    leagues/paper_import.py: None before its first season).
    """
    problem = meeting_date_problem(date)
    if problem:
        raise _error("date", problem)
    league = League.objects.select_for_update().get(pk=league.pk)
    season = current_season(league) if after is CURRENT_SEASON else after
    if season is None:
        season = Season.objects.create(league=league, number=1, started_on=date)
    elif season.closed_on is not None or season.everyone_hosted():
        previous = season
        season = Season.objects.create(league=league, number=season.number + 1, started_on=date)
        _close_previous(previous, user=user)
    errors = _table_problems(league, players)
    if errors:
        raise InvalidInput(errors)
    meeting = Meeting.objects.create(
        league=league,
        season=season,
        date=date,
        host=players[0],
        end_time=end_time,
        pennant_holder=pennant_holder,
        pennant_forgotten=pennant_forgotten,
        game=league.game,
        variant=league.variant,
        rules=resolved_rules(game=league.game, variant=league.variant, overrides=league.rule_overrides),
        teams=teams,
        start_totals=start_totals,
        created_by=user,
    )
    Seat.objects.bulk_create(Seat(meeting=meeting, player=p, position=i) for i, p in enumerate(players))
    # Check the sitting itself (teams, start totals) the way a replay will see it.
    calculate_meeting(meeting, payloads=[])
    if season.everyone_hosted():
        # The last host of the season has hosted: the season closes with this meeting, and
        # its bill can be split; the next meeting opens the next season.
        season.closed_on = date
        season.save(update_fields=["closed_on"])
    return meeting


def _table_problems(league: League, players: list[Player]) -> list[dict[str, Any]]:
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


def close_followed_season(*, season: Season, user) -> None:
    """``season`` is followed by another already (the league's, after a paper season imported
    in front of it): closed as when the next season starts."""
    _close_previous(season, user=user)


def _close_previous(season: Season, *, user) -> None:
    """The next season has started: the one before it is closed now, its last evening too
    (a race game's evening ends by a button a club may never have pressed)."""
    season = _lock_season_row(season.pk)
    if season.closed_on is None:
        last = season.meetings.order_by("-date").values_list("date", flat=True).first()
        season.closed_on = last or season.started_on
        season.save(update_fields=["closed_on"])
    if season.locked_at is None:
        _lock_season(season, user=user, now=timezone.now())


# --- members, players, invites (league admin) -----------------------------------------------


def _error(field: str, message: str) -> InvalidInput:
    return InvalidInput([{"hand": None, "field": field, "message": message}])


@transaction.atomic
def change_role(*, membership: Membership, role: str) -> Membership:
    """Give a member another role; a league always keeps at least one admin."""
    if role not in Role.values:
        raise _error("role", _("Unknown role."))
    league = League.objects.select_for_update().get(pk=membership.league_id)
    if membership.role == Role.ADMIN and role != Role.ADMIN:
        admins = league.memberships.filter(role=Role.ADMIN).exclude(pk=membership.pk)
        if not admins.exists():
            raise _error("role", _("A league needs at least one admin: make someone else admin first."))
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_member(*, membership: Membership, by) -> None:
    """Take a member out of the league: the membership goes, his account loses access at once
    (every page and API call looks the membership up afresh). His player and every hand stay:
    the player is only unlinked from the account, so the name stays on the sheets and
    standings, and a later invite can link the player to an account again.

    ``by`` (the user acting) must still be an admin of the league when the lock is held, so that
    two admins removing each other at once cannot both succeed. A league always keeps at least
    one admin, so an admin may remove himself only while another admin remains.
    """
    league = League.objects.select_for_update().get(pk=membership.league_id)
    # Re-read under the league's lock: the member may have been removed or demoted a moment ago.
    membership = Membership.objects.filter(pk=membership.pk, league=league).first()
    if membership is None:
        raise _error("member", _("This person is no longer a member of the league."))
    acting = Membership.objects.filter(league=league, user=by).first() if by.is_authenticated else None
    if not by.is_superuser and (acting is None or not acting.allows(Role.ADMIN)):
        raise _error("member", _("Only an admin of the league can remove members."))
    if membership.role == Role.ADMIN:
        admins = league.memberships.filter(role=Role.ADMIN).exclude(pk=membership.pk)
        if not admins.exists():
            raise _error("member", _("A league needs at least one admin: make someone else admin first."))
    league.players.filter(user_id=membership.user_id).update(user=None)
    membership.delete()


@transaction.atomic
def link_own_player(*, league: League, user, player_id: int | None) -> Player | None:
    """``user`` says whom he plays as in ``league`` (the importer of a league, whose players
    came from the file): his account is linked to that player, or to none (``player_id``
    None: he does not play). Refused when he plays as someone already, or when the player is
    not one of the league's or has an account of his own. The same player chosen again (the
    form sent twice) is the link made: nothing changes."""
    league = _lock_league(league)
    own = league.players.filter(user=user).first()
    if own is not None and player_id is not None and own.pk == player_id:
        return own
    if own is not None:
        raise _error("player", _("You already play as a player of this league."))
    if player_id is None:
        return None
    player = league.players.filter(pk=player_id, user=None).first()
    if player is None:
        raise _error("player", _("Choose a player of this league who has no account yet."))
    player.user = user
    player.save(update_fields=["user"])
    return player


def new_player_name(*, league: League, name: str, field: str) -> str:
    """``name`` cleaned (leagues/names.py) for a new player of ``league``; InvalidInput on
    ``field`` when it is refused or too alike an existing player's, whom it names.

    Called with the league locked (``_lock_league``), so two phones adding "Anna" and a
    Cyrillic "Аnna" at once cannot both pass: the unique constraint only sees exact names."""
    try:
        return names.check_new_name(name, league.players.values_list("name", flat=True))
    except names.NameProblem as problem:
        raise _error(field, problem.message) from problem


def _lock_league(league: League) -> League:
    return League.objects.select_for_update().get(pk=league.pk)


@transaction.atomic
def add_player(*, league: League, name: str) -> Player:
    league = _lock_league(league)
    name = new_player_name(league=league, name=name, field="name")
    try:
        with transaction.atomic():
            return Player.objects.create(league=league, name=name)
    except IntegrityError as error:  # someone added the same name a moment ago (SQLite)
        raise _error("name", _("This league already has a player of that name.")) from error


def create_invite(*, league: League, role: str, player: Player | None, user) -> Invite:
    if role not in Role.values:
        raise _error("role", _("Unknown role."))
    if player is not None and (player.league_id != league.pk or player.user_id is not None):
        raise _error("player", _("Choose a player of this league who has no account yet."))
    return Invite.objects.create(league=league, role=role, player=player, created_by=user)


def revoke_invite(*, invite: Invite) -> Invite:
    """Withdraw an unused invite. A revoked invite is marked used by nobody (used_at set,
    used_by empty), which keeps the record of it without a schema change."""
    if invite.used_at is None:
        invite.used_at = timezone.now()
        invite.used_by = None
        invite.save(update_fields=["used_at", "used_by"])
    return invite


class InviteUnusable(Exception):
    """An invite that cannot be used; ``reason`` is one of REASONS."""

    REASONS = ("expired", "used", "revoked", "wrong_league", "player_taken")

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def invite_problem(invite: Invite) -> str | None:
    """Why ``invite`` cannot be used now, or None (Invite.problem)."""
    return invite.problem()


@transaction.atomic
def accept_invite(*, invite: Invite, user, display_name: str = "") -> Membership:
    """Join ``invite``'s league with the role it names, and use the invite up.

    Someone who is already a member keeps the higher of his role and the invite's (an invite
    never demotes anyone). He keeps his player if he has one in the league; otherwise he
    becomes the invite's player, or a new player called ``display_name``.
    """
    # Lock the invite row only: PostgreSQL cannot lock the nullable side of the player join.
    invite = Invite.objects.select_for_update(of=("self",)).select_related("player").get(pk=invite.pk)
    problem = invite_problem(invite)
    if problem:
        raise InviteUnusable(problem)
    league = _lock_league(invite.league)  # new players of one league are named one at a time
    membership = Membership.objects.filter(league=league, user=user).first()
    if membership is None:
        membership = Membership.objects.create(league=league, user=user, role=invite.role)
    elif ROLE_RANK[invite.role] > ROLE_RANK[membership.role]:
        membership.role = invite.role
        membership.save(update_fields=["role"])
    if not league.players.filter(user=user).exists():
        if invite.player is not None:
            invite.player.user = user
            invite.player.save(update_fields=["user"])
        else:
            name = display_name or user.get_short_name() or user.get_username()
            name = new_player_name(league=league, name=name, field="display_name")
            Player.objects.create(league=league, name=name, user=user)
    invite.used_at = timezone.now()
    invite.used_by = user
    invite.save(update_fields=["used_at", "used_by"])
    return membership


@transaction.atomic
def sign_up_by_invite(*, invite: Invite, username: str, password: str, display_name: str, email: str = ""):
    """A new account that joins through ``invite``; nothing is kept if joining fails."""
    from django.contrib.auth import get_user_model

    try:
        display_name = names.clean_name(display_name)  # the account keeps the name as the player's
    except names.NameProblem as problem:
        raise _error("display_name", problem.message) from problem
    user = get_user_model().objects.create_user(
        username=username, email=email, password=password, first_name=display_name
    )
    accept_invite(invite=invite, user=user, display_name=display_name)
    return user


# --- league settings (admin) ----------------------------------------------------------------


def set_public_link(*, league: League, enabled: bool) -> League:
    """Create (a fresh token each time) or revoke the public read-only link."""
    league.public_token = new_token() if enabled else None
    league.save(update_fields=["public_token"])
    return league


def change_rules(*, league: League, variant: str, rule_overrides: dict) -> League:
    """New house rules; meetings already started keep the rules they copied."""
    resolved_rules(game=league.game, variant=variant, overrides=rule_overrides)
    league.variant = variant
    league.rule_overrides = rule_overrides
    league.save(update_fields=["variant", "rule_overrides"])
    return league
