"""Hand entry for 56 (spec: fifty-six.md).

Bidder (chips grouped by team), bid, trump, double or redouble, and the card points the
bidding team took. Whether the bid was made and what it is worth is the engine's business;
the range of bids and the card points come from ``scoring.fifty_six``.
"""

from django.utils.translation import gettext as _

from leagues.hand_entry import suit_chips
from scoring.fifty_six import CARD_POINTS, MAX_BID, MIN_BID, TRUMPS
from scoring.numbers import whole_number

TEMPLATE = "hands/fifty_six.html"


def _text(post, name):
    value = post.get(name)
    return value.strip() if isinstance(value, str) else ""


def _number(post, name, errors, missing, what):
    text = _text(post, name)
    if not text:
        errors[name] = missing
        return None
    number = whole_number(text)  # ASCII digits only (scoring/numbers.py)
    if number is None:
        errors[name] = _("“%(value)s” is not a whole number: enter the %(what)s in digits.") % {
            "value": text,
            "what": what,
        }
        return None
    return number


def payload_from_post(post, *, players, result):
    payload, errors = {}, {}

    bidder = _text(post, "bidder")
    if bidder:
        payload["bidder"] = bidder
    else:
        errors["bidder"] = _("Tap who won the bidding.")

    missing_bid = _("Enter the bid (%(min)s to %(max)s).") % {"min": MIN_BID, "max": MAX_BID}
    bid = _number(post, "bid", errors, missing_bid, _("bid"))
    if bid is not None:
        payload["bid"] = bid

    trump = _text(post, "trump")
    if trump:
        payload["trump"] = trump
    else:
        errors["trump"] = _("Tap the trump suit, or no trump.")

    # No double is the usual case, so an untouched field means 0.
    double = whole_number(_text(post, "double") or "0")
    if double is None:
        errors["double"] = _("Choose none, double or redouble.")
    else:
        payload["double"] = double

    points = _number(
        post, "bidder_team_points", errors, _("Enter the card points the bidding team took."), _("card points")
    )
    if points is not None:
        payload["bidder_team_points"] = points
    return payload, errors


def extra_context(result):
    """The range of bids and the card points of the deck, for the number fields, and the
    trumps that can be named (``scoring.fifty_six.TRUMPS``)."""
    return {"min_bid": MIN_BID, "max_bid": MAX_BID, "card_points": CARD_POINTS, "trumps": suit_chips(TRUMPS)}


def initial_from_payload(payload):
    def text(name):
        return "" if payload.get(name) is None else str(payload[name])

    return {
        "bidder": text("bidder"),
        "bid": text("bid"),
        "trump": text("trump"),
        "double": text("double") or "0",
        "bidder_team_points": text("bidder_team_points"),
    }
