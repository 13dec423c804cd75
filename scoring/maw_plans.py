"""A hand of the Maw family's race games as points falling due trick by trick: the planners.

Each planner checks a hand and returns its :class:`scoring.race.Plan`, or None after adding
its problems; :mod:`scoring.race` plays the plan against the game in progress.

How each game turns a hand into points:

- 25 and 45: ``trick_points`` for each trick at the moment it is won, the top trump's trick
  ``top_trump_bonus`` more. ``majority_scoring`` (Barker): a party scores ``trick_points`` at
  the trick that gives it its third trick of the hand and as much again at its fifth (3 or 4
  tricks: 5, all five: 10).
- 110: the others score each trick as it is won (with ``must_bid_out``, never past target − 5
  unless they are already there: then they stay). The bidder's points count at the trick where
  what he made reaches his bid (all he made so far, or with ``maker_scores: bid`` the bid),
  then each further trick he wins (nothing more with ``maker_scores: bid``). A bid of 30 counts
  +60 at the fifth trick when he took all five. A failed bid costs the bid (30: 60) when the
  hand is played out.
- Auction 45s: always scored at the end of the hand (``ends_mid_hand`` fixed false, no option).
  The maker scores what it made (tricks and bonus) if that reaches the bid; a bid of 30 or a
  call is made only with all five tricks and scores the option's pair (``bid_30``,
  ``30_for_60``, ``60_for_120``: [made, failed], the failed value signed, e.g. [60, -60]); a
  failed bid below 30 costs the bid. A non-maker that had ``frozen_at`` or more when the hand
  began scores nothing, unless ``bid_unfreezes`` is set and ``other_bids`` shows it bid at
  least that much; with ``frozen_rule: maker_fails_only`` it scores what it took when the maker
  failed its bid (and nothing when the maker made it).
"""

from __future__ import annotations

from .errors import Problems, _
from .maw_rules import BIDS, CALLS, HUNDRED, TOP_BID
from .race import MISSING, TRICKS, Plan, RaceReplay, check_fields, read_party, read_top_trump, read_tricks

TRICK_FIELDS = frozenset({"tricks", "top_trump_trick"})
ONE_TEN_FIELDS = frozenset({"bidder", "bid", "tricks", "top_trump_trick"})
AUCTION_FIELDS = frozenset({"maker", "bid", "call", "other_bids", "bagged", "tricks", "top_trump_trick"})
MAJORITY = (3, 5)  # majority scoring: the tricks of a hand at which a party scores


def _tricks_and_top(hand, number, problems, replay, bonus):
    tricks = read_tricks(hand, number, problems, replay.index)
    top = read_top_trump(hand, number, problems, len(tricks) if tricks else TRICKS, bonus > 0)
    return tricks, top


def _trick_values(tricks, top, rules) -> list[int]:
    """What each trick is worth: ``trick_points``, the top trump's trick its bonus more."""
    points, bonus = rules["trick_points"], rules.get("top_trump_bonus", 0)
    return [points + bonus if k == top else points for k in range(len(tricks))]


# -- 25 and 45 ---------------------------------------------------------------------------


def plan_tricks(hand: dict, number: int, problems: Problems, replay: RaceReplay) -> Plan | None:
    """25 and 45: points for each trick as it is won."""
    rules = replay.rules
    ok = check_fields(hand, TRICK_FIELDS, number, problems)
    bonus = rules.get("top_trump_bonus", 0)
    tricks, top = _tricks_and_top(hand, number, problems, replay, bonus)
    if not ok or tricks is None or top is MISSING:
        return None
    if rules.get("majority_scoring"):
        return Plan(tricks, _majority_credits(tricks, top, rules, replay.race.size))
    values = _trick_values(tricks, top, rules)
    return Plan(tricks, [((party, value, None),) for party, value in zip(tricks, values, strict=True)])


def _majority_credits(tricks, top, rules, size):
    """A party scores a trick's points at its third trick and again at its fifth; the top
    trump's bonus at its trick."""
    points, bonus = rules["trick_points"], rules.get("top_trump_bonus", 0)
    counts = [0] * size
    credits = []
    for k, party in enumerate(tricks):
        counts[party] += 1
        value = points if counts[party] in MAJORITY else 0
        if k == top:
            value += bonus
        credits.append(((party, value, None),) if value else ())
    return credits


def _read_bid(hand, number, problems, low):
    value = hand.get("bid")
    if value is None:
        problems.add(number, "bid", _("Enter the bid."))
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in BIDS:
        problems.add(number, "bid", _("A bid is 5, 10, 15, 20, 25 or 30."))
        return None
    if value < low:
        problems.add(number, "bid", _("The lowest bid is %(min)s."), min=low)
        return None
    return value


# -- 110 ---------------------------------------------------------------------------------


