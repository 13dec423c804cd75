"""The bounds on every number and list that enters scoring/, and why they are safe.

A figure the replay computes ends in ``HandResult.delta`` and ``HandResult.total``, which are
32-bit integers on PostgreSQL (at most INT32_MAX = 2,147,483,647 either way). A Spoil Five
``stake`` of 2**31 once turned every hand of a league into a 500. So every number that can
feed a figure is bounded where it enters (the rule options in ``scoring/options.py`` and the
games' option declarations, ``start_totals`` in ``scoring/sitting.py``, the hands' fields in
each game's checks), and the bounds are chosen so that a whole evening of the largest hands
the rules allow stays far inside that range:

    |total| <= MAX_START_TOTAL + MAX_HANDS * MOST_PER_HAND
            =  1,000,000       + 2,000     * 20,000          = 41,000,000
    |delta| <= 2 * 41,000,000 = 82,000,000                    (a race game's reset to 0
                                                               moves a total by at most itself)

    82,000,000 < INT32_MAX / 20: room to spare for any option a game adds later.

MOST_PER_HAND is the most points one hand can move in or out of one party's score, with every
option at its largest allowed value (``scoring/options.py`` and the games' declarations):

- Spoil Five: each of ten players pays ``stake`` (<= 1,000) into the pot and the dealer
  ``dealer_extra`` (<= 1,000) more: 11,000 chips a hand go into the pot; a jink takes
  ``stake`` from each of the nine others besides: 9,000. A winner can only ever take chips
  that were paid in, so over an evening a player's total moves by at most 2,000 hands x
  20,000, although the pot of many spoilt hands can change hands in one (the one figure that
  grows across hands).
- 1000: a contract is at most 240 + the four marriage values (<= 1,000 each) = 4,240; the
  forgot-to-pass penalty is at most 10,000; a player who is not declarer scores at most 120
  card points plus his marriages; a game ends above ``target`` (<= 10,000), so positive
  totals stay below 10,000 + 4,240 + 4,000, while failed contracts can sink a total by at
  most 10,000 a hand.
- 25, 45, 110, Auction 45s: five tricks of at most 100 points and a top-trump bonus of at
  most 100, or a bid of 30 / a call worth at most 1,000 either way; a game ends at ``target``
  (<= 1,000).
- 56: the stake of a hand (at most 100, the largest a ``stake_table`` may hold; 5 for a lost
  bid of 56 in the seed's table) times a redouble of at most 8: 800;
  with ``tables`` (at most 1,000 tokens a team) a total never exceeds both teams' tokens.
- Doppelkopf: every value comes from the game itself (at most a few dozen points), doubled
  in a Bock game and tripled for a soloist or a revoke (``revoke_multiplier`` <= 3).

``tests/scoring/test_limits.py`` plays the worst of these evenings (one of ten players
jinking the largest pot in each of 2,000 hands, the pot of 1,999 spoilt hands won at once, a
1000 game sinking from -1,000,000 by the largest penalty) and checks the figures against these
bounds; ``tests/test_number_limits.py`` stores such an evening on the database.
"""

from __future__ import annotations

INT32_MAX = 2**31 - 1

# Hands in one calculate request or one meeting. A real evening has 20 to 80; a marathon
# weekend maybe 300.
MAX_HANDS = 2_000

# |start_totals| of a race game carried over from an earlier evening or a paper sheet.
MAX_START_TOTAL = 1_000_000

# The most points one hand brings into play for one party (see above: Spoil Five's pot feed
# and a jink).
MOST_PER_HAND = 20_000

MAX_TOTAL = MAX_START_TOTAL + MAX_HANDS * MOST_PER_HAND
assert 2 * MAX_TOTAL < INT32_MAX // 20, "the bounds no longer fit a 32-bit HandResult"

# The restaurant bill (POST /api/v1/bill-split/ and the bill page).
MAX_BILL_PLAYERS = 1_000  # a league's players in one bill; a club has a dozen
MAX_MONEY_CENTS = 100_000_000  # 1,000,000.00 euros: the bill, and what any one player paid
MAX_CENTS_PER_POINT = 10_000  # 100 euros a point
MAX_SEASON_SCORE = 10**12  # |a season's total| in the bill's scores
