"""Input and output shapes of the API, for validation of the outer shape and for the OpenAPI
schema. The hands themselves are checked by scoring/, which knows each game's shape."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from leagues.table.night_forms import MAX_TABLES
from scoring import club_night
from scoring.limits import (
    INT32_MAX,
    MAX_BILL_PLAYERS,
    MAX_CENTS_PER_POINT,
    MAX_HANDS,
    MAX_MONEY_CENTS,
    MAX_START_TOTAL,
)
from scoring.numbers import decimal_number, whole_number
from scoring.registry import game_names, get_game

# The widest table of any game: the schema's bounds on "players" (each game checks its own).
FEWEST_PLAYERS = min(get_game(name).min_players for name in game_names())
MOST_PLAYERS = max(get_game(name).max_players for name in game_names())
NULL_IS_OMITTED = _("null: the same as leaving it out.")
# A hand's version is a 32-bit column on PostgreSQL: a larger one names no version there is.
MAX_VERSION = INT32_MAX


class CalculateInputSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=game_names())
    variant = serializers.CharField(
        required=False, allow_null=True, help_text=_("A preset of the game; omitted or null: its default.")
    )
    # scoring/sitting.py reads a null optional field as a missing one, and the schema says so.
    rules = serializers.DictField(
        required=False, allow_null=True, help_text=_("Overrides of single options.") + " " + NULL_IS_OMITTED
    )
    players = serializers.ListField(
        child=serializers.CharField(),
        min_length=FEWEST_PLAYERS,
        max_length=MOST_PLAYERS,
        help_text=_("Seat order, the first deals first."),
    )
    teams = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        allow_null=True,
        help_text=_("Team to players.") + " " + NULL_IS_OMITTED,
    )
    compulsory_solos = serializers.ListField(
        child=serializers.CharField(), required=False, allow_null=True, help_text=NULL_IS_OMITTED
    )
    start_totals = serializers.DictField(
        child=serializers.IntegerField(min_value=-MAX_START_TOTAL, max_value=MAX_START_TOTAL),
        required=False,
        allow_null=True,
        help_text=NULL_IS_OMITTED,
    )
    hands = serializers.ListField(
        child=serializers.DictField(), max_length=MAX_HANDS, help_text=_("In playing order, as entered.")
    )


class HandOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.CharField()
    active = serializers.ListField(child=serializers.CharField())
    deltas = serializers.DictField(child=serializers.IntegerField())
    totals = serializers.DictField(child=serializers.IntegerField())
    # Every game fills both (scoring/results.py), beside its own fields (calculate-api.md).
    hand_winners = serializers.ListField(
        child=serializers.CharField(),
        help_text=_("The parties that won this hand (who won, not who gained); empty when nobody won it."),
    )
    game_winner = serializers.CharField(
        allow_null=True,
        help_text=_("The party that won a game (Partie, match, pot) at this hand, or null."),
    )


class CalculateOutputSerializer(serializers.Serializer):
    game = serializers.CharField()
    variant = serializers.CharField()
    rules = serializers.DictField()
    parties = serializers.ListField(child=serializers.CharField())
    hands = HandOutputSerializer(many=True)
    totals = serializers.DictField(child=serializers.IntegerField())
    next = serializers.DictField()


class ErrorSerializer(serializers.Serializer):
    hand = serializers.IntegerField(allow_null=True)
    field = serializers.CharField(allow_null=True)
    message = serializers.CharField()


class ErrorsSerializer(serializers.Serializer):
    errors = ErrorSerializer(many=True)


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {"type": "integer"},
        "minProperties": 1,
        "maxProperties": MAX_BILL_PLAYERS,
    }
)
class ScoresField(serializers.DictField):
    """Season totals by player: one player at least, MAX_BILL_PLAYERS at most (scoring/bill.py)."""


@extend_schema_field(
    {
        "oneOf": [
            {"type": "number", "minimum": 0, "maximum": 100, "multipleOf": 0.01},
            {"type": "string", "pattern": r"^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$"},
        ]
    }
)
class TipPercentField(serializers.DecimalField):
    """A percentage as scoring/bill.py reads it: a number, or a decimal string, 0 to 100."""

    def __init__(self, **kwargs):
        super().__init__(max_digits=5, decimal_places=2, min_value=0, max_value=100, **kwargs)


class BillSplitInputSerializer(serializers.Serializer):
    total = serializers.CharField(help_text=_('The bill, e.g. "187.40".'))
    scores = ScoresField(child=serializers.IntegerField(), help_text=_("Season totals by player."))
    method = serializers.ChoiceField(choices=["equal", "per_point", "by_rank"], required=False)
    cents_per_point = serializers.IntegerField(required=False, min_value=0, max_value=MAX_CENTS_PER_POINT)
    tip_percent = TipPercentField(required=False, help_text=_("From 0 to 100, at most two decimals."))
    paid_by = serializers.CharField(required=False, help_text=_("Who paid the whole bill; not together with paid."))
    paid = serializers.DictField(
        child=serializers.CharField(), required=False, help_text=_("Who paid how much; not together with paid_by.")
    )


class TransferSerializer(serializers.Serializer):
    # "from" is a Python keyword, hence the explicit source-less field names below.
    amount = serializers.CharField()
    to = serializers.CharField()

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = serializers.CharField()
        return fields


class BillSplitOutputSerializer(serializers.Serializer):
    total = serializers.CharField()
    rate = serializers.CharField(allow_null=True)
    shares = serializers.DictField(child=serializers.CharField())
    transfers = TransferSerializer(many=True)
    chooses_restaurant = serializers.CharField(allow_null=True)


class LeagueOutputSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    game = serializers.CharField()
    variant = serializers.CharField()
    role = serializers.CharField()


class WholeNumberField(serializers.IntegerField):
    """DRF's IntegerField reads "١٢" or "１２" as 12 (it calls int()); a number sent as a string
    is read with ASCII digits only (scoring/numbers.py), a JSON number as it is."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            number = whole_number(data)
            if number is None:
                self.fail("invalid")
            data = number
        return super().to_internal_value(data)


