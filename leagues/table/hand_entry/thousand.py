"""Hand entry for 1000 (spec: thousand.md): ``ThousandHandForm``.

Declarer, his final bid, each player's card points (the form shows a live sum to
``scoring.thousand.CARD_POINTS``), the marriages each player melded, "durch" (all tricks) and
"forgot to pass". Card points and marriages are posted per player as ``points:<name>`` and
``marriages:<name>`` so that a name with spaces needs no escaping; every player at the table
has them (the engine, not this form, says who sits out). The engine decides whether the
points add up and whether the contract was made; the form only turns the post into the
spec's hand, leaving out what it could not read.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.table.hand_entry import outcome_label, suit_chips
from leagues.table.hand_entry.base import FlagField, HandForm, ListField, TextField, WholeNumberField
from scoring.thousand_rules import CARD_POINTS, SUITS, bid_range

TEMPLATE = "hands/thousand.html"
QUICK_BIDS = 6  # a row of chips on a phone
# The card points offered as chips: up to half the deck (an opponent seldom takes more; more
# is typed), in steps of the rules' rounding. Two rows of six on a phone at 5.
POINT_CHIPS_UP_TO = CARD_POINTS // 2


class ThousandHandForm(HandForm):
    """A hand of thousand.md from templates/hands/thousand.html."""

    declarer = TextField()
    bid = WholeNumberField(
        error_messages={"invalid": gettext_lazy("“%(value)s” is not a whole number: enter the bid in digits.")}
    )
    all_tricks = FlagField()
    forgot_to_pass = FlagField()

    def add_fields(self):
        self.add_player_fields("points", WholeNumberField(), names=self.players)
        self.add_player_fields("marriages", ListField(), names=self.players)

    def clean(self):
        data = super().clean()
        if not data.get("declarer"):
            self.add_error("declarer", _("Tap who played alone (the declarer)."))
        if "bid" in data and data["bid"] is None:
            self.add_error("bid", _("Enter the final bid."))
        # One message naming every player whose points could not be read.
        unreadable = [name for name in self.players if self.errors.pop(f"points:{name}", None)]
        if unreadable:
            message = _("Card points must be whole numbers (check %(names)s).") % {"names": ", ".join(unreadable)}
            self.add_hand_error("points", message)
        elif not self._points() and not data.get("forgot_to_pass"):
            self.add_hand_error("points", _("Enter the card points each player took."))
        return data

    def _points(self):
        """The card points typed, by player (the empty and the unreadable left out)."""
        return {
            name: self.cleaned_data[f"points:{name}"]
            for name in self.players
            if self.cleaned_data.get(f"points:{name}") is not None
        }

    def to_payload(self):
        data = self.cleaned_data
        payload = {}
        if data.get("declarer"):
            payload["declarer"] = data["declarer"]
        if data.get("bid") is not None:
            payload["bid"] = data["bid"]
        if "points" not in self.hand_errors() and self._points():
            payload["points"] = self._points()
        marriages = {name: data[f"marriages:{name}"] for name in self.players if data.get(f"marriages:{name}")}
        if marriages:
            payload["marriages"] = marriages
        if data.get("all_tricks"):
            payload["all_tricks"] = True
        if data.get("forgot_to_pass"):
            payload["forgot_to_pass"] = True
        return payload

    @classmethod
    def from_payload(cls, payload):
        """Form values for a stored hand. Points stay a dict (the template finds a player's
        value by looping over it); marriages become "suit:player" strings tested with ``in``."""
        marriages = payload.get("marriages") or {}
        return {
            "declarer": payload.get("declarer") or "",
            "bid": "" if payload.get("bid") is None else str(payload["bid"]),
            "points": {name: str(value) for name, value in (payload.get("points") or {}).items()},
            "marriages": [f"{suit}:{name}" for name, suits in marriages.items() for suit in suits],
            "all_tricks": bool(payload.get("all_tricks")),
            "forgot_to_pass": bool(payload.get("forgot_to_pass")),
        }


# The module contract the views use (leagues/table/hand_entry/__init__.py).
payload_from_post = ThousandHandForm.payload_from_post
initial_from_payload = ThousandHandForm.from_payload


def extra_context(result):
    """The card points the live sum runs to, the bids the rules in force allow (the
    stepper's range and step, and the first few as the field's example), and the suits a
    marriage can be in (``scoring.thousand.SUITS``, each with its worth under the rules, for
    the live total), and the card points offered as chips: multiples of ``round_to`` below
    ``POINT_CHIPS_UP_TO``. A chip scores an opponent exactly what any figure rounding to it
    scores; the declarer's own points fill themselves from the total."""
    rules = result["rules"]
    low, high = bid_range(rules)
    step = rules["bid_step"]
    worth = rules["marriage_values"]
    suits = [{**chip, "worth": worth.get(chip["value"], 0)} for chip in suit_chips(SUITS)]
    return {
        "card_points": CARD_POINTS,
        "bid_min": low,
        "bid_max": high,
        "bid_step": step,
        "bid_examples": ", ".join(str(bid) for bid in range(low, high + 1, step)[:3]),
        # One tap for the bids made most often: the lowest few; the stepper and
        # the field for the rest.
        "quick_bids": list(range(low, high + 1, step)[:QUICK_BIDS]),
        "suits": suits,
        "point_chips": list(range(0, POINT_CHIPS_UP_TO, rules["round_to"])),
    }


