"""The figures a replay leaves in the database: per hand (HandResult), per evening
(MeetingResult) and what an evening leaves open (MeetingCarry).

Derived, never edited: each write replaces only the rows the replay decided differently.
"""

from __future__ import annotations

from collections import defaultdict, namedtuple
from operator import itemgetter
from typing import Any

from django.db import transaction

from leagues import games, ranking
from leagues.cashbox import open_mark
from leagues.models import (
    Hand,
    HandResult,
    Meeting,
    MeetingCarry,
    MeetingResult,
    Seat,
)
from leagues.table import night_winner
from leagues.table.replay import (
    calculate_with_given,
    carried_rounds_for,
    carries_rounds,
    hands_digest,
    outgoing_queue,
    party_members,
)
from leagues.table.selectors import Seated, seats_of


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
    wanted = wanted_hand_rows(hands, result, seated=seated)
    _sync_rows(
        HandResult.objects.filter(meeting=meeting),
        wanted,
        key_fields=HAND_KEY,
        figures=RESULT_FIGURES,
        build=hand_row_builder(meeting),
    )
    if not meeting.imported_totals:  # those rows are the totals copied from paper, no sums
        _sync_rows(
            MeetingResult.objects.filter(meeting=meeting),
            wanted_meeting_rows(meeting, wanted, seated=seated),
            key_fields=MEETING_KEY,
            figures=meeting_figures(meeting),
            build=meeting_row_builder(meeting),
        )
    if meeting.club_night_id is not None and meeting.closed_at is not None:
        night_winner.keep_night_winner(meeting)  # a closed table's figures may change the night's winner
    if carried is None:
        carried = carried_rounds_for(meeting)
    write_carry(
        meeting,
        carried=carried if carries_rounds(meeting) else (),
        queue_after=outgoing_queue(result),
        digest=hands_digest([h.payload for h in hands]),
    )
    if meeting.money_rules and meeting.closed_at:
        open_mark.keep_mark(meeting)  # a closed evening's rewritten results may open what it leaves to pay
    elif meeting.money_rules:
        open_mark.set_mark(meeting, still_open=True)


# The keys of the derived rows within a meeting.
HAND_KEY, MEETING_KEY = ("hand_id", "player_id"), ("player_id",)


def wanted_hand_rows(hands, result: dict[str, Any], *, seated) -> dict[tuple[int, int], dict[str, Any]]:
    """{(hand id, player id): figures} of the HandResult rows a replay of a meeting's live
    ``hands`` (anything with their pk) decides; ``seated``: its players (``seats_of``)."""
    return {(hand.pk, player.pk): figures for hand, player, figures in _result_figures(hands, result, players=seated)}


def wanted_meeting_rows(meeting: Meeting, wanted_hands, *, seated) -> dict[tuple[int], dict[str, Any]]:
    """{(player id,): figures} of the MeetingResult rows that sum ``wanted_hands``
    (``wanted_hand_rows``)."""
    rows = [Figures(player_id, **figures) for (_hand, player_id), figures in wanted_hands.items()]
    race = games.is_race_game(meeting.game)
    seat_order = {player.pk: player.position for player in seated}
    sums = meeting_sums(rows, race=race, seat_order=seat_order, winner=meeting.club_night_id is None)
    return {(player_id,): figures for player_id, figures in sums.items()}


def hand_row_builder(meeting: Meeting):
    """``build(key, figures)``: the unsaved HandResult row of a key of ``wanted_hand_rows``."""

    def build(key, figures):
        return HandResult(
            meeting_id=meeting.pk,
            season_id=meeting.season_id,
            league_id=meeting.league_id,
            hand_id=key[0],
            player_id=key[1],
            **figures,
        )

    return build


def meeting_row_builder(meeting: Meeting):
    """``build(key, figures)``: the unsaved MeetingResult row of a key of ``wanted_meeting_rows``."""

    def build(key, figures):
        return MeetingResult(
            meeting_id=meeting.pk, season_id=meeting.season_id, league_id=meeting.league_id, player_id=key[0], **figures
        )

    return build


def stored_rows_by_key(rows, *, width: int) -> dict[tuple, tuple[int, tuple]]:
    """{key: (pk, figures)} of ``rows`` read as (*key, pk, *figures) (``width``: the key's
    length), what ``compared`` takes."""
    return {values[:width]: (values[width], values[width + 1 :]) for values in rows}


