"""One hand of 1000 as entered: ``declarer``, ``bid``, ``points`` ({active player: card points},
sum 120), optional ``marriages`` ({player: [suit, ...]}), ``all_tricks`` and ``forgot_to_pass``,
each checked with every problem reported (the decisions are in :mod:`scoring.thousand`)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .errors import _
from .thousand_rules import CARD_POINTS, SUITS, bid_range

HAND_FIELDS = frozenset({"declarer", "bid", "points", "marriages", "all_tricks", "forgot_to_pass"})


def _is_int(value: Any) -> bool:
    return type(value) is int  # bool is not an int here


class Hand(NamedTuple):
    """A valid hand of 1000."""

    declarer: str
    bid: int
    forgot: bool  # forgot_to_pass: the hand ended at the first lead
    all_tricks: bool
    points: dict[str, int] | None  # card points by active player (None: forgot, none given)
    marriages: dict[str, int]  # marriage points by player who melded


def read_hand(hand, number, players, active, rules, problems) -> Hand | None:
    """The hand, or None after reporting every problem of it."""
    before = len(problems)
    for key in hand:
        if key not in HAND_FIELDS:
            problems.add(number, key, _("Unknown field “%(name)s”."), name=str(key))
    declarer = hand.get("declarer")
    _check_declarer(declarer, number, players, active, problems)
    bid = hand.get("bid")
    _check_bid(bid, number, rules, problems)
    forgot, all_tricks = _read_flags(hand, number, problems)
    points = None if forgot and hand.get("points") is None else _check_points(number, hand, active, problems)
    marriages = _check_marriages(number, hand, active, rules["marriage_values"], problems)
    if all_tricks and points is not None and isinstance(declarer, str) and declarer in points:
        _check_all_tricks(number, hand, declarer, points, marriages, problems)
    if len(problems) != before:
        return None  # an invalid hand scores nothing; the deal has moved on
    return Hand(declarer, bid, forgot, all_tricks, points, marriages)


def _check_declarer(declarer, number, players, active, problems) -> None:
    if declarer is None:
        problems.add(number, "declarer", _("Say who the declarer was."))
    elif not isinstance(declarer, str) or declarer not in players:
        problems.add(number, "declarer", _("The declarer is not at the table."))
    elif declarer not in active:
        problems.add(number, "declarer", _("%(name)s deals and sits out this hand."), name=declarer)


def _check_bid(bid, number, rules, problems) -> None:
    step = rules["bid_step"]
    min_bid, max_bid = bid_range(rules)
    if bid is None:
        problems.add(number, "bid", _("Give the declarer's final bid."))
    elif not _is_int(bid):
        problems.add(number, "bid", _("The bid must be a whole number."))
    elif bid % step:
        problems.add(number, "bid", _("The bid must be a multiple of %(step)s."), step=step)
    elif bid < min_bid:
        problems.add(number, "bid", _("The bid must be at least %(min)s."), min=min_bid)
    elif bid > max_bid:
        problems.add(
            number,
            "bid",
            _(
                "A bid of %(bid)s is more than 120 card points (240 taking every trick) and every marriage can "
                "make; the highest possible bid is %(max)s."
            ),
            bid=bid,
            max=max_bid,
        )


def _read_flags(hand, number, problems) -> tuple[bool | None, bool | None]:
    """``(forgot_to_pass, all_tricks)``, each None when it is no bool."""
    forgot = _optional_bool(number, hand, "forgot_to_pass", problems)
    all_tricks = _optional_bool(number, hand, "all_tricks", problems)
    if forgot and all_tricks:
        problems.add(number, "all_tricks", _("A declarer who forgot to pass cards cannot have taken every trick."))
    return forgot, all_tricks


def _optional_bool(number, hand, name, problems):
    value = hand.get(name)
    if value is None:
        return False
    if not isinstance(value, bool):
        problems.add(number, name, _("“%(name)s” must be true or false."), name=name)
        return None
    return value


def _check_points(number, hand, active, problems):
    """The card points by active player, or None when unusable (problems added)."""
    points = hand.get("points")
    if not isinstance(points, dict):
        problems.add(number, "points", _("Points must give the card points of each active player."))
        return None
    ok = _points_of_the_active(points, number, active, problems)
    missing = [p for p in active if p not in points]
    if missing:
        problems.add(number, "points", _("Card points missing for: %(names)s."), names=", ".join(missing))
        ok = False
    if not ok:
        return None
    total = sum(points.values())
    if total != CARD_POINTS:
        problems.add(number, "points", _("The card points add up to %(sum)s, not 120."), sum=total)
        return None
    return points


def _points_of_the_active(points, number, active, problems) -> bool:
    """Everyone named is active, with card points from 0 to 120."""
    ok = True
    for name, value in points.items():
        if name not in active:
            problems.add(number, "points", _("%(name)s is not active in this deal."), name=str(name))
            ok = False
        elif not _is_int(value) or not 0 <= value <= CARD_POINTS:
            problems.add(number, "points", _("%(name)s's card points must be a whole number from 0 to 120."), name=name)
            ok = False
    return ok


def _check_marriages(number, hand, active, values, problems):
    """{player: marriage points} for the active players, or None (problems added)."""
    marriages = hand.get("marriages")
    if marriages is None:
        return {}
    if not isinstance(marriages, dict):
        problems.add(number, "marriages", _("Marriages must map players to the suits they melded."))
        return None
    ok = True
    seen: set[str] = set()
    result: dict[str, int] = {}
    for name, suits in marriages.items():
        if name not in active:
            problems.add(number, "marriages", _("%(name)s is not active in this deal."), name=str(name))
            ok = False
        elif not isinstance(suits, list):
            problems.add(number, "marriages", _("%(name)s's marriages must be a list of suits."), name=name)
            ok = False
        else:
            worth = _marriages_worth(name, suits, seen, values, number, problems)
            ok = ok and worth is not None
            result[name] = worth
    return result if ok else None


def _marriages_worth(name, suits, seen, values, number, problems) -> int | None:
    """What one player's marriages are worth; each suit melded once in the hand (``seen``)."""
    worth = 0
    ok = True
    for suit in suits:
        if not isinstance(suit, str) or suit not in SUITS:  # the rules value every one of SUITS
            problems.add(
                number,
                "marriages",
                _("Unknown suit in %(name)s's marriages; use clubs, spades, hearts or diamonds."),
                name=name,
            )
            ok = False
        elif suit in seen:
            problems.add(number, "marriages", _("The %(suit)s marriage is claimed twice."), suit=suit)
            ok = False
        else:
            seen.add(suit)
            worth += values[suit]
    return worth if ok else None


def _check_all_tricks(number, hand, declarer, points, marriages, problems) -> None:
    """A declarer who took every trick has all the card points, and nobody else melded."""
    if points[declarer] != CARD_POINTS:
        problems.add(number, "points", _("The declarer took every trick, so he has all 120 card points."))
    if marriages and any(p != declarer and hand["marriages"][p] for p in marriages):
        problems.add(
            number,
            "marriages",
            _("Only the declarer can meld when he took every trick (melding needs the lead)."),
        )