# --- the sheet: what a hand decided and why it scored what it did ----------------------------


def game_end(figures, result):
    """The game won at this hand (the replay's ``game_winner``)."""
    winner = figures.get("game_winner")
    return [("game", winner, 1)] if winner else []


def penalty_facts(figures, *, sign=str):
    """The hand's Polish penalties (scoring/thousand.py) as (why, "Anna -120"), ``sign``
    writing the points: the why dialog's and the rule book's."""
    reasons = {"barrel": _("Fell off the barrel"), "zero_rounds": _("Three hands with 0 points")}
    return [
        (reasons.get(item["reason"], item["reason"]), f"{item['player']} {sign(item['points'])}")
        for item in figures.get("penalties") or ()
    ]


def breakdown(figures, payload, result):
    """The why dialog's figures: the declarer, his contract made or failed, durch and a
    forgotten pass as entered; per active player the card points and marriages as entered
    and what the replay scored for him (the rounding shows between the two)."""
    payload = payload or {}
    facts = [
        (_("Declarer"), figures.get("declarer") or payload.get("declarer")),
        (_("Contract"), f"{figures.get('contract')}, {outcome_label(figures.get('made'))}"),
    ]
    facts += _extras(payload)
    facts += penalty_facts(figures)  # part of the player's points below
    points = payload.get("points") or {}
    marriages = payload.get("marriages") or {}
    looks = _suit_looks()
    rows = [
        (
            player,
            [
                points.get(player, "–"),
                " ".join(looks.get(suit, suit) for suit in marriages.get(player) or ()) or "–",
                figures["scored"][player],
            ],
        )
        for player in figures.get("active", result["parties"])
    ]
    return {"facts": facts, "columns": [_("Card points"), _("Marriages"), _("Points")], "rows": rows}


def _suit_looks():
    """A suit's symbol (its label where it has none), as the chips show it."""
    return {chip["value"]: chip["symbol"] or str(chip["label"]) for chip in suit_chips(SUITS)}


def _extras(payload):
    """Durch and a forgotten pass, where the hand has them."""
    lines = []
    if payload.get("all_tricks"):
        lines.append((_("All tricks (durch)"), _("yes")))
    if payload.get("forgot_to_pass"):
        lines.append((_("Forgot to pass two cards"), _("yes")))
    return lines


def describe(payload):
    """The hand as entered, in the players' words (the why dialog's "as entered", the
    history), never the payload's field names."""
    lines = []
    if payload.get("declarer") is not None:
        lines.append((_("Declarer"), payload["declarer"]))
    if payload.get("bid") is not None:
        lines.append((_("Final bid"), payload["bid"]))
    points = payload.get("points")
    if isinstance(points, dict) and points:
        lines.append((_("Card points"), ", ".join(f"{p} {v}" for p, v in points.items())))
    melded = _melded(payload.get("marriages"))
    if melded:
        lines.append((_("Marriages"), ", ".join(melded)))
    return lines + _extras(payload)


def _melded(marriages):
    """Each player's marriages as entered ("Anna ♥ ♠"); nothing where none can be read."""
    if not isinstance(marriages, dict):
        return []
    looks = _suit_looks()
    return [
        f"{p} {' '.join(looks.get(str(s), str(s)) for s in suits)}"
        for p, suits in marriages.items()
        if isinstance(suits, list) and suits
    ]