class HandInputSerializer(serializers.Serializer):
    # The number of the hand the phone is entering (the next one), so that two phones at
    # once cannot both save "hand 12": the second gets a 409.
    # One of number and idempotency_key is required (the view checks it: the key may come as
    # a header).
    number = WholeNumberField(
        required=False,
        min_value=1,
        max_value=MAX_HANDS,
        help_text=_(
            "The number of the hand, the next one the client saw: 409 when another phone entered it first. "
            "This or idempotency_key (or both) is required."
        ),
    )
    payload = serializers.DictField(help_text=_("The hand in the shape of its game's spec."))
    idempotency_key = serializers.UUIDField(
        required=False,
        help_text=_(
            "A UUID the client chose for this hand (or the Idempotency-Key header): sent again with the same "
            "payload, it returns the hand entered with it as it is now (200), corrected or deleted since or "
            "not, instead of entering it twice. This or number (or both) is required."
        ),
    )


class HandChangeInputSerializer(serializers.Serializer):
    payload = serializers.DictField(help_text=_("The hand in the shape of its game's spec."))
    version = WholeNumberField(
        required=False,
        min_value=1,
        max_value=MAX_VERSION,
        help_text=_("The version of the hand the client saw (or an If-Match header); required."),
    )


class HandReplaceInputSerializer(HandChangeInputSerializer):
    """A hand entered offline takes the place of the stored hand with its number."""

    idempotency_key = serializers.UUIDField(
        required=False,
        help_text=_(
            "The UUID of the hand that replaces it (or the Idempotency-Key header); required: sent again, it "
            "answers with the hand as it is now instead of replacing it twice."
        ),
    )
    entered_as = WholeNumberField(
        required=False,
        min_value=1,
        max_value=MAX_HANDS,
        help_text=_("The number the hand was entered as offline (for the history)."),
    )


class HandVersionInputSerializer(serializers.Serializer):
    version = WholeNumberField(
        required=False,
        min_value=1,
        max_value=MAX_VERSION,
        help_text=_("The version of the hand the client saw (or an If-Match header); required."),
    )


class StoredHandOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField(allow_null=True, help_text=_("Its number on the sheet; null while deleted."))
    version = serializers.IntegerField(help_text=_("1 when entered, +1 at every correction, deletion and restore."))
    payload = serializers.DictField(help_text=_("The hand as entered."))
    deleted = serializers.BooleanField()
    idempotency_key = serializers.UUIDField(allow_null=True)


