"""Doppelkopf: replay of one meeting (spec ``doppelkopf.md``), presets ``club`` and ``ddv``.

Modules: ``doppelkopf_rules`` (options, presets), ``doppelkopf_value`` (one hand: its kind,
a revoke, a Ramsch, a game written as its result), ``doppelkopf_party`` (a party game: winner
and value), ``doppelkopf_figures`` (a hand's entry of the response and each player's points),
``doppelkopf_checks`` (announcements, Ramsch numbers, outbid soli), ``doppelkopf_specials``
(special points), ``doppelkopf_entered`` (a hand entered by chips), this one (the deal,
special rounds, penalty soli, the response), ``doppelkopf_example`` (random valid meetings
for benchmarks and tests).

Response extras (beyond calculate-api.md), for the app's sheet:

- per hand: ``kind``; ``solo`` (the solo type or null); ``soloist`` (the single Re player of a
  solo or of a Hochzeit without partner, else null); ``re`` (the Re players, empty for Ramsch
  and revoke); ``revoke_by`` (or null); ``loser_points`` (the losers got the points);
  ``hand_winners`` (the members of the winning party, whoever gained; Ramsch: all but the
  player(s) with the most eyes, a Durchmarsch its player; revoke: all but the revoker; no
  winner: nobody) and ``game_winner`` (always null), see :mod:`scoring.results`.
- ``next``: ``multiplier`` (of the next game: 2 in a Bock game, with ``bock_stacking: stack``
  2 to the number of Bock rounds covering it); ``bock_rounds`` (games each running Bock round
  has left, the next one included, oldest first; with ``queue`` at most one entry);
  ``host_round_games_left`` (games until ``players[-1]`` has dealt the last game of
  the host round in progress, the next one included, penalty soli still owed included; at a
  round boundary, with the host to deal, this is a whole round: the app ends the meeting there
  if the end time has passed) and ``queue_after_meeting`` (special rounds waiting or
  unfinished, in order, an unfinished one first and counted as a whole round; what
  ``carry_special_rounds`` carries into the next meeting).

Decisions where the spec is silent:

- A trump solo played instead of a Ramsch game fires triggers like any solo; a Bock trigger
  there enqueues a Bock round (a Ramsch game is not a Bock game).
- ``carried_rounds`` (from the app) start the queue, after the penalty soli; an unknown
  entry is a problem of the sitting (``hand: null``, field ``carried_rounds``).
- A penalty solo and a Pflichtsolo-round solo may be of any solo type; a revoke uses up such
  a game without a solo being played.
- ``bock_stacking: stack``: ``round`` is ``bock`` for a game covered by a Bock round unless a
  Ramsch or Pflichtsolo round is in progress (they still queue, and a Pflichtsolo game covered
  by Bock rounds counts with their multiplier; a Ramsch game never does); ``round_games_left``
  of a Bock stretch is the games until no Bock round covers a game. Carried ``bock`` rounds
  all start with the first game after the penalty soli.
- A hand that is not valid uses up its game (the deal moves on, a special round counts it)
  but scores nothing, fires nothing and breaks a solo streak.
"""

from __future__ import annotations

import random
from typing import Any

# FOXES, TRICKS, CALLS, KINDS and SOLO_TYPES are re-exported for the entry form.
from .doppelkopf_api_examples import API_EXAMPLES as API_EXAMPLES  # for the API docs (leagues.api)
from .doppelkopf_checks import CALLS as CALLS
from .doppelkopf_checks import DOPPELKOPF_EYES, TOTAL_EYES
from .doppelkopf_checks import FOXES as FOXES
from .doppelkopf_checks import TRICKS as TRICKS
from .doppelkopf_party import HALF, REACHED, REACHED_AGAINST
from .doppelkopf_party import SOLO_TYPES as SOLO_TYPES
from .doppelkopf_rules import MAX_STACKED_BOCK, OPTIONS, PRESET_LABELS, PRESETS, Rules
from .doppelkopf_value import ALL_FIELDS, Context, score_hand
from .doppelkopf_value import KINDS as KINDS
from .errors import Problems, _
from .registry import COMPULSORY_SOLOS, GameSpec, Sitting
from .results import ReplayResult

