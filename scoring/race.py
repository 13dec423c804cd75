"""The race mechanism shared by 25, 45, 110 and Auction 45s (shared/spec/maw.md).

A game (Partie) is a race to ``target``. Each game's own module turns a hand into a
:class:`Plan`: the party that won each recorded trick and the points that fall due at each
trick (``credits[k]``: ``(party, points, cap)`` triples, ``cap`` = a score the credit may not
take the party past, or None), plus what is booked only when the hand is played out
(``end``: a failed bid). :class:`Race` then plays the plan against the game in progress. How it
does so is option data, read from the rules with these names (a game lacking an option gets
the default in brackets):

- ``target``; ``match_games`` (None): the first party to win that many games wins the match.
- ``ends_mid_hand`` (true): points are added trick by trick in the recorded order and the
  first party to reach the target wins at that trick; tricks recorded after it are ignored
  (reported in ``ignored_tricks``), and so is anything not yet due (a bid not yet made, a
  failed bid). With false the hand is always played out (five tricks) and judged at its end.
- ``jink_wins_game`` (false): a party that takes all five tricks of a hand wins the game, at
  the fifth trick, whatever the score.
- ``double_on_jink_from_zero`` (false): a party that had no points in the game when the hand
  began and takes all five tricks wins a double game (``games`` 2) at the fifth trick.
- ``dreaded_45`` (false): at the end of the hand a party on exactly the target drops to 0
  (only with ``ends_mid_hand`` false; the combination is refused as a rules error).
- ``both_reach_target`` ("higher"): several parties at or above the target at the end of a
  hand: "maker" lets the maker win if it is among them; otherwise the strictly highest total
  wins, and equal highest totals play on.
- ``on_the_green`` (false): when two or more parties had 90 or more as the hand began, only
  the maker can win in that hand (the others keep their points).
- ``bidder_out_first`` (false; 110): when the bidder and another party both reach the target
  in one hand, the bidder wins if he made his bid ("the bidder goes out first"): he wins at the
  trick where his points reach the target, whoever reached it before him in that hand. A
  party other than the bidder that reaches it wins only if the bidder does not, so the hand is
  played out (all five tricks, every trick counts, a failed bid is booked) and the first of
  the others to reach the target, in the recorded order, wins at the fifth trick.
- ``lose_at`` (None), ``sets_lose`` (None): a party at or below ``lose_at``, or that has
  failed ``sets_lose`` bids in the game, loses it; the game ends and the strictly highest
  total among the other parties wins it (equal highest: the game ends with ``winner`` null).

Decisions where the spec is silent (a club scorekeeper's view):

- ``deltas`` are the net change of the totals as shown, resets included: the first hand of a
  new game shows minus the old game's final score plus what it scored. What the hand itself
  scored is in the extra per-hand field ``scored``.
- A game decided during the hand, at the fifth trick included, cuts off a bid not made by then:
  the failed bid is booked only when the hand is played out without a game winner.
- With ``ends_mid_hand`` a trick credits only the party that won it, so two parties can never
  reach the target at the same trick.
- ``games_won`` is, like the totals, shown for the match just finished until the next hand
  starts the new match; without ``match_games`` it counts every game of the sitting.

Response extras: per hand ``scored`` (by party, before any reset), ``games_won`` (after the
hand), ``made`` (bidding games: whether the bid was made; null when the game ended first),
``game_winner`` (``game_over``'s winner, else null) and ``hand_winners`` (the game's winner at
the hand that decides a game; else the bidder's party with its bid made, every other party
when it failed; without a bid the party that scored strictly the most in the hand; see
:mod:`scoring.results`); at the top ``matches`` (finished matches: ``{"winner", "hand"}``).
"""

from __future__ import annotations

from typing import Any

from .errors import Problems, _
from .results import HandFigures, ReplayResult

GREEN = 90  # "on the green": 90 or more points
TRICKS = 5
MISSING = object()


class Plan:
    """One valid hand, ready to be played against the game in progress."""

    __slots__ = ("tricks", "credits", "end", "maker", "made_at", "failed")

    def __init__(self, tricks, credits, end=(), maker=None, made_at=None, failed=False):
        self.tricks = tricks  # party index per recorded trick
        self.credits = credits  # per trick: tuple of (party, points, cap or None)
        self.end = end  # (party, points) booked when the hand is played out
        self.maker = maker  # the bidder / trump maker's party, or None
        self.made_at = made_at  # 0-based trick at which the bid was made, or None
        self.failed = failed  # the maker failed its bid (booked with ``end``)