class CurrentHandOutputSerializer(StoredHandOutputSerializer):
    changed_by = serializers.CharField(allow_null=True, help_text=_("Who wrote this version."))
    changed_at = serializers.DateTimeField()


class MeetingOutputSerializer(serializers.Serializer):
    """A meeting as the API shows it: its seated players, hands and replay."""

    id = serializers.IntegerField()
    date = serializers.DateField()
    season = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    hands = StoredHandOutputSerializer(many=True)
    result = serializers.DictField(help_text=_("The replay, in the shape of POST /api/v1/calculate/."))
    closed_at = serializers.DateTimeField(
        allow_null=True,
        help_text=_("When the evening was closed (its hands are then read-only), or null while it is open."),
    )
    club_night = serializers.IntegerField(
        allow_null=True,
        help_text=_("The club night it is a table of (GET …/club-nights/<id>/), or null for an evening at one table."),
    )
    table_number = serializers.IntegerField(
        allow_null=True, help_text=_("Its table's number at the club night (from 1), or null.")
    )


class MeetingHandOutputSerializer(MeetingOutputSerializer):
    """The meeting after a write of one hand, with that hand as it is now."""

    hand = StoredHandOutputSerializer()


# --- the cashbox (leagues/api/cashbox.py) -----------------------------------------------------


@extend_schema_field({"type": "string", "example": "12.30"})
class MoneyField(serializers.Field):
    """An amount in euros as the API writes money ("12.30": a decimal point, at most two
    decimals, ASCII digits; scoring/numbers.py reads it), as whole cents inside."""

    default_error_messages = {
        "invalid": _("An amount in euros with at most two decimals, like 12.30."),
        "range": _("An amount from %(least)s to 1000000.00."),
    }

    def __init__(self, *, least_cents, **kwargs):
        self.least_cents = least_cents
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        number = decimal_number(data, places=2) if isinstance(data, str) and len(data) <= 16 else None
        if number is None:
            self.fail("invalid")
        cents = number * 100
        if not self.least_cents <= cents <= MAX_MONEY_CENTS:
            self.fail("range", least=f"{self.least_cents / 100:.2f}")
        return int(cents)

    def to_representation(self, value):
        return f"{value / 100:.2f}" if isinstance(value, int) else str(value)