SPECIAL_ROUNDS = ("bock", "ramsch", "pflichtsolo")

# For the entry form (the engine checks with the same numbers): Re's eyes run from 0 to
# TOTAL_EYES in TRICKS tricks; a party has at most MAX_DOPPELKOPF Doppelköpfe and FOXES Füchse.
MAX_DOPPELKOPF = TOTAL_EYES // DOPPELKOPF_EYES
# Re's eyes entered most often, each a line the result turns on: none, the 90 that beats
# keine 90, a split (Kontra wins), the least that wins for Re, keine 90 made, all.
EYE_MARKS = (0, REACHED_AGAINST[0], HALF, HALF + 1, REACHED[0], TOTAL_EYES)


def active_seats(n: int, dealer: int) -> tuple[int, ...]:
    """Seats playing when ``dealer`` deals: with 5 the dealer sits out, with 6 also dealer+2."""
    if n == 4:
        return (0, 1, 2, 3)
    if n == 5:
        return tuple(i for i in range(5) if i != dealer)
    return tuple(i for i in range(6) if i != dealer and i != (dealer + 2) % 6)


class Deal:
    """Who deals, which round the next game belongs to, and the queue of special rounds."""

    __slots__ = ("n", "rules", "penalty", "dealer", "current", "left", "queue", "streak", "bocks")

    def __init__(self, n: int, rules: Rules, penalty: list[int], carried: list[str]):
        self.n = n
        self.rules = rules
        self.penalty = penalty  # seats of the penalty soloists still to play
        self.dealer = 0
        self.current: str | None = None  # special round in progress
        self.left = 0  # its games still to play
        # bock_stacking "stack": the games each running Bock round has left (they overlap, so
        # they are not in the queue); carried Bock rounds all start at once.
        self.bocks: list[int] = []
        if rules.bock_stack:
            self.bocks = [n for kind in carried if kind == "bock"]
            carried = [kind for kind in carried if kind != "bock"]
        self.queue = list(carried)
        self.streak = 0  # voluntary soli in a row
        self._start_next()

    def _start_next(self) -> None:
        if self.queue:
            self.current = self.queue.pop(0)
            self.left = self.n
        else:
            self.current = None
            self.left = 0

    def upcoming(self) -> tuple[str, int, int | None]:
        """(round, dealer seat, seat of the player who must play solo or None) of the next game."""
        if self.penalty:
            soloist = self.penalty[0]
            return "penalty", (soloist - 1) % self.n, soloist
        current = self.current
        if current is None:
            return ("bock" if self.bocks else "normal"), self.dealer, None
        if current == "pflichtsolo":
            return current, self.dealer, (self.dealer + 1) % self.n
        return current, self.dealer, None

    def multiplier(self, rnd: str) -> int:
        """Every point of the next game (of round ``rnd``) counts this many times."""
        if not self.rules.bock_stack:
            return 2 if rnd == "bock" else 1
        if rnd == "ramsch" or rnd == "penalty" or not self.bocks:  # a Ramsch game is never a Bock game
            return 1
        return 2 ** min(len(self.bocks), MAX_STACKED_BOCK)

    def finish(self, rnd: str, entry: dict | None, triggers_out: list | None) -> None:
        """Move on after a game of round ``rnd``; ``entry`` (the hand's response from
        ``score_hand``) is None for an invalid hand.

        Fills ``triggers_out`` with the triggers in force (in the spec's order), out of what
        happened in the game (``entry["triggers"]``).
        """
        # A trump solo instead of a Ramsch game (the only valid party game in a Ramsch round)
        # is played in between: the same dealer deals the Ramsch game again.
        suspends = entry is not None and rnd == "ramsch" and entry["kind"] == "solo"
        self._move_on(rnd, suspends)
        if entry is None:
            self.streak = 0
            if self.left == 0 and self.current is not None:
                self._start_next()
            return
        self._fire(rnd, entry, triggers_out)
        if self.left == 0 and (self.queue or self.current is not None):  # else nothing to start
            self._start_next()

    def _fire(self, rnd: str, entry: dict, triggers_out: list) -> None:
        """The triggers in force after a valid game, and the special rounds they start."""
        happened = entry["triggers"]
        triggers_out.extend(name for name in happened if name in self.rules.bock_triggers)
        if self._solo_streak_ends(rnd, entry):
            triggers_out.append("solo_streak")
        if triggers_out:
            self._start_bock_rounds(rnd, len(triggers_out))
        # A Durchmarsch and the losers getting the points start their rounds whatever the
        # options say about Bock triggers.
        if "durchmarsch" in happened:
            triggers_out.append("durchmarsch")
            if self.rules.bock_stack:
                self.bocks.append(self.n)
            else:
                self.queue.append("bock")
        if "loser_points" in happened and self.rules.pflichtsolo:
            triggers_out.append("loser_points")
            self.queue.append("pflichtsolo")

    def _move_on(self, rnd: str, suspends: bool) -> None:
        """A penalty solo is owed no more; any other game passes the deal on (unless it
        suspends a Ramsch game) and counts for the rounds it belongs to."""
        if rnd == "penalty":
            self.penalty.pop(0)
        elif not suspends:
            self.dealer = (self.dealer + 1) % self.n
            if self.current is not None:
                self.left -= 1
            if self.bocks:
                self.bocks = [left - 1 for left in self.bocks if left > 1]

    def _solo_streak_ends(self, rnd: str, entry: dict) -> bool:
        """Count a voluntary solo (one Re player, outside a Pflichtsolo round or a penalty
        solo); True when as many in a row as players at the table fire ``solo_streak``."""
        if entry["soloist"] is None or rnd == "pflichtsolo" or rnd == "penalty":
            self.streak = 0
            return False
        self.streak += 1
        if self.streak != self.n:
            return False
        self.streak = 0
        return "solo_streak" in self.rules.bock_triggers

    def _start_bock_rounds(self, rnd: str, count: int) -> None:
        """One Bock round for each trigger in force; in a Bock game ``bock_in_bock`` says what."""
        if self.rules.bock_stack:
            # Each trigger starts a Bock round with the next game, overlapping the others.
            self.bocks.extend([self.n] * count)
            return
        bock_round = self.rules.bock_in_bock if rnd == "bock" else "bock"
        if bock_round is not None:
            self.queue.extend([bock_round] * count)