def plan_one_ten(hand: dict, number: int, problems: Problems, replay: RaceReplay) -> Plan | None:
    """110: the others score trick by trick; the bidder from the trick his bid is made."""
    rules = replay.rules
    ok = check_fields(hand, ONE_TEN_FIELDS, number, problems)
    bidder = read_party(hand, "bidder", number, problems, replay.index)
    bid = _read_bid(hand, number, problems, rules["min_bid"])
    tricks, top = _tricks_and_top(hand, number, problems, replay, rules["top_trump_bonus"])
    if not ok or None in (bidder, bid, tricks) or top is MISSING:
        return None
    made = _BidderTricks(bid, rules["maker_scores"] == "bid")
    credits = _one_ten_credits(tricks, top, bidder, made, rules)
    if made.at is not None:
        return Plan(tricks, credits, maker=bidder, made_at=made.at)
    # a failed bid costs the bid, thirty for sixty twice the bid
    end = ((bidder, -2 * bid if bid == TOP_BID else -bid),)
    return Plan(tricks, credits, end, maker=bidder, failed=True)


def _one_ten_credits(tricks, top, bidder, made, rules):
    # must_bid_out: the others never go past target - 5
    cap = rules["target"] - 5 if rules["must_bid_out"] else None
    credits = []
    for k, (party, value) in enumerate(zip(tricks, _trick_values(tricks, top, rules), strict=True)):
        if party != bidder:
            credits.append(((party, value, cap),))
            continue
        credit = made.win(k, value)
        credits.append(((party, credit, None),) if credit else ())
    return credits


class _BidderTricks:
    """The 110 bidder's tricks as they come: what he has made, and the trick his bid was made at."""

    __slots__ = ("bid", "scores_bid", "made", "won", "at")

    def __init__(self, bid: int, scores_bid: bool):
        self.bid = bid
        self.scores_bid = scores_bid  # maker_scores "bid": the bid, and nothing more after it
        self.made = 0
        self.won = 0
        self.at: int | None = None  # the 0-based trick at which the bid was made

    def win(self, trick: int, value: int) -> int:
        """Count trick ``trick`` (worth ``value``) won by the bidder; what it credits him."""
        self.made += value
        self.won += 1
        if self.at is not None:
            return 0 if self.scores_bid else value
        if self.bid == TOP_BID:  # thirty for sixty: every trick, twice the bid
            if self.won < TRICKS:
                return 0
            self.at = trick
            return 2 * self.bid
        if self.made < self.bid:
            return 0
        self.at = trick
        return self.bid if self.scores_bid else self.made


# -- Auction 45s -------------------------------------------------------------------------


def plan_auction(hand: dict, number: int, problems: Problems, replay: RaceReplay) -> Plan | None:
    """Auction 45s: everything scored at the end of the hand."""
    fields_ok = check_fields(hand, AUCTION_FIELDS, number, problems)
    maker = read_party(hand, "maker", number, problems, replay.index)
    bagged, bagged_ok = _read_bagged(hand, number, problems)
    bid = _auction_bid(hand, number, problems, replay, maker, bagged)
    if bagged and maker is not None and maker != replay.dealer_party:
        problems.add(number, "bagged", _("Only the dealer can be bagged."))
        bagged_ok = False
    pair, call_ok = _read_call(hand, number, problems, replay, maker, bid)
    others, others_ok = _read_other_bids(hand, number, problems, replay.index, maker, bid, bagged)
    tricks, top = _tricks_and_top(hand, number, problems, replay, replay.rules["top_trump_bonus"])
    if tricks is not None and len(tricks) != TRICKS:
        problems.add(number, "tricks", _("Enter all five tricks: in this variant every hand is played out."))
        tricks = None
    if not all((fields_ok, bagged_ok, call_ok, others_ok)) or None in (maker, bid, tricks) or top is MISSING:
        return None
    return _auction_plan(replay, tricks, top, maker, bid, pair, others)


def _read_bagged(hand, number, problems) -> tuple[bool | None, bool]:
    """``(bagged, ok)``: whether the dealer was made to bid because nobody else did."""
    bagged = hand.get("bagged")
    if bagged is None or isinstance(bagged, bool):
        return bagged, True
    problems.add(number, "bagged", _("Bagged must be true or false."))
    return None, False


def _auction_bid(hand, number, problems, replay, maker, bagged) -> int | None:
    """The maker's bid: with 100 or more the lowest is ``min_bid_at_100``, unless bagged."""
    rules = replay.rules
    totals = replay.race.totals
    low = rules["min_bid"]
    if maker is not None and not bagged and totals[maker] >= HUNDRED:
        low = rules["min_bid_at_100"]
    bid = _read_bid(hand, number, problems, BIDS[0])
    if bid is None or maker is None or bid >= low:
        return bid
    problems.add(
        number,
        "bid",
        _("%(party)s has %(total)s points: the lowest bid is %(min)s."),
        party=replay.parties[maker],
        total=totals[maker],
        min=low,
    )
    return None