class TextField(serializers.CharField):
    """DRF's CharField takes a JSON number as its text (0 becomes "0"); a note the schema calls
    a string is refused as anything but a string."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class CashboxEntryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text=_("evening, fee, deposit (in); dinner, purchase, payout (out); counter."))
    amount = serializers.CharField(help_text=_("Euros, signed: above 0 into the cashbox, below 0 out of it."))
    cents = serializers.IntegerField(help_text=_("The same amount in whole cents."))
    note = serializers.CharField()
    season = serializers.IntegerField(allow_null=True, help_text=_("The season's number, if linked."))
    meeting = serializers.IntegerField(allow_null=True, help_text=_("The evening's id, if linked."))
    counters = serializers.IntegerField(allow_null=True, help_text=_("The entry a counter-entry undoes."))
    undone = serializers.BooleanField(help_text=_("A counter-entry undoes it."))
    recorded_by = serializers.CharField()
    recorded_at = serializers.DateTimeField()


class CashCountOutputSerializer(serializers.Serializer):
    amount = serializers.CharField()
    cents = serializers.IntegerField()
    counted_on = serializers.DateField()
    note = serializers.CharField()
    counted_by = serializers.CharField()
    recorded_at = serializers.DateTimeField()


class CashboxOutputSerializer(serializers.Serializer):
    balance = serializers.CharField(help_text=_("The balance by the ledger (Soll), in euros: the sum of every entry."))
    balance_cents = serializers.IntegerField()
    latest_count = CashCountOutputSerializer(allow_null=True, help_text=_("The latest count (Ist), or null."))
    balance_at_count = serializers.CharField(allow_null=True, help_text=_("The ledger's balance when it was counted."))
    difference = serializers.CharField(allow_null=True, help_text=_("Counted minus the ledger's balance then."))
    entries = CashboxEntryOutputSerializer(many=True, help_text=_("Newest first, at most 200."))
    entries_total = serializers.IntegerField(help_text=_("How many entries the ledger has."))


class CashboxEntryInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["evening", "fee", "deposit", "dinner", "purchase", "payout"],
        help_text=_(
            "Money in (evening, fee, deposit: scorekeepers and admins) or out (dinner, purchase, payout: admins)."
        ),
    )
    amount = MoneyField(least_cents=1, help_text=_("Euros above 0, like 12.30."))
    note = TextField(max_length=200, help_text=_("Why."))
    season = WholeNumberField(required=False, allow_null=True, min_value=1, max_value=INT32_MAX)
    meeting = WholeNumberField(required=False, allow_null=True, min_value=1, max_value=INT32_MAX)


class CashboxCounterInputSerializer(serializers.Serializer):
    note = TextField(max_length=200, help_text=_("Why the entry is undone."))


class CashCountInputSerializer(serializers.Serializer):
    amount = MoneyField(least_cents=0, help_text=_("Euros counted, like 187.40."))
    counted_on = serializers.DateField()
    note = TextField(max_length=200, required=False, allow_blank=True, default="")


# --- an evening's settlement (leagues/api/settlement.py) -------------------------------------


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class SettlementTotalSerializer(serializers.Serializer):
    player = PlayerRefSerializer()
    total = serializers.IntegerField(help_text=_("The player's total of the evening."))
    net = serializers.CharField(help_text=_("Euros the evening's money leaves him with: received minus paid."))
    net_cents = serializers.IntegerField()


class SettlementLineSerializer(serializers.Serializer):
    payer = PlayerRefSerializer(allow_null=True, help_text=_("null: the league's cashbox."))
    payee = PlayerRefSerializer(allow_null=True, help_text=_("null: the league's cashbox."))
    amount = serializers.CharField(help_text=_("Euros, like 0.30."))
    cents = serializers.IntegerField()
    reason = serializers.CharField(
        help_text=_("points, game, match, evening fee, lost solo, missed pennant or correction.")
    )
    figures = serializers.DictField(help_text=_("The figures that led to it (totals, rate, stake, fee)."))


class PayToSerializer(serializers.Serializer):
    holder = serializers.CharField()
    iban = serializers.CharField()


class OpenPaymentSerializer(serializers.Serializer):
    payer = PlayerRefSerializer(allow_null=True, help_text=_("null: the league's cashbox (a refund)."))
    payee = PlayerRefSerializer(allow_null=True, help_text=_("null: the league's cashbox."))
    amount = serializers.CharField(help_text=_("Euros, like 0.30: post it back with payer and payee to tick it."))
    cents = serializers.IntegerField()
    correction = serializers.BooleanField(help_text=_("It comes from a correction of an evening already paid."))
    pay_to = PayToSerializer(
        allow_null=True,
        help_text=_("The payee's account, only to the payer and only where he may see it; else null."),
    )


class PaidPaymentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    payer = PlayerRefSerializer(allow_null=True, help_text=_("null: the league's cashbox."))
    payee = PlayerRefSerializer(allow_null=True, help_text=_("null: the league's cashbox."))
    amount = serializers.CharField()
    cents = serializers.IntegerField()
    paid_how = serializers.CharField(help_text=_("cash or transfer."))
    paid_at = serializers.DateTimeField()
    ticked_by = serializers.CharField()
    correction = serializers.BooleanField()
    cashbox_entry = serializers.IntegerField(allow_null=True, help_text=_("The ledger's entry it made, if any."))


class SettlementOutputSerializer(serializers.Serializer):
    meeting = serializers.IntegerField()
    date = serializers.DateField()
    closed = serializers.BooleanField()
    settles = serializers.BooleanField(
        help_text=_("Whether the evening settles: closed and played for money. Else the rest is empty.")
    )
    rules = serializers.DictField(allow_null=True, help_text=_("The money rules the evening was played under."))
    totals = SettlementTotalSerializer(many=True, help_text=_("In seat order."))
    cashbox = serializers.CharField(allow_null=True, help_text=_("Euros the evening pays into the cashbox."))
    cashbox_cents = serializers.IntegerField(allow_null=True)
    lines = SettlementLineSerializer(many=True, help_text=_("Every amount owed and why."))
    open = OpenPaymentSerializer(many=True, help_text=_("The payments still to make."))
    paid = PaidPaymentSerializer(many=True, help_text=_("The payments ticked as paid, oldest first."))
    corrected = serializers.BooleanField(help_text=_("The evening changed after a payment of it was ticked."))


class PaymentTickInputSerializer(serializers.Serializer):
    payer = WholeNumberField(
        allow_null=True, min_value=1, max_value=INT32_MAX, help_text=_("The payer's player id; null: the cashbox.")
    )
    payee = WholeNumberField(
        allow_null=True, min_value=1, max_value=INT32_MAX, help_text=_("The payee's player id; null: the cashbox.")
    )
    amount = MoneyField(least_cents=1, help_text=_("Euros, as the open payment says, like 0.30."))
    paid_how = serializers.ChoiceField(choices=["cash", "transfer"], help_text=_("cash or transfer."))

    def validate(self, attrs):
        if attrs["payer"] is None and attrs["payee"] is None:
            raise serializers.ValidationError({"payer": _("A payment is between a player and someone.")})
        return attrs


# --- club nights (leagues/api/nights.py) -------------------------------------------------------


class IdField(serializers.IntegerField):
    """An id, a JSON whole number only: "12" (a string) is not one, nor true or 12.5."""

    def __init__(self, **kwargs):
        super().__init__(min_value=1, max_value=INT32_MAX, **kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class FlagField(serializers.BooleanField):
    """true or false, a JSON boolean only (DRF's own takes "yes", 1 and "on" too)."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class ClubNightOpenInputSerializer(serializers.Serializer):
    date = serializers.DateField(help_text=_("The evening's date, e.g. 2026-11-20."))
    host = IdField(
        help_text=_(
            "The evening's host (a player's id), one of the players at the tables: he deals first at his table "
            "(its seat order is turned to start with him), and every table names him as its host."
        )
    )
    tables = serializers.ListField(
        child=serializers.ListField(child=IdField(), min_length=FEWEST_PLAYERS, max_length=MOST_PLAYERS),
        min_length=2,
        max_length=MAX_TABLES,
        help_text=_(
            "Each table's players (ids of the league's active players) in seat order, table 1 first; the first "
            "at a table deals first there. How many a table seats is the game's rule."
        ),
    )
    end_time = serializers.TimeField(
        required=False, allow_null=True, help_text=_("When the evening ends, e.g. 23:30 (every table).")
    )
    pennant_holder = IdField(
        required=False,
        allow_null=True,
        help_text=_("Who had to bring the pennant (games with penalty soli): kept at the table he sits at."),
    )
    pennant_forgotten = FlagField(required=False, default=False, help_text=_("He forgot the pennant."))


class NightTableOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text=_("The table's number, from 1."))
    meeting = serializers.IntegerField(
        help_text=_("The table's evening: its sheet at GET …/meetings/<id>/, its hands entered there.")
    )
    players = serializers.ListField(child=serializers.CharField(), help_text=_("In seat order."))
    closed_at = serializers.DateTimeField(allow_null=True, help_text=_("When the table ended, or null."))


