"""Hand entry for the Maw family: 25, 45, 110, Auction 45s and Spoil Five (spec: maw.md):
``MawHandForm``.

The form is the same for the whole family, five rows of party chips (who won trick 1, 2, …)
plus the fields one game adds: 110 a bidder and bid, Auction 45s a maker, bid, call and
"bagged", Spoil Five a jink. Which fields a game has is the game's ``hand_fields`` (scoring's
registry), never its name; the form has only those. Parties are the teams when the meeting
plays in teams, else the players; the replay's ``parties`` says which, so this module never
decides it.

Nothing here scores or judges a hand: a posted value that can be read goes into the payload
as it is, and the engine says whether it makes sense (a bid below the minimum, a call without
a bid of 30). Only what cannot be read at all (a bid that is not a number, a gap in the
tricks) is reported here, and left out of the payload.
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.table.hand_entry import outcome_label, party_label
from leagues.table.hand_entry.base import FlagField, HandForm, TextField, WholeNumberField, digits_message
from scoring import maw
from scoring.numbers import whole_number
from scoring.registry import get_game

TEMPLATE = "hands/maw.html"
NO_TRUMP = "none"  # the form's value for "no trump was played" (null in the payload)
CALL_LABELS = {"30_for_60": gettext_lazy("30 for 60"), "60_for_120": gettext_lazy("60 for 120")}
# The form's fields that only some games have: a field is kept where the game's hand fields
# name it (``other_bids`` becomes one field a party, ``other_bids:<party>``).
GAME_FIELDS = ("bidder", "maker", "bid", "call", "bagged", "jink", "top_trump_trick")


def _fields(game):
    return get_game(game).hand_fields


def _bidder_field(fields):
    """The field naming the party that won the bidding (110: bidder, Auction 45s: maker)."""
    return next((name for name in ("maker", "bidder") if name in fields), None)


def _trick_field(number):
    return f"trick_{number}"


class MawHandForm(HandForm):
    """A hand of maw.md for ``result["game"]`` from templates/hands/maw.html."""

    bidder = TextField()
    maker = TextField()
    bid = WholeNumberField(error_messages={"invalid": digits_message(gettext_lazy("bid"))})
    call = TextField()
    bagged = FlagField()
    jink = FlagField()
    # A trick's number, or NO_TRUMP; blank: not given (the engine says where it is needed).
    top_trump_trick = TextField()

    def add_fields(self):
        self.game_fields = _fields(self.result["game"])
        for name in GAME_FIELDS:
            if name not in self.game_fields:
                del self.fields[name]
        self.bidder_field = _bidder_field(self.game_fields)
        for number in range(1, maw.TRICKS + 1):
            self.fields[_trick_field(number)] = TextField()
            self.error_fields[_trick_field(number)] = "tricks"
        if "other_bids" in self.game_fields:
            # Only offered where a frozen party's own bid can unfreeze it (bid_unfreezes).
            field = WholeNumberField(error_messages={"invalid": digits_message(gettext_lazy("bid"))})
            self.add_player_fields("other_bids", field, names=self.result.get("parties", ()))

    def clean_top_trump_trick(self):
        value = self.cleaned_data["top_trump_trick"]
        if value in ("", NO_TRUMP):
            return value
        number = whole_number(value)  # ASCII digits only (scoring/numbers.py)
        if number is None:
            raise ValidationError(digits_message(_("trick number")), code="invalid", params={"value": value})
        return number

    def clean(self):
        data = super().clean()
        if self.bidder_field:
            if not data.get(self.bidder_field):
                self.add_error(
                    self.bidder_field,
                    _("Tap who made trump.") if self.bidder_field == "maker" else _("Tap who won the bidding."),
                )
            if "bid" in data and data["bid"] is None:
                self.add_error("bid", _("Tap the bid."))
        rows = self._trick_rows()
        if not rows:
            self.add_hand_error("tricks", _("Tap who won each trick."))
        else:
            gaps = [str(n) for n, winner in enumerate(rows, start=1) if not winner]
            if gaps:
                message = _("Trick %(numbers)s has no winner, but a later trick has one.") % {
                    "numbers": ", ".join(gaps)
                }
                self.add_hand_error("tricks", message)
        return data

    def _trick_rows(self):
        """The winners tapped, trick by trick, up to the last trick tapped ("" for a gap)."""
        rows = [self.cleaned_data.get(_trick_field(n)) or "" for n in range(1, maw.TRICKS + 1)]
        while rows and not rows[-1]:
            rows.pop()
        return rows

    def to_payload(self):
        data = self.cleaned_data
        problems = self.hand_errors()
        payload = self._bid_payload(data)
        if "other_bids" in self.game_fields and "other_bids" not in problems:
            other_bids = {
                party: bid
                for party, bid in self.player_values("other_bids", names=self.result.get("parties", ())).items()
                if bid is not None
            }
            if other_bids:
                payload["other_bids"] = other_bids
        if "tricks" not in problems:
            payload["tricks"] = self._trick_rows()
        if data.get("jink"):
            payload["jink"] = True
        top = data.get("top_trump_trick")
        if top not in (None, ""):
            payload["top_trump_trick"] = None if top == NO_TRUMP else top
        return payload

    def _bid_payload(self, data):
        """The bidding as posted: who won it, the bid, Auction 45s' call and "bagged"."""
        payload = {}
        if self.bidder_field and data.get(self.bidder_field):
            payload[self.bidder_field] = data[self.bidder_field]
        if data.get("bid") is not None:
            payload["bid"] = data["bid"]
        if data.get("call"):
            payload["call"] = data["call"]
        if data.get("bagged"):
            payload["bagged"] = True
        return payload

    @classmethod
    def from_payload(cls, payload):
        """Form values for a stored hand. Trick rows are "n:party" strings, so that the
        template can test a chip with ``in`` (Django templates cannot look a key up by a
        variable)."""
        initial = {
            "tricks": [f"{n}:{winner}" for n, winner in enumerate(payload.get("tricks") or (), start=1)],
            "bid": "" if payload.get("bid") is None else str(payload["bid"]),
            "bidder": payload.get("bidder") or payload.get("maker") or "",
            "call": payload.get("call") or "",
            "bagged": bool(payload.get("bagged")),
            "other_bids": {party: str(bid) for party, bid in (payload.get("other_bids") or {}).items()},
            "jink": bool(payload.get("jink")),
            "top_trump_trick": _top_trump_initial(payload),
        }
        return initial


