"""How each hand counts in the statistics (``leagues.stats.statistics``): a Doppelkopf hand by its
parties, calls and special points as entered and how it ended; the other games by who won, and
their bids, jinks and matches from a replay of the meeting.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leagues.models import Seat
from scoring.errors import ScoringError
from scoring.sitting import calculate

if TYPE_CHECKING:
    from leagues.stats.statistics import PlayerStats

# Doppelkopf calls from lowest to highest (doppelkopf.md "What one game records").
CALL_LEVELS = {"re": 0, "kontra": 0, "keine_90": 1, "keine_60": 2, "keine_30": 3, "schwarz": 4}
SPECIAL_KINDS = ("doppelkopf", "fuchs", "karlchen")


@dataclass
class _Parties:
    """What one Doppelkopf hand says of its parties, read once for all its players."""

    kind: str
    solo: bool  # a solo, or a wedding without partner: the soloist against three
    solo_type: str
    sides: dict[int, str]  # player id: re, kontra (revoke: revoke, others; Ramsch: none)
    highest: dict[str, str]  # party: its highest call
    missed: dict[str, bool]  # party: won with a margin an unsaid absage would have made


def _parties(payload: dict, active, names: dict[str, int]) -> _Parties:
    kind = payload.get("kind", "normal")
    re_ids = {names.get(n) for n in payload.get("re") or ()}
    won_by = {pid: won for pid, _a, _d, won, _r, _g in active}
    sides: dict[int, str] = {}
    if kind == "revoke":
        revoker = names.get(payload.get("revoke_by"))
        sides = {pid: ("revoke" if pid == revoker else "others") for pid in won_by}
    elif kind != "ramsch":
        sides = {pid: ("re" if pid in re_ids else "kontra") for pid in won_by}
    return _Parties(
        kind=kind,
        solo=kind == "solo" or (kind == "hochzeit" and len(re_ids) == 1),
        solo_type=payload.get("solo") if kind == "solo" else "hochzeit",
        sides=sides,
        highest=_highest_calls(payload.get("announcements") or ()),
        missed=_missed_absage(payload, won_by, sides),
    )


def doppelkopf_hand(payload: dict, rows, stats_of, names: dict[str, int]) -> None:
    """Count one Doppelkopf hand for each active player (doppelkopf.md for every rule used)."""
    active = [r for r in rows if r[1]]
    if not active:
        return
    parties = _parties(payload, active, names)
    if parties.kind == "revoke" and names.get(payload.get("revoke_by")) is not None:
        stats_of(names[payload["revoke_by"]]).revokes += 1
    players = [pid for pid, *_rest in active]
    for pid, _active, delta, won, rnd, _g in active:
        stats = stats_of(pid)
        stats.count_game(delta, won)
        stats.rounds[rnd or "normal"].add(delta, won)
        stats.kinds[parties.kind].add(delta, won)
        side = parties.sides.get(pid)
        if side in ("re", "kontra"):
            _party_game(stats, parties, side, payload.get("specials") or (), delta, won)
        # Partners: on the same side in the hand; opponents: on the other (Ramsch: everyone).
        for other in players:
            if other != pid:
                same = side is not None and parties.sides.get(other) == side
                (stats.partners if same else stats.opponents)[other].add(delta, won)


def _party_game(stats: PlayerStats, parties: _Parties, side: str, specials, delta: int, won: bool) -> None:
    """Count a game with parties for a player of party ``side`` (re or kontra)."""
    stats.party_games += 1
    if parties.solo:
        (stats.solo if side == "re" else stats.against_solo).add(delta, won)
        if side == "re":
            stats.solo_types[parties.solo_type].add(delta, won)
    else:
        (stats.re if side == "re" else stats.kontra).add(delta, won)
    call = parties.highest.get(side)
    if call is not None:
        # A party's highest call counts; it is made exactly when the party reached the target
        # that call set, which is when it won (DDV §7.1, "Who wins").
        stats.announced.add(delta, won)
        stats.calls[call].add(delta, won)
    if parties.missed.get(side):
        stats.missed += 1
    for special in specials:
        if special.get("kind") in SPECIAL_KINDS:
            mine = special.get("party") == side
            (stats.specials_made if mine else stats.specials_conceded)[special["kind"]] += 1


def _highest_calls(announcements) -> dict[str, str]:
    """Each party's highest call (an absage implies its party's Re/Kontra)."""
    highest: dict[str, str] = {}
    for a in announcements:
        party, call = a.get("party"), a.get("call")
        if call not in CALL_LEVELS or party not in ("re", "kontra"):
            continue
        if party not in highest or CALL_LEVELS[call] > CALL_LEVELS[highest[party]]:
            highest[party] = call
    return highest


def _missed_absage(payload: dict, won_by: dict[int, bool], sides: dict[int, str]) -> dict[str, bool]:
    """{party: True} when the party won with a margin that an absage it did not say would have
    made: the loser under 90 / 60 / 30 eyes or without a trick (doppelkopf.md, item 2) above
    the party's own highest call (the club's "loser gets the points" punishes exactly this)."""
    if "re_eyes" not in payload or not sides:
        return {}
    re_eyes = payload["re_eyes"]
    for side in ("re", "kontra"):
        members = [pid for pid, s in sides.items() if s == side]
        if not members or not all(won_by[pid] for pid in members):
            continue
        loser_eyes = 240 - re_eyes if side == "re" else re_eyes
        tricks = payload.get("re_tricks")
        loser_tricks = (12 - tricks if side == "re" else tricks) if tricks is not None else None
        no_trick = loser_tricks == 0 if loser_tricks is not None else loser_eyes == 0
        reachable = 4 if no_trick else 3 if loser_eyes < 30 else 2 if loser_eyes < 60 else 1 if loser_eyes < 90 else 0
        said = CALL_LEVELS.get(_highest_calls(payload.get("announcements") or ()).get(side), 0)
        return {side: reachable > said}
    return {}


def other_hand(rows, stats_of) -> None:
    for pid, active, delta, won, _rnd, games_won in rows:
        if not active:
            continue
        stats = stats_of(pid)
        stats.count_game(delta, won)
        stats.games_won += games_won


def replayed_figures(meetings, hands, stats_in, names: dict[str, int]) -> None:
    """Bids made and failed by size, jinks and matches: figures only a replay has. Each meeting
    is replayed in process from what was already read (one more query: the seats)."""
    seats: dict[int, list[str]] = defaultdict(list)
    for meeting_id, name in (
        Seat.objects.filter(meeting__in=[m.id for m in meetings])
        .order_by("meeting_id", "position")
        .values_list("meeting_id", "player__name")
    ):
        seats[meeting_id].append(name)
    payloads: dict[int, list[Any]] = defaultdict(list)
    for _id, meeting_id, payload in hands:
        payloads[meeting_id].append(payload)
    for meeting in meetings:
        if not payloads.get(meeting.id):
            continue
        request: dict[str, Any] = {
            "game": meeting.game,
            "variant": meeting.variant,
            "rules": meeting.rules,
            "players": seats[meeting.id],
            "hands": payloads[meeting.id],
        }
        if meeting.teams:
            request["teams"] = meeting.teams
        if meeting.start_totals:
            request["start_totals"] = meeting.start_totals
        try:
            result = calculate(request)
        except ScoringError:
            continue  # a meeting that no longer adds up counts nothing here (verify_replays names it)
        _count_replay(payloads[meeting.id], result, stats_in(meeting.id), names, meeting.teams or {})


def _count_replay(payloads: list, result: dict[str, Any], stats_of, names: dict[str, int], members: dict) -> None:
    """Count the bids, jinks and matches of one meeting's replay (``members``: its teams)."""

    def ids(party):
        return [names[n] for n in members.get(party, [party]) if n in names]

    for payload, figures in zip(payloads, result["hands"], strict=False):
        bidder = payload.get("declarer") or payload.get("bidder") or payload.get("maker")
        bid = payload.get("bid")
        made = figures.get("made")
        if bidder and isinstance(bid, int) and made is not None:
            size = figures.get("contract", bid)
            # 56: the bidder is a player; his team's figure is the one that counts.
            for pid in [names[bidder]] if bidder in names else ids(bidder):
                stats_of(pid).bids.setdefault(size, [0, 0])[0 if made else 1] += 1
        if figures.get("jink") and payload.get("tricks"):
            jinker = names.get(payload["tricks"][0])
            if jinker is not None:
                stats_of(jinker).jinks[0 if figures["jink"] == "made" else 1] += 1
    for match in result.get("matches") or ():
        for pid in ids(match.get("winner")) if match.get("winner") else ():
            stats_of(pid).matches_won += 1
