"""Hand entry for the Maw family: 25, 45, 110, Auction 45s and Spoil Five (spec: maw.md).

The form is the same for the whole family, five rows of party chips (who won trick 1, 2, …)
plus the fields one game adds: 110 a bidder and bid, Auction 45s a maker, bid, call and
"bagged", Spoil Five a jink. Parties are the teams when the meeting plays in teams, else the
players; the replay's ``parties`` says which, so this module never decides it.

Nothing here scores or judges a hand: a posted value that can be read goes into the payload
as it is, and the engine says whether it makes sense (a bid below the minimum, a call without
a bid of 30). Only what cannot be read at all (a bid that is not a number, a gap in the
tricks) is reported here.
"""

from django.utils.translation import gettext as _

from scoring.registry import get_game

TEMPLATE = "hands/maw.html"
TRICKS = 5
NO_TRUMP = "none"  # the form's value for "no trump was played" (null in the payload)

# The games that name a bidding party and the form field that carries it.
BIDDER_FIELD = {"one_ten": "bidder", "auction_45": "maker"}


def _int(text, field, errors, label):
    try:
        return int(text.strip())
    except (TypeError, ValueError, AttributeError):
        errors[field] = _("“%(value)s” is not a whole number: enter the %(what)s in digits.") % {
            "value": text,
            "what": label,
        }
        return None


def _text(post, name):
    value = post.get(name)
    return value.strip() if isinstance(value, str) else ""


def _tricks(post, errors):
    rows = [_text(post, f"trick_{n}") for n in range(1, TRICKS + 1)]
    while rows and not rows[-1]:
        rows.pop()
    if not rows:
        errors["tricks"] = _("Tap who won each trick.")
        return None
    gaps = [str(n) for n, winner in enumerate(rows, start=1) if not winner]
    if gaps:
        errors["tricks"] = _("Trick %(numbers)s has no winner, but a later trick has one.") % {
            "numbers": ", ".join(gaps)
        }
        return None
    return rows


def _top_trump(post, errors):
    value = _text(post, "top_trump_trick")
    if not value:
        return False, None  # not given: omitted, the engine says when it is needed
    if value == NO_TRUMP:
        return True, None
    number = _int(value, "top_trump_trick", errors, _("trick number"))
    return number is not None, number


def _bool(post, name):
    return _text(post, name).lower() in {"1", "on", "true", "yes"}


def payload_from_post(post, *, players, result):
    """The hand as maw.md shapes it for ``result["game"]``; unreadable input in ``errors``."""
    game = result["game"]
    payload, errors = {}, {}

    bidder_field = BIDDER_FIELD.get(game)
    if bidder_field:
        bidder = _text(post, bidder_field)
        if bidder:
            payload[bidder_field] = bidder
        else:
            errors[bidder_field] = (
                _("Tap who made trump.") if bidder_field == "maker" else _("Tap who won the bidding.")
            )
        bid = _text(post, "bid")
        if bid:
            number = _int(bid, "bid", errors, _("bid"))
            if number is not None:
                payload["bid"] = number
        else:
            errors["bid"] = _("Tap the bid.")

    if game == "auction_45":
        call = _text(post, "call")
        if call:
            payload["call"] = call
        if _bool(post, "bagged"):
            payload["bagged"] = True
        # Only asked for where a frozen party's own bid can unfreeze it (option bid_unfreezes).
        other_bids = {}
        for party in result.get("parties", ()):
            text = _text(post, f"other_bids:{party}")
            if text:
                number = _int(text, "other_bids", errors, _("bid"))
                if number is not None:
                    other_bids[party] = number
        if other_bids and "other_bids" not in errors:
            payload["other_bids"] = other_bids

    tricks = _tricks(post, errors)
    if tricks is not None:
        payload["tricks"] = tricks

    if game == "spoil_five":
        if _bool(post, "jink"):
            payload["jink"] = True
    else:
        given, top = _top_trump(post, errors)
        if given:
            payload["top_trump_trick"] = top

    return payload, errors


def extra_context(result):
    """The bids to offer as chips, from the rules in force, not from a preset: from the
    lowest any party may bid now (Auction 45s: ``next.min_bid``; else the option ``min_bid``)
    up to the highest the ``min_bid`` option allows, in steps of its smallest value (the
    engine's bids go in fives). Games without bids get nothing."""
    rules = result.get("rules") or {}
    if "min_bid" not in rules:
        return {}
    option = next(o for o in get_game(result["game"]).options if o.name == "min_bid")
    lows = result.get("next", {}).get("min_bid")
    low = min(lows.values()) if isinstance(lows, dict) and lows else rules["min_bid"]
    return {"bids": [str(bid) for bid in range(low, option.maximum + 1, option.minimum)]}


def initial_from_payload(payload):
    """Form values for a stored hand. Trick rows are "n:party" strings, so that the template
    can test a chip with ``in`` (Django templates cannot look a key up by a variable)."""
    initial = {
        "tricks": [f"{n}:{winner}" for n, winner in enumerate(payload.get("tricks") or (), start=1)],
        "bid": "" if payload.get("bid") is None else str(payload["bid"]),
        "bidder": payload.get("bidder") or payload.get("maker") or "",
        "call": payload.get("call") or "",
        "bagged": bool(payload.get("bagged")),
        "other_bids": {party: str(bid) for party, bid in (payload.get("other_bids") or {}).items()},
        "jink": bool(payload.get("jink")),
    }
    if "top_trump_trick" in payload:
        top = payload["top_trump_trick"]
        initial["top_trump_trick"] = NO_TRUMP if top is None else str(top)
    else:
        initial["top_trump_trick"] = ""
    return initial
