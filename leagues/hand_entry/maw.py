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

from leagues.hand_entry import outcome_label, party_label
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


STAR_PARTIES = 3


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
    # A trick's chips with a star (won by the top trump) where that bonus counts, while a row
    # of them still fits a phone: two or three parties.
    context["star_tricks"] = (
        "top_trump_trick" in fields
        and "jink" not in fields
        and bool(rules.get("top_trump_bonus"))
        and len(result["parties"]) <= STAR_PARTIES
    )
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


# --- the sheet: what a hand decided and why it scored what it did ----------------------------


def game_end(figures, result):
    """A game won at this hand (``game_over``) and a match it completed (``matches``)."""
    ends = []
    over = figures.get("game_over")
    if over:
        ends.append(("game", over.get("winner"), over.get("games", 1)))
    for match in result.get("matches") or ():
        if match.get("hand") == figures.get("number"):
            ends.append(("match", match.get("winner"), 1))
    return ends


def _tricks_taken(payload, figures, result):
    """Tricks each party took that counted (those after a won game are ignored by the replay);
    a trick recorded under a player's name belongs to his team."""
    parties = result["parties"]
    team_of = {player: team for team, players in (result.get("team_members") or {}).items() for player in players}
    ignored = set(figures.get("ignored_tricks") or ())
    taken = dict.fromkeys(parties, 0)
    for number, winner in enumerate(payload.get("tricks") or (), start=1):
        party = team_of.get(winner, winner)
        if number not in ignored and party in taken:
            taken[party] += 1
    return taken


def breakdown(figures, payload, result):
    """The why dialog's figures, all from the replay and the hand as entered: the bid and
    whether it was made, the highest trump's trick, tricks not counted, Spoil Five's jink and
    pot; per party the tricks that counted and what the hand scored (Spoil Five: what it fed
    into the pot and its chips in minus out)."""
    payload = payload or {}
    members = result.get("team_members")
    facts = []
    bidder = payload.get("bidder") or payload.get("maker")
    if bidder is not None and payload.get("bid") is not None:
        bid = str(payload["bid"])
        if payload.get("call"):
            bid += " · " + str(CALL_LABELS.get(payload["call"], payload["call"]))
        if payload.get("bagged"):
            bid += " · " + _("bagged")
        facts.append((_("Bid"), f"{party_label(bidder, members)}: {bid}, {outcome_label(figures.get('made'))}"))
    if "top_trump_trick" in payload:
        top = payload["top_trump_trick"]
        value = _("no trump played") if top is None else _("trick %(number)s") % {"number": top}
        facts.append((_("Highest trump"), value))
    if figures.get("jink"):
        facts.append((_("Jink"), outcome_label(figures["jink"] == "made")))
    ignored = figures.get("ignored_tricks") or []
    if ignored:
        facts.append((_("Not counted (the game was already won)"), ", ".join(str(n) for n in ignored)))
    taken = _tricks_taken(payload, figures, result)
    if "pot" in figures:
        facts.append((_("Pot won by"), figures["pot_winner"] or _("nobody: the pot stays")))
        facts.append((_("In the pot now"), figures["pot"]))
        fed = figures.get("fed") or {}
        columns = [_("Tricks"), _("Into the pot"), _("Chips")]
        rows = [
            (party_label(party, members), [taken[party], fed.get(party, 0), figures["deltas"][party]])
            for party in result["parties"]
        ]
    else:
        scored = figures.get("scored") or figures["deltas"]
        columns = [_("Tricks"), _("Points")]
        rows = [(party_label(party, members), [taken[party], scored[party]]) for party in result["parties"]]
    return {"facts": facts, "columns": columns, "rows": rows}


def describe(payload):
    """The hand as entered, in the players' words (the why dialog's "as entered", the
    history), never the payload's field names."""
    lines = []
    if payload.get("bidder") is not None:
        lines.append((_("Bidder"), payload["bidder"]))
    if payload.get("maker") is not None:
        lines.append((_("Maker (won the auction)"), payload["maker"]))
    if payload.get("bid") is not None:
        lines.append((_("Bid"), payload["bid"]))
    call = payload.get("call")
    if call:
        lines.append((_("Call"), str(CALL_LABELS.get(call, call)) if isinstance(call, str) else call))
    if payload.get("bagged"):
        lines.append((_("Bagged"), _("yes")))
    other_bids = payload.get("other_bids")
    if isinstance(other_bids, dict) and other_bids:
        lines.append((_("Highest bid of the others"), ", ".join(f"{p}: {b}" for p, b in other_bids.items())))
    tricks = payload.get("tricks")
    if isinstance(tricks, list):
        lines.append((_("Tricks"), ", ".join(str(t) for t in tricks)))
    if "top_trump_trick" in payload:
        top = payload["top_trump_trick"]
        lines.append(
            (_("Highest trump"), _("no trump played") if top is None else _("trick %(number)s") % {"number": top})
        )
    if payload.get("jink"):
        lines.append((_("Jink"), _("yes")))
    return lines