def _read_call(hand, number, problems, replay, maker, bid) -> tuple[list[int] | None, bool]:
    """``(pair, ok)``: what a call played in this variant scores, made and failed (None
    without a call)."""
    rules = replay.rules
    call = hand.get("call")
    if call is None:
        return None, True
    if not isinstance(call, str) or call not in CALLS:
        problems.add(number, "call", _("A call is “30_for_60” or “60_for_120”."))
    elif rules[call] is None:
        problems.add(number, "call", _("The call “%(call)s” is not played in this variant."), call=call)
    elif bid is not None and bid != TOP_BID:
        problems.add(number, "call", _("A call needs a bid of 30."))
    elif call == "60_for_120" and not _may_call_sixty(replay, maker):
        problems.add(
            number,
            "call",
            _("Only a party below 0 may call “60 for 120”; %(party)s has %(total)s."),
            party=replay.parties[maker],
            total=replay.race.totals[maker],
        )
    else:
        return rules[call], True
    return None, False


def _may_call_sixty(replay, maker) -> bool:
    """``60_for_120_in_hole``: only a party below 0 may call 60 for 120."""
    return not replay.rules["60_for_120_in_hole"] or maker is None or replay.race.totals[maker] < 0


def _read_other_bids(hand, number, problems, index, maker, bid, bagged) -> tuple[dict[int, int], bool]:
    """``({party: its highest bid}, ok)`` of the parties other than the maker."""
    others: dict[int, int] = {}
    value = hand.get("other_bids")
    if value is None:
        return others, True
    if not isinstance(value, dict):
        problems.add(number, "other_bids", _("Other bids must map each party to the highest bid it made."))
        return others, False
    ok = True
    for name, other in value.items():
        party = _other_bid(name, other, index, maker, bid, others, number, problems)
        if party is None:
            ok = False
        else:
            others[party] = other
    if bagged and others:
        problems.add(number, "bagged", _("A bagged dealer bid because nobody else did: no other bids."))
        ok = False
    return others, ok


def _other_bid(name, other, index, maker, bid, others, number, problems) -> int | None:
    """The party of one entry of ``other_bids``; None after a problem."""
    party = index.get(name) if isinstance(name, str) else None
    if party is None:
        problems.add(number, "other_bids", _("“%(name)s” is not a player or team at this table."), name=str(name))
    elif party == maker or party in others:
        problems.add(
            number, "other_bids", _("%(name)s is the maker or named twice: list each other party once."), name=name
        )
    elif isinstance(other, bool) or not isinstance(other, int) or other not in BIDS:
        problems.add(number, "other_bids", _("A bid is 5, 10, 15, 20, 25 or 30."))
    elif bid is not None and other > bid:
        problems.add(
            number,
            "other_bids",
            _("%(name)s bid %(other)s, more than the winning bid %(bid)s."),
            name=name,
            other=other,
            bid=bid,
        )
    else:
        return party
    return None


def _auction_plan(replay, tricks, top, maker, bid, pair, others) -> Plan:
    """Every party's score of the hand, all of it due at the fifth trick."""
    rules = replay.rules
    totals = replay.race.totals
    size = replay.race.size
    taken = [0] * size
    for party, value in zip(tricks, _trick_values(tricks, top, rules), strict=True):
        taken[party] += value
    made, score = _maker_score(rules, bid, pair, taken[maker], tricks.count(maker))
    # frozen_rule "maker_fails_only": a frozen party still scores when the maker fails its bid
    thaws = rules["frozen_rule"] == "maker_fails_only" and not made
    final = []
    for party in range(size):
        if party == maker:
            value = score
        elif not thaws and _frozen(rules, totals[party], others.get(party, 0)):
            value = 0
        else:
            value = taken[party]
        if value:
            final.append((party, value, None))
    credits = [(), (), (), (), tuple(final)]
    return Plan(tricks, credits, maker=maker, made_at=TRICKS - 1 if made else None, failed=not made)


def _maker_score(rules, bid, pair, taken, tricks) -> tuple[bool, int]:
    """``(made, score)`` of the maker, who took ``taken`` points in ``tricks`` tricks: a bid of
    30 or a call needs every trick and scores the option's pair, a lower bid what it made."""
    if bid == TOP_BID or pair is not None:
        made = tricks == TRICKS
        made_score, failed_score = pair or rules["bid_30"]
        return made, made_score if made else failed_score
    made = taken >= bid
    return made, taken if made else -bid


def _frozen(rules, total: int, highest_bid: int) -> bool:
    """A party at ``frozen_at`` or more as the hand began scores nothing as a non-maker, unless
    it bid at least ``bid_unfreezes``."""
    frozen_at, unfreezes = rules["frozen_at"], rules["bid_unfreezes"]
    if frozen_at is None or total < frozen_at:
        return False
    return unfreezes is None or highest_bid < unfreezes
