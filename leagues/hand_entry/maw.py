"""Hand entry for the Maw family: 25, 45, 110, Auction 45s and Spoil Five (spec: maw.md).

The form is the same for the whole family, five rows of party chips (who won trick 1, 2, …)
plus the fields one game adds: 110 a bidder and bid, Auction 45s a maker, bid, call and
"bagged", Spoil Five a jink. Which fields a game has is the game's ``hand_fields`` (scoring's
registry), never its name. Parties are the teams when the meeting plays in teams, else the
players; the replay's ``parties`` says which, so this module never decides it.

Nothing here scores or judges a hand: a posted value that can be read goes into the payload
as it is, and the engine says whether it makes sense (a bid below the minimum, a call without
a bid of 30). Only what cannot be read at all (a bid that is not a number, a gap in the
tricks) is reported here.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import maw
from scoring.numbers import whole_number
from scoring.registry import get_game

TEMPLATE = "hands/maw.html"
NO_TRUMP = "none"  # the form's value for "no trump was played" (null in the payload)
CALL_LABELS = {"30_for_60": gettext_lazy("30 for 60"), "60_for_120": gettext_lazy("60 for 120")}


def _fields(game):
    return get_game(game).hand_fields


def _bidder_field(fields):
    """The field naming the party that won the bidding (110: bidder, Auction 45s: maker)."""
    return next((name for name in ("maker", "bidder") if name in fields), None)


def _int(text, field, errors, label):
    number = whole_number(text)  # ASCII digits only (scoring/numbers.py)
    if number is None:
        errors[field] = _("“%(value)s” is not a whole number: enter the %(what)s in digits.") % {
            "value": text,
            "what": label,
        }
        return None
    return number


def _text(post, name):
    value = post.get(name)
    return value.strip() if isinstance(value, str) else ""


def _tricks(post, errors):
    rows = [_text(post, f"trick_{n}") for n in range(1, maw.TRICKS + 1)]
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
    fields = _fields(result["game"])
    payload, errors = {}, {}

    bidder_field = _bidder_field(fields)
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

    if "call" in fields:
        call = _text(post, "call")
        if call:
            payload["call"] = call
    if "bagged" in fields and _bool(post, "bagged"):
        payload["bagged"] = True
    if "other_bids" in fields:
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

    if "jink" in fields and _bool(post, "jink"):
        payload["jink"] = True
    if "top_trump_trick" in fields:
        given, top = _top_trump(post, errors)
        if given:
            payload["top_trump_trick"] = top

    return payload, errors


def extra_context(result):
    """What the game's form shows, all from scoring: the hand fields it asks for (``fields``,
    each name true), the trick rows, and under the rules in force the bids (chips), the
    calls and what the top bid scores. Bids are not narrowed to ``next.min_bid``: a bagged
    dealer bids ``min_bid`` even with 100 or more."""
    rules = result.get("rules") or {}
    fields = _fields(result["game"])
    context = {
        "fields": dict.fromkeys(fields, True),
        "bidder_field": _bidder_field(fields),
        "trick_numbers": [str(n) for n in range(1, maw.TRICKS + 1)],
    }
    if "bid" in fields:
        context["bids"] = [str(bid) for bid in maw.bids(rules)]
        top = maw.top_bid_scores(result["game"], rules)
        if top:
            context["top_bid"] = {"bid": maw.TOP_BID, "made": top[0], "failed": top[1]}
    if "call" in fields:
        calls = maw.calls(rules)
        context["calls"] = [{"value": call, "label": CALL_LABELS.get(call, call)} for call in calls]
        context["call_values"] = calls
    return context


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