class Race:
    """The game in progress, the games and matches finished, across the hands of a sitting."""

    def __init__(self, parties: tuple[str, ...], rules: dict[str, Any], start_totals: dict[str, int] | None):
        """``rules``: the sitting's rules over the game's fixed settings (see ``replay_race``)."""
        self.parties = parties
        self.size = len(parties)
        self.rules = rules
        self.target = rules["target"]
        self.match_games = rules.get("match_games")
        self.mid = rules.get("ends_mid_hand", True)
        self.jink_wins = rules.get("jink_wins_game", False)
        self.double_from_zero = rules.get("double_on_jink_from_zero", False)
        self.dreaded = rules.get("dreaded_45", False)
        self.prefer_maker = rules.get("both_reach_target", "higher") == "maker"
        self.green = rules.get("on_the_green", False)
        self.bidder_first = rules.get("bidder_out_first", False)
        self.lose_at = rules.get("lose_at")
        self.sets_lose = rules.get("sets_lose")
        start = start_totals or {}
        self.totals = [start.get(p, 0) for p in parties]
        self.failed = [0] * self.size
        self.games: list[dict[str, Any]] = []
        self.games_won = [0] * self.size
        self.matches: list[dict[str, Any]] = []
        self.match_winner: str | None = None
        self.new_game = False
        self.new_match = False

    def begin(self) -> list[int]:
        """Start a hand: the totals as shown before it; a finished game or match restarts."""
        shown = self.totals
        if self.new_game:
            self.totals = [0] * self.size
            self.failed = [0] * self.size
            self.new_game = False
            if self.new_match:
                self.games_won = [0] * self.size
                self.new_match = False
        return shown

    def upcoming(self) -> list[int]:
        """The totals the next hand will begin with (0 after a finished game)."""
        return [0] * self.size if self.new_game else self.totals

    def play(self, plan: Plan | None, shown: list[int], number: int, problems: Problems) -> dict[str, Any]:
        """Play a plan (None: an invalid hand, which scores nothing); the hand's result fields."""
        if plan is None:
            return self._result(shown, self.totals, self.totals, [], None)
        before = self.totals
        totals = before[:]
        if self.mid:
            decided = self._trick_by_trick(plan, totals, before, number, problems)
        else:
            decided = self._played_out(plan, totals, number, problems)
        if decided is None:  # too few tricks entered: the hand scores nothing
            return self._result(shown, self.totals, self.totals, [], None)
        winner, over, games, first_other = decided
        booked = over is None  # the hand was played out without a game won during it
        if booked:
            winner, over, games = self._end_of_hand(plan, totals, before, first_other)
        count = len(plan.tricks)
        ignored = list(range(over + 2, count + 1)) if over is not None and over + 1 < count else []
        game_over = self._finish(winner, number, over + 1, games) if over is not None else None
        self.totals = totals
        result = self._result(shown, before, totals, ignored, game_over)
        if plan.maker is not None:
            result["made"] = _made(plan, over, booked)
        result["hand_winners"] = self._hand_winners(game_over, plan, result)
        return result

    def _trick_by_trick(self, plan: Plan, totals: list[int], before: list[int], number: int, problems: Problems):
        """``ends_mid_hand``: the tricks credited in the recorded order until one decides the
        game; ``(winner, trick, games, first other)`` (winner and trick None when none did),
        or None after a problem."""
        tricks = plan.tricks
        first_other = None  # bidder_out_first: the first other party to reach the target
        for k in range(len(tricks)):
            winner = _credit(totals, plan.credits[k], self.target)
            if self._waits_for_bidder(plan, winner):
                first_other = winner if first_other is None else first_other
                winner = None  # it wins only if the bidder does not go out in this hand
            games = 1
            if k == TRICKS - 1:
                # all five tricks to one party: only it scored, so it is any winner too
                jinker, jink_games = self._jink(tricks, before)
                if jinker is not None:
                    winner, games = jinker, jink_games
            if winner is not None:
                return winner, k, games, first_other
        if len(tricks) < TRICKS:
            problems.add(
                number,
                "tricks",
                _("Only %(count)s tricks are entered, but nobody had won the game by then: enter all five.")
                if first_other is None
                else _(
                    "Only %(count)s tricks are entered: enter all five, the bidder could still have gone out first."
                ),
                count=len(tricks),
            )
            return None
        return None, None, 1, first_other

    def _waits_for_bidder(self, plan: Plan, reached: int | None) -> bool:
        """``bidder_out_first``: a party other than the bidder that reached the target."""
        return self.bidder_first and plan.maker is not None and reached not in (None, plan.maker)

    def _played_out(self, plan: Plan, totals: list[int], number: int, problems: Problems):
        """Every hand played out: all five tricks credited; the game is judged at the end."""
        if len(plan.tricks) != TRICKS:
            problems.add(number, "tricks", _("Enter all five tricks: in this variant every hand is played out."))
            return None
        for k in range(TRICKS):
            _credit(totals, plan.credits[k], self.target)
        return None, None, 1, None

    def _end_of_hand(self, plan: Plan, totals: list[int], before: list[int], first_other):
        """A hand played out without a game won during it: what is booked only then (a failed
        bid), and the game judged at its end. ``(winner, trick, games)``."""
        for party, points in plan.end:
            totals[party] += points
        if plan.failed:
            self.failed[plan.maker] += 1
        if self.mid:
            return (first_other, TRICKS - 1, 1) if first_other is not None else (None, None, 1)
        winner, games = self._jink(plan.tricks, before)
        if winner is None:
            if self.dreaded:
                for p in range(self.size):
                    if totals[p] == self.target:
                        totals[p] = 0
            winner = self._decide(totals, before, plan.maker)
        return winner, (TRICKS - 1 if winner is not None else None), games

    def _hand_winners(self, game_over, plan: Plan, result: dict[str, Any]) -> list[str]:
        """Who won the hand (scoring.results): the game's winner at the hand that decides a
        game (nobody when it ends without one); else the bidder's party with its bid made, or
        every other party when it failed; without a bid the party that scored strictly the
        most in the hand (nobody on a tie for most, or when nobody scored)."""
        parties = self.parties
        if game_over is not None:
            return [] if game_over["winner"] is None else [game_over["winner"]]
        if plan.maker is not None:
            maker = parties[plan.maker]
            return [maker] if result["made"] else [p for p in parties if p != maker]
        return _top_scorer(parties, result["scored"])

    def _jink(self, tricks: list[int], before: list[int]) -> tuple[int | None, int]:
        """All five tricks to one party: a game won by jink (Bruff) or a double game (25)."""
        if len(tricks) != TRICKS or not (self.jink_wins or self.double_from_zero):
            return None, 1
        party = tricks[0]
        if tricks.count(party) != TRICKS:
            return None, 1
        if self.double_from_zero and before[party] == 0:
            return party, 2
        if self.jink_wins:
            return party, 1
        return None, 1

    def _decide(self, totals: list[int], before: list[int], maker: int | None) -> int | None:
        """At the end of a hand: the winner, -1 (a lost game nobody wins) or None (play on)."""
        losers = self._losers(totals)
        reached = [p for p in self._reached(totals, before, maker) if p not in losers]
        winner = self._first_out(totals, reached, maker)
        if winner is not None or not losers:
            return winner
        # A game lost by some: the strictly highest of the others wins it.
        winner = _strictly_highest(totals, [p for p in range(self.size) if p not in losers])
        return -1 if winner is None else winner

    def _first_out(self, totals: list[int], reached: list[int], maker: int | None) -> int | None:
        """The winner among the parties that reached the target; None when they tie."""
        if len(reached) == 1:
            return reached[0]
        if self.prefer_maker and maker in reached:
            return maker
        return _strictly_highest(totals, reached)

    def _reached(self, totals: list[int], before: list[int], maker: int | None) -> list[int]:
        """The parties at or above the target; on the green (two or more had 90 as the hand
        began) only the maker can win."""
        if self.green and sum(1 for t in before if t >= GREEN) >= 2:
            return [maker] if maker is not None and totals[maker] >= self.target else []
        return [p for p in range(self.size) if totals[p] >= self.target]

    def _losers(self, totals: list[int]) -> list[int]:
        """The parties that lost the game: at or below ``lose_at``, or ``sets_lose`` bids failed."""
        lose_at, sets_lose = self.lose_at, self.sets_lose
        return [
            p
            for p in range(self.size)
            if (lose_at is not None and totals[p] <= lose_at) or (sets_lose is not None and self.failed[p] >= sets_lose)
        ]

    def _finish(self, winner: int, number: int, trick: int, games: int) -> dict[str, Any]:
        name = None if winner < 0 else self.parties[winner]
        self.games.append({"winner": name, "hand": number, "trick": trick, "games": games})
        self.new_game = True
        if name is not None:
            self.games_won[winner] += games
            if self.match_games is not None and self.games_won[winner] >= self.match_games:
                self.match_winner = name
                self.matches.append({"winner": name, "hand": number})
                self.new_match = True
        return {"winner": name, "trick": trick, "games": games}

    def _result(self, shown, before, totals, ignored, game_over) -> dict[str, Any]:
        parties = self.parties
        return {
            "deltas": {p: totals[i] - shown[i] for i, p in enumerate(parties)},
            "totals": dict(zip(parties, totals, strict=True)),
            "ignored_tricks": ignored,
            "game_over": game_over,
            "scored": {p: totals[i] - before[i] for i, p in enumerate(parties)},
            "games_won": dict(zip(parties, self.games_won, strict=True)),
            # scoring.results; ``play`` names the hand's winners once the hand is judged
            "hand_winners": [],
            "game_winner": None if game_over is None else game_over["winner"],
        }

    def top_level(self) -> dict[str, Any]:
        parties = self.parties
        return {
            "totals": dict(zip(parties, self.totals, strict=True)),
            "games": self.games,
            "games_won": dict(zip(parties, self.games_won, strict=True)),
            "match_winner": self.match_winner,
            "matches": self.matches,
        }


