"""The figures a replay leaves in the database: per hand (HandResult), per evening
(MeetingResult) and what an evening leaves open (MeetingCarry).

Derived, never edited: each write replaces only the rows the replay decided differently.
"""

from __future__ import annotations

from collections import defaultdict, namedtuple
from typing import Any

from django.db import transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from leagues import games, ranking
from leagues.cashbox import open_mark
from leagues.exceptions import InvalidInput, _error
from leagues.models import (
    Hand,
    HandResult,
    Meeting,
    MeetingCarry,
    MeetingResult,
    Seat,
)
from leagues.table.replay import (
    _carries,
    _live_hands,
    _played_after,
    _queue_after,
    _replayed,
    calculate_meeting,
    carried_rounds_for,
    hands_digest,
    party_members,
)
from leagues.table.selectors import Seated, seats_of


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
    winner = ranking.evening_winner(sums, seat_order, race=False)
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
Figures = namedtuple("Figures", ("player_id", *RESULT_FIGURES))


def figure_rows(payloads: list[Any], result: dict[str, Any], *, players: list) -> list[Figures]:
    """The HandResult figures of a replay of a meeting's live hands (``payloads``), unsaved and
    without their hands, in the replay's order (``players``: its seated players, anything with
    their pk and name): what a reader that stores no result sums (``meeting_sums``)."""
    return [
        Figures(player.pk, **figures) for _hand, player, figures in _result_figures(payloads, result, players=players)
    ]


def write_results(
    meeting: Meeting,
    hands: list[Hand],
    result: dict[str, Any],
    *,
    carried: tuple[str, ...] | None = None,
    seated: list[Seated] | None = None,
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
        rows = [Figures(player_id, **figures) for (_hand, player_id), figures in wanted.items()]
        race = games.is_race_game(meeting.game)
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
    if meeting.money_rules and meeting.closed_at:
        open_mark.keep_mark(meeting)  # a closed evening's rewritten results may open what it leaves to pay
    elif meeting.money_rules:
        open_mark.set_mark(meeting, still_open=True)


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
    created, changed, fields = _compared(stored, wanted, figures=figures, build=build)
    if stored:  # rows of hands deleted since, or of players no longer in a hand
        stored_rows.filter(pk__in=[pk for pk, _values in stored.values()]).delete()
    if changed:
        stored_rows.model.objects.bulk_update(changed, [name for name in figures if name in fields])
    if created:
        stored_rows.model.objects.bulk_create(created)


def _compared(stored, wanted, *, figures, build):
    """The rows to insert, the rows to update and the figures that changed in them; each
    wanted key is taken out of ``stored``, so that what is left there is to delete."""
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
    return created, changed, fields


# The figures of a MeetingResult row, all decided by the meeting's HandResult rows.
MEETING_FIGURES = ("total", "games", "wins", "solos", "solos_won", "games_won", "points", "hands", "won_evening")


def meeting_sums(rows, *, race: bool, seat_order: dict[int, int]) -> dict[int, dict[str, Any]]:
    """A meeting's HandResult ``rows`` summed per player: {player id: MEETING_FIGURES}, the
    same sums the standings made of HandResult before. Pure, so that the data
    migration that fills MeetingResult uses it too.

    Race games' points: the sum of deltas plus each reset, the final score of a game that
    ended at a hand (any player's games_won) followed by another hand of that player. The
    evening's winner is the standings' (``selectors.evening_winner``)."""
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
    if race:
        _add_race_points(sums, rows)
    winner = ranking.evening_winner(sums, seat_order, race=race)
    if winner is not None:
        sums[winner]["won_evening"] = True
    return sums


def _add_race_points(sums: dict[int, dict[str, Any]], rows) -> None:
    """A race game's points: each player's deltas plus, for every game that ended at a hand
    he played on after, that game's final score (his total before the reset to 0)."""
    ended = {r.number for r in rows if r.games_won}
    present = {(r.player_id, r.number) for r in rows}
    for r in rows:
        if r.number in ended and (r.player_id, r.number + 1) in present:
            sums[r.player_id]["points"] += r.total
    for m in sums.values():
        m["points"] += m["total"]


def meeting_result_rows(meeting: Meeting, rows: list[HandResult], *, seat_order: dict[int, int]) -> list[MeetingResult]:
    """The MeetingResult rows (unsaved) that sum a meeting's HandResult ``rows``, one per
    player with a row."""
    sums = meeting_sums(rows, race=games.is_race_game(meeting.game), seat_order=seat_order)
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