def _sync_rows(stored_rows, wanted, *, key_fields, figures, build) -> None:
    """Make the rows of ``stored_rows`` (a queryset) equal ``wanted`` ({key: {figure:
    value}}, the key the values of ``key_fields``), writing only what differs: new rows
    inserted, changed ones updated in the figures that changed, rows no longer wanted
    deleted. ``build(key, figures)`` makes the unsaved row of a key."""
    stored = stored_rows_by_key(stored_rows.order_by().values_list(*key_fields, "pk", *figures), width=len(key_fields))
    created, changed, fields = compared(stored, wanted, figures=figures, build=build)
    # What is left in ``stored``: rows of hands deleted since, or of players no longer in a hand.
    write_rows(
        stored_rows.model,
        created=created,
        changed=changed,
        fields=[name for name in figures if name in fields],
        stale=[pk for pk, _values in stored.values()],
    )


# The unique constraint that finds a derived row again: one per hand and player, one per
# meeting and player.
UNIQUE_ROW = {HandResult: ("hand", "player"), MeetingResult: ("meeting", "player")}


def write_rows(model, *, created: list, changed: list, fields: list[str], stale: list[int]) -> None:
    """Write what ``compared`` found: the ``stale`` rows (their pks) deleted, then the
    ``created`` and ``changed`` ones in one statement, an upsert on the model's unique row
    (``UNIQUE_ROW``) that sets only ``fields`` in the rows it finds, so that a changed row
    keeps its id; a plain insert when none changed. (An UPDATE of many rows would be a CASE
    per field and row, which Django builds expression by expression.)"""
    if stale:
        model.objects.filter(pk__in=stale).delete()
    if changed:
        model.objects.bulk_create(
            created + changed,
            update_conflicts=True,
            unique_fields=UNIQUE_ROW[model],
            update_fields=fields,
        )
    elif created:
        model.objects.bulk_create(created)


def compared(stored, wanted, *, figures, build):
    """The rows to insert, the rows to update and the figures that changed in them; each
    wanted key is taken out of ``stored``, so that what is left there is to delete."""
    created, changed, fields = [], [], set()
    values_of = itemgetter(*figures)
    for key, new in wanted.items():
        old = stored.pop(key, None)
        if old is None:
            created.append(build(key, new))
            continue
        _pk, old_values = old
        if values_of(new) == old_values:
            continue  # most rows of a long chain: compared at C speed, nothing built
        differ = [name for name, value in zip(figures, old_values, strict=True) if new[name] != value]
        if differ:
            changed.append(build(key, new))  # found by its key, so it keeps ``pk``
            fields.update(differ)
    return created, changed, fields


# The figures of a MeetingResult row, all decided by the meeting's HandResult rows; at a table
# of a club night all but ``won_evening``, which the night decides (``night_winner``).
MEETING_FIGURES = ("total", "games", "wins", "solos", "solos_won", "games_won", "points", "hands", "won_evening")
NIGHT_TABLE_FIGURES = MEETING_FIGURES[:-1]


def meeting_figures(meeting: Meeting) -> tuple[str, ...]:
    """The MeetingResult figures ``meeting``'s own replay decides."""
    return MEETING_FIGURES if meeting.club_night_id is None else NIGHT_TABLE_FIGURES


def meeting_sums(rows, *, race: bool, seat_order: dict[int, int], winner: bool = True) -> dict[int, dict[str, Any]]:
    """A meeting's HandResult ``rows`` summed per player: {player id: MEETING_FIGURES}, the
    same sums the standings made of HandResult before. Pure, so that the data
    migration that fills MeetingResult uses it too.

    Race games' points: the sum of deltas plus each reset, the final score of a game that
    ended at a hand (any player's games_won) followed by another hand of that player. The
    evening's winner is the standings' (``ranking.evening_winner``); none is marked without
    ``winner`` (a table of a club night: the night has the winner, ``night_winner``)."""
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
    best = ranking.evening_winner(sums, seat_order, race=race) if winner else None
    if best is not None:
        sums[best]["won_evening"] = True
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
    race = games.is_race_game(meeting.game)
    sums = meeting_sums(rows, race=race, seat_order=seat_order, winner=meeting.club_night_id is None)
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
    result, carried = calculate_with_given(meeting, payloads=[h.payload for h in hands], players=seated)
    write_results(meeting, hands, result, carried=carried, seated=seated)
    # Imported here: the later evenings' writer builds on this module's rows.
    from leagues.table.chain import replay_later_meetings

    replay_later_meetings(meeting, result)
    return result