def _made(plan: Plan, over: int | None, booked: bool) -> bool | None:
    """Whether the maker made its bid; None when the end of the game cut it off."""
    if plan.made_at is not None and (over is None or plan.made_at <= over):
        return True
    if plan.failed and booked:
        return False
    return None


def _top_scorer(parties, scored: dict[str, int]) -> list[str]:
    """The party that scored strictly the most in the hand; nobody on a tie or when nobody scored."""
    best = max(scored.values())
    top = [p for p in parties if scored[p] == best]
    return top if len(top) == 1 and best > 0 else []


def _strictly_highest(totals: list[int], among: list[int]) -> int | None:
    if not among:
        return None
    best = max(totals[p] for p in among)
    top = [p for p in among if totals[p] == best]
    return top[0] if len(top) == 1 else None


def party_index(players: tuple[str, ...], teams: dict[str, tuple[str, ...]] | None):
    """The parties, a name -> party index map (players map to their team), each seat's party."""
    if teams:
        parties = tuple(teams)
        index: dict[str, int] = {}
        for i, members in enumerate(teams.values()):
            for member in members:
                index[member] = i
        for i, team in enumerate(parties):
            index[team] = i
    else:
        parties = tuple(players)
        index = {p: i for i, p in enumerate(parties)}
    return parties, index, [index[p] for p in players]


