"""Hand entry for 56 (spec: fifty-six.md): ``FiftySixHandForm``.

Bidder (chips grouped by team), bid, trump, double or redouble, and the card points the
bidding team took. Whether the bid was made and what it is worth is the engine's business;
the range of bids and the card points come from ``scoring.fifty_six``.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.table.hand_entry import outcome_label, party_label, suit_chips
from leagues.table.hand_entry.base import HandForm, TextField, WholeNumberField, digits_message
from scoring.fifty_six import CARD_POINTS, MAX_BID, MIN_BID, TRUMPS

TEMPLATE = "hands/fifty_six.html"


class FiftySixHandForm(HandForm):
    """A hand of fifty-six.md from templates/hands/fifty_six.html."""

    bidder = TextField()
    bid = WholeNumberField(error_messages={"invalid": digits_message(gettext_lazy("bid"))})
    trump = TextField()
    # No double is the usual case, so an untouched field means 0.
    double = WholeNumberField(error_messages={"invalid": gettext_lazy("Choose none, double or redouble.")})
    bidder_team_points = WholeNumberField(error_messages={"invalid": digits_message(gettext_lazy("card points"))})

    def clean(self):
        data = super().clean()
        missing = {
            "bidder": _("Tap who won the bidding."),
            "bid": _("Enter the bid (%(min)s to %(max)s).") % {"min": MIN_BID, "max": MAX_BID},
            "trump": _("Tap the trump suit, or no trump."),
            "bidder_team_points": _("Enter the card points the bidding team took."),
        }
        for name, message in missing.items():
            if name in data and data[name] in (None, ""):
                self.add_error(name, message)
        if "double" in data and data["double"] is None:
            data["double"] = 0
        return data

    def to_payload(self):
        data = self.cleaned_data
        names = ("bidder", "bid", "trump", "double", "bidder_team_points")
        return {name: data[name] for name in names if data.get(name) not in (None, "")}

    @classmethod
    def from_payload(cls, payload):
        def text(name):
            return "" if payload.get(name) is None else str(payload[name])

        return {
            "bidder": text("bidder"),
            "bid": text("bid"),
            "trump": text("trump"),
            "double": text("double") or "0",
            "bidder_team_points": text("bidder_team_points"),
        }


# The module contract the views use (leagues/table/hand_entry/__init__.py).
payload_from_post = FiftySixHandForm.payload_from_post
initial_from_payload = FiftySixHandForm.from_payload


def extra_context(result):
    """The range of bids and the card points of the deck, for the number fields, and the
    trumps that can be named (``scoring.fifty_six.TRUMPS``)."""
    return {"min_bid": MIN_BID, "max_bid": MAX_BID, "card_points": CARD_POINTS, "trumps": suit_chips(TRUMPS)}


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