@extend_schema_field({"type": "string", "pattern": r"^-?\d+(/\d+)?$", "example": "17/3"})
class ExactScoreField(serializers.Field):
    """A score as an exact fraction in a string: "12", "-5/2", "17/3" (no decimal rounds it)."""

    def to_representation(self, value):
        return str(value)


class NightStandingOutputSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text=_("Shared by players level in score and points."))
    player = PlayerRefSerializer()
    table = serializers.IntegerField(help_text=_("The number of his table."))
    score = ExactScoreField(
        help_text=_(
            "The figure the night ranks by (the night's way to combine its tables), exact: a whole number or a "
            'fraction such as "17/3".'
        )
    )
    points = serializers.IntegerField(help_text=_("What he scored at his table (games won in a race game)."))
    games = serializers.IntegerField(help_text=_("The games he played."))


class ClubNightOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    date = serializers.DateField()
    season = serializers.IntegerField(help_text=_("The season's number."))
    host = PlayerRefSerializer()
    combine = serializers.ChoiceField(
        choices=club_night.METHODS,
        help_text=_(
            "How the tables make one evening's standings: the points as scored, points per game played, or a "
            "placing at one's table (a point for each player behind, half for each level)."
        ),
    )
    tables = NightTableOutputSerializer(many=True, help_text=_("In table order."))
    standings = NightStandingOutputSerializer(many=True, help_text=_("The evening's standings, first place first."))