class RaceReplay:
    """A sitting of a race game, hand by hand: ``step`` one hand, ``response`` at the end.

    ``planner(hand, number, problems, replay)`` checks a hand and returns its Plan, or None
    when the hand is invalid (its problems added); it reads ``replay.race.totals`` (the game
    in progress as the hand begins), ``replay.index`` and ``replay.dealer_party``.
    """

    def __init__(self, sitting, planner, problems: Problems, fixed: dict[str, Any] | None = None):
        self.players = sitting.players
        self.parties, self.index, self.seat_party = party_index(sitting.players, sitting.teams)
        self.rules = {**fixed, **sitting.rules} if fixed else sitting.rules
        self.race = Race(self.parties, self.rules, sitting.start_totals)
        self.planner = planner
        self.problems = problems
        self.hands: list[HandFigures] = []
        self.dealer_party = self.seat_party[0] if self.seat_party else 0

    def step(self, hand: Any) -> HandFigures:
        players = self.players
        i = len(self.hands)
        number = i + 1
        seat = i % len(players)
        self.dealer_party = self.seat_party[seat]
        race = self.race
        shown = race.begin()
        plan = self.planner(hand, number, self.problems, self) if isinstance(hand, dict) else None
        result = {"number": number, "dealer": players[seat], "active": list(players)}
        result.update(race.play(plan, shown, number, self.problems))
        self.hands.append(result)
        return result

    def response(self) -> ReplayResult:
        players = self.players
        out = {"parties": list(self.parties), "hands": self.hands}
        out.update(self.race.top_level())
        seat = len(self.hands) % len(players) if players else 0
        out["next"] = {"dealer": players[seat] if players else None, "active": list(players)}
        return out


