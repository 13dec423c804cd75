"""The base of every game's hand form (leagues/table/hand_entry/base.py): what its fields read
from a phone's post, and its problems keyed by the hand's fields."""

from leagues.table.hand_entry.base import FlagField, HandForm, ListField, TextField, WholeNumberField
from tests.form_posts import post

RESULT = {"next": {"active": ["Ben", "Carl", "Dora"]}, "rules": {}}


class BidForm(HandForm):
    """A made-up game: a bidder, a bid, a flag, chips, and card points per player."""

    bidder = TextField()
    bid = WholeNumberField(required=True)
    doubled = FlagField()
    tricks = ListField()

    ERROR_FIELDS = {"bid": "contract"}

    def add_fields(self):
        self.add_player_fields("points", WholeNumberField())

    def to_payload(self):
        return {
            "bidder": self.value("bidder"),
            "contract": self.value("bid"),
            "doubled": self.value("doubled"),
            "tricks": self.value("tricks"),
            "points": self.player_values("points"),
        }

    @classmethod
    def from_payload(cls, payload):
        return {"bid": payload.get("contract")}


def read(**fields):
    return BidForm.payload_from_post(post(**fields), players=["Anna", "Ben", "Carl", "Dora"], result=RESULT)


def test_it_reads_numbers_flags_chips_and_one_field_per_active_player():
    payload, errors = read(
        bidder=" Ben ", bid=" 120 ", doubled="1", tricks=["Ben", "", "Carl"], **{"points:Ben": "60", "points:Carl": "0"}
    )
    assert errors == {}
    assert payload == {
        "bidder": "Ben",
        "contract": 120,
        "doubled": True,
        "tricks": ["Ben", "Carl"],
        "points": {"Ben": 60, "Carl": 0, "Dora": None},
    }
    # Anna sits out: she has no field, and a posted one is not read.
    assert "points:Anna" not in BidForm(players=["Anna"], result=RESULT).fields


def test_a_flag_posted_as_0_or_blank_is_off():
    for off in ("0", "", "no", "false"):
        assert read(bid="1", doubled=off)[0]["doubled"] is False
    for on in ("on", "true", "yes", "1"):
        assert read(bid="1", doubled=on)[0]["doubled"] is True


def test_it_names_the_hands_field_of_what_it_cannot_read_and_keeps_the_text():
    payload, errors = read(bid="12x", **{"points:Carl": "١٢"})  # Arabic-Indic digits are not 12
    assert errors == {"contract": "“12x” is not a whole number.", "points": "“١٢” is not a whole number."}
    assert payload["contract"] == "12x" and payload["points"]["Carl"] == "١٢"


def test_a_required_number_left_blank_is_named():
    _payload, errors = read(bid="")
    assert errors == {"contract": "Enter a number."}


def test_a_hand_error_of_no_single_field_is_keyed_as_the_engine_would():
    form = BidForm(post(bid="1"), players=["Ben"], result=RESULT)
    assert form.is_valid()
    form.add_hand_error("tricks", "Tap who took each trick.")
    assert not form.is_valid()
    assert form.hand_errors() == {"tricks": "Tap who took each trick."}
