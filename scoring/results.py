"""The shape of a replay's result, declared once for every game (calculate-api.md).

A game's ``replay(sitting)`` returns a :class:`ReplayResult`; each entry of its ``hands`` is a
:class:`HandFigures`. The keys every game has are required; a game's own keys (the
calculate-api.md table and each module's "Response extras") are ``NotRequired`` and grouped by
the games that fill them. The API returns these dicts as they are, so every key documented
there stays.

Two keys say who won, the same way in every game, so that nobody outside a game module has to
know a game's own winner key (``winner``, ``winner_team``, ``pot_winner``, ``game_over``):

``hand_winners``
    The parties (the keys of ``deltas``: players, or teams where the game is played in teams)
    that won this hand, in the order of ``parties``; empty when nobody won it. It is who won,
    not who gained: under Doppelkopf's "loser gets the points" the winners lose points and are
    still the winners. Per game:

    - Doppelkopf: the members of the winning party (``winner``: the Re players, or the active
      players outside Re; a soloist alone); nobody when there is no winner (DDV TSR 7.1.4).
      Ramsch, where the player(s) with the most eyes lose: every other active player, or the
      player who took every trick (Durchmarsch). A revoke, scored as the revoker's game lost
      schwarz ("falsch bedient: schwarz verloren"): the other active players.
    - 56: the winning team of the hand (``winner_team``: the bidders with at least their bid,
      else the other team).
    - Spoil Five: the player who won the pot (``pot_winner``); nobody in a spoilt hand.
    - 1000 and the race games (25, 45, 110, Auction 45s): a hand at which a game is decided is
      won by that game's winner (nobody when it ends without one: ``lose_at`` with a tie).
      Otherwise, where there is a bid (1000's declarer, 110's bidder, Auction 45s' maker): the
      bidder's party when the bid was made, every other party when it failed ("set"); a 1000
      declarer who forgot to pass: nobody (no card was played). Without a bid (25, 45): the
      party that scored strictly the most in the hand (``scored``); nobody on a tie for most.

``game_winner``
    The party that won a game at this hand, or None: the game (Partie) of 1000 and the race
    games, the match of 56 played with ``tables`` (the game of tokens; ``match_winner``), the
    pot of Spoil Five (a pot carried over spoilt hands is one game). Doppelkopf: always None;
    each hand is a game of its own and its winners are ``hand_winners``. A race game's match
    (``match_games``) is one level up and stays in ``matches`` / ``match_winner``.

Pure data: no Django here (scoring/ imports nothing of the app).
"""

# No ``from __future__ import annotations`` here: TypedDict reads NotRequired only from
# evaluated annotations, and the property tests read ``__required_keys__``.
from typing import Any, NotRequired, TypedDict


class BreakdownItem(TypedDict):
    """One line explaining a Doppelkopf game's ``value``."""

    item: str
    points: int


class GameOver(TypedDict):
    """A race game decided at this hand (calculate-api.md)."""

    winner: str | None
    trick: int
    games: int


class Penalty(TypedDict):
    """A Polish penalty of 1000 (``barrel`` or ``zero_rounds``); ``points`` negative."""

    player: str
    reason: str
    points: int


class HandFigures(TypedDict):
    """One hand of a replay (``hands[i]`` of the calculate response)."""

    number: int  # 1-based
    dealer: str
    active: list[str]  # the players who took part, in seat order
    deltas: dict[str, int]  # by party, every party
    totals: dict[str, int]  # by party, running totals after the hand
    hand_winners: list[str]  # see the module docstring
    game_winner: str | None  # see the module docstring
    # Doppelkopf
    round: NotRequired[str]
    multiplier: NotRequired[int]
    winner: NotRequired[str | None]  # "re", "kontra" or None
    value: NotRequired[int]
    triggers: NotRequired[list[str]]
    breakdown: NotRequired[list[BreakdownItem]]
    kind: NotRequired[str]
    solo: NotRequired[str | None]
    soloist: NotRequired[str | None]
    re: NotRequired[list[str]]
    revoke_by: NotRequired[str | None]
    loser_points: NotRequired[bool]
    # 1000
    contract: NotRequired[int]
    declarer: NotRequired[str]
    penalties: NotRequired[list[Penalty]]
    # 1000, 56 (bool) and the bidding race games (None: cut off by the end of the game)
    made: NotRequired[bool | None]
    # 1000 and the race games: what the hand itself scored, before any reset
    scored: NotRequired[dict[str, int]]
    # 56
    winner_team: NotRequired[str]
    stake: NotRequired[int]
    bidder_team: NotRequired[str]
    paid: NotRequired[int | None]
    match_winner: NotRequired[str | None]
    # race games (25, 45, 110, Auction 45s) and Spoil Five (ignored_tricks)
    ignored_tricks: NotRequired[list[int]]
    game_over: NotRequired[GameOver | None]
    games_won: NotRequired[dict[str, int]]
    # Spoil Five
    pot: NotRequired[int]
    pot_winner: NotRequired[str | None]
    jink: NotRequired[str | None]
    fed: NotRequired[dict[str, int]]


class ReplayResult(TypedDict):
    """What a game's replay returns (the calculate response without ``game``, ``variant`` and
    ``rules``, which the API and ``leagues.services.calculate_meeting`` add)."""

    parties: list[str]
    hands: list[HandFigures]
    totals: dict[str, int]
    next: dict[str, Any]  # dealer, active, and each game's own (calculate-api.md)
    # 1000, 56: the most recent game (match) winner
    winner: NotRequired[str | None]
    # 1000 and the race games: finished games ({"winner", "hand"}, race games also trick, games)
    games: NotRequired[list[dict[str, Any]]]
    # race games
    games_won: NotRequired[dict[str, int]]
    match_winner: NotRequired[str | None]
    # 56 and the race games: finished matches ({"winner", "hand"})
    matches: NotRequired[list[dict[str, Any]]]
    # Spoil Five
    pot: NotRequired[int]


def in_party_order(parties, winners) -> list[str]:
    """``winners`` (any iterable of parties) in the order of ``parties``."""
    chosen = set(winners)
    return [p for p in parties if p in chosen]