def replay_race(
    sitting, planner, problems: Problems | None = None, fixed: dict[str, Any] | None = None
) -> ReplayResult:
    """Replay every hand; raise ScoringError with every problem found.

    ``fixed``: settings a game has without an option for them (Auction 45s:
    ``ends_mid_hand`` false), under the sitting's rules.
    """
    problems = problems if problems is not None else Problems()
    replay = RaceReplay(sitting, planner, problems, fixed)
    for hand in sitting.hands:
        replay.step(hand)
    problems.raise_if_any()
    return replay.response()


# -- reading the fields every Maw hand shares -------------------------------------------


def check_fields(hand: dict, allowed: frozenset, number: int, problems: Problems) -> bool:
    ok = True
    for key in hand:
        if key not in allowed:
            problems.add(number, str(key), _("Unknown field “%(name)s” in this hand."), name=str(key))
            ok = False
    return ok


def read_party(hand: dict, field: str, number: int, problems: Problems, index: dict[str, int]) -> int | None:
    """A required party (a team, or a player standing for his team); None after a problem."""
    value = hand.get(field)
    if value is None:
        problems.add(number, field, _("Enter who is the %(what)s."), what=field)
        return None
    party = index.get(value) if isinstance(value, str) else None
    if party is None:
        problems.add(number, field, _("“%(name)s” is not a player or team at this table."), name=str(value))
    return party


def read_tricks(hand: dict, number: int, problems: Problems, index: dict[str, int]) -> list[int] | None:
    """1 to 5 trick winners in playing order, as party indexes; None after a problem."""
    value = hand.get("tricks")
    if value is None:
        problems.add(number, "tricks", _("Enter who won each trick, in the order they were played."))
        return None
    if not isinstance(value, list):
        problems.add(number, "tricks", _("Tricks must be a list of who won each trick, in playing order."))
        return None
    if not 1 <= len(value) <= TRICKS:
        problems.add(number, "tricks", _("A hand has one to five tricks, not %(count)s."), count=len(value))
        return None
    out = []
    for winner in value:
        party = index.get(winner) if isinstance(winner, str) else None
        if party is None:
            problems.add(
                number, "tricks", _("“%(name)s” is not a player or team at this table."), name=str(winner)[:40]
            )
            return None
        out.append(party)
    return out


def read_top_trump(hand: dict, number: int, problems: Problems, count: int, required: bool):
    """The 0-based trick won by the highest trump, -1 for none; MISSING after a problem."""
    if "top_trump_trick" not in hand:
        if required:
            problems.add(
                number,
                "top_trump_trick",
                _("Enter which trick the highest trump won (or that no trump was played)."),
            )
            return MISSING
        return -1
    value = hand["top_trump_trick"]
    if value is None:
        return -1
    if isinstance(value, bool) or not isinstance(value, int):
        problems.add(number, "top_trump_trick", _("The top trump trick must be a trick number from 1 to 5, or null."))
        return MISSING
    if not 1 <= value <= count:
        problems.add(
            number,
            "top_trump_trick",
            _("Trick %(trick)s is not among the %(count)s tricks entered."),
            trick=value,
            count=count,
        )
        return MISSING
    return value - 1


def _credit(totals: dict, credits, target: int):
    """Add one trick's points to the totals, in the recorded order; a capped party (110's
    must-bid-out) stops at its cap but never drops to it. Returns the first party that reached
    the target with this trick, or None."""
    reached = None
    for party, points, cap in credits:
        value = totals[party] + points
        if cap is not None and value > cap:
            value = max(totals[party], cap)
        totals[party] = value
        if reached is None and value >= target:
            reached = party
    return reached