def replay(sitting: Sitting) -> ReplayResult:
    players = sitting.players
    n = len(players)
    rules = Rules(sitting.rules)
    problems = Problems()
    seat = {p: i for i, p in enumerate(players)}
    carried = _carried(sitting.carried_rounds, rules, problems)
    deal = Deal(n, rules, [seat[p] for p in sitting.compulsory_solos if p in seat], carried)
    tables = _Tables(players)
    ctx = Context(players, rules)
    totals = dict.fromkeys(players, 0)  # replaced by a copy at each hand: the hands keep theirs
    owed = dict.fromkeys(players, True)
    out = []
    for number, hand in enumerate(sitting.hands, 1):
        rnd = tables.seat(ctx, deal)
        if not isinstance(hand, dict):
            problems.add(number, "hands", _("Each hand must be an object."))
            deal.finish(rnd, None, None)
            continue
        entry = score_hand(hand, number, ctx, problems)  # the response for the hand, but totals and triggers
        if entry is None:
            deal.finish(rnd, None, None)
            continue
        triggers: list[str] = []
        deal.finish(rnd, entry, triggers)
        entry["triggers"] = triggers
        totals = totals.copy()
        for name, pts in entry["deltas"].items():  # every player, in seat order
            totals[name] += pts
        entry["totals"] = totals
        _no_solo_owed(owed, entry, hand)
        out.append(entry)
    problems.raise_if_any()
    return {
        "parties": list(players),
        "hands": out,
        "totals": dict(totals),
        "next": _next(deal, players, tables.actives, owed),
    }


