"""Hand entry for 56 (spec: fifty-six.md).

Bidder (chips grouped by team), bid, trump, double or redouble, and the card points the
bidding team took. Whether the bid was made and what it is worth is the engine's business;
the range of bids and the card points come from ``scoring.fifty_six``.
"""

from django.utils.translation import gettext as _

from leagues.hand_entry import outcome_label, party_label, suit_chips
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


# --- the sheet: what a hand decided and why it scored what it did ----------------------------


def game_end(figures, result):
    """A match won at this hand (with ``tables``: the replay's ``match_winner``)."""
    winner = figures.get("match_winner")
    return [("match", winner, 1)] if winner else []


def breakdown(figures, payload, result):
    """The why dialog's figures: the bid as entered, its double, the bidding team's card
    points, made or failed and the stake the replay gave the winning team (and what was paid,
    with tables); per team its points in the hand."""
    payload = payload or {}
    members = result.get("team_members")
    looks = {chip["value"]: str(chip["label"]) for chip in suit_chips(TRUMPS)}
    bid = f"{payload.get('bidder')}: {payload.get('bid')} {looks.get(payload.get('trump'), payload.get('trump') or '')}"
    facts = [(_("Bid"), bid.strip())]
    if payload.get("double"):
        facts.append((_("Doubled"), _("Redouble") if payload["double"] == 2 else _("Double")))
    facts.append((_("Card points of the bidding team"), payload.get("bidder_team_points")))
    facts.append(
        (_("Bidding team"), f"{party_label(figures.get('bidder_team'), members)}, {outcome_label(figures.get('made'))}")
    )
    facts.append((_("Stake"), f"{figures.get('stake')} → {party_label(figures.get('winner_team'), members)}"))
    if figures.get("paid") is not None:
        facts.append((_("Paid"), figures["paid"]))
    rows = [(party_label(party, members), [figures["deltas"][party]]) for party in result["parties"]]
    return {"facts": facts, "columns": [_("Points")], "rows": rows}


def describe(payload):
    """The hand as entered, in the players' words (the why dialog's "as entered", the
    history), never the payload's field names."""
    looks = {chip["value"]: str(chip["label"]) for chip in suit_chips(TRUMPS)}
    lines = []
    if payload.get("bidder") is not None:
        lines.append((_("Bidder"), payload["bidder"]))
    if payload.get("bid") is not None:
        lines.append((_("Bid"), payload["bid"]))
    if payload.get("trump") is not None:
        trump = payload["trump"]
        lines.append((_("Trump"), looks.get(trump, trump) if isinstance(trump, str) else trump))
    if payload.get("double"):
        lines.append((_("Doubled"), _("Redouble") if payload["double"] == 2 else _("Double")))
    if payload.get("bidder_team_points") is not None:
        lines.append((_("Card points of the bidding team"), payload["bidder_team_points"]))
    return lines