def _top_trump_initial(payload):
    """The form's value for the highest trump's trick: blank where it was not given."""
    if "top_trump_trick" not in payload:
        return ""
    top = payload["top_trump_trick"]
    return NO_TRUMP if top is None else str(top)


# The module contract the views use (leagues/table/hand_entry/__init__.py).
payload_from_post = MawHandForm.payload_from_post
initial_from_payload = MawHandForm.from_payload


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
    context["star_tricks"] = _star_tricks(fields, rules, result)
    if "bid" in fields:
        context.update(_bid_context(result["game"], rules))
    if "call" in fields:
        calls = maw.calls(rules)
        context["calls"] = [{"value": call, "label": CALL_LABELS.get(call, call)} for call in calls]
        context["call_values"] = calls
    return context


def _star_tricks(fields, rules, result):
    """Whether a trick's chips carry a star (won by the top trump): where that bonus counts,
    while a row of them still fits a phone (two or three parties)."""
    return (
        "top_trump_trick" in fields
        and "jink" not in fields
        and bool(rules.get("top_trump_bonus"))
        and len(result["parties"]) <= STAR_PARTIES
    )


def _bid_context(game, rules):
    """The bids offered as chips and, where the rules give it, what the top bid scores."""
    context = {"bids": [str(bid) for bid in maw.bids(rules)]}
    top = maw.top_bid_scores(game, rules)
    if top:
        context["top_bid"] = {"bid": maw.TOP_BID, "made": top[0], "failed": top[1]}
    return context


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
    facts = _play_facts(figures, payload, members)
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


def _play_facts(figures, payload, members):
    """The bid and its outcome, the highest trump's trick, the jink and the tricks not counted."""
    facts = []
    bidder = payload.get("bidder") or payload.get("maker")
    if bidder is not None and payload.get("bid") is not None:
        bid = _bid_words(payload)
        facts.append((_("Bid"), f"{party_label(bidder, members)}: {bid}, {outcome_label(figures.get('made'))}"))
    if "top_trump_trick" in payload:
        facts.append((_("Highest trump"), _top_trump_words(payload["top_trump_trick"])))
    if figures.get("jink"):
        facts.append((_("Jink"), outcome_label(figures["jink"] == "made")))
    ignored = figures.get("ignored_tricks") or []
    if ignored:
        facts.append((_("Not counted (the game was already won)"), ", ".join(str(n) for n in ignored)))
    return facts


def _bid_words(payload):
    """The bid with its call and "bagged", as the why dialog shows it."""
    bid = str(payload["bid"])
    if payload.get("call"):
        bid += " · " + str(CALL_LABELS.get(payload["call"], payload["call"]))
    if payload.get("bagged"):
        bid += " · " + _("bagged")
    return bid


def _top_trump_words(top):
    return _("no trump played") if top is None else _("trick %(number)s") % {"number": top}


def describe(payload):
    """The hand as entered, in the players' words (the why dialog's "as entered", the
    history), never the payload's field names."""
    return _describe_bidding(payload) + _describe_play(payload)


def _describe_bidding(payload):
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
    return lines


def _describe_play(payload):
    lines = []
    tricks = payload.get("tricks")
    if isinstance(tricks, list):
        lines.append((_("Tricks"), ", ".join(str(t) for t in tricks)))
    if "top_trump_trick" in payload:
        lines.append((_("Highest trump"), _top_trump_words(payload["top_trump_trick"])))
    if payload.get("jink"):
        lines.append((_("Jink"), _("yes")))
    return lines