def _carried(carried_rounds, rules: Rules, problems: Problems) -> list[str]:
    """The special rounds carried from the previous meeting that these rules play: a Ramsch
    round becomes a Bock round without Ramsch, a Pflichtsolo round goes without them."""
    carried = []
    for kind in carried_rounds:
        if kind not in SPECIAL_ROUNDS:
            problems.add(None, "carried_rounds", _("Unknown special round “%(name)s”."), name=kind)
            continue
        if kind == "ramsch" and not rules.ramsch:
            kind = "bock"
        if kind == "pflichtsolo" and not rules.pflichtsolo:
            continue
        carried.append(kind)
    return carried


class _Tables:
    """Who plays when each seat deals, worked out once per sitting."""

    __slots__ = ("players", "actives", "active_sets", "sitting_out")

    def __init__(self, players):
        n = len(players)
        self.players = players
        self.actives = [tuple(players[i] for i in active_seats(n, d)) for d in range(n)]
        self.active_sets = [frozenset(a) for a in self.actives]
        self.sitting_out = [{p: 0 for p in players if p not in a} for a in self.active_sets]

    def seat(self, ctx: Context, deal: Deal) -> str:
        """Set ``ctx`` for the next game of ``deal``; returns its round."""
        rnd, dealer, soloist = deal.upcoming()
        players = self.players
        ctx.active = self.actives[dealer]
        ctx.active_set = self.active_sets[dealer]
        ctx.sitting_out = self.sitting_out[dealer]
        ctx.round = rnd
        ctx.multiplier = deal.multiplier(rnd)
        ctx.soloist = players[soloist] if soloist is not None else None
        ctx.dealer = players[dealer]
        return rnd


def _no_solo_owed(owed: dict[str, bool], entry: dict, hand: dict) -> None:
    """A player who played a solo, or whose solo was outbid, owes none any more."""
    soloist = entry["soloist"]
    if soloist is not None:
        owed[soloist] = False
    outbid = hand.get("solo_outbid")  # checked by score_hand: None or active players
    if outbid:
        for name in outbid:
            owed[name] = False


def _next(deal: Deal, players, actives, owed) -> dict[str, Any]:
    rnd, dealer, soloist = deal.upcoming()
    waiting = ([deal.current] if deal.current is not None else []) + ["bock"] * len(deal.bocks) + deal.queue
    if rnd == "penalty":
        games_left = len(deal.penalty)
        queue = waiting
    elif rnd == "bock" and deal.current is None:  # a stretch of stacked Bock rounds
        games_left = max(deal.bocks)
        queue = list(deal.queue)
    else:
        games_left = deal.left
        queue = list(deal.queue)
    if deal.rules.bock_stack:
        bock_rounds = list(deal.bocks)
    else:
        bock_rounds = [deal.left] if deal.current == "bock" else []
    return {
        "dealer": players[dealer],
        "active": list(actives[dealer]),
        "round": rnd,
        "round_games_left": games_left,
        "multiplier": deal.multiplier(rnd),
        "bock_rounds": bock_rounds,
        "queue": queue,
        "soloist": players[soloist] if soloist is not None else None,
        "solo_owed": [p for p in players if owed[p]],
        "host_round_games_left": len(deal.penalty) + deal.n - deal.dealer,
        "queue_after_meeting": waiting,
    }


def example_request(rng: random.Random, hands: int, **kw: Any) -> dict[str, Any]:
    """A valid calculate request with ``hands`` random, realistic hands (see doppelkopf_example)."""
    from .doppelkopf_example import example_request as make

    return make(rng, hands, **kw)


GAME = GameSpec(
    key="doppelkopf",
    label=_("Doppelkopf"),
    options=OPTIONS,
    presets=PRESETS,
    default_preset="club",
    replay=replay,
    min_players=4,
    max_players=6,
    extra_fields=frozenset({COMPULSORY_SOLOS}),
    preset_labels=PRESET_LABELS,
    hand_fields=ALL_FIELDS,
)
